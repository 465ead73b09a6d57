/* Settings matched by meaning (see diff.h for the stages), their current values, and the varstores
 * the settings use. */
#include "diff-internal.h"

#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "parsers/strmap.h"
#include "search.h"
#include "topics.h"

const char *fw_varstore_family(const char *name, char *buf, size_t len)
{
	snprintf(buf, len, "%s", name ? name : "");
	size_t n = strlen(buf), k = n;
	while (k > 0 && isupper((unsigned char)buf[k - 1]))
		k--;
	if (k > 0 && n - k >= 2 && n - k <= 4 && islower((unsigned char)buf[k - 1]))
		buf[k] = '\0';
	return buf;
}

/* ---- settings: keys and candidates ---- */

/* Settings with the same key, in list order. */
struct chain {
	size_t idx;
	struct chain *next;
};
struct bucket {
	struct chain *head, *tail;
};

struct side {
	struct fw_setlist *l;
	int *pair;             /* module pair of each item */
	bool *matched;
	const char **norm;     /* normalised prompt */
	const char **family;   /* varstore family */
};

struct matcher {
	struct fw_diff *d;
	struct side a, b;
	struct fw_arena tmp;
};

static void bucket_add(struct fw_arena *a, struct fw_strmap *m, const char *key, size_t idx)
{
	struct bucket *bk = fw_strmap_get(m, key);
	if (!bk) {
		bk = fw_arena_alloc(a, sizeof(*bk));
		fw_strmap_put(m, key, bk);
	}
	struct chain *c = fw_arena_alloc(a, sizeof(*c));
	c->idx = idx;
	if (bk->tail)
		bk->tail->next = c;
	else
		bk->head = c;
	bk->tail = c;
}

static const char *modkey(const struct fw_setlist_item *it)
{
	return it->module ? it->module : it->module_name ? it->module_name : "";
}

/* Pair the modules of the two lists; items of unpaired modules get pair ids no other item has. */
static void pair_modules(struct matcher *m)
{
	struct fw_strmap ma, mb;
	fw_strmap_init(&ma);
	fw_strmap_init(&mb);
	/* module key -> first item (its name), per side */
	for (size_t i = 0; i < m->a.l->n; i++)
		if (!fw_strmap_has(&ma, modkey(&m->a.l->items[i])))
			fw_strmap_put(&ma, modkey(&m->a.l->items[i]), &m->a.l->items[i]);
	for (size_t i = 0; i < m->b.l->n; i++)
		if (!fw_strmap_has(&mb, modkey(&m->b.l->items[i])))
			fw_strmap_put(&mb, modkey(&m->b.l->items[i]), &m->b.l->items[i]);
	/* module key (A) -> pair id; B keys map to the same ids */
	struct fw_strmap pa, pb;
	fw_strmap_init(&pa);
	fw_strmap_init(&pb);
	intptr_t next = 1;
	const char *k;
	void *v;
	for (size_t it = 0; fw_strmap_next(&ma, &it, &k, &v);)
		if (fw_strmap_has(&mb, k)) {
			fw_strmap_put(&pa, k, (void *)next);
			fw_strmap_put(&pb, k, (void *)next++);
		}
	/* same name, different GUID (a rebuilt module) */
	for (size_t it = 0; fw_strmap_next(&ma, &it, &k, &v);) {
		const struct fw_setlist_item *ia = v;
		if (fw_strmap_has(&pa, k) || !ia->module_name)
			continue;
		const char *kb;
		void *vb;
		for (size_t jt = 0; fw_strmap_next(&mb, &jt, &kb, &vb);) {
			const struct fw_setlist_item *ib = vb;
			if (!fw_strmap_has(&pb, kb) && ib->module_name && strcmp(ib->module_name, ia->module_name) == 0) {
				fw_strmap_put(&pa, k, (void *)next);
				fw_strmap_put(&pb, kb, (void *)next++);
				break;
			}
		}
	}
	/* one module left on each side: the same module under another GUID and name (Zen 5 vs Zen 4) */
	size_t left_a = 0, left_b = 0;
	const char *ka = NULL, *kb = NULL;
	for (size_t it = 0; fw_strmap_next(&ma, &it, &k, &v);)
		if (!fw_strmap_has(&pa, k)) {
			left_a++;
			ka = k;
		}
	for (size_t it = 0; fw_strmap_next(&mb, &it, &k, &v);)
		if (!fw_strmap_has(&pb, k)) {
			left_b++;
			kb = k;
		}
	if (left_a == 1 && left_b == 1) {
		fw_strmap_put(&pa, ka, (void *)next);
		fw_strmap_put(&pb, kb, (void *)next++);
	}
	intptr_t lone = 1 << 20;
	for (size_t i = 0; i < m->a.l->n; i++) {
		void *id = fw_strmap_get(&pa, modkey(&m->a.l->items[i]));
		m->a.pair[i] = id ? (int)(intptr_t)id : (int)lone++;
	}
	for (size_t i = 0; i < m->b.l->n; i++) {
		void *id = fw_strmap_get(&pb, modkey(&m->b.l->items[i]));
		m->b.pair[i] = id ? (int)(intptr_t)id : (int)lone++;
	}
	fw_strmap_free(&ma);
	fw_strmap_free(&mb);
	fw_strmap_free(&pa);
	fw_strmap_free(&pb);
}

