/* DMAR: its layout row (structures, and the device scopes within them as records of their own),
 * the view that writes them and the model other code reads. */
#include "dmar.h"

#include <stdio.h>
#include <string.h>

#include "acpi/fields.h"

static const struct fw_bitfield fw_dmar_flag_bits[] = {
	FW_FLAG("INTR_REMAP", 0x1), FW_FLAG("X2APIC_OPT_OUT", 0x2), FW_FLAG("DMA_CTRL_PLATFORM_OPT_IN", 0x4),
};
const struct fw_bitfields fw_dmar_flag_names = FW_BITFIELDS(fw_dmar_flag_bits);
static const struct fw_field dmar_fields[DMAR__COUNT] = {
	[DMAR_WIDTH] = {"HostAddressWidth", FW_FT_U8, 36, 0, 0, NULL},
	[DMAR_FLAGS] = {"Flags", FW_FT_U8, 37, 0, FW_FF_FLAGS, &fw_dmar_flag_names},
};
const struct fw_layout fw_dmar_layout = FW_LAYOUT("DMAR header", FW_DMAR_HEADER_SIZE, dmar_fields);

static const struct fw_bitfield fw_dmar_drhd_flag_bits[] = {FW_FLAG("INCLUDE_PCI_ALL", 0x1)};
const struct fw_bitfields fw_dmar_drhd_flag_names = FW_BITFIELDS(fw_dmar_drhd_flag_bits);
static const struct fw_bitfield fw_dmar_atsr_flag_bits[] = {FW_FLAG("ALL_PORTS", 0x1)};
const struct fw_bitfields fw_dmar_atsr_flag_names = FW_BITFIELDS(fw_dmar_atsr_flag_bits);
static const struct fw_bitfield fw_dmar_satc_flag_bits[] = {FW_FLAG("ATC_REQUIRED", 0x1)};
const struct fw_bitfields fw_dmar_satc_flag_names = FW_BITFIELDS(fw_dmar_satc_flag_bits);

static const struct fw_field drhd_fields[DRHD__COUNT] = {
	[DRHD_TYPE] = {"Type", FW_FT_U16, 0, 0, 0, NULL},
	[DRHD_LENGTH] = {"Length", FW_FT_U16, 2, 0, 0, NULL},
	[DRHD_FLAGS] = {"Flags", FW_FT_U8, 4, 0, FW_FF_FLAGS, &fw_dmar_drhd_flag_names},
	[DRHD_SIZE] = {"Size", FW_FT_U8, 5, 0, 0, NULL},
	[DRHD_SEGMENT] = {"Segment", FW_FT_U16, 6, 0, 0, NULL},
	[DRHD_BASE] = {"RegisterBaseAddress", FW_FT_U64, 8, 0, FW_FF_HEX, NULL},
};
const struct fw_layout fw_dmar_drhd_layout = FW_LAYOUT("DMAR DRHD", 16, drhd_fields);

static const struct fw_field rmrr_fields[RMRR__COUNT] = {
	[RMRR_TYPE] = {"Type", FW_FT_U16, 0, 0, 0, NULL},
	[RMRR_LENGTH] = {"Length", FW_FT_U16, 2, 0, 0, NULL},
	[RMRR_RESERVED] = {"Reserved", FW_FT_U16, 4, 0, FW_FF_HIDDEN, NULL},
	[RMRR_SEGMENT] = {"Segment", FW_FT_U16, 6, 0, 0, NULL},
	[RMRR_BASE] = {"BaseAddress", FW_FT_U64, 8, 0, FW_FF_HEX, NULL},
	[RMRR_LIMIT] = {"LimitAddress", FW_FT_U64, 16, 0, FW_FF_HEX, NULL},
};
const struct fw_layout fw_dmar_rmrr_layout = FW_LAYOUT("DMAR RMRR", 24, rmrr_fields);

/* ATSR, SATC and SIDP share one shape; their flags differ. */
#define ATSR_FIELDS(names)                                                                                        \
	{                                                                                                          \
		[ATSR_TYPE] = {"Type", FW_FT_U16, 0, 0, 0, NULL}, [ATSR_LENGTH] = {"Length", FW_FT_U16, 2, 0, 0, NULL},     \
		[ATSR_FLAGS] = {"Flags", FW_FT_U8, 4, 0, FW_FF_FLAGS, names},                                             \
		[ATSR_RESERVED] = {"Reserved", FW_FT_U8, 5, 0, FW_FF_HIDDEN, NULL},                                       \
		[ATSR_SEGMENT] = {"Segment", FW_FT_U16, 6, 0, 0, NULL},                                                   \
	}
