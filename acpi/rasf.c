/* RASF, the RAS Feature table (ACPI 6.5 5.2.21): the PCC channel of the platform's RAS features. */
#include "acpi/fields.h"

static const struct fw_field rasf_fields[] = {
	{"ChannelId", FW_FT_BYTES, 36, 12, 0, NULL},
};
static const struct fw_layout rasf = FW_LAYOUT("RASF", 48, rasf_fields);
const struct fw_acpi_layout fw_acpi_rasf_table = {.fixed = &rasf, .start_field = -1, .count_field = -1};
