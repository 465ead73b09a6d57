#include "json-text.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "utf8.h"

/* jansson's own constructors, which refuse strings that are not UTF-8 */
#undef json_string
#undef json_stringn

json_t *fw_json_stringn(const char *s, size_t n)
{
	if (!s)
		return NULL;
	return fw_utf8_valid(s, n) ? json_stringn(s, n) : json_stringn_nocheck(s, n);
}

json_t *fw_json_string(const char *s)
{
	return s ? fw_json_stringn(s, strlen(s)) : NULL;
}

static bool string_valid(const json_t *v)
{
	return !json_is_string(v) || fw_utf8_valid(json_string_value(v), json_string_length(v));
}

/* "NAME_hex" for a member NAME; false when it does not fit (such a name is no member of ours). */
static bool hex_name(const char *key, char *out, size_t len)
{
	return (size_t)snprintf(out, len, "%s_hex", key) < len;
}

static json_t *hex_of(const json_t *v)
{
	static const char digits[] = "0123456789abcdef";
	const unsigned char *p = (const unsigned char *)json_string_value(v);
	size_t n = json_string_length(v);
	char *h = fw_xmalloc(2 * n + 1);
	for (size_t i = 0; i < n; i++) {
		h[2 * i] = digits[p[i] >> 4];
		h[2 * i + 1] = digits[p[i] & 15];
	}
	h[2 * n] = '\0';
	json_t *j = json_stringn(h, 2 * n);
	free(h);
	return j;
}

/* Replace the string's bytes by their valid form: each invalid sequence one U+FFFD, and a NUL
 * byte (json_stringn keeps them) stays a NUL, which JSON writes as \u0000. */
static void make_valid(json_t *v)
{
	const unsigned char *p = (const unsigned char *)json_string_value(v);
	size_t n = json_string_length(v), o = 0;
	char *out = fw_xmalloc(3 * n + 1);
	for (size_t i = 0; i < n;) {
		uint32_t cp;
		size_t k = fw_utf8_seq(p + i, n - i, &cp);
		if (!k) {
			memcpy(out + o, "\xEF\xBF\xBD", 3);
			o += 3;
			i++;
			continue;
		}
		memcpy(out + o, p + i, k);
		o += k;
		i += k;
	}
	json_string_setn_nocheck(v, out, o);
	free(out);
}

/* The NAME_hex array for an array with strings that are not UTF-8, or NULL when all are. */
static json_t *array_hex(json_t *a)
{
	json_t *hex = NULL;
	size_t i;
	json_t *e;
	json_array_foreach(a, i, e) {
		if (string_valid(e))
			continue;
		if (!hex) {
			hex = json_array();
			for (size_t k = 0; k < json_array_size(a); k++)
				json_array_append_new(hex, json_null());
		}
		json_array_set_new(hex, i, hex_of(e));
		make_valid(e);
	}
	return hex;
}

static void walk(json_t *v);

/* No string item of the array needs its bytes kept beside it (nested arrays are walked on their own). */
static bool array_valid(const json_t *a)
{
	size_t i;
	json_t *e;
	json_array_foreach(a, i, e) if (!string_valid(e)) return false;
	return true;
}

static void walk_object(json_t *o)
{
	bool any = false;
	const char *k;
	json_t *e;
	/* rebuilding costs a copy of the object: only when a member gets a NAME_hex sibling */
	json_object_foreach(o, k, e) {
		if (!string_valid(e) || (json_is_array(e) && !array_valid(e))) {
			any = true;
			break;
		}
	}
	if (!any) {
		json_object_foreach(o, k, e) walk(e);
		return;
	}
	/* rebuilt in order so each NAME_hex follows its NAME */
	json_t *copy = json_object();
	json_object_foreach(o, k, e) {
		char name[256];
		json_t *hex = NULL;
		if (json_is_string(e) && !string_valid(e)) {
			hex = hex_of(e);
			make_valid(e);
		} else if (json_is_array(e)) {
			hex = array_hex(e);
			walk(e);
		} else {
			walk(e);
		}
		json_object_set(copy, k, e);
		if (hex && hex_name(k, name, sizeof(name)) && !json_object_get(o, name))
			json_object_set_new(copy, name, hex);
		else
			json_decref(hex);
	}
	json_object_clear(o);
	json_object_update(o, copy);
	json_decref(copy);
}

static void walk(json_t *v)
{
	if (json_is_object(v)) {
		walk_object(v);
	} else if (json_is_array(v)) {
		size_t i;
		json_t *e;
		json_array_foreach(v, i, e) {
			if (json_is_string(e)) {
				if (!string_valid(e))
					make_valid(e); /* an array in an array: no member to put the bytes beside */
			} else {
				walk(e);
			}
		}
	} else if (json_is_string(v) && !string_valid(v)) {
		make_valid(v);
	}
}

void fw_json_make_utf8(json_t *doc)
{
	if (doc)
		walk(doc);
}

char *fw_json_dumps(json_t *doc, size_t flags)
{
	fw_json_make_utf8(doc);
	return json_dumps(doc, flags);
}

