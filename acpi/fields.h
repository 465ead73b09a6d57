/* Tables described by data: a decoder row (acpi/decode.h) that carries a `struct fw_acpi_layout`
 * needs no code. The layout says where every field sits (parsers/layout.h field tables, offsets
 * from the start of the table, as in ACPICA's dmtbinfo) and what follows the fixed part:
 * subtables with a type and a length, fixed-size entries, or a square matrix of distances.
 *
 * Decoding turns the bytes into a document (`struct fw_acpi_doc`): a list of parts (the fixed
 * part, then each subtable or entry: its layout and place); the values of its fields are read
 * from the bytes when a writer asks for them, so a decoded table costs 40 bytes a structure. The
 * JSON, text and diff writers read only the document and the field tables, so a table described
 * here is written and compared the same way as every other one.
 */
#ifndef FW_ACPI_FIELDS_H
#define FW_ACPI_FIELDS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "acpi/table.h"
#include "parsers/layout.h"

/* One subtable type: its fields (offsets inside the subtable). When `count_field` >= 0 the
 * subtable has no length of its own and is followed by count x `item` structures, the count
 * read from that field (HEST's machine-check banks). With `count_field` -1 and an `item`, the
 * rest of the subtable after its fields is records of that layout, walked as the table layout's
 * `inner` format says (DMAR's device scopes); they become parts `within` the subtable's. */
struct fw_acpi_subtype {
	uint32_t type;
	const struct fw_layout *layout;
	int count_field;
	const struct fw_layout *item;
};

enum fw_acpi_rest {
	FW_ACPI_REST_NONE,    /* only the fixed part */
	FW_ACPI_REST_RECORDS, /* subtables with a type (and a length unless the type fixes it) */
	FW_ACPI_REST_ENTRIES, /* fixed-size entries of one layout */
	FW_ACPI_REST_MATRIX,  /* N x N bytes, N from count_field (CDIT, like SLIT) */
};

struct fw_acpi_view;

struct fw_acpi_layout {
	const struct fw_layout *fixed; /* fields at table offsets; size = where the rest starts */
	uint32_t min_size;             /* a shorter table is reported; up to fixed->size later fields
	                                  are simply absent (older revisions); 0: fixed->size */
	enum fw_acpi_rest rest;
	int start_field;               /* a field of `fixed` giving where the rest starts, or -1 */
	int count_field;               /* a field of `fixed` giving how many entries, or -1: to the end */
	/* RECORDS */
	struct fw_acpi_record_format records; /* length_width 0: the length comes from the subtype */
	const struct fw_acpi_subtype *types;
	size_t ntypes;
	/* ENTRIES */
	const struct fw_layout *entry;
	/* RECORDS: the records inside a subtable (fw_acpi_subtype.item) */
	struct fw_acpi_record_format inner;
	/* Records inside a subtable that have no length field (IVRS device entries): each one's
	   length from its bytes (`left` of them; may be more than left, then the walk stops), its
	   layout from its type in `inner_types` (`item` of the subtype when the type is not there). */
	size_t (*inner_length)(const uint8_t *p, size_t left);
	const struct fw_acpi_subtype *inner_types;
	size_t ninner_types;
	/* The hook walks the bytes too and reports what is malformed in its own words and order:
	   the layout's walk adds no diagnostics. */
	bool hook_reports;
	/* A JSON shape and text of the table's own (NULL: the generic "fields"/"subtables" form). */
	const struct fw_acpi_view *view;
};

/* A field's value, read from the table's bytes when asked for (fw_acpi_values_next,
 * fw_acpi_part_value): a document keeps its parts, never their values. Integer fields have `u`;
 * every field has `p`, its bytes in the table. */
struct fw_acpi_value {
	const struct fw_field *field;
	const struct fw_field *parent; /* the FW_FT_STRUCT field it sits in, or NULL */
	uint32_t offset;               /* in the table */
	uint64_t u;
	const uint8_t *p;
};

