/* Shell literals and one-line script comments (escape-shell.h). */
#include "escape-shell.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "parsers/error.h"

/* Length of the UTF-8 sequence at p and its code point, or 0 when the bytes are not one
 * (overlong forms, surrogates, code points past U+10FFFF, a cut sequence). */
static size_t utf8_char(const unsigned char *p, uint32_t *cp)
{
	unsigned char c = p[0];
	if (c < 0x80) {
		*cp = c;
		return 1;
	}
	size_t n = c >= 0xC2 && c <= 0xDF ? 2 : c >= 0xE0 && c <= 0xEF ? 3 : c >= 0xF0 && c <= 0xF4 ? 4 : 0;
	if (!n)
		return 0;
	uint32_t v = c & (0x7F >> n);
	for (size_t i = 1; i < n; i++) {
		if ((p[i] & 0xC0) != 0x80) /* also stops at the terminating NUL */
			return 0;
		v = v << 6 | (p[i] & 0x3F);
	}
	if ((n == 3 && (v < 0x800 || (v >= 0xD800 && v <= 0xDFFF))) || (n == 4 && (v < 0x10000 || v > 0x10FFFF)))
		return 0;
	*cp = v;
	return n;
}

/* Characters a one-line field must not carry as they are: controls, line and paragraph
 * separators, and the marks that reorder text on screen (LRM, RLM, ALM, embeddings,
 * overrides, isolates). */
static bool hidden_char(uint32_t cp)
{
	return cp < 0x20 || (cp >= 0x7F && cp <= 0x9F) || cp == 0x061C || cp == 0x200E || cp == 0x200F ||
	       (cp >= 0x2028 && cp <= 0x202E) || (cp >= 0x2066 && cp <= 0x2069);
}

/* The character at p: its length, and its visible escape in what (empty when it is plain text). */
static size_t classify(const unsigned char *p, char what[12])
{
	uint32_t cp;
	size_t n = utf8_char(p, &cp);
	what[0] = '\0';
	if (!n) {
		snprintf(what, 12, "\\x%02X", p[0]);
		return 1;
	}
	if (!hidden_char(cp))
		return n;
	if (cp == '\n' || cp == '\r' || cp == '\t')
		snprintf(what, 12, "\\%c", cp == '\n' ? 'n' : cp == '\r' ? 'r' : 't');
	else if (cp < 0x80)
		snprintf(what, 12, "\\x%02X", (unsigned)cp);
	else
		snprintf(what, 12, "\\u%04X", (unsigned)cp);
	return n;
}

bool fw_text_one_line(const char *s, size_t *at, char what[12])
{
	const unsigned char *p = (const unsigned char *)s;
	for (size_t i = 0; p[i];) {
		size_t n = classify(p + i, what);
		if (what[0]) {
			*at = i;
			return false;
		}
		i += n;
	}
	return true;
}

static void put_visible(FILE *f, const char *s, bool fold)
{
	const unsigned char *p = (const unsigned char *)s;
	char what[12];
	for (size_t i = 0; p[i];) {
		if (fold && (p[i] == '\n' || p[i] == '\r')) {
			while (p[i] == '\n' || p[i] == '\r')
				i++;
			fputc(' ', f);
			continue;
		}
		size_t n = classify(p + i, what);
		if (what[0])
			fputs(what, f);
		else
			fwrite(p + i, 1, n, f);
		i += n;
	}
}

void fw_put_visible(FILE *f, const char *s)
{
	put_visible(f, s, false);
}

void fw_put_visible_folded(FILE *f, const char *s)
{
	put_visible(f, s, true);
}

char *fw_visible_dup(const char *s)
{
	char *out = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&out, &len);
	if (!m)
		return fw_xstrdup("(out of memory)");
	fw_put_visible(m, s);
	fclose(m);
	return out;
}

void fw_put_visible_vformat(FILE *f, const char *fmt, va_list ap)
{
	va_list again;
	va_copy(again, ap);
	int n = vsnprintf(NULL, 0, fmt, ap);
	char *text = fw_xmalloc(n > 0 ? (size_t)n + 1 : 1);
	vsnprintf(text, n > 0 ? (size_t)n + 1 : 1, fmt, again);
	va_end(again);
	fw_put_visible(f, text);
	free(text);
}

void fw_put_visible_format(FILE *f, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fw_put_visible_vformat(f, fmt, ap);
	va_end(ap);
}

void fw_script_comment(FILE *f, const char *lead, const char *fmt, ...)
{
	va_list ap;
	fputs(lead, f);
	if (fmt[0]) {
		fputc(' ', f);
		va_start(ap, fmt);
		fw_put_visible_vformat(f, fmt, ap);
		va_end(ap);
	}
	fputc('\n', f);
}

void fw_sh_quote(FILE *f, const char *s)
{
	fputc('\'', f);
	for (; *s; s++) {
		if (*s == '\'')
			fputs("'\\''", f); /* end the literal, an escaped quote, open a new one */
		else
			fputc(*s, f);
	}
	fputc('\'', f);
}
