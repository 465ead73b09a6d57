/* acpidump text reader. */
#include "acpidump.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

struct line {
	const char *p;
	size_t n;
};

static bool is_blank(char c)
{
	return c == ' ' || c == '\t';
}

static int hexval(char c)
{
	static const char digits[] = "0123456789abcdef";
	const char *p = c ? strchr(digits, tolower((unsigned char)c)) : NULL;
	return p ? (int)(p - digits) : -1;
}

static bool line_is_blank(struct line l)
{
	for (size_t i = 0; i < l.n; i++)
		if (!is_blank(l.p[i]))
			return false;
	return true;
}

/* "SIG @ 0xADDR" (also "RSD PTR @ ...", "SSDT @ (nil)"). */
static bool parse_header(struct line l, char sig[5], uint64_t *addr)
{
	if (l.n < 6 || is_blank(l.p[0]) || l.n > 160)
		return false;
	const char *at = NULL;
	for (size_t i = 0; i + 3 <= l.n; i++)
		if (l.p[i] == ' ' && l.p[i + 1] == '@' && l.p[i + 2] == ' ') {
			at = l.p + i;
			break;
		}
	if (!at)
		return false;
	size_t name_len = (size_t)(at - l.p);
	if (name_len >= 4 && memcmp(l.p, "RSD ", 4) == 0) {
		memcpy(sig, "RSDP", 5);
	} else {
		if (name_len != 4)
			return false;
		for (int i = 0; i < 4; i++) {
			unsigned char c = (unsigned char)l.p[i];
			if (c < 0x20 || c >= 0x7F)
				return false;
			sig[i] = (char)c;
		}
		sig[4] = '\0';
	}
	const char *q = at + 3, *end = l.p + l.n;
	*addr = 0;
	if (end - q >= 2 && q[0] == '0' && (q[1] == 'x' || q[1] == 'X')) {
		q += 2;
		int digits = 0;
		while (q < end && hexval(*q) >= 0 && digits < 16) {
			*addr = (*addr << 4) | (uint64_t)hexval(*q++);
			digits++;
		}
		if (!digits)
			return false;
	} else if (!(end - q >= 5 && memcmp(q, "(nil)", 5) == 0)) {
		return false;
	}
	return true;
}

/* "    0010: 41 4D 44 ..." -> offset and up to 16 bytes; false if the line is not a data line. */
static bool parse_data(struct line l, uint64_t *offset, uint8_t out[16], size_t *count)
{
	size_t i = 0;
	if (!l.n || !is_blank(l.p[0]))
		return false;
	while (i < l.n && is_blank(l.p[i]))
		i++;
	uint64_t off = 0;
	size_t digits = 0;
	while (i < l.n && hexval(l.p[i]) >= 0) {
		if (digits == 16)
			return false;
		off = (off << 4) | (uint64_t)hexval(l.p[i++]);
		digits++;
	}
	if (!digits || i + 1 >= l.n || l.p[i] != ':' || l.p[i + 1] != ' ')
		return false;
	i += 2;
	size_t n = 0;
	/* Pairs "XX " until 16 bytes or the gap before the ASCII column. */
	while (n < 16 && i + 2 <= l.n && hexval(l.p[i]) >= 0 && hexval(l.p[i + 1]) >= 0 &&
	       (i + 2 == l.n || is_blank(l.p[i + 2]))) {
		out[n++] = (uint8_t)(hexval(l.p[i]) << 4 | hexval(l.p[i + 1]));
		i += 3;
	}
	*offset = off;
	*count = n;
	return true;
}

static struct line next_line(const char *text, size_t len, size_t *pos)
{
	struct line l = {text + *pos, 0};
	const char *nl = memchr(text + *pos, '\n', len - *pos);
	size_t end = nl ? (size_t)(nl - text) : len;
	l.n = end - *pos;
	*pos = nl ? end + 1 : len;
	if (l.n && l.p[l.n - 1] == '\r')
		l.n--;
	return l;
}

bool fw_acpidump_detect(const uint8_t *p, size_t n)
{
	size_t lim = n < 8192 ? n : 8192;
	if (memchr(p, 0, lim))
		return false;
	const char *text = (const char *)p;
	size_t pos = 0;
	bool header = false;
	while (pos < lim) {
		struct line l = next_line(text, lim, &pos);
		char sig[5];
		uint64_t addr, off;
		uint8_t bytes[16];
		size_t cnt;
		if (parse_header(l, sig, &addr)) {
			header = true;
			continue;
		}
		if (header && parse_data(l, &off, bytes, &cnt))
			return off == 0 && cnt > 0;
		if (header && !line_is_blank(l))
			header = false;
	}
	return false;
}

struct table_buf {
	uint8_t *p;
	size_t n, cap;
};

static void buf_append(struct table_buf *b, const uint8_t *src, size_t n)
{
	if (b->n + n > b->cap) {
		size_t cap = b->cap ? b->cap * 2 : 4096;
		while (cap < b->n + n)
			cap *= 2;
		b->p = fw_xrealloc(b->p, cap);
		b->cap = cap;
	}
	memcpy(b->p + b->n, src, n);
	b->n += n;
}

bool fw_acpidump_parse(const char *text, size_t len, fw_acpidump_table_fn fn, void *ctx, struct fw_error *err)
{
	struct table_buf buf = {0};
	bool open = false, ok = true;
	char sig[5] = {0};
	uint64_t addr = 0;
	unsigned header_line = 0, lineno = 0, tables = 0;
	size_t pos = 0;
	for (;;) {
		bool at_end = pos >= len;
		struct line l = {NULL, 0};
		if (!at_end) {
			l = next_line(text, len, &pos);
			lineno++;
		}
		char nsig[5];
		uint64_t naddr;
		bool is_header = !at_end && parse_header(l, nsig, &naddr);
		bool ends = at_end || is_header || line_is_blank(l);
		if (open && ends && (buf.n || at_end || is_header)) {
			if (!buf.n) {
				ok = fw_error_set(err, FW_E_INVALID, "acpidump line %u: table %s has no data lines", header_line, sig);
				break;
			}
			if (!fn(ctx, sig, addr, buf.p, buf.n, header_line, err)) {
				ok = false;
				break;
			}
			tables++;
			open = false;
		}
		if (at_end)
			break;
		if (is_header) {
			memcpy(sig, nsig, 5);
			addr = naddr;
			header_line = lineno;
			open = true;
			buf.n = 0;
			continue;
		}
		uint64_t off;
		uint8_t bytes[16];
		size_t cnt;
		if (!parse_data(l, &off, bytes, &cnt))
			continue; /* notes around or inside the dump */
		if (!open) {
			ok = fw_error_set(err, FW_E_INVALID, "acpidump line %u: data line outside a table (no \"SIG @ 0x...\" header before it)",
					  lineno);
			break;
		}
		if (off != buf.n) {
			ok = fw_error_set(err, FW_E_INVALID,
					  "acpidump line %u: table %s (line %u): data line offset 0x%llx, expected 0x%zx; the dump is damaged",
					  lineno, sig, header_line, (unsigned long long)off, buf.n);
			break;
		}
		if (!cnt) {
			ok = fw_error_set(err, FW_E_INVALID, "acpidump line %u: table %s: data line without hex bytes", lineno, sig);
			break;
		}
		buf_append(&buf, bytes, cnt);
	}
	free(buf.p);
	if (ok && !tables)
		ok = fw_error_set(err, FW_E_INVALID, "acpidump text: no table found");
	return ok;
}
