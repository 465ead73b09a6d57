/* Sections, FFS files and firmware volumes, encoded with the layouts of parsers/fv.h, ffs.h and
 * section.h (reference/formats.md 3-4). Volumes are laid out as EDK2 GenFv does: a 0x48-byte
 * header, the extended header inside a pad file, files 8-byte aligned, erase polarity 1. */
#include "encoders.h"

#include <lzma.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "parsers/ffs.h"
#include "parsers/fv.h"
#include "parsers/hash.h"
#include "parsers/section.h"
#include "parsers/view.h"

const struct fw_guid guid_ffs2 = FW_GUID_INIT(0x8C8CE578, 0x8A3D, 0x4F1C, 0x99, 0x35, 0x89, 0x61, 0x85, 0xC3, 0x2D, 0xD3);
const struct fw_guid guid_ffs3 = FW_GUID_INIT(0x5473C07A, 0x3DCB, 0x4DCA, 0xBD, 0x6F, 0x1E, 0x96, 0x89, 0xE7, 0x34, 0x9A);
const struct fw_guid guid_vtf = FW_GUID_INIT(0x1BA0062E, 0xC779, 0x4582, 0x85, 0x66, 0x33, 0x6A, 0xE8, 0xF7, 0x8F, 0x09);
const struct fw_guid guid_pad_all_ones = {{0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
					     0xFF, 0xFF, 0xFF}};
static const struct fw_guid guid_lzma = FW_GUID_INIT(0xEE4E5898, 0x3914, 0x4259, 0x9D, 0x6E, 0xDC, 0x7B, 0xD7, 0x94, 0x03, 0xCF);
static const struct fw_guid guid_amd_zlib =
	FW_GUID_INIT(0xCE3233F5, 0x2CD6, 0x4D87, 0x91, 0x52, 0x4A, 0x23, 0x8B, 0xB6, 0xD1, 0xC4);

#define FV_ATTRIBUTES 0x0004FEFFu /* erase polarity 1, 16-byte alignment, read/write/lock caps */
#define FV_BLOCK 0x1000u
#define FFS_STATE_LIVE 0xF8       /* DATA_VALID|HEADER_VALID|HEADER_CONSTRUCTION, inverted */

/* ---- sections ---- */

/* The common header; SECTION2 (Size 0xFFFFFF + u32) when the section reaches 16 MiB. */
static size_t sec_header(struct sbuf *s, uint8_t type, size_t total_body)
{
	sb_align(s, 4, 0);
	size_t size = FW_SECTION_HEADER_SIZE + total_body;
	size_t off;
	if (size >= FW_SECTION_SIZE_EXTENDED) {
		off = sb_layout(s, &fw_section2_layout);
		fw_layout_put(&fw_section2_layout, sb_at(s, off), SEC_SIZE, FW_SECTION_SIZE_EXTENDED);
		fw_layout_put(&fw_section2_layout, sb_at(s, off), SEC_TYPE, type);
		fw_layout_put(&fw_section2_layout, sb_at(s, off), SEC_EXTENDED_SIZE, size + 4);
	} else {
		off = sb_layout(s, &fw_section_layout);
		fw_layout_put(&fw_section_layout, sb_at(s, off), SEC_SIZE, size);
		fw_layout_put(&fw_section_layout, sb_at(s, off), SEC_TYPE, type);
	}
	return off;
}

void sec_plain(struct sbuf *s, uint8_t type, const void *body, size_t n)
{
	sec_header(s, type, n);
	sb_put(s, body, n);
}

void sec_ui(struct sbuf *s, const char *name)
{
	struct sbuf t = {0};
	sb_put_ucs2(&t, name);
	sec_plain(s, FW_SECTION_USER_INTERFACE, t.p, t.len);
	sb_free(&t);
}

void sec_version(struct sbuf *s, uint16_t build, const char *text)
{
	struct sbuf t = {0};
	size_t off = sb_put(&t, NULL, 2);
	fw_layout_put(&fw_section_version_layout, sb_at(&t, off), SEC_VERSION_BUILD_NUMBER, build);
	sb_put_ucs2(&t, text);
	sec_plain(s, FW_SECTION_VERSION, t.p, t.len);
	sb_free(&t);
}

