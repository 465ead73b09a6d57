#include "term-escape.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "parsers/error.h"
#include "parsers/utf8.h"

/* Code points shown escaped although valid: C1 controls, the line and paragraph separators
 * (they end a line for some terminals and editors) and the bidi controls that reorder what
 * follows them on screen. */
static bool hidden_codepoint(uint32_t cp)
{
	return (cp >= 0x80 && cp <= 0x9F) || cp == 0x2028 || cp == 0x2029 || (cp >= 0x202A && cp <= 0x202E) ||
	       (cp >= 0x2066 && cp <= 0x2069);
}

/* Could the k bytes at s (at the end of the input) begin a valid sequence? */
static bool utf8_prefix(const unsigned char *s, size_t k)
{
	size_t need = (s[0] & 0xE0) == 0xC0 ? 2 : (s[0] & 0xF0) == 0xE0 ? 3 : (s[0] & 0xF8) == 0xF0 ? 4 : 0;
	if (s[0] < 0xC2 || s[0] > 0xF4 || k >= need)
		return false;
	for (size_t i = 1; i < k; i++)
		if ((s[i] & 0xC0) != 0x80)
			return false;
	return true;
}

enum unit_kind { UNIT_PLAIN, UNIT_BYTE_ESCAPE, UNIT_CODEPOINT_ESCAPE, UNIT_CUT };

/* What the next unit at u (n bytes left) is: a character that passes, one shown as "\xNN" (a
 * control or a byte that is not UTF-8), one shown as "\uNNNN", or a character cut short by the end
 * of the input. *len gets its bytes, *cp its code point (the byte for a byte escape). */
static enum unit_kind next_unit(const unsigned char *u, size_t n, unsigned flags, bool final, size_t *len,
				uint32_t *cp)
{
	unsigned char c = u[0];
	*len = 1;
	*cp = c;
	if (c >= 0x20 && c < 0x7F)
		return UNIT_PLAIN;
	if (c < 0x80) {
		bool kept = ((c == '\n' || c == '\t') && (flags & FW_TERM_KEEP_LF)) || (c == '\r' && (flags & FW_TERM_KEEP_CR));
		return kept ? UNIT_PLAIN : UNIT_BYTE_ESCAPE;
	}
	size_t k = fw_utf8_seq(u, n, cp);
	if (!k) {
		*cp = c;
		return !final && utf8_prefix(u, n) ? UNIT_CUT : UNIT_BYTE_ESCAPE;
	}
	*len = k;
	return hidden_codepoint(*cp) ? UNIT_CODEPOINT_ESCAPE : UNIT_PLAIN;
}

size_t fw_term_escape(FILE *f, const char *s, size_t n, unsigned flags, bool final)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t i = 0, run = 0; /* bytes that pass as they are go out in runs */
	while (i < n) {
		if (u[i] >= 0x20 && u[i] < 0x7F) { /* printable ASCII, most of any text: no call per byte */
			run++;
			i++;
			continue;
		}
		size_t k;
		uint32_t cp;
		enum unit_kind kind = next_unit(u + i, n - i, flags, final, &k, &cp);
		if (kind == UNIT_CUT)
			break; /* the rest of this character comes with the next bytes */
		if (kind == UNIT_PLAIN) {
			run += k;
			i += k;
			continue;
		}
		if (run)
			fwrite(s + i - run, 1, run, f);
		run = 0;
		fprintf(f, kind == UNIT_BYTE_ESCAPE ? "\\x%02x" : "\\u%04x", (unsigned)cp);
		i += k;
	}
	if (run)
		fwrite(s + i - run, 1, run, f);
	return i;
}

size_t fw_term_width(const char *s, size_t n, unsigned flags)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t cols = 0;
	for (size_t i = 0, k; i < n; i += k) {
		uint32_t cp;
		enum unit_kind kind = next_unit(u + i, n - i, flags, true, &k, &cp);
		cols += kind == UNIT_BYTE_ESCAPE ? 4 : kind == UNIT_CODEPOINT_ESCAPE ? 6 : (size_t)fw_codepoint_width(cp);
	}
	return cols;
}

char *fw_term_escape_string(const char *s, unsigned flags)
{
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);
	if (!f)
		return fw_xstrdup("");
	fw_term_escape(f, s ? s : "", s ? strlen(s) : 0, flags, true);
	fclose(f);
	return out;
}
