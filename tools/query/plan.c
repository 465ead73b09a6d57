/* Building change sets: resolution, values, dependencies through conditions, verification. */
#include "plan.h"

#include <ctype.h>
#include <stdarg.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "parsers/env.h"
#include "say-once.h"
#include "topics.h"

static void *grow(void *ptr, size_t *cap, size_t need, size_t size)
{
	if (need <= *cap)
		return ptr;
	*cap = *cap ? *cap * 2 : 8;
	if (*cap < need)
		*cap = need;
	return fw_xrealloc(ptr, *cap * size);
}

void fw_plan_note(struct fw_plan *p, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fw_say_once(&p->notes, &p->nnotes, fmt, ap);
	va_end(ap);
}


bool fw_plan_init(struct fw_plan *p, struct fw_source *src, struct fw_error *err)
{
	memset(p, 0, sizeof(*p));
	fw_arena_init(&p->arena);
	p->src = src;
	p->s = src->kind == FW_SOURCE_LIST ? NULL : fw_source_settings(src);
	if (!p->s)
		return fw_error_set(err, FW_E_NOT_FOUND, "%s: no setup forms to plan with%s", src->path,
				    src->kind == FW_SOURCE_MACHINE ? " (give --image FILE, or capture the snapshot with --image)"
				    : src->kind == FW_SOURCE_LIST ? " (a settings list has no storage bytes to change)" : "");
	p->current_source = fw_arena_strdup(&p->arena, fw_source_current_text(src));
	const char *sha = fw_source_image_sha256(src); /* the cache key when the forms came from the cache */
	if (sha)
		snprintf(p->image_sha256, sizeof(p->image_sha256), "%s", sha);
	return true;
}

void fw_plan_free(struct fw_plan *p)
{
	fw_arena_free(&p->arena);
	free(p->entries);
	fw_say_once_free(p->notes, p->nnotes);
	free(p->candidates);
	free(p->copies);
	memset(p, 0, sizeof(*p));
}

/* ---- resolution ---- */

static bool storage(const struct fw_setting *st)
{
	return st->vs && st->varstore_name && st->q->width && st->q->varstore_id;
}

static uint32_t byte_offset(const struct fw_setting *st)
{
	return st->q->bit_field ? st->q->bit_offset / 8 : st->q->var_info;
}

static bool in_module(const struct fw_setting *st, const char *module)
{
	return !module || fw_hii_module_matches(st->fp->module, module);
}

/* "Setup+0x104", "AmdSetupBRH+0x33": the varstore name and the byte offset. */
static bool parse_location(const char *s, char *name, size_t namelen, uint32_t *off)
{
	const char *plus = strrchr(s, '+');
	if (!plus || plus == s || (size_t)(plus - s) >= namelen || strncasecmp(plus + 1, "0x", 2) != 0)
		return false;
	char *end;
	unsigned long v = strtoul(plus + 3, &end, 16);
	if (end == plus + 3 || *end || v > 0xFFFFFFu)
		return false;
	memcpy(name, s, (size_t)(plus - s));
	name[plus - s] = '\0';
	*off = (uint32_t)v;
	return true;
}

const struct fw_setting *fw_plan_lookup(struct fw_plan *p, const char *setting, const char *module,
					struct fw_error *err)
{
	p->ncandidates = 0;
	char want[512], have[512], vs[256];
	uint32_t off = 0;
	bool loc = parse_location(setting, vs, sizeof(vs), &off);
	fw_topic_normalise(setting, want, sizeof(want));
	free(p->candidates);
	p->candidates = NULL;
	const struct fw_setting **found = NULL;
	size_t n = 0, cap = 0;
	/* by location, then keyword, then prompt: the first rule that matches anything decides */
	for (int rule = loc ? 0 : 1; rule < 3 && n == 0; rule++) {
		for (uint32_t i = 0; i < p->s->n; i++) {
			const struct fw_setting *st = &p->s->items[i];
			if (!in_module(st, module) || !storage(st))
				continue;
			bool hit;
			if (rule == 0)
				hit = strcasecmp(st->varstore_name, vs) == 0 && byte_offset(st) == off;
			else if (rule == 1)
				hit = st->keyword && strcasecmp(st->keyword, want) == 0;
			else
				hit = strcmp(fw_topic_normalise(st->prompt, have, sizeof(have)), want) == 0;
			if (hit) {
				found = grow(found, &cap, n + 1, sizeof(*found));
				found[n++] = st;
			}
		}
	}
	free(p->copies);
	p->copies = NULL;
	p->ncopies = 0;
	bool per_generation = false;
	if (n > 1 && !module)
		n = fw_plan_pick_module(p, setting, found, n, &per_generation);
	if (n == 1) {
		const struct fw_setting *st = found[0];
		free(found);
		return st;
	}
	if (per_generation) {
		/* one setting per generation's module, which applies not known: each is planned */
		p->copies = found;
		p->ncopies = n;
		return found[0];
	}
	if (n == 0) {
		fw_error_set(err, FW_E_USAGE, "no setting \"%s\"%s%s (give a prompt, an x-UEFI keyword or VARSTORE+0xOFFSET; "
			     "`fwlens find` lists them)", setting, module ? " in module " : "", module ? module : "");
		return NULL;
	}
	p->candidates = found;
	p->ncandidates = n;
	fw_error_set(err, FW_E_USAGE, "\"%s\" is ambiguous: %zu settings match; give --module, the keyword or "
		     "VARSTORE+0xOFFSET", setting, n);
	return NULL;
}