/* One structure of the table: 40 bytes whatever its fields (1,000 IVRS tables keep 71,000). */
struct fw_acpi_part {
	const struct fw_layout *layout; /* NULL for a subtable nobody described */
	const uint8_t *bytes; /* its first byte in the table */
	int64_t type;      /* subtable type, -1 for the fixed part and entries */
	uint32_t offset;   /* in the table */
	uint32_t length;
	uint32_t within;   /* the part this one is a record of (DMAR device scopes), 0 for none */
	bool described;    /* false: a subtable type nobody described (only type and length known) */
};

/* "fixed part", "generic communications subspace": the layout's name; "not described". */
static inline const char *fw_acpi_part_what(const struct fw_acpi_part *p)
{
	return p->layout ? p->layout->name : "not described";
}

/* The values of a part in field order, nested structures' fields in place (hidden fields and
 * fields that end past the part's length left out):
 *   struct fw_acpi_values it = fw_acpi_values_of(p); struct fw_acpi_value v;
 *   while (fw_acpi_values_next(&it, &v)) ... */
struct fw_acpi_values {
	const struct fw_acpi_part *p;
	struct fw_layout_step step; /* parsers/layout.h: the layout's frames */
};
struct fw_acpi_values fw_acpi_values_of(const struct fw_acpi_part *p);
bool fw_acpi_values_next(struct fw_acpi_values *it, struct fw_acpi_value *out);

struct fw_acpi_doc {
	const struct fw_acpi_layout *layout;
	struct fw_acpi_part *parts; /* parts[0] is the fixed part */
	size_t nparts, cap;
	const uint8_t *matrix;      /* MATRIX: n x n bytes */
	uint32_t matrix_n;
};

/* Decode a table through its layout; problems become diagnostics on the table. */
struct fw_acpi_doc *fw_acpi_fields_decode(struct fw_acpi_table *t, const struct fw_acpi_layout *l,
					  struct fw_arena *a);

/* "0x10228201", "12", "AMD", "c68ed8e2-...": the value as every writer shows it (hex for
 * FW_FF_HEX/FLAGS/BITS and 64-bit fields, else decimal). */
const char *fw_acpi_value_str(const struct fw_acpi_value *v, char *buf, size_t len);
/* v in decimal (base 10) or hex (16, `upper` digits) into out (room for 21 bytes); returns the
 * length. The writers format numbers with it rather than printf (a table's text is mostly numbers). */
size_t fw_acpi_num(char *out, uint64_t v, unsigned base, bool upper);
/* The names that go with a value: the ENUM name, the FLAGS names ("A|B") or the bit fields
 * ("Enabled Level=2"); NULL when the field has none. */
const char *fw_acpi_value_names(const struct fw_acpi_value *v, char *buf, size_t len);
/* A field name as a JSON key: "EventTimerBlockId" -> "event_timer_block_id". */
const char *fw_field_key(const char *name, char *buf, size_t len);
/* A field's JSON value is a string ("0x..", text, GUID, bytes) rather than a number. */
bool fw_acpi_value_is_text(const struct fw_acpi_value *v);

/* The value of the field `name` ("BaseAddress", "ResetRegister.SpaceId") in a part, read into
 * `room`: returns room, or NULL when the part does not reach it. */
const struct fw_acpi_value *fw_acpi_part_value(const struct fw_acpi_part *p, const char *name, struct fw_acpi_value *room);

/* --- tables that keep a JSON shape and text of their own ----------------------------------------
 *
 * A view says, per part layout, which values the JSON object holds (under which key, as what) and
 * the text lines; the writers follow it (tools/cli/acpi-json.c, acpi-text.c), diff compares the
 * document field by field as for every other layout. Values the bytes do not hold directly (X_DSDT
 * or else DSDT, a checksum verdict, the table an address points at) come from a `derive` hook. */
