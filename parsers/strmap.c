#include "strmap.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "parsers/error.h"

static uint64_t hash(const char *s)
{
	uint64_t h = 1469598103934665603ULL;
	for (; *s; s++) {
		h ^= (unsigned char)*s;
		h *= 1099511628211ULL;
	}
	return h;
}

void fw_strmap_init(struct fw_strmap *m)
{
	m->slots = NULL;
	m->cap = m->count = 0;
}

static struct fw_strmap_slot *find(const struct fw_strmap *m, const char *key)
{
	if (!m->cap)
		return NULL;
	size_t i = (size_t)hash(key) & (m->cap - 1);
	for (;;) {
		struct fw_strmap_slot *s = &m->slots[i];
		if (!s->key || strcmp(s->key, key) == 0)
			return s;
		i = (i + 1) & (m->cap - 1);
	}
}

static void grow(struct fw_strmap *m)
{
	size_t old_cap = m->cap;
	struct fw_strmap_slot *old = m->slots;
	m->cap = old_cap ? old_cap * 2 : 64;
	m->slots = fw_xcalloc(m->cap, sizeof(*m->slots));
	for (size_t i = 0; i < old_cap; i++)
		if (old[i].key)
			*find(m, old[i].key) = old[i];
	free(old);
}

void *fw_strmap_put(struct fw_strmap *m, const char *key, void *value)
{
	if ((m->count + 1) * 4 >= m->cap * 3)
		grow(m);
	struct fw_strmap_slot *s = find(m, key);
	if (s->key) {
		void *prev = s->value;
		s->value = value;
		return prev;
	}
	s->key = fw_xstrdup(key);
	s->value = value;
	m->count++;
	return NULL;
}

void *fw_strmap_get(const struct fw_strmap *m, const char *key)
{
	struct fw_strmap_slot *s = find(m, key);
	return s && s->key ? s->value : NULL;
}

bool fw_strmap_has(const struct fw_strmap *m, const char *key)
{
	struct fw_strmap_slot *s = find(m, key);
	return s && s->key;
}

bool fw_strmap_next(const struct fw_strmap *m, size_t *iter, const char **key, void **value)
{
	while (*iter < m->cap) {
		struct fw_strmap_slot *s = &m->slots[(*iter)++];
		if (s->key) {
			*key = s->key;
			if (value)
				*value = s->value;
			return true;
		}
	}
	return false;
}

void fw_strmap_free(struct fw_strmap *m)
{
	for (size_t i = 0; i < m->cap; i++)
		free(m->slots[i].key);
	free(m->slots);
	fw_strmap_init(m);
}
