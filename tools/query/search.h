/* Searching settings: `find` (a regular expression over prompts, help texts, option texts and
 * varstore names) and `query` (the topic rules of topics.h), each match with the reason it
 * matched. A setting matched by several topics is one hit with one reason per topic. */
#ifndef FW_SEARCH_H
#define FW_SEARCH_H

#include <stdbool.h>
#include <stddef.h>

#include "parsers/arena.h"
#include "cache.h"
#include "parsers/error.h"
#include "setlist.h"
#include "topics.h"

struct fw_hit_reason {
	const char *topic; /* topic name (query), or NULL (find) */
	const char *rule;  /* rule id (query), or the field that matched (find: "prompt", "help", "option", "varstore") */
	const char *why;   /* the rule's explanation, or what matched ("option \"Enabled\"") */
};

struct fw_hit {
	struct fw_setlist_item *it;
	struct fw_hit_reason *reasons;
	size_t nreasons;
};

struct fw_hits {
	struct fw_arena arena;
	struct fw_hit *items;
	size_t n, cap;
};

/* Fields `find` looks at (all by default). */
#define FW_FIND_PROMPT 0x01
#define FW_FIND_HELP 0x02
#define FW_FIND_OPTION 0x04
#define FW_FIND_VARSTORE 0x08
#define FW_FIND_KEYWORD 0x10
#define FW_FIND_ALL 0x1F
/* "prompt,help" into a mask; false on an unknown name. */
bool fw_find_fields_parse(const char *csv, unsigned *mask);

/* Settings whose fields match the POSIX extended regular expression (case ignored). */
bool fw_find(struct fw_setlist *l, const char *regex, unsigned fields, struct fw_hits *out, struct fw_error *err);
/* Settings matched by the topics' setting rules, in list order. */
void fw_query(struct fw_setlist *l, const struct fw_topic *const *topics, size_t ntopics, struct fw_hits *out);
/* The names of the topics whose rules match one setting, joined by ", " in the arena; NULL when
 * none does. */
const char *fw_query_item_topics(struct fw_arena *a, const struct fw_setlist_item *it,
				 const struct fw_topic *const *topics, size_t ntopics);
void fw_hits_free(struct fw_hits *h);

/* The matches of every topic of `t` over a whole list, for the cache (strings in `a`); known is
 * false when a pattern ran into the matching limits (then nothing is remembered). */
void fw_query_cache_matches(struct fw_setlist *l, const struct fw_topics *t, const char *lang, struct fw_arena *a,
			    struct fw_cache_matches *out);
/* fw_query answered from matches the cache remembered for the same list and rules: false (out
 * untouched) when they do not fit the list (its length, a prompt, a rule id), then fw_query. */
bool fw_query_from_cache(struct fw_setlist *l, const struct fw_topic *const *topics, size_t ntopics,
			 const struct fw_cache_matches *m, struct fw_hits *out);

#endif
