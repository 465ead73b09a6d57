#include "node.h"

#include <inttypes.h>
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
	n->depth = depth;
	if (data) {
		n->data = *data;
		n->body = *data;
		n->offset = data->base;
		n->size = data->len;
	} else {
		n->offset = FW_OFFSET_UNKNOWN;
	}
	n->parent = parent;
	if (parent) {
		if (parent->last_child)
			parent->last_child->next = n;
		else
			parent->first_child = n;
		parent->last_child = n;
		parent->nchildren++;
	} else if (!t->root) {
		t->root = n;
	}
	t->node_count++;
	return n;
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

static struct fw_field_value *field_new(struct fw_tree *t, struct fw_node *n, const char *key, enum fw_value_type type)
{
	struct fw_field_value *f = fw_arena_alloc_small(&t->arena, sizeof(*f));
	f->key = key;
	f->type = type;
	if (n->fields_tail)
		n->fields_tail->next = f;
	else
		n->fields = f;
	n->fields_tail = f;
	return f;
}

struct fw_field_value *fw_node_field_uint(struct fw_tree *t, struct fw_node *n, const char *key, uint64_t v,
					   enum fw_value_fmt fmt)
{
	struct fw_field_value *f = field_new(t, n, key, FW_VAL_UINT);
	f->fmt = fmt;
	f->v.u = v;
	return f;
}

struct fw_field_value *fw_node_field_int(struct fw_tree *t, struct fw_node *n, const char *key, int64_t v)
{
	struct fw_field_value *f = field_new(t, n, key, FW_VAL_INT);
	f->v.i = v;
	return f;
}

struct fw_field_value *fw_node_field_bool(struct fw_tree *t, struct fw_node *n, const char *key, bool v)
{
	struct fw_field_value *f = field_new(t, n, key, FW_VAL_BOOL);
	f->v.b = v;
	return f;
}

struct fw_field_value *fw_node_field_str(struct fw_tree *t, struct fw_node *n, const char *key, const char *s)
{
	struct fw_field_value *f = field_new(t, n, key, FW_VAL_STR);
	f->v.s = fw_tree_intern(t, s ? s : "", t->limits.max_string);
	return f;
}

struct fw_field_value *fw_node_field_guid(struct fw_tree *t, struct fw_node *n, const char *key,
					   const struct fw_guid *g)
{
	struct fw_field_value *f = field_new(t, n, key, FW_VAL_GUID);
	f->v.g = *g;
	return f;
}

struct fw_field_value *fw_node_field_bytes(struct fw_tree *t, struct fw_node *n, const char *key, const uint8_t *p,
					    size_t len)
{
	struct fw_field_value *f = field_new(t, n, key, FW_VAL_BYTES);
	f->v.bytes.p = p;
	f->v.bytes.n = len;
	return f;
}

const struct fw_field_value *fw_node_field_get(const struct fw_node *n, const char *key)
{
	for (const struct fw_field_value *f = n->fields; f; f = f->next)
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
	if (n->diags_tail)
		n->diags_tail->next = d;
	else
		n->diags = d;
	n->diags_tail = d;
}

void fw_tree_own(struct fw_tree *t, void *buf, size_t len)
{
	(void)len;
	struct fw_owned_buffer *b = fw_xmalloc(sizeof(*b));
	b->buf = buf;
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