static const struct fw_field atsr_fields[ATSR__COUNT] = ATSR_FIELDS(&fw_dmar_atsr_flag_names);
const struct fw_layout fw_dmar_atsr_layout = FW_LAYOUT("DMAR ATSR", 8, atsr_fields);
static const struct fw_field satc_fields[ATSR__COUNT] = ATSR_FIELDS(&fw_dmar_satc_flag_names);
static const struct fw_layout satc_layout = FW_LAYOUT("DMAR SATC", 8, satc_fields);
static const struct fw_bitfields no_flag_names = {NULL, 0};
static const struct fw_field sidp_fields[ATSR__COUNT] = ATSR_FIELDS(&no_flag_names);
static const struct fw_layout sidp_layout = FW_LAYOUT("DMAR SIDP", 8, sidp_fields);

static const struct fw_field rhsa_fields[RHSA__COUNT] = {
	[RHSA_TYPE] = {"Type", FW_FT_U16, 0, 0, 0, NULL},
	[RHSA_LENGTH] = {"Length", FW_FT_U16, 2, 0, 0, NULL},
	[RHSA_RESERVED] = {"Reserved", FW_FT_U32, 4, 0, FW_FF_HIDDEN, NULL},
	[RHSA_BASE] = {"RegisterBaseAddress", FW_FT_U64, 8, 0, FW_FF_HEX, NULL},
	[RHSA_PD] = {"ProximityDomain", FW_FT_U32, 16, 0, 0, NULL},
};
const struct fw_layout fw_dmar_rhsa_layout = FW_LAYOUT("DMAR RHSA", 20, rhsa_fields);

static const struct fw_field andd_fields[ANDD__COUNT] = {
	[ANDD_TYPE] = {"Type", FW_FT_U16, 0, 0, 0, NULL},
	[ANDD_LENGTH] = {"Length", FW_FT_U16, 2, 0, 0, NULL},
	[ANDD_RESERVED] = {"Reserved", FW_FT_U24, 4, 0, FW_FF_HIDDEN, NULL},
	[ANDD_DEVICE_NUMBER] = {"AcpiDeviceNumber", FW_FT_U8, 7, 0, 0, NULL},
};
const struct fw_layout fw_dmar_andd_layout = FW_LAYOUT("DMAR ANDD", 8, andd_fields);

static const struct fw_named_value scope_type_names[] = {
	{FW_DMAR_SCOPE_ENDPOINT, "endpoint"}, {FW_DMAR_SCOPE_BRIDGE, "bridge"}, {FW_DMAR_SCOPE_IOAPIC, "ioapic"},
	{FW_DMAR_SCOPE_HPET, "hpet"},         {FW_DMAR_SCOPE_NAMESPACE, "acpi-namespace"}, {0, NULL},
};
static const struct fw_field scope_fields[SCOPE__COUNT] = {
	[SCOPE_TYPE] = {"Type", FW_FT_U8, 0, 0, FW_FF_ENUM, scope_type_names},
	[SCOPE_LENGTH] = {"Length", FW_FT_U8, 1, 0, 0, NULL},
	[SCOPE_FLAGS] = {"Flags", FW_FT_U8, 2, 0, FW_FF_HEX, NULL},
	[SCOPE_RESERVED] = {"Reserved", FW_FT_U8, 3, 0, FW_FF_HIDDEN, NULL},
	[SCOPE_ENUMERATION_ID] = {"EnumerationId", FW_FT_U8, 4, 0, 0, NULL},
	[SCOPE_START_BUS] = {"StartBusNumber", FW_FT_U8, 5, 0, FW_FF_HEX, NULL},
};
const struct fw_layout fw_dmar_scope_layout = FW_LAYOUT("DMAR device scope", 6, scope_fields);