const char *fw_plan_value_text(struct fw_plan *p, const struct fw_setting *st, uint64_t v)
{
	if (st->q->kind == FW_IFR_K_CHECKBOX && v <= 1)
		return v ? "Enabled" : "Disabled";
	for (uint32_t i = 0; i < st->noptions; i++)
		if (st->options[i].opt->value.u == v)
			return st->options[i].text;
	return fw_arena_printf(&p->arena, "%" PRIu64, v);
}

static bool word_is(const char *a, const char *b)
{
	char x[256], y[256];
	return strcmp(fw_topic_normalise(a, x, sizeof(x)), fw_topic_normalise(b, y, sizeof(y))) == 0;
}

static bool parse_number(const char *text, uint64_t *out)
{
	while (isspace((unsigned char)*text))
		text++;
	if (!*text || *text == '-')
		return false;
	char *end;
	unsigned long long v = strtoull(text, &end, 0);
	while (isspace((unsigned char)*end))
		end++;
	if (*end)
		return false;
	*out = v;
	return true;
}

static void allowed(const struct fw_setting *st, char *buf, size_t len)
{
	size_t k = 0;
	buf[0] = '\0';
	for (uint32_t i = 0; i < st->noptions && k + 1 < len; i++)
		k += (size_t)snprintf(buf + k, len - k, "%s%s (%" PRIu64 ")", i ? ", " : "", st->options[i].text,
				      st->options[i].opt->value.u);
}

bool fw_plan_parse_value(const struct fw_setting *st, const char *text, uint64_t *out, struct fw_error *err)
{
	const struct fw_ifr_question *q = st->q;
	uint64_t v;
	char buf[1024];
	switch (q->kind) {
	case FW_IFR_K_ONE_OF:
		for (uint32_t i = 0; i < st->noptions; i++)
			if (word_is(st->options[i].text, text)) {
				*out = st->options[i].opt->value.u;
				return true;
			}
		if (parse_number(text, &v))
			for (uint32_t i = 0; i < st->noptions; i++)
				if (st->options[i].opt->value.u == v) {
					*out = v;
					return true;
				}
		allowed(st, buf, sizeof(buf));
		return fw_error_set(err, FW_E_USAGE, "%s: \"%s\" is not one of its options: %s", st->prompt, text, buf);
	case FW_IFR_K_CHECKBOX: {
		static const char *const on[] = {"enabled", "enable", "on", "true", "1"}, *const off[] = {"disabled", "disable", "off", "false", "0"};
		for (size_t i = 0; i < 5; i++) {
			if (word_is(on[i], text)) {
				*out = 1;
				return true;
			}
			if (word_is(off[i], text)) {
				*out = 0;
				return true;
			}
		}
		return fw_error_set(err, FW_E_USAGE, "%s: a checkbox takes Enabled or Disabled, not \"%s\"", st->prompt, text);
	}
	case FW_IFR_K_NUMERIC: {
		uint64_t step = q->step ? q->step : 1;
		bool limits = q->has_limits && q->min <= q->max;
		uint64_t wmax = q->width >= 8 ? UINT64_MAX : ((uint64_t)1 << (8 * q->width)) - 1;
		if (!parse_number(text, &v) || v > wmax || (limits && (v < q->min || v > q->max || (v - q->min) % step))) {
			char steps[48] = "";
			if (step > 1)
				snprintf(steps, sizeof(steps), " in steps of %" PRIu64, step);
			return fw_error_set(err, FW_E_USAGE, "%s: takes a number from %" PRIu64 " to %" PRIu64 "%s, not \"%s\"",
					    st->prompt, limits ? q->min : 0, limits ? q->max : wmax, steps, text);
		}
		*out = v;
		return true;
	}
	default:
		return fw_error_set(err, FW_E_USAGE, "%s: a %s question; plan changes one-of, checkbox and numeric questions",
				    st->prompt, fw_ifr_kind_name(q->kind));
	}
}

/* ---- targets ---- */

static struct fw_plan_entry *entry_of(struct fw_plan *p, const struct fw_setting *st)
{
	for (size_t i = 0; i < p->n; i++)
		if (p->entries[i].st == st)
			return &p->entries[i];
	return NULL;
}

