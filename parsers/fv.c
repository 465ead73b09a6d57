/* UEFI PI firmware volumes: the header layouts, file-system classification and the volume walk
 * (header, block map, extended header, files, free space, NVRAM hand-off). */
#include "fv.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "ffs.h"
#include "firmware.h"
#include "hash.h"
#include "nvram.h"

static const struct fw_field fvh_fields[FVH__COUNT] = {
	[FVH_ZERO_VECTOR] = {"ZeroVector", FW_FT_BYTES, 0x00, 16, FW_FF_HIDDEN, NULL},
	[FVH_FILE_SYSTEM_GUID] = {"FileSystemGuid", FW_FT_GUID, 0x10, 0, 0, NULL},
	[FVH_LENGTH] = {"FvLength", FW_FT_U64, 0x20, 0, FW_FF_HEX, NULL},
	[FVH_SIGNATURE] = {"Signature", FW_FT_U32, 0x28, 0, FW_FF_HEX | FW_FF_HIDDEN, NULL},
	[FVH_ATTRIBUTES] = {"Attributes", FW_FT_U32, 0x2C, 0, FW_FF_FLAGS, &fw_fvb2_attribute_names},
	[FVH_HEADER_LENGTH] = {"HeaderLength", FW_FT_U16, 0x30, 0, FW_FF_HEX, NULL},
	[FVH_CHECKSUM] = {"Checksum", FW_FT_U16, 0x32, 0, FW_FF_HEX, NULL},
	[FVH_EXT_HEADER_OFFSET] = {"ExtHeaderOffset", FW_FT_U16, 0x34, 0, FW_FF_HEX, NULL},
	[FVH_RESERVED] = {"Reserved", FW_FT_U8, 0x36, 0, FW_FF_HIDDEN, NULL},
	[FVH_REVISION] = {"Revision", FW_FT_U8, 0x37, 0, 0, NULL},
};
const struct fw_layout fw_fvh_layout = FW_LAYOUT("firmware volume header", FW_FVH_SIZE, fvh_fields);

static const struct fw_field fv_block_fields[FV_BLOCK__COUNT] = {
	[FV_BLOCK_NUM_BLOCKS] = {"NumBlocks", FW_FT_U32, 0, 0, FW_FF_HEX, NULL},
	[FV_BLOCK_LENGTH] = {"BlockLength", FW_FT_U32, 4, 0, FW_FF_HEX, NULL},
};
const struct fw_layout fw_fv_block_layout = FW_LAYOUT("volume block map entry", 8, fv_block_fields);

static const struct fw_field fv_ext_fields[FV_EXT__COUNT] = {
	[FV_EXT_FV_NAME] = {"FvName", FW_FT_GUID, 0, 0, 0, NULL},
	[FV_EXT_HEADER_SIZE] = {"ExtHeaderSize", FW_FT_U32, 16, 0, FW_FF_HEX, NULL},
};
const struct fw_layout fw_fv_ext_layout = FW_LAYOUT("volume extended header", 20, fv_ext_fields);

static const struct fw_field fv_ext_entry_fields[FV_EXT_ENTRY__COUNT] = {
	[FV_EXT_ENTRY_SIZE] = {"ExtEntrySize", FW_FT_U16, 0, 0, FW_FF_HEX, NULL},
	[FV_EXT_ENTRY_TYPE] = {"ExtEntryType", FW_FT_U16, 2, 0, FW_FF_HEX, NULL},
};
const struct fw_layout fw_fv_ext_entry_layout = FW_LAYOUT("volume extended header entry", 4, fv_ext_entry_fields);

static const struct fw_bitfield fw_fvb2_attribute_bits[] = {
	FW_FLAG("READ_DISABLED_CAP", 0x00000001), FW_FLAG("READ_ENABLED_CAP", 0x00000002),
	FW_FLAG("READ_STATUS", 0x00000004), FW_FLAG("WRITE_DISABLED_CAP", 0x00000008),
	FW_FLAG("WRITE_ENABLED_CAP", 0x00000010), FW_FLAG("WRITE_STATUS", 0x00000020),
	FW_FLAG("LOCK_CAP", 0x00000040), FW_FLAG("LOCK_STATUS", 0x00000080), FW_FLAG("STICKY_WRITE", 0x00000200),
	FW_FLAG("MEMORY_MAPPED", 0x00000400), FW_FLAG("ERASE_POLARITY", 0x00000800),
	FW_FLAG("READ_LOCK_CAP", 0x00001000), FW_FLAG("READ_LOCK_STATUS", 0x00002000),
	FW_FLAG("WRITE_LOCK_CAP", 0x00004000), FW_FLAG("WRITE_LOCK_STATUS", 0x00008000),
	FW_FLAG("WEAK_ALIGNMENT", 0x80000000),
};
const struct fw_bitfields fw_fvb2_attribute_names = FW_BITFIELDS(fw_fvb2_attribute_bits);

