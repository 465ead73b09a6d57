/* PPTT: its layout row (the three structure types and how they are written), the processor
 * hierarchy as a model, and the package each processor sits in (pptt.h). */
#include "pptt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "acpi/fields.h"

static const struct fw_bitfield proc_flag_bits[] = {
	FW_FLAG("PhysicalPackage", FW_PPTT_PHYSICAL_PACKAGE), FW_FLAG("AcpiProcessorIdValid", FW_PPTT_ACPI_ID_VALID),
	FW_FLAG("ProcessorIsThread", FW_PPTT_THREAD),         FW_FLAG("NodeIsLeaf", FW_PPTT_LEAF),
	FW_FLAG("IdenticalImplementation", FW_PPTT_IDENTICAL),
};
static const struct fw_bitfields proc_flags = FW_BITFIELDS(proc_flag_bits);
static const struct fw_field proc_fields[PPTT_PROC__COUNT] = {
	[PPTT_PROC_TYPE] = {"Type", FW_FT_U8, 0, 0, 0, NULL},
	[PPTT_PROC_LENGTH] = {"Length", FW_FT_U8, 1, 0, 0, NULL},
	[PPTT_PROC_RESERVED] = {"Reserved", FW_FT_U16, 2, 0, FW_FF_HIDDEN, NULL},
	[PPTT_PROC_FLAGS] = {"Flags", FW_FT_U32, 4, 0, FW_FF_FLAGS, &proc_flags},
	[PPTT_PROC_PARENT] = {"Parent", FW_FT_U32, 8, 0, FW_FF_HEX, NULL},
	[PPTT_PROC_ACPI_ID] = {"AcpiProcessorId", FW_FT_U32, 12, 0, 0, NULL},
	[PPTT_PROC_NPRIVATE] = {"NumPrivateResources", FW_FT_U32, 16, 0, 0, NULL},
};
const struct fw_layout fw_pptt_processor_layout = FW_LAYOUT("PPTT processor hierarchy node", 20, proc_fields);

static const struct fw_bitfield cache_flag_bits[] = {
	FW_FLAG("SizeValid", 0x01),           FW_FLAG("NumberOfSetsValid", 0x02), FW_FLAG("AssociativityValid", 0x04),
	FW_FLAG("AllocationTypeValid", 0x08), FW_FLAG("CacheTypeValid", 0x10),    FW_FLAG("WritePolicyValid", 0x20),
	FW_FLAG("LineSizeValid", 0x40),       FW_FLAG("CacheIdValid", 0x80),
};
static const struct fw_bitfields cache_flags = FW_BITFIELDS(cache_flag_bits);
static const struct fw_bitfield cache_attribute_bits[] = {
	{"AllocationType", 0, 2, "0 read, 1 write, 2 or 3 read and write"},
	{"CacheType", 2, 2, "0 data, 1 instruction, 2 or 3 unified"},
	{"WritePolicy", 4, 1, "0 write-back, 1 write-through"},
};
static const struct fw_bitfields cache_attributes = FW_BITFIELDS(cache_attribute_bits);
static const struct fw_field cache_fields[PPTT_CACHE__COUNT] = {
	[PPTT_CACHE_TYPE] = {"Type", FW_FT_U8, 0, 0, 0, NULL},
	[PPTT_CACHE_LENGTH] = {"Length", FW_FT_U8, 1, 0, 0, NULL},
	[PPTT_CACHE_RESERVED] = {"Reserved", FW_FT_U16, 2, 0, FW_FF_HIDDEN, NULL},
	[PPTT_CACHE_FLAGS] = {"Flags", FW_FT_U32, 4, 0, FW_FF_FLAGS, &cache_flags},
	[PPTT_CACHE_NEXT] = {"NextLevelOfCache", FW_FT_U32, 8, 0, FW_FF_HEX, NULL},
	[PPTT_CACHE_SIZE] = {"Size", FW_FT_U32, 12, 0, 0, NULL},
	[PPTT_CACHE_SETS] = {"NumberOfSets", FW_FT_U32, 16, 0, 0, NULL},
	[PPTT_CACHE_ASSOCIATIVITY] = {"Associativity", FW_FT_U8, 20, 0, 0, NULL},
	[PPTT_CACHE_ATTRIBUTES] = {"Attributes", FW_FT_U8, 21, 0, FW_FF_BITS, &cache_attributes},
	[PPTT_CACHE_LINE_SIZE] = {"LineSize", FW_FT_U16, 22, 0, 0, NULL},
};
const struct fw_layout fw_pptt_cache_layout = FW_LAYOUT("PPTT cache type structure", 24, cache_fields);

