/* ustar reading and writing (POSIX.1-1988 ustar with pax extended headers for long names). */
#include "tar.h"

#include <stdio.h>
#include <string.h>

static bool parse_octal(const uint8_t *p, size_t n, uint64_t *out)
{
	uint64_t v = 0;
	size_t i = 0;
	if (n && (p[0] & 0x80)) {
		/* GNU base-256 for big sizes */
		v = p[0] & 0x7F;
		for (i = 1; i < n; i++) {
			if (v >> 55)
				return false;
			v = (v << 8) | p[i];
		}
		*out = v;
		return true;
	}
	while (i < n && (p[i] == ' ' || p[i] == 0))
		i++;
	for (; i < n && p[i] >= '0' && p[i] <= '7'; i++) {
		if (v >> 60)
			return false;
		v = v * 8 + (uint64_t)(p[i] - '0');
	}
	for (; i < n; i++)
		if (p[i] != ' ' && p[i] != 0)
			return false;
	*out = v;
	return true;
}

static bool header_checksum_ok(const uint8_t *h)
{
	uint64_t stored;
	if (!parse_octal(h + 148, 8, &stored))
		return false;
	uint64_t sum = 0;
	for (int i = 0; i < FW_TAR_BLOCK; i++)
		sum += (i >= 148 && i < 156) ? ' ' : h[i];
	return sum == stored;
}

bool fw_tar_probe(const struct fw_view *v)
{
	if (!fw_view_has(v, 0, FW_TAR_BLOCK))
		return false;
	const uint8_t *h = v->p;
	return (memcmp(h + 257, "ustar", 5) == 0) && header_checksum_ok(h);
}

void fw_tar_reader_init(struct fw_tar_reader *r, const struct fw_view *v)
{
	r->v = *v;
	r->off = 0;
	r->done = false;
}

static void copy_field(char *dst, size_t dstlen, const uint8_t *src, size_t n)
{
	size_t k = 0;
	while (k < n && src[k] && k + 1 < dstlen) {
		dst[k] = (char)src[k];
		k++;
	}
	dst[k] = '\0';
}

/* Parse the "path" record of a pax header body ("LEN path=VALUE\n" records). */
static void pax_path(const uint8_t *p, size_t n, char *out, size_t outlen)
{
	size_t i = 0;
	while (i < n) {
		uint64_t len = 0;
		size_t j = i;
		while (j < n && p[j] >= '0' && p[j] <= '9') {
			len = len * 10 + (uint64_t)(p[j] - '0');
			if (len > n)
				return;
			j++;
		}
		if (len == 0 || i + len > n || j >= n || p[j] != ' ')
			return;
		const uint8_t *kv = p + j + 1;
		size_t kvlen = (size_t)(i + len - (j + 1));
		if (kvlen > 5 && memcmp(kv, "path=", 5) == 0) {
			size_t vlen = kvlen - 5;
			if (vlen && kv[kvlen - 1] == '\n')
				vlen--;
			if (vlen >= outlen)
				vlen = outlen - 1;
			memcpy(out, kv + 5, vlen);
			out[vlen] = '\0';
		}
		i += (size_t)len;
	}
}

bool fw_tar_next(struct fw_tar_reader *r, struct fw_tar_entry *e, struct fw_error *err)
{
	char long_name[257] = "";
	for (unsigned guard = 0; guard < 16 && !r->done; guard++) {
		if (!fw_view_has(&r->v, r->off, FW_TAR_BLOCK)) {
			r->done = true;
			if (r->off < r->v.len)
				return fw_error_set(err, FW_E_TRUNCATED, "tar header at 0x%zx: archive ends inside a header", r->off);
			return false;
		}
		const uint8_t *h = r->v.p + r->off;
		bool zero = true;
		for (int i = 0; i < FW_TAR_BLOCK && zero; i++)
			zero = h[i] == 0;
		if (zero) {
			r->done = true;
			return false;
		}
		if (!header_checksum_ok(h)) {
			r->done = true;
			return fw_error_set(err, FW_E_INVALID, "tar header at 0x%zx: bad checksum", r->off);
		}
		memset(e, 0, sizeof(*e));
		uint64_t size;
		if (!parse_octal(h + 124, 12, &size) || !parse_octal(h + 136, 12, &e->mtime)) {
			r->done = true;
			return fw_error_set(err, FW_E_INVALID, "tar header at 0x%zx: bad size or time field", r->off);
		}
		size_t data_off = r->off + FW_TAR_BLOCK;
		if (size > r->v.len - data_off || data_off > r->v.len) {
			r->done = true;
			return fw_error_set(err, FW_E_TRUNCATED, "tar member at 0x%zx: size 0x%llx passes the end of the archive",
					    r->off, (unsigned long long)size);
		}
		size_t padded = (size_t)((size + FW_TAR_BLOCK - 1) / FW_TAR_BLOCK * FW_TAR_BLOCK);
		e->type = (char)(h[156] ? h[156] : '0');
		e->size = size;
		e->header_offset = r->off;
		fw_rd_sub(&r->v, data_off, (size_t)size, &e->data, NULL);
		r->off = data_off + (padded > r->v.len - data_off ? r->v.len - data_off : padded);
		if (e->type == 'x' || e->type == 'L') {
			if (e->type == 'x')
				pax_path(e->data.p, e->data.len, long_name, sizeof(long_name));
			else
				copy_field(long_name, sizeof(long_name), e->data.p, e->data.len);
			continue;
		}
		if (e->type == 'g')
			continue;
		if (long_name[0]) {
			snprintf(e->name, sizeof(e->name), "%s", long_name);
		} else {
			char prefix[156], name[101];
			copy_field(prefix, sizeof(prefix), h + 345, 155);
			copy_field(name, sizeof(name), h, 100);
			if (prefix[0] && memcmp(h + 257, "ustar", 5) == 0)
				snprintf(e->name, sizeof(e->name), "%s/%s", prefix, name);
			else
				snprintf(e->name, sizeof(e->name), "%s", name);
		}
		copy_field(e->link, sizeof(e->link), h + 157, 100);
		return true;
	}
	if (!r->done) {
		r->done = true;
		return fw_error_set(err, FW_E_INVALID, "tar at 0x%zx: too many extended headers in a row", r->off);
	}
	return false;
}

