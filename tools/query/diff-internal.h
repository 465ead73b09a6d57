/* Helpers shared by the parts of the diff engine (diff.c, diff-settings.c, diff-machine.c,
 * diff-acpi.c); not for callers. */
#ifndef FW_DIFF_INTERNAL_H
#define FW_DIFF_INTERNAL_H

#include "diff.h"

#include <string.h>

/* The differences of one pair, gathered before they are kept in the diff's arena. */
struct fw_diff_fields {
	struct fw_diff_field items[32];
	size_t n;
};

static inline bool fw_diff_str_eq(const char *a, const char *b)
{
	return (!a && !b) || (a && b && strcmp(a, b) == 0);
}

/* Room for one more element in a growable list of `size`-byte elements. */
void *fw_diff_grow(void *p, size_t *cap, size_t n, size_t size);

void fw_diff_field(struct fw_diff_fields *f, const char *name, const char *old_value, const char *new_value,
		   const char *detail);
/* A keyed change; strings are copied. */
struct fw_diff_entry *fw_diff_add_entry(struct fw_diff *d, const char *section, const char *group,
					enum fw_diff_kind kind, const char *key, const char *old_value,
					const char *new_value);
/* The gathered differences, kept in the diff's arena (NULL when none). */
struct fw_diff_field *fw_diff_keep_fields(struct fw_diff *d, const struct fw_diff_fields *f);
void fw_diff_entry_fields(struct fw_diff *d, struct fw_diff_entry *e, const struct fw_diff_fields *f);
/* A note for the user (what could not be compared, and why); copied. */
void fw_diff_note(struct fw_diff *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* diff-settings.c: the varstores the settings of each side use. */
void fw_diff_varstores(struct fw_diff *d, struct fw_setlist *la, struct fw_setlist *lb);

/* diff-machine.c. The FFS files two images differ in, per side: where their ACPI tables can differ. */
struct fw_diff_nodes {
	struct fw_node **v;
	size_t n, cap;
};
void fw_diff_versions(struct fw_diff *d, struct fw_inventory *ia, struct fw_inventory *ib);
void fw_diff_modules(struct fw_diff *d, struct fw_inventory *ia, struct fw_inventory *ib, const struct fw_diff_options *o,
		     struct fw_diff_nodes *da, struct fw_diff_nodes *db);
void fw_diff_variables(struct fw_diff *d, const struct fw_varlist *va, const struct fw_varlist *vb);
void fw_diff_kernel(struct fw_diff *d, const struct fw_host *a, const struct fw_host *b);

/* diff-acpi.c: tables, decoded fields, and with `map` the root-bridge map (hosts: the running
 * machines' root buses, or NULL). */
struct fw_topo_host;
void fw_diff_acpi(struct fw_diff *d, const struct fw_acpi_set *a, const struct fw_acpi_set *b,
		  const struct fw_topo_host *host_a, const struct fw_topo_host *host_b, bool map, char *warn,
		  size_t warnlen);

#endif
