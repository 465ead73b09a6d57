/* Decompressors for firmware sections (reference/formats.md 4).
 *
 * Each takes one section body as it sits on disk (with the algorithm's own header) and returns
 * the plain bytes in a fresh malloc'd buffer. The output is always capped: a stream that declares
 * or produces more than `cap` bytes fails with FW_E_LIMIT before anything that large is
 * allocated. Corrupt data fails with FW_E_INVALID or FW_E_TRUNCATED and never reads or writes
 * outside the buffers.
 *
 * | algorithm  | header                                          | library          |
 * |------------|-------------------------------------------------|------------------|
 * | efi11      | u32 CompSize, u32 OrigSize; P-set count 4 bits  | tiano.c          |
 * | tiano      | the same; P-set count 5 bits                    | tiano.c          |
 * | lzma       | LZMA "alone": props, u32 dict, u64 size         | liblzma          |
 * | lzmaf86    | as lzma, then x86 BCJ decoding                  | liblzma          |
 * | brotli     | u64 DecodedSize, u64 ScratchSize, stream at 16  | libbrotlidec     |
 * | zlib-amd   | 0x100 bytes, u32 CompressedSize at 0x14, zlib   | zlib             |
 * | gzip       | a gzip member                                   | zlib             |
 *
 * To add an algorithm: a value in enum fw_algo, its row in the table in decompress.c (name,
 * declared-size reader, decoder), and a fuzz target tests/fuzz/fuzz-decompress-NAME.c.
 */
#ifndef FW_DECOMPRESS_H
#define FW_DECOMPRESS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "error.h"

enum fw_algo {
	FW_ALGO_EFI11,
	FW_ALGO_TIANO,
	FW_ALGO_LZMA,
	FW_ALGO_LZMA_F86,
	FW_ALGO_BROTLI,
	FW_ALGO_ZLIB_AMD,
	FW_ALGO_GZIP,
	FW_ALGO__COUNT
};

/* Command-line name ("efi11", "tiano", "lzma", "lzmaf86", "brotli", "zlib-amd", "gzip"). */
const char *fw_algo_name(enum fw_algo a);
/* Human name ("EFI 1.1", "Tiano", "LZMA", "LZMA F86", "Brotli", "AMD zlib", "GZip"). */
const char *fw_algo_title(enum fw_algo a);
bool fw_algo_from_name(const char *name, enum fw_algo *out);

/* Details of one decompression, for the node fields. */
struct fw_inflate_info {
	uint64_t declared_size; /* size from the header, or UINT64_MAX when the format has none */
	uint32_t dict_size;     /* LZMA dictionary size */
	size_t skipped;         /* bytes skipped before the stream (4 for the Intel legacy LZMA variant) */
	size_t consumed;        /* compressed bytes used (when the library tells) */
};

/* Decompress `in[0..n)` with algorithm `a` into *out (malloc'd, *out_len bytes; an empty result
 * is a valid 1-byte allocation with *out_len 0). `info` may be NULL. */
bool fw_decompress(enum fw_algo a, const uint8_t *in, size_t n, uint64_t cap, uint8_t **out, size_t *out_len,
		   struct fw_inflate_info *info, struct fw_error *err);

/* The output size the header declares, without decoding; false when the format has no size
 * field (zlib-amd, gzip) or the header is short. */
bool fw_decompress_declared_size(enum fw_algo a, const uint8_t *in, size_t n, uint64_t *size);

/* A bare zlib stream (RFC 1950) whose output size is not known, such as a compressed AMD PSP
 * entry after its 0x100-byte header; same contract as fw_decompress. */
bool fw_zlib_inflate(const uint8_t *in, size_t n, uint64_t cap, uint8_t **out, size_t *out_len, struct fw_error *err);

/* Every buffer a decompressor (and liblzma, zlib and libbrotli inside it) allocates goes through
 * fw_xmalloc: running out of memory while inflating ends the run with exit 4 and the
 * out-of-memory line naming what is being read, never a limit diagnostic. For a z_stream of
 * zlib used elsewhere (snapshot members): set its zalloc, zfree and opaque so. */
struct z_stream_s;
void fw_zlib_checked_alloc(struct z_stream_s *z);

/* EFI 1.1 / Tiano (tiano.c): `pbit` is 4 for EFI 1.1 and 5 for Tiano. */
#define FW_EFI_HEADER_SIZE 8
bool fw_efi_decompress(const uint8_t *in, size_t n, unsigned pbit, uint64_t cap, uint8_t **out, size_t *out_len,
		       struct fw_error *err);

#define FW_LZMA_HEADER_SIZE 13
#define FW_BROTLI_HEADER_SIZE 16

#endif
