/* MSCT, the Maximum System Characteristics Table (ACPI 6.5 5.2.19): how many proximity domains
 * and clock domains the platform can have, and what each range of domains can hold. */
#include "acpi/fields.h"

enum { MSCT_PROXIMITY_OFFSET, MSCT_MAX_PROXIMITY_DOMAINS, MSCT_MAX_CLOCK_DOMAINS, MSCT_MAX_ADDRESS };
static const struct fw_field msct_fields[] = {
	[MSCT_PROXIMITY_OFFSET] = {"ProximityOffset", FW_FT_U32, 36, 0, FW_FF_HEX, NULL},
	[MSCT_MAX_PROXIMITY_DOMAINS] = {"MaxProximityDomains", FW_FT_U32, 40, 0, 0, NULL},
	[MSCT_MAX_CLOCK_DOMAINS] = {"MaxClockDomains", FW_FT_U32, 44, 0, 0, NULL},
	[MSCT_MAX_ADDRESS] = {"MaxAddress", FW_FT_U64, 48, 0, FW_FF_HEX, NULL},
};
static const struct fw_layout msct = FW_LAYOUT("MSCT", 56, msct_fields);

static const struct fw_field domain_fields[] = {
	{"Revision", FW_FT_U8, 0, 0, 0, NULL},
	{"Length", FW_FT_U8, 1, 0, 0, NULL},
	{"RangeStart", FW_FT_U32, 2, 0, 0, NULL},
	{"RangeEnd", FW_FT_U32, 6, 0, 0, NULL},
	{"ProcessorCapacity", FW_FT_U32, 10, 0, 0, NULL},
	{"MemoryCapacity", FW_FT_U64, 14, 0, FW_FF_HEX, NULL},
};
static const struct fw_layout domain = FW_LAYOUT("proximity domain range", 22, domain_fields);

const struct fw_acpi_layout fw_acpi_msct_table = {
	.fixed = &msct, .rest = FW_ACPI_REST_ENTRIES, .start_field = MSCT_PROXIMITY_OFFSET, .count_field = -1, .entry = &domain,
};