/* The value a question has under the plan: planned, else current, else its standard default. */
static bool value_under_plan(const struct fw_plan *p, const struct fw_setting *st, uint64_t *v, const char **from)
{
	for (size_t i = 0; i < p->n; i++)
		if (p->entries[i].st == st) {
			*v = p->entries[i].value;
			*from = "planned";
			return true;
		}
	if (st->has_current) {
		*v = st->current;
		*from = "current";
		return true;
	}
	for (uint32_t i = 0; i < st->ndefaults; i++)
		if (st->defaults[i].store_id == 0 && st->defaults[i].has_value) {
			*v = st->defaults[i].value;
			*from = "default";
			return true;
		}
	return false;
}

static struct fw_plan_entry *insert_entry(struct fw_plan *p, size_t at, struct fw_error *err)
{
	if (p->n >= FW_PLAN_MAX_ENTRIES) {
		fw_error_set(err, FW_E_LIMIT, "plan: more than %u entries", FW_PLAN_MAX_ENTRIES);
		return NULL;
	}
	p->entries = grow(p->entries, &p->cap, p->n + 1, sizeof(*p->entries));
	memmove(&p->entries[at + 1], &p->entries[at], (p->n - at) * sizeof(*p->entries));
	p->n++;
	struct fw_plan_entry *e = &p->entries[at];
	memset(e, 0, sizeof(*e));
	return e;
}

static bool add_setting(struct fw_plan *p, const struct fw_setting *st, uint64_t v, const char *given, const char *reason,
			const char *check, struct fw_error *err)
{
	struct fw_plan_entry *e = entry_of(p, st);
	if (e) {
		if (e->value != v)
			return fw_error_set(err, FW_E_USAGE, "conflicting requests for %s: %s and %s", st->prompt, e->value_text,
					    fw_plan_value_text(p, st, v));
		if (check && !e->check)
			e->check = check;
		return true;
	}
	if (!(e = insert_entry(p, p->n, err)))
		return false;
	e->st = st;
	e->given = given ? fw_arena_strdup(&p->arena, given) : NULL;
	e->value = v;
	e->value_text = fw_plan_value_text(p, st, v);
	e->reason = fw_arena_strdup(&p->arena, reason);
	e->check = check;
	return true;
}

bool fw_plan_add(struct fw_plan *p, const char *setting, const char *value, const char *module, const char *reason,
		 const char *check, struct fw_error *err)
{
	const struct fw_setting *st = fw_plan_lookup(p, setting, module, err);
	uint64_t v;
	if (!st)
		return false;
	if (p->ncopies) {
		/* asked for by name: which generation's module is meant is the asker's to say */
		p->candidates = p->copies;
		p->ncandidates = p->ncopies;
		p->copies = NULL;
		p->ncopies = 0;
		return fw_error_set(err, FW_E_USAGE, "\"%s\" is in %zu modules made for different CPU generations, and which "
						     "one this machine runs is not known; give --module, the keyword or VARSTORE+0xOFFSET",
				    setting, p->ncandidates);
	}
	if (!fw_plan_parse_value(st, value, &v, err))
		return false;
	return add_setting(p, st, v, setting, reason, check, err);
}

static bool standard_default(const struct fw_setting *st, uint64_t *v)
{
	for (uint32_t i = 0; i < st->ndefaults; i++)
		if (st->defaults[i].store_id == 0 && st->defaults[i].has_value) {
			*v = st->defaults[i].value;
			return true;
		}
	return false;
}

static bool add_goal_one(struct fw_plan *p, const struct fw_setting *st, const char *prompt, const char *values,
			 bool has_min, unsigned long long min, const char *reason, const char *check, struct fw_error *err)
{
	struct fw_error e2;
	if (entry_of(p, st))
		return true; /* a --set of the same setting wins */
	uint64_t v = 0;
	bool ok = false;
	/* "Enable|Enabled": the first alternative the forms have */
	char buf[256];
	snprintf(buf, sizeof(buf), "%s", values);
	for (char *save = NULL, *tok = strtok_r(buf, "|", &save); tok && !ok; tok = strtok_r(NULL, "|", &save)) {
		fw_error_clear(&e2);
		ok = fw_plan_parse_value(st, tok, &v, &e2);
	}
	if (!ok)
		return fw_error_set(err, FW_E_USAGE, "profile goal %s = %s: %s", prompt, values, e2.msg);
	const char *mod = p->ncopies && st->fp->module->name ? st->fp->module->name : NULL;
	if (has_min && st->has_current && st->current >= min) {
		fw_plan_note(p, "%s%s%s is %" PRIu64 ", at least %llu already: goal met", st->prompt, mod ? " in " : "", mod ? mod : "",
		     st->current, min);
		return true;
	}
	if (st->has_current && st->current == v) {
		fw_plan_note(p, "%s%s%s is %s already: goal met", st->prompt, mod ? " in " : "", mod ? mod : "", fw_plan_value_text(p, st, v));
		return true;
	}
	/* hidden by design (suppressed where it stands) with a default that meets the goal: the firmware
	 * uses that default, and the setting cannot be changed from the menu anyway */
	uint64_t d;
	if (st->hidden == 1 && standard_default(st, &d) && (!st->has_current || st->current == d) &&
	    (has_min ? d >= min : d == v)) {
		fw_plan_note(p, "%s%s%s is hidden (suppress-if true) and its default %s meets the goal%s: goal met", st->prompt,
		     mod ? " in " : "", mod ? mod : "", fw_plan_value_text(p, st, d),
		     st->has_current ? "" : " (its stored value is not known: the default counts)");
		return true;
	}
	return add_setting(p, st, v, NULL, reason, check, err);
}

