/* Inflating the big compressed sections of an input in parallel, before the tree is built.
 *
 * Inflation is most of the time fwlens takes on a BIOS image (one LZMA section of the WRX90E
 * capsule is half of it), and the tree parser inflates as it meets sections, one after the other.
 * fw_firmware_open (capsule/detect.c) therefore first parses the input without inflating
 * (FW_PARSE_LAYOUT_ONLY), which lists the compressed streams that lie in the input itself; the
 * large ones are inflated here on a few threads; then the real parse takes each result where it
 * would have inflated the stream, and inflates only what was not taken (streams inside other
 * decompressed data, small ones) itself. The bytes, the tree and the diagnostics are the same;
 * each stream is still inflated once.
 *
 * Bounds: at most FW_PREFETCH_MAX_JOBS streams, each under the per-section limit, and results
 * stop being kept once they add up to the total limit (the parse then inflates and accounts for
 * the rest as usual). FWLENS_THREADS=N sets the number of threads (1: no prefetch).
 */
#ifndef FW_PREFETCH_H
#define FW_PREFETCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "decompress.h"
#include "error.h"

#define FW_PREFETCH_MAX_JOBS 256
#ifdef FW_FUZZING /* fuzz inputs are small: prefetch them too, so the fuzzers reach this code */
#define FW_PREFETCH_MIN_INPUT 0
#define FW_PREFETCH_MIN_STREAM 16
#else
#define FW_PREFETCH_MIN_INPUT ((size_t)1 << 20) /* smaller inputs are parsed on one thread */
#define FW_PREFETCH_MIN_STREAM 65536          /* smaller streams are inflated by the parse itself */
#endif

struct fw_prefetch;

struct fw_prefetch *fw_prefetch_new(void);
void fw_prefetch_free(struct fw_prefetch *pf);
/* Threads to use for an input of n bytes: 1 (no prefetch) for small inputs or FWLENS_THREADS=1. */
unsigned fw_prefetch_threads(size_t n);
/* Inputs parsed at the same time from now on (a diff parses its two sides at once): they share the
 * threads, so no more streams are inflated at once, each with its decoder's dictionary, than
 * there are processors. 1 again when they are done. */
void fw_prefetch_share(unsigned inputs);

/* Layout pass: a compressed stream the parse would inflate with algorithm a. */
void fw_prefetch_add(struct fw_prefetch *pf, enum fw_algo a, const uint8_t *in, size_t len);
/* Inflate the listed streams on `threads` threads, each capped at cap_one bytes, keeping results
 * while they add up to at most cap_total bytes. */
void fw_prefetch_run(struct fw_prefetch *pf, unsigned threads, uint64_t cap_one, uint64_t cap_total);
/* Real pass: the result for this stream, if it was inflated ahead. True when there is one: then
 * *ok says whether it decompressed, with *out (malloc'd, now the caller's), *out_len and *info,
 * or *err. */
bool fw_prefetch_take(struct fw_prefetch *pf, enum fw_algo a, const uint8_t *in, size_t len, bool *ok, uint8_t **out,
		      size_t *out_len, struct fw_inflate_info *info, struct fw_error *err);

#endif
