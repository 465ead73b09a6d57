/* Reading AMISCE exports. */
#include "amisce.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Exports are written in the Windows code page: text that is not UTF-8 is read as Latin-1. */
static bool utf8_ok(const unsigned char *p, size_t n)
{
	for (size_t i = 0; i < n;) {
		size_t k = p[i] < 0x80 ? 0 : (p[i] & 0xE0) == 0xC0 ? 1 : (p[i] & 0xF0) == 0xE0 ? 2 : (p[i] & 0xF8) == 0xF0 ? 3 : 9;
		if (k == 9 || i + k >= n + (k ? 0 : 1))
			return false;
		for (size_t j = 1; j <= k; j++)
			if ((p[i + j] & 0xC0) != 0x80)
				return false;
		i += k + 1;
	}
	return true;
}

static const char *text_dup(struct fw_arena *a, const char *p, size_t n)
{
	if (utf8_ok((const unsigned char *)p, n))
		return fw_arena_strndup(a, p, n);
	char *out = fw_arena_alloc(a, 2 * n + 1), *o = out;
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)p[i];
		if (c < 0x80) {
			*o++ = (char)c;
		} else {
			*o++ = (char)(0xC0 | (c >> 6));
			*o++ = (char)(0x80 | (c & 0x3F));
		}
	}
	*o = '\0';
	return out;
}

static const char *skip_blanks(const char *p, const char *end)
{
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	return p;
}

/* The line [p, end) without trailing blanks, CR and a trailing "// comment". */
static const char *cut_comment(const char *p, const char *end, bool keep_comment)
{
	if (!keep_comment)
		for (const char *c = p; c + 1 < end; c++)
			if (c[0] == '/' && c[1] == '/' && (c == p || c[-1] == ' ' || c[-1] == '\t')) {
				end = c;
				break;
			}
	while (end > p && (end[-1] == ' ' || end[-1] == '\t' || end[-1] == '\r'))
		end--;
	return end;
}

static bool hex_field(const char *p, const char *end, uint32_t *out)
{
	p = skip_blanks(p, end);
	if (p == end)
		return false;
	uint64_t v = 0;
	for (; p < end; p++) {
		int d = isdigit((unsigned char)*p) ? *p - '0' : isxdigit((unsigned char)*p) ? (tolower((unsigned char)*p) - 'a' + 10) : -1;
		if (d < 0 || v > 0xFFFFFFFu)
			return false;
		v = v * 16 + (uint64_t)d;
	}
	*out = (uint32_t)v;
	return true;
}

/* "<number>" into a value; p at '<'. The line is not NUL-terminated (the export is read from
 * memory), so the digits are copied out before strtoull sees them. */
static bool angle_number(const char *p, const char *end, int base, uint64_t *out)
{
	const char *close = memchr(p, '>', (size_t)(end - p));
	size_t n = close ? (size_t)(close - p - 1) : 0;
	char digits[32];
	if (!close || n == 0 || n >= sizeof(digits))
		return false;
	memcpy(digits, p + 1, n);
	digits[n] = '\0';
	char *e;
	errno = 0;
	unsigned long long x = strtoull(digits, &e, base);
	if (*e != '\0' || errno == ERANGE || digits[0] == '-')
		return false;
	*out = (uint64_t)x;
	return true;
}

/* "[0A]Text" (one-of) into value and text; p at '['. */
static bool bracket_option(struct fw_arena *a, const char *p, const char *end, uint64_t *v, const char **text)
{
	const char *close = memchr(p, ']', (size_t)(end - p));
	if (!close || close - p < 2 || close - p > 17)
		return false;
	uint64_t x = 0;
	for (const char *c = p + 1; c < close; c++) {
		if (!isxdigit((unsigned char)*c))
			return false;
		x = x * 16 + (uint64_t)(isdigit((unsigned char)*c) ? *c - '0' : tolower((unsigned char)*c) - 'a' + 10);
	}
	*v = x;
	*text = text_dup(a, close + 1, (size_t)(cut_comment(close + 1, end, false) - (close + 1)));
	return true;
}