const struct fw_guid fw_guid_ffs1 = FW_GUID_INIT(0x7A9354D9, 0x0468, 0x444A, 0x81, 0xCE, 0x0B, 0xF6, 0x17, 0xD8, 0x90, 0xDF);
const struct fw_guid fw_guid_ffs2 = FW_GUID_INIT(0x8C8CE578, 0x8A3D, 0x4F1C, 0x99, 0x35, 0x89, 0x61, 0x85, 0xC3, 0x2D, 0xD3);
const struct fw_guid fw_guid_ffs3 = FW_GUID_INIT(0x5473C07A, 0x3DCB, 0x4DCA, 0xBD, 0x6F, 0x1E, 0x96, 0x89, 0xE7, 0x34, 0x9A);
const struct fw_guid fw_guid_nvram_system_nv_data =
	FW_GUID_INIT(0xFFF12B8D, 0x7696, 0x4C8B, 0xA9, 0x85, 0x27, 0x47, 0x07, 0x5B, 0x4F, 0x50);
const struct fw_guid fw_guid_nvram_fp_storage =
	FW_GUID_INIT(0x00504624, 0x8A59, 0x4EEB, 0xBD, 0x0F, 0x6B, 0x36, 0xE9, 0x61, 0x28, 0xE0);

/* FFSv2-compatible file systems beyond FFS1/FFS2 (UEFITool common/ffs.cpp FFSv2Volumes). */
static const struct fw_guid ffs2_compatible[] = {
	FW_GUID_INIT(0x04ADEEAD, 0x61FF, 0x4D31, 0xB6, 0xBA, 0x64, 0xF8, 0xBF, 0x90, 0x1F, 0x5A), /* Apple boot volume */
	FW_GUID_INIT(0xBD001B8C, 0x6A71, 0x487B, 0xA1, 0x4F, 0x0C, 0x2A, 0x2D, 0xCF, 0x7A, 0x5D), /* Apple boot volume */
	FW_GUID_INIT(0xAD3FFFFF, 0xD28B, 0x44C4, 0x9F, 0x13, 0x9E, 0xA9, 0x8A, 0x97, 0xF9, 0xF0), /* Intel */
	FW_GUID_INIT(0xD6A1CD70, 0x4B33, 0x4994, 0xA6, 0xEA, 0x37, 0x5F, 0x2C, 0xCC, 0x54, 0x37), /* Intel */
	FW_GUID_INIT(0x4F494156, 0xAED6, 0x4D64, 0xA5, 0x37, 0xB8, 0xA5, 0x55, 0x7B, 0xCE, 0xEC), /* Sony */
};

enum fw_fv_filesystem fw_fv_filesystem_of(const struct fw_guid *g)
{
	if (fw_guid_eq(g, &fw_guid_ffs1) || fw_guid_eq(g, &fw_guid_ffs2))
		return FW_FS_FFS2;
	if (fw_guid_eq(g, &fw_guid_ffs3))
		return FW_FS_FFS3;
	if (fw_guid_eq(g, &fw_guid_nvram_system_nv_data) || fw_guid_eq(g, &fw_guid_nvram_fp_storage))
		return FW_FS_NVRAM;
	for (size_t i = 0; i < sizeof(ffs2_compatible) / sizeof(ffs2_compatible[0]); i++)
		if (fw_guid_eq(g, &ffs2_compatible[i]))
			return FW_FS_FFS2;
	return FW_FS_UNKNOWN;
}

const char *fw_fv_filesystem_name(enum fw_fv_filesystem fs)
{
	switch (fs) {
	case FW_FS_FFS2: return "FFSv2";
	case FW_FS_FFS3: return "FFSv3";
	case FW_FS_NVRAM: return "NVRAM";
	case FW_FS_UNKNOWN: break;
	}
	return "Unknown";
}

