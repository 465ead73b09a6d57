/* The setup forms of the sample BIOS: a small language for writing formsets the way a VFR file
 * does (forms, goto references, questions, suppress/grey-out conditions), which emits IFR and at
 * the same time records the model the other parts need: varstores with their field offsets and
 * defaults, questions with their menu paths, and the changes planted between BIOS versions.
 *
 * A formset is written as a C function (forms-setup.c, forms-cbs.c) that is run twice: the first
 * pass numbers the questions and records the goto graph, the second emits IFR with every forward
 * reference (a condition on a question defined further down) resolved.
 *
 * To add a setting: declare its varstore field in the formset's varstore function, then add one
 * q_oneof/q_numeric/q_checkbox/q_string call in the form where it belongs (see samples/README.md). */
#ifndef SAMPLES_FORMS_H
#define SAMPLES_FORMS_H

#include "encode-hii.h"
#include "sample.h"

/* ---- varstores ---------------------------------------------------------------------------- */
enum { VF_FIELD, VF_BITS, VF_RESERVED, VF_FIXED };
struct vfield {
	const char *name;
	uint8_t kind;     /* VF_* */
	uint32_t offset;  /* bytes; bits for VF_BITS */
	uint32_t width;   /* bytes; bits for VF_BITS */
	uint64_t std, mfg; /* defaults (VF_FIXED: the value) */
	bool has_question;
};
struct varstore {
	const char *name;
	struct fw_guid guid;
	uint16_t id;
	bool efi;          /* VARSTORE_EFI rather than VARSTORE */
	uint32_t attributes; /* EFI variable attributes */
	uint32_t size;
	struct vfield *fields;
	size_t nfields, cap;
	uint8_t filler_seed; /* selects the bytes of reserved space */
};
struct varstore *vs_new(const char *name, const char *guid, uint16_t id, uint32_t attributes);
void vs_field(struct varstore *vs, const char *name, uint32_t width);
void vs_bits(struct varstore *vs, const char *name, uint32_t bits);
void vs_reserved(struct varstore *vs, uint32_t width);
void vs_fixed(struct varstore *vs, const char *name, uint32_t width, uint64_t value);
void vs_pad_to(struct varstore *vs, uint32_t offset);
struct vfield *vs_find(const struct varstore *vs, const char *name);
/* The default bytes (which = 0 standard, 1 manufacturing). Caller frees. */
uint8_t *vs_defaults(const struct varstore *vs, int which);
/* Set a field in a data buffer of this varstore. */
void vs_set(const struct varstore *vs, uint8_t *data, const char *name, uint64_t value);
uint64_t vs_get(const struct varstore *vs, const uint8_t *data, const char *name);

/* ---- questions ---------------------------------------------------------------------------- */
enum { QK_ONEOF, QK_NUMERIC, QK_CHECKBOX, QK_STRING, QK_PASSWORD, QK_REF };
struct opt {
	const char *text;
	uint64_t value;
};
#define OPTS(...) ((const struct opt[]){__VA_ARGS__, {NULL, 0}})

struct qdef {
	const char *prompt, *help;
	const char *field;      /* varstore field; "store.field" to name another varstore */
	const struct opt *opts; /* one-of options */
	uint64_t def;           /* standard default (value, or 1/0 for a checkbox) */
	bool mfg_set;           /* manufacturing default differs */
	uint64_t mfg;
	uint64_t min, max, step; /* numeric range; one-of Min/Max as VfrCompile derives them */
	bool hex;               /* numeric shown in hex */
	uint8_t qflags;         /* question flags; 0 means the formset's usual flags */
	uint16_t qid;           /* explicit question id (callback keys), 0 = next in sequence */
	uint8_t max_size;       /* string/password length in characters */
	bool default_ops;       /* defaults as DEFAULT opcodes (AMI style) rather than option flags */
	const uint64_t *extra_defaults; /* further options flagged DEFAULT (real firmware has them) */
};

