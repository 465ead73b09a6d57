/* DMAR decoder. */
#include "dmar.h"

#include <string.h>

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

static const struct fw_field atsr_fields[ATSR__COUNT] = {
	[ATSR_TYPE] = {"Type", FW_FT_U16, 0, 0, 0, NULL},
	[ATSR_LENGTH] = {"Length", FW_FT_U16, 2, 0, 0, NULL},
	[ATSR_FLAGS] = {"Flags", FW_FT_U8, 4, 0, FW_FF_HEX, NULL},
	[ATSR_RESERVED] = {"Reserved", FW_FT_U8, 5, 0, FW_FF_HIDDEN, NULL},
	[ATSR_SEGMENT] = {"Segment", FW_FT_U16, 6, 0, 0, NULL},
};
const struct fw_layout fw_dmar_atsr_layout = FW_LAYOUT("DMAR ATSR/SATC/SIDP", 8, atsr_fields);

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

static void decode_scopes(struct fw_acpi_table *t, struct fw_arena *a, struct fw_dmar_unit *u, const struct fw_view *v,
			  size_t start)
{
	const struct fw_layout *l = &fw_dmar_scope_layout;
	static const struct fw_acpi_record_format fmt = {"device scope", 1, 1, 1};
	size_t cap = 0;
	struct fw_acpi_record r;
	for (size_t next = start; fw_acpi_next_record(t, a, v, u->offset, &next, &fmt, &r);) {
		size_t off = r.offset, abs = u->offset + off;
		uint8_t len = (uint8_t)r.length;
		if (len < l->size) {
			fw_acpi_diag(t, a, FW_DIAG_ERROR, abs, "%s at 0x%x: device scope at 0x%zx has Length %u, needs %u; walk stopped",
				     fw_dmar_type_name(u->type), u->offset, abs, len, l->size);
			return;
		}
		u->scopes = fw_acpi_grow(a, u->scopes, &cap, u->nscopes + 1, sizeof(*u->scopes));
		struct fw_dmar_scope *s = &u->scopes[u->nscopes++];
		s->offset = (uint32_t)abs;
		s->type = (uint8_t)fw_layout_get(l, v, off, SCOPE_TYPE);
		s->length = len;
		s->flags = (uint8_t)fw_layout_get(l, v, off, SCOPE_FLAGS);
		s->enumeration_id = (uint8_t)fw_layout_get(l, v, off, SCOPE_ENUMERATION_ID);
		s->start_bus = (uint8_t)fw_layout_get(l, v, off, SCOPE_START_BUS);
		s->path = v->p + off + l->size;
		s->npath = (len - l->size) / 2;
		if ((len - l->size) % 2)
			fw_acpi_diag(t, a, FW_DIAG_WARN, abs, "device scope at 0x%zx: odd path length", abs);
		if (s->npath == 0)
			fw_acpi_diag(t, a, FW_DIAG_WARN, abs, "device scope at 0x%zx has an empty path", abs);
		if (!fw_named_value_name(scope_type_names, s->type))
			fw_acpi_diag(t, a, FW_DIAG_INFO, abs, "device scope at 0x%zx: unknown type %u", abs, s->type);
	}
}