void sec_depex(struct sbuf *s, uint8_t type, const struct fw_guid *guids, size_t n)
{
	struct sbuf t = {0};
	if (n == 0)
		sb_put8(&t, FW_DEPEX_TRUE);
	for (size_t i = 0; i < n; i++) {
		sb_put8(&t, FW_DEPEX_PUSH);
		sb_put_guid(&t, &guids[i]);
		if (i > 0)
			sb_put8(&t, FW_DEPEX_AND);
	}
	sb_put8(&t, FW_DEPEX_END);
	sec_plain(s, type, t.p, t.len);
	sb_free(&t);
}

void sec_freeform(struct sbuf *s, const struct fw_guid *subtype, const void *body, size_t n)
{
	sec_header(s, FW_SECTION_FREEFORM_SUBTYPE_GUID, fw_section_freeform_layout.size + n);
	size_t off = sb_layout(s, &fw_section_freeform_layout);
	fw_layout_put_guid(&fw_section_freeform_layout, sb_at(s, off), SEC_FREEFORM_SUBTYPE_GUID, subtype);
	sb_put(s, body, n);
}

void sec_fv_image(struct sbuf *s, const void *fv, size_t n) { sec_plain(s, FW_SECTION_FIRMWARE_VOLUME_IMAGE, fv, n); }

/* A GUID-defined section: header (DataOffset counts from the section start) then the data. */
static void sec_guided(struct sbuf *s, const struct fw_guid *g, const void *data, size_t n)
{
	size_t hdr = sec_header(s, FW_SECTION_GUID_DEFINED, fw_section_guided_layout.size + n);
	size_t common = s->len - hdr;
	size_t off = sb_layout(s, &fw_section_guided_layout);
	fw_layout_put_guid(&fw_section_guided_layout, sb_at(s, off), SEC_GUIDED_GUID, g);
	fw_layout_put(&fw_section_guided_layout, sb_at(s, off), SEC_GUIDED_DATA_OFFSET, common + fw_section_guided_layout.size);
	fw_layout_put(&fw_section_guided_layout, sb_at(s, off), SEC_GUIDED_ATTRIBUTES, FW_GUIDED_PROCESSING_REQUIRED);
	sb_put(s, data, n);
}

uint8_t *lzma_compress_edk2(const void *in, size_t n, size_t *out_len)
{
	struct lzma_enc *e = lzma_enc_new(6, 1u << 22, 0); /* 4 MiB: the volumes are smaller */
	uint8_t *out = lzma_enc_run(e, in, n, out_len);
	lzma_enc_free(e);
	return out;
}

/* One liblzma stream kept across sections: liblzma keeps its dictionary and match finder buffers
 * when a stream is set up again with the same sizes, where a one-shot encode maps and zeroes them
 * for every section. */
struct lzma_enc {
	lzma_stream strm;
	lzma_options_lzma opt;
};

struct lzma_enc *lzma_enc_new(unsigned preset, uint32_t dict_size, uint32_t nice_len)
{
	struct lzma_enc *e = fw_xmalloc(sizeof(*e));
	memset(e, 0, sizeof(*e));
	e->strm = (lzma_stream)LZMA_STREAM_INIT;
	if (lzma_lzma_preset(&e->opt, preset))
		sample_die("liblzma: no preset %u", preset);
	e->opt.dict_size = dict_size; /* bounded encoder memory */
	if (nice_len)
		e->opt.nice_len = nice_len;
	e->opt.lc = 3;
	e->opt.lp = 0;
	e->opt.pb = 2;
	e->opt.ext_flags = 0; /* no end marker: the header carries the size, as EDK2 LzmaCompress does */
	return e;
}

uint8_t *lzma_enc_run(struct lzma_enc *e, const void *in, size_t n, size_t *out_len)
{
	lzma_set_ext_size(e->opt, (uint64_t)n);
	lzma_filter filters[2] = {{LZMA_FILTER_LZMA1EXT, &e->opt}, {LZMA_VLI_UNKNOWN, NULL}};
	lzma_ret rc = lzma_raw_encoder(&e->strm, filters);
	if (rc != LZMA_OK)
		sample_die("liblzma: raw LZMA1 encoder set-up failed (%d)", (int)rc);
	size_t cap = n + n / 2 + 4096;
	uint8_t *out = fw_xmalloc(13 + cap);
	out[0] = (uint8_t)((e->opt.pb * 5 + e->opt.lp) * 9 + e->opt.lc);
	fw_put_le32(out + 1, e->opt.dict_size);
	fw_put_le64(out + 5, (uint64_t)n);
	e->strm.next_in = in;
	e->strm.avail_in = n;
	e->strm.next_out = out + 13;
	e->strm.avail_out = cap;
	rc = lzma_code(&e->strm, LZMA_FINISH);
	if (rc != LZMA_STREAM_END)
		sample_die("liblzma: raw LZMA1 encoding failed (%d)", (int)rc);
	*out_len = 13 + (cap - e->strm.avail_out);
	return out;
}

