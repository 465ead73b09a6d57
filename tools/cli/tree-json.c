/* Node tree to JSON (jansson; key order is insertion order). */
#include "tree-json.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parsers/hash.h"
#include "parsers/utf8.h"

const char *fw_field_text(const struct fw_field_value *f, char *buf, size_t len)
{
	switch (f->type) {
	case FW_VAL_UINT:
		snprintf(buf, len, f->fmt == FW_FMT_HEX ? "0x%" PRIX64 : "%" PRIu64, f->v.u);
		break;
	case FW_VAL_INT:
		snprintf(buf, len, "%" PRId64, f->v.i);
		break;
	case FW_VAL_BOOL:
		snprintf(buf, len, "%s", f->v.b ? "true" : "false");
		break;
	case FW_VAL_STR:
		snprintf(buf, len, "%s", f->v.s);
		break;
	case FW_VAL_GUID: {
		char g[FW_GUID_STR_LEN];
		snprintf(buf, len, "%s", fw_guid_format(&f->v.g, g));
		break;
	}
	case FW_VAL_BYTES: {
		size_t n = f->v.bytes.n;
		if (len == 0)
			break;
		if (n > (len - 1) / 2)
			n = (len - 1) / 2;
		fw_hex(f->v.bytes.p, n, buf);
		break;
	}
	}
	return buf;
}

const char *fw_node_flags_text(const struct fw_node *n, char *buf, size_t len)
{
	static const struct {
		uint32_t flag;
		const char *name;
	} names[] = {{FW_NODE_F_OPAQUE, "opaque"},
		     {FW_NODE_F_COMPRESSED, "compressed"},
		     {FW_NODE_F_CHECKSUM_BAD, "checksum-bad"},
		     {FW_NODE_F_HAS_HII, "hii"}};
	size_t used = 0;
	buf[0] = '\0';
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if ((n->flags & names[i].flag) && used < len)
			used += (size_t)snprintf(buf + used, len - used, "%s%s", used ? "," : "", names[i].name);
	return buf;
}

char *fw_json_member_name(const char *key)
{
	size_t len = strlen(key);
	char *out = fw_xmalloc(2 * len + 2), *o = out;
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)key[i], prev = i ? (unsigned char)key[i - 1] : 0,
			      next = (unsigned char)key[i + 1];
		bool upper = c >= 'A' && c <= 'Z';
		bool alnum = upper || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
		if (!alnum) {
			if (o > out && o[-1] != '_')
				*o++ = '_';
			continue;
		}
		/* a word starts at a capital after a small letter or digit ("FvLength"), or at the
		 * last capital of a run that a small letter follows ("SPIMode": spi_mode) */
		bool prev_small = (prev >= 'a' && prev <= 'z') || (prev >= '0' && prev <= '9');
		bool run_ends = prev >= 'A' && prev <= 'Z' && next >= 'a' && next <= 'z';
		if (upper && o > out && o[-1] != '_' && (prev_small || run_ends))
			*o++ = '_';
		*o++ = upper ? (char)(c - 'A' + 'a') : (char)c;
	}
	while (o > out && o[-1] == '_')
		o--;
	*o = '\0';
	if (o == out) /* no letter or digit at all: keep the key readable rather than empty */
		snprintf(out, 2 * len + 2, "_");
	return out;
}

static json_t *field_json(const struct fw_field_value *f)
{
	switch (f->type) {
	case FW_VAL_UINT:
		if (f->v.u > (uint64_t)INT64_MAX) {
			char b[24];
			snprintf(b, sizeof(b), "0x%" PRIX64, f->v.u);
			return json_string(b);
		}
		return json_integer((json_int_t)f->v.u);
	case FW_VAL_INT:
		return json_integer((json_int_t)f->v.i);
	case FW_VAL_BOOL:
		return json_boolean(f->v.b);
	case FW_VAL_STR:
		return json_string(f->v.s);
	case FW_VAL_GUID: {
		char g[FW_GUID_STR_LEN];
		return json_string(fw_guid_format(&f->v.g, g));
	}
	case FW_VAL_BYTES: {
		char *hex = fw_xmalloc(f->v.bytes.n * 2 + 1);
		fw_hex(f->v.bytes.p, f->v.bytes.n, hex);
		json_t *j = json_string(hex);
		free(hex);
		return j;
	}
	}
	return json_null();
}

