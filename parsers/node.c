#include "node.h"

#include <inttypes.h>
#include <stddef.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "env.h"

static const char *const kind_names[FW_NODE_KIND_COUNT] = {
	[FW_NODE_CAPSULE] = "capsule",
	[FW_NODE_IMAGE] = "image",
	[FW_NODE_REGION] = "region",
	[FW_NODE_VOLUME] = "volume",
	[FW_NODE_FILE] = "file",
	[FW_NODE_SECTION] = "section",
	[FW_NODE_NVRAM_STORE] = "nvram-store",
	[FW_NODE_VARIABLE] = "variable",
	[FW_NODE_PSP_DIRECTORY] = "psp-directory",
	[FW_NODE_PSP_ENTRY] = "psp-entry",
	[FW_NODE_PADDING] = "padding",
	[FW_NODE_FREE_SPACE] = "free-space",
};

/* offset and size are other names for data.base and data.len; the README's bytes a node count
 * on 152 */
_Static_assert(offsetof(struct fw_node, offset) == offsetof(struct fw_node, data.base) &&
		       offsetof(struct fw_node, size) == offsetof(struct fw_node, data.len) &&
		       sizeof(((struct fw_node *)0)->size) == sizeof(uint64_t),
	       "fw_node offset/size alias its data view");
_Static_assert(sizeof(struct fw_node) <= 152, "struct fw_node grew: README Limits counts 152 bytes");

const char *fw_node_kind_name(enum fw_node_kind k)
{
	return (unsigned)k < FW_NODE_KIND_COUNT ? kind_names[k] : "unknown";
}

const char *fw_diag_severity_name(enum fw_diag_severity s)
{
	switch (s) {
	case FW_DIAG_INFO: return "info";
	case FW_DIAG_WARN: return "warning";
	case FW_DIAG_ERROR: return "error";
	}
	return "?";
}

struct fw_limits fw_limits_default(void)
{
	struct fw_limits l;
#ifdef FW_FUZZING
	l.max_depth = 24;
	l.max_nodes = 20000;
	/* small enough that a zlib or LZMA bomb of a few KiB costs milliseconds, not a second */
	l.max_decompressed_total = 16u << 20;
	l.max_decompressed_one = 4u << 20;
	l.max_string = 4096;
#else
	l.max_depth = 64;
	l.max_nodes = 1000000;
	l.max_decompressed_total = fw_env_limit("inflate-total", (uint64_t)2 << 30);
	l.max_decompressed_one = 512u << 20;
	l.max_string = 65536;
#endif
	return l;
}

struct fw_owned_buffer {
	struct fw_owned_buffer *next;
	void *buf;
	size_t len;
};

/* Equal strings of one tree share one arena copy: field values ("EFI_FV_FILETYPE_DRIVER",
 * flag texts) and nested field names repeat on most nodes of an image. Open addressing over
 * the arena copies; the table itself is malloc'd and at most half full. */
struct fw_interned {
	const char **slots;
	size_t cap, count;
};

static uint64_t intern_hash(const char *s, size_t len)
{
	uint64_t h = 0xcbf29ce484222325ull; /* FNV-1a */
	for (size_t i = 0; i < len; i++)
		h = (h ^ (unsigned char)s[i]) * 0x100000001b3ull;
	return h;
}

static const char **intern_slot(const char **slots, size_t cap, const char *s, size_t len, uint64_t h)
{
	size_t i = (size_t)h & (cap - 1);
	while (slots[i] && !(strncmp(slots[i], s, len) == 0 && slots[i][len] == '\0'))
		i = (i + 1) & (cap - 1);
	return &slots[i];
}

