/* GUIDs: on-disk byte order (Data1 u32 LE, Data2 u16 LE, Data3 u16 LE, Data4[8] bytes), the
 * registry text form, and the name table (parsers/guid-names.def, compiled in).
 *
 * To name a new GUID: add one GUID_NAME line to parsers/guid-names.def with its source.
 */
#ifndef FW_GUID_H
#define FW_GUID_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct fw_guid {
	uint8_t b[16];
};

#define FW_GUID_STR_LEN 37 /* 36 characters and the NUL */

/* Upper-case registry format, e.g. "8C8CE578-8A3D-4F1C-9935-896185C32DD3". */
char *fw_guid_format(const struct fw_guid *g, char out[FW_GUID_STR_LEN]);
/* Lower-case form used by efivarfs file names. */
char *fw_guid_format_lower(const struct fw_guid *g, char out[FW_GUID_STR_LEN]);
/* Parse the registry form (either case, surrounding braces allowed). */
bool fw_guid_parse(const char *s, struct fw_guid *out);
bool fw_guid_eq(const struct fw_guid *a, const struct fw_guid *b);
bool fw_guid_is_zero(const struct fw_guid *g);
bool fw_guid_is_ones(const struct fw_guid *g);

/* Name from the compiled-in table, or NULL. `kind` tells what the name describes. */
struct fw_guid_name {
	struct fw_guid guid;
	const char *name;
	const char *kind;   /* "module", "volume", "section", "variable", "formset", "capsule", "protocol", ... */
	const char *source; /* where the name comes from */
};
const struct fw_guid_name *fw_guid_lookup(const struct fw_guid *g);
const char *fw_guid_name(const struct fw_guid *g);
/* Look up by name (case-sensitive, first match); for "--module Setup". */
const struct fw_guid_name *fw_guid_lookup_name(const char *name);
size_t fw_guid_table_size(void);
const struct fw_guid_name *fw_guid_table_at(size_t i);

/* Constant GUIDs used by the parsers, defined from their registry strings once. */
#define FW_GUID_INIT(d1, d2, d3, b0, b1, b2, b3, b4, b5, b6, b7)                                                   \
	{                                                                                                          \
		{ (uint8_t)(d1), (uint8_t)((d1) >> 8), (uint8_t)((d1) >> 16), (uint8_t)((d1) >> 24), (uint8_t)(d2),   \
		  (uint8_t)((d2) >> 8), (uint8_t)(d3), (uint8_t)((d3) >> 8), b0, b1, b2, b3, b4, b5, b6, b7 }          \
	}

#endif
