/* The settings model: menu paths, readable conditions, defaults, value binding. */
#include "settings.h"

#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "parsers/ucs2.h"

struct form_paths {
	const char **paths;
	uint32_t n;
	const char **elems; /* elements of the first path */
	uint32_t nelems;
	bool on_stack;
	bool visited;
};

struct fw_settings_formset {
	const struct fw_hii_form_pkg *fp;
	struct form_paths *forms;  /* parallel to fp->fs.forms */
	uint32_t *setting_of_op;   /* op index -> setting index + 1 (0 = none) */
	uint32_t *visit_order;     /* form indexes in menu order */
	uint32_t nvisit;
};

static struct fw_arena *arena(struct fw_settings *s) { return &s->db->arena; }

/* ---- expression environment ---- */

static const struct fw_setting *setting_for_qid(const struct fw_settings_env *e, uint16_t qid)
{
	if (!e->s)
		return NULL;
	const struct fw_ifr_question *q = fw_ifr_find_question(&e->fp->fs, qid);
	if (!q)
		return NULL;
	for (uint32_t i = 0; i < e->s->nfsets; i++) {
		const struct fw_settings_formset *f = &e->s->fsets[i];
		if (f->fp == e->fp) {
			uint32_t k = f->setting_of_op[q->op_index];
			return k ? &e->s->items[k - 1] : NULL;
		}
	}
	return NULL;
}

const struct fw_setting *fw_settings_question(const struct fw_settings *s, const struct fw_hii_form_pkg *fp,
					     uint16_t qid)
{
	struct fw_settings_env e = {.fp = fp, .s = s};
	return setting_for_qid(&e, qid);
}

static const char *env_question_name(void *ctx, uint16_t qid)
{
	const struct fw_settings_env *e = ctx;
	const struct fw_ifr_question *q = fw_ifr_find_question(&e->fp->fs, qid);
	return q ? fw_hii_string(e->fp, q->prompt) : NULL;
}

static const char *env_option_name(void *ctx, uint16_t qid, uint64_t v)
{
	const struct fw_settings_env *e = ctx;
	const struct fw_ifr_question *q = fw_ifr_find_question(&e->fp->fs, qid);
	if (!q)
		return NULL;
	if (q->kind == FW_IFR_K_CHECKBOX && v <= 1)
		return v ? "Enabled" : "Disabled";
	const struct fw_ifr_option *o = fw_ifr_option_for(q, v);
	return o ? fw_hii_string(e->fp, o->text) : NULL;
}

static const char *env_string(void *ctx, uint16_t id)
{
	const struct fw_settings_env *e = ctx;
	return fw_hii_string(e->fp, id);
}

static bool env_value(void *ctx, uint16_t qid, uint64_t *v)
{
	const struct fw_setting *st = setting_for_qid(ctx, qid);
	if (!st || !st->has_current)
		return false;
	*v = st->current;
	return true;
}

void fw_settings_env_init(struct fw_settings_env *e, const struct fw_hii_form_pkg *fp, const struct fw_settings *s)
{
	e->fp = fp;
	e->s = s;
	e->env.ctx = e;
	e->env.question_name = env_question_name;
	e->env.option_name = env_option_name;
	e->env.string = env_string;
	e->env.question_value = s ? env_value : NULL;
}

/* ---- menu paths ---- */

static const char *form_title(const struct fw_hii_form_pkg *fp, const struct fw_ifr_form *f)
{
	const char *t = fw_hii_string(fp, f->title);
	return t && *t ? t : NULL;
}

static int form_index(const struct fw_ifr_formset *fs, uint16_t id)
{
	for (uint32_t i = 0; i < fs->nforms; i++)
		if (fs->forms[i].id == id)
			return (int)i;
	return -1;
}

struct path_walk {
	struct fw_settings *s;
	struct fw_settings_formset *f;
	const char *elems[64];
	uint32_t depth;
	uint32_t budget; /* visits left: bounds the work on dense menus */
};

static void add_path(struct path_walk *w, struct form_paths *fpaths)
{
	size_t len = 0;
	for (uint32_t i = 0; i < w->depth; i++)
		len += strlen(w->elems[i]) + 3;
	char small[1024];
	char *p = len < sizeof(small) ? small : fw_xmalloc(len + 1), *o = p;
	for (uint32_t i = 0; i < w->depth; i++) {
		size_t n = strlen(w->elems[i]);
		if (i)
			memcpy(o, " > ", 3), o += 3;
		memcpy(o, w->elems[i], n);
		o += n;
	}
	*o = '\0';
	if (!fpaths->n) {
		fpaths->paths = fw_arena_alloc(arena(w->s), FW_SETTINGS_MAX_PATHS * sizeof(*fpaths->paths));
		fpaths->elems = fw_arena_memdup(arena(w->s), w->elems, w->depth * sizeof(*w->elems));
		fpaths->nelems = w->depth;
	}
	bool seen = fpaths->n >= FW_SETTINGS_MAX_PATHS; /* a path is kept once, the first few only */
	for (uint32_t i = 0; i < fpaths->n && !seen; i++)
		seen = strcmp(fpaths->paths[i], p) == 0;
	if (!seen)
		fpaths->paths[fpaths->n++] = fw_arena_strndup(arena(w->s), p, (size_t)(o - p));
	if (p != small)
		free(p);
}

