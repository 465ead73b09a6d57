/* CEDT: its layout row (the structures and how they are written) and the structures as a model. */
#include "cedt.h"

#include <stdio.h>
#include <string.h>

#include "acpi/fields.h"

static const struct fw_field chbs_fields[CHBS__COUNT] = {
	[CHBS_TYPE] = {"Type", FW_FT_U8, 0, 0, 0, NULL},
	[CHBS_RESERVED] = {"Reserved", FW_FT_U8, 1, 0, FW_FF_HIDDEN, NULL},
	[CHBS_LENGTH] = {"Length", FW_FT_U16, 2, 0, 0, NULL},
	[CHBS_UID] = {"Uid", FW_FT_U32, 4, 0, 0, NULL},
	[CHBS_VERSION] = {"CxlVersion", FW_FT_U32, 8, 0, 0, NULL},
	[CHBS_RESERVED1] = {"Reserved1", FW_FT_U32, 12, 0, FW_FF_HIDDEN, NULL},
	[CHBS_BASE] = {"Base", FW_FT_U64, 16, 0, FW_FF_HEX, NULL},
	[CHBS_SIZE] = {"RegisterLength", FW_FT_U64, 24, 0, FW_FF_HEX, NULL},
};
const struct fw_layout fw_cedt_chbs_layout = FW_LAYOUT("CEDT CXL host bridge structure", 32, chbs_fields);

static const struct fw_bitfield fw_cedt_restriction_bits[] = {
	FW_FLAG("Type2", 0x01), FW_FLAG("Type3", 0x02), FW_FLAG("Volatile", 0x04), FW_FLAG("Persistent", 0x08),
	FW_FLAG("FixedConfig", 0x10), FW_FLAG("BI", 0x20),
};
const struct fw_bitfields fw_cedt_restriction_names = FW_BITFIELDS(fw_cedt_restriction_bits);
static const struct fw_field cfmws_fields[CFMWS__COUNT] = {
	[CFMWS_TYPE] = {"Type", FW_FT_U8, 0, 0, 0, NULL},
	[CFMWS_RESERVED] = {"Reserved", FW_FT_U8, 1, 0, FW_FF_HIDDEN, NULL},
	[CFMWS_LENGTH] = {"Length", FW_FT_U16, 2, 0, 0, NULL},
	[CFMWS_RESERVED1] = {"Reserved1", FW_FT_U32, 4, 0, FW_FF_HIDDEN, NULL},
	[CFMWS_BASE] = {"BaseHpa", FW_FT_U64, 8, 0, FW_FF_HEX, NULL},
	[CFMWS_SIZE] = {"WindowSize", FW_FT_U64, 16, 0, FW_FF_HEX, NULL},
	[CFMWS_ENIW] = {"InterleaveWays", FW_FT_U8, 24, 0, 0, NULL},
	[CFMWS_ARITHMETIC] = {"InterleaveArithmetic", FW_FT_U8, 25, 0, 0, NULL},
	[CFMWS_RESERVED2] = {"Reserved2", FW_FT_U16, 26, 0, FW_FF_HIDDEN, NULL},
	[CFMWS_GRANULARITY] = {"HostBridgeInterleaveGranularity", FW_FT_U32, 28, 0, 0, NULL},
	[CFMWS_RESTRICTIONS] = {"WindowRestrictions", FW_FT_U16, 32, 0, FW_FF_FLAGS, &fw_cedt_restriction_names},
	[CFMWS_QTG] = {"QtgId", FW_FT_U16, 34, 0, 0, NULL},
};
const struct fw_layout fw_cedt_cfmws_layout = FW_LAYOUT("CEDT CXL fixed memory window structure", 36, cfmws_fields);

const char *fw_cedt_type_name(uint8_t type)
{
	switch (type) {
	case FW_CEDT_CHBS: return "CHBS";
	case FW_CEDT_CFMWS: return "CFMWS";
	case FW_CEDT_CXIMS: return "CXIMS";
	case FW_CEDT_RDPAS: return "RDPAS";
	}
	return "unknown";
}

