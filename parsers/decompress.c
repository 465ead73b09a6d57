/* Section decompressors: the dispatch table, LZMA and LZMA-F86 (liblzma), Brotli (libbrotlidec),
 * AMD zlib and gzip (zlib). EFI 1.1 and Tiano live in tiano.c. */
#include "decompress.h"

#include <brotli/decode.h>
#include <lzma.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <zlib.h>

#include "view.h"

#define AMD_ZLIB_HEADER_SIZE 0x100
#define AMD_ZLIB_COMPRESSED_SIZE_OFFSET 0x14
#define LZMA_MIN_DICT 4096u
/* Intel's legacy LZMA sections carry 4 bytes before the LZMA header (UEFITool retries so). */
#define LZMA_LEGACY_SKIP 4

static void *alloc_out(uint64_t size)
{
	return fw_xmalloc(size ? (size_t)size : 1);
}

/* An output of unknown size was given a guess (4x the input, then doubled): hand the unused tail
 * back, or it stays in the process while the tree holds the bytes (2 MB over 1,660 zlib drivers). */
static uint8_t *fit_out(uint8_t *buf, uint64_t have, size_t used)
{
	if (have - used < 4096)
		return buf;
	return fw_xrealloc(buf, used ? used : 1);
}

/* The libraries' allocators, through fw_xmalloc (decompress.h). */
static void *checked_alloc_n(size_t nmemb, size_t size)
{
	if (size && nmemb > SIZE_MAX / size)
		return fw_xmalloc(SIZE_MAX); /* cannot be had: the out-of-memory line */
	return fw_xmalloc(nmemb * size);
}

static void *lzma_alloc(void *opaque, size_t nmemb, size_t size)
{
	(void)opaque;
	return checked_alloc_n(nmemb, size);
}

static void lzma_free(void *opaque, void *p)
{
	(void)opaque;
	free(p);
}

static const lzma_allocator lzma_checked = {lzma_alloc, lzma_free, NULL};

static voidpf zlib_alloc(voidpf opaque, uInt items, uInt size)
{
	(void)opaque;
	return checked_alloc_n(items, size);
}

static void zlib_free(voidpf opaque, voidpf p)
{
	(void)opaque;
	free(p);
}

void fw_zlib_checked_alloc(struct z_stream_s *z)
{
	z->zalloc = zlib_alloc;
	z->zfree = zlib_free;
	z->opaque = NULL;
}

static void *brotli_alloc(void *opaque, size_t size)
{
	(void)opaque;
	return fw_xmalloc(size);
}

static void brotli_free(void *opaque, void *p)
{
	(void)opaque;
	free(p);
}

/* --- LZMA ------------------------------------------------------------------------------------ */

/* One attempt at `in` (which starts with the 13-byte LZMA header). */
static bool lzma_try(const uint8_t *in, size_t n, bool x86, uint64_t cap, uint8_t **out, size_t *out_len,
		     struct fw_inflate_info *info, struct fw_error *err)
{
	const char *what = x86 ? "LZMA F86" : "LZMA";
	if (n < FW_LZMA_HEADER_SIZE)
		return fw_error_set(err, FW_E_TRUNCATED, "%s stream: %zu bytes, shorter than its 13-byte header", what, n);
	if (in[0] >= 9 * 5 * 5)
		return fw_error_set(err, FW_E_INVALID, "%s stream: invalid properties byte 0x%02x", what, in[0]);
	uint32_t dict = fw_le32(in + 1);
	uint64_t size = fw_le64(in + 5);
	bool known = size != UINT64_MAX;
	if (known && size > cap)
		return fw_error_set(err, FW_E_LIMIT, "%s stream: uncompressed size 0x%llx is over the limit of 0x%llx", what,
				    (unsigned long long)size, (unsigned long long)cap);
	lzma_filter decode_filter = {.id = LZMA_FILTER_LZMA1, .options = NULL};
	if (lzma_properties_decode(&decode_filter, &lzma_checked, in, 5) != LZMA_OK)
		return fw_error_set(err, FW_E_INVALID, "%s stream: invalid properties", what);
	lzma_options_lzma *opt = decode_filter.options;
	/* The decoder never looks further back than the output it has made, so a dictionary larger
	 * than the output only costs memory: clamp it. */
	uint64_t limit = known ? size : cap;
	if (opt->dict_size > limit)
		opt->dict_size = limit < LZMA_MIN_DICT ? LZMA_MIN_DICT : (uint32_t)limit;
	if (opt->dict_size < LZMA_MIN_DICT)
		opt->dict_size = LZMA_MIN_DICT;
	opt->ext_flags = LZMA_LZMA1EXT_ALLOW_EOPM;
	opt->ext_size_low = (uint32_t)size;
	opt->ext_size_high = (uint32_t)(size >> 32);
	lzma_filter filters[3];
	size_t k = 0;
	if (x86)
		filters[k++] = (lzma_filter){.id = LZMA_FILTER_X86, .options = NULL};
	filters[k++] = (lzma_filter){.id = LZMA_FILTER_LZMA1EXT, .options = opt};
	filters[k] = (lzma_filter){.id = LZMA_VLI_UNKNOWN, .options = NULL};

