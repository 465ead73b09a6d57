/* MCFG: its layout row (fields, allocations, how they are written) and the allocations as a
 * model for the topology. */
#include "mcfg.h"

#include "acpi/fields.h"

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

static const struct fw_acpi_show alloc_show[] = {
	{"base_address", "BaseAddress", FW_AS_HEX, false, NULL},
	{"segment", "PciSegment", FW_AS_NUMBER, false, NULL},
	{"start_bus", "StartBus", FW_AS_NUMBER, false, NULL},
	{"end_bus", "EndBus", FW_AS_NUMBER, false, NULL},
};
static const char *const alloc_text[] = {
	"segment {PciSegment:%04x} buses {StartBus:%02x}-{EndBus:%02x}  ECAM at {BaseAddress}",
	NULL,
};
static const struct fw_acpi_shape mcfg_shapes[] = {FW_ACPI_SHAPE(&fw_mcfg_allocation_layout, alloc_show, alloc_text)};
static const struct fw_acpi_view mcfg_view = FW_ACPI_VIEW(mcfg_shapes, "allocations");

const struct fw_acpi_layout fw_acpi_mcfg_table = {
	.fixed = &fw_mcfg_layout, .rest = FW_ACPI_REST_ENTRIES, .start_field = -1, .count_field = -1,
	.entry = &fw_mcfg_allocation_layout, .view = &mcfg_view,
};

void *fw_acpi_mcfg_decode(struct fw_acpi_table *t, struct fw_arena *a)
{
	struct fw_mcfg *m = fw_arena_alloc(a, sizeof(*m));
	const struct fw_acpi_doc *d = t->doc;
	const struct fw_layout *l = &fw_mcfg_allocation_layout;
	m->allocations = fw_arena_alloc(a, (d->nparts + 1) * sizeof(*m->allocations));
	for (size_t k = 1; k < d->nparts; k++) {
		size_t off = d->parts[k].offset;
		struct fw_mcfg_allocation *e = &m->allocations[m->n++];
		e->offset = (uint32_t)off;
		e->base = fw_layout_get(l, &t->data, off, MCFG_ALLOC_BASE);
		e->segment = (uint16_t)fw_layout_get(l, &t->data, off, MCFG_ALLOC_SEGMENT);
		e->start_bus = (uint8_t)fw_layout_get(l, &t->data, off, MCFG_ALLOC_START_BUS);
		e->end_bus = (uint8_t)fw_layout_get(l, &t->data, off, MCFG_ALLOC_END_BUS);
		if (e->end_bus < e->start_bus)
			fw_acpi_diag(t, a, FW_DIAG_WARN, off + 10, "allocation at 0x%zx: end bus 0x%02x is below start bus 0x%02x", off,
				     e->end_bus, e->start_bus);
		if (e->base & 0xFFFFF)
			fw_acpi_diag(t, a, FW_DIAG_WARN, off, "allocation at 0x%zx: base 0x%llx is not 1 MiB aligned", off,
				     (unsigned long long)e->base);
	}
	return m;
}