bool fw_plan_add_goal(struct fw_plan *p, const char *prompt, const char *values, bool has_min,
		      unsigned long long min, const char *module, const char *reason, const char *check,
		      struct fw_error *err)
{
	struct fw_error e2;
	fw_error_clear(&e2);
	const struct fw_setting *st = fw_plan_lookup(p, prompt, module, &e2);
	if (!st) {
		if (p->ncandidates)
			return fw_error_set(err, FW_E_USAGE, "%s", e2.msg);
		fw_plan_note(p, "%s: this BIOS has no such setting; goal skipped", prompt);
		return true;
	}
	const struct fw_setting *one[1] = {st};
	size_t n = p->ncopies ? p->ncopies : 1;
	const struct fw_setting **all = p->ncopies ? fw_arena_alloc(&p->arena, n * sizeof(*all)) : one;
	if (p->ncopies)
		memcpy(all, p->copies, n * sizeof(*all));
	size_t ncopies = p->ncopies;
	for (size_t i = 0; i < n; i++) {
		p->ncopies = ncopies; /* the module labels in the notes */
		if (!add_goal_one(p, all[i], prompt, values, has_min, min, reason, check, err))
			return false;
	}
	return true;
}

/* ---- dependencies ---- */

/* The settings' expression environment with the plan's values over the current ones. */
struct overlay {
	struct fw_settings_env base; /* first: the name callbacks take the context as this */
	const struct fw_plan *p;
};

static bool overlay_value(void *ctx, uint16_t qid, uint64_t *v)
{
	const struct overlay *o = ctx;
	const struct fw_setting *st = fw_settings_question(o->p->s, o->base.fp, qid);
	const char *from;
	return st && value_under_plan(o->p, st, v, &from);
}

static void overlay_init(struct overlay *o, const struct fw_plan *p, const struct fw_hii_form_pkg *fp)
{
	fw_settings_env_init(&o->base, fp, p->s);
	o->p = p;
	o->base.env.ctx = o;
	o->base.env.question_value = overlay_value;
}

/* 1 true, 0 false, -1 not evaluable. */
static int cond_state(const struct fw_plan *p, const struct fw_setting *st, const struct fw_ifr_cond *c)
{
	struct overlay o;
	overlay_init(&o, p, st->fp);
	uint64_t v;
	if (!c->expr || fw_ifr_expr_eval(c->expr, &o.base.env, &v) != FW_IFR_EVAL_OK)
		return -1;
	return v != 0;
}

/* The questions an expression reads. */
static size_t expr_questions(const struct fw_ifr_expr *e, uint16_t *out, size_t n, size_t max, unsigned depth)
{
	if (!e || depth > 64)
		return n;
	uint16_t q[2] = {e->qid, e->qid2};
	for (int k = 0; k < 2; k++) {
		bool seen = !q[k];
		for (size_t i = 0; i < n && !seen; i++)
			seen = out[i] == q[k];
		if (!seen && n < max)
			out[n++] = q[k];
	}
	for (unsigned i = 0; i < e->nargs && i < 3; i++)
		n = expr_questions(e->args[i], out, n, max, depth + 1);
	for (uint32_t i = 0; i < e->nmap; i++)
		n = expr_questions(e->map[i], out, n, max, depth + 1);
	return n;
}

static const char *cond_verb(const struct fw_ifr_cond *c)
{
	return c->kind == FW_IFR_COND_GRAYOUT ? "locked (gray-out-if)" : c->kind == FW_IFR_COND_DISABLE ? "disabled (disable-if)"
												       : "hidden (suppress-if)";
}

static bool make_settable(struct fw_plan *p, const struct fw_setting *st, unsigned depth, struct fw_error *err);

/* 1 true, 0 false, -1 not evaluable: any subexpression, with the plan's values. */
static int expr_state(const struct fw_plan *p, const struct fw_setting *st, const struct fw_ifr_expr *x)
{
	struct overlay o;
	overlay_init(&o, p, st->fp);
	uint64_t v;
	if (!x || fw_ifr_expr_eval(x, &o.base.env, &v) != FW_IFR_EVAL_OK)
		return -1;
	return v != 0;
}