static json_t *offset_json(uint64_t off, bool hex)
{
	if (off == FW_OFFSET_UNKNOWN)
		return json_null();
	if (hex) {
		char b[24];
		snprintf(b, sizeof(b), "0x%" PRIX64, off);
		return json_string(b);
	}
	return json_integer((json_int_t)off);
}

/* The node's own object; its "children" array is left empty when `children` is false. */
static json_t *node_object(const struct fw_node *n, unsigned flags, bool children)
{
	json_t *o = json_object();
	json_object_set_new_nocheck(o, "kind", json_string(fw_node_kind_name(n->kind)));
	json_object_set_new_nocheck(o, "type", json_string(n->type ? n->type : ""));
	json_object_set_new_nocheck(o, "offset", offset_json(n->offset, false));
	json_object_set_new_nocheck(o, "offset_hex", offset_json(n->offset, true));
	json_object_set_new_nocheck(o, "size", json_integer((json_int_t)n->size));
	json_object_set_new_nocheck(o, "header_size", json_integer((json_int_t)n->header_size));
	if (n->has_guid) {
		char g[FW_GUID_STR_LEN];
		json_object_set_new_nocheck(o, "guid", json_string(fw_guid_format(&n->guid, g)));
	}
	if (n->name)
		json_object_set_new_nocheck(o, "name", json_string(n->name));
	if (n->text)
		json_object_set_new_nocheck(o, "text", json_string(n->text));
	if (n->flags) {
		char fl[96];
		json_t *arr = json_array();
		fw_node_flags_text(n, fl, sizeof(fl));
		for (char *tok = strtok(fl, ","); tok; tok = strtok(NULL, ","))
			json_array_append_new(arr, json_string(tok));
		json_object_set_new_nocheck(o, "flags", arr);
	}
	if (flags & FW_JSON_CRC32) {
		char c[12];
		snprintf(c, sizeof(c), "%08X", fw_crc32(n->data.p, n->data.len));
		json_object_set_new_nocheck(o, "crc32", json_string(c));
	}
	json_t *fields = json_object();
	struct fw_field_iter it;
	for (const struct fw_field_value *f = fw_field_first(&it, n); f; f = fw_field_next(&it)) {
		char *name = fw_json_member_name(f->key);
		json_object_set_new(fields, name, field_json(f));
		free(name);
	}
	/* the names written before ("Checksum valid", "FvLength"), kept until release 0.10 for
	 * scripts that read them; README.md "JSON member names" */
	for (const struct fw_field_value *f = fw_field_first(&it, n); f; f = fw_field_next(&it)) {
		char *cleaned;
		const char *old = fw_utf8_clean_view(f->key, false, &cleaned);
		if (!json_object_get(fields, old))
			json_object_set_new(fields, old, field_json(f));
		free(cleaned);
	}
	json_object_set_new_nocheck(o, "fields", fields);
	json_t *diags = json_array();
	for (const struct fw_diag *d = n->diags; d; d = d->next) {
		json_t *dj = json_object();
		json_object_set_new_nocheck(dj, "severity", json_string(fw_diag_severity_name(d->severity)));
		json_object_set_new_nocheck(dj, "offset", offset_json(d->offset, false));
		json_object_set_new_nocheck(dj, "message", json_string(d->msg));
		json_array_append_new(diags, dj);
	}
	json_object_set_new_nocheck(o, "diagnostics", diags);
	json_t *kids = json_array();
	for (const struct fw_node *c = children ? n->first_child : NULL; c; c = c->next)
		json_array_append_new(kids, fw_node_to_json(c, flags));
	json_object_set_new_nocheck(o, "children", kids);
	return o;
}

