/* CDIT, AMD's Component Distance Information Table: the relative distance between the HSA
 * proximity domains of the CRAT, an N x N byte matrix like the SLIT's (layout as the Linux
 * amdkfd driver reads it). */
#include "acpi/fields.h"

static const struct fw_field cdit_fields[] = {
	{"NumDomains", FW_FT_U32, 36, 0, 0, NULL},
};
static const struct fw_layout cdit = FW_LAYOUT("CDIT", 40, cdit_fields);
const struct fw_acpi_layout fw_acpi_cdit_table = {.fixed = &cdit, .rest = FW_ACPI_REST_MATRIX, .start_field = -1, .count_field = 0};