void fw_tar_writer_init(struct fw_tar_writer *w, FILE *f, uint64_t mtime)
{
	w->f = f;
	w->mtime = mtime;
	w->written = 0;
	w->failed = false;
}

static void put_octal(uint8_t *p, size_t n, uint64_t v)
{
	/* n-1 octal digits and a NUL */
	for (size_t i = n - 1; i-- > 0;) {
		p[i] = (uint8_t)('0' + (v & 7));
		v >>= 3;
	}
	p[n - 1] = 0;
}

static bool write_block_data(struct fw_tar_writer *w, const uint8_t *data, size_t len)
{
	static const uint8_t zeros[FW_TAR_BLOCK];
	if (len && fwrite(data, 1, len, w->f) != len)
		w->failed = true;
	size_t pad = (FW_TAR_BLOCK - len % FW_TAR_BLOCK) % FW_TAR_BLOCK;
	if (pad && fwrite(zeros, 1, pad, w->f) != pad)
		w->failed = true;
	w->written += len + pad;
	return !w->failed;
}

static bool write_header(struct fw_tar_writer *w, const char *name, char type, uint64_t size, const char *link)
{
	uint8_t h[FW_TAR_BLOCK];
	memset(h, 0, sizeof(h));
	size_t nlen = strlen(name);
	if (nlen <= 100) {
		memcpy(h, name, nlen);
	} else {
		/* split at a slash so prefix <= 155 and name <= 100; the caller guaranteed it fits */
		const char *split = name + nlen - 101;
		const char *slash = strchr(split, '/');
		if (!slash || (size_t)(slash - name) > 155)
			return false;
		memcpy(h + 345, name, (size_t)(slash - name));
		memcpy(h, slash + 1, nlen - (size_t)(slash - name) - 1);
	}
	put_octal(h + 100, 8, type == '5' ? 0755 : 0644);
	put_octal(h + 108, 8, 0);
	put_octal(h + 116, 8, 0);
	put_octal(h + 124, 12, size);
	put_octal(h + 136, 12, w->mtime);
	h[156] = (uint8_t)type;
	if (link)
		memcpy(h + 157, link, strnlen(link, 100));
	memcpy(h + 257, "ustar", 6);
	memcpy(h + 263, "00", 2);
	memset(h + 148, ' ', 8);
	uint64_t sum = 0;
	for (int i = 0; i < FW_TAR_BLOCK; i++)
		sum += h[i];
	put_octal(h + 148, 7, sum);
	h[155] = ' ';
	return write_block_data(w, h, sizeof(h));
}

static bool fits_ustar(const char *name)
{
	size_t n = strlen(name);
	if (n <= 100)
		return true;
	if (n > 256)
		return false;
	const char *split = name + n - 101;
	const char *slash = strchr(split, '/');
	return slash && (size_t)(slash - name) <= 155;
}

static bool write_pax_path(struct fw_tar_writer *w, const char *name)
{
	char rec[4200];
	size_t plen = strlen(name);
	/* "LEN path=NAME\n" where LEN counts itself */
	size_t body = plen + 7; /* " path=" + "\n" */
	size_t digits = 1;
	while (1) {
		size_t total = body + digits;
		size_t d = 0;
		for (size_t t = total; t; t /= 10)
			d++;
		if (d == digits)
			break;
		digits = d;
	}
	int n = snprintf(rec, sizeof(rec), "%zu path=%s\n", body + digits, name);
	if (n < 0 || (size_t)n >= sizeof(rec))
		return false;
	return write_header(w, "PaxHeader", 'x', (uint64_t)n, NULL) && write_block_data(w, (const uint8_t *)rec, (size_t)n);
}

bool fw_tar_write_file(struct fw_tar_writer *w, const char *name, const uint8_t *data, size_t len)
{
	if (!fits_ustar(name)) {
		if (!write_pax_path(w, name))
			return false;
		char short_name[101];
		snprintf(short_name, sizeof(short_name), "%.100s", name + strlen(name) - (strlen(name) > 100 ? 100 : strlen(name)));
		return write_header(w, short_name, '0', len, NULL) && write_block_data(w, data, len);
	}
	return write_header(w, name, '0', len, NULL) && write_block_data(w, data, len);
}

bool fw_tar_finish(struct fw_tar_writer *w)
{
	static const uint8_t zeros[2 * FW_TAR_BLOCK];
	if (fwrite(zeros, 1, sizeof(zeros), w->f) != sizeof(zeros))
		w->failed = true;
	w->written += sizeof(zeros);
	return !w->failed;
}
