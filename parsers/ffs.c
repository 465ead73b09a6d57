/* FFS files: header layouts, type names, alignment, and parsing one file (header and data
 * checksums, state, alignment, body by type). */
#include "ffs.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "firmware.h"
#include "hash.h"
#include "nvar.h"

static const struct fw_field ffs_fields[FFS__COUNT] = {
	[FFS_NAME] = {"Name", FW_FT_GUID, 0x00, 0, 0, NULL},
	[FFS_HEADER_CHECKSUM] = {"HeaderChecksum", FW_FT_U8, 0x10, 0, FW_FF_HEX, NULL},
	[FFS_FILE_CHECKSUM] = {"FileChecksum", FW_FT_U8, 0x11, 0, FW_FF_HEX, NULL},
	[FFS_TYPE] = {"Type", FW_FT_U8, 0x12, 0, FW_FF_HEX, NULL},
	[FFS_ATTRIBUTES] = {"Attributes", FW_FT_U8, 0x13, 0, FW_FF_FLAGS, &fw_ffs_attribute_names},
	[FFS_SIZE] = {"Size", FW_FT_U24, 0x14, 0, FW_FF_HEX, NULL},
	[FFS_STATE] = {"State", FW_FT_U8, 0x17, 0, FW_FF_HEX, NULL},
	[FFS_EXTENDED_SIZE] = {"ExtendedSize", FW_FT_U64, 0x18, 0, FW_FF_HEX | FW_FF_HIDDEN, NULL},
};
const struct fw_layout fw_ffs_layout = {"FFS file header", FW_FFS_HEADER_SIZE, ffs_fields, FFS__COUNT};

static const struct fw_field ffs2_fields[FFS__COUNT] = {
	[FFS_NAME] = {"Name", FW_FT_GUID, 0x00, 0, 0, NULL},
	[FFS_HEADER_CHECKSUM] = {"HeaderChecksum", FW_FT_U8, 0x10, 0, FW_FF_HEX, NULL},
	[FFS_FILE_CHECKSUM] = {"FileChecksum", FW_FT_U8, 0x11, 0, FW_FF_HEX, NULL},
	[FFS_TYPE] = {"Type", FW_FT_U8, 0x12, 0, FW_FF_HEX, NULL},
	[FFS_ATTRIBUTES] = {"Attributes", FW_FT_U8, 0x13, 0, FW_FF_FLAGS, &fw_ffs_attribute_names},
	[FFS_SIZE] = {"Size", FW_FT_U24, 0x14, 0, FW_FF_HEX, NULL},
	[FFS_STATE] = {"State", FW_FT_U8, 0x17, 0, FW_FF_HEX, NULL},
	[FFS_EXTENDED_SIZE] = {"ExtendedSize", FW_FT_U64, 0x18, 0, FW_FF_HEX, NULL},
};
const struct fw_layout fw_ffs2_layout = {"FFS file header (large file)", FW_FFS_HEADER2_SIZE, ffs2_fields, FFS__COUNT};

static const struct fw_bitfield fw_ffs_attribute_bits[] = {
	FW_FLAG("LARGE_FILE", 0x01), FW_FLAG("DATA_ALIGNMENT_2", 0x02), FW_FLAG("FIXED", 0x04),
	FW_FLAG("CHECKSUM", 0x40),
};
const struct fw_bitfields fw_ffs_attribute_names = FW_BITFIELDS(fw_ffs_attribute_bits);

const char *fw_ffs_type_name(uint8_t type)
{
	static const char *const names[] = {
		[0x00] = "All",
		[0x01] = "Raw",
		[0x02] = "Freeform",
		[0x03] = "SEC core",
		[0x04] = "PEI core",
		[0x05] = "DXE core",
		[0x06] = "PEI module",
		[0x07] = "DXE driver",
		[0x08] = "Combined PEI/DXE",
		[0x09] = "Application",
		[0x0A] = "SMM module",
		[0x0B] = "Volume image",
		[0x0C] = "Combined SMM/DXE",
		[0x0D] = "SMM core",
		[0x0E] = "MM standalone module",
		[0x0F] = "MM standalone core",
	};
	if (type < sizeof(names) / sizeof(names[0]))
		return names[type];
	if (type == FW_FFS_TYPE_PAD)
		return "Pad";
	if (type >= 0xC0 && type <= 0xDF)
		return "OEM";
	if (type >= 0xE0 && type <= 0xEF)
		return "Debug";
	if (type >= 0xF1)
		return "FFS";
	return "Unknown";
}