/* --- the volume walk ------------------------------------------------------------------------ */

bool fw_volume_probe(const struct fw_view *v, size_t off, bool strict, uint64_t *fv_length)
{
	if (!fw_view_has(v, off, FW_FVH_MIN_HEADER))
		return false;
	const uint8_t *h = v->p + off;
	if (fw_le32(h + FW_FVH_SIGNATURE_OFFSET) != FW_FVH_SIGNATURE)
		return false;
	uint64_t len = fw_le64(h + 0x20);
	uint16_t hlen = fw_le16(h + 0x30);
	uint8_t rev = h[0x37];
	if (rev < 1 || rev > 2 || hlen < FW_FVH_MIN_HEADER || (hlen & 1) || len < hlen || len >= ((uint64_t)1 << 32))
		return false;
	if (!fw_view_has(v, off, hlen))
		return false;
	if (strict && fw_sum16(h, hlen) != 0) {
		struct fw_guid fs;
		memcpy(fs.b, h + 0x10, 16);
		if (fw_fv_filesystem_of(&fs) == FW_FS_UNKNOWN)
			return false;
	}
	*fv_length = len;
	return true;
}

/* Free space from `off` to the end of the volume body; bytes that are not the erase byte end it
 * (at an 8-byte boundary) and become non-UEFI data. */
static bool add_free_space(struct fw_parser *p, struct fw_node *vol, const struct fw_view *body, size_t off,
			   uint8_t empty, struct fw_error *err);
static bool add_non_uefi(struct fw_parser *p, struct fw_node *vol, const struct fw_view *body, size_t off,
			 struct fw_error *err)
{
	struct fw_view rest;
	fw_rd_tail(body, off, &rest, NULL);
	struct fw_node *n = fw_node_add(p->t, vol, FW_NODE_PADDING, "Non-UEFI data", &rest, err);
	if (!n)
		return false;
	char at[48];
	fw_node_diag(p->t, n, FW_DIAG_WARN, rest.base, "volume body: 0x%zx bytes at %s are neither files nor free space",
		     rest.len, fw_offset_str(rest.base, at, sizeof(at)));
	if (p->flags & FW_PARSE_NO_SEARCH)
		return true;
	return fw_parse_raw_area(p, n, &rest, false, NULL, err);
}

static bool add_free_space(struct fw_parser *p, struct fw_node *vol, const struct fw_view *body, size_t off,
			   uint8_t empty, struct fw_error *err)
{
	size_t len = body->len - off;
	const uint8_t *b = body->p + off;
	size_t i = len;
	if (!fw_all_bytes(b, len, empty)) {
		for (i = 0; i < len && b[i] == empty; i++)
			;
		i &= ~(size_t)7;
	}
	if (i > 0) {
		struct fw_view fs;
		fw_rd_sub(body, off, i, &fs, NULL);
		if (!fw_node_add(p->t, vol, FW_NODE_FREE_SPACE, "", &fs, err))
			return false;
	}
	if (i < len)
		return add_non_uefi(p, vol, body, off + i, err);
	return true;
}

static bool walk_files(struct fw_parser *p, struct fw_node *vol, const struct fw_view *body,
		       const struct fw_ffs_ctx *ctx, struct fw_error *err)
{
	size_t off = 0;
	while (off < body->len) {
		size_t remain = body->len - off;
		size_t probe = remain < FW_FFS_HEADER_SIZE ? remain : FW_FFS_HEADER_SIZE;
		if (fw_all_bytes(body->p + off, probe, ctx->empty))
			return add_free_space(p, vol, body, off, ctx->empty, err);
		uint64_t size = 0;
		uint32_t hs = 0;
		if (!fw_ffs_file_size(body, off, ctx->ffs3, &size, &hs) || size < hs || size > remain) {
			char at[48];
			fw_node_diag(p->t, vol, FW_DIAG_ERROR, fw_view_abs(body, off),
				     "FFS file header at %s: size 0x%" PRIx64 " does not fit the 0x%zx bytes left in the volume",
				     fw_offset_str(fw_view_abs(body, off), at, sizeof(at)), size, remain);
			return add_non_uefi(p, vol, body, off, err);
		}
		struct fw_view fv;
		fw_rd_sub(body, off, (size_t)size, &fv, NULL);
		if (!fw_parse_ffs_file(p, vol, &fv, ctx, err))
			return false;
		off += (size_t)size;
		if (!fw_align_up(off, 8, &off))
			break;
	}
	return true;
}