void *fw_acpi_dmar_decode(struct fw_acpi_table *t, struct fw_arena *a)
{
	struct fw_dmar *m = fw_arena_alloc(a, sizeof(*m));
	const struct fw_view *v = &t->data;
	if (!fw_view_has(v, 0, FW_DMAR_HEADER_SIZE)) {
		fw_acpi_diag(t, a, FW_DIAG_ERROR, 0, "DMAR of 0x%zx bytes is shorter than its 48-byte header", v->len);
		return m;
	}
	m->host_address_width = (uint8_t)(fw_layout_get(&fw_dmar_layout, v, 0, DMAR_WIDTH) + 1);
	m->flags = (uint8_t)fw_layout_get(&fw_dmar_layout, v, 0, DMAR_FLAGS);
	size_t cap = 0;
	static const struct fw_acpi_record_format fmt = {"structure", 2, 2, 2};
	struct fw_acpi_record r;
	for (size_t next = FW_DMAR_HEADER_SIZE; fw_acpi_next_record(t, a, v, 0, &next, &fmt, &r);) {
		size_t off = r.offset;
		uint16_t type = (uint16_t)r.type, len = (uint16_t)r.length;
		m->units = fw_acpi_grow(a, m->units, &cap, m->n + 1, sizeof(*m->units));
		struct fw_dmar_unit *u = &m->units[m->n++];
		memset(u, 0, sizeof(*u));
		u->offset = (uint32_t)off;
		u->type = type;
		u->length = len;
		struct fw_view sv = fw_view_make(v->p + off, len, fw_view_abs(v, off));
		const struct fw_layout *l = NULL;
		switch (type) {
		case FW_DMAR_DRHD: l = &fw_dmar_drhd_layout; break;
		case FW_DMAR_RMRR: l = &fw_dmar_rmrr_layout; break;
		case FW_DMAR_ATSR:
		case FW_DMAR_SATC:
		case FW_DMAR_SIDP: l = &fw_dmar_atsr_layout; break;
		case FW_DMAR_RHSA: l = &fw_dmar_rhsa_layout; break;
		case FW_DMAR_ANDD: l = &fw_dmar_andd_layout; break;
		}
		if (!l) {
			fw_acpi_diag(t, a, FW_DIAG_INFO, off, "unknown structure type %u at 0x%zx (%u bytes) left undecoded", type, off, len);
		} else if (len < l->size) {
			fw_acpi_diag(t, a, FW_DIAG_ERROR, off, "%s at 0x%zx has Length %u, the structure needs %u", l->name, off, len, l->size);
		} else {
			switch (type) {
			case FW_DMAR_DRHD:
				u->flags = (uint8_t)fw_layout_get(l, &sv, 0, DRHD_FLAGS);
				u->size = (uint8_t)fw_layout_get(l, &sv, 0, DRHD_SIZE);
				u->segment = (uint16_t)fw_layout_get(l, &sv, 0, DRHD_SEGMENT);
				u->base = fw_layout_get(l, &sv, 0, DRHD_BASE);
				decode_scopes(t, a, u, &sv, l->size);
				break;
			case FW_DMAR_RMRR:
				u->segment = (uint16_t)fw_layout_get(l, &sv, 0, RMRR_SEGMENT);
				u->base = fw_layout_get(l, &sv, 0, RMRR_BASE);
				u->limit = fw_layout_get(l, &sv, 0, RMRR_LIMIT);
				if (u->limit < u->base)
					fw_acpi_diag(t, a, FW_DIAG_WARN, off + 16, "RMRR at 0x%zx: limit 0x%llx is below base 0x%llx", off,
						     (unsigned long long)u->limit, (unsigned long long)u->base);
				decode_scopes(t, a, u, &sv, l->size);
				break;
			case FW_DMAR_ATSR:
			case FW_DMAR_SATC:
			case FW_DMAR_SIDP:
				u->flags = (uint8_t)fw_layout_get(l, &sv, 0, ATSR_FLAGS);
				u->segment = (uint16_t)fw_layout_get(l, &sv, 0, ATSR_SEGMENT);
				decode_scopes(t, a, u, &sv, l->size);
				break;
			case FW_DMAR_RHSA:
				u->base = fw_layout_get(l, &sv, 0, RHSA_BASE);
				u->proximity_domain = (uint32_t)fw_layout_get(l, &sv, 0, RHSA_PD);
				break;
			case FW_DMAR_ANDD: {
				u->device_number = (uint8_t)fw_layout_get(l, &sv, 0, ANDD_DEVICE_NUMBER);
				size_t n = len - l->size;
				const uint8_t *p = sv.p + l->size;
				char *name = fw_arena_alloc(a, n + 1);
				size_t k = 0;
				for (size_t i = 0; i < n && p[i]; i++)
					name[k++] = (p[i] >= 0x20 && p[i] < 0x7F) ? (char)p[i] : '?';
				name[k] = '\0';
				u->name = name;
				break;
			}
			}
		}
	}
	return m;
}