enum fw_acpi_as {
	FW_AS_NUMBER, /* a JSON number */
	FW_AS_HEX,    /* "0x.." */
	FW_AS_NAME,   /* the ENUM name, or null */
	FW_AS_FLAGS,  /* the number, and KEY_names: the FLAGS names as an array */
	FW_AS_BOOL,
	FW_AS_TEXT,   /* a string (derived); the number when the derived value has no string */
	FW_AS_LIST,   /* an array of little-endian u32 (derived `list`) */
	FW_AS_LINES,  /* an array of strings (derived `lines`) */
	FW_AS_PARTS,  /* an array of the parts whose layout is called `name`, each as its shape shows it:
	                 in the fixed part the parts of the table, in a subtable the records within it */
	FW_AS_COUNTS, /* an object: per subtable type in ascending order, the derived `name` of its first
	                 part and how many parts have that type */
	FW_AS_BITS,   /* an object {"value": "0x..", Name: bool | number, "reserved_bits": "0x.."} of the
	                 derived `bits` (or the field's FW_FF_BITS) */
	FW_AS_TOKENS, /* an array of bit tokens ["INITPass", "SysMgt=1"], bits as for FW_AS_BITS */
	FW_AS_ROWS,   /* an array of objects: derived `nrows` x `ncols` cells under the keys `cols` */
};

/* One value of a derived row: a string, or the number when `s` is NULL; JSON null when `null`. */
struct fw_acpi_cell {
	const char *s;
	int64_t n;
	bool null;
};

struct fw_acpi_derived {
	uint64_t u;
	const char *s;
	const uint8_t *list; /* FW_AS_LIST: nlist x u32 */
	size_t nlist;
	const char *const *lines; /* text lines of their own ("{*Name}") */
	size_t nlines;
	unsigned indent;     /* spaces before each of the lines, after the usual two */
	const struct fw_bitfields *bits; /* FW_AS_BITS, FW_AS_TOKENS, "{Name:bits}" */
	const char *const *cols; /* FW_AS_ROWS */
	size_t ncols, nrows;
	const struct fw_acpi_cell *cells; /* nrows x ncols */
	size_t key_cols;     /* FW_AS_ROWS: how many leading cells name a row (diff pairs rows by them) */
	bool compared;       /* diff compares this derived list or rows too (what the fields alone do
	                        not hold: HMAT's matrix, CEDT's targets) */
	bool null;           /* present, written as JSON null */
	struct fw_acpi_value value; /* a field's value (fw_acpi_show_value points at it) */
	const char *names[40]; /* room for `lines` a derive function lists */
	char buf[512];       /* room for `s` */
};
/* Fill `out` with the derived value `name` for part `part` of the table's document; false: the
 * value is absent. One function serves every derived value of a table. */
typedef bool (*fw_acpi_derive_fn)(const struct fw_acpi_table *t, size_t part, const char *name,
				  struct fw_acpi_derived *out);

struct fw_acpi_show {
	const char *key;          /* JSON key ("outer.key" puts it in object "outer"); NULL: text only */
	const char *name;         /* a field of the part, the name of a derived value, or "@offset",
	                             "@type", "@length": the part's place, subtable type and length */
	uint8_t as;               /* enum fw_acpi_as */
	bool null_if_absent;      /* else an absent value leaves its key out */
	fw_acpi_derive_fn derive; /* NULL for a field */
};

/* One part layout's JSON object and text lines. Lines are NULL-ended, written after two spaces:
 * "{Name}" is the value as every writer shows it (fw_acpi_value_str), "{Name:%04x}" a printf
 * conversion of it, "{Name:names}" its FLAGS names ("none" for 0), "{Name:name|other}" its ENUM
 * name (or "other"), "{Name:list}" a derived list as " 7 8", "{Name:bits}" its bit fields ("EFRSup
 * GVAsize=2"), "{#bold}" a colour of the terminal ("{#reset}" ends it). A line with an absent value is left out;
 * "{?Name...}" instead writes nothing; a line starting "{!Name}" is written only when Name is not
 * zero. A line "{*Name}" stands for several: the text of each part a FW_AS_PARTS show `Name`
 * lists, or the derived `lines` of Name. An empty line "" writes an empty line. A part whose shape
 * has a derived "@listed" that is false is left out of every list (an END entry joined to its START). */