/* Encoded interleave ways (CXL 2.0 8.2.5.12.7): 0-4 = 1,2,4,8,16; 8-10 = 3,6,12. */
static uint32_t decode_ways(uint8_t eniw)
{
	if (eniw <= 4)
		return 1u << eniw;
	if (eniw >= 8 && eniw <= 10)
		return 3u << (eniw - 8);
	return 0;
}

static const struct fw_field cxims_fields[CXIMS__COUNT] = {
	[CXIMS_TYPE] = {"Type", FW_FT_U8, 0, 0, 0, NULL},
	[CXIMS_RESERVED] = {"Reserved", FW_FT_U8, 1, 0, FW_FF_HIDDEN, NULL},
	[CXIMS_LENGTH] = {"Length", FW_FT_U16, 2, 0, 0, NULL},
	[CXIMS_RESERVED1] = {"Reserved1", FW_FT_U16, 4, 0, FW_FF_HIDDEN, NULL},
	[CXIMS_HBIG] = {"HostBridgeInterleaveGranularity", FW_FT_U8, 6, 0, 0, NULL},
	[CXIMS_NR_MAPS] = {"NumXorMaps", FW_FT_U8, 7, 0, 0, NULL},
};
const struct fw_layout fw_cedt_cxims_layout = FW_LAYOUT("CEDT CXL XOR interleave math structure", 8, cxims_fields);

static const struct fw_named_value rdpas_protocols[] = {{0, "CXL.io"}, {1, "CXL.cachemem"}, {0, NULL}};
static const struct fw_field rdpas_fields[RDPAS__COUNT] = {
	[RDPAS_TYPE] = {"Type", FW_FT_U8, 0, 0, 0, NULL},
	[RDPAS_RESERVED] = {"Reserved", FW_FT_U8, 1, 0, FW_FF_HIDDEN, NULL},
	[RDPAS_LENGTH] = {"Length", FW_FT_U16, 2, 0, 0, NULL},
	[RDPAS_SEGMENT] = {"PciSegment", FW_FT_U16, 4, 0, 0, NULL},
	[RDPAS_BDF] = {"RcecBdf", FW_FT_U16, 6, 0, FW_FF_HEX, NULL},
	[RDPAS_PROTOCOL] = {"ProtocolType", FW_FT_U8, 8, 0, FW_FF_ENUM, rdpas_protocols},
	[RDPAS_BASE] = {"BaseAddress", FW_FT_U64, 9, 0, FW_FF_HEX, NULL},
};
const struct fw_layout fw_cedt_rdpas_layout = FW_LAYOUT("CEDT RCEC downstream port association structure", 17, rdpas_fields);

/* "256 B" .. "16 KiB": an encoded interleave granularity (CXL 3.0 8.2.4.19.7, 0-6), or NULL */
static const char *granularity_str(uint64_t enc, char *buf, size_t len)
{
	if (enc > 6)
		return NULL;
	uint64_t bytes = 256ull << enc;
	snprintf(buf, len, bytes < 1024 ? "%llu B" : "%llu KiB", (unsigned long long)(bytes < 1024 ? bytes : bytes / 1024));
	return buf;
}

static const struct fw_layout cedt = {"CEDT", FW_ACPI_HEADER_SIZE, NULL, 0};

/* What the view shows of a CXIMS's maps, per part: "0x..." and "map 0: 0x... (address bits 8 14)". */
struct cedt_facts {
	struct fw_cedt m; /* first: t->model is the struct fw_cedt */
	const char ***maps, ***map_bits;
};

/* Beyond the bytes: the structure's kind, the CXL version, the interleave ways and arithmetic,
 * the target UIDs after the fixed part. */
