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

size_t fw_term_escape(FILE *f, const char *s, size_t n, unsigned flags, bool final)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t i = 0, run = 0; /* bytes that pass as they are go out in runs */
	while (i < n) {
		unsigned char c = u[i];
		size_t k = 1;
		uint32_t cp = c;
		bool show;
		if (c >= 0x20 && c < 0x7F) {
			run++;
			i++;
			continue;
		}
		if (c < 0x80) {
			show = !((c == '\n' || c == '\t') && (flags & FW_TERM_KEEP_LF)) &&
			       !(c == '\r' && (flags & FW_TERM_KEEP_CR));
		} else {
			k = fw_utf8_seq(u + i, n - i, &cp);
			if (!k && !final && utf8_prefix(u + i, n - i))
				break; /* the rest of this character comes with the next bytes */
			show = !k || hidden_codepoint(cp);
			if (!k)
				k = 1, cp = c;
		}
		if (!show) {
			run += k;
			i += k;
			continue;
		}
		if (run)
			fwrite(s + i - run, 1, run, f);
		run = 0;
		if (cp < 0x100 && (cp < 0x80 || k == 1))
			fprintf(f, "\\x%02x", (unsigned)c);
		else
			fprintf(f, "\\u%04x", (unsigned)cp);
		i += k;
	}
	if (run)
		fwrite(s + i - run, 1, run, f);
	return i;
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
