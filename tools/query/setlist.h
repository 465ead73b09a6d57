/* The settings the query layer searches and compares: one flat record per setup option, built
 * from the settings model (ifr/settings.h) or read back from a settings list in JSON (the shape
 * of `fwlens settings --format json` or `--format jsonl`), so `find`, `query` and `diff` work the
 * same on a BIOS image, a machine with its image, and a list saved earlier or piped in.
 *
 * Strings point into the settings model or into the list's own arena; a list built from a model
 * must not outlive it. */
#ifndef FW_SETLIST_H
#define FW_SETLIST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ifr/settings.h"
#include "parsers/arena.h"
#include "parsers/error.h"

struct fw_setlist_option {
	const char *text;
	uint64_t value;
	bool is_default;  /* flagged default (standard store) on the option itself */
	const char *cond; /* condition around this option only, or NULL */
};

struct fw_setlist_default {
	uint16_t store_id;
	const char *store; /* "standard", "manufacturing", ... */
	bool has_value;
	uint64_t value;
	const char *text;  /* option text of the value, or NULL */
	const char *expr;  /* a non-constant default, or NULL */
};

struct fw_setlist_cond {
	const char *kind;  /* "suppress-if", "gray-out-if", "disable-if" */
	const char *text;  /* "SMEE != Enable" */
	int state;         /* 1 true, 0 false, -1 unknown */
};

struct fw_setlist_item {
	const char *kind;          /* "one-of", "checkbox", "numeric", ... */
	const char *prompt, *help;
	const char *keyword;       /* x-UEFI keyword ("PCIS007"), or NULL */
	const char *path;          /* first menu path, or NULL when no menu reaches it */
	const char **paths;
	uint32_t npaths;
	const char *module;        /* FFS file GUID of the module (upper case), or NULL */
	const char *module_name;   /* "CbsSetupDxeSHP", or NULL */
	const char *formset;       /* formset GUID, or NULL */
	uint16_t question_id;
	const char *varstore;      /* name, or NULL */
	const char *varstore_guid; /* upper case, or NULL */
	bool has_offset;
	uint32_t offset, width;
	bool bit_field;
	uint32_t bit_offset, bit_width;
	bool has_limits;
	uint64_t min, max, step;
	struct fw_setlist_option *options;
	uint32_t noptions;
	struct fw_setlist_default *defaults;
	uint32_t ndefaults;
	struct fw_setlist_cond *conds;
	uint32_t nconds;
	/* current value, when the list was bound to variables */
	bool has_current;
	uint64_t current;          /* numbers, one-of, checkbox */
	const char *current_text;  /* option text, string value, or hex bytes */
	bool current_valid;
	bool current_text_only;    /* the value is known as text only (no number stands for it) */
	int hidden, grayed;        /* 1, 0, -1 unknown */
	const struct fw_setting *setting; /* the model record, NULL for a list read from JSON */
};

struct fw_setlist {
	struct fw_arena arena;
	struct fw_setlist_item *items;
	size_t n;
	bool bound;                /* current values are known (some may still be missing) */
	const char *origin;        /* what the list was read from, for messages */
	const char *current_source; /* where current values came from ("NVAR store of X.CAP @0x1BE1090"), or NULL */
};

/* Largest JSON settings list read (bytes) and most records kept. */
#define FW_SETLIST_MAX_JSON ((size_t)512 << 20)
#define FW_SETLIST_MAX_ITEMS 2000000u

struct fw_setlist_limits {
	size_t max_json;  /* bytes of JSON */
	size_t max_items; /* records */
};

/* Flatten a settings model (bound or not). */
void fw_setlist_from_settings(const struct fw_settings *s, const char *origin, struct fw_setlist *out);
/* The settings a kernel driver exposes through the firmware-attributes class, with their current
 * values (setlist-fwattrs.c). */
struct fw_fwattrs;
void fw_setlist_from_fwattrs(const struct fw_fwattrs *a, const char *origin, struct fw_setlist *out);
/* Read a settings list: {"settings": [...]}, a bare array, or one object per line (jsonl).
 * Records without a prompt are refused with the record number. */
bool fw_setlist_from_json(const char *text, size_t len, const char *origin, struct fw_setlist *out,
			  struct fw_error *err);
/* The same under limits of the caller's (NULL: FW_SETLIST_MAX_JSON and FW_SETLIST_MAX_ITEMS), so
 * tests reach a limit without building half a gigabyte of JSON. */
bool fw_setlist_from_json_limited(const char *text, size_t len, const char *origin,
				  const struct fw_setlist_limits *limits, struct fw_setlist *out, struct fw_error *err);
void fw_setlist_free(struct fw_setlist *l);

/* Is the record from the module `want` (its name, case ignored, or its GUID or a GUID prefix of
 * at least 4 characters), as --module means everywhere? */
bool fw_setlist_item_in_module(const struct fw_setlist_item *it, const char *want);
/* Keep only the records of module `want`; false when none is left. */
bool fw_setlist_keep_module(struct fw_setlist *l, const char *want);

/* The standard-store default, or NULL. */
const struct fw_setlist_default *fw_setlist_default(const struct fw_setlist_item *it);
/* Readable default ("Auto", "100"), into buf when it needs formatting; NULL when none. */
const char *fw_setlist_default_text(const struct fw_setlist_item *it, char *buf, size_t len);
/* Readable current value, NULL when unknown. */
const char *fw_setlist_current_text(const struct fw_setlist_item *it, char *buf, size_t len);
/* Text of a value of this setting ("Enabled" for an option or a checkbox, else the number). */
const char *fw_setlist_value_text(const struct fw_setlist_item *it, uint64_t v, char *buf, size_t len);
/* All the conditions joined: "suppress-if SMEE != Enable; gray-out-if ...", in the arena; NULL
 * when there are none. */
const char *fw_setlist_condition(struct fw_setlist *l, const struct fw_setlist_item *it);

#endif