static void side_init(struct matcher *m, struct side *s, struct fw_setlist *l)
{
	s->l = l;
	size_t n = l->n ? l->n : 1;
	s->pair = fw_arena_alloc(&m->tmp, n * sizeof(int));
	s->matched = fw_arena_alloc(&m->tmp, n * sizeof(bool));
	s->norm = fw_arena_alloc(&m->tmp, n * sizeof(char *));
	s->family = fw_arena_alloc(&m->tmp, n * sizeof(char *));
	char buf[512];
	for (size_t i = 0; i < l->n; i++) {
		const struct fw_setlist_item *it = &l->items[i];
		s->norm[i] = fw_arena_strdup(&m->tmp, fw_topic_normalise(it->prompt, buf, sizeof(buf)));
		if (it->varstore)
			s->family[i] = fw_arena_strdup(&m->tmp, fw_varstore_family(it->varstore, buf, sizeof(buf)));
		else
			s->family[i] = it->varstore_guid ? it->varstore_guid : "";
	}
}

enum key_kind { KEY_PATH, KEY_PROMPT, KEY_FAMILY, KEY_FAMILY_ANY_MODULE };

static const char *key_of(struct side *s, size_t i, enum key_kind k, char *buf, size_t len)
{
	const struct fw_setlist_item *it = &s->l->items[i];
	switch (k) {
	case KEY_PATH:
		snprintf(buf, len, "%d\x1f%s\x1f%s", s->pair[i], s->norm[i], it->path ? it->path : "");
		break;
	case KEY_PROMPT:
		snprintf(buf, len, "%d\x1f%s", s->pair[i], s->norm[i]);
		break;
	case KEY_FAMILY:
		snprintf(buf, len, "%d\x1f%s\x1f%s", s->pair[i], s->norm[i], s->family[i]);
		break;
	case KEY_FAMILY_ANY_MODULE:
		snprintf(buf, len, "%s\x1f%s", s->norm[i], s->family[i]);
		break;
	}
	return buf;
}

static bool same_options(const struct fw_setlist_item *a, const struct fw_setlist_item *b)
{
	if (a->noptions != b->noptions || !a->noptions)
		return false;
	for (uint32_t i = 0; i < a->noptions; i++)
		if (a->options[i].value != b->options[i].value || strcmp(a->options[i].text, b->options[i].text) != 0)
			return false;
	return true;
}

static const char *last_elem(const char *path)
{
	if (!path)
		return "";
	const char *p = strrchr(path, '>');
	return p ? p + 1 : path;
}

static bool shared_path(const struct fw_setlist_item *a, const struct fw_setlist_item *b)
{
	for (uint32_t i = 0; i < a->npaths; i++)
		for (uint32_t k = 0; k < b->npaths; k++)
			if (strcmp(a->paths[i], b->paths[k]) == 0)
				return true;
	return false;
}

