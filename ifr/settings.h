/* The settings model: every question of every formset, flattened in menu order, with its menu
 * paths, storage, options, defaults, readable conditions and (once bound) its current value.
 *
 * This is the library entry point for the query layer:
 *
 *     struct fw_hii_input in;                         // hii.h
 *     fw_source_open_hii("BIOS.CAP", &(struct fw_hii_options){.lang = "en-US"}, &in, &err);
 *     struct fw_settings s;
 *     fw_settings_build(&in.db, NULL, &s);            // all modules (or "CbsSetupDxeSHP", a GUID)
 *     fw_settings_bind(&s, &vars);                    // values from any struct fw_varlist (nvram.h)
 *     const struct fw_setting *smee = fw_settings_find(&s, "SMEE", NULL);
 *     ... smee->current, smee->current_text, smee->hidden, smee->conds[i].text ...
 *     fw_settings_free(&s);
 *     fw_hii_close(&in);
 *
 * Menu paths: from the first form of each formset, REF opcodes are followed in opcode order; the
 * first visit fixes the order of the list, every further route adds a path (up to
 * FW_SETTINGS_MAX_PATHS, cycles cut). Forms no REF reaches come after, with their own title as
 * path. Each question is listed once; a question repeated in several forms of one formset (same
 * varstore, offset, width, bits, kind and prompt) is one setting with every path, the union of
 * the options, and conditions that hold only where they hold on every path (hidden when each
 * copy is hidden).
 */
#ifndef FW_SETTINGS_H
#define FW_SETTINGS_H

#include <stdbool.h>
#include <stdint.h>

#include "hii.h"
#include "ifr-expr.h"
#include "parsers/nvram.h"

#define FW_SETTINGS_MAX_PATHS 16

/* A condition and, once values are bound, its state; its readable text is fw_setting_cond_text. */
struct fw_setting_cond {
	const struct fw_ifr_cond *cond;
	const struct fw_hii_form_pkg *fp; /* the formset whose prompts the text names */
	struct fw_arena *arena;           /* where the text is made, when first asked for */
	const char *message;    /* error/warning text of inconsistent-if, no-submit-if, warning-if */
	int state;              /* 1 true, 0 false, -1 unknown (no values, or not evaluable) */
};

struct fw_setting_option {
	const struct fw_ifr_option *opt;
	const char *text;
	/* the condition around this option only (suppress-if inside the one-of), or NULL; its text is
	 * fw_setting_option_cond_text */
	const struct fw_ifr_cond *cond;
	const struct fw_hii_form_pkg *fp;
	struct fw_arena *arena;
};

struct fw_setting;
/* The help text of a setting ("" when it has none), decoded when first asked for. */
const char *fw_setting_help(const struct fw_setting *st);
/* The readable text of a condition ("SMEE != Enable"; "?" when the expression could not be built),
 * made when first asked for: most commands print few of them. */
const char *fw_setting_cond_text(const struct fw_setting_cond *c);
/* The text of the condition around an option only, or NULL when there is none. */
const char *fw_setting_option_cond_text(const struct fw_setting_option *o);

struct fw_setting_default {
	uint16_t store_id;
	const char *store;      /* "standard", "manufacturing", or the DEFAULTSTORE name */
	bool has_value;
	uint64_t value;
	const char *text;       /* option text of the value, when one matches */
	const char *expr;       /* DEFAULT with a non-constant VALUE expression */
};