static void visit(struct path_walk *w, uint32_t fi)
{
	const struct fw_hii_form_pkg *fp = w->f->fp;
	const struct fw_ifr_form *form = &fp->fs.forms[fi];
	struct form_paths *fpaths = &w->f->forms[fi];
	if (fpaths->on_stack || !w->budget || w->depth >= 63)
		return;
	w->budget--;
	const char *t = form_title(fp, form);
	bool pushed = false;
	if (t && !(w->depth && strcmp(w->elems[w->depth - 1], t) == 0)) {
		w->elems[w->depth++] = t;
		pushed = true;
	}
	bool first = !fpaths->visited;
	add_path(w, fpaths);
	if (first) {
		fpaths->visited = true;
		w->f->visit_order[w->f->nvisit++] = fi;
	}
	if (first || fpaths->n < FW_SETTINGS_MAX_PATHS) {
		fpaths->on_stack = true;
		for (const struct fw_ifr_question *q = form->first; q; q = q->next_in_form) {
			if (q->kind != FW_IFR_K_REF || !q->has_ref_form)
				continue;
			if (q->has_ref_formset && !fw_guid_is_zero(&q->ref_formset) && !fw_guid_eq(&q->ref_formset, &fp->fs.guid))
				continue;
			int target = form_index(&fp->fs, q->ref_form_id);
			if (target >= 0)
				visit(w, (uint32_t)target);
		}
		fpaths->on_stack = false;
	}
	if (pushed)
		w->depth--;
}

static void compute_paths(struct fw_settings *s, struct fw_settings_formset *f)
{
	const struct fw_hii_form_pkg *fp = f->fp;
	const struct fw_ifr_formset *fs = &fp->fs;
	f->forms = fw_arena_alloc(arena(s), (fs->nforms + 1) * sizeof(*f->forms));
	f->visit_order = fw_arena_alloc(arena(s), (fs->nforms + 1) * sizeof(*f->visit_order));
	struct path_walk w = {.s = s, .f = f, .budget = 100000};
	const char *title = fw_hii_string(fp, fs->title);
	if (title && *title)
		w.elems[w.depth++] = title;
	if (fs->nforms)
		visit(&w, 0);
	/* forms no REF reaches: their own title under the formset */
	for (uint32_t i = 0; i < fs->nforms; i++) {
		if (f->forms[i].visited)
			continue;
		struct path_walk u = {.s = s, .f = f, .budget = 100000};
		if (title && *title)
			u.elems[u.depth++] = title;
		visit(&u, i);
	}
}

/* The form of another formset whose REF leads into formset `b` (REF3 naming its GUID), as index
 * into s->fsets and form index; false when no other formset links to it. */
static bool linking_form(const struct fw_settings *s, uint32_t b, uint32_t *fset, uint32_t *form_index_out)
{
	const struct fw_guid *guid = &s->fsets[b].fp->fs.guid;
	for (uint32_t a = 0; a < s->nfsets; a++) {
		const struct fw_settings_formset *f = &s->fsets[a];
		if (a == b || fw_guid_eq(&f->fp->fs.guid, guid))
			continue;
		for (uint32_t v = 0; v < f->nvisit; v++) {
			const struct fw_ifr_form *form = &f->fp->fs.forms[f->visit_order[v]];
			for (const struct fw_ifr_question *q = form->first; q; q = q->next_in_form)
				if (q->kind == FW_IFR_K_REF && q->has_ref_formset && fw_guid_eq(&q->ref_formset, guid) &&
				    f->forms[f->visit_order[v]].n) {
					*fset = a, *form_index_out = f->visit_order[v];
					return true;
				}
		}
	}
	return false;
}

/* Put the menu path of the form that links a formset in front of each of its forms' paths: the
 * AMD CBS formset is entered from Setup's Advanced page, so its paths read as the setup browser
 * shows them (Setup > Advanced > AMD CBS > ...). A formset whose link is itself linked is done
 * after it; a cycle of links is left as it is. */