/* How alike two settings with the same prompt are; -1 when they cannot be the same setting. */
static int likeness(const struct fw_setlist_item *a, const struct fw_setlist_item *b)
{
	if (strcmp(a->kind, b->kind) != 0)
		return -1;
	bool opts = same_options(a, b);
	bool help = a->help[0] && strcmp(a->help, b->help) == 0;
	bool storage = a->width == b->width && a->has_offset == b->has_offset && a->offset == b->offset;
	bool limits = a->has_limits && b->has_limits && a->min == b->min && a->max == b->max && a->width == b->width;
	if (!opts && !help && !storage && !limits)
		return -1;
	return 4 * (opts || limits) + 2 * help + (a->width == b->width) + (strcmp(last_elem(a->path), last_elem(b->path)) == 0);
}

/* ---- settings: comparing a matched pair ---- */

static const char *options_text(struct fw_arena *ar, const struct fw_setlist_item *it)
{
	if (!it->noptions)
		return "(none)";
	char buf[2048];
	size_t used = 0;
	buf[0] = '\0';
	for (uint32_t i = 0; i < it->noptions && used + 1 < sizeof(buf); i++)
		used += (size_t)snprintf(buf + used, sizeof(buf) - used, "%s%" PRIu64 " %s", i ? ", " : "",
					 it->options[i].value, it->options[i].text);
	return fw_arena_strdup(ar, buf);
}

static void compare_options(struct fw_arena *ar, const struct fw_setlist_item *a, const struct fw_setlist_item *b,
			    struct fw_diff_fields *f)
{
	if (same_options(a, b) || (!a->noptions && !b->noptions))
		return;
	/* pair options as a multiset: same value and text first, then same value (renamed) */
	bool *used_a = fw_arena_alloc(ar, a->noptions + 1), *used_b = fw_arena_alloc(ar, b->noptions + 1);
	for (uint32_t i = 0; i < a->noptions; i++)
		for (uint32_t k = 0; k < b->noptions; k++)
			if (!used_b[k] && a->options[i].value == b->options[k].value &&
			    strcmp(a->options[i].text, b->options[k].text) == 0) {
				used_a[i] = used_b[k] = true;
				break;
			}
	char detail[2048] = "";
	size_t used = 0;
#define APPEND(...) used += (size_t)snprintf(detail + used, used < sizeof(detail) ? sizeof(detail) - used : 0, __VA_ARGS__)
	for (uint32_t i = 0; i < a->noptions; i++) {
		if (used_a[i])
			continue;
		for (uint32_t k = 0; k < b->noptions && !used_a[i]; k++)
			if (!used_b[k] && a->options[i].value == b->options[k].value) {
				used_a[i] = used_b[k] = true;
				APPEND("%srenamed %" PRIu64 " %s -> %s", used ? "; " : "", a->options[i].value, a->options[i].text,
				       b->options[k].text);
			}
	}
	for (uint32_t k = 0; k < b->noptions; k++)
		if (!used_b[k])
			APPEND("%sadded %" PRIu64 " %s", used ? "; " : "", b->options[k].value, b->options[k].text);
	for (uint32_t i = 0; i < a->noptions; i++)
		if (!used_a[i])
			APPEND("%sremoved %" PRIu64 " %s", used ? "; " : "", a->options[i].value, a->options[i].text);
#undef APPEND
	fw_diff_field(f, "options", options_text(ar, a), options_text(ar, b),
	      used ? fw_arena_strdup(ar, detail) : "order changed");
}

static const char *default_text(struct fw_arena *ar, const struct fw_setlist_item *it, const struct fw_setlist_default *d)
{
	if (!d)
		return NULL;
	char buf[64];
	if (d->has_value) {
		const char *t = fw_setlist_value_text(it, d->value, buf, sizeof(buf));
		return t == buf || !t ? fw_arena_strdup(ar, buf)
				      : fw_arena_printf(ar, "%s (%" PRIu64 ")", t, d->value);
	}
	return d->expr ? fw_arena_printf(ar, "= %s", d->expr) : NULL;
}

static const struct fw_setlist_default *default_for(const struct fw_setlist_item *it, uint16_t store)
{
	for (uint32_t i = 0; i < it->ndefaults; i++)
		if (it->defaults[i].store_id == store)
			return &it->defaults[i];
	return NULL;
}

