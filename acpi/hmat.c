/* HMAT: its layout row (the structures and how they are written), the structures as a model and
 * each locality structure's domain lists and matrix with the base unit applied (hmat.h). */
#include "hmat.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "acpi/fields.h"

static const struct fw_field prox_fields[HMAT_PROX__COUNT] = {
	[HMAT_PROX_TYPE] = {"Type", FW_FT_U16, 0, 0, 0, NULL},
	[HMAT_PROX_RESERVED] = {"Reserved", FW_FT_U16, 2, 0, FW_FF_HIDDEN, NULL},
	[HMAT_PROX_LENGTH] = {"Length", FW_FT_U32, 4, 0, 0, NULL},
	[HMAT_PROX_FLAGS] = {"Flags", FW_FT_U16, 8, 0, FW_FF_HEX, NULL},
	[HMAT_PROX_RESERVED1] = {"Reserved1", FW_FT_U16, 10, 0, FW_FF_HIDDEN, NULL},
	[HMAT_PROX_INITIATOR_PD] = {"AttachedInitiatorProximityDomain", FW_FT_U32, 12, 0, 0, NULL},
	[HMAT_PROX_MEMORY_PD] = {"MemoryProximityDomain", FW_FT_U32, 16, 0, 0, NULL},
};
const struct fw_layout fw_hmat_proximity_layout = FW_LAYOUT("HMAT memory proximity domain attributes", 20, prox_fields);

const struct fw_named_value fw_hmat_data_type_names[] = {
	{0, "access latency"}, {1, "read latency"}, {2, "write latency"},
	{3, "access bandwidth"}, {4, "read bandwidth"}, {5, "write bandwidth"}, {0, NULL},
};
static const struct fw_field loc_fields[HMAT_LOC__COUNT] = {
	[HMAT_LOC_TYPE] = {"Type", FW_FT_U16, 0, 0, 0, NULL},
	[HMAT_LOC_RESERVED] = {"Reserved", FW_FT_U16, 2, 0, FW_FF_HIDDEN, NULL},
	[HMAT_LOC_LENGTH] = {"Length", FW_FT_U32, 4, 0, 0, NULL},
	[HMAT_LOC_FLAGS] = {"Flags", FW_FT_U8, 8, 0, FW_FF_HEX, NULL},
	[HMAT_LOC_DATA_TYPE] = {"DataType", FW_FT_U8, 9, 0, FW_FF_ENUM, fw_hmat_data_type_names},
	[HMAT_LOC_MIN_TRANSFER] = {"MinTransferSize", FW_FT_U8, 10, 0, 0, NULL},
	[HMAT_LOC_RESERVED1] = {"Reserved1", FW_FT_U8, 11, 0, FW_FF_HIDDEN, NULL},
	[HMAT_LOC_INITIATORS] = {"InitiatorProximityDomains", FW_FT_U32, 12, 0, 0, NULL},
	[HMAT_LOC_TARGETS] = {"TargetProximityDomains", FW_FT_U32, 16, 0, 0, NULL},
	[HMAT_LOC_RESERVED2] = {"Reserved2", FW_FT_U32, 20, 0, FW_FF_HIDDEN, NULL},
	[HMAT_LOC_BASE_UNIT] = {"EntryBaseUnit", FW_FT_U64, 24, 0, 0, NULL},
};
const struct fw_layout fw_hmat_locality_layout = FW_LAYOUT("HMAT system locality latency and bandwidth", 32, loc_fields);

static const struct fw_field cache_fields[HMAT_CACHE__COUNT] = {
	[HMAT_CACHE_TYPE] = {"Type", FW_FT_U16, 0, 0, 0, NULL},
	[HMAT_CACHE_RESERVED] = {"Reserved", FW_FT_U16, 2, 0, FW_FF_HIDDEN, NULL},
	[HMAT_CACHE_LENGTH] = {"Length", FW_FT_U32, 4, 0, 0, NULL},
	[HMAT_CACHE_MEMORY_PD] = {"MemoryProximityDomain", FW_FT_U32, 8, 0, 0, NULL},
	[HMAT_CACHE_RESERVED1] = {"Reserved1", FW_FT_U32, 12, 0, FW_FF_HIDDEN, NULL},
	[HMAT_CACHE_SIZE] = {"MemorySideCacheSize", FW_FT_U64, 16, 0, FW_FF_HEX, NULL},
	[HMAT_CACHE_ATTRIBUTES] = {"CacheAttributes", FW_FT_U32, 24, 0, FW_FF_HEX, NULL},
	[HMAT_CACHE_RESERVED2] = {"Reserved2", FW_FT_U16, 28, 0, FW_FF_HIDDEN, NULL},
	[HMAT_CACHE_SMBIOS_HANDLES] = {"SmbiosHandles", FW_FT_U16, 30, 0, 0, NULL},
};
const struct fw_layout fw_hmat_cache_layout = FW_LAYOUT("HMAT memory side cache information", 32, cache_fields);

