/* find and query over a settings list. */
#include "search.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "user-regex.h"

bool fw_find_fields_parse(const char *csv, unsigned *mask)
{
	static const struct {
		const char *name;
		unsigned bit;
	} names[] = {{"prompt", FW_FIND_PROMPT}, {"help", FW_FIND_HELP}, {"option", FW_FIND_OPTION},
		     {"options", FW_FIND_OPTION}, {"varstore", FW_FIND_VARSTORE}, {"keyword", FW_FIND_KEYWORD}, {"all", FW_FIND_ALL}};
	*mask = 0;
	const char *p = csv;
	while (*p) {
		size_t len = strcspn(p, ",");
		bool known = false;
		for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
			if (strlen(names[i].name) == len && strncasecmp(p, names[i].name, len) == 0) {
				*mask |= names[i].bit;
				known = true;
			}
		if (!known)
			return false;
		p += len;
		if (*p == ',')
			p++;
	}
	return *mask != 0;
}

static struct fw_hit *add_hit(struct fw_hits *h, struct fw_setlist_item *it)
{
	if (h->n == h->cap) {
		h->cap = h->cap ? h->cap * 2 : 64;
		h->items = fw_xrealloc(h->items, h->cap * sizeof(*h->items));
	}
	struct fw_hit *hit = &h->items[h->n++];
	memset(hit, 0, sizeof(*hit));
	hit->it = it;
	return hit;
}

/* Reasons are few per hit (one per field or topic): grow in the arena by copying. */
static void add_reason(struct fw_hits *h, struct fw_hit *hit, const char *topic, const char *rule, const char *why)
{
	struct fw_hit_reason *r = fw_arena_alloc(&h->arena, (hit->nreasons + 1) * sizeof(*r));
	if (hit->nreasons)
		memcpy(r, hit->reasons, hit->nreasons * sizeof(*r));
	r[hit->nreasons] = (struct fw_hit_reason){topic, rule, why};
	hit->reasons = r;
	hit->nreasons++;
}

static bool field_matches(struct fw_regex *re, const char *s)
{
	return s && *s && fw_regex_match(re, s);
}

bool fw_find(struct fw_setlist *l, const char *regex, unsigned fields, struct fw_hits *out, struct fw_error *err)
{
	memset(out, 0, sizeof(*out));
	fw_arena_init(&out->arena);
	struct fw_regex re;
	if (!fw_regex_compile(&re, regex, err)) {
		fw_hits_free(out);
		if (err)
			err->code = FW_E_USAGE; /* the expression is the user's argument */
		return false;
	}
	for (size_t i = 0; i < l->n && !re.limit_hit; i++) {
		struct fw_setlist_item *it = &l->items[i];
		struct fw_hit *hit = NULL;
#define HIT(rule, why)                                                                                             \
	do {                                                                                                       \
		if (!hit)                                                                                          \
			hit = add_hit(out, it);                                                                    \
		add_reason(out, hit, NULL, rule, why);                                                             \
	} while (0)
		if ((fields & FW_FIND_PROMPT) && field_matches(&re, it->prompt))
			HIT("prompt", fw_arena_printf(&out->arena, "prompt \"%s\"", it->prompt));
		if ((fields & FW_FIND_KEYWORD) && it->keyword && field_matches(&re, it->keyword))
			HIT("keyword", fw_arena_printf(&out->arena, "keyword %s", it->keyword));
		if ((fields & FW_FIND_HELP) && field_matches(&re, it->help))
			HIT("help", "help text");
		if (fields & FW_FIND_OPTION)
			for (uint32_t k = 0; k < it->noptions; k++)
				if (field_matches(&re, it->options[k].text)) {
					HIT("option", fw_arena_printf(&out->arena, "option \"%s\"", it->options[k].text));
					break;
				}
		if ((fields & FW_FIND_VARSTORE) && field_matches(&re, it->varstore))
			HIT("varstore", fw_arena_printf(&out->arena, "varstore %s", it->varstore));
#undef HIT
	}
	bool limit_hit = re.limit_hit;
	if (limit_hit) { /* some answers are not known: no partial list */
		fw_regex_limit_error(&re, FW_E_USAGE, err);
		fw_hits_free(out);
	}
	fw_regex_free(&re);
	return !limit_hit;
}

/* What the topic rules look at in a setting; option texts go into optbuf (256 entries). */
static struct fw_topic_subject subject_of(const struct fw_setlist_item *it, const char **optbuf)
{
	size_t no = it->noptions < 256 ? it->noptions : 256;
	for (size_t k = 0; k < no; k++)
		optbuf[k] = it->options[k].text;
	return (struct fw_topic_subject){it->prompt, it->help, it->path, it->varstore, optbuf, no};
}

