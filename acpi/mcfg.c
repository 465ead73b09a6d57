/* MCFG layouts and decoder. */
#include "mcfg.h"

static const struct fw_field mcfg_fields[MCFG__COUNT] = {
	[MCFG_RESERVED] = {"Reserved", FW_FT_U64, 36, 0, FW_FF_HIDDEN, NULL},
};
const struct fw_layout fw_mcfg_layout = FW_LAYOUT("MCFG header", FW_MCFG_HEADER_SIZE, mcfg_fields);

static const struct fw_field alloc_fields[MCFG_ALLOC__COUNT] = {
	[MCFG_ALLOC_BASE] = {"BaseAddress", FW_FT_U64, 0, 0, FW_FF_HEX, NULL},
	[MCFG_ALLOC_SEGMENT] = {"PciSegment", FW_FT_U16, 8, 0, 0, NULL},
	[MCFG_ALLOC_START_BUS] = {"StartBus", FW_FT_U8, 10, 0, FW_FF_HEX, NULL},
	[MCFG_ALLOC_END_BUS] = {"EndBus", FW_FT_U8, 11, 0, FW_FF_HEX, NULL},
};
const struct fw_layout fw_mcfg_allocation_layout = FW_LAYOUT("MCFG allocation", FW_MCFG_ALLOCATION_SIZE, alloc_fields);

void *fw_acpi_mcfg_decode(struct fw_acpi_table *t, struct fw_arena *a)
{
	struct fw_mcfg *m = fw_arena_alloc(a, sizeof(*m));
	const struct fw_view *v = &t->data;
	if (!fw_view_has(v, 0, FW_MCFG_HEADER_SIZE)) {
		fw_acpi_diag(t, a, FW_DIAG_ERROR, 0, "MCFG of 0x%zx bytes is shorter than its 44-byte header", v->len);
		return m;
	}
	const struct fw_layout *l = &fw_mcfg_allocation_layout;
	size_t room = v->len - FW_MCFG_HEADER_SIZE;
	size_t count = room / l->size;
	if (room % l->size)
		fw_acpi_diag(t, a, FW_DIAG_WARN, FW_MCFG_HEADER_SIZE + count * l->size,
			     "%zu bytes after the last 16-byte allocation", room % l->size);
	m->allocations = fw_arena_alloc(a, (count + 1) * sizeof(*m->allocations));
	for (size_t i = 0; i < count; i++) {
		size_t off = FW_MCFG_HEADER_SIZE + i * l->size;
		struct fw_mcfg_allocation *e = &m->allocations[m->n++];
		e->offset = (uint32_t)off;
		e->base = fw_layout_get(l, v, off, MCFG_ALLOC_BASE);
		e->segment = (uint16_t)fw_layout_get(l, v, off, MCFG_ALLOC_SEGMENT);
		e->start_bus = (uint8_t)fw_layout_get(l, v, off, MCFG_ALLOC_START_BUS);
		e->end_bus = (uint8_t)fw_layout_get(l, v, off, MCFG_ALLOC_END_BUS);
		if (e->end_bus < e->start_bus)
			fw_acpi_diag(t, a, FW_DIAG_WARN, off + 10, "allocation at 0x%zx: end bus 0x%02x is below start bus 0x%02x", off,
				     e->end_bus, e->start_bus);
		if (e->base & 0xFFFFF)
			fw_acpi_diag(t, a, FW_DIAG_WARN, off, "allocation at 0x%zx: base 0x%llx is not 1 MiB aligned", off,
				     (unsigned long long)e->base);
	}
	return m;
}
