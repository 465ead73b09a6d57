/* CEDT decoder (listing). */
#include "cedt.h"

#include <string.h>

static const struct fw_field chbs_fields[CHBS__COUNT] = {
	[CHBS_TYPE] = {"Type", FW_FT_U8, 0, 0, 0, NULL},
	[CHBS_RESERVED] = {"Reserved", FW_FT_U8, 1, 0, FW_FF_HIDDEN, NULL},
	[CHBS_LENGTH] = {"Length", FW_FT_U16, 2, 0, 0, NULL},
	[CHBS_UID] = {"Uid", FW_FT_U32, 4, 0, 0, NULL},
	[CHBS_VERSION] = {"CxlVersion", FW_FT_U32, 8, 0, 0, NULL},
	[CHBS_RESERVED1] = {"Reserved1", FW_FT_U32, 12, 0, FW_FF_HIDDEN, NULL},
	[CHBS_BASE] = {"Base", FW_FT_U64, 16, 0, FW_FF_HEX, NULL},
	[CHBS_SIZE] = {"Length", FW_FT_U64, 24, 0, FW_FF_HEX, NULL},
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

void *fw_acpi_cedt_decode(struct fw_acpi_table *t, struct fw_arena *a)
{
	struct fw_cedt *m = fw_arena_alloc(a, sizeof(*m));
	const struct fw_view *v = &t->data;
	size_t cap = 0;
	static const struct fw_acpi_record_format fmt = {"structure", 1, 2, 2};
	struct fw_acpi_record r;
	for (size_t next = FW_ACPI_HEADER_SIZE; fw_acpi_next_record(t, a, v, 0, &next, &fmt, &r);) {
		size_t off = r.offset;
		uint8_t type = (uint8_t)r.type;
		uint16_t len = (uint16_t)r.length;
		m->entries = fw_acpi_grow(a, m->entries, &cap, m->n + 1, sizeof(*m->entries));
		struct fw_cedt_entry *e = &m->entries[m->n++];
		memset(e, 0, sizeof(*e));
		e->offset = (uint32_t)off;
		e->type = type;
		e->length = len;
		if (type == FW_CEDT_CHBS) {
			const struct fw_layout *l = &fw_cedt_chbs_layout;
			if (len < l->size) {
				fw_acpi_diag(t, a, FW_DIAG_ERROR, off, "%s at 0x%zx has Length %u, needs %u", l->name, off, len, l->size);
			} else {
				e->uid = (uint32_t)fw_layout_get(l, v, off, CHBS_UID);
				e->cxl_version = (uint32_t)fw_layout_get(l, v, off, CHBS_VERSION);
				e->base = fw_layout_get(l, v, off, CHBS_BASE);
				e->size = fw_layout_get(l, v, off, CHBS_SIZE);
			}
		} else if (type == FW_CEDT_CFMWS) {
			const struct fw_layout *l = &fw_cedt_cfmws_layout;
			if (len < l->size) {
				fw_acpi_diag(t, a, FW_DIAG_ERROR, off, "%s at 0x%zx has Length %u, needs %u", l->name, off, len, l->size);
			} else {
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
					fw_acpi_diag(t, a, FW_DIAG_ERROR, off, "CFMWS at 0x%zx: %u-way interleave but room for %zu targets",
						     off, e->ways, e->ntargets);
			}
		}
	}
	return m;
}
