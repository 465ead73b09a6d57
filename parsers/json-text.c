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

static void walk_object(json_t *o)
{
	bool any = false;
	const char *k;
	json_t *e;
	json_object_foreach(o, k, e) {
		if (!string_valid(e) || json_is_array(e)) {
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