struct clearing {
	const struct fw_setting *st;     /* the question being made settable */
	const struct fw_setting_cond *sc; /* the condition around it */
	const struct fw_setting *blocker; /* a planned question the condition reads */
	unsigned depth;
};

/* Make `x` false by changing one question it reads (not one already planned); the change goes in
 * front of the question it unlocks. 1 done, 0 no single question does it, -1 error. */
static int clear_leaf(struct fw_plan *p, struct clearing *c, const struct fw_ifr_expr *x, struct fw_error *err)
{
	const struct fw_setting *st = c->st;
	uint16_t qids[32];
	size_t nq = expr_questions(x, qids, 0, 32, 0);
	for (size_t i = 0; i < nq; i++) {
		const struct fw_setting *r = fw_settings_question(p->s, st->fp, qids[i]);
		if (!r || r == st || !storage(r))
			continue;
		if (entry_of(p, r)) {
			c->blocker = r;
			continue;
		}
		/* values to try: the default first (least surprise), then each option */
		uint64_t tries[68];
		size_t nt = 0;
		for (uint32_t k = 0; k < r->ndefaults && nt < 1; k++)
			if (r->defaults[k].store_id == 0 && r->defaults[k].has_value)
				tries[nt++] = r->defaults[k].value;
		if (r->q->kind == FW_IFR_K_CHECKBOX) {
			tries[nt++] = 1;
			tries[nt++] = 0;
		}
		for (uint32_t k = 0; k < r->noptions && nt < 68; k++)
			tries[nt++] = r->options[k].opt->value.u;
		for (size_t t = 0; t < nt; t++) {
			uint64_t now;
			const char *from;
			bool known = value_under_plan(p, r, &now, &from);
			if (known && now == tries[t])
				continue;
			size_t at = (size_t)(entry_of(p, st) - p->entries);
			struct fw_plan_entry *e = insert_entry(p, at, err);
			if (!e)
				return -1;
			e->st = r;
			e->value = tries[t];
			if (expr_state(p, st, x) != 0) {
				memmove(&p->entries[at], &p->entries[at + 1], (p->n - at - 1) * sizeof(*p->entries));
				p->n--;
				continue;
			}
			e->value_text = fw_plan_value_text(p, r, tries[t]);
			e->dependency = true;
			e->unlocks = st->prompt;
			e->reason = fw_arena_printf(&p->arena, "%s is %s while %s; %s %s -> %s makes it settable", st->prompt,
						    cond_verb(c->sc->cond), fw_setting_cond_text(c->sc), r->prompt,
						    known ? fw_plan_value_text(p, r, now) : "(unknown)", e->value_text);
			return make_settable(p, r, c->depth + 1, err) ? 1 : -1;
		}
	}
	return 0;
}

/* Make `x` false: each side of an or, one side of an and, else one question it reads. */
static int clear_expr(struct fw_plan *p, struct clearing *c, const struct fw_ifr_expr *x, struct fw_error *err)
{
	int state = expr_state(p, c->st, x);
	if (state == 0)
		return 1;
	if (state == -1)
		return 0;
	if (x->op == FW_IFR_OR && x->nargs == 2) {
		for (int i = 0; i < 2; i++) {
			int r = clear_expr(p, c, x->args[i], err);
			if (r != 1)
				return r;
		}
		return expr_state(p, c->st, x) == 0;
	}
	if (x->op == FW_IFR_AND && x->nargs == 2) {
		for (int i = 0; i < 2; i++) {
			int r = clear_expr(p, c, x->args[i], err);
			if (r != 0)
				return r;
		}
	}
	return clear_leaf(p, c, x, err);
}

/* Clear one true condition around `st`, or say why it cannot be. */
static bool clear_condition(struct fw_plan *p, const struct fw_setting *st, const struct fw_setting_cond *sc,
			    unsigned depth, struct fw_error *err)
{
	struct clearing c = {st, sc, NULL, depth};
	int r = clear_expr(p, &c, sc->cond->expr, err);
	if (r == 1)
		return true;
	if (r == -1)
		return false;
	if (c.blocker)
		return fw_error_set(err, FW_E_USAGE, "contradiction: %s would be %s while %s, and %s is planned as %s",
				    st->prompt, cond_verb(sc->cond), fw_setting_cond_text(sc), c.blocker->prompt,
				    entry_of(p, c.blocker)->value_text);
	return fw_error_set(err, FW_E_USAGE, "%s is %s while %s, and no change of another setting clears it", st->prompt,
			    cond_verb(sc->cond), fw_setting_cond_text(sc));
}