static bool add_option(struct fw_amisce *a, struct fw_amisce_question *q, const char *p, const char *end, size_t line,
		       struct fw_error *err)
{
	p = skip_blanks(p, end);
	bool cur = p < end && *p == '*';
	if (cur)
		p++;
	uint64_t v;
	const char *t;
	if (p >= end || *p != '[' || !bracket_option(&a->arena, p, end, &v, &t))
		return fw_error_set(err, FW_E_INVALID, "%s: line %zu: an option is not [HEX]Text", a->origin, line);
	if (q->noptions >= 4096)
		return fw_error_set(err, FW_E_LIMIT, "%s: line %zu: more than 4096 options", a->origin, line);
	struct fw_amisce_option *o = fw_arena_alloc(&a->arena, (q->noptions + 1) * sizeof(*o));
	if (q->noptions)
		memcpy(o, q->options, q->noptions * sizeof(*o));
	o[q->noptions] = (struct fw_amisce_option){v, t, cur};
	q->options = o;
	q->noptions++;
	return true;
}

bool fw_amisce_parse(const char *text, size_t len, const char *origin, struct fw_amisce *out, struct fw_error *err)
{
	memset(out, 0, sizeof(*out));
	fw_arena_init(&out->arena);
	out->origin = fw_arena_strdup(&out->arena, origin);
	if (len > FW_AMISCE_MAX_BYTES)
		return fw_error_set(err, FW_E_LIMIT, "%s: larger than %zu MiB", origin, FW_AMISCE_MAX_BYTES >> 20);
	struct fw_amisce_question *q = NULL;
	bool in_options = false;
	size_t line = 0;
	for (const char *p = text, *end = text + len; p < end;) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *le = nl ? nl : end;
		line++;
		const char *s = skip_blanks(p, le);
		const char *next = nl ? nl + 1 : end;
		if (memchr(p, '\0', (size_t)(le - p)))
			return fw_error_set(err, FW_E_INVALID, "%s: line %zu: a NUL byte: not a text export", origin, line);
		if (s == le || (le - s >= 2 && s[0] == '/' && s[1] == '/') || *s == '\r') {
			if (s == le || *s == '\r')
				in_options = false;
			p = next;
			continue;
		}
		/* an option line continues Options */
		if (in_options && (*s == '*' || *s == '[')) {
			if (!add_option(out, q, s, le, line, err))
				return false;
			p = next;
			continue;
		}
		in_options = false;
		const char *eq = memchr(s, '=', (size_t)(le - s));
		if (!eq)
			return fw_error_set(err, FW_E_INVALID, "%s: line %zu: not KEY = VALUE", origin, line);
		const char *ke = eq;
		while (ke > s && (ke[-1] == ' ' || ke[-1] == '\t'))
			ke--;
		size_t klen = (size_t)(ke - s);
		bool is_text_key = (klen == 14 && memcmp(s, "Setup Question", 14) == 0) || (klen == 11 && memcmp(s, "Help String", 11) == 0) ||
				   (klen == 10 && memcmp(s, "Map String", 10) == 0);
		/* a text is what follows the one blank after '=' to the end of the line, its own blanks
		 * kept (AMISCE writes prompts such as "  XMP" as they are); other values are trimmed */
		const char *v = is_text_key ? eq + 1 + (eq + 1 < le && (eq[1] == ' ' || eq[1] == '\t')) : skip_blanks(eq + 1, le);
		const char *ve = is_text_key ? le : cut_comment(v, le, false);
		if (is_text_key && ve > v && ve[-1] == '\r')
			ve--;
#define KEY(k) (klen == sizeof(k) - 1 && memcmp(s, k, klen) == 0)
		if (KEY("HIICrc32")) {
			out->hii_crc = fw_arena_strndup(&out->arena, v, (size_t)(ve - v));
		} else if (KEY("Setup Question")) {
			if (out->n >= FW_AMISCE_MAX_QUESTIONS)
				return fw_error_set(err, FW_E_LIMIT, "%s: line %zu: more than %u questions", origin, line,
						    FW_AMISCE_MAX_QUESTIONS);
			if (out->n == out->cap) {
				out->cap = out->cap ? out->cap * 2 : 256;
				out->q = fw_xrealloc(out->q, out->cap * sizeof(*out->q));
			}
			q = &out->q[out->n++];
			memset(q, 0, sizeof(*q));
			q->line = line;
			q->prompt = text_dup(&out->arena, v, (size_t)(ve - v));
		} else if (!q) {
			return fw_error_set(err, FW_E_INVALID, "%s: line %zu: %.*s before any Setup Question", origin, line,
					    (int)(klen > 40 ? 40 : klen), s);
		} else if (KEY("Map String")) {
			q->keyword = text_dup(&out->arena, v, (size_t)(ve - v));
		} else if (KEY("Help String")) {
			q->help = text_dup(&out->arena, v, (size_t)(ve - v));
		} else if (KEY("Token")) {
			q->has_token = hex_field(v, ve, &q->token);
		} else if (KEY("Offset")) {
			if (!(q->has_offset = hex_field(v, ve, &q->offset)))
				return fw_error_set(err, FW_E_INVALID, "%s: line %zu: Offset is not hex", origin, line);
		} else if (KEY("Width")) {
			if (!(q->has_width = hex_field(v, ve, &q->width)) || q->width == 0 || q->width > 0x10000)
				return fw_error_set(err, FW_E_INVALID, "%s: line %zu: Width is not a hex size", origin, line);
		} else if (KEY("BIOS Default")) {
			if (v < ve && *v == '[')
				q->has_default = bracket_option(&out->arena, v, ve, &q->def, &q->def_text);
			else if (v < ve && *v == '<')
				q->has_default = angle_number(v, ve, 10, &q->def);
		} else if (KEY("Options")) {
			in_options = true;
			if (!add_option(out, q, v, ve, line, err))
				return false;
		} else if (KEY("Value")) {
			if (v < ve && *v == '<') {
				if (!angle_number(v, ve, 0, &q->value))
					return fw_error_set(err, FW_E_INVALID, "%s: line %zu: Value is not <number>", origin, line);
				q->has_value = true;
			} else if (v < ve && *v == '"') {
				/* a line ending in a quote holds the string up to it, a "//" inside being text */
				const char *whole = cut_comment(v, le, true);
				const char *qe = whole > v + 1 && whole[-1] == '"' ? whole - 1 : ve > v + 1 && ve[-1] == '"' ? ve - 1 : ve;
				q->string = text_dup(&out->arena, v + 1, (size_t)(qe - v - 1));
			}
		}
		/* other keys (newer versions add some) are kept out of the model */
#undef KEY
		p = next;
	}
	if (!out->n)
		return fw_error_set(err, FW_E_INVALID, "%s: no Setup Question: not an AMISCE export", origin);
	return true;
}