static bool derive(const struct fw_acpi_table *t, size_t part, const char *name, struct fw_acpi_derived *out)
{
	const struct fw_acpi_part *p = &t->doc->parts[part];
	const struct fw_acpi_value *v;
	struct fw_acpi_value vr; /* room for v */
	if (!strcmp(name, "TypeName")) {
		out->s = fw_cedt_type_name((uint8_t)p->type);
		return true;
	}
	if (!strcmp(name, "Granularity")) {
		if (!(v = fw_acpi_part_value(p, "HostBridgeInterleaveGranularity", &vr)))
			return false;
		out->s = granularity_str(v->u, out->buf, sizeof(out->buf));
		out->null = !out->s;
		return true;
	}
	if (!strcmp(name, "RcecBdfText")) {
		struct fw_acpi_value seg_room;
		const struct fw_acpi_value *seg = fw_acpi_part_value(p, "PciSegment", &seg_room);
		if (!seg || !(v = fw_acpi_part_value(p, "RcecBdf", &vr)))
			return false;
		out->s = fw_acpi_bdf_str((uint16_t)seg->u, (uint16_t)v->u, out->buf);
		return true;
	}
	if (!strncmp(name, "XorMap", 6)) {
		const struct cedt_facts *x = t->model;
		if (!x || part == 0 || part > x->m.n || !x->m.entries[part - 1].xormaps)
			return false;
		bool bits = !strcmp(name, "XorMapBits");
		out->lines = bits ? x->map_bits[part] : x->maps[part];
		out->nlines = x->m.entries[part - 1].nxormaps;
		out->indent = 2;
		out->compared = !bits;
		return true;
	}
	if (!strcmp(name, "Targets")) {
		if (p->layout != &fw_cedt_cfmws_layout || p->length < fw_cedt_cfmws_layout.size)
			return false;
		out->list = t->data.p + p->offset + fw_cedt_cfmws_layout.size;
		out->nlist = (p->length - fw_cedt_cfmws_layout.size) / 4;
		out->compared = true;
		return true;
	}
	bool version = !strncmp(name, "CxlVersion", 10), ways = !strncmp(name, "Ways", 4);
	if (!(v = fw_acpi_part_value(p, version ? "CxlVersion" : ways ? "InterleaveWays" : "InterleaveArithmetic", &vr)))
		return false;
	if (ways) {
		out->u = decode_ways((uint8_t)v->u);
		return out->u || !strcmp(name, "WaysOrZero");
	}
	static const char *const versions[] = {"1.1", "2.0"}, *const arithmetic[] = {"modulo", "xor"};
	const char *const *names = version ? versions : arithmetic;
	out->s = v->u < 2 ? names[v->u] : !strcmp(name, "CxlVersionShort") ? "?" : "unknown";
	return true;
}