static const struct fw_field id_fields[PPTT_ID__COUNT] = {
	[PPTT_ID_TYPE] = {"Type", FW_FT_U8, 0, 0, 0, NULL},
	[PPTT_ID_LENGTH] = {"Length", FW_FT_U8, 1, 0, 0, NULL},
	[PPTT_ID_RESERVED] = {"Reserved", FW_FT_U16, 2, 0, FW_FF_HIDDEN, NULL},
	[PPTT_ID_VENDOR] = {"VendorId", FW_FT_CHARS, 4, 4, 0, NULL},
	[PPTT_ID_LEVEL1] = {"Level1Id", FW_FT_U64, 8, 0, FW_FF_HEX, NULL},
	[PPTT_ID_LEVEL2] = {"Level2Id", FW_FT_U64, 16, 0, FW_FF_HEX, NULL},
	[PPTT_ID_MAJOR] = {"MajorRevision", FW_FT_U16, 24, 0, 0, NULL},
	[PPTT_ID_MINOR] = {"MinorRevision", FW_FT_U16, 26, 0, 0, NULL},
	[PPTT_ID_SPIN] = {"SpinRevision", FW_FT_U16, 28, 0, 0, NULL},
};
const struct fw_layout fw_pptt_id_layout = FW_LAYOUT("PPTT ID structure", 30, id_fields);

static const struct fw_layout pptt = {"PPTT", FW_ACPI_HEADER_SIZE, NULL, 0};

/* The model and what the view shows beyond the bytes: per part its private resources as a list
 * and as text, its parent and next level as text. */
struct pptt_facts {
	struct fw_pptt m; /* first: t->model is the struct fw_pptt */
	size_t leaves;
	const char **refs; /* per part: "@0x03c @0x054" */
};

const struct fw_pptt_node *fw_pptt_package_of(const struct fw_pptt *p, uint32_t uid, size_t *ordinal)
{
	/* the leaves are sorted by ID: a binary search, so a table of any size answers fast */
	size_t lo = 0, hi = p->nleaves;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (p->nodes[p->leaves[mid]].acpi_id < uid)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == p->nleaves || p->nodes[p->leaves[lo]].acpi_id != uid || p->nodes[p->leaves[lo]].package < 0)
		return NULL;
	const struct fw_pptt_node *pkg = &p->nodes[p->nodes[p->leaves[lo]].package];
	if (ordinal)
		*ordinal = pkg->package_ordinal;
	return pkg;
}

/* The node at table offset `off` (nodes are in offset order), or -1. */
static long node_at(const struct fw_pptt *p, uint32_t off)
{
	size_t lo = 0, hi = p->nnodes;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (p->nodes[mid].offset < off)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < p->nnodes && p->nodes[lo].offset == off ? (long)lo : -1;
}

static int leaf_cmp(const void *a, const void *b, void *ctx)
{
	const struct fw_pptt_node *n = ctx;
	uint32_t x = n[*(const size_t *)a].acpi_id, y = n[*(const size_t *)b].acpi_id;
	return (x > y) - (x < y);
}

/* Each node's package, once: walk up from every node until a package, a node already known, no
 * parent, or a node of this same walk (a loop: none), then give the answer to the whole path.
 * Every node is walked through once, so a hostile chain or loop costs n log n, not n squared. */
static void resolve_packages(struct fw_pptt *p, struct fw_arena *a)
{
	enum { UNKNOWN = -2 };
	size_t *path = fw_arena_alloc(a, (p->nnodes + 1) * sizeof(*path));
	size_t *walk = fw_arena_alloc(a, (p->nnodes + 1) * sizeof(*walk)); /* which walk visited it, +1 */
	size_t packages = 0;
	for (size_t i = 0; i < p->nnodes; i++) {
		p->nodes[i].package = UNKNOWN;
		walk[i] = 0;
		if (p->nodes[i].flags & FW_PPTT_PHYSICAL_PACKAGE)
			p->nodes[i].package_ordinal = packages++;
	}
	for (size_t i = 0; i < p->nnodes; i++) {
		size_t n = 0;
		long at = (long)i, answer = -1;
		while (at >= 0) {
			struct fw_pptt_node *x = &p->nodes[at];
			if (x->package != UNKNOWN) {
				answer = x->package;
				break;
			}
			if (x->flags & FW_PPTT_PHYSICAL_PACKAGE) {
				answer = at;
				break;
			}
			if (walk[at] == i + 1)
				break; /* a loop: no package */
			walk[at] = i + 1;
			path[n++] = (size_t)at;
			at = x->parent ? node_at(p, x->parent) : -1;
		}
		for (size_t k = 0; k < n; k++)
			p->nodes[path[k]].package = answer;
		if (p->nodes[i].package == UNKNOWN)
			p->nodes[i].package = answer;
	}
	p->leaves = fw_arena_alloc(a, (p->nnodes + 1) * sizeof(*p->leaves));
	for (size_t i = 0; i < p->nnodes; i++)
		if ((p->nodes[i].flags & FW_PPTT_ACPI_ID_VALID) && (p->nodes[i].flags & FW_PPTT_LEAF))
			p->leaves[p->nleaves++] = i;
	qsort_r(p->leaves, p->nleaves, sizeof(*p->leaves), leaf_cmp, p->nodes);
}