const char *fw_tree_intern(struct fw_tree *t, const char *s, size_t max)
{
	size_t len = strnlen(s, max);
	struct fw_interned *m = t->interned;
	if (!m) {
		m = t->interned = fw_xcalloc(1, sizeof(*m));
		m->cap = 256;
		m->slots = fw_xcalloc(m->cap, sizeof(*m->slots));
	}
	uint64_t h = intern_hash(s, len);
	const char **slot = intern_slot(m->slots, m->cap, s, len, h);
	if (*slot)
		return *slot;
	if (2 * (m->count + 1) > m->cap) {
		size_t cap = m->cap * 2;
		const char **slots = fw_xcalloc(cap, sizeof(*slots));
		for (size_t i = 0; i < m->cap; i++)
			if (m->slots[i]) {
				size_t l = strlen(m->slots[i]);
				*intern_slot(slots, cap, m->slots[i], l, intern_hash(m->slots[i], l)) = m->slots[i];
			}
		free(m->slots);
		m->slots = slots;
		m->cap = cap;
		slot = intern_slot(m->slots, m->cap, s, len, h);
	}
	*slot = fw_arena_strndup(&t->arena, s, len);
	m->count++;
	return *slot;
}

struct fw_tree *fw_tree_new(const struct fw_limits *limits)
{
	struct fw_tree *t = fw_xcalloc(1, sizeof(*t));
	fw_arena_init(&t->arena);
	t->limits = limits ? *limits : fw_limits_default();
	if (t->limits.max_depth > UINT16_MAX - 1) /* a node keeps its depth in 16 bits */
		t->limits.max_depth = UINT16_MAX - 1;
	t->last_at = fw_xcalloc((size_t)t->limits.max_depth + 1, sizeof(*t->last_at));
	return t;
}

void fw_tree_free(struct fw_tree *t)
{
	if (!t)
		return;
	struct fw_owned_buffer *b = t->buffers;
	while (b) {
		struct fw_owned_buffer *next = b->next;
		free(b->buf);
		free(b);
		b = next;
	}
	if (t->interned)
		free(t->interned->slots);
	free(t->interned);
	free(t->last_at);
	fw_arena_free(&t->arena);
	free(t);
}

struct fw_node *fw_node_add(struct fw_tree *t, struct fw_node *parent, enum fw_node_kind kind, const char *type,
			    const struct fw_view *data, struct fw_error *err)
{
	unsigned depth = parent ? parent->depth + 1 : 0;
	if (depth > t->limits.max_depth || t->node_count >= t->limits.max_nodes) {
		/* name the structure: its offset, or the nearest enclosing one outside decompressed data */
		char where[64];
		const struct fw_node *known = parent;
		while (known && known->offset == FW_OFFSET_UNKNOWN)
			known = known->parent;
		if (data && data->base != FW_OFFSET_UNKNOWN)
			snprintf(where, sizeof(where), "at 0x%" PRIx64, data->base);
		else if (known)
			snprintf(where, sizeof(where), "in decompressed data under the %s at 0x%" PRIx64,
				 fw_node_kind_name(known->kind), known->offset);
		else
			snprintf(where, sizeof(where), "in decompressed data");
		if (depth > t->limits.max_depth)
			fw_error_set(err, FW_E_LIMIT, "%s %s: nesting is deeper than the limit of %u levels", fw_node_kind_name(kind),
				     where, t->limits.max_depth);
		else
			fw_error_set(err, FW_E_LIMIT, "%s %s: more than the limit of %zu nodes", fw_node_kind_name(kind), where,
				     t->limits.max_nodes);
		return NULL;
	}
	struct fw_node *n = fw_arena_alloc_small(&t->arena, sizeof(*n));
	n->kind = kind;
	n->type = type;
	n->depth = (uint16_t)depth;
	if (data) {
		n->data = *data;
		n->body = *data;
	} else {
		n->offset = FW_OFFSET_UNKNOWN;
	}
	n->parent = parent;
	if (parent) {
		struct fw_node *last = fw_node_last_child(t, parent);
		if (last)
			last->next = n;
		else
			parent->first_child = n;
		parent->nchildren++;
	} else if (!t->root) {
		t->root = n;
	}
	t->last_at[depth] = n;
	t->node_count++;
	return n;
}

struct fw_node *fw_node_last_child(const struct fw_tree *t, const struct fw_node *n)
{
	if (n->depth < t->limits.max_depth) {
		struct fw_node *c = t->last_at[n->depth + 1];
		if (c && c->parent == n)
			return c;
	}
	struct fw_node *c = n->first_child;
	while (c && c->next)
		c = c->next;
	return c;
}