static void hand_off_store(struct fw_parser *p, struct fw_node *parent, const struct fw_view *v, const char *what,
			   bool (*fn)(struct fw_tree *, struct fw_node *, const struct fw_view *, struct fw_error *))
{
	struct fw_error e;
	fw_error_clear(&e);
	unsigned before = parent->nchildren;
	if (fn(p->t, parent, v, &e))
		return;
	char at[48];
	fw_offset_str(v->base, at, sizeof(at));
	if (parent->nchildren != before) {
		fw_node_diag(p->t, parent, FW_DIAG_WARN, v->base, "%s store at %s: %s", what, at, e.msg);
		return;
	}
	struct fw_node *n = fw_node_add(p->t, parent, FW_NODE_NVRAM_STORE, what, v, NULL);
	if (!n)
		return;
	n->flags |= FW_NODE_F_OPAQUE;
	fw_node_diag(p->t, n, e.code == FW_E_UNSUPPORTED ? FW_DIAG_INFO : FW_DIAG_WARN, v->base, "%s store at %s: %s", what,
		     at, e.msg[0] ? e.msg : fw_error_code_name(e.code));
}

void fw_parse_nvar_store(struct fw_parser *p, struct fw_node *parent, const struct fw_view *v)
{
	hand_off_store(p, parent, v, "NVAR", fw_nvar_parse_store);
}

static void block_map(struct fw_tree *t, struct fw_node *n, const struct fw_view *v, size_t hlen, uint64_t fv_len)
{
	char text[160];
	size_t used = 0;
	uint64_t total = 0;
	bool terminated = false;
	text[0] = '\0';
	for (size_t off = FW_FVH_SIZE; off + 8 <= hlen; off += 8) {
		uint32_t num = fw_le32(v->p + off), len = fw_le32(v->p + off + 4);
		if (num == 0 && len == 0) {
			terminated = true;
			break;
		}
		total += (uint64_t)num * len;
		if (used < sizeof(text) - 40)
			used += (size_t)snprintf(text + used, sizeof(text) - used, "%s%u x 0x%x", used ? ", " : "", num, len);
	}
	fw_node_field_str(t, n, "BlockMap", text);
	if (!terminated)
		fw_node_diag(t, n, FW_DIAG_WARN, v->base, "volume block map has no {0, 0} terminator inside the 0x%zx-byte header",
			     hlen);
	else if (total != fv_len)
		fw_node_diag(t, n, FW_DIAG_WARN, v->base,
			     "volume block map covers 0x%" PRIx64 " bytes, FvLength is 0x%" PRIx64, total, fv_len);
}

struct fw_node *fw_parse_volume(struct fw_parser *p, struct fw_node *parent, const struct fw_view *v,
				struct fw_error *err)
{
	struct fw_tree *t = p->t;
	char at[48];
	fw_offset_str(v->base, at, sizeof(at));
	uint64_t fv_len = 0;
	if (!fw_volume_probe(v, 0, false, &fv_len)) {
		/* Not a volume we can walk: keep the bytes. */
		struct fw_node *n = fw_node_add(t, parent, FW_NODE_VOLUME, "Unknown", v, err);
		if (n) {
			n->flags |= FW_NODE_F_OPAQUE;
			fw_node_diag(t, n, FW_DIAG_ERROR, v->base, "volume at %s: invalid firmware volume header", at);
		}
		return n;
	}
	const struct fw_layout *l = &fw_fvh_layout;
	struct fw_guid fs;
	fw_layout_get_guid(l, v, 0, FVH_FILE_SYSTEM_GUID, &fs);
	enum fw_fv_filesystem kind = fw_fv_filesystem_of(&fs);
	uint32_t attr = (uint32_t)fw_layout_get(l, v, 0, FVH_ATTRIBUTES);
	size_t hlen = (size_t)fw_layout_get(l, v, 0, FVH_HEADER_LENGTH);
	uint16_t ext_off = (uint16_t)fw_layout_get(l, v, 0, FVH_EXT_HEADER_OFFSET);
	uint8_t rev = (uint8_t)fw_layout_get(l, v, 0, FVH_REVISION);