static bool make_settable(struct fw_plan *p, const struct fw_setting *st, unsigned depth, struct fw_error *err)
{
	if (depth > FW_PLAN_MAX_DEPTH)
		return fw_error_set(err, FW_E_LIMIT, "%s: dependencies deeper than %u questions", st->prompt, FW_PLAN_MAX_DEPTH);
	for (uint32_t k = 0; k < st->nconds; k++) {
		const struct fw_setting_cond *sc = &st->conds[k];
		int state = cond_state(p, st, sc->cond);
		if (state == -1)
			fw_plan_note(p, "%s: cannot evaluate %s %s with the values known; left as it is", st->prompt,
			     fw_ifr_cond_kind_name(sc->cond->kind), fw_setting_cond_text(sc));
		if (state == 1 && !clear_condition(p, st, sc, depth, err))
			return false;
	}
	return true;
}

/* The new bytes of a question from its old bytes (bit fields keep their neighbours). */
static void fill_bytes(struct fw_plan_entry *e)
{
	const struct fw_setting *st = e->st;
	const struct fw_ifr_question *q = st->q;
	e->raw_len = q->width < FW_PLAN_MAX_RAW ? q->width : FW_PLAN_MAX_RAW;
	e->has_old = st->has_current;
	e->old = st->current;
	e->has_raw = st->has_current && st->current_raw && st->current_len >= e->raw_len;
	if (e->has_raw)
		memcpy(e->old_raw, st->current_raw, e->raw_len);
	memcpy(e->new_raw, e->old_raw, e->raw_len);
	if (q->bit_field) {
		uint64_t raw = 0;
		for (uint32_t i = 0; i < e->raw_len && i < 8; i++)
			raw |= (uint64_t)e->old_raw[i] << (8 * i);
		uint32_t shift = q->bit_offset % 8;
		uint64_t mask = (q->bit_width >= 64 ? UINT64_MAX : (((uint64_t)1 << q->bit_width) - 1)) << shift;
		raw = (raw & ~mask) | ((e->value << shift) & mask);
		for (uint32_t i = 0; i < e->raw_len && i < 8; i++)
			e->new_raw[i] = (uint8_t)(raw >> (8 * i));
	} else {
		for (uint32_t i = 0; i < e->raw_len; i++)
			e->new_raw[i] = i < 8 ? (uint8_t)(e->value >> (8 * i)) : 0;
	}
	e->change = !e->has_old || e->old != e->value;
}

bool fw_plan_resolve(struct fw_plan *p, struct fw_error *err)
{
	/* targets in request order; each brings its dependencies in front of it */
	/* a value already in effect needs nothing unlocked */
	size_t ntargets = 0;
	const struct fw_setting **targets = fw_xcalloc(p->n + 1, sizeof(*targets));
	for (size_t i = 0; i < p->n; i++)
		if (!p->entries[i].st->has_current || p->entries[i].st->current != p->entries[i].value)
			targets[ntargets++] = p->entries[i].st;
	bool ok = true;
	for (size_t i = 0; i < ntargets && ok; i++)
		ok = make_settable(p, targets[i], 0, err);
	free(targets);
	if (!ok)
		return false;
	/* with every value in place: nothing planned may end up hidden or locked, no check may fire */
	for (size_t i = 0; i < p->n; i++) {
		const struct fw_setting *st = p->entries[i].st;
		if (st->has_current && st->current == p->entries[i].value)
			continue;
		for (uint32_t k = 0; k < st->nconds; k++)
			if (cond_state(p, st, st->conds[k].cond) == 1)
				return fw_error_set(err, FW_E_USAGE, "contradiction: with the planned values %s is %s while %s",
						    st->prompt, cond_verb(st->conds[k].cond), fw_setting_cond_text(&st->conds[k]));
		for (uint32_t k = 0; k < st->nchecks; k++) {
			const struct fw_ifr_cond *c = st->checks[k].cond;
			if (c->kind == FW_IFR_COND_WARNING)
				continue;
			if (cond_state(p, st, c) == 1)
				return fw_error_set(err, FW_E_USAGE, "contradiction: %s: %s %s%s%s", st->prompt,
						    fw_ifr_cond_kind_name(c->kind), fw_setting_cond_text(&st->checks[k]),
						    st->checks[k].message ? ": " : "", st->checks[k].message ? st->checks[k].message : "");
		}
	}
	for (size_t i = 0; i < p->n; i++) {
		struct fw_plan_entry *e = &p->entries[i];
		fill_bytes(e);
		e->old_text = e->has_old ? fw_plan_value_text(p, e->st, e->old) : NULL;
		const struct fw_variable *v = e->st->var;
		bool plain = v && v->name[0];
		for (const char *c = v ? v->name : ""; *c && plain; c++)
			plain = isalnum((unsigned char)*c) || *c == '_' || *c == '-' || *c == '.';
		if (!v)
			e->efivarfs_refused = "the variable's current bytes are not known (no current value source)";
		else if (!plain)
			e->efivarfs_refused = "the variable's name has characters a shell script would have to quote";
		else if (!(v->attributes & 0x4))
			e->efivarfs_refused = fw_arena_printf(&p->arena, "%s has no runtime access (attributes 0x%X): efivarfs "
									"does not show it; use the AMISCE script or Redfish",
							      v->name, v->attributes);
	}
	return true;
}