void fw_node_set_guid(struct fw_node *n, const struct fw_guid *g)
{
	n->has_guid = true;
	n->guid = *g;
}

void fw_node_set_name(struct fw_tree *t, struct fw_node *n, const char *name)
{
	n->name = name ? fw_tree_intern(t, name, t->limits.max_string) : NULL;
}

/* A stored field: 32 bytes (40 with a GUID or byte string) where a field used to be 40 with a
 * pointer to the next. A layout record names the layout and its bytes instead of a key and value. */
#define REC_LAYOUT 0xFF
struct fw_field_rec {
	struct fw_field_rec *next;
	union {
		const char *key;
		const struct fw_layout *layout;
	} k;
	uint8_t type; /* enum fw_value_type, or REC_LAYOUT */
	uint8_t fmt;
	union {
		uint64_t u;
		int64_t i;
		bool b;
		const char *s;
		const uint8_t *p; /* REC_LAYOUT: the structure's first byte */
	} v;
	/* GUID and BYTES records go on here (struct fw_field_rec_wide) */
};
struct fw_field_rec_wide {
	struct fw_field_rec r;
	union {
		struct fw_guid g;
		size_t n; /* BYTES: length; r.v.p the bytes */
	} w;
};

static struct fw_field_rec *field_new(struct fw_tree *t, struct fw_node *n, const char *key, uint8_t type, size_t size)
{
	struct fw_field_rec *f = fw_arena_alloc_small(&t->arena, size);
	f->k.key = key;
	f->type = type;
	struct fw_field_rec *tail = t->field_node == n ? t->field_tail : NULL;
	if (!tail && n->fields)
		for (tail = n->fields; tail->next; tail = tail->next)
			;
	if (tail)
		tail->next = f;
	else
		n->fields = f;
	t->field_node = n;
	t->field_tail = f;
	return f;
}

void fw_node_field_uint(struct fw_tree *t, struct fw_node *n, const char *key, uint64_t v, enum fw_value_fmt fmt)
{
	struct fw_field_rec *f = field_new(t, n, key, FW_VAL_UINT, sizeof(*f));
	f->fmt = (uint8_t)fmt;
	f->v.u = v;
}

void fw_node_field_int(struct fw_tree *t, struct fw_node *n, const char *key, int64_t v)
{
	field_new(t, n, key, FW_VAL_INT, sizeof(struct fw_field_rec))->v.i = v;
}

void fw_node_field_bool(struct fw_tree *t, struct fw_node *n, const char *key, bool v)
{
	field_new(t, n, key, FW_VAL_BOOL, sizeof(struct fw_field_rec))->v.b = v;
}

void fw_node_field_str(struct fw_tree *t, struct fw_node *n, const char *key, const char *s)
{
	const char *v = fw_tree_intern(t, s ? s : "", t->limits.max_string);
	field_new(t, n, key, FW_VAL_STR, sizeof(struct fw_field_rec))->v.s = v;
}

void fw_node_field_guid(struct fw_tree *t, struct fw_node *n, const char *key, const struct fw_guid *g)
{
	struct fw_field_rec_wide *f = (struct fw_field_rec_wide *)field_new(t, n, key, FW_VAL_GUID, sizeof(*f));
	f->w.g = *g;
}

void fw_node_field_bytes(struct fw_tree *t, struct fw_node *n, const char *key, const uint8_t *p, size_t len)
{
	struct fw_field_rec_wide *f = (struct fw_field_rec_wide *)field_new(t, n, key, FW_VAL_BYTES, sizeof(*f));
	f->r.v.p = p;
	f->w.n = len;
}

void fw_node_field_layout(struct fw_tree *t, struct fw_node *n, const struct fw_layout *l, const uint8_t *p)
{
	struct fw_field_rec *f = field_new(t, n, NULL, REC_LAYOUT, sizeof(*f));
	f->k.layout = l;
	f->v.p = p;
}

