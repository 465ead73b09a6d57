/* The JSON skim: a strict reader of the plain subset of RFC 8259 that json-skim.h describes. */
#include "json-skim.h"

#include <string.h>

struct skim {
	const char *p;
	size_t n, i;
};

static void space(struct skim *s)
{
	while (s->i < s->n && (s->p[s->i] == ' ' || s->p[s->i] == '\t' || s->p[s->i] == '\n' || s->p[s->i] == '\r'))
		s->i++;
}

static bool hex4(struct skim *s, unsigned *v)
{
	if (s->n - s->i < 4)
		return false;
	*v = 0;
	for (int k = 0; k < 4; k++) {
		char c = s->p[s->i++];
		unsigned d = c >= '0' && c <= '9' ? (unsigned)(c - '0')
			     : c >= 'a' && c <= 'f' ? (unsigned)(c - 'a' + 10)
			     : c >= 'A' && c <= 'F' ? (unsigned)(c - 'A' + 10)
						    : 16;
		if (d == 16)
			return false;
		*v = *v << 4 | d;
	}
	return true;
}

/* A string at s->i (its opening quote); *escaped says whether it has escapes. */
static bool string(struct skim *s, bool *escaped)
{
	*escaped = false;
	s->i++;
	while (s->i < s->n) {
		unsigned char c = (unsigned char)s->p[s->i++];
		if (c == '"')
			return true;
		if (c < 0x20 || c >= 0x80)
			return false; /* control characters are not JSON; other bytes are left to the full parse */
		if (c != '\\')
			continue;
		*escaped = true;
		if (s->i >= s->n)
			return false;
		c = (unsigned char)s->p[s->i++];
		if (c == 'u') {
			unsigned v;
			if (!hex4(s, &v) || v == 0 || (v >= 0xD800 && v <= 0xDFFF))
				return false; /* NUL and surrogate pairs are left to the full parse */
		} else if (!strchr("\"\\/bfnrt", c) || c == 0) {
			return false;
		}
	}
	return false;
}

/* An integer of at most 18 digits (it fits in jansson's json_int_t); fractions and exponents are
 * left to the full parse. */
static bool number(struct skim *s)
{
	if (s->p[s->i] == '-')
		s->i++;
	size_t start = s->i;
	if (s->i < s->n && s->p[s->i] == '0') {
		s->i++;
	} else {
		while (s->i < s->n && s->p[s->i] >= '0' && s->p[s->i] <= '9')
			s->i++;
	}
	if (s->i == start || s->i - start > 18)
		return false;
	return !(s->i < s->n && (s->p[s->i] == '.' || s->p[s->i] == 'e' || s->p[s->i] == 'E' ||
				 (s->p[s->i] >= '0' && s->p[s->i] <= '9')));
}

static bool word(struct skim *s, const char *w)
{
	size_t n = strlen(w);
	if (s->n - s->i < n || memcmp(s->p + s->i, w, n) != 0)
		return false;
	s->i += n;
	return true;
}

struct top {
	const char *const *keys;
	size_t nkeys;
	struct fw_json_span *out;
};

static bool value(struct skim *s, unsigned depth, struct top *top);

/* An object or array at s->i; members of the top-level object are matched against top's keys. */
static bool container(struct skim *s, unsigned depth, struct top *top)
{
	bool object = s->p[s->i] == '{';
	char close = object ? '}' : ']';
	if (depth >= FW_JSON_SKIM_MAX_DEPTH)
		return false;
	s->i++;
	space(s);
	if (s->i < s->n && s->p[s->i] == close) {
		s->i++;
		return true;
	}
	for (;;) {
		size_t key = 0, key_len = 0;
		if (object) {
			bool escaped;
			if (s->i >= s->n || s->p[s->i] != '"')
				return false;
			key = s->i + 1;
			if (!string(s, &escaped) || (top && escaped))
				return false; /* a top-level key is compared as written */
			key_len = s->i - 1 - key;
			space(s);
			if (s->i >= s->n || s->p[s->i] != ':')
				return false;
			s->i++;
			space(s);
		}
		size_t at = s->i;
		if (!value(s, depth + 1, NULL))
			return false;
		for (size_t k = 0; top && k < top->nkeys; k++)
			if (strlen(top->keys[k]) == key_len && memcmp(s->p + key, top->keys[k], key_len) == 0)
				top->out[k] = (struct fw_json_span){key, key_len, at, s->i - at};
		space(s);
		if (s->i < s->n && s->p[s->i] == ',') {
			s->i++;
			space(s);
			continue;
		}
		if (s->i < s->n && s->p[s->i] == close) {
			s->i++;
			return true;
		}
		return false;
	}
}

static bool value(struct skim *s, unsigned depth, struct top *top)
{
	if (s->i >= s->n)
		return false;
	char c = s->p[s->i];
	bool escaped;
	switch (c) {
	case '{':
	case '[': return container(s, depth, top);
	case '"': return string(s, &escaped);
	case 't': return word(s, "true");
	case 'f': return word(s, "false");
	case 'n': return word(s, "null");
	default: return (c == '-' || (c >= '0' && c <= '9')) && number(s);
	}
}

bool fw_json_skim_object(const char *p, size_t n, const char *const *keys, size_t nkeys, struct fw_json_span *out)
{
	struct skim s = {p, n, 0};
	struct top top = {keys, nkeys, out};
	memset(out, 0, nkeys * sizeof(*out));
	space(&s);
	if (s.i >= s.n || s.p[s.i] != '{' || !container(&s, 0, &top))
		return false;
	space(&s);
	return s.i == s.n;
}