static void link_formsets(struct fw_settings *s)
{
	uint32_t n = s->nfsets;
	uint32_t *parent = fw_xmalloc((n + 1) * sizeof(*parent)), *pform = fw_xmalloc((n + 1) * sizeof(*pform));
	uint8_t *state = fw_xmalloc(n + 1); /* 0 to do, 1 done (linked or without a link) */
	for (uint32_t b = 0; b < n; b++) {
		bool linked = linking_form(s, b, &parent[b], &pform[b]);
		state[b] = !linked;
	}
	for (bool progress = true; progress;) {
		progress = false;
		for (uint32_t b = 0; b < n; b++) {
			if (state[b] || !state[parent[b]])
				continue;
			const struct form_paths *pp = &s->fsets[parent[b]].forms[pform[b]];
			const struct fw_ifr_formset *fs = &s->fsets[b].fp->fs;
			for (uint32_t i = 0; i < fs->nforms; i++) {
				struct form_paths *fpaths = &s->fsets[b].forms[i];
				for (uint32_t k = 0; k < fpaths->n; k++)
					fpaths->paths[k] = fw_arena_printf(arena(s), "%s > %s", pp->paths[0], fpaths->paths[k]);
				if (fpaths->n) {
					const char **e = fw_arena_alloc(arena(s), (pp->nelems + fpaths->nelems) * sizeof(*e));
					memcpy(e, pp->elems, pp->nelems * sizeof(*e));
					memcpy(e + pp->nelems, fpaths->elems, fpaths->nelems * sizeof(*e));
					fpaths->elems = e;
					fpaths->nelems += pp->nelems;
				}
			}
			state[b] = 1;
			progress = true;
		}
	}
	free(parent);
	free(pform);
	free(state);
}

const struct fw_hii_form_pkg *fw_settings_formset_at(const struct fw_settings *s, uint32_t i)
{
	return i < s->nfsets ? s->fsets[i].fp : NULL;
}

uint32_t fw_settings_form_paths(const struct fw_settings *s, const struct fw_hii_form_pkg *fp, uint16_t form_id,
				const char ***paths)
{
	for (uint32_t i = 0; i < s->nfsets; i++) {
		if (s->fsets[i].fp != fp)
			continue;
		int fi = form_index(&fp->fs, form_id);
		if (fi < 0)
			return 0;
		*paths = s->fsets[i].forms[fi].paths;
		return s->fsets[i].forms[fi].n;
	}
	return 0;
}

/* ---- one setting ---- */

static const char *store_name(const struct fw_hii_form_pkg *fp, uint16_t id, struct fw_arena *a)
{
	for (uint32_t i = 0; i < fp->fs.ndefaultstores; i++) {
		if (fp->fs.defaultstores[i].id != id)
			continue;
		const char *n = fw_hii_string(fp, fp->fs.defaultstores[i].name);
		if (n && *n)
			return n;
	}
	char buf[32];
	return fw_arena_strdup(a, fw_ifr_default_id_name(id, buf, sizeof(buf)));
}

/* The text of a condition of the formset `env` is over (the environment has no values: the text
 * is the same for every question the condition is around, so it is made once). */
static const char *cond_text(struct fw_arena *a, const struct fw_ifr_cond *c, const struct fw_settings_env *env)
{
	if (!c->expr)
		return "?";
	if (!c->rendered)
		((struct fw_ifr_cond *)c)->rendered = fw_ifr_expr_render(a, c->expr, &env->env);
	return c->rendered;
}

const char *fw_setting_help(const struct fw_setting *st)
{
	if (!st->help_text) /* a memo of the logically const setting */
		((struct fw_setting *)st)->help_text = fw_hii_string_or(st->fp, st->q->help, "");
	return st->help_text;
}

const char *fw_setting_cond_text(const struct fw_setting_cond *c)
{
	struct fw_settings_env env;
	fw_settings_env_init(&env, c->fp, NULL);
	return cond_text(c->arena, c->cond, &env);
}

const char *fw_setting_option_cond_text(const struct fw_setting_option *o)
{
	if (!o->cond)
		return NULL;
	struct fw_settings_env env;
	fw_settings_env_init(&env, o->fp, NULL);
	return cond_text(o->arena, o->cond, &env);
}

static int eval_cond(const struct fw_ifr_cond *c, const struct fw_settings_env *env)
{
	uint64_t v;
	if (!c->expr || fw_ifr_expr_eval(c->expr, &env->env, &v) != FW_IFR_EVAL_OK)
		return -1;
	return v != 0;
}

/* A condition that is false whatever the values (`suppress-if 0 == 1`) changes nothing: it is not
 * listed. One that is always true (`suppress-if true`) is, and makes the question hidden. */
