/* Change sets: from "SMEE must be Enable" to the exact questions, bytes and order that make it so.
 *
 * A plan is built over a source's settings (forms plus current values): each requested setting
 * is resolved (prompt, x-UEFI keyword, or VARSTORE+0xOFFSET; --module narrows), its value checked
 * against the question (an option's text or value, a number within min/max/step), and the
 * conditions around it (suppress-if, gray-out-if, disable-if) evaluated with the planned values.
 * A question hidden or locked by another question's value brings that question into the plan,
 * ordered first, with the reason; a condition no single other question can clear, or one that a
 * planned value keeps true, is a contradiction. fwlens writes no variable: writers turn a plan
 * into the forms other tools take (tools/cli/plan-writers.c).
 *
 *     struct fw_plan p;
 *     fw_plan_init(&p, src);                          // src: fw_source with settings
 *     fw_plan_add(&p, "SEV Control", "Enable", "requested", NULL, NULL, &err);
 *     fw_plan_resolve(&p, &err);                      // dependencies, contradictions
 *     ... p.entries[i] in the order to apply ...
 *     fw_plan_free(&p);
 */
#ifndef FW_PLAN_H
#define FW_PLAN_H

#include "parsers/json-text.h"
#include <stdbool.h>
#include <stdint.h>

#include "parsers/arena.h"
#include "cpu-gen.h"
#include "source.h"

#define FW_PLAN_MAX_RAW 16   /* widest question planned (bytes): numbers are at most 8 */
#define FW_PLAN_MAX_DEPTH 8  /* dependency chains followed */
#define FW_PLAN_MAX_ENTRIES 512

struct fw_plan_entry {
	const struct fw_setting *st;
	const char *given;       /* the SETTING as given, or NULL for a dependency */
	uint64_t value;          /* the new value */
	const char *value_text;  /* option text, or the number */
	bool has_old;
	uint64_t old;
	const char *old_text;
	uint8_t old_raw[FW_PLAN_MAX_RAW], new_raw[FW_PLAN_MAX_RAW];
	uint32_t raw_len;        /* the question's bytes (width) */
	bool has_raw;            /* old bytes known (new bytes follow from them) */
	const char *reason;      /* why it is in the plan */
	const char *check;       /* the doctor check it satisfies, or NULL */
	const char *unlocks;     /* the prompt it makes settable (dependencies), or NULL */
	bool dependency;
	bool change;             /* the new value differs from the old */
	const char *efivarfs_refused; /* why efivarfs cannot write it, or NULL */
};

/* A resolution failure lists what matched. */
struct fw_plan_candidate {
	const struct fw_setting *st;
};

struct fw_plan {
	struct fw_arena arena;
	struct fw_source *src;
	struct fw_settings *s;
	struct fw_plan_entry *entries;
	size_t n, cap;
	char **notes;              /* warnings (unknown conditions, profile goals skipped), each once */
	size_t nnotes;
	const struct fw_setting **candidates; /* the last ambiguous SETTING's matches */
	size_t ncandidates;
	const char *current_source; /* where old values came from */
	char image_sha256[65];      /* the bytes the forms came from, "" when not known */
	/* modules made per CPU generation (CBS modules of a multi-family image): the machine's CPU,
	 * read once (plan-modules.c), and the other copies of the setting the last lookup returned
	 * when which module applies is not known (each is planned, labelled with its module) */
	int cpu_read;
	struct fw_cpu_gen cpu;
	const struct fw_setting **copies;
	size_t ncopies;
};

/* Errors: FW_E_USAGE (exit 2) for an unknown or ambiguous setting, a bad value, conflicting
 * requests and contradictions; FW_E_NOT_FOUND when the source has no forms. */
bool fw_plan_init(struct fw_plan *p, struct fw_source *src, struct fw_error *err);
/* Resolve SETTING (prompt, keyword, VARSTORE+0xOFF) within `module` (NULL: all). NULL on error;
 * an ambiguity leaves the matches in p->candidates. */
const struct fw_setting *fw_plan_lookup(struct fw_plan *p, const char *setting, const char *module,
					struct fw_error *err);
