/* The sample builder: shared helpers (byte buffers, GUIDs, a deterministic byte stream, output
 * files) and the interfaces between its parts.
 *
 * Every byte the builder writes is derived from constants in this folder and from a SHA-256
 * counter stream: no clock, no /dev/urandom, no host path ends up in an output, so two builds are
 * byte-identical. Failures are bugs in the builder or I/O errors: they print one line and exit 1.
 */
#ifndef SAMPLES_SAMPLE_H
#define SAMPLES_SAMPLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "parsers/arena.h"
#include "parsers/guid.h"
#include "parsers/layout.h"

/* ---- failure ------------------------------------------------------------------------------ */
_Noreturn void sample_die(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
#define SAMPLE_ASSERT(cond)                                                                                        \
	do {                                                                                                       \
		if (!(cond))                                                                                       \
			sample_die("%s:%d: assertion failed: %s", __FILE__, __LINE__, #cond);                      \
	} while (0)

/* Memory that lives until the builder exits (freed at the end, so leak checkers stay quiet). */
extern struct fw_arena sample_arena;
void *sample_alloc(size_t n);
char *sample_strdup(const char *s);
char *sample_printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* ---- growable byte buffer ----------------------------------------------------------------- */
struct sbuf {
	uint8_t *p;
	size_t len, cap;
};
void sb_free(struct sbuf *b);
/* Append n bytes (copied from p, or zero when p is NULL); returns the offset where they start. */
size_t sb_put(struct sbuf *b, const void *p, size_t n);
size_t sb_fill(struct sbuf *b, uint8_t byte, size_t n);
size_t sb_put8(struct sbuf *b, uint8_t v);
size_t sb_put16(struct sbuf *b, uint16_t v);
size_t sb_put32(struct sbuf *b, uint32_t v);
size_t sb_put64(struct sbuf *b, uint64_t v);
size_t sb_put_guid(struct sbuf *b, const struct fw_guid *g);
size_t sb_put_ascii(struct sbuf *b, const char *s);  /* with the NUL */
size_t sb_put_ucs2(struct sbuf *b, const char *s);   /* UTF-8 (BMP) to UCS-2 with the NUL */
size_t sb_printf(struct sbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3))); /* no NUL */
/* Pad with `byte` up to a multiple of `align` (relative to offset 0 of the buffer). */
void sb_align(struct sbuf *b, size_t align, uint8_t byte);
/* A zeroed structure of a layout's size appended; returns its offset. */
size_t sb_layout(struct sbuf *b, const struct fw_layout *l);
static inline uint8_t *sb_at(struct sbuf *b, size_t off) { return b->p + off; }
/* Take the contents out (the buffer is reset); the caller frees. */
uint8_t *sb_take(struct sbuf *b, size_t *len);

/* ---- GUIDs -------------------------------------------------------------------------------- */
/* Parse a registry-format constant (aborts on a typo). */
struct fw_guid sample_guid(const char *text);
/* A stable GUID for a synthetic object: the first 16 bytes of SHA-256("fwlens sample " name),
 * with version 4-style bits so tools treat it as an ordinary GUID. */
struct fw_guid sample_guid_named(const char *name);

/* ---- deterministic byte stream (SHA-256 in counter mode) ---------------------------------- */
struct srng {
	uint8_t seed[32];
	uint64_t counter;
	uint8_t block[32];
	unsigned pos;
};
void srng_init(struct srng *r, const char *label);
void srng_bytes(struct srng *r, void *out, size_t n);
uint32_t srng_u32(struct srng *r);
/* Uniform in [0, n) (n > 0). */
uint32_t srng_below(struct srng *r, uint32_t n);

/* ---- output files ------------------------------------------------------------------------- */
/* All paths are relative to the output folder given on the command line. */
void out_set_root(const char *dir);
const char *out_root(void);
void out_mkdirs(const char *rel);
void out_write(const char *rel, const void *data, size_t len);
void out_text(const char *rel, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void out_symlink(const char *rel, const char *target);
/* Remove a previous build's folder (only paths under the output root). */
void out_remove_tree(const char *rel);
char *out_path(const char *rel); /* absolute/relative path on disk, arena-owned */

/* ---- little helpers ----------------------------------------------------------------------- */
#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))
static inline size_t align_up(size_t v, size_t a) { return (v + a - 1) / a * a; }

#endif
