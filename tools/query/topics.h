/* Topics as data: the rules file (tools/query/rules/topics.xml, validated against topics.xsd)
 * says which setup options and machine facts bear on IOMMU, SEV-SNP, ACS, P2P, NUMA, PCIe and
 * virtualization, with an explanation per rule that outputs quote.
 *
 * The rules compiled into fwlens are used unless --rules FILE or $FWLENS_RULES names another
 * file; any file is validated against the schema before use. */
#ifndef FW_TOPICS_H
#define FW_TOPICS_H

#include <stdbool.h>
#include <stddef.h>

#include "parsers/error.h"
#include "parsers/hash.h"
#include "user-regex.h"

struct fw_topic_setting_rule {
	char *id;
	char *why;
	char **prompts;    /* normalised exact prompts (any matches) */
	size_t nprompts;
	struct fw_regex *prompt_re, *help_re, *option_re, *varstore_re, *path_re, *exclude_re;
};

struct fw_topic_fact_rule {
	char *id;
	char *kind;    /* kernel-option, kernel-log, module-param, acpi-table, pci-capability, iommu-group, cpu-flag, device-node */
	char *name;
	char *pattern; /* optional regular expression (user-regex.h) */
	struct fw_regex *re;
	char *why;
};

struct fw_topic {
	char *name, *title, *description;
	struct fw_topic_setting_rule *settings;
	size_t nsettings;
	struct fw_topic_fact_rule *facts;
	size_t nfacts;
};

/* A goal of a profile: the setting (by prompt), the value wanted ("Enable|Enabled": the first
 * option text the forms have), for numbers the least value that already satisfies it, and the
 * doctor check it satisfies. */
struct fw_profile_goal {
	char *prompt, *value, *check, *why;
	bool has_min;
	unsigned long long min;
};
struct fw_profile {
	char *name, *title;
	struct fw_profile_goal *goals;
	size_t ngoals;
};
struct fw_topics {
	struct fw_topic *topics;
	size_t count;
	struct fw_profile *profiles;
	size_t nprofiles;
	char *source; /* file path, or "built-in" */
};

/* What a setting rule looks at. */
struct fw_topic_subject {
	const char *prompt, *help, *path, *varstore;
	const char *const *options;
	size_t noptions;
};

/* path NULL: $FWLENS_RULES, else the rules compiled in. */
bool fw_topics_load(const char *path, struct fw_topics *out, struct fw_error *err);
/* Load from memory (tests, fuzzing); `name` names it in messages. */
bool fw_topics_load_buffer(const char *xml, size_t len, const char *name, struct fw_topics *out, struct fw_error *err);
void fw_topics_free(struct fw_topics *t);
/* The SHA-256 of the rules' bytes fw_topics_load(path) would read (the cache's key names them). */
bool fw_topics_rules_sha256(const char *path, char out[FW_SHA256_HEX_LEN], struct fw_error *err);
const struct fw_profile *fw_topics_profile(const struct fw_topics *t, const char *name);
const struct fw_topic *fw_topics_find(const struct fw_topics *t, const char *name);
/* The first setting rule of the topic that matches, or NULL. */
const struct fw_topic_setting_rule *fw_topic_match(const struct fw_topic *t, const struct fw_topic_subject *s);
/* After matching: false (FW_E_INVALID, exit 3) when a pattern of the selected topics ran into the
 * matching limits, naming the pattern and its rule; the answers that depended on it are not known. */
bool fw_topics_limits_ok(const struct fw_topic *const *topics, size_t n, struct fw_error *err);
/* Lower-case, single-spaced, trimmed copy of a prompt into buf. */
char *fw_topic_normalise(const char *s, char *buf, size_t len);
/* Comma-separated topic names into a list; unknown names fail naming the known ones. */
bool fw_topics_select(const struct fw_topics *t, const char *csv, const struct fw_topic ***out, size_t *n,
		      struct fw_error *err);

#endif