static bool constant_false(const struct fw_ifr_cond *c)
{
	if (!c->constant) {
		uint64_t v;
		bool f = c->expr && fw_ifr_expr_eval(c->expr, NULL, &v) == FW_IFR_EVAL_OK && v == 0;
		((struct fw_ifr_cond *)c)->constant = f ? 1 : -1;
	}
	return c->constant == 1;
}

/* States of the conditions and what they add up to: hidden/grayed 1, 0, or -1 unknown. */
static void evaluate(struct fw_setting *st, const struct fw_settings_env *env)
{
	int hidden = 0, grayed = 0;
	for (uint32_t k = 0; k < st->nconds; k++) {
		struct fw_setting_cond *c = &st->conds[k];
		c->state = eval_cond(c->cond, env);
		int *acc = c->cond->kind == FW_IFR_COND_GRAYOUT ? &grayed : &hidden;
		if (c->state == 1)
			*acc = 1;
		else if (c->state == -1 && *acc == 0)
			*acc = -1;
	}
	for (uint32_t k = 0; k < st->nchecks; k++)
		st->checks[k].state = eval_cond(st->checks[k].cond, env);
	st->hidden = hidden;
	st->grayed = grayed;
}

/* Prompts such as " PCIe Prefetchable MMIO (GB)" carry blanks for indentation in the menu: the
 * text without them, the original in *raw (NULL when there was nothing to trim). */
static const char *trimmed(struct fw_arena *a, const char *text, const char **raw)
{
	size_t n = strlen(text), b = 0;
	while (b < n && isspace((unsigned char)text[b]))
		b++;
	while (n > b && isspace((unsigned char)text[n - 1]))
		n--;
	*raw = NULL;
	if (b == 0 && n == strlen(text))
		return text;
	*raw = text;
	return fw_arena_strndup(a, text + b, n - b);
}

static void fill(struct fw_settings *s, struct fw_setting *st, const struct fw_hii_form_pkg *fp,
		 const struct fw_ifr_question *q, const struct form_paths *paths)
{
	struct fw_arena *a = arena(s);
	struct fw_settings_env env;
	fw_settings_env_init(&env, fp, NULL);
	st->fp = fp;
	st->q = q;
	st->hidden = st->grayed = -1;
	st->prompt = trimmed(a, fw_hii_string_or(fp, q->prompt, ""), &st->prompt_raw);
	st->keyword = fw_hii_keyword(fp, q->prompt);
	st->vs = fw_ifr_find_varstore(&fp->fs, q->varstore_id);
	if (st->vs)
		st->varstore_name = st->vs->kind == FW_IFR_VS_NAME_VALUE ? fw_hii_string(fp, q->var_info) : st->vs->name;
	if (paths && paths->n) {
		st->paths = paths->paths;
		st->npaths = paths->n;
		st->path0 = paths->elems;
		st->npath0 = paths->nelems;
		st->reachable = true;
	}
	st->options = fw_arena_alloc(a, (q->noptions + 1) * sizeof(*st->options));
	for (uint32_t i = 0; i < q->noptions; i++) {
		struct fw_setting_option *o = &st->options[st->noptions++];
		o->opt = &q->options[i];
		o->text = fw_hii_string_or(fp, q->options[i].text, "");
		if (q->options[i].cond) {
			/* only the conditions opened inside the question */
			o->cond = q->options[i].cond;
			o->fp = fp;
			o->arena = a;
		}
	}
	st->defaults = fw_arena_alloc(a, (q->ndefaults + 1) * sizeof(*st->defaults));
	for (uint32_t i = 0; i < q->ndefaults; i++) {
		const struct fw_ifr_default *d = &q->defaults[i];
		struct fw_setting_default *sd = &st->defaults[st->ndefaults++];
		sd->store_id = d->store_id;
		sd->store = store_name(fp, d->store_id, a);
		sd->has_value = d->has_value;
		sd->value = d->value.u;
		if (d->has_value) {
			if (q->kind == FW_IFR_K_CHECKBOX)
				sd->text = sd->value ? "Enabled" : "Disabled";
			else if (d->value.type == FW_IFR_TYPE_STRING)
				sd->text = fw_hii_string(fp, (uint16_t)d->value.u);
			else {
				const struct fw_ifr_option *o = fw_ifr_option_for(q, d->value.u);
				sd->text = o ? fw_hii_string(fp, o->text) : NULL;
			}
		} else if (d->expr) {
			sd->expr = fw_ifr_expr_render(a, d->expr, &env.env);
		}
	}
	uint32_t nc = 0;
	for (const struct fw_ifr_cond *c = q->cond; c; c = c->parent)
		nc += !constant_false(c);
	st->conds = fw_arena_alloc(a, (nc + 1) * sizeof(*st->conds));
	st->nconds = nc;
	uint32_t k = nc;
	for (const struct fw_ifr_cond *c = q->cond; c; c = c->parent) {
		if (constant_false(c))
			continue;
		struct fw_setting_cond *sc = &st->conds[--k];
		sc->cond = c;
		sc->fp = fp;
		sc->arena = a;
		sc->state = -1;
	}
	st->checks = fw_arena_alloc(a, (q->nchecks + 1) * sizeof(*st->checks));
	for (uint32_t i = 0; i < q->nchecks; i++) {
		struct fw_setting_cond *sc = &st->checks[st->nchecks++];
		sc->cond = q->checks[i];
		sc->fp = fp;
		sc->arena = a;
		sc->message = q->checks[i]->text ? fw_hii_string(fp, q->checks[i]->text) : NULL;
		sc->state = -1;
	}
	evaluate(st, &env); /* constant conditions are known without values */
}

