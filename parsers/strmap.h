/* A string-keyed hash map (open addressing, FNV-1a). Keys are copied; values are opaque. */
#ifndef FW_STRMAP_H
#define FW_STRMAP_H

#include <stdbool.h>
#include <stddef.h>

struct fw_strmap_slot {
	char *key;
	void *value;
};

struct fw_strmap {
	struct fw_strmap_slot *slots;
	size_t cap, count;
};

void fw_strmap_init(struct fw_strmap *m);
/* Insert or replace; returns the previous value (or NULL). */
void *fw_strmap_put(struct fw_strmap *m, const char *key, void *value);
void *fw_strmap_get(const struct fw_strmap *m, const char *key);
bool fw_strmap_has(const struct fw_strmap *m, const char *key);
/* Free the keys and the table; values are the caller's (free them first with fw_strmap_each). */
void fw_strmap_free(struct fw_strmap *m);
/* Iterate: for (size_t i = 0; fw_strmap_next(m, &i, &k, &v);) */
bool fw_strmap_next(const struct fw_strmap *m, size_t *iter, const char **key, void **value);

#endif