static void compare_defaults(struct fw_arena *ar, const struct fw_setlist_item *a, const struct fw_setlist_item *b,
			     struct fw_diff_fields *f)
{
	/* every store of either side, standard first */
	uint16_t stores[32];
	const char *names[32];
	size_t n = 0;
	const struct fw_setlist_item *both[2] = {a, b};
	for (int s = 0; s < 2; s++)
		for (uint32_t i = 0; i < both[s]->ndefaults; i++) {
			bool seen = false;
			for (size_t k = 0; k < n && !seen; k++)
				seen = stores[k] == both[s]->defaults[i].store_id;
			if (!seen && n < 32) {
				stores[n] = both[s]->defaults[i].store_id;
				names[n++] = both[s]->defaults[i].store;
			}
		}
	for (size_t k = 0; k < n; k++) {
		const char *ta = default_text(ar, a, default_for(a, stores[k]));
		const char *tb = default_text(ar, b, default_for(b, stores[k]));
		if (fw_diff_str_eq(ta, tb))
			continue;
		const char *name = stores[k] == 0 ? "default" : fw_arena_printf(ar, "default %s", names[k]);
		fw_diff_field(f, name, ta ? ta : "(none)", tb ? tb : "(none)", NULL);
	}
}

static void compare_pair(struct fw_diff *d, struct fw_setlist *la, struct fw_setlist *lb,
			 const struct fw_setlist_item *a, const struct fw_setlist_item *b, struct fw_diff_fields *f)
{
	struct fw_arena *ar = &d->arena;
	f->n = 0;
	if (strcmp(a->prompt, b->prompt) != 0)
		fw_diff_field(f, "prompt", a->prompt, b->prompt, NULL);
	if (strcmp(a->kind, b->kind) != 0)
		fw_diff_field(f, "kind", a->kind, b->kind, NULL);
	if (!fw_diff_str_eq(a->path, b->path))
		fw_diff_field(f, "path", a->path ? a->path : "(none)", b->path ? b->path : "(none)", NULL);
	compare_options(ar, a, b, f);
	compare_defaults(ar, a, b, f);
	if (a->has_limits != b->has_limits || (a->has_limits && (a->min != b->min || a->max != b->max || a->step != b->step)))
		fw_diff_field(f, "limits",
		      a->has_limits ? fw_arena_printf(ar, "%" PRIu64 "..%" PRIu64 " step %" PRIu64, a->min, a->max, a->step) : "(none)",
		      b->has_limits ? fw_arena_printf(ar, "%" PRIu64 "..%" PRIu64 " step %" PRIu64, b->min, b->max, b->step) : "(none)",
		      NULL);
	const char *ca = fw_setlist_condition(la, a), *cb = fw_setlist_condition(lb, b);
	if (!fw_diff_str_eq(ca, cb))
		fw_diff_field(f, "condition", ca ? ca : "(none)", cb ? cb : "(none)", NULL);
	if (strcmp(a->help, b->help) != 0)
		fw_diff_field(f, "help", a->help, b->help, NULL);
	/* storage last: writers tell a layout shift from a change of meaning */
	if (!fw_diff_str_eq(a->varstore, b->varstore))
		fw_diff_field(f, "varstore", a->varstore ? a->varstore : "(none)", b->varstore ? b->varstore : "(none)", NULL);
	if (a->varstore_guid && b->varstore_guid && strcmp(a->varstore_guid, b->varstore_guid) != 0)
		fw_diff_field(f, "varstore GUID", a->varstore_guid, b->varstore_guid, NULL);
	if (a->has_offset && b->has_offset && a->offset != b->offset)
		fw_diff_field(f, "offset", fw_arena_printf(ar, "0x%X", a->offset), fw_arena_printf(ar, "0x%X", b->offset), NULL);
	if (a->width != b->width)
		fw_diff_field(f, "width", fw_arena_printf(ar, "%u", a->width), fw_arena_printf(ar, "%u", b->width), NULL);
	if (a->bit_field != b->bit_field || (a->bit_field && (a->bit_offset != b->bit_offset || a->bit_width != b->bit_width)))
		fw_diff_field(f, "bits", a->bit_field ? fw_arena_printf(ar, "%u:%u", a->bit_offset, a->bit_width) : "(none)",
		      b->bit_field ? fw_arena_printf(ar, "%u:%u", b->bit_offset, b->bit_width) : "(none)", NULL);
}