void fw_settings_describe(struct fw_settings *s, const struct fw_hii_form_pkg *fp, const struct fw_ifr_question *q,
			  struct fw_setting *out)
{
	memset(out, 0, sizeof(*out));
	const struct form_paths *paths = NULL;
	for (uint32_t i = 0; i < s->nfsets && q->form; i++)
		if (s->fsets[i].fp == fp)
			paths = &s->fsets[i].forms[q->form - fp->fs.forms];
	fill(s, out, fp, q, paths);
	for (uint32_t i = 0; i < s->nfsets; i++) {
		if (s->fsets[i].fp != fp)
			continue;
		uint32_t k = s->fsets[i].setting_of_op[q->op_index];
		if (k) {
			const struct fw_setting *b = &s->items[k - 1];
			out->var = b->var;
			out->has_current = b->has_current;
			out->current = b->current;
			out->current_raw = b->current_raw;
			out->current_len = b->current_len;
			out->current_text = b->current_text;
			out->current_valid = b->current_valid;
			out->hidden = b->hidden;
			out->grayed = b->grayed;
		}
	}
}

/* ---- one question in several forms ---- */

/* The same storage shown through two forms (AMI Setup repeats a question in the menus it belongs
 * to, often with other options or under other conditions) is one setting. Only an exact match
 * merges: same formset (so one varstore table and one question namespace), same varstore, offset,
 * width and bits, same kind and the same prompt; two prompts over one byte (TPM State / TCM
 * State) stay two settings, as do questions whose conditions could not be read. */
static bool same_question(const struct fw_setting *a, const struct fw_setting *b)
{
	const struct fw_ifr_question *x = a->q, *y = b->q;
	if (a->fp != b->fp || !a->vs || a->vs != b->vs || !x->width || x->kind != y->kind || x->width != y->width ||
	    x->var_info != y->var_info || x->bit_field != y->bit_field ||
	    (x->bit_field && (x->bit_offset != y->bit_offset || x->bit_width != y->bit_width)))
		return false;
	if (!a->varstore_name || !b->varstore_name || strcmp(a->varstore_name, b->varstore_name) != 0)
		return false;
	if (strcmp(a->prompt, b->prompt) != 0)
		return false;
	for (uint32_t k = 0; k < a->nconds; k++)
		if (!a->conds[k].cond->expr)
			return false;
	for (uint32_t k = 0; k < b->nconds; k++)
		if (!b->conds[k].cond->expr)
			return false;
	return true;
}

static struct fw_ifr_expr *expr_of2(struct fw_arena *a, uint8_t op, struct fw_ifr_expr *l, struct fw_ifr_expr *r)
{
	struct fw_ifr_expr *e = fw_arena_alloc(a, sizeof(*e));
	e->op = op;
	e->nargs = 2;
	e->args[0] = l;
	e->args[1] = r;
	e->expanded = 1 + l->expanded + r->expanded;
	return e;
}

static bool hides(const struct fw_ifr_cond *c)
{
	return c->kind != FW_IFR_COND_GRAYOUT;
}

/* What hides (hide true) or grays out (hide false) one setting: its conditions of that kind, or'ed;
 * NULL when none. */
static struct fw_ifr_expr *any_of(struct fw_arena *a, const struct fw_setting *st, bool hide)
{
	struct fw_ifr_expr *e = NULL;
	for (uint32_t k = 0; k < st->nconds; k++) {
		const struct fw_ifr_cond *c = st->conds[k].cond;
		if (hides(c) != hide)
			continue;
		e = e ? expr_of2(a, FW_IFR_OR, e, c->expr) : c->expr;
	}
	return e;
}

/* Fold copy `t` into setting `m`: every menu path, the union of the options and default stores,
 * and conditions that hold only when they hold on every path: hidden when hidden on each, grayed
 * out when grayed out on each (a path with none leaves none). */