/* Parse a value for a setting: option text or value, checkbox words, a number within limits. */
bool fw_plan_parse_value(const struct fw_setting *st, const char *text, uint64_t *out, struct fw_error *err);
/* Add a target. A second request for the same setting with another value is a conflict. */
bool fw_plan_add(struct fw_plan *p, const char *setting, const char *value, const char *module, const char *reason,
		 const char *check, struct fw_error *err);
/* Add the goal of a profile (skipped with a note when the forms lack the setting or it is met). */
bool fw_plan_add_goal(struct fw_plan *p, const char *prompt, const char *values, bool has_min,
		      unsigned long long min, const char *module, const char *reason, const char *check,
		      struct fw_error *err);
/* Bring in what hides or locks the targets, order them first, find contradictions, fill bytes. */
bool fw_plan_resolve(struct fw_plan *p, struct fw_error *err);
void fw_plan_free(struct fw_plan *p);

/* plan-modules.c: among settings that match one SETTING in several modules made per CPU
 * generation (CbsSetupDxeSTP for Zen 4, CbsSetupDxeSHP for Zen 5, by the AGESA family code the
 * module or varstore name ends in), keep those of the module that applies: the one matching the
 * machine's CPU (proc/cpuinfo), else the one whose varstore the variables hold. Says which and
 * why in a plan note. Returns how many are left in found (1: decided); *per_generation says the
 * matches were such copies (false: an ambiguity of another kind). Profile goals plan every copy
 * left, each labelled with its module; a --set naming one is an ambiguity for the asker. */
size_t fw_plan_pick_module(struct fw_plan *p, const char *setting, const struct fw_setting **found, size_t n,
			   bool *per_generation);
/* "Zen 4" for a module or varstore name ending in an AGESA family code (STP, RS, SHP, BRH...). */
const char *fw_module_generation(const char *name);

/* A note of the plan (said once). */
void fw_plan_note(struct fw_plan *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Text of a value of a setting ("Enable", "100"), in the plan's arena. */
const char *fw_plan_value_text(struct fw_plan *p, const struct fw_setting *st, uint64_t v);

/* When and in which boot a plan is made: {"time", "boot_id", "boot_time"} of SRC's machine. */
json_t *fw_plan_made_json(const struct fw_source *src);

/* ---- verify ---- */
/* Whether the machine of h booted since the plan was made: the plan's "made" boot id against
 * h's, else its time against h's boot time; 1, 0, or -1 when neither says. *why (malloc'd) names
 * the ids or times compared. */
int fw_plan_rebooted(const struct fw_host *h, const char *src_path, const json_t *plan, char **why);

enum fw_verify_state { FW_VERIFY_OK, FW_VERIFY_DIFFERENT, FW_VERIFY_HIDDEN, FW_VERIFY_LOCKED, FW_VERIFY_UNKNOWN,
		       FW_VERIFY_MISSING, FW_VERIFY_NOT_REBOOTED, FW_VERIFY_BOOT_NOT_KNOWN };
const char *fw_verify_state_name(enum fw_verify_state s);
struct fw_verify_item {
	const char *prompt, *varstore;
	uint32_t offset, width;
	uint64_t want;
	const char *want_text;
	bool has_now;
	uint64_t now;
	const char *now_text;
	enum fw_verify_state state;
	const char *why;
};
struct fw_verify {
	struct fw_arena arena;
	struct fw_verify_item *items;
	size_t n;
	size_t failed;
	size_t pending; /* of the failed: stored as planned, but no boot since the plan is known */
	const char *current_source;
	const char *warning; /* HIICrc32 of the plan's export and of SRC's differ, or NULL */
	int rebooted;        /* SRC booted since the plan was made: 1, 0, or -1 when not known */
	const char *rebooted_why; /* what says so (boot ids, boot and plan times) */
};
/* Compare a plan (the JSON `fwlens plan --format json` writes) with the source's values. A value
 * counts as in effect only when SRC booted since the plan was made (the plan's "made" boot id
 * against SRC's, else its time against SRC's boot time): before that, a value read back from
 * efivarfs is written but not yet read by the firmware (FW_VERIFY_NOT_REBOOTED). */
bool fw_plan_verify(struct fw_source *src, const json_t *plan, struct fw_verify *out, struct fw_error *err);
void fw_verify_free(struct fw_verify *v);

#endif
