/* The nearest name to a mistyped one: what usage errors suggest ("did you mean 'iommu'?") for
 * commands, options, topics, profiles and other enumerated values. */
#ifndef FW_NEAREST_H
#define FW_NEAREST_H

#include <stddef.h>

/* Levenshtein distance of two short strings (99 past 64 characters). */
size_t fw_edit_distance(const char *a, const char *b);
/* The name of `names` closest to `word`: at most 2 edits away (1 for words of 3 characters or
 * fewer), else the only name `word` is a prefix of (3 characters or more). NULL when none is
 * close. Case is ignored. */
const char *fw_nearest(const char *word, const char *const *names, size_t n);
/* The same over a comma-separated list ("sev-snp-host,vfio,p2p,all"); the name is copied into
 * buf. */
const char *fw_nearest_csv(const char *word, const char *csv, char *buf, size_t len);

/* "; did you mean 'x'?" for the first name of the comma-separated `word` that is not one of `csv`
 * and has a near one, or "" — to append to a usage error. */
const char *fw_nearest_hint(const char *word, const char *csv, char *buf, size_t len);

#endif