static bool is_layout_field(const char *name)
{
	return strcmp(name, "varstore") == 0 || strcmp(name, "varstore GUID") == 0 || strcmp(name, "offset") == 0 ||
	       strcmp(name, "width") == 0 || strcmp(name, "bits") == 0;
}

static void add_setting(struct fw_diff *d, enum fw_diff_kind kind, const struct fw_setlist_item *a,
			const struct fw_setlist_item *b, const struct fw_diff_fields *f)
{
	d->settings = fw_diff_grow(d->settings, &d->settings_cap, d->nsettings, sizeof(*d->settings));
	struct fw_diff_setting *s = &d->settings[d->nsettings++];
	memset(s, 0, sizeof(*s));
	s->kind = kind;
	s->a = a;
	s->b = b;
	if (f) {
		s->fields = fw_diff_keep_fields(d, f);
		s->nfields = f->n;
		if (kind == FW_DIFF_CHANGED) {
			s->layout_only = true;
			for (size_t i = 0; i < f->n; i++)
				s->layout_only = s->layout_only && is_layout_field(f->items[i].field);
			d->layout_only += s->layout_only;
		}
	}
	d->counts[kind]++;
}

static const char *value_text(struct fw_arena *ar, const struct fw_setlist_item *it)
{
	char buf[64];
	const char *t = fw_setlist_current_text(it, buf, sizeof(buf));
	return t ? fw_arena_strdup(ar, t) : NULL;
}

/* Both sides hold their own default and the default changed: the settings section reports the
 * default change, so the value change is not listed again. */
static bool follows_default(const struct fw_setlist_item *a, const struct fw_setlist_item *b)
{
	const struct fw_setlist_default *da = fw_setlist_default(a), *db = fw_setlist_default(b);
	return a->has_current && b->has_current && da && db && da->has_value && db->has_value &&
	       a->current == da->value && b->current == db->value && da->value != db->value;
}

static void compare_values(struct fw_diff *d, const struct fw_setlist_item *a, const struct fw_setlist_item *b)
{
	if (!a->has_current && !b->has_current)
		return;
	bool same;
	if (a->has_current && b->has_current)
		same = a->current_text || b->current_text ? fw_diff_str_eq(a->current_text, b->current_text) && a->current == b->current
							  : a->current == b->current;
	else
		same = false;
	if (same || follows_default(a, b))
		return;
	d->values = fw_diff_grow(d->values, &d->values_cap, d->nvalues, sizeof(*d->values));
	d->values[d->nvalues++] = (struct fw_diff_value){a, b, value_text(&d->arena, a), value_text(&d->arena, b), NULL};
}

static void pair_found(struct matcher *m, size_t ia, size_t ib, bool moved)
{
	m->a.matched[ia] = m->b.matched[ib] = true;
	const struct fw_setlist_item *a = &m->a.l->items[ia], *b = &m->b.l->items[ib];
	struct fw_diff_fields f;
	compare_pair(m->d, m->a.l, m->b.l, a, b, &f);
	m->d->matched++;
	if (moved)
		add_setting(m->d, FW_DIFF_MOVED, a, b, &f);
	else if (f.n)
		add_setting(m->d, FW_DIFF_CHANGED, a, b, &f);
	compare_values(m->d, a, b);
}

