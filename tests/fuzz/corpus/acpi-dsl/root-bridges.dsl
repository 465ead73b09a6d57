DefinitionBlock ("", "DSDT", 2, "FWTEST", "UNITTEST", 0x00000001)
{
    External (\_SB_.PCI0.XXXX, MethodObj)    // 0 Arguments
    Scope (_SB)
    {
        Device (PCI0)
        {
            Name (_HID, EisaId ("PNP0A08") /* PCI Express Bus */)  // _HID: Hardware ID
            Name (_CID, EisaId ("PNP0A03") /* PCI Bus */)  // _CID: Compatible ID
            Method (^BN00, 0, NotSerialized)
            {
                Return (Zero)
            }
            Method (_BBN, 0, NotSerialized)  // _BBN: BIOS Bus Number
            {
                Return (BN00 ())
            }
            Name (_UID, Zero)
            Name (BRB, 0x0040)
            Method (_STA, 0, NotSerialized) { Return (STAV) }
            Name (STAV, 0x0F)
            Device (GPP0) { Name (_ADR, 0x00010001) Name (_PXM, 0x05) }
        }
        Device (CXL0)
        {
            Name (_HID, "ACPI0016" /* Compute Express Link Host Bridge */)
            Name (_CID, Package (0x02) { EisaId ("PNP0A08"), EisaId ("PNP0A03") })
            Name (_UID, "CXL0")
            Name (_SEG, One)
            Name (_CRS, ResourceTemplate ()
            {
                WordBusNumber (ResourceProducer, MinFixed, MaxFixed, PosDecode,
                    0x0000,             // Granularity
                    0x0080,             // Range Minimum
                    0x009F,             // Range Maximum
                    0x0000,             // Translation Offset
                    0x0020,             // Length
                    ,, )
            })
            Method (_BBN, 0, NotSerialized) { If (ABCD) { Return (0x80) } Return (0x40) }
        }
    }
    Scope (_SB.PCI0)
    {
        Method (BN00, 0, NotSerialized) { Return (BRB) }
        Method (_PXM, 0, NotSerialized) { Return (0x03) }
    }
}