static void merge_into(struct fw_settings *s, struct fw_setting *m, const struct fw_setting *t)
{
	struct fw_arena *a = arena(s);
	const char **paths = fw_arena_alloc(a, FW_SETTINGS_MAX_PATHS * sizeof(*paths));
	uint32_t np = 0;
	for (uint32_t i = 0; i < m->npaths && np < FW_SETTINGS_MAX_PATHS; i++)
		paths[np++] = m->paths[i];
	for (uint32_t i = 0; i < t->npaths && np < FW_SETTINGS_MAX_PATHS; i++) {
		bool seen = false;
		for (uint32_t k = 0; k < np && !seen; k++)
			seen = strcmp(paths[k], t->paths[i]) == 0;
		if (!seen)
			paths[np++] = t->paths[i];
	}
	if (!m->npaths && t->npaths) {
		m->path0 = t->path0;
		m->npath0 = t->npath0;
	}
	m->paths = paths;
	m->npaths = np;
	m->reachable = m->reachable || t->reachable;
	if (!m->keyword)
		m->keyword = t->keyword;

	struct fw_setting_option *opts = fw_arena_alloc(a, (m->noptions + t->noptions + 1) * sizeof(*opts));
	uint32_t no = m->noptions;
	memcpy(opts, m->options, m->noptions * sizeof(*opts));
	for (uint32_t i = 0; i < t->noptions; i++) {
		bool seen = false;
		for (uint32_t k = 0; k < no && !seen; k++)
			seen = opts[k].opt->value.u == t->options[i].opt->value.u;
		if (!seen)
			opts[no++] = t->options[i];
	}
	m->options = opts;
	m->noptions = no;

	struct fw_setting_default *defs = fw_arena_alloc(a, (m->ndefaults + t->ndefaults + 1) * sizeof(*defs));
	uint32_t nd = m->ndefaults;
	memcpy(defs, m->defaults, m->ndefaults * sizeof(*defs));
	for (uint32_t i = 0; i < t->ndefaults; i++) {
		bool seen = false;
		for (uint32_t k = 0; k < nd && !seen; k++)
			seen = defs[k].store_id == t->defaults[i].store_id;
		if (!seen)
			defs[nd++] = t->defaults[i];
	}
	m->defaults = defs;
	m->ndefaults = nd;

	struct fw_settings_env env;
	fw_settings_env_init(&env, m->fp, NULL);
	struct fw_setting_cond *conds = fw_arena_alloc(a, 2 * sizeof(*conds));
	uint32_t nc = 0;
	for (int hide = 1; hide >= 0; hide--) {
		struct fw_ifr_expr *em = any_of(a, m, hide), *et = any_of(a, t, hide);
		if (!em || !et)
			continue;
		struct fw_ifr_cond *c = fw_arena_alloc(a, sizeof(*c));
		c->kind = hide ? FW_IFR_COND_SUPPRESS : FW_IFR_COND_GRAYOUT;
		c->expr = expr_of2(a, FW_IFR_AND, em, et);
		conds[nc].cond = c;
		conds[nc].fp = m->fp;
		conds[nc].arena = a;
		conds[nc].state = -1;
		nc++;
	}
	m->conds = conds;
	m->nconds = nc;

	struct fw_setting_cond *checks = fw_arena_alloc(a, (m->nchecks + t->nchecks + 1) * sizeof(*checks));
	memcpy(checks, m->checks, m->nchecks * sizeof(*checks));
	memcpy(checks + m->nchecks, t->checks, t->nchecks * sizeof(*checks));
	m->checks = checks;
	m->nchecks += t->nchecks;
	uint16_t *qids = fw_arena_alloc(a, m->copies * sizeof(*qids));
	if (m->copies > 1)
		memcpy(qids, m->copy_qids, (m->copies - 1) * sizeof(*qids));
	qids[m->copies - 1] = t->q->question_id;
	m->copy_qids = qids;
	m->copies++;
	evaluate(m, &env);
}

/* The settings of one formset by the var_info of their question, each chain in item order, so a
 * copy is looked for among the few that share its storage offset, not among all. */
#define COPY_BUCKETS 1024
struct copy_index {
	uint32_t head[COPY_BUCKETS], tail[COPY_BUCKETS]; /* item index + 1; 0 = empty */
	uint32_t *next;                                  /* [items]: the next item of the chain + 1 */
};

/* The first setting of the formset that `t` is another copy of, or NULL. */
static struct fw_setting *earlier_copy(struct fw_settings *s, const struct copy_index *ci, const struct fw_setting *t)
{
	for (uint32_t k = ci->head[t->q->var_info % COPY_BUCKETS]; k; k = ci->next[k - 1])
		if (s->items[k - 1].q->var_info == t->q->var_info && same_question(&s->items[k - 1], t))
			return &s->items[k - 1];
	return NULL;
}

