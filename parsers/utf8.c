#include "utf8.h"

#include <stdlib.h>
#include <string.h>

#include "error.h"

size_t fw_utf8_seq(const unsigned char *s, size_t room, uint32_t *cp)
{
	if (room == 0)
		return 0;
	if (s[0] < 0x80) {
		*cp = s[0];
		return 1;
	}
	size_t n;
	uint32_t c, min;
	if ((s[0] & 0xE0) == 0xC0)
		n = 2, c = s[0] & 0x1F, min = 0x80;
	else if ((s[0] & 0xF0) == 0xE0)
		n = 3, c = s[0] & 0x0F, min = 0x800;
	else if ((s[0] & 0xF8) == 0xF0)
		n = 4, c = s[0] & 0x07, min = 0x10000;
	else
		return 0;
	if (n > room)
		return 0;
	for (size_t i = 1; i < n; i++) {
		if ((s[i] & 0xC0) != 0x80)
			return 0;
		c = (c << 6) | (s[i] & 0x3F);
	}
	if (c < min || c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF))
		return 0;
	*cp = c;
	return n;
}

bool fw_utf8_valid(const char *s, size_t n)
{
	const unsigned char *u = (const unsigned char *)s;
	for (size_t i = 0; i < n;) {
		uint32_t cp;
		size_t k = fw_utf8_seq(u + i, n - i, &cp);
		if (!k)
			return false;
		i += k;
	}
	return true;
}

/* Is the code point one that XML 1.0 cannot carry? */
static bool xml_bad(uint32_t cp)
{
	return (cp < 0x20 && cp != '\t' && cp != '\n' && cp != '\r') || cp == 0xFFFE || cp == 0xFFFF;
}

const char *fw_utf8_clean_view(const char *s, bool xml, char **to_free)
{
	*to_free = NULL;
	const unsigned char *u = (const unsigned char *)s;
	size_t len = strlen(s);
	for (size_t i = 0; i < len;) {
		uint32_t cp;
		size_t n = fw_utf8_seq(u + i, len - i, &cp);
		if (n == 0 || (xml && xml_bad(cp)))
			return *to_free = fw_utf8_clean(s, xml);
		i += n;
	}
	return s; /* the common case: nothing to replace, nothing to allocate */
}

char *fw_utf8_clean(const char *s, bool xml)
{
	size_t len = strlen(s);
	char *out = fw_xmalloc(len * 3 + 1);
	size_t o = 0;
	const unsigned char *u = (const unsigned char *)s;
	for (size_t i = 0; i < len;) {
		uint32_t cp;
		size_t n = fw_utf8_seq(u + i, len - i, &cp);
		if (n == 0 || (xml && xml_bad(cp))) {
			memcpy(out + o, "\xEF\xBF\xBD", 3);
			o += 3;
			i += n ? n : 1;
			continue;
		}
		memcpy(out + o, u + i, n);
		o += n;
		i += n;
	}
	out[o] = '\0';
	return out;
}

bool fw_codepoint_is_control(uint32_t cp)
{
	return cp < 0x20 || (cp >= 0x7F && cp <= 0x9F);
}

struct cp_range {
	uint32_t first, last;
};

static bool in_ranges(uint32_t cp, const struct cp_range *r, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (cp >= r[i].first && cp <= r[i].last)
			return true;
	return false;
}

/* Combining marks and zero-width characters of the scripts firmware texts use (Unicode's
 * general categories Mn/Me/Cf in those blocks). */
static const struct cp_range zero_width[] = {
	{0x0300, 0x036F}, {0x0483, 0x0489}, {0x0591, 0x05BD}, {0x0610, 0x061A}, {0x064B, 0x065F},
	{0x0E31, 0x0E31}, {0x0E34, 0x0E3A}, {0x0E47, 0x0E4E}, {0x1AB0, 0x1AFF}, {0x1DC0, 0x1DFF},
	{0x200B, 0x200F}, {0x202A, 0x202E}, {0x2060, 0x2064}, {0x20D0, 0x20FF}, {0x302A, 0x302D},
	{0x3099, 0x309A}, {0xFE00, 0xFE0F}, {0xFE20, 0xFE2F}, {0xFEFF, 0xFEFF}, {0xE0100, 0xE01EF},
};

/* East Asian Wide (W) and Fullwidth (F) blocks, and the emoji blocks terminals draw wide. */
static const struct cp_range wide[] = {
	{0x1100, 0x115F},   {0x231A, 0x231B},   {0x2329, 0x232A},   {0x23E9, 0x23EC},   {0x2E80, 0x303E},
	{0x3041, 0x33FF},   {0x3400, 0x4DBF},   {0x4E00, 0x9FFF},   {0xA000, 0xA4CF},   {0xA960, 0xA97F},
	{0xAC00, 0xD7A3},   {0xF900, 0xFAFF},   {0xFE10, 0xFE19},   {0xFE30, 0xFE6F},   {0xFF00, 0xFF60},
	{0xFFE0, 0xFFE6},   {0x1F300, 0x1F64F}, {0x1F680, 0x1F6FF}, {0x1F900, 0x1F9FF}, {0x20000, 0x2FFFD},
	{0x30000, 0x3FFFD},
};

int fw_codepoint_width(uint32_t cp)
{
	if (cp < 0x300)
		return 1;
	if (in_ranges(cp, zero_width, sizeof(zero_width) / sizeof(zero_width[0])))
		return 0;
	if (in_ranges(cp, wide, sizeof(wide) / sizeof(wide[0])))
		return 2;
	return 1;
}

size_t fw_utf8_width(const char *s, size_t n)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t cols = 0;
	for (size_t i = 0; i < n;) {
		uint32_t cp;
		size_t k = fw_utf8_seq(u + i, n - i, &cp);
		if (!k) {
			cols++;
			i++;
			continue;
		}
		cols += (size_t)fw_codepoint_width(cp);
		i += k;
	}
	return cols;
}