static const char *type_name(int64_t type)
{
	return type == FW_PPTT_PROCESSOR ? "processor" : type == FW_PPTT_CACHE ? "cache" : type == FW_PPTT_ID ? "id" : "unknown";
}

static bool derive(const struct fw_acpi_table *t, size_t part, const char *name, struct fw_acpi_derived *out)
{
	const struct pptt_facts *x = t->model;
	const struct fw_acpi_part *p = &t->doc->parts[part];
	const struct fw_acpi_value *v;
	struct fw_acpi_value vr; /* room for v */
	if (!strcmp(name, "TypeName")) {
		out->s = type_name(p->type);
		return true;
	}
	if (!x)
		return false;
	if (!strcmp(name, "Packages") || !strcmp(name, "Leaves")) {
		out->u = name[0] == 'P' ? x->m.npackages : x->leaves;
		return true;
	}
	if (!strcmp(name, "PrivateResources") || !strcmp(name, "PrivateText")) {
		const struct fw_pptt_node *n = NULL;
		for (size_t i = 0; i < x->m.nnodes && !n; i++)
			if (x->m.nodes[i].offset == p->offset)
				n = &x->m.nodes[i];
		if (!n || !n->private_resources)
			return false;
		out->list = n->private_resources;
		out->nlist = n->nprivate;
		out->compared = true;
		out->s = x->refs[part];
		return true;
	}
	if (!strcmp(name, "ParentText") || !strcmp(name, "NextText")) {
		if (!(v = fw_acpi_part_value(p, name[0] == 'P' ? "Parent" : "NextLevelOfCache", &vr)))
			return false;
		if (v->u)
			snprintf(out->buf, sizeof(out->buf), "@0x%03x", (unsigned)v->u);
		out->s = v->u ? out->buf : "none";
		return true;
	}
	if (!strcmp(name, "ProcessorId")) {
		/* the ID counts only when the flags say it is valid */
		struct fw_acpi_value flags_room;
		const struct fw_acpi_value *flags = fw_acpi_part_value(p, "Flags", &flags_room);
		if (!flags || !(v = fw_acpi_part_value(p, "AcpiProcessorId", &vr)))
			return false;
		out->u = v->u;
		out->null = !(flags->u & FW_PPTT_ACPI_ID_VALID);
		return true;
	}
	if (!strcmp(name, "ProcessorIdText")) {
		struct fw_acpi_value flags_room;
		const struct fw_acpi_value *flags = fw_acpi_part_value(p, "Flags", &flags_room);
		if (!flags || !(v = fw_acpi_part_value(p, "AcpiProcessorId", &vr)))
			return false;
		if (flags->u & FW_PPTT_ACPI_ID_VALID)
			snprintf(out->buf, sizeof(out->buf), "ACPI processor ID %u", (unsigned)v->u);
		out->s = flags->u & FW_PPTT_ACPI_ID_VALID ? out->buf : "no ACPI processor ID";
		return true;
	}
	if (!strcmp(name, "CacheId")) {
		/* PPTT revision 3 (ACPI 6.4) adds it after the line size */
		if (p->length < 28 || p->offset + 28u > t->data.len)
			return false;
		out->u = fw_le32(t->data.p + p->offset + 24);
		return true;
	}
	if (!strcmp(name, "SizeText")) {
		if (!(v = fw_acpi_part_value(p, "Size", &vr)))
			return false;
		out->s = fw_acpi_size_str(v->u, out->buf, sizeof(out->buf));
		return true;
	}
	return false;
}