	struct fw_node *n = fw_node_add(t, parent, FW_NODE_VOLUME, fw_fv_filesystem_name(kind), v, err);
	if (!n)
		return NULL;
	fw_node_set_guid(n, &fs);
	fw_layout_emit(t, n, l, v, 0);
	uint8_t empty = (attr & FW_FVB2_ERASE_POLARITY) ? 0xFF : 0x00;
	fw_node_field_uint(t, n, "ErasePolarity", empty ? 1 : 0, FW_FMT_DEC);
	if (rev >= 2)
		fw_node_field_uint(t, n, "Alignment", (uint64_t)1 << ((attr & FW_FVB2_ALIGNMENT_MASK) >> 16), FW_FMT_HEX);
	block_map(t, n, v, hlen, fv_len);
	bool sum_ok = fw_sum16(v->p, hlen) == 0;
	fw_node_field_bool(t, n, "HeaderChecksumValid", sum_ok);
	if (!sum_ok && !(p->flags & FW_PARSE_IGNORE_CHECKSUM)) {
		n->flags |= FW_NODE_F_CHECKSUM_BAD;
		fw_node_diag(t, n, FW_DIAG_ERROR, v->base, "volume at %s: header checksum is invalid (words sum to 0x%04x)", at,
			     fw_sum16(v->p, hlen));
	}

	/* Files start after the extended header when there is one (EDK2 puts it in a pad file right
	 * after the header), else after the header; 8-byte aligned either way. */
	size_t first = hlen;
	if (ext_off) {
		if (rev < 2 || !fw_layout_check(&fw_fv_ext_layout, v, ext_off, NULL)) {
			fw_node_diag(t, n, FW_DIAG_WARN, v->base, "volume at %s: ExtHeaderOffset 0x%x is outside the volume", at,
				     ext_off);
		} else {
			struct fw_guid name;
			fw_layout_get_guid(&fw_fv_ext_layout, v, ext_off, FV_EXT_FV_NAME, &name);
			uint32_t ext_size = (uint32_t)fw_layout_get(&fw_fv_ext_layout, v, ext_off, FV_EXT_HEADER_SIZE);
			fw_node_field_guid(t, n, "FvName", &name);
			fw_node_field_uint(t, n, "ExtHeaderSize", ext_size, FW_FMT_HEX);
			if (ext_size < 20 || (uint64_t)ext_off + ext_size > v->len) {
				fw_node_diag(t, n, FW_DIAG_WARN, v->base, "volume at %s: ExtHeaderSize 0x%x does not fit the volume", at,
					     ext_size);
			} else {
				fw_node_set_guid(n, &name);
				first = (size_t)ext_off + ext_size;
				/* Entries {u16 size, u16 type}; USED_SIZE (3) carries a u32. */
				for (size_t e = ext_off + 20; e + 4 <= (size_t)ext_off + ext_size;) {
					uint16_t esz = fw_le16(v->p + e), etype = fw_le16(v->p + e + 2);
					if (esz < 4)
						break;
					if (etype == 3 && esz >= 8 && e + 8 <= v->len)
						fw_node_field_uint(t, n, "UsedSize", fw_le32(v->p + e + 4), FW_FMT_HEX);
					e += esz;
				}
			}
		}
	}
	n->name = fw_guid_name(&n->guid);
	if (!fw_align_up(first, 8, &first) || first > v->len)
		first = v->len;
	n->header_size = (uint32_t)first;
	fw_rd_tail(v, first, &n->body, NULL);

	switch (kind) {
	case FW_FS_FFS2:
	case FW_FS_FFS3: {
		struct fw_ffs_ctx ctx = {empty, kind == FW_FS_FFS3, rev, v->base, v};
		if (!walk_files(p, n, &n->body, &ctx, err))
			return NULL;
		break;
	}
	case FW_FS_NVRAM:
		hand_off_store(p, n, &n->body, "VSS", fw_vss_parse_store);
		break;
	case FW_FS_UNKNOWN: {
		char g[FW_GUID_STR_LEN];
		fw_node_diag(t, n, FW_DIAG_WARN, v->base, "volume at %s: unknown file system %s; body not parsed", at,
			     fw_guid_format(&fs, g));
		n->flags |= FW_NODE_F_OPAQUE;
		break;
	}
	}
	return n;
}
