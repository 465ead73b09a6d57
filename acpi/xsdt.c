/* XSDT and RSDT: their layout rows (the header, then one address per entry) and the addresses as
 * a model the set follows (acpi/set.c fills the targets). */
#include "xsdt.h"

#include <string.h>

#include "acpi/fields.h"

static const struct fw_layout header = {"header", FW_ACPI_HEADER_SIZE, NULL, 0};
static const struct fw_field xsdt_entry_fields[] = {{"Address", FW_FT_U64, 0, 0, FW_FF_HEX, NULL}};
static const struct fw_layout xsdt_entry = FW_LAYOUT("entry", 8, xsdt_entry_fields);
static const struct fw_field rsdt_entry_fields[] = {{"Address", FW_FT_U32, 0, 0, FW_FF_HEX, NULL}};
static const struct fw_layout rsdt_entry = FW_LAYOUT("entry", 4, rsdt_entry_fields);

/* The entry's number and the signature of the table it points at (absent when not in the input). */
static bool derive(const struct fw_acpi_table *t, size_t part, const char *name, struct fw_acpi_derived *out)
{
	const struct fw_acpi_xsdt *x = t->model;
	out->u = part - 1;
	if (!strcmp(name, "Index"))
		return true;
	if (part < 1 || part > x->n || !x->targets[part - 1])
		return false;
	out->s = x->targets[part - 1]->signature;
	return true;
}
static const struct fw_acpi_show entry_show[] = {
	{"address", "Address", FW_AS_HEX, false, NULL},
	{"signature", "Target", FW_AS_TEXT, true, derive},
	{NULL, "Index", FW_AS_NUMBER, false, derive},
};
static const char *const entry_text[] = {"[{Index}] {Address}{?Target: -> %s}", NULL};
static const struct fw_acpi_shape xsdt_shapes[] = {FW_ACPI_SHAPE(&xsdt_entry, entry_show, entry_text)};
static const struct fw_acpi_shape rsdt_shapes[] = {FW_ACPI_SHAPE(&rsdt_entry, entry_show, entry_text)};
static const struct fw_acpi_view xsdt_view = FW_ACPI_VIEW(xsdt_shapes, "entries");
static const struct fw_acpi_view rsdt_view = FW_ACPI_VIEW(rsdt_shapes, "entries");

const struct fw_acpi_layout fw_acpi_xsdt_table = {
	.fixed = &header, .rest = FW_ACPI_REST_ENTRIES, .start_field = -1, .count_field = -1, .entry = &xsdt_entry,
	.view = &xsdt_view,
};
const struct fw_acpi_layout fw_acpi_rsdt_table = {
	.fixed = &header, .rest = FW_ACPI_REST_ENTRIES, .start_field = -1, .count_field = -1, .entry = &rsdt_entry,
	.view = &rsdt_view,
};

void *fw_acpi_xsdt_decode(struct fw_acpi_table *t, struct fw_arena *a)
{
	struct fw_acpi_xsdt *m = fw_arena_alloc(a, sizeof(*m));
	const struct fw_acpi_doc *d = t->doc;
	m->is_xsdt = memcmp(t->signature, "XSDT", 4) == 0;
	m->n = d->nparts - 1;
	m->addresses = fw_arena_alloc(a, (m->n + 1) * sizeof(*m->addresses));
	m->targets = fw_arena_alloc(a, (m->n + 1) * sizeof(*m->targets));
	for (size_t i = 0; i < m->n; i++) {
		const struct fw_acpi_part *p = &d->parts[i + 1];
		struct fw_acpi_value v;
		struct fw_acpi_values it = fw_acpi_values_of(p);
		m->addresses[i] = fw_acpi_values_next(&it, &v) ? v.u : 0;
		if (!m->addresses[i])
			fw_acpi_diag(t, a, FW_DIAG_WARN, p->offset, "entry %zu is a null pointer", i);
	}
	return m;
}
