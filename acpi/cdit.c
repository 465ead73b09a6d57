/* CDIT, AMD's Component Distance Information Table: the relative distance between the HSA
 * proximity domains of the CRAT, an N x N byte matrix read as SLIT's is (layout as the Linux
 * amdkfd driver reads it, kfd_crat.h: NumDomains u32 @36, the matrix from 40), written and
 * checked as SLIT's. */
#include "acpi/fields.h"
#include "acpi/slit.h"

static const struct fw_field cdit_fields[] = {
	{"NumDomains", FW_FT_U32, 36, 0, 0, NULL},
};
static const struct fw_layout cdit = FW_LAYOUT("CDIT", 40, cdit_fields);

static const struct fw_acpi_show cdit_show[] = {{"domains", "NumDomains", FW_AS_NUMBER, false, NULL}};
static const char *const cdit_text[] = {"{NumDomains:%u} domains; distance from row to column (10 = local):", NULL};
static const struct fw_acpi_shape cdit_shapes[] = {FW_ACPI_SHAPE(&cdit, cdit_show, cdit_text)};
static const struct fw_acpi_view cdit_view = FW_ACPI_VIEW(cdit_shapes, NULL);

const struct fw_acpi_layout fw_acpi_cdit_table = {
	.fixed = &cdit, .rest = FW_ACPI_REST_MATRIX, .start_field = -1, .count_field = 0, .view = &cdit_view,
};

/* The distance checks SLIT gets; the model stays the decoded document, as for every layout row. */
void *fw_acpi_cdit_decode(struct fw_acpi_table *t, struct fw_arena *a)
{
	if (t->doc->matrix)
		fw_acpi_distance_checks(t, a, t->doc->matrix, t->doc->matrix_n, cdit.size, "domain");
	return t->model;
}