struct fw_acpi_shape {
	const struct fw_layout *layout;
	const struct fw_acpi_show *show;
	size_t nshow;
	const char *const *text;
};

/* diff's report of one difference: what differs, the two values, an optional note. */
typedef void (*fw_acpi_change_fn)(void *ctx, const char *what, const char *a, const char *b, const char *note);
/* Two tables of one signature compared by what they mean (domains, IOMMUs), for a table whose
 * field-by-field differences would bury that; diff compares field by field when it finds none. */
typedef void (*fw_acpi_compare_fn)(const struct fw_acpi_table *a, const struct fw_acpi_table *b,
				   fw_acpi_change_fn change, void *ctx);

struct fw_acpi_view {
	const struct fw_acpi_shape *shapes;
	size_t nshapes;
	const char *list_key; /* the JSON array of the parts after the fixed part; NULL: only the
	                         FW_AS_PARTS shows of the fixed part list parts */
	fw_acpi_compare_fn compare; /* or NULL */
	bool compare_only;          /* diff reports what `compare` finds and nothing field by field */
};

/* What every subtable of a listing shows first: its place, kind (the derived "TypeName"), type
 * and length; its text lines start "{@offset:@0x%03x} {TypeName}". */
#define FW_ACPI_SHOW_SUBTABLE(derive)                                                                             \
	{"offset", "@offset", FW_AS_NUMBER, false, NULL}, {"type", "TypeName", FW_AS_TEXT, false, derive},            \
		{"type_id", "@type", FW_AS_NUMBER, false, NULL}, {"length", "@length", FW_AS_NUMBER, false, NULL}
#define FW_ACPI_SHAPE(l, show, text) {l, show, sizeof(show) / sizeof((show)[0]), text}
#define FW_ACPI_VIEW(shapes, key) {shapes, sizeof(shapes) / sizeof((shapes)[0]), key, NULL, false}
#define FW_ACPI_COMPARED_VIEW(shapes, key, compare) {shapes, sizeof(shapes) / sizeof((shapes)[0]), key, compare, false}

/* The shape of a part, or NULL. */
const struct fw_acpi_shape *fw_acpi_view_shape(const struct fw_acpi_view *v, const struct fw_acpi_part *p);
/* The shape of part `k` of a table's document when the part is listed, else NULL ("@listed"). */
const struct fw_acpi_shape *fw_acpi_listed_shape(const struct fw_acpi_table *t, size_t k);
/* A shown value: `*u`/`*s` set (s for text fields and derived strings); false when absent. A
 * field's value is read into out->value and *v points at it. */
bool fw_acpi_show_value(const struct fw_acpi_table *t, size_t part, const struct fw_acpi_shape *sh, const char *name,
			const struct fw_acpi_value **v, struct fw_acpi_derived *out);
/* The same for show i of the shape without looking its name up: the shows of one name in a
 * shape have one derive function or none (tests/unit/test-acpi-fields.c checks every view). */
bool fw_acpi_show_value_at(const struct fw_acpi_table *t, size_t part, const struct fw_acpi_shape *sh, size_t i,
			   const struct fw_acpi_value **v, struct fw_acpi_derived *out);

/* Generic-address fields for a layout: a 12-byte FW_FT_STRUCT (acpi/gas.h). */
#define FW_ACPI_GAS(name, off) {name, FW_FT_STRUCT, off, 12, 0, .names = &fw_gas_layout}

#endif
