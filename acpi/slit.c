/* SLIT: its layout row (the locality count, then the distances as a matrix) and the checks on
 * the distances. */
#include "slit.h"

#include "acpi/fields.h"

static const struct fw_field slit_fields[SLIT__COUNT] = {
	[SLIT_LOCALITY_COUNT] = {"LocalityCount", FW_FT_U64, 36, 0, 0, NULL},
};
const struct fw_layout fw_slit_layout = FW_LAYOUT("SLIT header", FW_SLIT_HEADER_SIZE, slit_fields);

static const struct fw_acpi_show slit_show[] = {{"localities", "LocalityCount", FW_AS_NUMBER, false, NULL}};
static const char *const slit_text[] = {"{LocalityCount:%u} localities; distance from row to column (10 = local):", NULL};
static const struct fw_acpi_shape slit_shapes[] = {FW_ACPI_SHAPE(&fw_slit_layout, slit_show, slit_text)};
static const struct fw_acpi_view slit_view = FW_ACPI_VIEW(slit_shapes, NULL);

const struct fw_acpi_layout fw_acpi_slit_table = {
	.fixed = &fw_slit_layout, .rest = FW_ACPI_REST_MATRIX, .start_field = -1, .count_field = SLIT_LOCALITY_COUNT,
	.view = &slit_view,
};

void *fw_acpi_slit_decode(struct fw_acpi_table *t, struct fw_arena *a)
{
	struct fw_slit *m = fw_arena_alloc(a, sizeof(*m));
	const struct fw_acpi_doc *d = t->doc;
	if (t->data.len >= fw_slit_layout.size)
		m->localities = fw_layout_get(&fw_slit_layout, &t->data, 0, SLIT_LOCALITY_COUNT);
	if (t->data.len >= fw_slit_layout.size && !m->localities)
		fw_acpi_diag(t, a, FW_DIAG_ERROR, 36, "locality count 0: no distances");
	m->n = d->matrix_n;
	m->matrix = d->matrix;
	fw_acpi_distance_checks(t, a, m->matrix, m->n, fw_slit_layout.size, "locality");
	return m;
}

void fw_acpi_distance_checks(struct fw_acpi_table *t, struct fw_arena *a, const uint8_t *m, size_t n, size_t start,
			     const char *what)
{
	for (size_t i = 0; i < n; i++) {
		for (size_t j = 0; j < n; j++) {
			uint8_t x = m[i * n + j];
			size_t off = start + i * n + j;
			if (i == j && x != 10)
				fw_acpi_diag(t, a, FW_DIAG_WARN, off, "distance from %s %zu to itself is %u, not 10", what, i, x);
			else if (i != j && x < 10)
				fw_acpi_diag(t, a, FW_DIAG_WARN, off, "distance %zu->%zu is %u; values below 10 are reserved", i, j, x);
			else if (i < j && x != m[j * n + i])
				fw_acpi_diag(t, a, FW_DIAG_INFO, off, "distance %zu->%zu (%u) differs from %zu->%zu (%u)", i, j, x, j, i,
					     m[j * n + i]);
		}
	}
}
