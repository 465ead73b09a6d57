/* Byte builders for HII packages in tests and fuzz seeds: opcodes, string packages, package
 * lists. Everything is written little-endian into a growing buffer. */
#ifndef FW_TEST_IFR_BUILD_H
#define FW_TEST_IFR_BUILD_H

#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

struct tb {
	uint8_t *p;
	size_t n, cap;
};

static inline void tb_put(struct tb *b, const void *d, size_t n)
{
	if (b->n + n > b->cap) {
		b->cap = (b->n + n) * 2 + 64;
		b->p = realloc(b->p, b->cap);
	}
	memcpy(b->p + b->n, d, n);
	b->n += n;
}
static inline void tb_u8(struct tb *b, uint8_t v) { tb_put(b, &v, 1); }
static inline void tb_u16(struct tb *b, uint16_t v) { uint8_t x[2] = {(uint8_t)v, (uint8_t)(v >> 8)}; tb_put(b, x, 2); }
static inline void tb_u32(struct tb *b, uint32_t v)
{
	uint8_t x[4] = {(uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24)};
	tb_put(b, x, 4);
}
static inline void tb_ucs2(struct tb *b, const char *s)
{
	for (; *s; s++)
		tb_u16(b, (uint8_t)*s);
	tb_u16(b, 0);
}
static inline void tb_set_u32(struct tb *b, size_t off, uint32_t v)
{
	b->p[off] = (uint8_t)v, b->p[off + 1] = (uint8_t)(v >> 8), b->p[off + 2] = (uint8_t)(v >> 16),
	b->p[off + 3] = (uint8_t)(v >> 24);
}

/* One opcode: op, scope bit, then `n` payload bytes given as ints. */
static inline void tb_op(struct tb *b, uint8_t op, int scope, size_t n, ...)
{
	va_list ap;
	tb_u8(b, op);
	tb_u8(b, (uint8_t)((2 + n) | (scope ? 0x80 : 0)));
	va_start(ap, n);
	for (size_t i = 0; i < n; i++)
		tb_u8(b, (uint8_t)va_arg(ap, int));
	va_end(ap);
}
#define LO(x) ((x) & 0xFF)
#define HI(x) (((x) >> 8) & 0xFF)

/* Question header bytes: prompt, help, qid, varstore id, var info, flags */
#define QH(prompt, help, qid, vs, info, flags) LO(prompt), HI(prompt), LO(help), HI(help), LO(qid), HI(qid), LO(vs), HI(vs), LO(info), HI(info), (flags)

static inline size_t tb_pkg_begin(struct tb *b)
{
	size_t at = b->n;
	tb_u32(b, 0);
	return at;
}
static inline void tb_pkg_end(struct tb *b, size_t at, uint8_t type)
{
	tb_set_u32(b, at, (uint32_t)(b->n - at) | ((uint32_t)type << 24));
}

/* A string package with UCS-2 strings 1..n in one language. */
static inline void tb_strings(struct tb *b, const char *lang, const char *const *s, size_t n)
{
	size_t at = tb_pkg_begin(b);
	uint32_t hdr = 46 + (uint32_t)strlen(lang) + 1;
	tb_u32(b, hdr);
	tb_u32(b, hdr);
	for (int i = 0; i < 16; i++)
		tb_u16(b, 0);
	tb_u16(b, 1);
	tb_put(b, lang, strlen(lang) + 1);
	for (size_t i = 0; i < n; i++) {
		if (!s[i]) {
			tb_u8(b, 0x22); /* SKIP1 */
			tb_u8(b, 1);
			continue;
		}
		tb_u8(b, 0x14);
		tb_ucs2(b, s[i]);
	}
	tb_u8(b, 0);
	tb_pkg_end(b, at, 0x04);
}

#endif