void fw_amisce_free(struct fw_amisce *a)
{
	free(a->q);
	fw_arena_free(&a->arena);
	memset(a, 0, sizeof(*a));
}

bool fw_amisce_current(const struct fw_amisce_question *q, uint64_t *v)
{
	for (uint32_t i = 0; i < q->noptions; i++)
		if (q->options[i].current) {
			*v = q->options[i].value;
			return true;
		}
	if (q->has_value) {
		*v = q->value;
		return true;
	}
	return false;
}

void fw_amisce_to_setlist(const struct fw_amisce *a, struct fw_setlist *out)
{
	memset(out, 0, sizeof(*out));
	fw_arena_init(&out->arena);
	out->origin = fw_arena_strdup(&out->arena, a->origin);
	out->items = fw_xcalloc(a->n + 1, sizeof(*out->items));
	out->bound = true;
	for (size_t i = 0; i < a->n; i++) {
		const struct fw_amisce_question *q = &a->q[i];
		struct fw_setlist_item *it = &out->items[out->n++];
		it->kind = q->noptions ? "one-of" : q->string ? "string" : "numeric";
		it->prompt = fw_arena_strdup(&out->arena, q->prompt);
		it->keyword = q->keyword ? fw_arena_strdup(&out->arena, q->keyword) : NULL;
		it->help = q->help ? fw_arena_strdup(&out->arena, q->help) : "";
		it->question_id = (uint16_t)q->token;
		it->has_offset = q->has_offset;
		it->offset = q->offset;
		it->width = q->width;
		it->noptions = q->noptions;
		it->options = fw_arena_alloc(&out->arena, (q->noptions + 1) * sizeof(*it->options));
		for (uint32_t k = 0; k < q->noptions; k++) {
			it->options[k].text = fw_arena_strdup(&out->arena, q->options[k].text);
			it->options[k].value = q->options[k].value;
			it->options[k].is_default = q->has_default && q->def == q->options[k].value;
		}
		if (q->has_default) {
			it->defaults = fw_arena_alloc(&out->arena, sizeof(*it->defaults));
			it->defaults[0] = (struct fw_setlist_default){0, "standard", true, q->def,
								      q->def_text ? fw_arena_strdup(&out->arena, q->def_text) : NULL, NULL};
			it->ndefaults = 1;
		}
		uint64_t v;
		it->hidden = it->grayed = -1;
		if (fw_amisce_current(q, &v)) {
			it->has_current = true;
			it->current = v;
			it->current_valid = true;
			for (uint32_t k = 0; k < q->noptions; k++)
				if (q->options[k].value == v)
					it->current_text = it->options[k].text;
		} else if (q->string) {
			it->has_current = true;
			it->current_text = fw_arena_strdup(&out->arena, q->string);
			it->current_valid = true;
		}
	}
}