/* Add question q of formset f (reached in form `paths`) as a setting, or fold it into the setting
 * it repeats. */
static void add_question(struct fw_settings *s, struct fw_settings_formset *f, struct copy_index *ci,
			 const struct fw_ifr_question *q, const struct form_paths *paths)
{
	struct fw_setting *st = &s->items[s->n];
	memset(st, 0, sizeof(*st));
	fill(s, st, f->fp, q, paths);
	st->copies = 1;
	struct fw_setting *m = earlier_copy(s, ci, st);
	if (m) {
		merge_into(s, m, st);
		f->setting_of_op[q->op_index] = (uint32_t)(m - s->items) + 1;
		memset(st, 0, sizeof(*st));
		return;
	}
	s->n++;
	f->setting_of_op[q->op_index] = s->n;
	uint32_t b = q->var_info % COPY_BUCKETS;
	ci->next[s->n - 1] = 0;
	if (ci->tail[b])
		ci->next[ci->tail[b] - 1] = s->n;
	else
		ci->head[b] = s->n;
	ci->tail[b] = s->n;
}

bool fw_settings_build(struct fw_hii_db *db, const char *module, struct fw_settings *out)
{
	memset(out, 0, sizeof(*out));
	out->db = db;
	uint32_t nfs = 0, cap = 0;
	for (uint32_t m = 0; m < db->nmodules; m++)
		if (!module || fw_hii_module_matches(db->modules[m], module)) {
			nfs += db->modules[m]->nforms;
			for (uint32_t i = 0; i < db->modules[m]->nforms; i++)
				cap += db->modules[m]->forms[i].fs.nitems;
		}
	out->fsets = fw_arena_alloc(&db->arena, (nfs + 1) * sizeof(*out->fsets));
	out->items = fw_arena_alloc(&db->arena, (cap + 1) * sizeof(*out->items));
	struct copy_index *ci = fw_xmalloc(sizeof(*ci));
	ci->next = fw_xmalloc((cap + 1) * sizeof(*ci->next));
	for (uint32_t m = 0; m < db->nmodules; m++) {
		const struct fw_hii_module *mod = db->modules[m];
		if (module && !fw_hii_module_matches(mod, module))
			continue;
		for (uint32_t i = 0; i < mod->nforms; i++) {
			struct fw_settings_formset *f = &out->fsets[out->nfsets++];
			f->fp = &mod->forms[i];
			f->setting_of_op = fw_arena_alloc(&db->arena, (f->fp->fs.nops + 1) * sizeof(uint32_t));
			compute_paths(out, f);
		}
	}
	link_formsets(out);
	for (uint32_t fi = 0; fi < out->nfsets; fi++) {
		{
			struct fw_settings_formset *f = &out->fsets[fi];
			const struct fw_hii_form_pkg *fp = f->fp;
			memset(ci->head, 0, sizeof(ci->head)); /* copies are looked for within the formset */
			memset(ci->tail, 0, sizeof(ci->tail));
			for (uint32_t v = 0; v < f->nvisit; v++) {
				const struct fw_ifr_form *form = &fp->fs.forms[f->visit_order[v]];
				for (const struct fw_ifr_question *q = form->first; q; q = q->next_in_form) {
					if (!fw_ifr_question_has_value(q) || f->setting_of_op[q->op_index])
						continue;
					add_question(out, f, ci, q, &f->forms[f->visit_order[v]]);
				}
			}
			/* questions outside any form */
			for (uint32_t k = 0; k < fp->fs.nitems; k++) {
				const struct fw_ifr_question *q = fp->fs.items[k];
				if (q->form || !fw_ifr_question_has_value(q))
					continue;
				add_question(out, f, ci, q, NULL);
			}
		}
	}
	free(ci->next);
	free(ci);
	return true;
}

/* ---- values ---- */

/* Text and validity of a number just bound to a one-of, checkbox or numeric question. */
static void number_text(struct fw_setting *st)
{
	const struct fw_ifr_question *q = st->q;
	if (q->kind == FW_IFR_K_ONE_OF) {
		/* the setting's options: a question shown in several forms has those of every copy */
		const struct fw_setting_option *o = NULL;
		for (uint32_t k = 0; k < st->noptions && !o; k++)
			if (st->options[k].opt->value.u == st->current)
				o = &st->options[k];
		st->current_valid = o != NULL;
		st->current_text = o ? fw_hii_string(st->fp, o->opt->text) : NULL;
	} else if (q->kind == FW_IFR_K_CHECKBOX) {
		st->current_valid = st->current <= 1;
		st->current_text = st->current == 1 ? "Enabled" : st->current == 0 ? "Disabled" : NULL;
	} else {
		st->current_valid = !q->has_limits || q->min > q->max || (st->current >= q->min && st->current <= q->max);
	}
}