bool fw_node_field_set_str(struct fw_tree *t, struct fw_node *n, const char *key, const char *s)
{
	for (struct fw_field_rec *f = n->fields; f; f = f->next)
		if (f->type == FW_VAL_STR && strcmp(f->k.key, key) == 0) {
			f->v.s = fw_tree_intern(t, s ? s : "", t->limits.max_string);
			return true;
		}
	return false;
}

bool fw_tree_holds(const struct fw_tree *t, const uint8_t *p, size_t len)
{
	uintptr_t a = (uintptr_t)p;
	if (t->input && a >= (uintptr_t)t->input && len <= t->input_len && a - (uintptr_t)t->input <= t->input_len - len)
		return true;
	/* newest first: the bytes being parsed are most often the last ones inflated */
	for (const struct fw_owned_buffer *b = t->buffers; b; b = b->next)
		if (a >= (uintptr_t)b->buf && len <= b->len && a - (uintptr_t)b->buf <= b->len - len)
			return true;
	return false;
}

static const struct fw_field_value *field_read(struct fw_field_iter *it)
{
	while (it->in_layout || it->rec) {
		if (it->in_layout) {
			if (fw_layout_walk_next(&it->walk, &it->cur))
				return &it->cur;
			it->in_layout = false;
			continue;
		}
		const struct fw_field_rec *f = it->rec;
		it->rec = f->next;
		if (f->type == REC_LAYOUT) {
			fw_layout_walk_start(&it->walk, f->k.layout, f->v.p);
			it->in_layout = true;
			continue;
		}
		struct fw_field_value *c = &it->cur;
		memset(&c->v, 0, sizeof(c->v));
		c->key = f->k.key;
		c->type = (enum fw_value_type)f->type;
		c->fmt = (enum fw_value_fmt)f->fmt;
		switch ((enum fw_value_type)f->type) {
		case FW_VAL_UINT: c->v.u = f->v.u; break;
		case FW_VAL_INT: c->v.i = f->v.i; break;
		case FW_VAL_BOOL: c->v.b = f->v.b; break;
		case FW_VAL_STR: c->v.s = f->v.s; break;
		case FW_VAL_GUID: c->v.g = ((const struct fw_field_rec_wide *)f)->w.g; break;
		case FW_VAL_BYTES:
			c->v.bytes.p = f->v.p;
			c->v.bytes.n = ((const struct fw_field_rec_wide *)f)->w.n;
			break;
		}
		return c;
	}
	return NULL;
}

const struct fw_field_value *fw_field_first(struct fw_field_iter *it, const struct fw_node *n)
{
	it->rec = n->fields;
	it->in_layout = false;
	return field_read(it);
}

const struct fw_field_value *fw_field_next(struct fw_field_iter *it)
{
	return field_read(it);
}

const struct fw_field_value *fw_node_field_get(const struct fw_node *n, const char *key)
{
	/* each answer keeps the iterator that made it: a layout field's key and text live there */
	static _Thread_local struct fw_field_iter ring[8];
	static _Thread_local unsigned next;
	struct fw_field_iter *it = &ring[next++ % 8];
	for (const struct fw_field_value *f = fw_field_first(it, n); f; f = fw_field_next(it))
		if (strcmp(f->key, key) == 0)
			return f;
	return NULL;
}

void fw_node_diag(struct fw_tree *t, struct fw_node *n, enum fw_diag_severity sev, uint64_t offset, const char *fmt,
		  ...)
{
	char buf[FW_ERROR_MSG_MAX];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	struct fw_diag *d = fw_arena_alloc_small(&t->arena, sizeof(*d));
	d->severity = sev;
	d->offset = offset;
	d->msg = fw_arena_strdup(&t->arena, buf);
	t->diag_count++;
	if (!n)
		n = t->root;
	if (!n)
		return; /* nothing to hang it on yet; counted only */
	struct fw_diag *tail = t->diag_node == n ? t->diag_tail : NULL;
	if (!tail && n->diags)
		for (tail = n->diags; tail->next; tail = tail->next)
			;
	if (tail)
		tail->next = d;
	else
		n->diags = d;
	t->diag_node = n;
	t->diag_tail = d;
}