int fw_json_dumpf(json_t *doc, FILE *f, size_t flags)
{
	fw_json_make_utf8(doc);
	return json_dumpf(doc, f, flags);
}

/* --- streaming: jansson's own layout (dump.c): after "{" or "[" and after each "," a line
 * break and the indentation of the next depth (with JSON_INDENT), or a space (neither indent
 * nor JSON_COMPACT); before the closing bracket the break and the indentation of its own depth;
 * ": " between a key and its value (":" with JSON_COMPACT). */

static void put_spaces(FILE *f, unsigned n)
{
	static const char spaces[] = "                                                                ";
	for (; n > sizeof(spaces) - 1; n -= sizeof(spaces) - 1)
		fwrite(spaces, 1, sizeof(spaces) - 1, f);
	fwrite(spaces, 1, n, f);
}

static void stream_break(FILE *f, size_t flags, unsigned depth, bool space)
{
	unsigned indent = (unsigned)(flags & JSON_MAX_INDENT);
	if (indent) {
		fputc('\n', f);
		put_spaces(f, indent * depth);
	} else if (space && !(flags & JSON_COMPACT)) {
		fputc(' ', f);
	}
}

void fw_json_put_indented(FILE *f, const char *s, size_t len, unsigned pad)
{
	const char *p = s, *end = s + len, *nl;
	while ((nl = memchr(p, '\n', (size_t)(end - p)))) {
		fwrite(p, 1, (size_t)(nl - p) + 1, f);
		put_spaces(f, pad);
		p = nl + 1;
	}
	fwrite(p, 1, (size_t)(end - p), f);
}

/* v dumped on its own, each of its line breaks followed by `depth` more levels of indentation
 * (JSON strings hold no raw line break, so every one is jansson's). */
static bool stream_value(FILE *f, json_t *v, size_t flags, unsigned depth)
{
	char *s = json_dumps(v, flags | JSON_ENCODE_ANY);
	if (!s)
		return false;
	fw_json_put_indented(f, s, strlen(s), (unsigned)(flags & JSON_MAX_INDENT) * depth);
	free(s);
	return true;
}

static bool stream_object(FILE *f, const struct fw_json_stream *s, json_t *o, const char *list, size_t flags,
			  unsigned depth, size_t outer);

/* The items of the list at `depth`: the stream's own (outer: (size_t)-1), or those of the sub
 * list of the item next() left its cursor after (outer: that cursor). */
static bool stream_items(FILE *f, const struct fw_json_stream *s, size_t flags, unsigned depth, size_t outer)
{
	size_t pos = 0;
	bool top = outer == (size_t)-1;
	json_t *item = top ? s->next(s->ctx, &pos) : s->sub_next(s->ctx, outer, &pos);
	if (!item) {
		fputs("[]", f);
		return true;
	}
	fputc('[', f);
	bool ok = true, first = true;
	while (item && ok) {
		stream_break(f, flags, depth + 1, !first);
		first = false;
		fw_json_make_utf8(item);
		if (top && s->sublist && json_is_object(item))
			ok = stream_object(f, s, item, s->sublist, flags, depth + 1, pos);
		else
			ok = stream_value(f, item, flags, depth + 1);
		json_decref(item);
		item = top ? s->next(s->ctx, &pos) : s->sub_next(s->ctx, outer, &pos);
		if (item)
			fputc(',', f);
	}
	json_decref(item);
	stream_break(f, flags, depth, false);
	fputc(']', f);
	return ok;
}

/* The members of o at `depth`, the one named `list` (an array) from stream_items. */
static bool stream_object(FILE *f, const struct fw_json_stream *s, json_t *o, const char *list, size_t flags,
			  unsigned depth, size_t outer)
{
	if (json_object_size(o) == 0) {
		fputs("{}", f);
		return true;
	}
	fputc('{', f);
	bool ok = true;
	size_t left = json_object_size(o);
	const char *k;
	json_t *v;
	json_object_foreach(o, k, v) {
		stream_break(f, flags, depth + 1, left != json_object_size(o));
		json_t *key = json_string(k);
		ok = ok && stream_value(f, key, flags, depth + 1);
		json_decref(key);
		fputs(flags & JSON_COMPACT ? ":" : ": ", f);
		if (strcmp(k, list) == 0 && json_is_array(v))
			ok = ok && stream_items(f, s, flags, depth + 1, outer);
		else
			ok = ok && stream_value(f, v, flags, depth + 1);
		if (--left)
			fputc(',', f);
	}
	stream_break(f, flags, depth, false);
	fputc('}', f);
	return ok;
}

int fw_json_stream_dumpf(const struct fw_json_stream *s, FILE *f, size_t flags)
{
	json_t *head = s->head;
	fw_json_make_utf8(head);
	bool ok = json_is_object(head) && stream_object(f, s, head, s->list, flags, 0, (size_t)-1);
	json_decref(head);
	return ok && !ferror(f) ? 0 : -1;
}