const char *fw_hmat_type_name(uint16_t type)
{
	switch (type) {
	case FW_HMAT_ADDRESS_RANGE: return "memory-proximity-domain";
	case FW_HMAT_LOCALITY: return "locality";
	case FW_HMAT_CACHE: return "memory-side-cache";
	}
	return "unknown";
}

static const struct fw_field hmat_fields[] = {{"Reserved", FW_FT_U32, 36, 0, FW_FF_HIDDEN, NULL}};
static const struct fw_layout hmat = FW_LAYOUT("HMAT", FW_HMAT_HEADER_SIZE, hmat_fields);

/* What a locality structure holds after its fields, kept with the model. */
struct hmat_locality_facts {
	struct fw_acpi_cell *cells; /* initiators x targets rows of 4 */
	size_t nrows;
	const char **lines;         /* the matrix as text */
	size_t nlines;
};
struct hmat_facts {
	struct fw_hmat m; /* first: t->model is the struct fw_hmat */
	struct hmat_locality_facts *loc; /* per part */
};

static const char *const entry_cols[] = {"initiator", "target", "entry", "value"};

static bool locality_derive(const struct fw_acpi_table *t, size_t part, const char *name, struct fw_acpi_derived *out)
{
	const struct hmat_facts *x = t->model;
	if (!x || part == 0 || part > x->m.n)
		return false;
	const struct fw_hmat_entry *e = &x->m.entries[part - 1];
	const struct hmat_locality_facts *l = &x->loc[part];
	if (!e->matrix)
		return false;
	if (!strcmp(name, "LocInitiators") || !strcmp(name, "LocTargets")) {
		bool ini = name[3] == 'I';
		out->list = ini ? e->initiator_list : e->target_list;
		out->nlist = ini ? e->initiators : e->targets;
		out->compared = true;
	} else if (!strcmp(name, "LocUnit")) {
		out->s = fw_hmat_unit(t->revision, e->data_type);
		out->null = !out->s;
	} else if (!strcmp(name, "LocEntries")) {
		out->cols = entry_cols;
		out->ncols = 4;
		out->key_cols = 2;
		out->nrows = l->nrows;
		out->cells = l->cells;
		out->compared = true;
	} else if (!strcmp(name, "LocMatrix")) {
		out->lines = l->lines;
		out->nlines = l->nlines;
		out->indent = 2;
	} else {
		return false;
	}
	return true;
}

const char *fw_hmat_unit(uint8_t table_revision, uint8_t data_type)
{
	if (table_revision != 2 || data_type > 5)
		return NULL;
	return data_type <= 2 ? "ps" : "MB/s";
}

/* Beyond the bytes: the structure's kind, the initiator domain when Flags say it is valid, the
 * data type's name (its number when it has none), counts and sizes as people read them. */