void fw_tree_own(struct fw_tree *t, void *buf, size_t len)
{
	struct fw_owned_buffer *b = fw_xmalloc(sizeof(*b));
	b->buf = buf;
	b->len = len;
	b->next = t->buffers;
	t->buffers = b;
}

bool fw_tree_account_decompressed(struct fw_tree *t, uint64_t n, struct fw_error *err)
{
	if (n > t->limits.max_decompressed_one)
		return fw_error_set(err, FW_E_LIMIT, "decompressed size 0x%" PRIx64 " is over the limit of 0x%" PRIx64 " per section",
				    n, t->limits.max_decompressed_one);
	if (t->decompressed_total + n > t->limits.max_decompressed_total)
		return fw_error_set(err, FW_E_LIMIT, "decompressed bytes would pass the limit of 0x%" PRIx64 " in total",
				    t->limits.max_decompressed_total);
	t->decompressed_total += n;
	return true;
}

size_t fw_tree_inflate_cap(const struct fw_tree *t)
{
	uint64_t left = t->limits.max_decompressed_total > t->decompressed_total
				? t->limits.max_decompressed_total - t->decompressed_total
				: 0;
	uint64_t cap = t->limits.max_decompressed_one < left ? t->limits.max_decompressed_one : left;
	return cap > SIZE_MAX ? SIZE_MAX : (size_t)cap;
}

void fw_tree_name_inflate_limit(const struct fw_tree *t, struct fw_error *e)
{
	if (e->code != FW_E_LIMIT || fw_tree_inflate_cap(t) >= t->limits.max_decompressed_one)
		return;
	fw_error_set(e, FW_E_LIMIT,
		     "inflating it would pass the limit of 0x%" PRIx64 " decompressed bytes in total (0x%" PRIx64
		     " inflated before it)",
		     t->limits.max_decompressed_total, t->decompressed_total);
}

bool fw_node_walk(struct fw_node *n, fw_node_visit_fn fn, void *ctx)
{
	/* Iterative pre-order walk so a deep tree cannot exhaust the C stack. */
	struct fw_node *cur = n;
	while (cur) {
		if (!fn(cur, ctx))
			return false;
		if (cur->first_child) {
			cur = cur->first_child;
			continue;
		}
		while (cur && cur != n && !cur->next)
			cur = cur->parent;
		if (!cur || cur == n)
			break;
		cur = cur->next;
	}
	return true;
}

struct find_ctx {
	const struct fw_guid *g;
	enum fw_node_kind kind;
	struct fw_node *found;
};

static bool find_visit(struct fw_node *n, void *ctx)
{
	struct find_ctx *c = ctx;
	if (n->has_guid && fw_guid_eq(&n->guid, c->g) && (c->kind == FW_NODE_KIND_COUNT || c->kind == n->kind)) {
		c->found = n;
		return false;
	}
	return true;
}

struct fw_node *fw_node_find_guid(struct fw_node *root, const struct fw_guid *g, enum fw_node_kind kind)
{
	struct find_ctx c = {g, kind, NULL};
	if (root)
		fw_node_walk(root, find_visit, &c);
	return c.found;
}

char *fw_node_describe(const struct fw_node *n, char *buf, size_t len)
{
	const struct fw_node *chain[128];
	size_t depth = 0;
	for (const struct fw_node *p = n; p && depth < 128; p = p->parent)
		chain[depth++] = p;
	size_t used = 0;
	buf[0] = '\0';
	while (depth-- > 0 && used < len) {
		const struct fw_node *p = chain[depth];
		char g[FW_GUID_STR_LEN];
		int w = snprintf(buf + used, len - used, "%s%s %s", used ? "/" : "", fw_node_kind_name(p->kind),
				 p->name ? p->name : p->has_guid ? fw_guid_format(&p->guid, g) : (p->type ? p->type : ""));
		if (w < 0)
			break;
		used += (size_t)w;
	}
	return buf;
}
