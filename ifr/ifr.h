/* The IFR decoder: one form package (one FormSet) into a form model (reference/ifr.md 2).
 *
 * The decoder walks the opcodes once. It trusts each opcode's scope bit, never the opcode table,
 * checks every length, and keeps the scope depth balanced. It produces:
 *   - the flat opcode list (offset, depth, bytes) for writers that print opcodes one per line;
 *   - varstores, default stores and forms;
 *   - statements and questions with their options, defaults, limits, storage (offset and width,
 *     bit offset and width inside EDK2 bit-field varstores) and the conditions around them
 *     (suppress-if, gray-out-if, disable-if; inconsistent-if, no-submit-if, warning-if inside).
 * String ids stay ids: text comes from the paired string packages (hii.h).
 *
 * Everything lives in the caller's arena. To support a new opcode: its row in ifr-opcodes.c,
 * its case in ifr-decode.c (decode_op), its line in the ifrextractor writer
 * (tools/cli/ifr-write-ifrx.c) and, if it pushes or pops a value, its arity in ifr-expr.c.
 */
#ifndef FW_IFR_H
#define FW_IFR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ifr-opcodes.h"
#include "parsers/arena.h"
#include "parsers/error.h"
#include "parsers/guid.h"
#include "parsers/view.h"

struct fw_ifr_expr;

/* One opcode as found in the package. */
struct fw_ifr_op {
	const uint8_t *p;  /* the opcode's bytes, header included */
	uint32_t offset;   /* from the start of the form package (its 4-byte header included) */
	uint8_t opcode;
	uint8_t length;    /* 2..127 */
	bool scope;        /* the scope bit: children follow until the matching END */
	uint16_t depth;    /* nesting depth, 0 for FORM_SET */
};

enum fw_ifr_varstore_kind {
	FW_IFR_VS_BUFFER,     /* VARSTORE 0x24 */
	FW_IFR_VS_NAME_VALUE, /* VARSTORE_NAME_VALUE 0x25 */
	FW_IFR_VS_EFI,        /* VARSTORE_EFI 0x26 */
	FW_IFR_VS_DEVICE,     /* VARSTORE_DEVICE 0x27 */
};
const char *fw_ifr_varstore_kind_name(enum fw_ifr_varstore_kind k); /* "buffer", "name-value", "efi", "device" */

struct fw_ifr_varstore {
	enum fw_ifr_varstore_kind kind;
	uint16_t id;
	struct fw_guid guid;
	uint16_t size;       /* buffer / EFI stores with a size; 0 otherwise */
	uint32_t attributes; /* EFI stores */
	bool has_size;       /* EFI stores of the UEFI 2.3.1+ form */
	const char *name;    /* ASCII name, NULL for name/value and old EFI stores */
	uint16_t device_path; /* VARSTORE_DEVICE: string id */
	uint32_t op_index;
};

struct fw_ifr_defaultstore {
	uint16_t id;
	uint16_t name; /* string id */
};
/* "standard", "manufacturing", "safe", "platform-N", "hardware-N", "firmware-N" */
const char *fw_ifr_default_id_name(uint16_t id, char *buf, size_t len);

enum fw_ifr_cond_kind {
	FW_IFR_COND_SUPPRESS,     /* hidden */
	FW_IFR_COND_GRAYOUT,      /* visible, read-only */
	FW_IFR_COND_DISABLE,      /* not processed at all */
	FW_IFR_COND_INCONSISTENT, /* value rejected when true (error text) */
	FW_IFR_COND_NO_SUBMIT,    /* form cannot be submitted when true */
	FW_IFR_COND_WARNING,      /* warning shown when true */
};
const char *fw_ifr_cond_kind_name(enum fw_ifr_cond_kind k); /* "suppress-if", "gray-out-if", ... */