uint32_t fw_ffs_alignment(uint8_t attributes)
{
	static const uint32_t table[8] = {1, 16, 128, 512, 1024, 4096, 32768, 65536};
	static const uint32_t table2[8] = {128u << 10, 256u << 10, 512u << 10, 1u << 20, 2u << 20, 4u << 20, 8u << 20, 16u << 20};
	unsigned idx = (attributes & FW_FFS_ATTR_DATA_ALIGNMENT) >> 3;
	return (attributes & FW_FFS_ATTR_DATA_ALIGNMENT_2) ? table2[idx] : table[idx];
}

/* --- parsing one file ------------------------------------------------------------------------ */

bool fw_ffs_file_size(const struct fw_view *v, size_t off, bool ffs3, uint64_t *size, uint32_t *header_size)
{
	if (!fw_view_has(v, off, FW_FFS_HEADER_SIZE))
		return false;
	const uint8_t *h = v->p + off;
	if (ffs3 && (h[0x13] & FW_FFS_ATTR_LARGE_FILE)) {
		if (!fw_view_has(v, off, FW_FFS_HEADER2_SIZE))
			return false;
		*size = fw_le64(h + 0x18);
		*header_size = FW_FFS_HEADER2_SIZE;
		return true;
	}
	*size = fw_le24(h + 0x14);
	*header_size = FW_FFS_HEADER_SIZE;
	return true;
}

struct fw_node *fw_node_file_of(struct fw_node *n)
{
	while (n && n->kind != FW_NODE_FILE)
		n = n->parent;
	return n;
}

/* EDK2 GetFileState: the highest set bit of the state (inverted on erase polarity 1). */
static const char *file_state(uint8_t state, uint8_t empty, bool *live)
{
	uint8_t s = empty ? (uint8_t)~state : state;
	uint8_t bit = 0x80;
	while (bit && !(bit & s))
		bit >>= 1;
	*live = bit == FW_FFS_STATE_DATA_VALID;
	switch (bit) {
	case FW_FFS_STATE_HEADER_CONSTRUCTION: return "header under construction";
	case FW_FFS_STATE_HEADER_VALID: return "header only";
	case FW_FFS_STATE_DATA_VALID: return "valid";
	case FW_FFS_STATE_MARKED_FOR_UPDATE: return "marked for update";
	case FW_FFS_STATE_DELETED: return "deleted";
	case FW_FFS_STATE_HEADER_INVALID: return "header invalid";
	case 0: return "empty";
	}
	return "unknown";
}

static bool is_nvar_defaults_file(const struct fw_guid *g)
{
	return fw_guid_eq(g, &fw_guid_ami_nvram_dxe_defaults) || fw_guid_eq(g, &fw_guid_ami_nvram_pei_defaults) ||
	       fw_guid_eq(g, &fw_guid_ami_nvram_bb_defaults);
}

static void check_file(struct fw_parser *p, struct fw_node *n, const struct fw_view *v, const struct fw_ffs_ctx *ctx,
		       uint32_t hs, const struct fw_view *body, const char *at)
{
	struct fw_tree *t = p->t;
	const uint8_t *h = v->p;
	uint8_t file_sum = h[0x11], type = h[0x12], attr = h[0x13], state = h[0x17];
	bool report = !(p->flags & FW_PARSE_IGNORE_CHECKSUM);

	/* Header: every header byte sums to 0, with the file checksum and the state taken as 0. */
	uint8_t hsum = (uint8_t)(fw_sum8(h, hs) - file_sum - state);
	fw_node_field_bool(t, n, "HeaderChecksumValid", hsum == 0);
	if (hsum != 0 && report) {
		n->flags |= FW_NODE_F_CHECKSUM_BAD;
		fw_node_diag(t, n, FW_DIAG_ERROR, v->base, "FFS file at %s: header checksum is invalid, should be 0x%02x", at,
			     (uint8_t)(h[0x10] - hsum));
	}
	/* Data: an 8-bit checksum of the body, or a fixed value when the attribute is clear. */
	if (attr & FW_FFS_ATTR_CHECKSUM) {
		uint8_t want = (uint8_t)(0x100 - fw_sum8(body->p, body->len));
		fw_node_field_bool(t, n, "DataChecksumValid", want == file_sum);
		if (want != file_sum && report) {
			n->flags |= FW_NODE_F_CHECKSUM_BAD;
			fw_node_diag(t, n, FW_DIAG_ERROR, v->base, "FFS file at %s: data checksum 0x%02x is invalid, should be 0x%02x",
				     at, file_sum, want);
		}
	} else if (file_sum != FW_FFS_FIXED_CHECKSUM && !(ctx->revision == 1 && file_sum == FW_FFS_FIXED_CHECKSUM_REV1) &&
		   report) {
		n->flags |= FW_NODE_F_CHECKSUM_BAD;
		fw_node_diag(t, n, FW_DIAG_WARN, v->base, "FFS file at %s: fixed data checksum is 0x%02x, should be 0x%02x", at,
			     file_sum, ctx->revision == 1 ? FW_FFS_FIXED_CHECKSUM_REV1 : FW_FFS_FIXED_CHECKSUM);
	}
	bool live;
	const char *st = file_state(state, ctx->empty, &live);
	fw_node_field_str(t, n, "StateText", st);
	if (strcmp(st, "marked for update") == 0)
		/* still valid until an updated copy replaces it (AMI NVRAM uses this to pick the active store) */
		fw_node_diag(t, n, FW_DIAG_INFO, v->base, "FFS file at %s: state 0x%02x is \"marked for update\"", at, state);
	else if (!live)
		fw_node_diag(t, n, FW_DIAG_WARN, v->base, "FFS file at %s: state 0x%02x is \"%s\", not a valid file", at, state, st);
	/* Data alignment is relative to the start of the volume. */
	uint32_t align = fw_ffs_alignment(attr);
	if (align > 1) {
		fw_node_field_uint(t, n, "DataAlignment", align, FW_FMT_HEX);
		if (ctx->fv && type != FW_FFS_TYPE_PAD) {
			size_t rel = (size_t)(v->p - ctx->fv->p) + hs;
			if (rel % align)
				fw_node_diag(t, n, FW_DIAG_WARN, v->base,
					     "FFS file at %s: data at volume offset 0x%zx is not aligned to 0x%x", at, rel, align);
		}
	}
}