void lzma_enc_free(struct lzma_enc *e)
{
	lzma_end(&e->strm);
	free(e);
}

uint8_t *zlib_compress(const void *in, size_t n, size_t *out_len) { return zlib_compress_level(in, n, 9, out_len); }

uint8_t *zlib_compress_level(const void *in, size_t n, int level, size_t *out_len)
{
	uLongf cap = compressBound((uLong)n);
	uint8_t *out = fw_xmalloc(cap);
	if (compress2(out, &cap, in, (uLong)n, level) != Z_OK)
		sample_die("zlib: compression failed");
	*out_len = cap;
	return out;
}

void sec_lzma(struct sbuf *s, const void *sections, size_t n)
{
	size_t clen;
	uint8_t *c = lzma_compress_edk2(sections, n, &clen);
	sec_lzma_compressed(s, c, clen);
	free(c);
}

void sec_lzma_compressed(struct sbuf *s, const void *stream, size_t n) { sec_guided(s, &guid_lzma, stream, n); }

void sec_amd_zlib(struct sbuf *s, const void *sections, size_t n)
{
	size_t clen;
	uint8_t *c = zlib_compress(sections, n, &clen);
	sec_amd_zlib_compressed(s, c, clen);
	free(c);
}

void sec_amd_zlib_compressed(struct sbuf *s, const void *c, size_t clen)
{
	struct sbuf t = {0};
	sb_put(&t, NULL, FW_AMD_ZLIB_HEADER_SIZE);
	fw_put_le32(sb_at(&t, 0x14), (uint32_t)clen);
	sb_put(&t, c, clen);
	sec_guided(s, &guid_amd_zlib, t.p, t.len);
	sb_free(&t);
}

/* ---- files ---- */

static void ffs_header(uint8_t *h, const struct fw_guid *name, uint8_t type, uint8_t attributes, size_t size,
		       const uint8_t *body, size_t n)
{
	fw_layout_put_guid(&fw_ffs_layout, h, FFS_NAME, name);
	fw_layout_put(&fw_ffs_layout, h, FFS_TYPE, type);
	fw_layout_put(&fw_ffs_layout, h, FFS_ATTRIBUTES, attributes);
	fw_layout_put(&fw_ffs_layout, h, FFS_SIZE, size);
	fw_layout_put(&fw_ffs_layout, h, FFS_HEADER_CHECKSUM, 0);
	fw_layout_put(&fw_ffs_layout, h, FFS_FILE_CHECKSUM, 0);
	fw_layout_put(&fw_ffs_layout, h, FFS_STATE, 0);
	/* header checksum over the header with File checksum and State as 0 */
	fw_layout_put(&fw_ffs_layout, h, FFS_HEADER_CHECKSUM, (uint8_t)(0x100 - fw_sum8(h, FW_FFS_HEADER_SIZE)));
	uint8_t file_sum = FW_FFS_FIXED_CHECKSUM;
	if (attributes & FW_FFS_ATTR_CHECKSUM)
		file_sum = (uint8_t)(0x100 - fw_sum8(body, n));
	fw_layout_put(&fw_ffs_layout, h, FFS_FILE_CHECKSUM, file_sum);
	fw_layout_put(&fw_ffs_layout, h, FFS_STATE, FFS_STATE_LIVE);
}

static size_t put_file(struct sbuf *b, const struct fw_guid *name, uint8_t type, uint8_t attributes, const void *body,
		       size_t n)
{
	size_t size = FW_FFS_HEADER_SIZE + n;
	if (size > 0xFFFFFF)
		sample_die("FFS file of %zu bytes needs a large-file header", size);
	size_t off = sb_put(b, NULL, FW_FFS_HEADER_SIZE);
	sb_put(b, body, n);
	ffs_header(sb_at(b, off), name, type, attributes, size, body, n);
	return off;
}

/* ---- volumes ---- */

