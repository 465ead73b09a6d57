/* UEFI, the UEFI ACPI data table (UEFI 2.10 appendix O): a GUID naming what the data is and
 * where the data starts. */
#include "acpi/fields.h"

static const struct fw_field uefi_fields[] = {
	{"Identifier", FW_FT_GUID, 36, 0, 0, NULL},
	{"DataOffset", FW_FT_U16, 52, 0, 0, NULL},
};
static const struct fw_layout uefi = FW_LAYOUT("UEFI", 54, uefi_fields);
const struct fw_acpi_layout fw_acpi_uefi_table = {.fixed = &uefi, .start_field = -1, .count_field = -1};