struct fw_node *fw_parse_ffs_file(struct fw_parser *p, struct fw_node *parent, const struct fw_view *v,
				  const struct fw_ffs_ctx *ctx, struct fw_error *err)
{
	struct fw_tree *t = p->t;
	char at[48];
	fw_offset_str(v->base, at, sizeof(at));
	uint64_t size = 0;
	uint32_t hs = 0;
	if (!fw_ffs_file_size(v, 0, ctx->ffs3, &size, &hs) || size != v->len || size < hs) {
		struct fw_node *n = fw_node_add(t, parent, FW_NODE_FILE, "Unknown", v, err);
		if (n) {
			n->flags |= FW_NODE_F_OPAQUE;
			fw_node_diag(t, n, FW_DIAG_ERROR, v->base, "FFS file at %s: size 0x%" PRIx64 " does not match its 0x%zx bytes",
				     at, size, v->len);
		}
		return n;
	}
	const uint8_t *h = v->p;
	uint8_t type = h[0x12], attr = h[0x13];
	struct fw_node *n = fw_node_add(t, parent, FW_NODE_FILE, fw_ffs_type_name(type), v, err);
	if (!n)
		return NULL;
	struct fw_guid g;
	fw_rd_guid(v, 0, &g, NULL);
	fw_node_set_guid(n, &g);
	n->name = fw_guid_name(&g);
	n->header_size = hs;
	fw_layout_emit(t, n, hs == FW_FFS_HEADER2_SIZE ? &fw_ffs2_layout : &fw_ffs_layout, v, 0);

	/* Revision-1 volumes: a 2-byte tail, the complement of IntegrityCheck, ends the file. */
	size_t tail = 0;
	if (ctx->revision == 1 && (attr & FW_FFS_ATTR_LARGE_FILE) && !ctx->ffs3 && v->len >= (size_t)hs + 2) {
		tail = 2;
		uint16_t want = (uint16_t)~fw_le16(h + 0x10), got = fw_le16(v->p + v->len - 2);
		fw_node_field_uint(t, n, "Tail", got, FW_FMT_HEX);
		if (got != want && !(p->flags & FW_PARSE_IGNORE_CHECKSUM))
			fw_node_diag(t, n, FW_DIAG_ERROR, v->base, "FFS file at %s: tail 0x%04x should be 0x%04x", at, got, want);
	}
	fw_rd_sub(v, hs, v->len - hs - tail, &n->body, NULL);
	check_file(p, n, v, ctx, hs, &n->body, at);

	switch (type) {
	case FW_FFS_TYPE_PAD:
		if (!fw_all_bytes(n->body.p, n->body.len, ctx->empty)) {
			fw_node_diag(t, n, FW_DIAG_INFO, v->base, "pad file at %s: body is not empty", at);
			if (!(p->flags & FW_PARSE_NO_SEARCH) && !fw_parse_raw_area(p, n, &n->body, false, NULL, err))
				return NULL;
		}
		break;
	case FW_FFS_TYPE_RAW:
	case FW_FFS_TYPE_ALL:
		if (fw_guid_eq(&g, &fw_guid_ami_nvar_store) || is_nvar_defaults_file(&g))
			fw_parse_nvar_store(p, n, &n->body);
		else if (!(p->flags & FW_PARSE_NO_SEARCH) && !fw_parse_raw_area(p, n, &n->body, false, NULL, err))
			return NULL;
		break;
	default:
		if (!fw_parse_sections(p, n, &n->body, err))
			return NULL;
		break;
	}
	return n;
}