static bool derive(const struct fw_acpi_table *t, size_t part, const char *name, struct fw_acpi_derived *out)
{
	const struct fw_acpi_part *p = &t->doc->parts[part];
	const struct fw_acpi_value *v;
	struct fw_acpi_value vr; /* room for v */
	if (!strcmp(name, "TypeName")) {
		out->s = fw_hmat_type_name((uint16_t)p->type);
		return true;
	}
	if (!strcmp(name, "AttachedInitiator")) {
		struct fw_acpi_value flags_room;
		const struct fw_acpi_value *flags = fw_acpi_part_value(p, "Flags", &flags_room);
		v = fw_acpi_part_value(p, "AttachedInitiatorProximityDomain", &vr);
		out->u = v ? v->u : 0;
		return v && flags && (flags->u & 1);
	}
	if (!strcmp(name, "DataTypeName")) {
		if (!(v = fw_acpi_part_value(p, "DataType", &vr)))
			return false;
		out->u = v->u;
		out->s = fw_named_value_name(fw_hmat_data_type_names, v->u);
		return true;
	}
	if (!strcmp(name, "MemoryHierarchy")) {
		/* Flags bits 3:0 (ACPI 6.5 table 5.148); bits 4 and 5 are the ACPI 6.4 transfer flags */
		if (!(v = fw_acpi_part_value(p, "Flags", &vr)))
			return false;
		static const char *const levels[] = {"memory", "memory-side cache level 1", "memory-side cache level 2",
						     "memory-side cache level 3"};
		out->s = (v->u & 0xF) < 4 ? levels[v->u & 0xF] : "reserved";
		return true;
	}
	if (!strncmp(name, "Loc", 3))
		return locality_derive(t, part, name, out);
	if (!strcmp(name, "CacheSize")) {
		if (!(v = fw_acpi_part_value(p, "MemorySideCacheSize", &vr)))
			return false;
		out->s = fw_acpi_size_str(v->u, out->buf, sizeof(out->buf));
		return true;
	}
	/* "1 initiator", "2 targets" */
	bool initiators = !strcmp(name, "Initiators");
	if (!(v = fw_acpi_part_value(p, initiators ? "InitiatorProximityDomains" : "TargetProximityDomains", &vr)))
		return false;
	snprintf(out->buf, sizeof(out->buf), "%" PRIu64 " %s%s", v->u, initiators ? "initiator" : "target", v->u == 1 ? "" : "s");
	out->s = out->buf;
	return true;
}

static const struct fw_acpi_show prox_show[] = {
	FW_ACPI_SHOW_SUBTABLE(derive),
	{"flags", "Flags", FW_AS_NUMBER, false, NULL},
	{"initiator_proximity_domain", "AttachedInitiator", FW_AS_NUMBER, true, derive},
	{"memory_proximity_domain", "MemoryProximityDomain", FW_AS_NUMBER, false, NULL},
};
static const char *const prox_text[] = {
	"{@offset:@0x%03x} {TypeName}: memory domain {MemoryProximityDomain}{?AttachedInitiator:, attached initiator domain %u}",
	NULL,
};
static const struct fw_acpi_show loc_show[] = {
	FW_ACPI_SHOW_SUBTABLE(derive),
	{"flags", "Flags", FW_AS_NUMBER, false, NULL},
	{"data_type", "DataTypeName", FW_AS_TEXT, false, derive},
	{"initiators", "InitiatorProximityDomains", FW_AS_NUMBER, false, NULL},
	{"targets", "TargetProximityDomains", FW_AS_NUMBER, false, NULL},
	{"entry_base_unit", "EntryBaseUnit", FW_AS_HEX, false, NULL},
	{NULL, "Initiators", FW_AS_TEXT, false, derive},
	{NULL, "Targets", FW_AS_TEXT, false, derive},
	{"memory_hierarchy", "MemoryHierarchy", FW_AS_TEXT, false, derive},
	{"min_transfer_size", "MinTransferSize", FW_AS_NUMBER, false, NULL},
	{"initiator_domains", "LocInitiators", FW_AS_LIST, false, derive},
	{"target_domains", "LocTargets", FW_AS_LIST, false, derive},
	{"unit", "LocUnit", FW_AS_TEXT, false, derive},
	{"entries", "LocEntries", FW_AS_ROWS, false, derive},
	{NULL, "LocMatrix", FW_AS_LINES, false, derive},
};
static const char *const loc_text[] = {
	"{@offset:@0x%03x} {TypeName}: {DataType:name|unknown data type}, {Initiators} x {Targets}, base unit {EntryBaseUnit:%u}",
	"  {MemoryHierarchy}; initiator domains:{LocInitiators:list}; target domains:{LocTargets:list}",
	"{*LocMatrix}",
	NULL,
};
static const struct fw_acpi_show cache_show[] = {
	FW_ACPI_SHOW_SUBTABLE(derive),
	{"memory_proximity_domain", "MemoryProximityDomain", FW_AS_NUMBER, false, NULL},
	{"cache_size", "MemorySideCacheSize", FW_AS_HEX, false, NULL},
	{"cache_attributes", "CacheAttributes", FW_AS_HEX, false, NULL},
	{NULL, "CacheSize", FW_AS_TEXT, false, derive},
};
static const char *const cache_text[] = {
	"{@offset:@0x%03x} {TypeName}: memory domain {MemoryProximityDomain}, {CacheSize} cache, attributes 0x{CacheAttributes:%08x}",
	NULL,
};
static const struct fw_acpi_show other_show[] = {FW_ACPI_SHOW_SUBTABLE(derive)};
static const char *const other_text[] = {"{@offset:@0x%03x} type {@type}, {@length} bytes (unknown)", NULL};
static const struct fw_acpi_shape hmat_shapes[] = {
	FW_ACPI_SHAPE(&fw_hmat_proximity_layout, prox_show, prox_text),
	FW_ACPI_SHAPE(&fw_hmat_locality_layout, loc_show, loc_text),
	FW_ACPI_SHAPE(&fw_hmat_cache_layout, cache_show, cache_text),
	FW_ACPI_SHAPE(NULL, other_show, other_text),
};
static const struct fw_acpi_view hmat_view = FW_ACPI_VIEW(hmat_shapes, "structures");
static const struct fw_acpi_subtype types[] = {
	{FW_HMAT_ADDRESS_RANGE, &fw_hmat_proximity_layout, -1, NULL},
	{FW_HMAT_LOCALITY, &fw_hmat_locality_layout, -1, NULL},
	{FW_HMAT_CACHE, &fw_hmat_cache_layout, -1, NULL},
};
const struct fw_acpi_layout fw_acpi_hmat_table = {
	.fixed = &hmat, .rest = FW_ACPI_REST_RECORDS, .start_field = -1, .count_field = -1,
	.records = {"structure", 2, 4, 4}, .types = types, .ntypes = 3, .view = &hmat_view,
};