	/* The output before the decoder's dictionary: the dictionary is freed first, from the top of
	 * the heap, and leaves no hole between outputs the tree keeps (5.7 MB of them over the 1,823
	 * drivers of a dense image when it came first) */
	uint64_t have = known ? size : (n * 4 < cap ? (n * 4 > 65536 ? n * 4 : 65536) : cap);
	uint8_t *buf = alloc_out(have);
	lzma_stream strm = LZMA_STREAM_INIT;
	strm.allocator = &lzma_checked;
	lzma_ret ret = lzma_raw_decoder(&strm, filters);
	free(opt);
	if (ret != LZMA_OK) {
		free(buf);
		return fw_error_set(err, FW_E_INVALID, "%s stream: decoder set-up failed (%d)", what, (int)ret);
	}
	strm.next_in = in + FW_LZMA_HEADER_SIZE;
	strm.avail_in = n - FW_LZMA_HEADER_SIZE;
	strm.next_out = buf;
	strm.avail_out = (size_t)have;
	for (;;) {
		ret = lzma_code(&strm, LZMA_FINISH);
		if (ret == LZMA_STREAM_END)
			break;
		if (ret == LZMA_OK && strm.avail_out == 0 && !known) {
			if (have >= cap) {
				ret = LZMA_MEMLIMIT_ERROR;
				break;
			}
			uint64_t grown = have * 2 < cap ? have * 2 : cap;
			buf = fw_xrealloc(buf, (size_t)grown);
			strm.next_out = buf + have;
			strm.avail_out = (size_t)(grown - have);
			have = grown;
			continue;
		}
		if (ret == LZMA_OK)
			continue;
		break;
	}
	size_t produced = (size_t)strm.total_out;
	size_t consumed = (size_t)strm.total_in;
	lzma_end(&strm);
	if (ret != LZMA_STREAM_END) {
		free(buf);
		if (ret == LZMA_MEMLIMIT_ERROR)
			return fw_error_set(err, FW_E_LIMIT, "%s stream: output is over the limit of 0x%llx", what,
					    (unsigned long long)cap);
		return fw_error_set(err, ret == LZMA_BUF_ERROR ? FW_E_TRUNCATED : FW_E_INVALID,
				    "%s stream: corrupt compressed data (%s after 0x%zx of 0x%zx input bytes, output 0x%zx)",
				    what, ret == LZMA_BUF_ERROR ? "input ends" : "decoder error", consumed,
				    n - FW_LZMA_HEADER_SIZE, produced);
	}
	if (known && produced != size) {
		free(buf);
		return fw_error_set(err, FW_E_INVALID, "%s stream: produced 0x%zx bytes, the header declares 0x%llx", what,
				    produced, (unsigned long long)size);
	}
	*out = fit_out(buf, have, produced);
	*out_len = produced;
	if (info) {
		info->declared_size = size;
		info->dict_size = dict;
		info->consumed = consumed + FW_LZMA_HEADER_SIZE;
	}
	return true;
}