const char *fw_dmar_type_name(uint16_t type)
{
	static const char *const names[] = {"DRHD", "RMRR", "ATSR", "RHSA", "ANDD", "SATC", "SIDP"};
	return type < sizeof(names) / sizeof(names[0]) ? names[type] : "unknown";
}

const char *fw_dmar_scope_type_name(uint8_t type)
{
	const char *n = fw_named_value_name(scope_type_names, type);
	return n ? n : "unknown";
}

/* The model and what the view shows beyond the bytes, per part of the document: the unit or
 * device scope it is, a scope's path as text. */
struct dmar_facts {
	struct fw_dmar m; /* first: t->model is the struct fw_dmar */
	const struct fw_dmar_unit **unit_of;   /* by part */
	const struct fw_dmar_scope **scope_of; /* by part */
	const char **path_of;                  /* by part: " 1f.7/00.0" */
	const char ***pairs_of;                /* by part: the pairs as "1f.7" */
};

static void decode_scope(struct fw_acpi_table *t, struct fw_arena *a, struct dmar_facts *x, size_t k, struct fw_dmar_unit *u)
{
	const struct fw_acpi_part *p = &t->doc->parts[k];
	const struct fw_layout *l = &fw_dmar_scope_layout;
	size_t abs = p->offset;
	if (p->length < l->size)
		return;
	struct fw_dmar_scope *s = &u->scopes[u->nscopes++];
	const struct fw_view *v = &t->data;
	s->offset = (uint32_t)abs;
	s->type = (uint8_t)fw_layout_get(l, v, abs, SCOPE_TYPE);
	s->length = (uint8_t)p->length;
	s->flags = (uint8_t)fw_layout_get(l, v, abs, SCOPE_FLAGS);
	s->enumeration_id = (uint8_t)fw_layout_get(l, v, abs, SCOPE_ENUMERATION_ID);
	s->start_bus = (uint8_t)fw_layout_get(l, v, abs, SCOPE_START_BUS);
	s->path = v->p + abs + l->size;
	s->npath = (p->length - l->size) / 2;
	x->scope_of[k] = s;
	if ((p->length - l->size) % 2)
		fw_acpi_diag(t, a, FW_DIAG_WARN, abs, "device scope at 0x%zx: odd path length", abs);
	if (s->npath == 0)
		fw_acpi_diag(t, a, FW_DIAG_WARN, abs, "device scope at 0x%zx has an empty path", abs);
	if (!fw_named_value_name(scope_type_names, s->type))
		fw_acpi_diag(t, a, FW_DIAG_INFO, abs, "device scope at 0x%zx: unknown type %u", abs, s->type);
	/* " 1f.7/00.0": at most 7 characters a pair ("/ff.255") */
	size_t room = 7 * s->npath + 1, used = 0;
	char *text = fw_arena_alloc(a, room);
	const char **pairs = fw_arena_alloc(a, (s->npath + 1) * sizeof(*pairs));
	for (size_t i = 0; i < s->npath; i++) {
		pairs[i] = fw_arena_printf(a, "%02x.%u", s->path[2 * i], s->path[2 * i + 1]);
		used += (size_t)snprintf(text + used, room - used, "%s%s", i ? "/" : " ", pairs[i]);
	}
	x->path_of[k] = text;
	x->pairs_of[k] = pairs;
}

/* The structures and their device scopes as a model (each part of the document is one), and
 * the checks the layout cannot make. */