/* Match unmatched A items against unmatched B items of the same key. */
static void match_stage(struct matcher *m, enum key_kind k)
{
	struct fw_strmap map;
	fw_strmap_init(&map);
	char key[1024];
	for (size_t i = 0; i < m->b.l->n; i++)
		if (!m->b.matched[i] && (k == KEY_PATH || m->b.norm[i][0]))
			bucket_add(&m->tmp, &map, key_of(&m->b, i, k, key, sizeof(key)), i);
	for (size_t i = 0; i < m->a.l->n; i++) {
		if (m->a.matched[i] || (k != KEY_PATH && !m->a.norm[i][0]))
			continue;
		struct bucket *bk = fw_strmap_get(&map, key_of(&m->a, i, k, key, sizeof(key)));
		if (!bk)
			continue;
		const struct fw_setlist_item *a = &m->a.l->items[i];
		long best = -1;
		int best_score = -1;
		for (struct chain *c = bk->head; c; c = c->next) {
			if (m->b.matched[c->idx])
				continue;
			const struct fw_setlist_item *b = &m->b.l->items[c->idx];
			int score;
			if (k == KEY_PATH)
				score = 0;
			else if (k == KEY_PROMPT)
				score = shared_path(a, b) ? 0 : -1;
			else
				score = likeness(a, b);
			if (score > best_score) {
				best_score = score;
				best = (long)c->idx;
				if (k == KEY_PATH || k == KEY_PROMPT)
					break; /* first in order */
			}
		}
		if (best >= 0)
			pair_found(m, i, (size_t)best, k == KEY_FAMILY || k == KEY_FAMILY_ANY_MODULE);
	}
	fw_strmap_free(&map);
}

void fw_diff_settings(struct fw_setlist *la, struct fw_setlist *lb, struct fw_diff *d)
{
	struct matcher m;
	memset(&m, 0, sizeof(m));
	m.d = d;
	fw_arena_init(&m.tmp);
	side_init(&m, &m.a, la);
	side_init(&m, &m.b, lb);
	pair_modules(&m);
	d->have_settings = true;
	d->a_settings = la->n;
	d->b_settings = lb->n;
	d->values_source[0] = la->current_source ? fw_arena_strdup(&d->arena, la->current_source) : NULL;
	d->values_source[1] = lb->current_source ? fw_arena_strdup(&d->arena, lb->current_source) : NULL;
	match_stage(&m, KEY_PATH);
	match_stage(&m, KEY_PROMPT);
	match_stage(&m, KEY_FAMILY);
	match_stage(&m, KEY_FAMILY_ANY_MODULE);
	for (size_t i = 0; i < la->n; i++)
		if (!m.a.matched[i])
			add_setting(d, FW_DIFF_REMOVED, &la->items[i], NULL, NULL);
	for (size_t i = 0; i < lb->n; i++)
		if (!m.b.matched[i])
			add_setting(d, FW_DIFF_ADDED, NULL, &lb->items[i], NULL);
	fw_arena_free(&m.tmp);
}

/* ---- limiting to topics ---- */

/* A pair belongs to a topic when either side does (a setting renamed into or out of it). */
static const char *pair_topics(struct fw_diff *d, const struct fw_setlist_item *a, const struct fw_setlist_item *b,
			       const struct fw_topic *const *topics, size_t ntopics)
{
	const char *tb = b ? fw_query_item_topics(&d->arena, b, topics, ntopics) : NULL;
	return tb ? tb : a ? fw_query_item_topics(&d->arena, a, topics, ntopics) : NULL;
}

void fw_diff_keep_topics(struct fw_diff *d, const struct fw_topic *const *topics, size_t ntopics)
{
	char names[512] = "";
	size_t used = 0;
	for (size_t t = 0; t < ntopics && used < sizeof(names); t++)
		used += (size_t)snprintf(names + used, sizeof(names) - used, "%s%s", t ? ", " : "", topics[t]->name);
	d->topic_filter = fw_arena_strdup(&d->arena, names);
	size_t kept = 0;
	memset(d->counts, 0, sizeof(d->counts));
	d->layout_only = 0;
	for (size_t i = 0; i < d->nsettings; i++) {
		struct fw_diff_setting s = d->settings[i];
		s.topics = pair_topics(d, s.a, s.b, topics, ntopics);
		if (!s.topics)
			continue;
		d->counts[s.kind]++;
		d->layout_only += s.layout_only;
		d->settings[kept++] = s;
	}
	d->nsettings = kept;
	kept = 0;
	for (size_t i = 0; i < d->nvalues; i++) {
		struct fw_diff_value v = d->values[i];
		v.topics = pair_topics(d, v.a, v.b, topics, ntopics);
		if (v.topics)
			d->values[kept++] = v;
	}
	d->nvalues = kept;
}

