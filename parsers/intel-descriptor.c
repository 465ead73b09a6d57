/* Intel flash descriptor images: regions from the FLREG entries of the descriptor. */
#include "intel-descriptor.h"

#include <stdlib.h>

static const struct fw_field map_fields[IFD__COUNT] = {
	[IFD_FLMAP0] = {"FLMAP0", FW_FT_U32, 0x14, 0, FW_FF_HEX, NULL},
	[IFD_FLMAP1] = {"FLMAP1", FW_FT_U32, 0x18, 0, FW_FF_HEX, NULL},
	[IFD_FLMAP2] = {"FLMAP2", FW_FT_U32, 0x1C, 0, FW_FF_HEX, NULL},
};
const struct fw_layout fw_ifd_map_layout = FW_LAYOUT("Intel flash descriptor map", 0x20, map_fields);

#define DESCRIPTOR_SIZE 0x1000
#define UNIT 0x1000u

const char *fw_ifd_region_name(unsigned i)
{
	static const char *const names[FW_IFD_MAX_REGIONS] = {
		"Descriptor", "BIOS", "ME", "GbE", "PDR", "DevExp1", "BIOS2", "Microcode",
		"EC", "DevExp2", "IE", "10GbE1", "10GbE2", "Reserved1", "Reserved2", "PTT",
	};
	return i < FW_IFD_MAX_REGIONS ? names[i] : "Unknown";
}

/* Base of the region section (FRBA, bits 16-23 of FLMAP0, in 16-byte units). */
static size_t region_base(const struct fw_view *v)
{
	return (size_t)((fw_layout_get(&fw_ifd_map_layout, v, 0, IFD_FLMAP0) >> 16) & 0xFF) << 4;
}

bool fw_ifd_probe(const struct fw_view *v)
{
	if (v->len < DESCRIPTOR_SIZE || fw_le32(v->p + FW_IFD_SIGNATURE_OFFSET) != FW_IFD_SIGNATURE)
		return false;
	size_t frba = region_base(v);
	return frba >= 0x20 && frba + 4 <= DESCRIPTOR_SIZE;
}

struct region {
	unsigned index;
	uint64_t base, limit; /* limit inclusive */
};

static int by_base(const void *a, const void *b)
{
	const struct region *x = a, *y = b;
	return x->base < y->base ? -1 : x->base > y->base ? 1 : (int)x->index - (int)y->index;
}

static bool add_padding(struct fw_parser *p, struct fw_node *img, const struct fw_view *v, uint64_t from, uint64_t to,
			struct fw_error *err)
{
	if (to <= from)
		return true;
	struct fw_view pad;
	if (!fw_rd_sub(v, (size_t)from, (size_t)(to - from), &pad, err))
		return false;
	return fw_node_add(p->t, img, FW_NODE_PADDING, fw_padding_type(pad.p, pad.len), &pad, err) != NULL;
}

bool fw_ifd_parse(struct fw_parser *p, struct fw_node *img, const struct fw_view *v, size_t *found,
		  struct fw_error *err)
{
	struct fw_tree *t = p->t;
	fw_layout_emit(t, img, &fw_ifd_map_layout, v, 0);
	size_t frba = region_base(v);
	/* The region section ends where the next section of the map starts (FCBA, FMBA, FPSBA are
	 * the other bases); entries past that belong to another section. */
	uint32_t m0 = (uint32_t)fw_layout_get(&fw_ifd_map_layout, v, 0, IFD_FLMAP0);
	uint32_t m1 = (uint32_t)fw_layout_get(&fw_ifd_map_layout, v, 0, IFD_FLMAP1);
	size_t next[] = {(size_t)(m0 & 0xFF) << 4, (size_t)(m1 & 0xFF) << 4, (size_t)((m1 >> 16) & 0xFF) << 4};
	size_t end = frba + FW_IFD_MAX_REGIONS * 4;
	for (size_t i = 0; i < sizeof(next) / sizeof(next[0]); i++)
		if (next[i] > frba && next[i] < end)
			end = next[i];
	if (end > DESCRIPTOR_SIZE)
		end = DESCRIPTOR_SIZE;
	struct region r[FW_IFD_MAX_REGIONS];
	size_t n = 0;
	for (unsigned i = 0; i < FW_IFD_MAX_REGIONS && frba + 4 * (size_t)i + 4 <= end; i++) {
		uint32_t flreg = fw_le32(v->p + frba + 4 * i);
		uint64_t base = (uint64_t)(flreg & 0x7FFF) * UNIT, limit = (uint64_t)((flreg >> 16) & 0x7FFF) * UNIT + UNIT - 1;
		if (flreg == 0xFFFFFFFFu || (flreg & 0x7FFF) == 0x7FFF || base > limit)
			continue; /* not in use */
		fw_node_field_str(t, img, fw_arena_printf(&t->arena, "FLREG%u", i),
				  fw_arena_printf(&t->arena, "%s 0x%llX-0x%llX", fw_ifd_region_name(i),
						  (unsigned long long)base, (unsigned long long)limit));
		if (base >= v->len) {
			fw_node_diag(t, img, FW_DIAG_ERROR, fw_view_abs(v, frba + 4 * i), "%s region at 0x%llX starts past the 0x%zX-byte image",
				     fw_ifd_region_name(i), (unsigned long long)base, v->len);
			continue;
		}
		if (limit >= v->len) {
			fw_node_diag(t, img, FW_DIAG_ERROR, fw_view_abs(v, frba + 4 * i), "%s region 0x%llX-0x%llX runs past the 0x%zX-byte image",
				     fw_ifd_region_name(i), (unsigned long long)base, (unsigned long long)limit, v->len);
			limit = v->len - 1;
		}
		r[n++] = (struct region){i, base, limit};
	}
	qsort(r, n, sizeof(r[0]), by_base);
	uint64_t at = 0;
	for (size_t i = 0; i < n; i++) {
		if (r[i].base < at) {
			fw_node_diag(t, img, FW_DIAG_ERROR, fw_view_abs(v, frba + 4 * r[i].index), "%s region at 0x%llX overlaps the region before it",
				     fw_ifd_region_name(r[i].index), (unsigned long long)r[i].base);
			continue;
		}
		if (!add_padding(p, img, v, at, r[i].base, err))
			return false;
		struct fw_view body;
		if (!fw_rd_sub(v, (size_t)r[i].base, (size_t)(r[i].limit - r[i].base + 1), &body, err))
			return false;
		struct fw_node *reg = fw_node_add(t, img, FW_NODE_REGION, fw_ifd_region_name(r[i].index), &body, err);
		if (!reg)
			return false;
		reg->name = fw_arena_printf(&t->arena, "%s region", fw_ifd_region_name(r[i].index));
		fw_node_field_uint(t, reg, "Index", r[i].index, FW_FMT_DEC);
		if (r[i].index == 1 || r[i].index == 6) {
			size_t vols = 0;
			if (!fw_parse_raw_area(p, reg, &body, false, &vols, err))
				return false;
			if (found)
				*found += vols;
		}
		at = r[i].limit + 1;
	}
	return add_padding(p, img, v, at, v->len, err);
}