void *fw_acpi_dmar_decode(struct fw_acpi_table *t, struct fw_arena *a)
{
	struct dmar_facts *x = fw_arena_alloc(a, sizeof(*x));
	struct fw_dmar *m = &x->m;
	const struct fw_acpi_doc *doc = t->doc;
	const struct fw_view *v = &t->data;
	struct fw_acpi_value width_room, flags_room;
	const struct fw_acpi_value *width = fw_acpi_part_value(&doc->parts[0], "HostAddressWidth", &width_room),
				   *flags = fw_acpi_part_value(&doc->parts[0], "Flags", &flags_room);
	m->host_address_width = width ? (uint8_t)(width->u + 1) : 0;
	m->flags = flags ? (uint8_t)flags->u : 0;
	m->units = fw_arena_alloc(a, doc->nparts * sizeof(*m->units));
	x->unit_of = fw_arena_alloc(a, doc->nparts * sizeof(*x->unit_of));
	x->scope_of = fw_arena_alloc(a, doc->nparts * sizeof(*x->scope_of));
	x->path_of = fw_arena_alloc(a, doc->nparts * sizeof(*x->path_of));
	x->pairs_of = fw_arena_alloc(a, doc->nparts * sizeof(*x->pairs_of));
	struct fw_dmar_unit *u = NULL;
	for (size_t k = 1; k < doc->nparts; k++) {
		const struct fw_acpi_part *p = &doc->parts[k];
		if (p->within) {
			if (u && x->unit_of[p->within] == u)
				decode_scope(t, a, x, k, u);
			continue;
		}
		u = &m->units[m->n++];
		memset(u, 0, sizeof(*u));
		x->unit_of[k] = u;
		u->offset = p->offset;
		u->type = (uint16_t)p->type;
		u->length = (uint16_t)p->length;
		const struct fw_layout *l = p->layout;
		size_t off = p->offset;
		if (!l || p->length < l->size)
			continue;
		size_t nscopes = 0;
		for (size_t j = k + 1; j < doc->nparts && doc->parts[j].within == k; j++)
			nscopes++;
		u->scopes = fw_arena_alloc(a, (nscopes + 1) * sizeof(*u->scopes));
		switch (u->type) {
		case FW_DMAR_DRHD:
			u->flags = (uint8_t)fw_layout_get(l, v, off, DRHD_FLAGS);
			u->size = (uint8_t)fw_layout_get(l, v, off, DRHD_SIZE);
			u->segment = (uint16_t)fw_layout_get(l, v, off, DRHD_SEGMENT);
			u->base = fw_layout_get(l, v, off, DRHD_BASE);
			break;
		case FW_DMAR_RMRR:
			u->segment = (uint16_t)fw_layout_get(l, v, off, RMRR_SEGMENT);
			u->base = fw_layout_get(l, v, off, RMRR_BASE);
			u->limit = fw_layout_get(l, v, off, RMRR_LIMIT);
			if (u->limit < u->base)
				fw_acpi_diag(t, a, FW_DIAG_WARN, off + 16, "RMRR at 0x%zx: limit 0x%llx is below base 0x%llx", off,
					     (unsigned long long)u->limit, (unsigned long long)u->base);
			break;
		case FW_DMAR_ATSR:
		case FW_DMAR_SATC:
		case FW_DMAR_SIDP:
			u->flags = (uint8_t)fw_layout_get(l, v, off, ATSR_FLAGS);
			u->segment = (uint16_t)fw_layout_get(l, v, off, ATSR_SEGMENT);
			break;
		case FW_DMAR_RHSA:
			u->base = fw_layout_get(l, v, off, RHSA_BASE);
			u->proximity_domain = (uint32_t)fw_layout_get(l, v, off, RHSA_PD);
			break;
		case FW_DMAR_ANDD: {
			u->device_number = (uint8_t)fw_layout_get(l, v, off, ANDD_DEVICE_NUMBER);
			size_t n = p->length - l->size;
			const uint8_t *name = v->p + off + l->size;
			char *s = fw_arena_alloc(a, n + 1);
			size_t j = 0;
			for (size_t i = 0; i < n && name[i]; i++)
				s[j++] = (name[i] >= 0x20 && name[i] < 0x7F) ? (char)name[i] : '?';
			s[j] = '\0';
			u->name = s;
			break;
		}
		}
	}
	return m;
}

/* ---- the view ---- */