static const struct fw_acpi_show chbs_show[] = {
	FW_ACPI_SHOW_SUBTABLE(derive),
	{"uid", "Uid", FW_AS_NUMBER, false, NULL},
	{"cxl_version", "CxlVersionName", FW_AS_TEXT, false, derive},
	{"base", "Base", FW_AS_HEX, false, NULL},
	{"size", "RegisterLength", FW_AS_HEX, false, NULL},
	{NULL, "CxlVersionShort", FW_AS_TEXT, false, derive},
};
static const char *const chbs_text[] = {
	"{@offset:@0x%03x} {TypeName}: host bridge UID {Uid}, CXL {CxlVersionShort}, registers {Base} + {RegisterLength}",
	NULL,
};
static const struct fw_acpi_show cfmws_show[] = {
	FW_ACPI_SHOW_SUBTABLE(derive),
	{"base_hpa", "BaseHpa", FW_AS_HEX, false, NULL},
	{"window_size", "WindowSize", FW_AS_HEX, false, NULL},
	{"interleave_ways", "Ways", FW_AS_NUMBER, true, derive},
	{"interleave_arithmetic", "ArithmeticName", FW_AS_TEXT, false, derive},
	{"granularity_encoded", "HostBridgeInterleaveGranularity", FW_AS_NUMBER, false, NULL},
	{"restrictions", "WindowRestrictions", FW_AS_FLAGS, false, NULL},
	{"qtg_id", "QtgId", FW_AS_NUMBER, false, NULL},
	{"targets", "Targets", FW_AS_LIST, false, derive},
	{NULL, "WaysOrZero", FW_AS_NUMBER, false, derive},
};
static const char *const cfmws_text[] = {
	"{@offset:@0x%03x} {TypeName}: window {BaseHpa} + {WindowSize}, {WaysOrZero}-way, {WindowRestrictions:names}; "
	"targets{Targets:list}",
	NULL,
};
static const struct fw_acpi_show cxims_show[] = {
	FW_ACPI_SHOW_SUBTABLE(derive),
	{"granularity_encoded", "HostBridgeInterleaveGranularity", FW_AS_NUMBER, false, NULL},
	{"granularity", "Granularity", FW_AS_TEXT, true, derive},
	{"xor_maps_count", "NumXorMaps", FW_AS_NUMBER, false, NULL},
	{"xor_maps", "XorMaps", FW_AS_LINES, false, derive},
	{NULL, "XorMapBits", FW_AS_LINES, false, derive},
};
static const char *const cxims_text[] = {
	"{@offset:@0x%03x} {TypeName}: granularity {Granularity}, {NumXorMaps} XOR maps",
	"{*XorMapBits}",
	NULL,
};
static const struct fw_acpi_show rdpas_show[] = {
	FW_ACPI_SHOW_SUBTABLE(derive),
	{"segment", "PciSegment", FW_AS_NUMBER, false, NULL},
	{"rcec_bdf", "RcecBdfText", FW_AS_TEXT, false, derive},
	{"protocol", "ProtocolType", FW_AS_NAME, false, NULL},
	{"protocol_id", "ProtocolType", FW_AS_NUMBER, false, NULL},
	{"base_address", "BaseAddress", FW_AS_HEX, false, NULL},
};
static const char *const rdpas_text[] = {
	"{@offset:@0x%03x} {TypeName}: RCEC {RcecBdfText}, {ProtocolType:name|unknown protocol}, downstream port registers at {BaseAddress}",
	NULL,
};
static const struct fw_acpi_show other_show[] = {FW_ACPI_SHOW_SUBTABLE(derive)};
static const char *const other_text[] = {"{@offset:@0x%03x} type {@type}, {@length} bytes (unknown)", NULL};
static const struct fw_acpi_shape cedt_shapes[] = {
	FW_ACPI_SHAPE(&fw_cedt_chbs_layout, chbs_show, chbs_text), FW_ACPI_SHAPE(&fw_cedt_cfmws_layout, cfmws_show, cfmws_text),
	FW_ACPI_SHAPE(&fw_cedt_cxims_layout, cxims_show, cxims_text), FW_ACPI_SHAPE(&fw_cedt_rdpas_layout, rdpas_show, rdpas_text),
	FW_ACPI_SHAPE(NULL, other_show, other_text),
};
static const struct fw_acpi_view cedt_view = FW_ACPI_VIEW(cedt_shapes, "structures");
static const struct fw_acpi_subtype types[] = {
	{FW_CEDT_CHBS, &fw_cedt_chbs_layout, -1, NULL},
	{FW_CEDT_CFMWS, &fw_cedt_cfmws_layout, -1, NULL},
	{FW_CEDT_CXIMS, &fw_cedt_cxims_layout, -1, NULL},
	{FW_CEDT_RDPAS, &fw_cedt_rdpas_layout, -1, NULL},
};
const struct fw_acpi_layout fw_acpi_cedt_table = {
	.fixed = &cedt, .rest = FW_ACPI_REST_RECORDS, .start_field = -1, .count_field = -1,
	.records = {"structure", 1, 2, 2}, .types = types, .ntypes = 4, .view = &cedt_view,
};

/* A CXIMS's maps as JSON strings and as text naming the address bits each one XORs. */
static void cxims_facts(struct fw_arena *a, const struct fw_cedt_entry *e, const char ***maps, const char ***bits)
{
	*maps = fw_arena_alloc(a, (e->nxormaps + 1) * sizeof(**maps));
	*bits = fw_arena_alloc(a, (e->nxormaps + 1) * sizeof(**bits));
	for (size_t i = 0; i < e->nxormaps; i++) {
		uint64_t map = fw_le64(e->xormaps + 8 * i);
		struct fw_acpi_text t = {0};
		for (int b = 0; b < 64; b++)
			if (map >> b & 1)
				fw_acpi_text_put(&t, " %d", b);
		(*maps)[i] = fw_arena_printf(a, "0x%016llx", (unsigned long long)map);
		(*bits)[i] = fw_arena_printf(a, "map %zu: 0x%016llx, address bits%s", i, (unsigned long long)map,
					     map ? t.buf : " none");
	}
}