static bool lzma_any(const uint8_t *in, size_t n, bool x86, uint64_t cap, uint8_t **out, size_t *out_len,
		     struct fw_inflate_info *info, struct fw_error *err)
{
	if (lzma_try(in, n, x86, cap, out, out_len, info, err))
		return true;
	if (err && err->code == FW_E_LIMIT)
		return false;
	if (n > LZMA_LEGACY_SKIP && lzma_try(in + LZMA_LEGACY_SKIP, n - LZMA_LEGACY_SKIP, x86, cap, out, out_len, info, NULL)) {
		if (info)
			info->skipped = LZMA_LEGACY_SKIP;
		return true;
	}
	return false;
}

static bool lzma_size(const uint8_t *in, size_t n, uint64_t *size)
{
	if (n < FW_LZMA_HEADER_SIZE || fw_le64(in + 5) == UINT64_MAX)
		return false;
	*size = fw_le64(in + 5);
	return true;
}

/* --- zlib streams of unknown output size ------------------------------------------------------ */

static bool inflate_grow(const char *what, const uint8_t *in, size_t n, int window_bits, uint64_t cap, uint8_t **out,
			 size_t *out_len, size_t *consumed, struct fw_error *err)
{
	z_stream z;
	memset(&z, 0, sizeof(z));
	fw_zlib_checked_alloc(&z);
	if (inflateInit2(&z, window_bits) != Z_OK)
		return fw_error_set(err, FW_E_INTERNAL, "%s stream: zlib set-up failed", what);
	uint64_t have = (uint64_t)n * 4;
	if (have < 65536)
		have = 65536;
	if (have > cap)
		have = cap;
	uint8_t *buf = alloc_out(have);
	uint64_t total = 0;
	const uint8_t *next_in = in;
	size_t left = n;
	int ret = Z_OK;
	bool over_cap = false;
	for (;;) {
		if (total == have) {
			if (have >= cap) {
				over_cap = true;
				break;
			}
			uint64_t grown = have * 2 < cap ? have * 2 : cap;
			buf = fw_xrealloc(buf, (size_t)grown);
			have = grown;
		}
		uInt in_chunk = left > 0x40000000u ? 0x40000000u : (uInt)left;
		uint64_t room = have - total;
		uInt out_chunk = room > 0x40000000u ? 0x40000000u : (uInt)room;
		z.next_in = (Bytef *)(uintptr_t)next_in;
		z.avail_in = in_chunk;
		z.next_out = buf + total;
		z.avail_out = out_chunk;
		ret = inflate(&z, Z_NO_FLUSH);
		size_t used = in_chunk - z.avail_in;
		next_in += used;
		left -= used;
		total += out_chunk - z.avail_out;
		if (ret == Z_STREAM_END)
			break;
		if (ret == Z_BUF_ERROR && z.avail_out != 0)
			break; /* no progress possible: the input ended */
		if (ret != Z_OK && ret != Z_BUF_ERROR)
			break;
	}
	/* zlib's own words ("incorrect data check", "invalid distance too far back") */
	char why[80];
	snprintf(why, sizeof(why), "%s", ret == Z_DATA_ERROR && z.msg ? z.msg : "inflate error");
	inflateEnd(&z);
	if (over_cap || ret != Z_STREAM_END) {
		free(buf);
		if (over_cap)
			return fw_error_set(err, FW_E_LIMIT, "%s stream: output is over the limit of 0x%llx", what,
					    (unsigned long long)cap);
		bool ended = ret == Z_BUF_ERROR;
		return fw_error_set(err, ended ? FW_E_TRUNCATED : FW_E_INVALID,
				    "%s stream: corrupt compressed data (%s after 0x%zx of 0x%zx input bytes)", what,
				    ended ? "input ends" : why, n - left, n);
	}
	*out = fit_out(buf, have, (size_t)total);
	*out_len = (size_t)total;
	if (consumed)
		*consumed = n - left;
	return true;
}

bool fw_zlib_inflate(const uint8_t *in, size_t n, uint64_t cap, uint8_t **out, size_t *out_len, struct fw_error *err)
{
	return inflate_grow("zlib", in, n, MAX_WBITS, cap, out, out_len, NULL, err);
}