static bool derive(const struct fw_acpi_table *t, size_t part, const char *name, struct fw_acpi_derived *out)
{
	const struct dmar_facts *x = t->model;
	if (!x || !t->doc || part >= t->doc->nparts)
		return false;
	if (part == 0) {
		out->u = x->m.host_address_width; /* "Width" */
		return true;
	}
	const struct fw_acpi_part *p = &t->doc->parts[part];
	const struct fw_dmar_scope *s = x->scope_of[part];
	if (p->within) {
		const struct fw_dmar_unit *u = x->unit_of[p->within];
		if (!s || !u)
			return false;
		if (!strcmp(name, "TypeName")) {
			out->s = fw_dmar_scope_type_name(s->type);
		} else if (!strcmp(name, "Path")) {
			out->s = x->path_of[part];
			out->lines = x->pairs_of[part];
			out->nlines = s->npath;
		} else if (!strcmp(name, "Bdf")) {
			if (s->npath != 1)
				return false;
			out->s = fw_acpi_bdf_str(u->segment, (uint16_t)(s->start_bus << 8 | (s->path[0] & 0x1F) << 3 | (s->path[1] & 7)),
						 out->buf);
		} else if (!strcmp(name, "Id")) {
			/* the enumeration id names an I/O APIC, an HPET or an ACPI device */
			out->u = s->enumeration_id;
			return s->type == FW_DMAR_SCOPE_IOAPIC || s->type == FW_DMAR_SCOPE_HPET || s->type == FW_DMAR_SCOPE_NAMESPACE;
		} else {
			return false;
		}
		return true;
	}
	const struct fw_dmar_unit *u = x->unit_of[part];
	if (!u)
		return false;
	if (!strcmp(name, "TypeName")) {
		out->s = fw_dmar_type_name(u->type);
	} else if (!strcmp(name, "Name")) {
		out->s = u->name ? u->name : "";
	} else if (!strcmp(name, "Suffix")) {
		/* the one flag each kind has, named after its address */
		const char *flag = u->type == FW_DMAR_DRHD ? " INCLUDE_PCI_ALL" : u->type == FW_DMAR_ATSR ? " ALL_PORTS" : " ATC_REQUIRED";
		out->s = (u->flags & 1) ? flag : "";
	} else {
		return false;
	}
	return true;
}

#define SHOW_UNIT(...)                                                                                              \
	{"offset", "@offset", FW_AS_NUMBER, false, NULL}, {"type", "TypeName", FW_AS_TEXT, false, derive},               \
		{"type_id", "@type", FW_AS_NUMBER, false, NULL}, {"length", "@length", FW_AS_NUMBER, false, NULL}, __VA_ARGS__
#define SCOPES {"scopes", "DMAR device scope", FW_AS_PARTS, false, NULL}
#define UNIT_LINE "{@offset:@0x%03x} {TypeName}"

