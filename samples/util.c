/* Shared helpers of the sample builder. */
#include "sample.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "parsers/hash.h"
#include "parsers/view.h"

struct fw_arena sample_arena;

void sample_die(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fputs("fwlens-samples: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
	exit(1);
}

void *sample_alloc(size_t n) { return fw_arena_alloc(&sample_arena, n); }
char *sample_strdup(const char *s) { return fw_arena_strdup(&sample_arena, s); }

static char *vformat(const char *fmt, va_list ap)
{
	va_list copy;
	va_copy(copy, ap);
	int n = vsnprintf(NULL, 0, fmt, copy);
	va_end(copy);
	SAMPLE_ASSERT(n >= 0);
	char *s = sample_alloc((size_t)n + 1);
	vsnprintf(s, (size_t)n + 1, fmt, ap);
	return s;
}

char *sample_printf(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *s = vformat(fmt, ap);
	va_end(ap);
	return s;
}

/* ---- sbuf ---- */

void sb_free(struct sbuf *b)
{
	free(b->p);
	b->p = NULL;
	b->len = b->cap = 0;
}

static void sb_reserve(struct sbuf *b, size_t n)
{
	if (n <= b->cap - b->len)
		return;
	size_t cap = b->cap ? b->cap : 256;
	while (cap - b->len < n)
		cap *= 2;
	b->p = fw_xrealloc(b->p, cap);
	b->cap = cap;
}

size_t sb_put(struct sbuf *b, const void *p, size_t n)
{
	sb_reserve(b, n);
	size_t off = b->len;
	if (n) {
		if (p)
			memcpy(b->p + off, p, n);
		else
			memset(b->p + off, 0, n);
	}
	b->len += n;
	return off;
}

size_t sb_fill(struct sbuf *b, uint8_t byte, size_t n)
{
	size_t off = sb_put(b, NULL, n);
	memset(b->p + off, byte, n);
	return off;
}

size_t sb_put8(struct sbuf *b, uint8_t v) { return sb_put(b, &v, 1); }

size_t sb_put16(struct sbuf *b, uint16_t v)
{
	uint8_t t[2];
	fw_put_le16(t, v);
	return sb_put(b, t, 2);
}

size_t sb_put32(struct sbuf *b, uint32_t v)
{
	uint8_t t[4];
	fw_put_le32(t, v);
	return sb_put(b, t, 4);
}

size_t sb_put64(struct sbuf *b, uint64_t v)
{
	uint8_t t[8];
	fw_put_le64(t, v);
	return sb_put(b, t, 8);
}

size_t sb_put_guid(struct sbuf *b, const struct fw_guid *g) { return sb_put(b, g->b, 16); }
size_t sb_put_ascii(struct sbuf *b, const char *s) { return sb_put(b, s, strlen(s) + 1); }

size_t sb_put_ucs2(struct sbuf *b, const char *s)
{
	size_t off = b->len;
	const unsigned char *p = (const unsigned char *)s;
	while (*p) {
		uint32_t c = *p++;
		if (c >= 0xC0 && c < 0xE0 && (*p & 0xC0) == 0x80) {
			c = ((c & 0x1F) << 6) | (*p++ & 0x3F);
		} else if (c >= 0xE0 && c < 0xF0 && (p[0] & 0xC0) == 0x80 && (p[1] & 0xC0) == 0x80) {
			c = ((c & 0x0F) << 12) | ((uint32_t)(p[0] & 0x3F) << 6) | (p[1] & 0x3F);
			p += 2;
		} else if (c >= 0x80) {
			sample_die("sb_put_ucs2: text outside the BMP or not UTF-8: %s", s);
		}
		sb_put16(b, (uint16_t)c);
	}
	sb_put16(b, 0);
	return off;
}

size_t sb_printf(struct sbuf *b, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	SAMPLE_ASSERT(n >= 0);
	sb_reserve(b, (size_t)n + 1);
	size_t off = b->len;
	va_start(ap, fmt);
	vsnprintf((char *)b->p + off, (size_t)n + 1, fmt, ap);
	va_end(ap);
	b->len += (size_t)n;
	return off;
}

void sb_align(struct sbuf *b, size_t align, uint8_t byte)
{
	size_t want = align_up(b->len, align);
	if (want > b->len)
		sb_fill(b, byte, want - b->len);
}

size_t sb_layout(struct sbuf *b, const struct fw_layout *l) { return sb_put(b, NULL, l->size); }

uint8_t *sb_take(struct sbuf *b, size_t *len)
{
	uint8_t *p = b->p;
	*len = b->len;
	b->p = NULL;
	b->len = b->cap = 0;
	return p;
}

/* ---- GUIDs ---- */

struct fw_guid sample_guid(const char *text)
{
	struct fw_guid g;
	if (!fw_guid_parse(text, &g))
		sample_die("bad GUID constant %s", text);
	return g;
}

struct fw_guid sample_guid_named(const char *name)
{
	char *label = sample_printf("fwlens sample %s", name);
	uint8_t h[FW_SHA256_LEN];
	fw_sha256((const uint8_t *)label, strlen(label), h);
	struct fw_guid g;
	memcpy(g.b, h, 16);
	g.b[7] = (uint8_t)((g.b[7] & 0x0F) | 0x40); /* Data3 high nibble: version 4 */
	g.b[8] = (uint8_t)((g.b[8] & 0x3F) | 0x80); /* variant 10b */
	return g;
}

/* ---- srng ---- */

void srng_init(struct srng *r, const char *label)
{
	fw_sha256((const uint8_t *)label, strlen(label), r->seed);
	r->counter = 0;
	r->pos = sizeof(r->block);
}

void srng_bytes(struct srng *r, void *out, size_t n)
{
	uint8_t *o = out;
	while (n) {
		if (r->pos == sizeof(r->block)) {
			uint8_t in[40];
			memcpy(in, r->seed, 32);
			fw_put_le64(in + 32, r->counter++);
			fw_sha256(in, sizeof(in), r->block);
			r->pos = 0;
		}
		size_t k = sizeof(r->block) - r->pos;
		if (k > n)
			k = n;
		memcpy(o, r->block + r->pos, k);
		r->pos += (unsigned)k;
		o += k;
		n -= k;
	}
}

uint32_t srng_u32(struct srng *r)
{
	uint8_t b[4];
	srng_bytes(r, b, 4);
	return fw_le32(b);
}

uint32_t srng_below(struct srng *r, uint32_t n)
{
	SAMPLE_ASSERT(n > 0);
	/* rejection sampling keeps the distribution exact */
	uint32_t limit = UINT32_MAX - UINT32_MAX % n;
	for (;;) {
		uint32_t v = srng_u32(r);
		if (v < limit)
			return v % n;
	}
}

/* ---- output files ---- */

static const char *root_dir = ".";

void out_set_root(const char *dir) { root_dir = sample_strdup(dir); }
const char *out_root(void) { return root_dir; }

char *out_path(const char *rel)
{
	SAMPLE_ASSERT(rel[0] != '/' && !strstr(rel, ".."));
	return sample_printf("%s/%s", root_dir, rel);
}

static void mkdir_p(const char *path)
{
	char *p = sample_strdup(path);
	for (char *s = p + 1; *s; s++) {
		if (*s != '/')
			continue;
		*s = '\0';
		if (mkdir(p, 0755) != 0 && errno != EEXIST)
			sample_die("cannot create %s: %s", p, strerror(errno));
		*s = '/';
	}
	if (mkdir(p, 0755) != 0 && errno != EEXIST)
		sample_die("cannot create %s: %s", p, strerror(errno));
}

void out_mkdirs(const char *rel) { mkdir_p(out_path(rel)); }

/* Folders already made, so that writing thousands of sysfs files costs one mkdir each. */
static char *made[64];
static unsigned made_next;

static void mkdir_parent(const char *path)
{
	char *p = sample_strdup(path);
	char *slash = strrchr(p, '/');
	if (!slash || slash == p)
		return;
	*slash = '\0';
	for (unsigned i = 0; i < ARRAY_LEN(made); i++)
		if (made[i] && strcmp(made[i], p) == 0)
			return;
	mkdir_p(p);
	made[made_next++ % ARRAY_LEN(made)] = p;
}

void out_write(const char *rel, const void *data, size_t len)
{
	char *path = out_path(rel);
	mkdir_parent(path);
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		sample_die("cannot create %s: %s", path, strerror(errno));
	const uint8_t *p = data;
	size_t left = len;
	while (left) {
		ssize_t w = write(fd, p, left);
		if (w < 0) {
			if (errno == EINTR)
				continue;
			sample_die("cannot write %s: %s", path, strerror(errno));
		}
		p += w;
		left -= (size_t)w;
	}
	if (close(fd) != 0)
		sample_die("cannot write %s: %s", path, strerror(errno));
}

void out_text(const char *rel, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *s = vformat(fmt, ap);
	va_end(ap);
	out_write(rel, s, strlen(s));
}

void out_symlink(const char *rel, const char *target)
{
	char *path = out_path(rel);
	mkdir_parent(path);
	unlink(path);
	if (symlink(target, path) != 0)
		sample_die("cannot create link %s: %s", path, strerror(errno));
}

static int remove_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	int rc = (flag == FTW_DP) ? rmdir(path) : unlink(path);
	if (rc != 0 && errno != ENOENT)
		sample_die("cannot remove %s: %s", path, strerror(errno));
	return 0;
}

void out_remove_tree(const char *rel)
{
	memset(made, 0, sizeof(made)); /* the folders go away */
	char *path = out_path(rel);
	struct stat st;
	if (lstat(path, &st) != 0)
		return;
	if (nftw(path, remove_one, 16, FTW_DEPTH | FTW_PHYS) != 0)
		sample_die("cannot remove %s", path);
}
