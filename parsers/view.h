/* The one bounded reader: every read of input bytes goes through a checked view.
 *
 * A view is (ptr, len, base): `base` is the absolute offset of ptr[0] in the input file, or
 * FW_OFFSET_UNKNOWN inside decompressed data. Every accessor checks `off + n` for overflow and
 * range and fails with a message naming the structure and the absolute offset. Sub-views are
 * windows, never copies, so a child parses from offset 0 of its own window.
 * Never cast a packed struct onto input bytes: use these (little-endian) readers.
 */
#ifndef FW_VIEW_H
#define FW_VIEW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "error.h"

#define FW_OFFSET_UNKNOWN UINT64_MAX

struct fw_guid;

struct fw_view {
	const uint8_t *p;
	size_t len;
	uint64_t base; /* absolute file offset of p[0], or FW_OFFSET_UNKNOWN */
};

static inline struct fw_view fw_view_make(const uint8_t *p, size_t len, uint64_t base)
{
	struct fw_view v = {p, len, base};
	return v;
}

/* Absolute file offset of `off` inside the view, or FW_OFFSET_UNKNOWN. */
static inline uint64_t fw_view_abs(const struct fw_view *v, size_t off)
{
	return v->base == FW_OFFSET_UNKNOWN ? FW_OFFSET_UNKNOWN : v->base + off;
}

/* True when [off, off+n) lies inside the view (overflow-safe). */
static inline bool fw_view_has(const struct fw_view *v, size_t off, size_t n)
{
	return off <= v->len && n <= v->len - off;
}

/* Checked access; `what` names the structure for the error message. */
bool fw_view_check(const struct fw_view *v, size_t off, size_t n, const char *what, struct fw_error *err);
bool fw_rd_u8(const struct fw_view *v, size_t off, uint8_t *out, struct fw_error *err);
bool fw_rd_u16(const struct fw_view *v, size_t off, uint16_t *out, struct fw_error *err);
bool fw_rd_u24(const struct fw_view *v, size_t off, uint32_t *out, struct fw_error *err);
bool fw_rd_u32(const struct fw_view *v, size_t off, uint32_t *out, struct fw_error *err);
bool fw_rd_u64(const struct fw_view *v, size_t off, uint64_t *out, struct fw_error *err);
bool fw_rd_guid(const struct fw_view *v, size_t off, struct fw_guid *out, struct fw_error *err);
bool fw_rd_bytes(const struct fw_view *v, size_t off, void *out, size_t n, struct fw_error *err);
/* Window [off, off+n) of v; fails if out of range. */
bool fw_rd_sub(const struct fw_view *v, size_t off, size_t n, struct fw_view *out, struct fw_error *err);
/* Window [off, end) of v. */
bool fw_rd_tail(const struct fw_view *v, size_t off, struct fw_view *out, struct fw_error *err);

/* Unchecked little-endian loads for callers that already checked the range with fw_view_has().
 * They take raw pointers so they can also serve encoders. */
static inline uint16_t fw_le16(const uint8_t *p) { return (uint16_t)(p[0] | (p[1] << 8)); }
static inline uint32_t fw_le24(const uint8_t *p) { return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16); }
static inline uint32_t fw_le32(const uint8_t *p)
{
	return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) | ((uint32_t)p[3] << 24);
}
static inline uint64_t fw_le64(const uint8_t *p) { return (uint64_t)fw_le32(p) | ((uint64_t)fw_le32(p + 4) << 32); }
static inline void fw_put_le16(uint8_t *p, uint16_t v) { p[0] = (uint8_t)v; p[1] = (uint8_t)(v >> 8); }
static inline void fw_put_le24(uint8_t *p, uint32_t v) { p[0] = (uint8_t)v; p[1] = (uint8_t)(v >> 8); p[2] = (uint8_t)(v >> 16); }
static inline void fw_put_le32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v; p[1] = (uint8_t)(v >> 8); p[2] = (uint8_t)(v >> 16); p[3] = (uint8_t)(v >> 24);
}
static inline void fw_put_le64(uint8_t *p, uint64_t v) { fw_put_le32(p, (uint32_t)v); fw_put_le32(p + 4, (uint32_t)(v >> 32)); }
static inline uint32_t fw_be32(const uint8_t *p)
{
	return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) | ((uint32_t)p[2] << 8) | (uint32_t)p[3];
}

/* Checked cursor progress: *off += n, failing on overflow or past `limit`. */
bool fw_size_inc(size_t *off, size_t n, size_t limit, struct fw_error *err);

/* Round up to a power-of-two alignment; returns false on overflow. */
static inline bool fw_align_up(size_t v, size_t align, size_t *out)
{
	size_t mask = align - 1;
	if (v > SIZE_MAX - mask)
		return false;
	*out = (v + mask) & ~mask;
	return true;
}

/* The next line of p[*at..n) in place: its start and length (without the newline); false at the end. */
static inline bool fw_next_line(const char *p, size_t n, size_t *at, const char **line, size_t *len)
{
	if (*at >= n)
		return false;
	const char *nl = memchr(p + *at, '\n', n - *at);
	*line = p + *at;
	*len = nl ? (size_t)(nl - *line) : n - *at;
	*at += *len + 1;
	return true;
}

/* Format "@0x1234" or "@?" (inside decompressed data) into buf. */
const char *fw_offset_str(uint64_t abs, char *buf, size_t buflen);

#endif