static const struct fw_acpi_show pptt_show[] = {
	{"physical_packages", "Packages", FW_AS_NUMBER, false, derive},
	{"processors", "Leaves", FW_AS_NUMBER, false, derive},
};
static const char *const pptt_text[] = {
	"{Packages} physical packages, {Leaves} processors (leaf nodes with an ACPI processor ID)",
	NULL,
};
static const struct fw_acpi_show proc_show[] = {
	FW_ACPI_SHOW_SUBTABLE(derive),
	{"flags", "Flags", FW_AS_FLAGS, false, NULL},
	{"parent", "Parent", FW_AS_NUMBER, false, NULL},
	{"acpi_processor_id", "ProcessorId", FW_AS_NUMBER, false, derive},
	{"private_resources", "PrivateResources", FW_AS_LIST, false, derive},
	{NULL, "ParentText", FW_AS_TEXT, false, derive},
	{NULL, "ProcessorIdText", FW_AS_TEXT, false, derive},
	{NULL, "PrivateText", FW_AS_TEXT, false, derive},
};
static const char *const proc_text[] = {
	"{@offset:@0x%03x} processor node: {Flags:names}, parent {ParentText}, {ProcessorIdText}, private resources {PrivateText}",
	NULL,
};
static const struct fw_acpi_show cache_show[] = {
	FW_ACPI_SHOW_SUBTABLE(derive),
	{"flags", "Flags", FW_AS_FLAGS, false, NULL},
	{"next_level_of_cache", "NextLevelOfCache", FW_AS_NUMBER, false, NULL},
	{"size", "Size", FW_AS_NUMBER, false, NULL},
	{"number_of_sets", "NumberOfSets", FW_AS_NUMBER, false, NULL},
	{"associativity", "Associativity", FW_AS_NUMBER, false, NULL},
	{"attributes", "Attributes", FW_AS_BITS, false, NULL},
	{"line_size", "LineSize", FW_AS_NUMBER, false, NULL},
	{"cache_id", "CacheId", FW_AS_NUMBER, false, derive},
	{NULL, "NextText", FW_AS_TEXT, false, derive},
	{NULL, "SizeText", FW_AS_TEXT, false, derive},
};
static const char *const cache_text[] = {
	"{@offset:@0x%03x} cache: {SizeText}, {NumberOfSets} sets, {Associativity}-way, {LineSize}-byte lines, "
	"attributes {Attributes:bits}, next level {NextText}, valid: {Flags:names}{?CacheId:, cache ID %u}",
	NULL,
};
static const struct fw_acpi_show id_show[] = {
	FW_ACPI_SHOW_SUBTABLE(derive),
	{"vendor_id", "VendorId", FW_AS_TEXT, false, NULL},
	{"level1_id", "Level1Id", FW_AS_HEX, false, NULL},
	{"level2_id", "Level2Id", FW_AS_HEX, false, NULL},
	{"major_revision", "MajorRevision", FW_AS_NUMBER, false, NULL},
	{"minor_revision", "MinorRevision", FW_AS_NUMBER, false, NULL},
	{"spin_revision", "SpinRevision", FW_AS_NUMBER, false, NULL},
};
static const char *const id_text[] = {
	"{@offset:@0x%03x} id: vendor '{VendorId}', level 1 {Level1Id}, level 2 {Level2Id}, revision "
	"{MajorRevision}.{MinorRevision}.{SpinRevision}",
	NULL,
};
static const struct fw_acpi_show other_show[] = {FW_ACPI_SHOW_SUBTABLE(derive)};
static const char *const other_text[] = {"{@offset:@0x%03x} type {@type}, {@length} bytes (unknown)", NULL};
static const struct fw_acpi_shape pptt_shapes[] = {
	FW_ACPI_SHAPE(&pptt, pptt_show, pptt_text),
	FW_ACPI_SHAPE(&fw_pptt_processor_layout, proc_show, proc_text),
	FW_ACPI_SHAPE(&fw_pptt_cache_layout, cache_show, cache_text),
	FW_ACPI_SHAPE(&fw_pptt_id_layout, id_show, id_text),
	FW_ACPI_SHAPE(NULL, other_show, other_text),
};
static const struct fw_acpi_view pptt_view = FW_ACPI_VIEW(pptt_shapes, "structures");
static const struct fw_acpi_subtype types[] = {
	{FW_PPTT_PROCESSOR, &fw_pptt_processor_layout, -1, NULL},
	{FW_PPTT_CACHE, &fw_pptt_cache_layout, -1, NULL},
	{FW_PPTT_ID, &fw_pptt_id_layout, -1, NULL},
};
const struct fw_acpi_layout fw_acpi_pptt_table = {
	.fixed = &pptt, .rest = FW_ACPI_REST_RECORDS, .start_field = -1, .count_field = -1,
	.records = {"structure", 1, 1, 1}, .types = types, .ntypes = 3, .view = &pptt_view,
};

