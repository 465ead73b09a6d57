/* SLIT layouts and decoder. */
#include "slit.h"

static const struct fw_field slit_fields[SLIT__COUNT] = {
	[SLIT_LOCALITY_COUNT] = {"LocalityCount", FW_FT_U64, 36, 0, 0, NULL},
};
const struct fw_layout fw_slit_layout = FW_LAYOUT("SLIT header", FW_SLIT_HEADER_SIZE, slit_fields);

void *fw_acpi_slit_decode(struct fw_acpi_table *t, struct fw_arena *a)
{
	struct fw_slit *m = fw_arena_alloc(a, sizeof(*m));
	const struct fw_view *v = &t->data;
	if (!fw_view_has(v, 0, fw_slit_layout.size)) {
		fw_acpi_diag(t, a, FW_DIAG_ERROR, 0, "SLIT of 0x%zx bytes is shorter than its 44-byte header", v->len);
		return m;
	}
	m->localities = fw_layout_get(&fw_slit_layout, v, 0, SLIT_LOCALITY_COUNT);
	size_t room = v->len - fw_slit_layout.size;
	/* N*N must fit in what is left: compare N against room / N so nothing overflows. */
	if (m->localities == 0 || m->localities > room || m->localities * m->localities > room) {
		fw_acpi_diag(t, a, FW_DIAG_ERROR, 36, "locality count %llu needs a %llu x %llu matrix; only %zu bytes follow",
			     (unsigned long long)m->localities, (unsigned long long)m->localities,
			     (unsigned long long)m->localities, room);
		return m;
	}
	m->n = (size_t)m->localities;
	m->matrix = v->p + fw_slit_layout.size;
	if (m->n * m->n != room)
		fw_acpi_diag(t, a, FW_DIAG_INFO, fw_slit_layout.size + m->n * m->n, "%zu bytes after the matrix",
			     room - m->n * m->n);
	for (size_t i = 0; i < m->n; i++) {
		for (size_t j = 0; j < m->n; j++) {
			uint8_t d = m->matrix[i * m->n + j];
			size_t off = fw_slit_layout.size + i * m->n + j;
			if (i == j && d != 10)
				fw_acpi_diag(t, a, FW_DIAG_WARN, off, "distance from locality %zu to itself is %u, not 10", i, d);
			else if (i != j && d < 10)
				fw_acpi_diag(t, a, FW_DIAG_WARN, off, "distance %zu->%zu is %u; values below 10 are reserved", i, j, d);
			else if (i < j && d != m->matrix[j * m->n + i])
				fw_acpi_diag(t, a, FW_DIAG_INFO, off, "distance %zu->%zu (%u) differs from %zu->%zu (%u)", i, j, d, j, i,
					     m->matrix[j * m->n + i]);
		}
	}
	return m;
}
