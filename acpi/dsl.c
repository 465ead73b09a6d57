/* DSL root-bridge reader. */
#include "dsl.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "acpi/table.h"

/* --- tokens ------------------------------------------------------------------------------------ */

enum { T_IDENT, T_NUM, T_STR, T_PUNCT };

struct tok {
	uint8_t kind;
	char c;       /* T_PUNCT */
	uint32_t line;
	uint32_t n;
	const char *p;
};

struct toks {
	struct tok *v;
	size_t n, cap;
};

static bool ident_start(char c)
{
	return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_' || c == '\\' || c == '^';
}

static bool ident_char(char c)
{
	return ident_start(c) || (c >= '0' && c <= '9') || c == '.';
}

static void push(struct toks *t, struct tok k)
{
	if (t->n == t->cap) {
		t->cap = t->cap ? t->cap * 2 : 4096;
		t->v = fw_xrealloc(t->v, t->cap * sizeof(*t->v));
	}
	t->v[t->n++] = k;
}

static void tokenize(const char *s, size_t len, struct toks *out)
{
	uint32_t line = 1;
	size_t i = 0;
	while (i < len) {
		char c = s[i];
		if (c == '\n') {
			line++;
			i++;
		} else if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
			i++;
		} else if (c == '/' && i + 1 < len && s[i + 1] == '/') {
			while (i < len && s[i] != '\n')
				i++;
		} else if (c == '/' && i + 1 < len && s[i + 1] == '*') {
			i += 2;
			while (i < len && !(s[i] == '*' && i + 1 < len && s[i + 1] == '/')) {
				if (s[i] == '\n')
					line++;
				i++;
			}
			i = i + 2 < len ? i + 2 : len;
		} else if (c == '"') {
			size_t start = ++i;
			while (i < len && s[i] != '"' && s[i] != '\n') {
				if (s[i] == '\\' && i + 1 < len)
					i++;
				i++;
			}
			push(out, (struct tok){T_STR, 0, line, (uint32_t)(i - start), s + start});
			if (i < len && s[i] == '"')
				i++;
		} else if (ident_start(c)) {
			size_t start = i;
			while (i < len && ident_char(s[i]))
				i++;
			push(out, (struct tok){T_IDENT, 0, line, (uint32_t)(i - start), s + start});
		} else if (c >= '0' && c <= '9') {
			size_t start = i;
			while (i < len && ((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z')))
				i++;
			push(out, (struct tok){T_NUM, 0, line, (uint32_t)(i - start), s + start});
		} else {
			push(out, (struct tok){T_PUNCT, c, line, 1, s + i});
			i++;
		}
	}
}

static bool is_ident(const struct toks *t, size_t i, const char *word)
{
	return i < t->n && t->v[i].kind == T_IDENT && t->v[i].n == strlen(word) && memcmp(t->v[i].p, word, t->v[i].n) == 0;
}

static bool is_punct(const struct toks *t, size_t i, char c)
{
	return i < t->n && t->v[i].kind == T_PUNCT && t->v[i].c == c;
}

/* Index after the group that opens at i ('(' or '{'); t->n when unbalanced. */
static size_t skip_group(const struct toks *t, size_t i)
{
	char open = t->v[i].c, close = open == '(' ? ')' : '}';
	size_t depth = 0;
	for (; i < t->n; i++) {
		if (t->v[i].kind != T_PUNCT)
			continue;
		if (t->v[i].c == open)
			depth++;
		else if (t->v[i].c == close && --depth == 0)
			return i + 1;
	}
	return t->n;
}

/* --- paths ------------------------------------------------------------------------------------- */

static const char *parent_path(struct fw_arena *a, const char *path)
{
	const char *dot = strrchr(path, '.');
	if (!dot)
		return "\\";
	return fw_arena_strndup(a, path, (size_t)(dot - path));
}

/* Absolute path of name path `np` declared or referenced relative to `scope`. NULL if the path
 * climbs above the root or has a segment longer than 4 characters. */
static const char *resolve_path(struct fw_arena *a, const char *scope, const char *np, size_t n)
{
	const char *base = scope;
	size_t i = 0;
	if (n && np[0] == '\\') {
		base = "\\";
		i = 1;
	} else {
		while (i < n && np[i] == '^') {
			if (strcmp(base, "\\") == 0)
				return NULL;
			base = parent_path(a, base);
			i++;
		}
	}
	size_t blen = strlen(base);
	char *buf = fw_arena_alloc(a, blen + (n - i + 1) * 5 + 8); /* a 1-character segment becomes 5 */
	memcpy(buf, base, blen + 1);
	size_t k = blen;
	while (i < n) {
		size_t j = i;
		while (j < n && np[j] != '.')
			j++;
		size_t seg = j - i;
		if (seg == 0 || seg > 4)
			return NULL;
		if (k > 1 || buf[0] != '\\')
			buf[k++] = '.';
		memcpy(buf + k, np + i, seg);
		for (size_t p = seg; p < 4; p++)
			buf[k + p] = '_';
		k += 4;
		buf[k] = '\0';
		i = j + 1;
	}
	return buf;
}

const char *fw_dsl_display_path(struct fw_arena *a, const char *path)
{
	size_t n = strlen(path);
	char *out = fw_arena_alloc(a, n + 1);
	size_t k = 0;
	for (size_t i = 0; i < n;) {
		size_t j = i;
		while (j < n && path[j] != '.')
			j++;
		size_t lo = i + (path[i] == '\\'), end = j;
		while (end > lo + 1 && path[end - 1] == '_')
			end--;
		memcpy(out + k, path + i, end - i);
		k += end - i;
		if (j < n)
			out[k++] = '.';
		i = j + 1;
	}
	out[k] = '\0';
	return out;
}

const char *fw_dsl_canonical_path(struct fw_arena *a, const char *path)
{
	return resolve_path(a, "\\", path, strlen(path));
}

/* --- namespace ------------------------------------------------------------------------------- */

void fw_dsl_namespace_init(struct fw_dsl_namespace *ns, struct fw_arena *arena)
{
	memset(ns, 0, sizeof(*ns));
	ns->arena = arena;
}

static void add_object(struct fw_dsl_namespace *ns, const char *path, enum fw_dsl_object_kind kind,
		       const struct fw_dsl_value *v, const char *table, unsigned line)
{
	ns->objects = fw_acpi_grow(ns->arena, ns->objects, &ns->cap, ns->n + 1, sizeof(*ns->objects));
	struct fw_dsl_object *o = &ns->objects[ns->n++];
	memset(o, 0, sizeof(*o));
	o->path = path;
	o->kind = kind;
	if (v)
		o->value = *v;
	o->table = table;
	o->line = line;
	o->seq = ns->next_seq++;
	ns->sorted = false;
}

static int obj_cmp(const void *x, const void *y)
{
	const struct fw_dsl_object *a = x, *b = y;
	int c = strcmp(a->path, b->path);
	if (c)
		return c;
	return a->seq < b->seq ? -1 : a->seq > b->seq;
}

const struct fw_dsl_object *fw_dsl_lookup(struct fw_dsl_namespace *ns, const char *path)
{
	if (!ns->sorted) {
		if (ns->n)
			qsort(ns->objects, ns->n, sizeof(*ns->objects), obj_cmp);
		ns->sorted = true;
	}
	/* Accept display paths too. */
	const char *key = path;
	if (path[0] == '\\')
		key = resolve_path(ns->arena, "\\", path, strlen(path));
	if (!key)
		return NULL;
	size_t lo = 0, hi = ns->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (strcmp(ns->objects[mid].path, key) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < ns->n && strcmp(ns->objects[lo].path, key) == 0) {
		/* Prefer a Name or Method over a Device/Scope entry with the same path. */
		for (size_t i = lo; i < ns->n && strcmp(ns->objects[i].path, key) == 0; i++)
			if (ns->objects[i].kind == FW_DSL_OBJ_NAME || ns->objects[i].kind == FW_DSL_OBJ_METHOD)
				return &ns->objects[i];
		return &ns->objects[lo];
	}
	return NULL;
}

/* The ACPI search rule for a single name segment: the scope, then each parent up to the root. */
static const struct fw_dsl_object *search(struct fw_dsl_namespace *ns, const char *scope, const char *name)
{
	size_t n = strlen(name);
	bool single = n && n <= 4 && !strchr(name, '.') && name[0] != '\\' && name[0] != '^';
	if (!single) {
		const char *p = resolve_path(ns->arena, scope, name, n);
		return p ? fw_dsl_lookup(ns, p) : NULL;
	}
	const char *s = scope;
	for (;;) {
		const char *p = resolve_path(ns->arena, s, name, n);
		const struct fw_dsl_object *o = p ? fw_dsl_lookup(ns, p) : NULL;
		if (o)
			return o;
		if (strcmp(s, "\\") == 0)
			return NULL;
		s = parent_path(ns->arena, s);
	}
}

static bool eval(struct fw_dsl_namespace *ns, const struct fw_dsl_object *o, int depth, struct fw_dsl_value *out,
		 const struct fw_dsl_object **last)
{
	if (!o || depth > 16)
		return false;
	*last = o;
	switch (o->value.kind) {
	case FW_DSL_INT:
	case FW_DSL_STRING:
	case FW_DSL_LIST:
	case FW_DSL_BUS_RANGE: *out = o->value; return true;
	case FW_DSL_REF:
	case FW_DSL_CALL: {
		/* A method's names resolve from the scope that contains the method. */
		const char *scope = parent_path(ns->arena, o->path);
		return eval(ns, search(ns, scope, o->value.s), depth + 1, out, last);
	}
	case FW_DSL_NONE: break;
	}
	return false;
}

static const char *how_note(struct fw_dsl_namespace *ns, const struct fw_dsl_object *first, const struct fw_dsl_object *last)
{
	const char *kind = first->kind == FW_DSL_OBJ_METHOD ? "Method" : "Name";
	if (first == last)
		return kind;
	return fw_arena_printf(ns->arena, "%s -> %s", kind, fw_dsl_display_path(ns->arena, last->path));
}

bool fw_dsl_eval_int(struct fw_dsl_namespace *ns, const char *path, uint64_t *out, const char **how)
{
	const struct fw_dsl_object *o = fw_dsl_lookup(ns, path), *last = NULL;
	struct fw_dsl_value v;
	if (!eval(ns, o, 0, &v, &last) || v.kind != FW_DSL_INT)
		return false;
	*out = v.i;
	if (how)
		*how = how_note(ns, o, last);
	return true;
}

bool fw_dsl_eval_str(struct fw_dsl_namespace *ns, const char *path, const char **out, const char **how)
{
	const struct fw_dsl_object *o = fw_dsl_lookup(ns, path), *last = NULL;
	struct fw_dsl_value v;
	if (!eval(ns, o, 0, &v, &last))
		return false;
	if (v.kind == FW_DSL_STRING)
		*out = v.s;
	else if (v.kind == FW_DSL_INT)
		*out = fw_arena_printf(ns->arena, "%llu", (unsigned long long)v.i);
	else
		return false;
	if (how)
		*how = how_note(ns, o, last);
	return true;
}

/* --- parsing ----------------------------------------------------------------------------------- */

struct parser {
	struct fw_dsl_namespace *ns;
	const struct toks *t;
	const char *table;
};

static const char *tok_str(struct parser *p, const struct tok *k)
{
	char *s = fw_arena_alloc(p->ns->arena, (size_t)k->n + 1);
	size_t o = 0;
	for (size_t i = 0; i < k->n; i++) {
		if (k->p[i] == '\\' && i + 1 < k->n)
			i++;
		s[o++] = k->p[i];
	}
	s[o] = '\0';
	return s;
}

static bool parse_number(const struct tok *k, uint64_t *out)
{
	char buf[40];
	if (k->n >= sizeof(buf))
		return false;
	memcpy(buf, k->p, k->n);
	buf[k->n] = '\0';
	char *end;
	*out = strtoull(buf, &end, 0);
	return *end == '\0';
}

/* A constant term at i: number, Zero/One/Ones, string, EisaId("..."). Returns the index after
 * it, or 0 if the term is something else. */
static size_t constant(struct parser *p, size_t i, struct fw_dsl_value *v)
{
	const struct toks *t = p->t;
	if (i >= t->n)
		return 0;
	const struct tok *k = &t->v[i];
	if (k->kind == T_NUM && parse_number(k, &v->i)) {
		v->kind = FW_DSL_INT;
		return i + 1;
	}
	if (k->kind == T_STR) {
		v->kind = FW_DSL_STRING;
		v->s = tok_str(p, k);
		return i + 1;
	}
	if (is_ident(t, i, "Zero") || is_ident(t, i, "One") || is_ident(t, i, "Ones")) {
		v->kind = FW_DSL_INT;
		v->i = is_ident(t, i, "Zero") ? 0 : is_ident(t, i, "One") ? 1 : UINT64_MAX;
		return i + 1;
	}
	if (is_ident(t, i, "EisaId") && is_punct(t, i + 1, '(') && i + 3 < t->n && t->v[i + 2].kind == T_STR &&
	    is_punct(t, i + 3, ')')) {
		v->kind = FW_DSL_STRING;
		v->s = tok_str(p, &t->v[i + 2]);
		return i + 4;
	}
	return 0;
}

/* Name value: a constant, a Package of strings, or a ResourceTemplate with a bus range. */
static void name_value(struct parser *p, size_t i, size_t end, struct fw_dsl_value *v)
{
	const struct toks *t = p->t;
	memset(v, 0, sizeof(*v));
	size_t after = constant(p, i, v);
	if (after && after + 1 == end)
		return;
	memset(v, 0, sizeof(*v));
	if (is_ident(t, i, "Package") || is_ident(t, i, "ResourceTemplate")) {
		bool package = is_ident(t, i, "Package");
		size_t j = i + 1;
		if (is_punct(t, j, '('))
			j = skip_group(t, j);
		if (!is_punct(t, j, '{'))
			return;
		size_t close = skip_group(t, j);
		size_t cap = 0;
		for (size_t k = j + 1; k + 1 < close; k++) {
			if (package) {
				struct fw_dsl_value item = {0};
				size_t next = constant(p, k, &item);
				if (next && item.kind == FW_DSL_STRING) {
					v->list = fw_acpi_grow(p->ns->arena, v->list, &cap, v->nlist + 1, sizeof(*v->list));
					v->list[v->nlist++] = item.s;
					k = next - 1;
				}
			} else if (is_ident(t, k, "WordBusNumber") && is_punct(t, k + 1, '(')) {
				/* Arguments: usage, MinFixed, MaxFixed, decode, granularity, min, max, ... */
				size_t args_end = skip_group(t, k + 1);
				unsigned arg = 0;
				size_t depth = 0;
				uint64_t min = 0, max = 0;
				bool have_min = false, have_max = false;
				for (size_t q = k + 2; q + 1 < args_end; q++) {
					if (is_punct(t, q, '(') || is_punct(t, q, '{'))
						depth++;
					else if (is_punct(t, q, ')') || is_punct(t, q, '}'))
						depth--;
					else if (!depth && is_punct(t, q, ','))
						arg++;
					else if (!depth && t->v[q].kind == T_NUM && (arg == 5 || arg == 6)) {
						uint64_t x;
						if (parse_number(&t->v[q], &x))
							*(arg == 5 ? &min : &max) = x, *(arg == 5 ? &have_min : &have_max) = true;
					}
				}
				if (have_min && have_max && min <= max && max <= 0xFFFF) {
					v->kind = FW_DSL_BUS_RANGE;
					v->bus_min = (uint16_t)min;
					v->bus_max = (uint16_t)max;
				}
				k = args_end - 1;
			}
		}
		if (package && v->nlist)
			v->kind = FW_DSL_LIST;
	}
}

/* A method body that is exactly `Return (term)`. */
static void method_value(struct parser *p, size_t open, size_t close, struct fw_dsl_value *v)
{
	const struct toks *t = p->t;
	memset(v, 0, sizeof(*v));
	size_t i = open + 1, end = close - 1; /* end: index of '}' */
	if (!is_ident(t, i, "Return") || !is_punct(t, i + 1, '('))
		return;
	size_t ret_end = skip_group(t, i + 1);
	if (ret_end != end)
		return;
	size_t term = i + 2, term_end = ret_end - 1; /* term_end: index of ')' */
	size_t after = constant(p, term, v);
	if (after == term_end)
		return;
	memset(v, 0, sizeof(*v));
	if (t->v[term].kind == T_IDENT && !is_ident(t, term, "Package") && !is_ident(t, term, "Buffer")) {
		if (term + 1 == term_end) {
			v->kind = FW_DSL_REF;
			v->s = tok_str(p, &t->v[term]);
		} else if (term + 3 == term_end && is_punct(t, term + 1, '(') && is_punct(t, term + 2, ')')) {
			v->kind = FW_DSL_CALL;
			v->s = tok_str(p, &t->v[term]);
		}
	}
}

#define DSL_MAX_DEPTH 256

bool fw_dsl_parse(struct fw_dsl_namespace *ns, const char *text, size_t len, const char *table, struct fw_error *err)
{
	struct toks t = {0};
	tokenize(text, len, &t);
	struct parser p = {ns, &t, table ? fw_arena_strdup(ns->arena, table) : "?"};
	/* The scope stack: one entry per open brace; namespace blocks carry their path. */
	const char *scopes[DSL_MAX_DEPTH];
	int depth = 0;
	const char *scope = "\\";
	const char *pending = NULL; /* path the next '{' opens, set by Scope/Device/... */
	bool ok = true;
	for (size_t i = 0; i < t.n;) {
		const struct tok *k = &t.v[i];
		if (k->kind == T_PUNCT && k->c == '{') {
			if (depth == DSL_MAX_DEPTH) {
				ok = fw_error_set(err, FW_E_LIMIT, "%s line %u: blocks nested deeper than %d", p.table, k->line, DSL_MAX_DEPTH);
				break;
			}
			scopes[depth++] = scope;
			if (pending)
				scope = pending;
			pending = NULL;
			i++;
			continue;
		}
		if (k->kind == T_PUNCT && k->c == '}') {
			if (depth > 0)
				scope = scopes[--depth];
			pending = NULL;
			i++;
			continue;
		}
		if (k->kind != T_IDENT || !is_punct(&t, i + 1, '(')) {
			i++;
			continue;
		}
		size_t args_end = skip_group(&t, i + 1);
		bool ns_block = is_ident(&t, i, "Scope") || is_ident(&t, i, "Device") || is_ident(&t, i, "Processor") ||
				is_ident(&t, i, "PowerResource") || is_ident(&t, i, "ThermalZone");
		if (ns_block && i + 2 < t.n && t.v[i + 2].kind == T_IDENT) {
			const char *path = resolve_path(ns->arena, scope, t.v[i + 2].p, t.v[i + 2].n);
			if (path) {
				if (!is_ident(&t, i, "Scope"))
					add_object(ns, path, FW_DSL_OBJ_DEVICE, NULL, p.table, k->line);
				pending = path;
			}
			i = args_end;
			continue;
		}
		if (is_ident(&t, i, "Method") && i + 2 < t.n && t.v[i + 2].kind == T_IDENT) {
			const char *path = resolve_path(ns->arena, scope, t.v[i + 2].p, t.v[i + 2].n);
			size_t body_end = args_end;
			struct fw_dsl_value v = {0};
			if (is_punct(&t, args_end, '{')) {
				body_end = skip_group(&t, args_end);
				method_value(&p, args_end, body_end, &v);
			}
			if (path)
				add_object(ns, path, FW_DSL_OBJ_METHOD, &v, p.table, k->line);
			i = body_end; /* names inside a method exist only while it runs */
			continue;
		}
		if (is_ident(&t, i, "Name") && i + 3 < t.n && t.v[i + 2].kind == T_IDENT && is_punct(&t, i + 3, ',')) {
			const char *path = resolve_path(ns->arena, scope, t.v[i + 2].p, t.v[i + 2].n);
			struct fw_dsl_value v;
			name_value(&p, i + 4, args_end, &v);
			if (path)
				add_object(ns, path, FW_DSL_OBJ_NAME, &v, p.table, k->line);
			i = args_end;
			continue;
		}
		if (is_ident(&t, i, "External")) {
			i = args_end;
			continue;
		}
		i++;
	}
	free(t.v);
	return ok;
}

/* --- devices ----------------------------------------------------------------------------------- */

static bool is_host_bridge_id(const char *id)
{
	return id && (strcmp(id, "PNP0A08") == 0 || strcmp(id, "PNP0A03") == 0 || strcmp(id, "ACPI0016") == 0);
}

static int seq_cmp(const void *x, const void *y)
{
	const struct fw_dsl_object *a = *(const struct fw_dsl_object *const *)x, *b = *(const struct fw_dsl_object *const *)y;
	return a->seq < b->seq ? -1 : a->seq > b->seq;
}

static const char *child(struct fw_dsl_namespace *ns, const char *dev, const char *seg)
{
	return fw_arena_printf(ns->arena, "%s.%s", dev, seg);
}

static void fill_int(struct fw_dsl_namespace *ns, const char *dev, const char *seg, bool *has, uint64_t *v, const char **how,
		     bool *declared)
{
	const char *p = child(ns, dev, seg);
	*has = fw_dsl_eval_int(ns, p, v, how);
	if (declared)
		*declared = fw_dsl_lookup(ns, p) != NULL;
}

void fw_dsl_devices(struct fw_dsl_namespace *ns, struct fw_dsl_devices *bridges, struct fw_dsl_devices *pxm_devices)
{
	memset(bridges, 0, sizeof(*bridges));
	memset(pxm_devices, 0, sizeof(*pxm_devices));
	if (!ns->sorted) {
		if (ns->n)
			qsort(ns->objects, ns->n, sizeof(*ns->objects), obj_cmp);
		ns->sorted = true;
	}
	/* Devices in declaration order, each path once. */
	const struct fw_dsl_object **devs = fw_arena_alloc(ns->arena, (ns->n + 1) * sizeof(*devs));
	size_t ndev = 0;
	for (size_t i = 0; i < ns->n; i++) {
		if (ns->objects[i].kind != FW_DSL_OBJ_DEVICE)
			continue;
		bool dup = false;
		for (size_t j = i; j-- > 0 && strcmp(ns->objects[j].path, ns->objects[i].path) == 0;)
			dup |= ns->objects[j].kind == FW_DSL_OBJ_DEVICE;
		if (!dup)
			devs[ndev++] = &ns->objects[i];
	}
	qsort(devs, ndev, sizeof(*devs), seq_cmp);
	size_t bcap = 0, pcap = 0;
	for (size_t i = 0; i < ndev; i++) {
		const char *path = devs[i]->path;
		struct fw_dsl_device d;
		memset(&d, 0, sizeof(d));
		d.path = fw_dsl_display_path(ns->arena, path);
		d.table = devs[i]->table;
		const char *hid = NULL;
		if (fw_dsl_eval_str(ns, child(ns, path, "_HID"), &hid, NULL))
			d.hid = hid;
		const struct fw_dsl_object *cid = fw_dsl_lookup(ns, child(ns, path, "_CID"));
		if (cid && cid->value.kind == FW_DSL_LIST) {
			d.cids = cid->value.list;
			d.ncids = cid->value.nlist;
		} else if (cid && cid->value.kind == FW_DSL_STRING) {
			d.cids = fw_arena_alloc(ns->arena, sizeof(*d.cids));
			d.cids[0] = cid->value.s;
			d.ncids = 1;
		}
		d.is_root_bridge = is_host_bridge_id(d.hid);
		for (size_t c = 0; c < d.ncids; c++)
			d.is_root_bridge |= is_host_bridge_id(d.cids[c]);
		const struct fw_dsl_object *uid = fw_dsl_lookup(ns, child(ns, path, "_UID")), *last = NULL;
		struct fw_dsl_value uv;
		if (uid && eval(ns, uid, 0, &uv, &last)) {
			if (uv.kind == FW_DSL_STRING) {
				d.uid = uv.s;
				d.uid_is_string = true;
			} else if (uv.kind == FW_DSL_INT) {
				d.uid = fw_arena_printf(ns->arena, "%llu", (unsigned long long)uv.i);
			}
			d.uid_how = how_note(ns, uid, last);
		}
		fill_int(ns, path, "_SEG", &d.has_seg, &d.seg, &d.seg_how, NULL);
		fill_int(ns, path, "_BBN", &d.has_bbn, &d.bbn, &d.bbn_how, &d.bbn_declared);
		fill_int(ns, path, "_PXM", &d.has_pxm, &d.pxm, &d.pxm_how, &d.pxm_declared);
		fill_int(ns, path, "_STA", &d.has_sta, &d.sta, &d.sta_how, &d.sta_declared);
		const struct fw_dsl_object *crs = fw_dsl_lookup(ns, child(ns, path, "_CRS"));
		if (crs && crs->kind == FW_DSL_OBJ_NAME && crs->value.kind == FW_DSL_BUS_RANGE) {
			d.has_bus_range = true;
			d.bus_min = crs->value.bus_min;
			d.bus_max = crs->value.bus_max;
		}
		if (d.is_root_bridge) {
			bridges->v = fw_acpi_grow(ns->arena, bridges->v, &bcap, bridges->n + 1, sizeof(d));
			bridges->v[bridges->n++] = d;
		} else if (d.has_pxm) {
			pxm_devices->v = fw_acpi_grow(ns->arena, pxm_devices->v, &pcap, pxm_devices->n + 1, sizeof(d));
			pxm_devices->v[pxm_devices->n++] = d;
		}
	}
}