static const struct fw_acpi_show dmar_show[] = {
	{"host_address_width", "Width", FW_AS_NUMBER, false, derive},
	{"flags", "Flags", FW_AS_FLAGS, false, NULL},
};
static const char *const dmar_text[] = {"host address width {Width} bits; flags 0x{Flags:%02x}: {Flags:names}", NULL};
static const struct fw_acpi_show drhd_show[] = {
	SHOW_UNIT({"flags", "Flags", FW_AS_FLAGS, false, NULL}, {"segment", "Segment", FW_AS_NUMBER, false, NULL},
		  {"register_base", "RegisterBaseAddress", FW_AS_HEX, false, NULL}, {"size", "Size", FW_AS_NUMBER, false, NULL},
		  SCOPES, {NULL, "Suffix", FW_AS_TEXT, false, derive}),
};
static const char *const drhd_text[] = {
	UNIT_LINE " segment {Segment:%04x} registers 0x{RegisterBaseAddress:%x}{Suffix}", "{*DMAR device scope}", NULL,
};
static const struct fw_acpi_show rmrr_show[] = {
	SHOW_UNIT({"segment", "Segment", FW_AS_NUMBER, false, NULL}, {"base_address", "BaseAddress", FW_AS_HEX, false, NULL},
		  {"limit_address", "LimitAddress", FW_AS_HEX, false, NULL}, SCOPES),
};
static const char *const rmrr_text[] = {
	UNIT_LINE " segment {Segment:%04x} memory 0x{BaseAddress:%x}-0x{LimitAddress:%x}", "{*DMAR device scope}", NULL,
};
static const struct fw_acpi_show atsr_show[] = {
	SHOW_UNIT({"flags", "Flags", FW_AS_FLAGS, false, NULL}, {"segment", "Segment", FW_AS_NUMBER, false, NULL}, SCOPES,
		  {NULL, "Suffix", FW_AS_TEXT, false, derive}),
};
static const char *const atsr_text[] = {UNIT_LINE " segment {Segment:%04x}{Suffix}", "{*DMAR device scope}", NULL};
static const char *const sidp_text[] = {UNIT_LINE " type {@type}, {@length} bytes", "{*DMAR device scope}", NULL};
static const struct fw_acpi_show rhsa_show[] = {
	SHOW_UNIT({"register_base", "RegisterBaseAddress", FW_AS_HEX, false, NULL},
		  {"proximity_domain", "ProximityDomain", FW_AS_NUMBER, false, NULL}),
};
static const char *const rhsa_text[] = {
	UNIT_LINE " unit 0x{RegisterBaseAddress:%x} in proximity domain {ProximityDomain}", NULL,
};
static const struct fw_acpi_show andd_show[] = {
	SHOW_UNIT({"acpi_device_number", "AcpiDeviceNumber", FW_AS_NUMBER, false, NULL},
		  {"object_name", "Name", FW_AS_TEXT, false, derive}),
};
static const char *const andd_text[] = {UNIT_LINE " ACPI device {AcpiDeviceNumber} = {Name}", NULL};
static const struct fw_acpi_show other_show[] = {SHOW_UNIT()};
static const char *const other_text[] = {UNIT_LINE " type {@type}, {@length} bytes", NULL};
static const struct fw_acpi_show scope_show[] = {
	{"type", "TypeName", FW_AS_TEXT, false, derive},
	{"type_id", "Type", FW_AS_NUMBER, false, NULL},
	{"enumeration_id", "EnumerationId", FW_AS_NUMBER, false, NULL},
	{"start_bus", "StartBusNumber", FW_AS_NUMBER, false, NULL},
	{"path", "Path", FW_AS_LINES, false, derive},
	{"bdf", "Bdf", FW_AS_TEXT, false, derive},
	{NULL, "Id", FW_AS_NUMBER, false, derive},
};
static const char *const scope_text[] = {"    {TypeName:%-14s} bus {StartBusNumber:%02x} path{Path}{?Id:  id %u}", NULL};
static const struct fw_acpi_shape dmar_shapes[] = {
	FW_ACPI_SHAPE(&fw_dmar_layout, dmar_show, dmar_text),
	FW_ACPI_SHAPE(&fw_dmar_drhd_layout, drhd_show, drhd_text),
	FW_ACPI_SHAPE(&fw_dmar_rmrr_layout, rmrr_show, rmrr_text),
	FW_ACPI_SHAPE(&fw_dmar_atsr_layout, atsr_show, atsr_text),
	FW_ACPI_SHAPE(&satc_layout, atsr_show, atsr_text),
	FW_ACPI_SHAPE(&sidp_layout, atsr_show, sidp_text),
	FW_ACPI_SHAPE(&fw_dmar_rhsa_layout, rhsa_show, rhsa_text),
	FW_ACPI_SHAPE(&fw_dmar_andd_layout, andd_show, andd_text),
	FW_ACPI_SHAPE(&fw_dmar_scope_layout, scope_show, scope_text),
	FW_ACPI_SHAPE(NULL, other_show, other_text),
};
static const struct fw_acpi_view dmar_view = FW_ACPI_VIEW(dmar_shapes, "units");
static const struct fw_acpi_subtype types[] = {
	{FW_DMAR_DRHD, &fw_dmar_drhd_layout, -1, &fw_dmar_scope_layout},
	{FW_DMAR_RMRR, &fw_dmar_rmrr_layout, -1, &fw_dmar_scope_layout},
	{FW_DMAR_ATSR, &fw_dmar_atsr_layout, -1, &fw_dmar_scope_layout},
	{FW_DMAR_RHSA, &fw_dmar_rhsa_layout, -1, NULL},
	{FW_DMAR_ANDD, &fw_dmar_andd_layout, -1, NULL},
	{FW_DMAR_SATC, &satc_layout, -1, &fw_dmar_scope_layout},
	{FW_DMAR_SIDP, &sidp_layout, -1, &fw_dmar_scope_layout},
};
const struct fw_acpi_layout fw_acpi_dmar_table = {
	.fixed = &fw_dmar_layout, .rest = FW_ACPI_REST_RECORDS, .start_field = -1, .count_field = -1,
	.records = {"structure", 2, 2, 2}, .types = types, .ntypes = sizeof(types) / sizeof(types[0]),
	.inner = {"device scope", 1, 1, 1}, .view = &dmar_view,
};
