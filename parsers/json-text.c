#include "json-text.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "utf8.h"

/* jansson's own constructors and setters, which refuse strings and keys that are not UTF-8 */
#undef json_string
#undef json_stringn
#undef json_object_set_new
#undef json_object_set

json_t *fw_json_stringn(const char *s, size_t n)
{
	/* no check: the way out makes every string UTF-8 (jansson's own check was a second pass) */
	return s ? json_stringn_nocheck(s, n) : NULL;
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

/* p[0..n) made valid into out (room for 3n bytes): each invalid byte one U+FFFD; a NUL byte (json_stringn
 * keeps them) stays a NUL, which JSON writes as \u0000. The length written. */
static size_t utf8_clean(const unsigned char *p, size_t n, char *out)
{
	size_t o = 0;
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
	return o;
}

/* Replace the string's bytes by their valid form (utf8_clean). */
static void make_valid(json_t *v)
{
	size_t n = json_string_length(v);
	char *out = fw_xmalloc(3 * n + 1);
	size_t o = utf8_clean((const unsigned char *)json_string_value(v), n, out);
	json_string_setn_nocheck(v, out, o);
	free(out);
}

int fw_json_object_set_new(json_t *o, const char *key, json_t *v)
{
	size_t n = key ? strlen(key) : 0;
	if (!key || fw_utf8_valid(key, n))
		return json_object_set_new(o, key, v);
	char *valid = fw_xmalloc(3 * n + 1);
	valid[utf8_clean((const unsigned char *)key, n, valid)] = '\0';
	int rc = json_object_set_new(o, valid, v);
	free(valid);
	return rc;
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

/* --- the writer: the bytes jansson's dump.c gives, for each of its dump flags (JSON_INDENT,
 * JSON_COMPACT, JSON_ENSURE_ASCII, JSON_SORT_KEYS, JSON_ESCAPE_SLASH, JSON_EMBED,
 * JSON_REAL_PRECISION, JSON_ENCODE_ANY), written into a buffer of its own. Why not json_dumpf:
 * it calls back once per token, formats every integer with snprintf and keeps a hash table of
 * the open containers (its loop check), which made JSON cost 1.3-2.4x the CPU of text; and a
 * value placed deeper in a streamed document had to be dumped to a string and re-indented.
 * Strings leave as fw_json_make_utf8 would make them (U+FFFD, NAME_hex siblings) in the same
 * pass, leaving the document as it is.
 *
 * Layout (dump.c): after "{" or "[" a line break and the indentation of the next depth (with
 * JSON_INDENT), after each "," the same or a space (neither indent nor JSON_COMPACT), before the
 * closing bracket the break and the indentation of its own depth; ": " between a key and its
 * value (":" with JSON_COMPACT); empty containers "{}" and "[]". Escapes: \" \\ \b \f \n \r \t,
 * other control characters \u00XX (upper case hex), "/" as \/ with JSON_ESCAPE_SLASH, code points
 * past ASCII as \uXXXX (surrogate pairs past the BMP) with JSON_ENSURE_ASCII. */

#define NESTING_MAX 2048 /* deeper is a loop in the document (jansson refuses loops too) */
#define REAL_PRECISION_BITS ((size_t)0x1F << 11)

static void jw_flush(struct fw_json_writer *w)
{
	if (w->f && w->len) {
		if (fwrite(w->buf, 1, w->len, w->f) != w->len)
			w->failed = true;
		w->len = 0;
	}
}

/* Room for n more bytes: a file's buffer is written out, memory grows. */
static bool jw_room(struct fw_json_writer *w, size_t n)
{
	if (w->f) {
		jw_flush(w);
		return n <= w->cap;
	}
	size_t cap = w->cap;
	while (cap - w->len < n)
		cap *= 2;
	if (w->buf == w->room) {
		w->buf = fw_xmalloc(cap);
		memcpy(w->buf, w->room, w->len);
	} else {
		w->buf = fw_xrealloc(w->buf, cap);
	}
	w->cap = cap;
	return true;
}

static inline void jw_put(struct fw_json_writer *w, const char *p, size_t n)
{
	if (w->cap - w->len < n && !jw_room(w, n)) {
		if (fwrite(p, 1, n, w->f) != n) /* larger than the buffer: straight through */
			w->failed = true;
		return;
	}
	memcpy(w->buf + w->len, p, n);
	w->len += n;
}

static inline void jw_putc(struct fw_json_writer *w, char c)
{
	if (w->len == w->cap)
		jw_room(w, 1);
	w->buf[w->len++] = c;
}

void fw_json_writer_init(struct fw_json_writer *w, FILE *f, size_t flags)
{
	w->f = f;
	w->flags = flags;
	w->failed = false;
	w->buf = w->room;
	w->len = 0;
	w->cap = sizeof(w->room);
}

void fw_json_write_raw(struct fw_json_writer *w, const char *s, size_t n)
{
	jw_put(w, s, n);
}

void fw_json_write_break(struct fw_json_writer *w, unsigned depth, bool space)
{
	/* a line break and up to 128 spaces in one copy */
	static const char line[] = "\n                                                                "
				   "                                                                ";
	unsigned indent = (unsigned)(w->flags & JSON_MAX_INDENT);
	if (indent) {
		size_t n = (size_t)indent * depth;
		if (n < sizeof(line) - 1) {
			jw_put(w, line, n + 1);
			return;
		}
		jw_putc(w, '\n');
		while (n) {
			size_t k = n < sizeof(line) - 2 ? n : sizeof(line) - 2;
			jw_put(w, line + 1, k);
			n -= k;
		}
	} else if (space && !(w->flags & JSON_COMPACT)) {
		jw_putc(w, ' ');
	}
}

static void jw_u16(struct fw_json_writer *w, uint32_t u)
{
	static const char digits[] = "0123456789ABCDEF";
	char e[6] = {'\\', 'u', digits[(u >> 12) & 15], digits[(u >> 8) & 15], digits[(u >> 4) & 15], digits[u & 15]};
	jw_put(w, e, sizeof(e));
}

/* plain[c]: ASCII written as it is (bit 0), and also with JSON_ESCAPE_SLASH (bit 1); not
 * control characters, '"', '\\', and past ASCII (UTF-8 to check) */
static const unsigned char plain[256] = {
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	3, 3, 0, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 1,
	3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3,
	3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3,
	3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 0, 3, 3, 3,
	3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3,
	3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3,
};

/* Whether the n bytes of a key are all written as they are (bit as in plain[]). */
static inline bool key_plain(const char *k, size_t n, unsigned char bit)
{
	size_t i = 0;
	while (i < n && (plain[(unsigned char)k[i]] & bit))
		i++;
	return i == n;
}

/* The string quoted and escaped. Bytes that are not UTF-8: with `clean` each invalid sequence
 * is written as U+FFFD (fw_json_make_utf8's make_valid) and *invalid set, else the string is
 * refused (jansson's dump fails on them). */
static bool jw_string(struct fw_json_writer *w, const char *s, size_t n, bool clean, bool *invalid)
{
	const unsigned char *u = (const unsigned char *)s;
	bool ascii = w->flags & JSON_ENSURE_ASCII;
	unsigned char bit = w->flags & JSON_ESCAPE_SLASH ? 2 : 1;
	size_t run = 0; /* start of the bytes written as they are, not yet copied */
	jw_putc(w, '"');
	for (size_t i = 0; i < n;) {
		unsigned char c = u[i];
		if (plain[c] & bit) {
			i++;
			continue;
		}
		size_t k = 1;
		uint32_t cp = c;
		if (c >= 0x80) {
			k = fw_utf8_seq(u + i, n - i, &cp);
			if (k && !ascii) {
				i += k;
				continue;
			}
			if (!k && !clean)
				return false;
		}
		jw_put(w, s + run, i - run);
		if (!k) {
			if (ascii)
				jw_u16(w, 0xFFFD);
			else
				jw_put(w, "\xEF\xBF\xBD", 3);
			if (invalid)
				*invalid = true;
			k = 1;
		} else if (cp >= 0x10000) {
			cp -= 0x10000;
			jw_u16(w, 0xD800 | (cp >> 10));
			jw_u16(w, 0xDC00 | (cp & 0x3FF));
		} else if (cp >= 0x80 || (cp < 0x20 && !strchr("\b\f\n\r\t", (int)cp)) || cp == 0) {
			jw_u16(w, cp);
		} else {
			char e[2] = {'\\', (char)cp};
			switch (cp) {
			case '\b': e[1] = 'b'; break;
			case '\f': e[1] = 'f'; break;
			case '\n': e[1] = 'n'; break;
			case '\r': e[1] = 'r'; break;
			case '\t': e[1] = 't'; break;
			default: break; /* '"', '\\', '/' stand for themselves */
			}
			jw_put(w, e, 2);
		}
		i += k;
		run = i;
	}
	jw_put(w, s + run, n - run);
	jw_putc(w, '"');
	return true;
}

static void jw_integer(struct fw_json_writer *w, json_int_t v)
{
	/* two digits a step: "00" to "99" */
	static const char pairs[] = "0001020304050607080910111213141516171819202122232425262728293031323334353637383940414243444546474849"
				    "5051525354555657585960616263646566676869707172737475767778798081828384858687888990919293949596979899";
	char b[24], *p = b + sizeof(b);
	uint64_t u = v < 0 ? -(uint64_t)v : (uint64_t)v;
	while (u >= 100) {
		p -= 2;
		memcpy(p, pairs + 2 * (u % 100), 2);
		u /= 100;
	}
	if (u >= 10) {
		p -= 2;
		memcpy(p, pairs + 2 * u, 2);
	} else {
		*--p = (char)('0' + u);
	}
	if (v < 0)
		*--p = '-';
	jw_put(w, p, (size_t)(b + sizeof(b) - p));
}

static bool jw_value(struct fw_json_writer *w, json_t *v, unsigned depth, bool embed, bool *invalid);

/* The NAME_hex sibling of member k (value v, with strings that are not UTF-8), written after it
 * as fw_json_make_utf8 places it: not when the name is too long or already a member. */
static void jw_hex_member(struct fw_json_writer *w, json_t *o, const char *k, json_t *v, unsigned depth)
{
	char name[256];
	if (!hex_name(k, name, sizeof(name)) || json_object_get(o, name))
		return;
	json_t *hex;
	if (json_is_string(v)) {
		hex = hex_of(v);
	} else {
		hex = json_array();
		size_t i;
		json_t *e;
		json_array_foreach(v, i, e) json_array_append_new(hex, string_valid(e) ? json_null() : hex_of(e));
	}
	jw_putc(w, ',');
	fw_json_write_break(w, depth + 1, true);
	jw_string(w, name, strlen(name), false, NULL);
	jw_put(w, w->flags & JSON_COMPACT ? ":" : ": ", w->flags & JSON_COMPACT ? 1 : 2);
	jw_value(w, hex, depth + 1, false, NULL);
	json_decref(hex);
}

struct key_len {
	const char *key;
	size_t len;
	json_t *value;
};

static int key_cmp(const void *a, const void *b)
{
	const struct key_len *x = a, *y = b;
	int r = memcmp(x->key, y->key, x->len < y->len ? x->len : y->len);
	return r ? r : (x->len > y->len) - (x->len < y->len);
}

/* A member's key and the separator after it; false for a key that is not UTF-8 (set with a
 * _nocheck call): jansson would write a broken string. */
static bool jw_key(struct fw_json_writer *w, const char *k, size_t klen)
{
	size_t sep = w->flags & JSON_COMPACT ? 1 : 2;
	unsigned char bit = w->flags & JSON_ESCAPE_SLASH ? 2 : 1;
	/* most keys: nothing to escape, quoted with the separator in one copy */
	if (klen <= 64 && key_plain(k, klen, bit)) {
		char q[64 + 4] = {'"'};
		memcpy(q + 1, k, klen);
		memcpy(q + 1 + klen, "\": ", 1 + sep);
		jw_put(w, q, klen + 2 + sep);
		return true;
	}
	if (!jw_string(w, k, klen, true, NULL)) /* a key that is not UTF-8: U+FFFD, as it is set in a tree */
		return false;
	jw_put(w, ": ", sep);
	return true;
}

/* One member: key, separator, value (or put's), and its NAME_hex sibling. */
static bool jw_member(struct fw_json_writer *w, json_t *o, const char *k, size_t klen, json_t *v, unsigned depth,
		      const char *member, fw_json_member_fn put, void *ctx)
{
	if (!jw_key(w, k, klen))
		return false;
	if (put && strcmp(k, member) == 0)
		return put(w, ctx, v, depth + 1);
	bool invalid = false;
	if (!jw_value(w, v, depth + 1, false, &invalid))
		return false;
	if (invalid)
		jw_hex_member(w, o, k, v, depth);
	return true;
}

static bool jw_object(struct fw_json_writer *w, json_t *o, unsigned depth, bool embed, const char *member,
		      fw_json_member_fn put, void *ctx)
{
	void *it = json_object_iter(o);
	if (!embed)
		jw_putc(w, '{');
	if (!it) {
		if (!embed)
			jw_putc(w, '}');
		return true;
	}
	fw_json_write_break(w, depth + 1, false);
	if (w->flags & JSON_SORT_KEYS) {
		/* strings here are UTF-8 already (see sorted_copy): no NAME_hex to place */
		size_t n = json_object_size(o), i = 0;
		struct key_len *keys = fw_xmalloc(n * sizeof(*keys));
		for (; it && i < n; it = json_object_iter_next(o, it), i++)
			keys[i] = (struct key_len){json_object_iter_key(it), json_object_iter_key_len(it),
						   json_object_iter_value(it)};
		qsort(keys, n, sizeof(*keys), key_cmp);
		bool ok = true;
		for (i = 0; i < n && ok; i++) {
			ok = jw_member(w, o, keys[i].key, keys[i].len, keys[i].value, depth, member, put, ctx);
			if (i + 1 < n) {
				jw_putc(w, ',');
				fw_json_write_break(w, depth + 1, true);
			}
		}
		free(keys);
		if (!ok)
			return false;
	} else {
		while (it) {
			void *next = json_object_iter_next(o, it);
			if (!jw_member(w, o, json_object_iter_key(it), json_object_iter_key_len(it),
				       json_object_iter_value(it), depth, member, put, ctx))
				return false;
			if (next) {
				jw_putc(w, ',');
				fw_json_write_break(w, depth + 1, true);
			}
			it = next;
		}
	}
	fw_json_write_break(w, depth, false);
	if (!embed)
		jw_putc(w, '}');
	return true;
}

/* v at `depth`; *invalid (when given) set for a string that was not UTF-8, or an array with such
 * a string as an item: the cases where a member gets a NAME_hex sibling. */
static bool jw_value(struct fw_json_writer *w, json_t *v, unsigned depth, bool embed, bool *invalid)
{
	if (!v || depth > NESTING_MAX)
		return false;
	switch (json_typeof(v)) {
	case JSON_NULL:
		jw_put(w, "null", 4);
		return true;
	case JSON_TRUE:
		jw_put(w, "true", 4);
		return true;
	case JSON_FALSE:
		jw_put(w, "false", 5);
		return true;
	case JSON_INTEGER:
		jw_integer(w, json_integer_value(v));
		return true;
	case JSON_REAL: {
		/* jansson's own digits (its shortest round trip or %.17g, depending on its build) */
		char *s = json_dumps(v, JSON_ENCODE_ANY | (w->flags & REAL_PRECISION_BITS));
		if (!s)
			return false;
		jw_put(w, s, strlen(s));
		free(s);
		return true;
	}
	case JSON_STRING:
		return jw_string(w, json_string_value(v), json_string_length(v), true, invalid);
	case JSON_ARRAY: {
		size_t n = json_array_size(v);
		if (!embed)
			jw_putc(w, '[');
		if (n == 0) {
			if (!embed)
				jw_putc(w, ']');
			return true;
		}
		fw_json_write_break(w, depth + 1, false);
		for (size_t i = 0; i < n; i++) {
			json_t *e = json_array_get(v, i);
			/* strings in nested arrays get U+FFFD but no NAME_hex (no member to sit beside) */
			if (!jw_value(w, e, depth + 1, false, json_is_string(e) ? invalid : NULL))
				return false;
			if (i + 1 < n) {
				jw_putc(w, ',');
				fw_json_write_break(w, depth + 1, true);
			}
		}
		fw_json_write_break(w, depth, false);
		if (!embed)
			jw_putc(w, ']');
		return true;
	}
	case JSON_OBJECT:
		return jw_object(w, v, depth, embed, NULL, NULL, NULL);
	}
	return false;
}

bool fw_json_write_value(struct fw_json_writer *w, json_t *v, unsigned depth)
{
	return jw_value(w, v, depth, false, NULL);
}

bool fw_json_write_object(struct fw_json_writer *w, json_t *o, unsigned depth, const char *member,
			  fw_json_member_fn put, void *ctx)
{
	return json_is_object(o) && jw_object(w, o, depth, false, member, put, ctx);
}

int fw_json_writer_end(struct fw_json_writer *w)
{
	jw_flush(w);
	if (!w->f && w->buf != w->room)
		free(w->buf);
	w->buf = w->room;
	w->len = 0;
	return w->failed || (w->f && ferror(w->f)) ? -1 : 0;
}

/* With JSON_SORT_KEYS a NAME_hex sibling sorts among the other keys: the strings are made UTF-8
 * in a copy first (fw_json_make_utf8 rebuilds objects in their order), then written sorted. */
static json_t *sorted_copy(json_t *doc, size_t flags)
{
	if (!(flags & JSON_SORT_KEYS))
		return json_incref(doc);
	json_t *copy = json_deep_copy(doc);
	fw_json_make_utf8(copy);
	return copy;
}

/* The whole document as json_dumpf writes it (what it refuses: a value that is no container
 * without JSON_ENCODE_ANY, a key that is not UTF-8, a loop). */
static bool write_doc(struct fw_json_writer *w, json_t *doc)
{
	size_t flags = w->flags;
	if (!doc || (!(flags & JSON_ENCODE_ANY) && !json_is_object(doc) && !json_is_array(doc)))
		return false;
	json_t *d = sorted_copy(doc, flags);
	w->flags &= ~(size_t)JSON_EMBED; /* only the outermost brackets are left out */
	bool ok = jw_value(w, d, 0, flags & JSON_EMBED, NULL);
	w->flags = flags;
	json_decref(d);
	return ok;
}

char *fw_json_dumps(json_t *doc, size_t flags)
{
	struct fw_json_writer w;
	fw_json_writer_init(&w, NULL, flags);
	bool ok = write_doc(&w, doc);
	char *s = NULL;
	if (ok && w.buf != w.room) { /* the grown buffer is the string */
		s = fw_xrealloc(w.buf, w.len + 1);
		w.buf = w.room;
	} else if (ok) {
		s = fw_xmalloc(w.len + 1);
		memcpy(s, w.buf, w.len);
	}
	if (s)
		s[w.len] = '\0';
	fw_json_writer_end(&w);
	return s;
}

int fw_json_dumpf(json_t *doc, FILE *f, size_t flags)
{
	struct fw_json_writer w;
	fw_json_writer_init(&w, f, flags);
	bool ok = write_doc(&w, doc);
	return fw_json_writer_end(&w) == 0 && ok ? 0 : -1;
}

/* --- streaming: the head's members written in order, its list's items built, written and
 * freed one at a time by the member callback. */

struct stream_at {
	const struct fw_json_stream *s;
	size_t outer; /* (size_t)-1: the stream's own list, else the cursor of the item whose sub list */
};

static bool stream_items(struct fw_json_writer *w, void *ctx, json_t *value, unsigned depth)
{
	const struct stream_at *at = ctx;
	const struct fw_json_stream *s = at->s;
	if (!json_is_array(value)) /* the list is no array in the head: written as it is */
		return jw_value(w, value, depth, false, NULL);
	size_t pos = 0;
	bool top = at->outer == (size_t)-1;
	json_t *item = top ? s->next(s->ctx, &pos) : s->sub_next(s->ctx, at->outer, &pos);
	if (!item) {
		jw_put(w, "[]", 2);
		return true;
	}
	jw_putc(w, '[');
	bool ok = true, first = true;
	while (item && ok) {
		fw_json_write_break(w, depth + 1, !first);
		first = false;
		if (w->flags & JSON_SORT_KEYS)
			fw_json_make_utf8(item);
		if (top && s->sublist && json_is_object(item)) {
			struct stream_at sub = {s, pos};
			ok = jw_object(w, item, depth + 1, false, s->sublist, stream_items, &sub);
		} else {
			ok = jw_value(w, item, depth + 1, false, NULL);
		}
		json_decref(item);
		item = top ? s->next(s->ctx, &pos) : s->sub_next(s->ctx, at->outer, &pos);
		if (item)
			jw_putc(w, ',');
	}
	json_decref(item);
	fw_json_write_break(w, depth, false);
	jw_putc(w, ']');
	return ok;
}

int fw_json_stream_dumpf(const struct fw_json_stream *s, FILE *f, size_t flags)
{
	struct fw_json_writer w;
	fw_json_writer_init(&w, f, flags & ~(size_t)JSON_EMBED);
	json_t *head = s->head;
	if (flags & JSON_SORT_KEYS)
		fw_json_make_utf8(head);
	struct stream_at at = {s, (size_t)-1};
	bool ok = json_is_object(head) && jw_object(&w, head, 0, false, s->list, stream_items, &at);
	json_decref(head);
	return fw_json_writer_end(&w) == 0 && ok ? 0 : -1;
}

/* --- the emitter: a document written token by token (json-text.h), in the writer's layout:
 * a value in a container `depth` levels in goes after the break of base + depth, a closing
 * bracket after the break of its own level, "{}" and "[]" when nothing was put in. */

void fw_json_emit_init(struct fw_json_emit *e, struct fw_json_writer *w, unsigned depth)
{
	e->w = w;
	e->base = depth;
	e->depth = 0;
	e->failed = w && (w->flags & (JSON_SORT_KEYS | JSON_EMBED)); /* the order is the caller's */
	e->given = false;
	e->key = NULL;
	e->klen = 0;
	e->root = NULL;
}

void fw_json_emit_key(struct fw_json_emit *e, const char *key)
{
	e->key = key;
	e->klen = key ? strlen(key) : 0;
}

/* The separator, line break, indentation and key (one needing no escapes) written straight
 * into the writer's buffer when they fit: most of what JSON adds to text is these bytes. False:
 * nothing written, the general path does it. */
static bool em_place_fast(struct fw_json_emit *e, bool comma, bool object)
{
	struct fw_json_writer *w = e->w;
	size_t indent = (size_t)(w->flags & JSON_MAX_INDENT) * (e->base + e->depth);
	/* room for 64 spaces whatever the indentation: one fixed-size copy writes them */
	static const char spaces[64] = "                                                                ";
	if (!indent || indent > sizeof(spaces) || (object && e->klen > 64) ||
	    w->cap - w->len < sizeof(spaces) + e->klen + 8)
		return false;
	char *o = w->buf + w->len;
	if (comma)
		*o++ = ',';
	*o++ = '\n';
	memcpy(o, spaces, sizeof(spaces));
	o += indent;
	if (object) {
		unsigned char bit = w->flags & JSON_ESCAPE_SLASH ? 2 : 1;
		if (!key_plain(e->key, e->klen, bit))
			return false; /* w->len unchanged: the bytes above are not kept */
		*o++ = '"';
		memcpy(o, e->key, e->klen);
		o += e->klen;
		*o++ = '"';
		*o++ = ':';
		if (!(w->flags & JSON_COMPACT))
			*o++ = ' ';
	}
	w->len = (size_t)(o - w->buf);
	return true;
}

/* The separator and key before a value, or false when no value may stand here (a member
 * without a key, an item with one, a second outermost value). */
static bool em_place(struct fw_json_emit *e)
{
	if (e->failed)
		return false;
	if (e->depth == 0) {
		if (e->key || e->given) {
			e->failed = true;
			return false;
		}
		e->given = true; /* the outermost value: one */
		return true;
	}
	struct fw_json_emit_level *top = &e->open[e->depth - 1];
	if (top->object != (e->key != NULL)) {
		e->failed = true;
		return false;
	}
	if (e->w && em_place_fast(e, top->any, top->object)) {
		top->any = true;
		return true;
	}
	if (e->w) {
		if (top->any)
			jw_putc(e->w, ',');
		fw_json_write_break(e->w, e->base + e->depth, top->any);
		if (top->object && !jw_key(e->w, e->key, e->klen)) {
			e->failed = true;
			return false;
		}
	}
	top->any = true;
	return true;
}

/* tree: the value into its container (or as the root) */
static void em_attach(struct fw_json_emit *e, json_t *v)
{
	if (e->depth == 0)
		e->root = v;
	else if (e->open[e->depth - 1].object)
		json_object_set_new(e->open[e->depth - 1].c, e->key, v);
	else
		json_array_append_new(e->open[e->depth - 1].c, v);
	e->key = NULL;
}

static void em_open(struct fw_json_emit *e, bool object)
{
	if (e->depth == FW_JSON_EMIT_DEPTH) {
		e->failed = true;
		return;
	}
	if (!em_place(e))
		return;
	json_t *c = NULL;
	if (e->w)
		jw_putc(e->w, object ? '{' : '[');
	else
		em_attach(e, c = object ? json_object() : json_array());
	e->key = NULL;
	e->depth++;
	e->open[e->depth - 1].c = c;
	e->open[e->depth - 1].object = object;
	e->open[e->depth - 1].any = false;
}

void fw_json_emit_object(struct fw_json_emit *e)
{
	em_open(e, true);
}

void fw_json_emit_array(struct fw_json_emit *e)
{
	em_open(e, false);
}

void fw_json_emit_end(struct fw_json_emit *e)
{
	if (e->failed || e->depth == 0) {
		e->failed = true;
		return;
	}
	struct fw_json_emit_level *top = &e->open[e->depth - 1];
	if (e->w) {
		if (top->any)
			fw_json_write_break(e->w, e->base + e->depth - 1, false);
		jw_putc(e->w, top->object ? '}' : ']');
	}
	e->depth--;
}

/* A value written as these bytes (w), or the json_t v (tree); v is taken. */
static void em_scalar(struct fw_json_emit *e, const char *bytes, size_t n, json_t *v)
{
	if (!em_place(e)) {
		json_decref(v);
		return;
	}
	if (e->w) {
		jw_put(e->w, bytes, n);
		json_decref(v);
		e->key = NULL;
	} else {
		em_attach(e, v);
	}
}

void fw_json_emit_int(struct fw_json_emit *e, json_int_t v)
{
	if (!e->w) {
		em_scalar(e, NULL, 0, json_integer(v));
		return;
	}
	if (!em_place(e))
		return;
	jw_integer(e->w, v);
	e->key = NULL;
}

void fw_json_emit_hex(struct fw_json_emit *e, uint64_t v)
{
	static const char digits[] = "0123456789abcdef";
	char b[24], *p = b + sizeof(b);
	*--p = '"';
	do
		*--p = digits[v & 15];
	while (v >>= 4);
	*--p = 'x';
	*--p = '0';
	*--p = '"';
	size_t n = (size_t)(b + sizeof(b) - p);
	em_scalar(e, p, n, e->w ? NULL : json_stringn_nocheck(p + 1, n - 2));
}

void fw_json_emit_bool(struct fw_json_emit *e, bool v)
{
	em_scalar(e, v ? "true" : "false", v ? 4 : 5, e->w ? NULL : json_boolean(v));
}

void fw_json_emit_null(struct fw_json_emit *e)
{
	em_scalar(e, "null", 4, e->w ? NULL : json_null());
}

/* "6869" for "hi", quoted */
static void jw_hex_string(struct fw_json_writer *w, const char *s, size_t n)
{
	static const char digits[] = "0123456789abcdef";
	char b[128];
	size_t k = 0;
	jw_putc(w, '"');
	for (size_t i = 0; i < n; i++) {
		b[k++] = digits[(unsigned char)s[i] >> 4];
		b[k++] = digits[(unsigned char)s[i] & 15];
		if (k == sizeof(b)) {
			jw_put(w, b, k);
			k = 0;
		}
	}
	jw_put(w, b, k);
	jw_putc(w, '"');
}

/* One string; *invalid set when it was not UTF-8 (written with U+FFFD). */
static void em_string(struct fw_json_emit *e, const char *s, size_t n, bool *invalid)
{
	if (!em_place(e))
		return;
	if (e->w) {
		jw_string(e->w, s, n, true, invalid);
		e->key = NULL;
	} else {
		em_attach(e, fw_json_stringn(s, n));
	}
}

/* The name of the NAME_hex sibling of the member just written, or false when it has none (no
 * key, or a name too long). */
static bool em_hex_key(const struct fw_json_emit *e, const char *key, char *name)
{
	return key && e->depth && e->open[e->depth - 1].object && hex_name(key, name, 256);
}

void fw_json_emit_stringn(struct fw_json_emit *e, const char *s, size_t n)
{
	if (!s) {
		fw_json_emit_null(e);
		return;
	}
	const char *key = e->key;
	bool invalid = false;
	em_string(e, s, n, &invalid);
	char name[256];
	if (invalid && !e->failed && em_hex_key(e, key, name)) {
		/* the member's bytes beside it, as fw_json_make_utf8 places them */
		e->key = name;
		e->klen = strlen(name);
		if (em_place(e))
			jw_hex_string(e->w, s, n);
		e->key = NULL;
	}
}

void fw_json_emit_string(struct fw_json_emit *e, const char *s)
{
	fw_json_emit_stringn(e, s, s ? strlen(s) : 0);
}

void fw_json_emit_strings(struct fw_json_emit *e, const char *const *s, size_t n)
{
	const char *key = e->key;
	bool any = false;
	fw_json_emit_array(e);
	for (size_t i = 0; i < n; i++) {
		bool invalid = false;
		if (s[i])
			em_string(e, s[i], strlen(s[i]), &invalid);
		else
			fw_json_emit_null(e);
		any |= invalid;
	}
	fw_json_emit_end(e);
	char name[256];
	if (!any || e->failed || !em_hex_key(e, key, name))
		return;
	/* NAME_hex: null for the items that were UTF-8 (and null ones), the bytes of the others */
	fw_json_emit_key(e, name);
	fw_json_emit_array(e);
	for (size_t i = 0; i < n; i++) {
		if (!s[i] || fw_utf8_valid(s[i], strlen(s[i]))) {
			fw_json_emit_null(e);
		} else if (em_place(e)) {
			jw_hex_string(e->w, s[i], strlen(s[i]));
		}
	}
	fw_json_emit_end(e);
}

json_t *fw_json_emit_done(struct fw_json_emit *e)
{
	json_t *root = e->root;
	e->root = NULL;
	if (e->failed || e->depth || e->w) {
		json_decref(root);
		return NULL;
	}
	return root;
}