/* A condition scope. Conditions nest: `parent` is the enclosing one (NULL at the top). */
struct fw_ifr_cond {
	enum fw_ifr_cond_kind kind;
	struct fw_ifr_expr *expr; /* NULL when the expression could not be built */
	const struct fw_ifr_op *rpn; /* the expression opcodes as found (postfix) */
	uint32_t nrpn;
	uint16_t text;            /* error/warning string id (inconsistent, no-submit, warning) */
	uint8_t timeout;          /* warning-if */
	struct fw_ifr_cond *parent;
	uint32_t op_index;
	/* the settings model's memo: a condition around many questions is rendered and tested once */
	const char *rendered;     /* its text over the formset's prompts; NULL until rendered */
	int8_t constant;          /* 0 not yet known, 1 false whatever the values, -1 not */
};

/* A typed IFR value (ONE_OF_OPTION, DEFAULT). */
struct fw_ifr_value {
	uint8_t type;       /* FW_IFR_TYPE_* */
	uint64_t u;         /* numbers, booleans, string ids; hh:mm:ss and yyyy-mm-dd packed as bytes */
	const uint8_t *raw; /* the encoded value */
	uint32_t raw_len;
};

struct fw_ifr_option {
	uint16_t text;      /* string id */
	uint8_t flags;      /* FW_IFR_OPTION_DEFAULT | _DEFAULT_MFG */
	struct fw_ifr_value value;
	struct fw_ifr_cond *cond; /* a condition opened inside the question scope, around this option */
};

struct fw_ifr_default {
	uint16_t store_id;
	bool has_value;           /* false: an expression that is not constant */
	struct fw_ifr_value value;
	struct fw_ifr_expr *expr; /* DEFAULT with a VALUE expression */
	bool from_flags;          /* from option/checkbox flags rather than a DEFAULT opcode */
};

enum fw_ifr_kind {
	FW_IFR_K_SUBTITLE,
	FW_IFR_K_TEXT,
	FW_IFR_K_IMAGE,
	FW_IFR_K_RESET_BUTTON,
	FW_IFR_K_ONE_OF,
	FW_IFR_K_CHECKBOX,
	FW_IFR_K_NUMERIC,
	FW_IFR_K_PASSWORD,
	FW_IFR_K_ACTION,
	FW_IFR_K_REF,
	FW_IFR_K_DATE,
	FW_IFR_K_TIME,
	FW_IFR_K_STRING,
	FW_IFR_K_ORDERED_LIST,
};
/* "subtitle", "text", "image", "reset-button", "one-of", "checkbox", "numeric", "password",
 * "action", "ref", "date", "time", "string", "ordered-list" */
const char *fw_ifr_kind_name(enum fw_ifr_kind k);

/* Question flags (@12 of the question header): FW_IFR_QF_* in ifr/ifr-layout.h */

struct fw_ifr_form;

/* A statement (subtitle, text, ...) or a question (the rest). */
struct fw_ifr_question {
	enum fw_ifr_kind kind;
	bool is_question;       /* has the question header */
	uint32_t op_index;      /* into fw_ifr_formset.ops */
	struct fw_ifr_form *form;
	uint16_t prompt, help;  /* string ids */
	uint16_t text2;         /* TEXT: TextTwo */
	uint16_t question_id;
	uint16_t varstore_id;   /* 0 = no storage */
	uint16_t var_info;      /* offset (buffer/EFI stores, in bits inside bit-field scope) or name string id */
	uint8_t qflags;
	uint8_t flags;          /* opcode-specific flags */
	bool bit_field;         /* inside an EDKII bit-varstore GUID scope */
	uint32_t bit_offset, bit_width;
	uint32_t width;         /* bytes of storage (rounded up for bit fields); 0 = none */
	uint64_t min, max, step;
	bool has_limits;
	uint8_t display;        /* numeric display: 0 int-dec, 1 uint-dec, 2 uint-hex */
	uint8_t max_containers; /* ordered list */
	uint16_t min_size, max_size; /* string, password (characters) */
	/* REF */
	uint16_t ref_form_id, ref_question_id, ref_devpath;
	bool has_ref_form, has_ref_question, has_ref_formset, has_ref_devpath;
	struct fw_guid ref_formset;
	uint16_t reset_default_id; /* RESET_BUTTON */
	uint16_t question_config;  /* ACTION: config string id, 0 = none */
	uint8_t refresh_interval;  /* REFRESH inside the question, seconds */
	bool has_refresh_id;       /* REFRESH_ID inside the question */
	bool locked;
	struct fw_ifr_option *options;
	uint32_t noptions;
	struct fw_ifr_default *defaults; /* one per default store, DEFAULT opcodes over flags */
	uint32_t ndefaults;
	struct fw_ifr_cond *cond;        /* innermost enclosing condition (suppress/grayout/disable) */
	struct fw_ifr_cond **checks;     /* inconsistent-if, no-submit-if, warning-if in its scope */
	uint32_t nchecks;
	struct fw_ifr_expr *value_expr;  /* VALUE: a calculated value */
	struct fw_ifr_question *next_in_form;
};