static bool amd_zlib(const uint8_t *in, size_t n, uint64_t cap, uint8_t **out, size_t *out_len,
		     struct fw_inflate_info *info, struct fw_error *err)
{
	if (n < AMD_ZLIB_HEADER_SIZE)
		return fw_error_set(err, FW_E_TRUNCATED, "AMD zlib stream: %zu bytes, shorter than its 0x100-byte header", n);
	uint32_t csize = fw_le32(in + AMD_ZLIB_COMPRESSED_SIZE_OFFSET);
	size_t avail = n - AMD_ZLIB_HEADER_SIZE;
	if (csize == 0 || csize > avail)
		csize = (uint32_t)(avail > UINT32_MAX ? UINT32_MAX : avail);
	size_t consumed = 0;
	if (!inflate_grow("AMD zlib", in + AMD_ZLIB_HEADER_SIZE, csize, MAX_WBITS, cap, out, out_len, &consumed, err))
		return false;
	if (info)
		info->consumed = consumed + AMD_ZLIB_HEADER_SIZE;
	return true;
}

static bool gzip(const uint8_t *in, size_t n, uint64_t cap, uint8_t **out, size_t *out_len, struct fw_inflate_info *info,
		 struct fw_error *err)
{
	size_t consumed = 0;
	if (!inflate_grow("GZip", in, n, 16 + MAX_WBITS, cap, out, out_len, &consumed, err))
		return false;
	if (info)
		info->consumed = consumed;
	return true;
}

/* --- Brotli (EDK2 BrotliCustomDecompressLib) -------------------------------------------------- */

static bool brotli(const uint8_t *in, size_t n, uint64_t cap, uint8_t **out, size_t *out_len,
		   struct fw_inflate_info *info, struct fw_error *err)
{
	if (n < FW_BROTLI_HEADER_SIZE)
		return fw_error_set(err, FW_E_TRUNCATED, "Brotli stream: %zu bytes, shorter than its 16-byte header", n);
	uint64_t size = fw_le64(in);
	if (size > cap)
		return fw_error_set(err, FW_E_LIMIT, "Brotli stream: DecodedSize 0x%llx is over the limit of 0x%llx",
				    (unsigned long long)size, (unsigned long long)cap);
	uint8_t *buf = alloc_out(size);
	BrotliDecoderState *s = BrotliDecoderCreateInstance(brotli_alloc, brotli_free, NULL);
	if (!s) {
		free(buf);
		return fw_error_set(err, FW_E_INTERNAL, "Brotli stream: decoder set-up failed");
	}
	size_t avail_in = n - FW_BROTLI_HEADER_SIZE, avail_out = (size_t)size, total = 0;
	const uint8_t *next_in = in + FW_BROTLI_HEADER_SIZE;
	uint8_t *next_out = buf;
	BrotliDecoderResult r = BrotliDecoderDecompressStream(s, &avail_in, &next_in, &avail_out, &next_out, &total);
	const char *why = r == BROTLI_DECODER_RESULT_ERROR ? BrotliDecoderErrorString(BrotliDecoderGetErrorCode(s)) : NULL;
	BrotliDecoderDestroyInstance(s);
	if (r != BROTLI_DECODER_RESULT_SUCCESS) {
		free(buf);
		if (r == BROTLI_DECODER_RESULT_NEEDS_MORE_OUTPUT)
			return fw_error_set(err, FW_E_INVALID, "Brotli stream: output is larger than DecodedSize 0x%llx",
					    (unsigned long long)size);
		if (r == BROTLI_DECODER_RESULT_NEEDS_MORE_INPUT)
			return fw_error_set(err, FW_E_TRUNCATED, "Brotli stream: input ends after 0x%zx bytes of output", total);
		return fw_error_set(err, FW_E_INVALID, "Brotli stream: corrupt compressed data (%s)", why ? why : "error");
	}
	if (total != size) {
		free(buf);
		return fw_error_set(err, FW_E_INVALID, "Brotli stream: produced 0x%zx bytes, the header declares 0x%llx", total,
				    (unsigned long long)size);
	}
	*out = buf;
	*out_len = total;
	if (info) {
		info->declared_size = size;
		info->consumed = n - avail_in;
	}
	return true;
}

/* --- the table --------------------------------------------------------------------------------- */

static bool efi_pbit(const uint8_t *in, size_t n, unsigned pbit, uint64_t cap, uint8_t **out, size_t *out_len,
		     struct fw_inflate_info *info, struct fw_error *err)
{
	if (!fw_efi_decompress(in, n, pbit, cap, out, out_len, err))
		return false;
	if (info) {
		info->declared_size = fw_le32(in + 4);
		info->consumed = FW_EFI_HEADER_SIZE + (size_t)fw_le32(in);
	}
	return true;
}