/* The structures as a model, and the checks on a memory window's interleave. */
void *fw_acpi_cedt_decode(struct fw_acpi_table *t, struct fw_arena *a)
{
	struct cedt_facts *x = fw_arena_alloc(a, sizeof(*x));
	struct fw_cedt *m = &x->m;
	const struct fw_acpi_doc *d = t->doc;
	const struct fw_view *v = &t->data;
	m->entries = fw_arena_alloc(a, (d->nparts + 1) * sizeof(*m->entries));
	x->maps = fw_arena_alloc(a, (d->nparts + 1) * sizeof(*x->maps));
	x->map_bits = fw_arena_alloc(a, (d->nparts + 1) * sizeof(*x->map_bits));
	for (size_t k = 1; k < d->nparts; k++) {
		const struct fw_acpi_part *p = &d->parts[k];
		size_t off = p->offset;
		uint16_t len = (uint16_t)p->length;
		struct fw_cedt_entry *e = &m->entries[m->n++];
		e->offset = p->offset;
		e->type = (uint8_t)p->type;
		e->length = len;
		const struct fw_layout *l = p->layout;
		if (!l || len < l->size)
			continue;
		if (l == &fw_cedt_chbs_layout) {
			e->uid = (uint32_t)fw_layout_get(l, v, off, CHBS_UID);
			e->cxl_version = (uint32_t)fw_layout_get(l, v, off, CHBS_VERSION);
			e->base = fw_layout_get(l, v, off, CHBS_BASE);
			e->size = fw_layout_get(l, v, off, CHBS_SIZE);
		} else if (l == &fw_cedt_cfmws_layout) {
			e->base = fw_layout_get(l, v, off, CFMWS_BASE);
			e->size = fw_layout_get(l, v, off, CFMWS_SIZE);
			e->ways_encoded = (uint8_t)fw_layout_get(l, v, off, CFMWS_ENIW);
			e->arithmetic = (uint8_t)fw_layout_get(l, v, off, CFMWS_ARITHMETIC);
			e->granularity_encoded = (uint32_t)fw_layout_get(l, v, off, CFMWS_GRANULARITY);
			e->restrictions = (uint16_t)fw_layout_get(l, v, off, CFMWS_RESTRICTIONS);
			e->qtg_id = (uint16_t)fw_layout_get(l, v, off, CFMWS_QTG);
			e->ways = decode_ways(e->ways_encoded);
			e->targets = v->p + off + l->size;
			e->ntargets = (len - l->size) / 4;
			if (!e->ways)
				fw_acpi_diag(t, a, FW_DIAG_WARN, off + 24, "CFMWS at 0x%zx: reserved interleave ways encoding %u", off,
					     e->ways_encoded);
			else if (e->ntargets < e->ways)
				fw_acpi_diag(t, a, FW_DIAG_ERROR, off, "CFMWS at 0x%zx: %u-way interleave but room for %zu targets", off,
					     e->ways, e->ntargets);
		} else if (l == &fw_cedt_cxims_layout) {
			e->hbig = (uint8_t)fw_layout_get(l, v, off, CXIMS_HBIG);
			e->nxormaps = (size_t)fw_layout_get(l, v, off, CXIMS_NR_MAPS);
			if (e->hbig > 6)
				fw_acpi_diag(t, a, FW_DIAG_WARN, off + 6, "CXIMS at 0x%zx: reserved granularity encoding %u", off, e->hbig);
			if (l->size + 8 * e->nxormaps > len) {
				fw_acpi_diag(t, a, FW_DIAG_ERROR, off + 7, "CXIMS at 0x%zx: %zu XOR maps need %zu bytes, Length is %u", off,
					     e->nxormaps, l->size + 8 * e->nxormaps, len);
				e->nxormaps = 0;
				continue;
			}
			e->xormaps = v->p + off + l->size;
			cxims_facts(a, e, &x->maps[k], &x->map_bits[k]);
		} else if (l == &fw_cedt_rdpas_layout) {
			e->segment = (uint16_t)fw_layout_get(l, v, off, RDPAS_SEGMENT);
			e->bdf = (uint16_t)fw_layout_get(l, v, off, RDPAS_BDF);
			e->protocol = (uint8_t)fw_layout_get(l, v, off, RDPAS_PROTOCOL);
			e->base = fw_layout_get(l, v, off, RDPAS_BASE);
		}
	}
	return m;
}
