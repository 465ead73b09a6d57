/* Reading AMISCE exports. */
#include "amisce.h"

#include <strings.h>

#include "topics.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
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

/* A bare hex number of up to 16 digits (a Value or BIOS Default without brackets). */
static bool hex_number(const char *p, const char *end, uint64_t *out)
{
	p = skip_blanks(p, end);
	uint64_t v = 0;
	size_t n = 0;
	for (; p < end && isxdigit((unsigned char)*p); p++, n++)
		v = v * 16 + (uint64_t)(isdigit((unsigned char)*p) ? *p - '0' : tolower((unsigned char)*p) - 'a' + 10);
	if (n == 0 || n > 16 || skip_blanks(p, end) != end)
		return false;
	*out = v;
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
	const char *close = memchr(p, ']', (size_t)(end - p));
	o[q->noptions] = (struct fw_amisce_option){v, t, cur, (uint8_t)(close - p - 1)};
	q->options = o;
	q->noptions++;
	return true;
}

/* ---- layout ---- */

static void put(char **buf, size_t *len, size_t *cap, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static void put(char **buf, size_t *len, size_t *cap, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if (*len + (size_t)n + 1 > *cap) {
		*cap = (*len + (size_t)n + 1) * 2;
		*buf = fw_xrealloc(*buf, *cap);
	}
	va_start(ap, fmt);
	vsnprintf(*buf + *len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	*len += (size_t)n;
}

void fw_amisce_line_text(const struct fw_amisce *a, const struct fw_amisce_question *q, const struct fw_amisce_line *l, const uint64_t *mark,
			 char **buf, size_t *len, size_t *cap)
{
	const struct fw_amisce_option *o = l->kind == FW_AMISCE_L_OPTION && q && l->option < q->noptions ? &q->options[l->option] : NULL;
	if (l->raw && l->kind == FW_AMISCE_L_VALUE && mark && q->has_value) {
		/* a kept Value line gets the new number in place of the old, its comment kept */
		const char *v = strchr(l->raw, '='), *ve;
		if (v) {
			v++;
			while (*v == ' ' || *v == '\t')
				v++;
			ve = *v == '<' ? strchr(v, '>') : v + strspn(v, "0123456789abcdefABCDEF");
			if (ve && *v == '<')
				ve++;
		}
		if (v && ve && ve > v) {
			put(buf, len, cap, "%.*s", (int)(v - l->raw), l->raw);
			if (q->value_form == 'h')
				put(buf, len, cap, "%" PRIX64, *mark);
			else
				put(buf, len, cap, "<%" PRIu64 ">", *mark);
			put(buf, len, cap, "%s", ve);
			return;
		}
	}
	if (l->raw && !(l->kind == FW_AMISCE_L_VALUE && mark && q->has_value)) {
		/* a kept option line moves its "*" in place: before the '[' that opens the value */
		const char *br = o && mark ? strchr(l->raw, '[') : NULL;
		if (!br) {
			put(buf, len, cap, "%s", l->raw);
			return;
		}
		const char *pre_end = br > l->raw && br[-1] == '*' ? br - 1 : br;
		put(buf, len, cap, "%.*s%s%s", (int)(pre_end - l->raw), l->raw, o->value == *mark ? "*" : "", br);
		return;
	}
	switch (l->kind) {
	case FW_AMISCE_L_BLANK: put(buf, len, cap, "%s", ""); break;
	case FW_AMISCE_L_HIICRC: put(buf, len, cap, "HIICrc32= %s", a->hii_crc ? a->hii_crc : ""); break;
	case FW_AMISCE_L_QUESTION: put(buf, len, cap, "Setup Question\t= %s", q->prompt); break;
	case FW_AMISCE_L_MAP: put(buf, len, cap, "Map String\t= %s", q->keyword ? q->keyword : ""); break;
	case FW_AMISCE_L_HELP: put(buf, len, cap, "Help String\t= %s", q->help ? q->help : ""); break;
	case FW_AMISCE_L_TOKEN: put(buf, len, cap, "Token\t=%02X\t// Do NOT change this line", q->token); break;
	case FW_AMISCE_L_OFFSET: put(buf, len, cap, "Offset\t=%02X", q->offset); break;
	case FW_AMISCE_L_WIDTH: put(buf, len, cap, "Width\t=%02X", q->width); break;
	case FW_AMISCE_L_DEFAULT:
		if (q->def_form == '[')
			put(buf, len, cap, "BIOS Default\t=[%0*" PRIX64 "]%s ", q->def_digits, q->def, q->def_text ? q->def_text : "");
		else if (q->def_form == '<')
			put(buf, len, cap, "BIOS Default\t=<%" PRIu64 "> ", q->def);
		else
			put(buf, len, cap, "BIOS Default\t=%" PRIX64 " ", q->def);
		break;
	case FW_AMISCE_L_OPTION:
		if (!o)
			break;
		put(buf, len, cap, "%s%s[%0*" PRIX64 "]%s%s", l->option ? "         " : "Options\t=",
		    (mark ? o->value == *mark : o->current) ? "*" : "", o->digits, o->value, o->text,
		    l->option ? "" : "\t// Move \"*\" to the desired Option");
		break;
	case FW_AMISCE_L_VALUE: {
		uint64_t v = mark ? *mark : q->value;
		if (q->string && !mark)
			put(buf, len, cap, "Value\t=\"%s\"", q->string);
		else if (q->value_form == 'h')
			put(buf, len, cap, "Value\t=%" PRIX64, v);
		else
			put(buf, len, cap, "Value\t=<%" PRIu64 ">", v);
		break;
	}
	default: break;
	}
}

/* The lines read so far, each with its question (SIZE_MAX: the header). */
struct line_rec {
	size_t question;
	struct fw_amisce_line line;
};
struct lines {
	struct line_rec *v;
	size_t n, cap;
	char *buf;
	size_t blen, bcap;
};

/* Record a line: its raw bytes kept only when the fields spell it otherwise. */
static void record(struct fw_amisce *a, struct lines *ls, uint8_t kind, uint32_t option, const char *p, size_t n)
{
	if (ls->n == ls->cap) {
		ls->cap = ls->cap ? ls->cap * 2 : 1024;
		ls->v = fw_xrealloc(ls->v, ls->cap * sizeof(*ls->v));
	}
	struct line_rec *r = &ls->v[ls->n++];
	*r = (struct line_rec){a->n ? a->n - 1 : SIZE_MAX, {kind, option, NULL}};
	bool spelled = false;
	if (kind != FW_AMISCE_L_COMMENT && kind != FW_AMISCE_L_OTHER) {
		ls->blen = 0;
		fw_amisce_line_text(a, a->n ? &a->q[a->n - 1] : NULL, &r->line, NULL, &ls->buf, &ls->blen, &ls->bcap);
		spelled = ls->blen == n && (n == 0 || memcmp(ls->buf, p, n) == 0);
	}
	if (!spelled) {
		r->line.raw = fw_arena_strndup(&a->arena, p, n);
		a->raw_lines++;
	}
}

/* Hand each question its lines, in the arena. */
static void distribute(struct fw_amisce *a, struct lines *ls)
{
	size_t i = 0;
	for (size_t qi = SIZE_MAX;; qi = qi == SIZE_MAX ? 0 : qi + 1) {
		size_t k = i;
		while (k < ls->n && ls->v[k].question == qi)
			k++;
		struct fw_amisce_line *l = fw_arena_alloc(&a->arena, (k - i + 1) * sizeof(*l));
		for (size_t j = i; j < k; j++)
			l[j - i] = ls->v[j].line;
		if (qi == SIZE_MAX) {
			a->head = l;
			a->nhead = (uint32_t)(k - i);
		} else if (qi < a->n) {
			a->q[qi].lines = l;
			a->q[qi].nlines = (uint32_t)(k - i);
		}
		i = k;
		if (qi != SIZE_MAX && qi + 1 >= a->n)
			break;
	}
	free(ls->v);
	free(ls->buf);
}

/* The line end most lines have: AMISCE writes CRLF, a file passed through a Unix tool LF. */
static const char *line_end(const char *text, size_t len, bool *last)
{
	size_t crlf = 0, lf = 0;
	for (const char *p = text, *end = text + len; (p = memchr(p, '\n', (size_t)(end - p))); p++)
		if (p > text && p[-1] == '\r')
			crlf++;
		else
			lf++;
	*last = len && text[len - 1] == '\n';
	return crlf > lf ? "\r\n" : "\n";
}

static bool parse_lines(const char *text, size_t len, const char *origin, struct fw_amisce *out, struct lines *ls,
			struct fw_error *err);

bool fw_amisce_parse(const char *text, size_t len, const char *origin, struct fw_amisce *out, struct fw_error *err)
{
	struct lines ls = {0};
	memset(out, 0, sizeof(*out));
	fw_arena_init(&out->arena);
	out->origin = fw_arena_strdup(&out->arena, origin);
	if (len > FW_AMISCE_MAX_BYTES)
		return fw_error_set(err, FW_E_LIMIT, "%s: larger than %zu MiB", origin, FW_AMISCE_MAX_BYTES >> 20);
	out->eol = line_end(text, len, &out->last_eol);
	bool ok = parse_lines(text, len, origin, out, &ls, err);
	if (ok)
		distribute(out, &ls);
	else {
		free(ls.v);
		free(ls.buf);
	}
	return ok;
}

static bool parse_lines(const char *text, size_t len, const char *origin, struct fw_amisce *out, struct lines *ls,
			struct fw_error *err)
{
	struct fw_amisce_question *q = NULL;
	bool crlf = out->eol[0] == '\r';
	bool in_options = false;
	size_t line = 0;
	for (const char *p = text, *end = text + len; p < end;) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *le = nl ? nl : end;
		line++;
		const char *s = skip_blanks(p, le);
		const char *next = nl ? nl + 1 : end;
		/* the line's bytes without the file's line end */
		size_t clen = (size_t)(le - p) - (crlf && nl && le > p && le[-1] == '\r');
		if (memchr(p, '\0', (size_t)(le - p)))
			return fw_error_set(err, FW_E_INVALID, "%s: line %zu: a NUL byte: not a text export", origin, line);
		if (s == le || (le - s >= 2 && s[0] == '/' && s[1] == '/') || *s == '\r') {
			bool blank = s == le || *s == '\r';
			if (blank)
				in_options = false;
			else if (!out->version) {
				const char *ver = memmem(s, (size_t)(le - s), "AMISCE Utility. Ver ", 20);
				if (ver)
					out->version = fw_arena_strndup(&out->arena, ver + 20, (size_t)(cut_comment(ver + 20, le, true) - ver - 20));
			}
			record(out, ls, blank ? FW_AMISCE_L_BLANK : FW_AMISCE_L_COMMENT, 0, p, clen);
			p = next;
			continue;
		}
		/* an option line continues Options */
		if (in_options && (*s == '*' || *s == '[')) {
			if (!add_option(out, q, s, le, line, err))
				return false;
			record(out, ls, FW_AMISCE_L_OPTION, q->noptions - 1, p, clen);
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
		uint8_t kind = FW_AMISCE_L_OTHER;
		if (KEY("HIICrc32")) {
			kind = FW_AMISCE_L_HIICRC;
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
			kind = FW_AMISCE_L_QUESTION;
			q->prompt = text_dup(&out->arena, v, (size_t)(ve - v));
		} else if (!q) {
			return fw_error_set(err, FW_E_INVALID, "%s: line %zu: %.*s before any Setup Question", origin, line,
					    (int)(klen > 40 ? 40 : klen), s);
		} else if (KEY("Map String")) {
			kind = FW_AMISCE_L_MAP;
			q->keyword = text_dup(&out->arena, v, (size_t)(ve - v));
		} else if (KEY("Help String")) {
			kind = FW_AMISCE_L_HELP;
			q->help = text_dup(&out->arena, v, (size_t)(ve - v));
		} else if (KEY("Token")) {
			kind = FW_AMISCE_L_TOKEN;
			q->has_token = hex_field(v, ve, &q->token);
		} else if (KEY("Offset")) {
			kind = FW_AMISCE_L_OFFSET;
			if (!(q->has_offset = hex_field(v, ve, &q->offset)))
				return fw_error_set(err, FW_E_INVALID, "%s: line %zu: Offset is not hex", origin, line);
		} else if (KEY("Width")) {
			kind = FW_AMISCE_L_WIDTH;
			if (!(q->has_width = hex_field(v, ve, &q->width)) || q->width == 0 || q->width > 0x10000)
				return fw_error_set(err, FW_E_INVALID, "%s: line %zu: Width is not a hex size", origin, line);
		} else if (KEY("BIOS Default")) {
			kind = FW_AMISCE_L_DEFAULT;
			q->def_form = v < ve ? (*v == '[' || *v == '<' ? *v : 'h') : 0;
			if (v < ve && *v == '[') {
				q->has_default = bracket_option(&out->arena, v, ve, &q->def, &q->def_text);
				const char *close = memchr(v, ']', (size_t)(ve - v));
				q->def_digits = close ? (uint8_t)(close - v - 1) : 2;
			} else if (v < ve && *v == '<') {
				q->has_default = angle_number(v, ve, 10, &q->def);
			} else if (v < ve) {
				q->has_default = hex_number(v, ve, &q->def);
			}
		} else if (KEY("Options")) {
			in_options = true;
			if (!add_option(out, q, v, ve, line, err))
				return false;
			record(out, ls, FW_AMISCE_L_OPTION, q->noptions - 1, p, clen);
			p = next;
			continue;
		} else if (KEY("Value")) {
			kind = FW_AMISCE_L_VALUE;
			if (v < ve && *v == '<') {
				if (!angle_number(v, ve, 0, &q->value))
					return fw_error_set(err, FW_E_INVALID, "%s: line %zu: Value is not <number>", origin, line);
				q->has_value = true;
				q->value_form = '<';
			} else if (v < ve && isxdigit((unsigned char)*v) && hex_number(v, ve, &q->value)) {
				/* a bare number is hex: "Value =1A" beside "BIOS Default =1A " (checkboxes, some numbers) */
				q->has_value = true;
				q->value_form = 'h';
			} else if (v < ve && *v == '"') {
				/* a line ending in a quote holds the string up to it, a "//" inside being text */
				const char *whole = cut_comment(v, le, true);
				const char *qe = whole > v + 1 && whole[-1] == '"' ? whole - 1 : ve > v + 1 && ve[-1] == '"' ? ve - 1 : ve;
				q->string = text_dup(&out->arena, v + 1, (size_t)(qe - v - 1));
			}
		}
		/* other keys (newer versions add some) are kept out of the model, and their lines as they are */
#undef KEY
		record(out, ls, kind, 0, p, clen);
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

const struct fw_amisce_question *fw_amisce_find(const struct fw_amisce *a, const char *setting, size_t *nmatch,
						 const struct fw_amisce_question **matches, size_t max)
{
	char want[512], have[512];
	fw_topic_normalise(setting, want, sizeof(want));
	uint32_t token = 0;
	bool by_token = strncasecmp(setting, "0x", 2) == 0 && hex_field(setting + 2, setting + strlen(setting), &token);
	size_t n = 0;
	/* by keyword, then prompt, then token: the first rule that matches anything decides */
	for (int rule = 0; rule < 3 && n == 0; rule++)
		for (size_t i = 0; i < a->n; i++) {
			const struct fw_amisce_question *q = &a->q[i];
			bool hit = rule == 0   ? q->keyword && strcasecmp(q->keyword, want) == 0
				   : rule == 1 ? strcmp(fw_topic_normalise(q->prompt, have, sizeof(have)), want) == 0
					       : by_token && q->has_token && q->token == token;
			if (hit && n++ < max)
				matches[n - 1] = q;
		}
	*nmatch = n;
	return n == 1 ? matches[0] : NULL;
}

/* "Enabled" against " enabled ": case and surrounding blanks ignored. */
static bool same_word(const char *a, const char *b)
{
	while (*a == ' ' || *a == '\t')
		a++;
	while (*b == ' ' || *b == '\t')
		b++;
	size_t na = strlen(a), nb = strlen(b);
	while (na && (a[na - 1] == ' ' || a[na - 1] == '\t'))
		na--;
	while (nb && (b[nb - 1] == ' ' || b[nb - 1] == '\t'))
		nb--;
	return na == nb && strncasecmp(a, b, na) == 0;
}

bool fw_amisce_parse_value(const struct fw_amisce_question *q, const char *text, uint64_t *out, struct fw_error *err)
{
	char *e;
	errno = 0;
	unsigned long long n = strtoull(text, &e, 0);
	bool number = e != text && *e == '\0' && errno != ERANGE && text[0] != '-';
	if (q->noptions) {
		for (uint32_t i = 0; i < q->noptions; i++)
			if (same_word(q->options[i].text, text)) {
				*out = q->options[i].value;
				return true;
			}
		for (uint32_t i = 0; number && i < q->noptions; i++)
			if (q->options[i].value == n) {
				*out = n;
				return true;
			}
		char list[512] = "";
		for (uint32_t i = 0; i < q->noptions; i++)
			snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s%s (0x%" PRIX64 ")", i ? ", " : "",
				 q->options[i].text, q->options[i].value);
		return fw_error_set(err, FW_E_USAGE, "%s: \"%s\" is not one of its options: %s", q->prompt, text, list);
	}
	if (q->has_value) {
		/* the export has no limits: the number must fit the question's width */
		uint64_t wmax = !q->has_width || q->width >= 8 ? UINT64_MAX : ((uint64_t)1 << (8 * q->width)) - 1;
		if (!number || n > wmax)
			return fw_error_set(err, FW_E_USAGE, "%s: takes a number from 0 to %" PRIu64 " (width %u), not \"%s\"",
					    q->prompt, wmax, q->width, text);
		*out = n;
		return true;
	}
	return fw_error_set(err, FW_E_USAGE, "%s: %s; plan changes options and numbers", q->prompt,
			    q->string ? "a string question" : "the export gives it no options and no Value");
}