/* ---- verify ---- */

const char *fw_verify_state_name(enum fw_verify_state s)
{
	switch (s) {
	case FW_VERIFY_OK: return "in effect";
	case FW_VERIFY_DIFFERENT: return "different";
	case FW_VERIFY_HIDDEN: return "hidden";
	case FW_VERIFY_LOCKED: return "locked";
	case FW_VERIFY_UNKNOWN: return "no current value";
	case FW_VERIFY_MISSING: return "not in these forms";
	case FW_VERIFY_NOT_REBOOTED: return "not yet rebooted";
	case FW_VERIFY_BOOT_NOT_KNOWN: return "stored, boot not known";
	}
	return "?";
}

static const char *jstr(const json_t *o, const char *k)
{
	const json_t *v = json_object_get(o, k);
	return json_is_string(v) ? json_string_value(v) : NULL;
}

static bool jnum(const json_t *o, const char *k, uint64_t *out)
{
	const json_t *v = json_object_get(o, k);
	if (!json_is_integer(v) || json_integer_value(v) < 0)
		return false;
	*out = (uint64_t)json_integer_value(v);
	return true;
}

/* The setting at the entry's storage: varstore (name and GUID), byte offset, width, bit offset. */
static const struct fw_setting *find_stored(const struct fw_settings *s, const json_t *e)
{
	const char *vs = jstr(e, "varstore"), *guid = jstr(e, "varstore_guid");
	uint64_t off, width, bit = 0;
	bool has_bit = jnum(e, "bit_offset", &bit);
	if (!vs || !jnum(e, "offset", &off) || !jnum(e, "width", &width))
		return NULL;
	for (uint32_t i = 0; i < s->n; i++) {
		const struct fw_setting *st = &s->items[i];
		char g[FW_GUID_STR_LEN];
		if (!storage(st) || strcasecmp(st->varstore_name, vs) != 0 || byte_offset(st) != off || st->q->width != width ||
		    st->q->bit_field != has_bit || (has_bit && st->q->bit_offset != bit))
			continue;
		if (guid && strcasecmp(fw_guid_format(&st->vs->guid, g), guid) != 0)
			continue;
		return st;
	}
	return NULL;
}

static void iso_time(long long t, char *buf, size_t len)
{
	time_t tt = (time_t)t;
	struct tm tm;
	if (!gmtime_r(&tt, &tm) || !strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm))
		snprintf(buf, len, "%lld", t);
}

json_t *fw_plan_made_json(const struct fw_source *src)
{
	const struct fw_host *h = src->have_host ? &src->host : NULL;
	/* SOURCE_DATE_EPOCH fixes the time, as for a capture, so outputs can be compared */
	const char *sde = fw_env()->source_date_epoch;
	long long now = sde ? strtoll(sde, NULL, 10) : (long long)time(NULL);
	char when[32];
	iso_time(now, when, sizeof(when));
	json_t *o = json_object();
	json_object_set_new(o, "time", json_string(when));
	json_object_set_new(o, "epoch", json_integer((json_int_t)now));
	json_object_set_new(o, "boot_id", h && h->boot_id ? json_string(h->boot_id) : json_null());
	json_object_set_new(o, "boot_time", h && h->boot_time >= 0 ? json_integer(h->boot_time) : json_null());
	return o;
}

int fw_plan_rebooted(const struct fw_host *h, const char *src_path, const json_t *plan, char **why)
{
	const json_t *made = json_object_get(plan, "made");
	const char *plan_boot = jstr(made, "boot_id");
	const json_t *epoch = json_object_get(made, "epoch");
	if (plan_boot && h && h->boot_id) {
		*why = fw_xasprintf("%s boot id %s, the plan's %s", src_path, h->boot_id, plan_boot);
		return strcmp(plan_boot, h->boot_id) == 0 ? 0 : 1;
	}
	if (json_is_integer(epoch) && h && h->boot_time >= 0) {
		*why = fw_xasprintf("%s booted at %lld, the plan was made at %lld", src_path, h->boot_time,
				    (long long)json_integer_value(epoch));
		return h->boot_time > json_integer_value(epoch) ? 1 : 0;
	}
	*why = fw_xstrdup(!made ? "the plan does not say when it was made"
				: "neither a boot id nor a boot time of the source is known");
	return -1;
}

/* Whether SRC booted since the plan was made (fw_plan_rebooted), the reason in the arena. */
static int rebooted_since(const struct fw_source *src, const json_t *plan, struct fw_verify *out)
{
	char *why = NULL;
	int r = fw_plan_rebooted(src->have_host ? &src->host : NULL, src->path, plan, &why);
	out->rebooted_why = fw_arena_strdup(&out->arena, why);
	free(why);
	return r;
}

