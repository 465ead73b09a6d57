/* XSDT/RSDT decoder. */
#include "xsdt.h"

#include <string.h>

void *fw_acpi_xsdt_decode(struct fw_acpi_table *t, struct fw_arena *a)
{
	struct fw_acpi_xsdt *m = fw_arena_alloc(a, sizeof(*m));
	const struct fw_view *v = &t->data;
	m->is_xsdt = memcmp(t->signature, "XSDT", 4) == 0;
	size_t width = m->is_xsdt ? 8 : 4;
	size_t room = v->len > FW_ACPI_HEADER_SIZE ? v->len - FW_ACPI_HEADER_SIZE : 0;
	m->n = room / width;
	if (room % width)
		fw_acpi_diag(t, a, FW_DIAG_WARN, FW_ACPI_HEADER_SIZE + m->n * width, "%zu bytes after the last %zu-byte entry",
			     room % width, width);
	m->addresses = fw_arena_alloc(a, (m->n + 1) * sizeof(*m->addresses));
	m->targets = fw_arena_alloc(a, (m->n + 1) * sizeof(*m->targets));
	for (size_t i = 0; i < m->n; i++) {
		const uint8_t *p = v->p + FW_ACPI_HEADER_SIZE + i * width;
		m->addresses[i] = m->is_xsdt ? fw_le64(p) : fw_le32(p);
		if (!m->addresses[i])
			fw_acpi_diag(t, a, FW_DIAG_WARN, FW_ACPI_HEADER_SIZE + i * width, "entry %zu is a null pointer", i);
	}
	return m;
}
