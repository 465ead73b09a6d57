/* HMAT decoder (listing). */
#include "hmat.h"

#include <string.h>

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

void *fw_acpi_hmat_decode(struct fw_acpi_table *t, struct fw_arena *a)
{
	struct fw_hmat *m = fw_arena_alloc(a, sizeof(*m));
	const struct fw_view *v = &t->data;
	if (!fw_view_has(v, 0, FW_HMAT_HEADER_SIZE)) {
		fw_acpi_diag(t, a, FW_DIAG_ERROR, 0, "HMAT of 0x%zx bytes is shorter than its 40-byte header", v->len);
		return m;
	}
	size_t cap = 0;
	static const struct fw_acpi_record_format fmt = {"structure", 2, 4, 4};
	struct fw_acpi_record r;
	for (size_t next = FW_HMAT_HEADER_SIZE; fw_acpi_next_record(t, a, v, 0, &next, &fmt, &r);) {
		size_t off = r.offset;
		uint16_t type = (uint16_t)r.type;
		uint32_t len = r.length;
		m->entries = fw_acpi_grow(a, m->entries, &cap, m->n + 1, sizeof(*m->entries));
		struct fw_hmat_entry *e = &m->entries[m->n++];
		memset(e, 0, sizeof(*e));
		e->offset = (uint32_t)off;
		e->type = type;
		e->length = len;
		const struct fw_layout *l = type == FW_HMAT_ADDRESS_RANGE ? &fw_hmat_proximity_layout
					    : type == FW_HMAT_LOCALITY   ? &fw_hmat_locality_layout
					    : type == FW_HMAT_CACHE      ? &fw_hmat_cache_layout
									 : NULL;
		if (!l) {
			fw_acpi_diag(t, a, FW_DIAG_INFO, off, "unknown structure type %u at 0x%zx left undecoded", type, off);
		} else if (len < l->size) {
			fw_acpi_diag(t, a, FW_DIAG_ERROR, off, "%s at 0x%zx has Length %u, the structure needs %u", l->name, off, len, l->size);
		} else if (type == FW_HMAT_ADDRESS_RANGE) {
			e->flags = (uint32_t)fw_layout_get(l, v, off, HMAT_PROX_FLAGS);
			e->initiator_pd = (uint32_t)fw_layout_get(l, v, off, HMAT_PROX_INITIATOR_PD);
			e->memory_pd = (uint32_t)fw_layout_get(l, v, off, HMAT_PROX_MEMORY_PD);
		} else if (type == FW_HMAT_LOCALITY) {
			e->flags = (uint32_t)fw_layout_get(l, v, off, HMAT_LOC_FLAGS);
			e->data_type = (uint8_t)fw_layout_get(l, v, off, HMAT_LOC_DATA_TYPE);
			e->initiators = (uint32_t)fw_layout_get(l, v, off, HMAT_LOC_INITIATORS);
			e->targets = (uint32_t)fw_layout_get(l, v, off, HMAT_LOC_TARGETS);
			e->base_unit = fw_layout_get(l, v, off, HMAT_LOC_BASE_UNIT);
			/* 4 bytes per initiator and target, 2 per matrix entry. */
			uint64_t need = (uint64_t)l->size + 4ull * e->initiators + 4ull * e->targets +
					2ull * (uint64_t)e->initiators * e->targets;
			if (need > len)
				fw_acpi_diag(t, a, FW_DIAG_ERROR, off, "locality structure at 0x%zx: %u x %u domains need %llu bytes, Length is %u",
					     off, e->initiators, e->targets, (unsigned long long)need, len);
		} else {
			e->memory_pd = (uint32_t)fw_layout_get(l, v, off, HMAT_CACHE_MEMORY_PD);
			e->cache_size = fw_layout_get(l, v, off, HMAT_CACHE_SIZE);
			e->cache_attributes = (uint32_t)fw_layout_get(l, v, off, HMAT_CACHE_ATTRIBUTES);
		}
	}
	return m;
}