bool fw_plan_verify(struct fw_source *src, const json_t *plan, struct fw_verify *out, struct fw_error *err)
{
	memset(out, 0, sizeof(*out));
	fw_arena_init(&out->arena);
	const json_t *entries = json_object_get(plan, "entries");
	if (!json_is_array(entries))
		return fw_error_set(err, FW_E_INVALID, "plan: no \"entries\" array (give the JSON `fwlens plan --format json` wrote)");
	struct fw_plan p;
	if (!fw_plan_init(&p, src, err))
		return false;
	const char *want_hash = jstr(plan, "image_sha256");
	if (want_hash && *want_hash && p.image_sha256[0] && strcasecmp(want_hash, p.image_sha256) != 0) {
		fw_error_set(err, FW_E_INVALID, "plan was made for the image with SHA-256 %s; the forms of %s come from %s",
			     want_hash, src->path, p.image_sha256);
		fw_plan_free(&p);
		return false;
	}
	out->current_source = fw_arena_strdup(&out->arena, p.current_source);
	out->rebooted = rebooted_since(src, plan, out);
	const char *crc = jstr(plan, "hii_crc32");
	if (crc && src->hii_crc && strcasecmp(crc, src->hii_crc) != 0)
		out->warning = fw_arena_printf(&out->arena, "HIICrc32 differs: the plan's AMISCE export says %s, %s says %s", crc,
					       src->opt.vars ? src->opt.vars : src->path, src->hii_crc);
	size_t n = json_array_size(entries);
	out->items = fw_arena_alloc(&out->arena, (n ? n : 1) * sizeof(*out->items));
	for (size_t i = 0; i < n; i++) {
		const json_t *e = json_array_get(entries, i);
		struct fw_verify_item *it = &out->items[out->n++];
		memset(it, 0, sizeof(*it));
		const json_t *nv = json_object_get(e, "new");
		uint64_t off = 0, width = 0;
		jnum(e, "offset", &off);
		jnum(e, "width", &width);
		it->prompt = fw_arena_strdup(&out->arena, jstr(e, "prompt") ? jstr(e, "prompt") : "?");
		it->varstore = fw_arena_strdup(&out->arena, jstr(e, "varstore") ? jstr(e, "varstore") : "?");
		it->offset = (uint32_t)off;
		it->width = (uint32_t)width;
		if (!json_is_object(nv) || !jnum(nv, "value", &it->want)) {
			fw_error_set(err, FW_E_INVALID, "plan: entry %zu has no \"new\".\"value\"", i + 1);
			fw_plan_free(&p);
			fw_verify_free(out);
			return false;
		}
		it->want_text = fw_arena_strdup(&out->arena, jstr(nv, "text") ? jstr(nv, "text") : "?");
		const struct fw_setting *st = p.s ? find_stored(p.s, e) : NULL;
		char a[512], b[512];
		if (!st || strcmp(fw_topic_normalise(st->prompt, a, sizeof(a)), fw_topic_normalise(it->prompt, b, sizeof(b))) != 0) {
			it->state = FW_VERIFY_MISSING;
			it->why = st ? fw_arena_printf(&out->arena, "%s+0x%X holds \"%s\" in these forms", it->varstore, it->offset,
						       st->prompt)
				     : "no question at that varstore, offset and width";
		} else if (!st->has_current) {
			it->state = FW_VERIFY_UNKNOWN;
			it->why = "the source holds no value for its variable";
		} else {
			it->has_now = true;
			it->now = st->current;
			it->now_text = fw_plan_value_text(&p, st, st->current);
			it->now_text = fw_arena_strdup(&out->arena, it->now_text);
			if (st->current == it->want)
				it->state = FW_VERIFY_OK;
			else
				it->state = st->hidden == 1 ? FW_VERIFY_HIDDEN : st->grayed == 1 ? FW_VERIFY_LOCKED : FW_VERIFY_DIFFERENT;
			if (st->hidden == 1)
				it->why = "hidden in setup with the current values";
			else if (st->grayed == 1)
				it->why = "grayed out in setup with the current values";
		}
		if (it->state == FW_VERIFY_OK && out->rebooted == 0) {
			it->state = FW_VERIFY_NOT_REBOOTED;
			it->why = "written, but the machine has not booted since the plan was made: the firmware reads it at the next boot";
		} else if (it->state == FW_VERIFY_OK && out->rebooted < 0) {
			/* a stored value the firmware may not have read yet: never "in effect" without a boot to show it */
			it->state = FW_VERIFY_BOOT_NOT_KNOWN;
			it->why = "stored as planned; whether the machine booted since the plan was made is not known";
		}
		if (it->state != FW_VERIFY_OK)
			out->failed++;
		if (it->state == FW_VERIFY_NOT_REBOOTED || it->state == FW_VERIFY_BOOT_NOT_KNOWN)
			out->pending++;
	}
	fw_plan_free(&p);
	return true;
}

void fw_verify_free(struct fw_verify *v)
{
	fw_arena_free(&v->arena);
	memset(v, 0, sizeof(*v));
}
