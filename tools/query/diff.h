/* Comparing two sources (images, capsules, modules, settings lists, machines): settings matched
 * by meaning, their current values, varstores, modules, versions, EFI variables, ACPI tables and
 * the kernel side.
 *
 * Settings are matched by what they mean, not where they sit, because offsets and formset GUIDs
 * change between builds:
 *   1. modules are paired (same GUID, else same name, else the only module left on each side);
 *   2. within a module pair, by prompt and menu path (in order among equal keys);
 *   3. then by prompt and a shared menu path (a question reachable from several menus);
 *   4. then by prompt within the same varstore family ("AmdSetupSHP" and "AmdSetupSTP" are one
 *      family, as is a varstore GUID): the menu moved, reported as a move;
 *   5. then the same across module pairs (a setting that moved to another module);
 *   6. what is left was removed (A) or added (B).
 * A candidate for a move must be of the same kind and share its options (or numeric limits), its
 * help text or its storage, so two unrelated settings that happen to share a prompt are not paired.
 *
 * Files: diff.c keeps the lists and runs the comparisons (fw_diff_run); diff-settings.c matches
 * settings and compares values and varstores; diff-machine.c compares versions, modules, EFI
 * variables and the kernel side of two machines; diff-acpi.c the ACPI tables.
 *
 * To add a compared section: a struct and a list in struct fw_diff, its computation in the file of
 * its kind, called from fw_diff_run, its JSON, text and markdown in tools/cli/diff-writers.c,
 * and a test in tests/unit/test-diff.c. */
#ifndef FW_DIFF_H
#define FW_DIFF_H

#include <stdbool.h>
#include <stddef.h>

#include "parsers/arena.h"
#include "source.h"
#include "topics.h"

/* One difference of a matched pair ("default", "Auto", "Enabled"). */
struct fw_diff_field {
	const char *field;  /* "prompt", "kind", "path", "options", "default", "default manufacturing", "varstore",
			       "varstore GUID", "offset", "width", "bits", "limits", "condition", "help" */
	const char *old_value, *new_value;
	const char *detail; /* "added 43 8192GB; removed 5 System Firmware Intermediary", or NULL */
};

enum fw_diff_kind { FW_DIFF_ADDED, FW_DIFF_REMOVED, FW_DIFF_MOVED, FW_DIFF_CHANGED };
const char *fw_diff_kind_name(enum fw_diff_kind k); /* "added", "removed", "moved", "changed" */

struct fw_diff_setting {
	enum fw_diff_kind kind;
	const struct fw_setlist_item *a, *b; /* a NULL when added, b NULL when removed */
	struct fw_diff_field *fields;
	size_t nfields;
	bool layout_only;   /* changed: only the varstore offset/width/name moved (a layout shift) */
	const char *topics; /* with a topic filter: the topics it belongs to ("iommu, p2p") */
};

struct fw_diff_value {
	const struct fw_setlist_item *a, *b;
	const char *old_value, *new_value; /* readable (option text or number), NULL when unknown */
	const char *topics;                /* with a topic filter: the topics it belongs to */
};

/* A keyed change (versions, varstores, modules, variables, ACPI, kernel): old NULL when added,
 * new NULL when removed. */
struct fw_diff_entry {
	const char *section; /* "versions", "varstores", "modules", "variables", "acpi", "kernel" */
	const char *group;   /* within kernel: "cmdline", "iommu-groups", "kvm_amd", "release"; acpi: table */
	enum fw_diff_kind kind;
	const char *key;     /* "bios", "AmdSetupSHP", "Setup 899407D7-...", GUID, "IVRS" */
	const char *name;    /* module name, or NULL */
	const char *where;   /* modules: the volume of the copy ("volume @0x1000000"), "both copies" when
			      * the change is the same in every copy; NULL for the other sections */
	bool copies;         /* modules: the GUID has several copies (a backup volume): say which */
	const char *old_value, *new_value;
	struct fw_diff_field *fields;
	size_t nfields;
};

struct fw_diff_options {
	const char *module_a, *module_b; /* compare only these modules (--module, --module-a/-b) */
	bool no_values;                  /* skip current values */
	const struct fw_topic *const *topics; /* keep only settings of these topics (--topic), or NULL */
	size_t ntopics;
};

struct fw_diff {
	struct fw_arena arena;
	bool have_settings;              /* both sides had settings to compare */
	struct fw_diff_setting *settings;
	size_t nsettings, settings_cap;
	size_t counts[4];                /* per enum fw_diff_kind */
	size_t layout_only;
	struct fw_diff_value *values;
	size_t nvalues, values_cap;
	const char *values_source[2];    /* where each side's current values came from (current_source) */
	struct fw_diff_entry *entries;
	size_t nentries, entries_cap;
	const char **notes;              /* what could not be compared, for the command to log */
	size_t nnotes, notes_cap;
	size_t matched;                  /* settings paired (same, moved or changed) */
	const char *topic_filter;        /* "sev-snp, iommu" when limited to topics, else NULL */
	size_t a_settings, b_settings;
};

/* Compare A with B. Missing pieces on one side (no forms, no machine) leave their sections out. */
void fw_diff_run(struct fw_source *a, struct fw_source *b, const struct fw_diff_options *o, struct fw_diff *out);
/* Compare two settings lists only (the settings and values sections). */
void fw_diff_settings(struct fw_setlist *a, struct fw_setlist *b, struct fw_diff *out);
/* Keep only the settings and values that belong to one of the topics, each marked with its topics. */
void fw_diff_keep_topics(struct fw_diff *d, const struct fw_topic *const *topics, size_t ntopics);
void fw_diff_free(struct fw_diff *d);
/* Number of differences (settings, values, entries). */
size_t fw_diff_count(const struct fw_diff *d);
/* Entries of one section, for writers: iterate i from 0 while it returns non-NULL. */
const struct fw_diff_entry *fw_diff_entry_in(const struct fw_diff *d, const char *section, size_t *i);

/* "AmdSetupSHP" -> "AmdSetup": the name without a trailing family code (upper-case letters after
 * a lower-case one), into buf. */
const char *fw_varstore_family(const char *name, char *buf, size_t len);

#endif