/* ---- varstores (from the settings that use them) ---- */

struct vs_info {
	const char *name, *guid;
	unsigned size; /* 0 = unknown */
	size_t settings;
	bool matched;
};

static void collect_varstores(struct fw_arena *ar, struct fw_setlist *l, struct fw_strmap *m)
{
	for (size_t i = 0; i < l->n; i++) {
		const struct fw_setlist_item *it = &l->items[i];
		if (!it->varstore)
			continue;
		struct vs_info *v = fw_strmap_get(m, it->varstore);
		if (!v) {
			v = fw_arena_alloc(ar, sizeof(*v));
			v->name = it->varstore;
			v->guid = it->varstore_guid;
			fw_strmap_put(m, it->varstore, v);
		}
		v->settings++;
		if (!v->size && it->setting && it->setting->vs)
			v->size = it->setting->vs->size;
	}
}

static void compare_varstore(struct fw_diff *d, const struct vs_info *a, const struct vs_info *b)
{
	struct fw_diff_fields f = {.n = 0};
	struct fw_arena *ar = &d->arena;
	if (strcmp(a->name, b->name) != 0)
		fw_diff_field(&f, "name", a->name, b->name, NULL);
	if (a->guid && b->guid && strcmp(a->guid, b->guid) != 0)
		fw_diff_field(&f, "GUID", a->guid, b->guid, NULL);
	if (a->size && b->size && a->size != b->size)
		fw_diff_field(&f, "size", fw_arena_printf(ar, "0x%X", a->size), fw_arena_printf(ar, "0x%X", b->size), NULL);
	if (!f.n)
		return;
	struct fw_diff_entry *e = fw_diff_add_entry(d, "varstores", NULL, FW_DIFF_CHANGED, a->name, NULL, NULL);
	e->fields = fw_diff_keep_fields(d, &f);
	e->nfields = f.n;
}

void fw_diff_varstores(struct fw_diff *d, struct fw_setlist *la, struct fw_setlist *lb)
{
	struct fw_arena tmp;
	fw_arena_init(&tmp);
	struct fw_strmap ma, mb;
	fw_strmap_init(&ma);
	fw_strmap_init(&mb);
	collect_varstores(&tmp, la, &ma);
	collect_varstores(&tmp, lb, &mb);
	const char *k;
	void *v;
	/* same name */
	for (size_t it = 0; fw_strmap_next(&ma, &it, &k, &v);) {
		struct vs_info *a = v, *b = fw_strmap_get(&mb, k);
		if (b) {
			a->matched = b->matched = true;
			compare_varstore(d, a, b);
		}
	}
	/* renamed within a family (AmdSetupSHP -> AmdSetupSTP) */
	char fa[256], fb[256];
	for (size_t it = 0; fw_strmap_next(&ma, &it, &k, &v);) {
		struct vs_info *a = v;
		if (a->matched)
			continue;
		const char *kb;
		void *vb;
		for (size_t jt = 0; fw_strmap_next(&mb, &jt, &kb, &vb);) {
			struct vs_info *b = vb;
			if (!b->matched && strcmp(fw_varstore_family(a->name, fa, sizeof(fa)),
						  fw_varstore_family(b->name, fb, sizeof(fb))) == 0) {
				a->matched = b->matched = true;
				compare_varstore(d, a, b);
				break;
			}
		}
	}
	for (size_t it = 0; fw_strmap_next(&ma, &it, &k, &v);) {
		struct vs_info *a = v;
		if (!a->matched)
			fw_diff_add_entry(d, "varstores", NULL, FW_DIFF_REMOVED, a->name, a->guid, NULL);
	}
	for (size_t it = 0; fw_strmap_next(&mb, &it, &k, &v);) {
		struct vs_info *b = v;
		if (!b->matched)
			fw_diff_add_entry(d, "varstores", NULL, FW_DIFF_ADDED, b->name, NULL, b->guid);
	}
	fw_strmap_free(&ma);
	fw_strmap_free(&mb);
	fw_arena_free(&tmp);
}
