/* Helpers shared by the parts of the diff engine (diff.c, diff-acpi.c); not for callers. */
#ifndef FW_DIFF_INTERNAL_H
#define FW_DIFF_INTERNAL_H

#include "diff.h"

/* The differences of one pair, gathered before they are kept in the diff's arena. */
struct fw_diff_fields {
	struct fw_diff_field items[32];
	size_t n;
};

void fw_diff_field(struct fw_diff_fields *f, const char *name, const char *old_value, const char *new_value,
		   const char *detail);
/* A keyed change; strings are copied. */
struct fw_diff_entry *fw_diff_add_entry(struct fw_diff *d, const char *section, const char *group,
					enum fw_diff_kind kind, const char *key, const char *old_value,
					const char *new_value);
void fw_diff_entry_fields(struct fw_diff *d, struct fw_diff_entry *e, const struct fw_diff_fields *f);
/* A note for the user (what could not be compared, and why); copied. */
void fw_diff_note(struct fw_diff *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* diff-acpi.c: tables, decoded fields, and with `map` the root-bridge map (hosts: the running
 * machines' root buses, or NULL). */
struct fw_topo_host;
void fw_diff_acpi(struct fw_diff *d, const struct fw_acpi_set *a, const struct fw_acpi_set *b,
		  const struct fw_topo_host *host_a, const struct fw_topo_host *host_b, bool map, char *warn,
		  size_t warnlen);

#endif