static void bind_one(struct fw_settings *s, struct fw_setting *st, const struct fw_varlist *vars)
{
	const struct fw_ifr_question *q = st->q;
	st->has_current = false;
	st->var = NULL;
	if (!st->vs || !st->varstore_name)
		return;
	const struct fw_variable *v = fw_nvram_find(vars, st->varstore_name, &st->vs->guid);
	if (!v)
		return;
	st->var = v;
	uint32_t off = q->bit_field ? q->bit_offset / 8 : (st->vs->kind == FW_IFR_VS_NAME_VALUE ? 0 : q->var_info);
	if (!q->width || off > v->size || q->width > v->size - off)
		return;
	st->current_raw = v->data + off;
	st->current_len = q->width;
	st->has_current = true;
	switch (q->kind) {
	case FW_IFR_K_ONE_OF:
	case FW_IFR_K_NUMERIC:
	case FW_IFR_K_CHECKBOX:
		if (q->bit_field) {
			uint64_t raw = 0;
			for (uint32_t i = 0; i < q->width && i < 8; i++)
				raw |= (uint64_t)st->current_raw[i] << (8 * i);
			uint32_t shift = q->bit_offset % 8;
			uint64_t mask = q->bit_width >= 64 ? UINT64_MAX : (((uint64_t)1 << q->bit_width) - 1);
			st->current = (raw >> shift) & mask;
		} else {
			st->current = fw_ifr_read_le(st->current_raw, q->width);
		}
		number_text(st);
		break;
	case FW_IFR_K_STRING:
	case FW_IFR_K_PASSWORD: {
		size_t units = fw_ucs2_len(st->current_raw, q->width / 2, NULL);
		char *t = fw_arena_alloc(arena(s), units * 3 + 1);
		fw_ucs2_to_utf8_buf(st->current_raw, units, t, units * 3 + 1);
		st->current_text = t;
		st->current_valid = true;
		break;
	}
	default:
		st->current_valid = true;
		break;
	}
}

/* Conditions of every setting, with the values just bound. */
static void evaluate_all(struct fw_settings *s)
{
	for (uint32_t i = 0; i < s->n; i++) {
		struct fw_setting *st = &s->items[i];
		struct fw_settings_env env;
		fw_settings_env_init(&env, st->fp, s);
		evaluate(st, &env);
	}
}

void fw_settings_bind(struct fw_settings *s, const struct fw_varlist *vars)
{
	s->bound = true;
	s->bound_vars = 0;
	for (uint32_t i = 0; i < s->n; i++) {
		bind_one(s, &s->items[i], vars);
		if (s->items[i].var)
			s->bound_vars++;
	}
	evaluate_all(s);
}

void fw_settings_bind_values(struct fw_settings *s, bool (*value)(void *ctx, const struct fw_setting *st, uint64_t *v),
			     void *ctx)
{
	s->bound = true;
	s->bound_vars = 0;
	for (uint32_t i = 0; i < s->n; i++) {
		struct fw_setting *st = &s->items[i];
		const struct fw_ifr_question *q = st->q;
		uint64_t v;
		if ((q->kind != FW_IFR_K_ONE_OF && q->kind != FW_IFR_K_NUMERIC && q->kind != FW_IFR_K_CHECKBOX) ||
		    !value(ctx, st, &v))
			continue;
		st->has_current = true;
		st->current = v;
		st->var = NULL;
		st->current_raw = NULL;
		st->current_len = 0;
		if (!q->bit_field && q->width && q->width <= 8) {
			uint8_t *raw = fw_arena_alloc(arena(s), q->width);
			for (uint32_t k = 0; k < q->width; k++)
				raw[k] = (uint8_t)(v >> (8 * k));
			st->current_raw = raw;
			st->current_len = q->width;
		}
		number_text(st);
		s->bound_vars++;
	}
	evaluate_all(s);
}

const struct fw_setting *fw_settings_find(const struct fw_settings *s, const char *prompt, uint32_t *from)
{
	for (uint32_t i = from ? *from : 0; i < s->n; i++) {
		if (strcasecmp(s->items[i].prompt, prompt) == 0) {
			if (from)
				*from = i + 1;
			return &s->items[i];
		}
	}
	if (from)
		*from = s->n;
	return NULL;
}

void fw_settings_free(struct fw_settings *s)
{
	/* everything lives in the db arena */
	memset(s, 0, sizeof(*s));
}