static bool efi11(const uint8_t *in, size_t n, uint64_t cap, uint8_t **out, size_t *out_len,
		  struct fw_inflate_info *info, struct fw_error *err)
{
	return efi_pbit(in, n, 4, cap, out, out_len, info, err);
}

static bool tiano(const uint8_t *in, size_t n, uint64_t cap, uint8_t **out, size_t *out_len,
		  struct fw_inflate_info *info, struct fw_error *err)
{
	return efi_pbit(in, n, 5, cap, out, out_len, info, err);
}

static bool lzma(const uint8_t *in, size_t n, uint64_t cap, uint8_t **out, size_t *out_len,
		 struct fw_inflate_info *info, struct fw_error *err)
{
	return lzma_any(in, n, false, cap, out, out_len, info, err);
}

static bool lzma_f86(const uint8_t *in, size_t n, uint64_t cap, uint8_t **out, size_t *out_len,
		     struct fw_inflate_info *info, struct fw_error *err)
{
	return lzma_any(in, n, true, cap, out, out_len, info, err);
}

static bool efi_size(const uint8_t *in, size_t n, uint64_t *size)
{
	if (n < FW_EFI_HEADER_SIZE)
		return false;
	*size = fw_le32(in + 4);
	return true;
}

static bool brotli_size(const uint8_t *in, size_t n, uint64_t *size)
{
	if (n < FW_BROTLI_HEADER_SIZE)
		return false;
	*size = fw_le64(in);
	return true;
}

typedef bool (*decode_fn)(const uint8_t *, size_t, uint64_t, uint8_t **, size_t *, struct fw_inflate_info *,
			  struct fw_error *);

static const struct {
	const char *name, *title;
	decode_fn decode;
	bool (*declared)(const uint8_t *, size_t, uint64_t *);
} algos[FW_ALGO__COUNT] = {
	[FW_ALGO_EFI11] = {"efi11", "EFI 1.1", efi11, efi_size},
	[FW_ALGO_TIANO] = {"tiano", "Tiano", tiano, efi_size},
	[FW_ALGO_LZMA] = {"lzma", "LZMA", lzma, lzma_size},
	[FW_ALGO_LZMA_F86] = {"lzmaf86", "LZMA F86", lzma_f86, lzma_size},
	[FW_ALGO_BROTLI] = {"brotli", "Brotli", brotli, brotli_size},
	[FW_ALGO_ZLIB_AMD] = {"zlib-amd", "AMD zlib", amd_zlib, NULL},
	[FW_ALGO_GZIP] = {"gzip", "GZip", gzip, NULL},
};

const char *fw_algo_name(enum fw_algo a)
{
	return (unsigned)a < FW_ALGO__COUNT ? algos[a].name : "?";
}

const char *fw_algo_title(enum fw_algo a)
{
	return (unsigned)a < FW_ALGO__COUNT ? algos[a].title : "?";
}

bool fw_algo_from_name(const char *name, enum fw_algo *out)
{
	for (unsigned i = 0; i < FW_ALGO__COUNT; i++)
		if (strcasecmp(name, algos[i].name) == 0) {
			*out = (enum fw_algo)i;
			return true;
		}
	return false;
}

bool fw_decompress(enum fw_algo a, const uint8_t *in, size_t n, uint64_t cap, uint8_t **out, size_t *out_len,
		   struct fw_inflate_info *info, struct fw_error *err)
{
	if ((unsigned)a >= FW_ALGO__COUNT)
		return fw_error_set(err, FW_E_INTERNAL, "unknown decompression algorithm %d", (int)a);
	if (info) {
		memset(info, 0, sizeof(*info));
		info->declared_size = UINT64_MAX;
	}
	return algos[a].decode(in, n, cap, out, out_len, info, err);
}

bool fw_decompress_declared_size(enum fw_algo a, const uint8_t *in, size_t n, uint64_t *size)
{
	if ((unsigned)a >= FW_ALGO__COUNT || !algos[a].declared)
		return false;
	return algos[a].declared(in, n, size);
}
