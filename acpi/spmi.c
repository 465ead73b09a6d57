/* SPMI, the Server Platform Management Interface table (IPMI 2.0 appendix C): where the BMC's
 * system interface is. */
#include "acpi/fields.h"
#include "acpi/gas.h"

static const struct fw_named_value interface_types[] = {{1, "KCS"}, {2, "SMIC"}, {3, "BT"}, {4, "SSIF"}, {0, NULL}};
static const struct fw_bitfield interrupt_type_bits[] = {{"Sci", 0, 1, NULL}, {"IoApic", 1, 1, NULL}};
static const struct fw_bitfields interrupt_type = FW_BITFIELDS(interrupt_type_bits);
static const struct fw_bitfield pci_bits[] = {{"PciDevice", 0, 1, NULL}};
static const struct fw_bitfields pci = FW_BITFIELDS(pci_bits);

static const struct fw_field spmi_fields[] = {
	{"InterfaceType", FW_FT_U8, 36, 0, FW_FF_ENUM, interface_types},
	{"SpecificationRevision", FW_FT_U16, 38, 0, FW_FF_HEX, NULL},
	{"InterruptType", FW_FT_U8, 40, 0, FW_FF_BITS, .names = &interrupt_type},
	{"GpeNumber", FW_FT_U8, 41, 0, 0, NULL},
	{"PciDeviceFlag", FW_FT_U8, 43, 0, FW_FF_BITS, .names = &pci},
	{"Interrupt", FW_FT_U32, 44, 0, 0, NULL},
	FW_ACPI_GAS("IpmiRegister", 48),
	{"PciSegment", FW_FT_U8, 60, 0, 0, NULL},
	{"PciBus", FW_FT_U8, 61, 0, 0, NULL},
	{"PciDevice", FW_FT_U8, 62, 0, 0, NULL},
	{"PciFunction", FW_FT_U8, 63, 0, 0, NULL},
};
static const struct fw_layout spmi = FW_LAYOUT("SPMI", 65, spmi_fields);
const struct fw_acpi_layout fw_acpi_spmi_table = {.fixed = &spmi, .start_field = -1, .count_field = -1};