struct fw_ifr_form {
	uint16_t id;
	uint16_t title;  /* string id */
	bool is_map;     /* FORM_MAP */
	uint32_t op_index;
	struct fw_ifr_cond *cond; /* condition around the whole form */
	struct fw_ifr_question *first, *last; /* statements and questions in opcode order */
	uint32_t count;
};

struct fw_ifr_diag {
	struct fw_ifr_diag *next;
	uint32_t offset; /* in the package */
	const char *msg;
};

struct fw_ifr_formset {
	struct fw_guid guid;
	uint16_t title, help;   /* string ids */
	uint8_t flags;
	struct fw_guid class_guids[3];
	uint8_t nclass_guids;
	int class_id, subclass_id; /* EDK2 CLASS/SUBCLASS GUID ops, -1 when absent */
	struct fw_view package;  /* the whole form package */
	struct fw_ifr_op *ops;
	uint32_t nops;
	struct fw_ifr_varstore *varstores;
	uint32_t nvarstores;
	struct fw_ifr_defaultstore *defaultstores;
	uint32_t ndefaultstores;
	struct fw_ifr_form *forms;
	uint32_t nforms;
	struct fw_ifr_question **items; /* every statement and question, opcode order */
	uint32_t nitems;
	struct fw_ifr_question **by_qid; /* questions sorted by question id (first of duplicates wins) */
	uint32_t nby_qid;
	uint16_t *string_ids;   /* every string id the package references, sorted, unique, 0 excluded */
	uint32_t nstring_ids;
	struct fw_ifr_diag *diags, *diags_tail;
	uint32_t ndiags;
};

/* Walk and validate a form package without building anything: every length 2..127 and inside
 * the package, the first opcode FORM_SET, scope depth never negative and back to zero exactly at
 * the end. The discovery scan runs this on every candidate. */
bool fw_ifr_check_package(const struct fw_view *pkg, struct fw_error *err);

/* Decode a form package (from its 4-byte header). Fails only on a package that does not pass
 * fw_ifr_check_package; a malformed opcode inside a valid walk becomes a diagnostic. */
bool fw_ifr_decode(struct fw_arena *a, const struct fw_view *pkg, struct fw_ifr_formset *out, struct fw_error *err);

const struct fw_ifr_varstore *fw_ifr_find_varstore(const struct fw_ifr_formset *fs, uint16_t id);
const struct fw_ifr_question *fw_ifr_find_question(const struct fw_ifr_formset *fs, uint16_t qid);
const struct fw_ifr_form *fw_ifr_find_form(const struct fw_ifr_formset *fs, uint16_t form_id);
/* The default for a default store, or NULL. */
const struct fw_ifr_default *fw_ifr_question_default(const struct fw_ifr_question *q, uint16_t store_id);
/* The option whose value equals v, or NULL. */
const struct fw_ifr_option *fw_ifr_option_for(const struct fw_ifr_question *q, uint64_t v);
/* Does the question store a value (one-of, checkbox, numeric, string, password, date, time,
 * ordered list with a varstore)? */
bool fw_ifr_question_has_value(const struct fw_ifr_question *q);

/* Read a little-endian value of `size` bytes (1, 2, 4 or 8) from p; other sizes give 0. */
uint64_t fw_ifr_read_le(const uint8_t *p, size_t size);

#endif
