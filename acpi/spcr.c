/* SPCR, the Serial Port Console Redirection table (Microsoft, revision 2): the serial console
 * the firmware used and how to reach it. */
#include "acpi/fields.h"
#include "acpi/gas.h"

static const struct fw_named_value interface_types[] = {
	{0x00, "16550"}, {0x01, "16450"}, {0x02, "MAX311xE SPI"}, {0x03, "Arm PL011"}, {0x0D, "Arm SBSA 32-bit"},
	{0x0E, "Arm SBSA generic"}, {0x0F, "Arm DCC"}, {0x10, "BCM2835"}, {0x11, "SDM845 1.8432 MHz"},
	{0x12, "16550 with generic address"}, {0x13, "SDM845 7.372 MHz"}, {0x14, "Intel LPSS"}, {0, NULL},
};
static const struct fw_bitfield interrupt_type_bits[] = {
	{"Pic8259", 0, 1, NULL}, {"IoApic", 1, 1, NULL}, {"IoSapic", 2, 1, NULL}, {"ArmGic", 3, 1, NULL}, {"RiscVPlic", 4, 1, NULL},
};
static const struct fw_bitfields interrupt_type = FW_BITFIELDS(interrupt_type_bits);
static const struct fw_named_value baud_rates[] = {
	{0, "as is"}, {3, "9600"}, {4, "19200"}, {6, "57600"}, {7, "115200"}, {0, NULL},
};
static const struct fw_bitfield flow_bits[] = {{"Dcd", 0, 1, NULL}, {"RtsCts", 1, 1, NULL}, {"XonXoff", 2, 1, NULL}};
static const struct fw_bitfields flow = FW_BITFIELDS(flow_bits);
static const struct fw_named_value terminal_types[] = {{0, "VT100"}, {1, "VT100+"}, {2, "VT-UTF8"}, {3, "ANSI"}, {0, NULL}};

static const struct fw_field spcr_fields[] = {
	{"InterfaceType", FW_FT_U8, 36, 0, FW_FF_ENUM, interface_types},
	FW_ACPI_GAS("SerialPort", 40),
	{"InterruptType", FW_FT_U8, 52, 0, FW_FF_BITS, .names = &interrupt_type},
	{"PcInterrupt", FW_FT_U8, 53, 0, 0, NULL},
	{"Interrupt", FW_FT_U32, 54, 0, 0, NULL},
	{"BaudRate", FW_FT_U8, 58, 0, FW_FF_ENUM, baud_rates},
	{"Parity", FW_FT_U8, 59, 0, 0, NULL},
	{"StopBits", FW_FT_U8, 60, 0, 0, NULL},
	{"FlowControl", FW_FT_U8, 61, 0, FW_FF_BITS, .names = &flow},
	{"TerminalType", FW_FT_U8, 62, 0, FW_FF_ENUM, terminal_types},
	{"PciDeviceId", FW_FT_U16, 64, 0, FW_FF_HEX, NULL},
	{"PciVendorId", FW_FT_U16, 66, 0, FW_FF_HEX, NULL},
	{"PciBus", FW_FT_U8, 68, 0, 0, NULL},
	{"PciDevice", FW_FT_U8, 69, 0, 0, NULL},
	{"PciFunction", FW_FT_U8, 70, 0, 0, NULL},
	{"PciFlags", FW_FT_U32, 71, 0, FW_FF_HEX, NULL},
	{"PciSegment", FW_FT_U8, 75, 0, 0, NULL},
};
static const struct fw_layout spcr = FW_LAYOUT("SPCR", 80, spcr_fields);
const struct fw_acpi_layout fw_acpi_spcr_table = {.fixed = &spcr, .start_field = -1, .count_field = -1};