const char *fw_query_item_topics(struct fw_arena *a, const struct fw_setlist_item *it,
				 const struct fw_topic *const *topics, size_t ntopics)
{
	const char *optbuf[256];
	struct fw_topic_subject s = subject_of(it, optbuf);
	char names[512] = "";
	size_t used = 0;
	for (size_t t = 0; t < ntopics; t++)
		if (fw_topic_match(topics[t], &s) && used < sizeof(names))
			used += (size_t)snprintf(names + used, sizeof(names) - used, "%s%s", used ? ", " : "", topics[t]->name);
	return used ? fw_arena_strdup(a, names) : NULL;
}

void fw_query(struct fw_setlist *l, const struct fw_topic *const *topics, size_t ntopics, struct fw_hits *out)
{
	memset(out, 0, sizeof(*out));
	fw_arena_init(&out->arena);
	const char *optbuf[256];
	for (size_t i = 0; i < l->n; i++) {
		struct fw_setlist_item *it = &l->items[i];
		struct fw_topic_subject s = subject_of(it, optbuf);
		struct fw_hit *hit = NULL;
		for (size_t t = 0; t < ntopics; t++) {
			const struct fw_topic_setting_rule *r = fw_topic_match(topics[t], &s);
			if (!r)
				continue;
			if (!hit)
				hit = add_hit(out, it);
			add_reason(out, hit, topics[t]->name, r->id, r->why);
		}
	}
}

void fw_hits_free(struct fw_hits *h)
{
	free(h->items);
	fw_arena_free(&h->arena);
	memset(h, 0, sizeof(*h));
}

void fw_query_cache_matches(struct fw_setlist *l, const struct fw_topics *t, const char *lang, struct fw_arena *a,
			    struct fw_cache_matches *out)
{
	memset(out, 0, sizeof(*out));
	const struct fw_topic **all = fw_xcalloc(t->count ? t->count : 1, sizeof(*all));
	for (size_t i = 0; i < t->count; i++)
		all[i] = &t->topics[i];
	struct fw_hits hits;
	fw_query(l, all, t->count, &hits);
	out->known = fw_topics_limits_ok(all, t->count, NULL);
	out->lang = fw_arena_strdup(a, lang ? lang : "");
	out->nitems = (uint32_t)l->n;
	size_t n = 0;
	for (size_t i = 0; i < hits.n; i++)
		n += hits.items[i].nreasons;
	out->v = fw_arena_alloc(a, (n ? n : 1) * sizeof(*out->v));
	for (size_t i = 0; out->known && i < hits.n; i++)
		for (size_t k = 0; k < hits.items[i].nreasons; k++) {
			const struct fw_hit_reason *r = &hits.items[i].reasons[k];
			out->v[out->n++] = (struct fw_cache_match){(uint32_t)(hits.items[i].it - l->items),
								   fw_arena_strdup(a, hits.items[i].it->prompt),
								   fw_arena_strdup(a, r->topic), fw_arena_strdup(a, r->rule)};
		}
	fw_hits_free(&hits);
	free(all);
}

static const struct fw_topic_setting_rule *rule_by_id(const struct fw_topic *t, const char *id)
{
	for (size_t i = 0; i < t->nsettings; i++)
		if (strcmp(t->settings[i].id, id) == 0)
			return &t->settings[i];
	return NULL;
}

static bool same_text(const char *a, const char *b)
{
	return strcmp(a ? a : "", b ? b : "") == 0;
}

bool fw_query_from_cache(struct fw_setlist *l, const struct fw_topic *const *topics, size_t ntopics,
			 const struct fw_cache_matches *m, struct fw_hits *out)
{
	if (!m->known || m->nitems != l->n)
		return false;
	for (uint32_t i = 0; i < m->n; i++) /* in list order, as fw_query finds them */
		if (m->v[i].item >= l->n || (i && m->v[i].item < m->v[i - 1].item) ||
		    !same_text(m->v[i].prompt, l->items[m->v[i].item].prompt))
			return false;
	struct fw_hits h;
	memset(&h, 0, sizeof(h));
	fw_arena_init(&h.arena);
	bool ok = true;
	for (uint32_t i = 0; ok && i < m->n;) {
		uint32_t j = i;
		while (j < m->n && m->v[j].item == m->v[i].item)
			j++;
		struct fw_hit *hit = NULL;
		for (size_t t = 0; ok && t < ntopics; t++)
			for (uint32_t k = i; k < j; k++) {
				if (strcmp(m->v[k].topic, topics[t]->name) != 0)
					continue;
				const struct fw_topic_setting_rule *r = rule_by_id(topics[t], m->v[k].rule);
				if (!r) {
					ok = false;
					break;
				}
				if (!hit)
					hit = add_hit(&h, &l->items[m->v[i].item]);
				add_reason(&h, hit, topics[t]->name, r->id, r->why);
				break;
			}
		i = j;
	}
	if (!ok) {
		fw_hits_free(&h);
		return false;
	}
	*out = h;
	return true;
}