/* The part at `off` when it is of `type`, else NULL. */
static const struct fw_acpi_part *part_at(const struct fw_acpi_doc *d, uint32_t off, int64_t type)
{
	for (size_t k = 1; k < d->nparts; k++)
		if (d->parts[k].offset == off)
			return d->parts[k].type == type ? &d->parts[k] : NULL;
	return NULL;
}

/* The processor nodes as a model, and the references the layout cannot check: a parent is a
 * processor node, a private resource a cache or ID structure, a next level of cache a cache. */
void *fw_acpi_pptt_decode(struct fw_acpi_table *t, struct fw_arena *a)
{
	struct pptt_facts *x = fw_arena_alloc(a, sizeof(*x));
	const struct fw_acpi_doc *d = t->doc;
	const struct fw_view *v = &t->data;
	x->m.nodes = fw_arena_alloc(a, (d->nparts + 1) * sizeof(*x->m.nodes));
	x->refs = fw_arena_alloc(a, (d->nparts + 1) * sizeof(*x->refs));
	for (size_t k = 1; k < d->nparts; k++) {
		const struct fw_acpi_part *p = &d->parts[k];
		const struct fw_layout *l = p->layout;
		size_t off = p->offset;
		if (!l || p->length < l->size)
			continue;
		if (l == &fw_pptt_cache_layout) {
			uint32_t next = (uint32_t)fw_layout_get(l, v, off, PPTT_CACHE_NEXT);
			if (next && !part_at(d, next, FW_PPTT_CACHE))
				fw_acpi_diag(t, a, FW_DIAG_WARN, off + 8, "PPTT cache at 0x%zx: next level 0x%x is no cache structure", off, next);
			continue;
		}
		if (l != &fw_pptt_processor_layout)
			continue;
		struct fw_pptt_node *n = &x->m.nodes[x->m.nnodes++];
		n->offset = p->offset;
		n->flags = (uint32_t)fw_layout_get(l, v, off, PPTT_PROC_FLAGS);
		n->parent = (uint32_t)fw_layout_get(l, v, off, PPTT_PROC_PARENT);
		n->acpi_id = (uint32_t)fw_layout_get(l, v, off, PPTT_PROC_ACPI_ID);
		uint32_t count = (uint32_t)fw_layout_get(l, v, off, PPTT_PROC_NPRIVATE);
		x->m.npackages += (n->flags & FW_PPTT_PHYSICAL_PACKAGE) != 0;
		x->leaves += (n->flags & FW_PPTT_LEAF) && (n->flags & FW_PPTT_ACPI_ID_VALID);
		if (n->parent && !part_at(d, n->parent, FW_PPTT_PROCESSOR))
			fw_acpi_diag(t, a, FW_DIAG_WARN, off + 8, "PPTT processor node at 0x%zx: parent 0x%x is no processor node", off,
				     n->parent);
		if ((uint64_t)count * 4 > p->length - l->size) {
			fw_acpi_diag(t, a, FW_DIAG_ERROR, off + 16, "PPTT processor node at 0x%zx: %u private resources need %llu bytes, Length is %u",
				     off, count, (unsigned long long)l->size + 4ull * count, p->length);
			continue;
		}
		n->private_resources = v->p + off + l->size;
		n->nprivate = count;
		struct fw_acpi_text refs = {0};
		for (uint32_t i = 0; i < count; i++) {
			uint32_t r = fw_le32(n->private_resources + 4 * i);
			fw_acpi_text_put(&refs, "%s@0x%03x", i ? " " : "", r);
			if (!part_at(d, r, FW_PPTT_CACHE) && !part_at(d, r, FW_PPTT_ID))
				fw_acpi_diag(t, a, FW_DIAG_WARN, off + l->size + 4 * i,
					     "PPTT processor node at 0x%zx: private resource 0x%x is no cache or ID structure", off, r);
		}
		x->refs[k] = count ? fw_arena_strdup(a, refs.buf) : "none";
	}
	resolve_packages(&x->m, a);
	return &x->m;
}