json_t *fw_node_to_json(const struct fw_node *n, unsigned flags)
{
	return node_object(n, flags, true);
}

/* {"input": {path, size, sha256, kind}} */
static json_t *tree_input_json(const struct fw_tree *t, const char *kind)
{
	json_t *doc = json_object();
	json_t *in = json_object();
	json_object_set_new_nocheck(in, "path", t->input_path ? json_string(t->input_path) : json_null());
	json_object_set_new_nocheck(in, "size", json_integer((json_int_t)t->input_len));
	char sha[FW_SHA256_HEX_LEN];
	json_object_set_new_nocheck(in, "sha256", json_string(fw_sha256_hex(t->input, t->input_len, sha)));
	json_object_set_new_nocheck(in, "kind", json_string(kind ? kind : "unknown"));
	json_object_set_new_nocheck(doc, "input", in);
	return doc;
}

json_t *fw_tree_to_json(const struct fw_tree *t, const char *kind, unsigned flags)
{
	json_t *doc = tree_input_json(t, kind);
	json_object_set_new_nocheck(doc, "root", t->root ? fw_node_to_json(t->root, flags) : json_null());
	return doc;
}

/* --- streaming: the same bytes as json_dumpf(fw_tree_to_json(...), JSON_INDENT(2) |
 * JSON_PRESERVE_ORDER), one node at a time, so a tree of a million nodes does not become a
 * million-node JSON document in memory first (2 GB for a 4 MB hostile image). */

#define DUMP_FLAGS (JSON_INDENT(2) | JSON_PRESERVE_ORDER)

struct node_at {
	const struct fw_node *n;
	unsigned flags;
};

static bool write_node(struct fw_json_writer *w, const struct fw_node *n, unsigned flags, unsigned depth);

/* The "children" member of a node: each child built, written and freed in turn. */
static bool write_children(struct fw_json_writer *w, void *ctx, json_t *value, unsigned depth)
{
	const struct node_at *at = ctx;
	if (!at->n->first_child)
		return fw_json_write_value(w, value, depth);
	fw_json_write_raw(w, "[", 1);
	for (const struct fw_node *c = at->n->first_child; c; c = c->next) {
		fw_json_write_break(w, depth + 1, c != at->n->first_child);
		if (!write_node(w, c, at->flags, depth + 1))
			return false;
		if (c->next)
			fw_json_write_raw(w, ",", 1);
	}
	fw_json_write_break(w, depth, false);
	fw_json_write_raw(w, "]", 1);
	return true;
}

static bool write_node(struct fw_json_writer *w, const struct fw_node *n, unsigned flags, unsigned depth)
{
	json_t *o = node_object(n, flags, false);
	struct node_at at = {n, flags};
	bool ok = fw_json_write_object(w, o, depth, "children", write_children, &at);
	json_decref(o);
	return ok;
}

struct tree_at {
	const struct fw_tree *t;
	unsigned flags;
};

static bool write_root(struct fw_json_writer *w, void *ctx, json_t *value, unsigned depth)
{
	const struct tree_at *at = ctx;
	return at->t->root ? write_node(w, at->t->root, at->flags, depth) : fw_json_write_value(w, value, depth);
}

bool fw_tree_write_json(FILE *f, const struct fw_tree *t, const char *kind, unsigned flags)
{
	json_t *doc = tree_input_json(t, kind);
	json_object_set_new_nocheck(doc, "root", json_null()); /* written by write_root */
	struct fw_json_writer w;
	fw_json_writer_init(&w, f, DUMP_FLAGS);
	struct tree_at at = {t, flags};
	bool ok = fw_json_write_object(&w, doc, 0, "root", write_root, &at);
	json_decref(doc);
	fw_json_write_raw(&w, "\n", 1);
	return fw_json_writer_end(&w) == 0 && ok;
}
