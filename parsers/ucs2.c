#include "ucs2.h"

#include <stdlib.h>
#include <string.h>

#include "error.h"

size_t fw_ucs2_len(const uint8_t *p, size_t max_units, bool *terminated)
{
	for (size_t i = 0; i < max_units; i++) {
		if (p[2 * i] == 0 && p[2 * i + 1] == 0) {
			if (terminated)
				*terminated = true;
			return i;
		}
	}
	if (terminated)
		*terminated = false;
	return max_units;
}

size_t fw_utf8_put(uint32_t cp, char *out, size_t room)
{
	if (cp < 0x80) {
		if (room < 1)
			return 0;
		out[0] = (char)cp;
		return 1;
	}
	if (cp < 0x800) {
		if (room < 2)
			return 0;
		out[0] = (char)(0xC0 | (cp >> 6));
		out[1] = (char)(0x80 | (cp & 0x3F));
		return 2;
	}
	if (cp < 0x10000) {
		if (room < 3)
			return 0;
		out[0] = (char)(0xE0 | (cp >> 12));
		out[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
		out[2] = (char)(0x80 | (cp & 0x3F));
		return 3;
	}
	if (room < 4)
		return 0;
	out[0] = (char)(0xF0 | (cp >> 18));
	out[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
	out[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
	out[3] = (char)(0x80 | (cp & 0x3F));
	return 4;
}

char *fw_ucs2_to_utf8_buf(const uint8_t *p, size_t units, char *out, size_t outlen)
{
	size_t used = 0;
	if (!outlen)
		return out;
	for (size_t i = 0; i < units; i++) {
		uint32_t c = (uint32_t)(p[2 * i] | (p[2 * i + 1] << 8));
		if (c == 0)
			break;
		if (c >= 0xFFF0 && c <= 0xFFF2)
			continue;
		if (c >= 0xD800 && c <= 0xDFFF)
			c = 0xFFFD; /* UCS-2 has no surrogates */
		size_t w = fw_utf8_put(c, out + used, outlen - 1 - used);
		if (!w)
			break;
		used += w;
	}
	out[used] = '\0';
	return out;
}

char *fw_ucs2_to_utf8(const uint8_t *p, size_t units)
{
	size_t cap = units * 3 + 1;
	char *out = fw_xmalloc(cap);
	return fw_ucs2_to_utf8_buf(p, units, out, cap);
}

char *fw_char8_to_utf8_buf(const uint8_t *p, size_t n, char *out, size_t outlen)
{
	size_t used = 0;
	if (!outlen)
		return out;
	for (size_t i = 0; i < n && p[i]; i++) {
		size_t w = fw_utf8_put(p[i], out + used, outlen - 1 - used);
		if (!w)
			break;
		used += w;
	}
	out[used] = '\0';
	return out;
}

uint8_t *fw_utf8_to_ucs2(const char *s, size_t *units_out)
{
	size_t len = strlen(s);
	uint8_t *out = fw_xmalloc(2 * (len + 1));
	size_t n = 0;
	const unsigned char *u = (const unsigned char *)s;
	for (size_t i = 0; i < len;) {
		uint32_t cp;
		if (u[i] < 0x80) {
			cp = u[i++];
		} else if ((u[i] & 0xE0) == 0xC0 && i + 1 < len) {
			cp = ((uint32_t)(u[i] & 0x1F) << 6) | (u[i + 1] & 0x3F);
			i += 2;
		} else if ((u[i] & 0xF0) == 0xE0 && i + 2 < len) {
			cp = ((uint32_t)(u[i] & 0x0F) << 12) | ((uint32_t)(u[i + 1] & 0x3F) << 6) | (u[i + 2] & 0x3F);
			i += 3;
		} else {
			cp = 0xFFFD;
			i++;
			while (i < len && (u[i] & 0xC0) == 0x80)
				i++;
		}
		if (cp > 0xFFFF)
			cp = 0xFFFD;
		out[2 * n] = (uint8_t)cp;
		out[2 * n + 1] = (uint8_t)(cp >> 8);
		n++;
	}
	out[2 * n] = 0;
	out[2 * n + 1] = 0;
	*units_out = n + 1;
	return out;
}