/* One entry with the base unit applied: the value, or why there is none. */
static bool entry_value(const struct fw_hmat_entry *e, uint16_t raw, uint64_t *value, const char **why)
{
	*why = raw == 0 ? "not provided" : raw == 0xFFFF ? "unreachable" : NULL;
	if (*why)
		return false;
	if (e->base_unit && raw > UINT64_MAX / e->base_unit) {
		*why = "overflows";
		return false;
	}
	*value = (uint64_t)raw * e->base_unit;
	return true;
}

/* A locality structure's rows (initiator, target, entry, value) and its matrix as text: a header
 * line with the unit, the target domains as columns, one line per initiator domain. */
static void locality_facts(const struct fw_acpi_table *t, struct fw_arena *a, const struct fw_hmat_entry *e,
			   struct hmat_locality_facts *l)
{
	size_t n = (size_t)e->initiators * e->targets;
	l->cells = fw_arena_alloc(a, (4 * n + 1) * sizeof(*l->cells));
	l->lines = fw_arena_alloc(a, (e->initiators + 3) * sizeof(*l->lines));
	char **texts = fw_arena_alloc(a, (n + 1) * sizeof(*texts));
	size_t width = 1;
	for (uint32_t c = 0; c < e->targets; c++) {
		int w = snprintf(NULL, 0, "%u", fw_le32(e->target_list + 4ull * c));
		width = (size_t)w > width ? (size_t)w : width;
	}
	for (uint32_t i = 0; i < e->initiators; i++)
		for (uint32_t c = 0; c < e->targets; c++) {
			size_t k = (size_t)i * e->targets + c;
			uint16_t raw = fw_le16(e->matrix + 2 * k);
			uint64_t value = 0;
			const char *why;
			bool has = entry_value(e, raw, &value, &why);
			struct fw_acpi_cell *cell = &l->cells[4 * k];
			cell[0] = (struct fw_acpi_cell){NULL, fw_le32(e->initiator_list + 4ull * i), false};
			cell[1] = (struct fw_acpi_cell){NULL, fw_le32(e->target_list + 4ull * c), false};
			cell[2] = (struct fw_acpi_cell){NULL, raw, false};
			cell[3] = (struct fw_acpi_cell){NULL, (int64_t)value, !has};
			texts[k] = has ? fw_arena_printf(a, "%llu", (unsigned long long)value) : fw_arena_strdup(a, why);
			width = strlen(texts[k]) > width ? strlen(texts[k]) : width;
		}
	l->nrows = n;
	const char *unit = fw_hmat_unit(t->revision, e->data_type);
	const char *what = fw_named_value_name(fw_hmat_data_type_names, e->data_type);
	l->lines[l->nlines++] = fw_arena_printf(a, "%s in %s, entry x base unit; from initiator domain (row) to target domain (column):",
						 what ? what : "values", unit ? unit : "a unit not known for this HMAT revision");
	/* the rows: the initiator's domain in the first column */
	size_t first = 1;
	for (uint32_t i = 0; i < e->initiators; i++) {
		int w = snprintf(NULL, 0, "%u", fw_le32(e->initiator_list + 4ull * i));
		first = (size_t)w > first ? (size_t)w : first;
	}
	struct fw_acpi_text head = {0};
	fw_acpi_text_put(&head, "%*s", (int)first, "");
	for (uint32_t c = 0; c < e->targets; c++)
		fw_acpi_text_put(&head, "  %*u", (int)width, fw_le32(e->target_list + 4ull * c));
	l->lines[l->nlines++] = fw_arena_strdup(a, head.buf);
	for (uint32_t i = 0; i < e->initiators; i++) {
		struct fw_acpi_text row = {0};
		fw_acpi_text_put(&row, "%*u", (int)first, fw_le32(e->initiator_list + 4ull * i));
		for (uint32_t c = 0; c < e->targets; c++)
			fw_acpi_text_put(&row, "  %*s", (int)width, texts[(size_t)i * e->targets + c]);
		l->lines[l->nlines++] = fw_arena_strdup(a, row.buf);
	}
}