void fv_begin(struct fvb *v, const struct fw_guid *fs, const struct fw_guid *name, size_t length)
{
	memset(v, 0, sizeof(*v));
	SAMPLE_ASSERT(length % FV_BLOCK == 0 && length >= FV_BLOCK);
	v->length = length;
	v->ffs3 = fw_guid_eq(fs, &guid_ffs3);
	size_t h = sb_layout(&v->b, &fw_fvh_layout);
	uint8_t *p = sb_at(&v->b, h);
	fw_layout_put_guid(&fw_fvh_layout, p, FVH_FILE_SYSTEM_GUID, fs);
	fw_layout_put(&fw_fvh_layout, p, FVH_LENGTH, length);
	fw_layout_put(&fw_fvh_layout, p, FVH_SIGNATURE, FW_FVH_SIGNATURE);
	fw_layout_put(&fw_fvh_layout, p, FVH_ATTRIBUTES, FV_ATTRIBUTES);
	fw_layout_put(&fw_fvh_layout, p, FVH_HEADER_LENGTH, FW_FVH_MIN_HEADER);
	fw_layout_put(&fw_fvh_layout, p, FVH_REVISION, 2);
	size_t bm = sb_layout(&v->b, &fw_fv_block_layout);
	fw_layout_put(&fw_fv_block_layout, sb_at(&v->b, bm), FV_BLOCK_NUM_BLOCKS, length / FV_BLOCK);
	fw_layout_put(&fw_fv_block_layout, sb_at(&v->b, bm), FV_BLOCK_LENGTH, FV_BLOCK);
	sb_layout(&v->b, &fw_fv_block_layout); /* terminator */
	SAMPLE_ASSERT(v->b.len == FW_FVH_MIN_HEADER);
	if (name) {
		/* GenFv puts the extended header in the body of a pad file right after the header */
		struct sbuf ext = {0};
		size_t e = sb_layout(&ext, &fw_fv_ext_layout);
		fw_layout_put_guid(&fw_fv_ext_layout, sb_at(&ext, e), FV_EXT_FV_NAME, name);
		fw_layout_put(&fw_fv_ext_layout, sb_at(&ext, e), FV_EXT_HEADER_SIZE, fw_fv_ext_layout.size);
		size_t pad = put_file(&v->b, &guid_pad_all_ones, FW_FFS_TYPE_PAD, 0, ext.p, ext.len);
		sb_free(&ext);
		fw_layout_put(&fw_fvh_layout, sb_at(&v->b, h), FVH_EXT_HEADER_OFFSET, pad + FW_FFS_HEADER_SIZE);
	}
	sb_align(&v->b, 8, 0xFF);
	v->first_file = v->b.len;
}

size_t fv_add_file(struct fvb *v, const struct fw_guid *name, uint8_t type, uint8_t attributes, const void *body, size_t n)
{
	sb_align(&v->b, 8, 0xFF);
	size_t off = put_file(&v->b, name, type, attributes, body, n);
	if (v->on_file)
		v->on_file(v->ctx, name, body, n);
	if (v->b.len > v->length)
		sample_die("volume overflow: %zu bytes in a volume of %zu", v->b.len, v->length);
	return off;
}

size_t fv_add_top_file(struct fvb *v, const struct fw_guid *name, uint8_t type, const void *body, size_t n)
{
	sb_align(&v->b, 8, 0xFF);
	size_t size = FW_FFS_HEADER_SIZE + n;
	SAMPLE_ASSERT(v->length >= v->b.len + size);
	size_t start = v->length - size;
	SAMPLE_ASSERT(start % 8 == 0);
	if (start > v->b.len) {
		/* a pad file fills the gap; it needs at least a header */
		SAMPLE_ASSERT(start - v->b.len >= FW_FFS_HEADER_SIZE);
		size_t body_len = start - v->b.len - FW_FFS_HEADER_SIZE;
		uint8_t *pad = fw_xmalloc(body_len ? body_len : 1);
		memset(pad, 0xFF, body_len);
		put_file(&v->b, &guid_pad_all_ones, FW_FFS_TYPE_PAD, 0, pad, body_len);
		free(pad);
	}
	SAMPLE_ASSERT(v->b.len == start);
	if (v->on_file)
		v->on_file(v->ctx, name, body, n);
	return put_file(&v->b, name, type, 0, body, n);
}

uint8_t *fv_finish(struct fvb *v, size_t *len)
{
	if (v->b.len > v->length)
		sample_die("volume overflow: %zu bytes in a volume of %zu", v->b.len, v->length);
	sb_fill(&v->b, 0xFF, v->length - v->b.len);
	uint8_t *p = v->b.p;
	fw_layout_put(&fw_fvh_layout, p, FVH_CHECKSUM, 0);
	fw_layout_put(&fw_fvh_layout, p, FVH_CHECKSUM, (uint16_t)(0x10000 - fw_sum16(p, FW_FVH_MIN_HEADER)));
	return sb_take(&v->b, len);
}