struct question {
	uint8_t kind;
	const char *prompt, *help, *path, *field;
	uint16_t qid, form_id;
	const struct varstore *vs;
	const struct vfield *f;
	uint64_t def, mfg;
	const struct opt *opts; /* one-of options */
	uint64_t min, max;      /* numeric range */
};

/* ---- formset generation ------------------------------------------------------------------- */
struct formref {
	uint16_t form, parent;
	const char *prompt;
};
struct qidmap {
	const char *field;
	uint16_t qid;
};
struct formset {
	const char *module;       /* FFS module name (UI section) */
	struct fw_guid guid;      /* formset GUID */
	const char *title, *help;
	uint8_t class_id;
	const char *path_prefix;  /* menu path above the formset's root form ("Advanced") */
	uint8_t usual_qflags;
	bool amd_style;           /* AMD CBS encoding: scoped first condition operand, option-flag defaults */
	bool config_keywords;     /* x-UEFI-AMI keyword strings from field names */
	const char *keyword_suffix;
	struct varstore *vs[24];
	size_t nvs;
	struct question *q;
	size_t nq, qcap;
	struct strtab st;
	struct ifr ifr;
	/* generator state */
	int pass, version;
	uint16_t next_qid, form;
	struct formref refs[256];
	size_t nrefs;
	struct qidmap qids[512];
	size_t nqids;
	size_t cond_first_op; /* the condition being written: its first operand, operand count */
	int cond_ops;
};

void fs_run(struct formset *fs, int version, void (*define)(struct formset *));
void fs_free(struct formset *fs);
struct varstore *fs_varstore(struct formset *fs, const char *name);
/* The first storage question (not a goto) with this prompt */
const struct question *fs_question(const struct formset *fs, const char *prompt);
/* Menu path of a form ("Advanced > AMD CBS > NBIO Common Options") */
const char *fs_form_path(const struct formset *fs, uint16_t form);

/* Inside a define function */
void f_formset_begin(struct formset *fs);
void f_formset_end(struct formset *fs);
void f_varstore(struct formset *fs, struct varstore *vs);
void f_form(struct formset *fs, uint16_t id, const char *title);
void f_form_end(struct formset *fs);
void f_subtitle(struct formset *fs, const char *text);
void f_text(struct formset *fs, const char *prompt, const char *value);
void f_ref(struct formset *fs, const char *prompt, const char *help, uint16_t form);
void f_ref_formset(struct formset *fs, const char *prompt, const struct fw_guid *formset, uint16_t form);
void f_label(struct formset *fs, uint16_t number);
void q_oneof(struct formset *fs, const struct qdef *d);
void q_numeric(struct formset *fs, const struct qdef *d);
void q_checkbox(struct formset *fs, const struct qdef *d);
void q_string(struct formset *fs, const struct qdef *d);
void q_password(struct formset *fs, const struct qdef *d);

/* Conditions, in postfix order as IFR stores them:
 *   c_suppress(fs); x_ne(fs, "CbsCmnCpuSmee", 1); c_body(fs); ...questions...; c_end(fs); */
void c_suppress(struct formset *fs);
void c_grayout(struct formset *fs);
void c_body(struct formset *fs);
void c_end(struct formset *fs);
void x_eq(struct formset *fs, const char *field, uint16_t value);
void x_ne(struct formset *fs, const char *field, uint16_t value); /* EqIdVal + Not */
void x_not(struct formset *fs);
void x_and(struct formset *fs);
void x_or(struct formset *fs);
void x_true(struct formset *fs);
void x_const_equal(struct formset *fs, uint64_t a, uint64_t b); /* Uint64 a, Uint64 b, Equal */

/* Record a planted change (only while generating the newer version's second pass). */
void f_plant(struct formset *fs, const char *change, const char *prompt, const char *what);
void f_plant_at(struct formset *fs, const char *change, const char *prompt, const char *path, const char *what);

#endif