struct fw_setting {
	const struct fw_hii_form_pkg *fp; /* formset (fp->module is the module) */
	const struct fw_ifr_question *q;
	const struct fw_ifr_varstore *vs; /* NULL when the varstore id is not declared */
	const char *prompt;               /* without leading and trailing blanks */
	const char *help_text;            /* the help text, once fw_setting_help was asked (most runs print none) */
	const char *prompt_raw;           /* the prompt as the form has it, when blanks were trimmed; else NULL */
	const char *keyword;              /* x-UEFI keyword of the prompt, or NULL */
	const char *varstore_name;        /* name, or the name/value variable name */
	const char **paths;               /* "AMD CBS > CPU Common Options" */
	uint32_t npaths;
	const char **path0;               /* the first path, element by element */
	uint32_t npath0;
	struct fw_setting_option *options;
	uint32_t noptions;
	struct fw_setting_default *defaults;
	uint32_t ndefaults;
	struct fw_setting_cond *conds;    /* suppress/gray-out/disable around it, outermost first */
	uint32_t nconds;
	struct fw_setting_cond *checks;   /* inconsistent-if, no-submit-if, warning-if */
	uint32_t nchecks;
	bool reachable;                   /* reached through REFs from the formset's first form */
	uint32_t copies;                  /* questions of the formset folded into this one (same storage,
					     kind and prompt in several forms): 1 when it is alone */
	const uint16_t *copy_qids;        /* the question ids of the copies after the first (copies - 1) */
	/* bound values (fw_settings_bind) */
	const struct fw_variable *var;
	bool has_current;
	uint64_t current;                 /* numbers, one-of, checkbox */
	const uint8_t *current_raw;       /* the bytes (width bytes) */
	uint32_t current_len;
	const char *current_text;         /* option text, string/password text, or NULL */
	bool current_valid;               /* one-of: the value is one of the options; numeric: within limits */
	int hidden;                       /* suppress-if or disable-if true: 1, false: 0, unknown: -1 */
	int grayed;                       /* gray-out-if */
};

struct fw_settings_formset;

struct fw_settings {
	struct fw_hii_db *db;
	struct fw_settings_formset *fsets; /* per formset: form paths, question index */
	uint32_t nfsets;
	struct fw_setting *items;
	uint32_t n;
	bool bound;
	uint32_t bound_vars;              /* settings whose variable was found (or that got a value without one) */
};

/* Build the list for every module, or for the modules matching `module` (name or GUID). */
bool fw_settings_build(struct fw_hii_db *db, const char *module, struct fw_settings *out);
/* Bind current values from variables (an NVRAM store, efivarfs, a snapshot). Live variables
 * only, matched by varstore name and GUID; conditions are then evaluated. */
void fw_settings_bind(struct fw_settings *s, const struct fw_varlist *vars);

/* Bind values that come without variable bytes (an AMISCE export, a Redfish Bios resource):
 * `value` says a setting's number, or false; conditions are then evaluated. */
void fw_settings_bind_values(struct fw_settings *s, bool (*value)(void *ctx, const struct fw_setting *st, uint64_t *v),
			     void *ctx);

/* First setting at or after *from (NULL: from 0) whose prompt matches (case-insensitive);
 * *from is left after it for the next call. */
const struct fw_setting *fw_settings_find(const struct fw_settings *s, const char *prompt, uint32_t *from);
void fw_settings_free(struct fw_settings *s);

/* Describe any question of a built formset (refs and actions too) the way settings are, with
 * its bound value when it is in the list. */
void fw_settings_describe(struct fw_settings *s, const struct fw_hii_form_pkg *fp, const struct fw_ifr_question *q,
			  struct fw_setting *out);

/* Expression environment of a formset: names from its strings, values from bound settings
 * (when s is not NULL). For writers that render other expressions of the same formset. */
struct fw_settings_env {
	const struct fw_hii_form_pkg *fp;
	const struct fw_settings *s;
	struct fw_ifr_expr_env env;
};
void fw_settings_env_init(struct fw_settings_env *e, const struct fw_hii_form_pkg *fp, const struct fw_settings *s);

/* The setting of a question of a formset, or NULL when the question is not in the list. */
const struct fw_setting *fw_settings_question(const struct fw_settings *s, const struct fw_hii_form_pkg *fp,
					     uint16_t qid);

/* The formsets in the list, in module and package order. */
const struct fw_hii_form_pkg *fw_settings_formset_at(const struct fw_settings *s, uint32_t i);

/* Menu paths of every form of a formset (computed by fw_settings_build; for `ifr` output). */
uint32_t fw_settings_form_paths(const struct fw_settings *s, const struct fw_hii_form_pkg *fp, uint16_t form_id,
				const char ***paths);

#endif