/* The structures as a model, and the check the layout cannot make: a locality structure's lists
 * and matrix fit in its Length. */
void *fw_acpi_hmat_decode(struct fw_acpi_table *t, struct fw_arena *a)
{
	struct hmat_facts *x = fw_arena_alloc(a, sizeof(*x));
	struct fw_hmat *m = &x->m;
	const struct fw_acpi_doc *d = t->doc;
	const struct fw_view *v = &t->data;
	m->entries = fw_arena_alloc(a, (d->nparts + 1) * sizeof(*m->entries));
	x->loc = fw_arena_alloc(a, (d->nparts + 1) * sizeof(*x->loc));
	for (size_t k = 1; k < d->nparts; k++) {
		const struct fw_acpi_part *p = &d->parts[k];
		size_t off = p->offset;
		struct fw_hmat_entry *e = &m->entries[m->n++];
		e->offset = p->offset;
		e->type = (uint16_t)p->type;
		e->length = p->length;
		const struct fw_layout *l = p->layout;
		if (!l || p->length < l->size)
			continue;
		if (l == &fw_hmat_proximity_layout) {
			e->flags = (uint32_t)fw_layout_get(l, v, off, HMAT_PROX_FLAGS);
			e->initiator_pd = (uint32_t)fw_layout_get(l, v, off, HMAT_PROX_INITIATOR_PD);
			e->memory_pd = (uint32_t)fw_layout_get(l, v, off, HMAT_PROX_MEMORY_PD);
		} else if (l == &fw_hmat_locality_layout) {
			e->flags = (uint32_t)fw_layout_get(l, v, off, HMAT_LOC_FLAGS);
			e->data_type = (uint8_t)fw_layout_get(l, v, off, HMAT_LOC_DATA_TYPE);
			e->initiators = (uint32_t)fw_layout_get(l, v, off, HMAT_LOC_INITIATORS);
			e->targets = (uint32_t)fw_layout_get(l, v, off, HMAT_LOC_TARGETS);
			e->base_unit = fw_layout_get(l, v, off, HMAT_LOC_BASE_UNIT);
			/* 4 bytes per initiator and target, 2 per matrix entry; counts over Length / 4 are
			 * too many already (and their 2 x initiators x targets would wrap 64 bits) */
			bool counts_fit = e->initiators <= e->length / 4 && e->targets <= e->length / 4;
			uint64_t need = counts_fit ? (uint64_t)l->size + 4ull * e->initiators + 4ull * e->targets +
							     2ull * (uint64_t)e->initiators * e->targets
						   : 0;
			if (!counts_fit || need > e->length) {
				char needs[48];
				if (counts_fit)
					snprintf(needs, sizeof(needs), "%llu bytes", (unsigned long long)need);
				else
					snprintf(needs, sizeof(needs), "more than %u bytes", e->length);
				fw_acpi_diag(t, a, FW_DIAG_ERROR, off, "locality structure at 0x%zx: %u x %u domains need %s, Length is %u",
					     off, e->initiators, e->targets, needs, e->length);
				continue;
			}
			e->initiator_list = v->p + off + l->size;
			e->target_list = e->initiator_list + 4ull * e->initiators;
			e->matrix = e->target_list + 4ull * e->targets;
			locality_facts(t, a, e, &x->loc[k]);
		} else {
			e->memory_pd = (uint32_t)fw_layout_get(l, v, off, HMAT_CACHE_MEMORY_PD);
			e->cache_size = fw_layout_get(l, v, off, HMAT_CACHE_SIZE);
			e->cache_attributes = (uint32_t)fw_layout_get(l, v, off, HMAT_CACHE_ATTRIBUTES);
		}
	}
	return m;
}
