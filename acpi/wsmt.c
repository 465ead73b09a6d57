/* WSMT, the Windows SMM Security Mitigations Table: which SMM protections the firmware promises. */
#include "acpi/fields.h"

static const struct fw_bitfield protection_bits[] = {
	{"FixedCommBuffers", 0, 1, NULL},
	{"CommBufferNestedPtrProtection", 1, 1, NULL},
	{"SystemResourceProtection", 2, 1, NULL},
};
static const struct fw_bitfields protection = FW_BITFIELDS(protection_bits);
static const struct fw_field wsmt_fields[] = {
	{"ProtectionFlags", FW_FT_U32, 36, 0, FW_FF_BITS, .names = &protection},
};
static const struct fw_layout wsmt = FW_LAYOUT("WSMT", 40, wsmt_fields);
const struct fw_acpi_layout fw_acpi_wsmt_table = {.fixed = &wsmt, .start_field = -1, .count_field = -1};
