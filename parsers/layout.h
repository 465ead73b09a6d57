/* On-disk layouts declared once, as field tables (in the style of ACPICA's dmtbinfo).
 *
 * A layout lists {name, type, offset, len, flags, names}. The same table drives the decoder
 * (fw_layout_get / fw_layout_emit put every field on a node for the writers), diff (fields are
 * compared by name) and the sample builder's encoder (fw_layout_put). Field widths are computed
 * in one function, fw_field_width.
 *
 * To declare a structure: write an enum of field indexes and a `static const struct fw_field`
 * array indexed by it, then FW_LAYOUT(...) it; read with fw_layout_get(layout, view, off, IDX).
 */
#ifndef FW_LAYOUT_H
#define FW_LAYOUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bits.h"
#include "error.h"
#include "guid.h"
#include "layout-step.h"
#include "node.h"
#include "view.h"

enum fw_ftype {
	FW_FT_U8,
	FW_FT_U16,
	FW_FT_U24,
	FW_FT_U32,
	FW_FT_U64,
	FW_FT_GUID,
	FW_FT_CHARS, /* fixed-length ASCII, NUL/space padded; len = width */
	FW_FT_BYTES, /* opaque bytes; len = width */
	FW_FT_STRUCT, /* a nested structure: len = width, `sub` gives its fields (offsets inside it) */
};

/* field flags */
#define FW_FF_HEX 0x01    /* show as hex */
#define FW_FF_FLAGS 0x02  /* a bit set: `names` points at its bit fields, written "A|B|0x8" */
#define FW_FF_ENUM 0x04   /* names[] gives values */
#define FW_FF_HIDDEN 0x08 /* reserved or covered by another field: not emitted */
#define FW_FF_BITS 0x10   /* named bit fields: `names` points at them (parsers/bits.h) */
#define FW_FF_STRING 0x20 /* an HII string id: writers show the string it names */

struct fw_named_value {
	uint64_t value;
	const char *name;
};

struct fw_field {
	const char *name;
	uint8_t type;
	uint16_t offset;
	uint16_t len; /* for CHARS and BYTES */
	uint16_t flags;
	/* ENUM values: const struct fw_named_value[], ended by {0, NULL}; FW_FF_BITS and
	 * FW_FF_FLAGS: const struct fw_bitfields *; FW_FT_STRUCT: const struct fw_layout *. */
	const void *names;
};

struct fw_layout {
	const char *name;
	uint32_t size;
	const struct fw_field *fields;
	size_t nfields;
};

#define FW_LAYOUT(lname, lsize, arr) {lname, lsize, arr, sizeof(arr) / sizeof((arr)[0])}

size_t fw_field_width(const struct fw_field *f);
static inline const struct fw_bitfields *fw_field_bits(const struct fw_field *f)
{
	return f->names;
}
static inline const struct fw_layout *fw_field_sub(const struct fw_field *f)
{
	return f->names;
}
/* Check that the whole structure fits at `off`; the error names the layout. */
bool fw_layout_check(const struct fw_layout *l, const struct fw_view *v, size_t off, struct fw_error *err);
/* Integer field (U8..U64); the caller ran fw_layout_check first. */
uint64_t fw_layout_get(const struct fw_layout *l, const struct fw_view *v, size_t off, unsigned idx);
/* The integer field f whose bytes start at p (0 for a field that is not U8..U64). */
uint64_t fw_field_int(const struct fw_field *f, const uint8_t *p);
void fw_layout_get_guid(const struct fw_layout *l, const struct fw_view *v, size_t off, unsigned idx,
			struct fw_guid *out);
const uint8_t *fw_layout_ptr(const struct fw_layout *l, const struct fw_view *v, size_t off, unsigned idx);
/* Fixed-width ASCII as text: stops at NUL, '.' for unprintable bytes, trailing spaces cut. */
char *fw_field_chars(const uint8_t *p, size_t width, char *buf, size_t len);
/* Put every visible field on the node, in table order. */
void fw_layout_emit(struct fw_tree *t, struct fw_node *n, const struct fw_layout *l, const struct fw_view *v,
		    size_t off);

/* fw_layout_step_start / fw_layout_step_next: layout-step.h (node.h includes it) */

/* Encoder side (sample builder, tests). */
void fw_layout_put(const struct fw_layout *l, uint8_t *buf, unsigned idx, uint64_t value);
void fw_layout_put_guid(const struct fw_layout *l, uint8_t *buf, unsigned idx, const struct fw_guid *g);
void fw_layout_put_bytes(const struct fw_layout *l, uint8_t *buf, unsigned idx, const void *p, size_t n);

/* Name tables */
const char *fw_named_value_name(const struct fw_named_value *names, uint64_t value);

#endif
