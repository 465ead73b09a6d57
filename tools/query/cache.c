/* The cache of decoded firmware (see cache.h). */
#include "cache.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "parsers/file.h"
#include "parsers/prefetch.h"
#include "parsers/view.h"

#define MAGIC "FWLCACHE"
#define FORMAT 2u
/* Most topic matches one entry may hold. */
#define MAX_MATCHES (1u << 20)

char *fw_cache_dir_default(const char *cache_dir_opt, const char *xdg_cache_home, const char *home)
{
	if (cache_dir_opt && *cache_dir_opt)
		return fw_xstrdup(cache_dir_opt);
	/* the XDG base directory rules: a relative $XDG_CACHE_HOME is ignored */
	if (xdg_cache_home && xdg_cache_home[0] == '/')
		return fw_xasprintf("%s/fwlens", xdg_cache_home);
	if (home && home[0] == '/')
		return fw_xasprintf("%s/.cache/fwlens", home);
	return NULL;
}

bool fw_cache_parse_size(const char *text, uint64_t *out)
{
	if (!text || *text < '0' || *text > '9')
		return false;
	char *end;
	errno = 0;
	unsigned long long v = strtoull(text, &end, 10);
	unsigned shift = 0;
	if (*end == 'K' || *end == 'k')
		shift = 10;
	else if (*end == 'M' || *end == 'm')
		shift = 20;
	else if (*end == 'G' || *end == 'g')
		shift = 30;
	if (shift)
		end++;
	if (errno || *end || v > (UINT64_MAX >> shift) || (v << shift) < ((uint64_t)1 << 20))
		return false;
	*out = (uint64_t)v << shift;
	return true;
}

static bool hex_ok(const char *h)
{
	size_t n = 0;
	for (; h[n]; n++)
		if (!((h[n] >= '0' && h[n] <= '9') || (h[n] >= 'a' && h[n] <= 'f')))
			return false;
	return n == 64;
}

static char *entry_path(const struct fw_cache *c, const char *sha)
{
	return fw_xasprintf("%s/forms-%s-%s.bin", c->dir, sha, c->rules_sha256);
}

static bool usable(const struct fw_cache *c, const char *sha)
{
	return c && c->dir && hex_ok(sha) && hex_ok(c->rules_sha256);
}

/* ---- writing ---- */

struct buf {
	uint8_t *p;
	size_t n, cap;
};

static void put(struct buf *b, const void *p, size_t n)
{
	if (b->n + n > b->cap) {
		while (b->n + n > b->cap)
			b->cap = b->cap ? b->cap * 2 : 65536;
		b->p = fw_xrealloc(b->p, b->cap);
	}
	memcpy(b->p + b->n, p, n);
	b->n += n;
}

static void put32(struct buf *b, uint32_t v)
{
	uint8_t x[4];
	fw_put_le32(x, v);
	put(b, x, 4);
}

static void put64(struct buf *b, uint64_t v)
{
	put32(b, (uint32_t)v);
	put32(b, (uint32_t)(v >> 32));
}

static void put_str(struct buf *b, const char *s)
{
	size_t n = s ? strlen(s) : 0;
	if (n > 4096)
		n = 4096;
	put32(b, (uint32_t)n);
	put(b, s ? s : "", n);
}

/* Write p[0..n) to path through a temporary file in the same folder and a rename. */
static bool write_atomic(const char *path, const uint8_t *p, size_t n, struct fw_error *err)
{
	char *tmp = fw_xasprintf("%s.tmp-XXXXXX", path);
	int fd = mkstemp(tmp);
	if (fd < 0) {
		fw_error_errno(err, "%s: cannot create", tmp);
		free(tmp);
		return false;
	}
	size_t done = 0;
	while (done < n) {
		ssize_t w = write(fd, p + done, n - done);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			break;
		done += (size_t)w;
	}
	bool ok = done == n && close(fd) == 0;
	if (!ok || rename(tmp, path) != 0) {
		fw_error_errno(err, "%s: cannot write", path);
		unlink(tmp);
		free(tmp);
		return false;
	}
	free(tmp);
	return true;
}

struct aged {
	char *path;
	time_t when;
	uint64_t size;
};

static int cmp_aged(const void *a, const void *b)
{
	const struct aged *x = a, *y = b;
	return x->when < y->when ? -1 : x->when > y->when;
}

/* Remove the entries used longest ago until the folder's entries fit the bound. */
static void evict(const struct fw_cache *c)
{
	uint64_t bound = c->max_bytes ? c->max_bytes : FW_CACHE_MAX_BYTES, total = 0;
	DIR *d = opendir(c->dir);
	if (!d)
		return;
	struct aged *v = NULL;
	size_t n = 0, cap = 0;
	struct dirent *e;
	while ((e = readdir(d)) && n < 100000) {
		if (strncmp(e->d_name, "forms-", 6) != 0)
			continue;
		char *p = fw_xasprintf("%s/%s", c->dir, e->d_name);
		struct stat st;
		if (lstat(p, &st) != 0 || !S_ISREG(st.st_mode)) {
			free(p);
			continue;
		}
		if (n == cap) {
			cap = cap ? cap * 2 : 64;
			v = fw_xrealloc(v, cap * sizeof(*v));
		}
		v[n++] = (struct aged){p, st.st_mtime, (uint64_t)st.st_size};
		total += (uint64_t)st.st_size;
	}
	closedir(d);
	qsort(v, n, sizeof(*v), cmp_aged);
	for (size_t i = 0; i < n; i++) {
		if (total > bound && unlink(v[i].path) == 0)
			total -= v[i].size;
		free(v[i].path);
	}
	free(v);
}

static bool make_dir(const char *dir, struct fw_error *err)
{
	/* the folder and its parents ($XDG_CACHE_HOME may not exist yet) */
	char *p = fw_xstrdup(dir);
	for (char *s = p + 1; *s; s++) {
		if (*s != '/')
			continue;
		*s = 0;
		mkdir(p, 0755);
		*s = '/';
	}
	bool ok = mkdir(p, 0755) == 0 || errno == EEXIST;
	if (!ok)
		fw_error_errno(err, "%s: cannot create the cache folder", dir);
	free(p);
	return ok;
}

/* ---- the bytes of a module that decoding reads ---- */

struct range {
	size_t a, b;
};

static int cmp_range(const void *x, const void *y)
{
	const struct range *p = x, *q = y;
	return p->a < q->a ? -1 : p->a > q->a;
}

static void add_range(struct range **v, size_t *n, size_t *cap, size_t a, size_t b, size_t len)
{
	a = a > 4 ? a - 4 : 0; /* the length prefix of a package array is read before it */
	if (b > len)
		b = len;
	if (a >= b)
		return;
	if (*n == *cap) {
		*cap = *cap ? *cap * 2 : 16;
		*v = fw_xrealloc(*v, *cap * sizeof(**v));
	}
	(*v)[(*n)++] = (struct range){a, b};
}

/* The runs of blob `k` of a module that hold its form packages, string packages and package
 * lists (sorted, merged). */
static size_t kept_runs(const struct fw_hii_module *m, uint32_t k, struct range **out)
{
	size_t len = m->blobs[k].view.len, n = 0, cap = 0;
	struct range *v = NULL;
	for (uint32_t i = 0; i < m->nforms; i++)
		if (m->forms[i].blob == k)
			add_range(&v, &n, &cap, m->forms[i].offset, m->forms[i].offset + m->forms[i].fs.package.len, len);
	for (uint32_t i = 0; i < m->ngroups; i++)
		if (m->groups[i].blob == k)
			add_range(&v, &n, &cap, m->groups[i].offset, m->groups[i].end, len);
	for (uint32_t i = 0; i < m->nlists; i++)
		if (m->lists[i].blob == k)
			add_range(&v, &n, &cap, m->lists[i].offset, m->lists[i].offset + m->lists[i].length, len);
	if (n)
		qsort(v, n, sizeof(*v), cmp_range);
	size_t w = 0;
	for (size_t i = 0; i < n; i++) {
		if (w && v[i].a <= v[w - 1].b) {
			if (v[i].b > v[w - 1].b)
				v[w - 1].b = v[i].b;
		} else {
			v[w++] = v[i];
		}
	}
	*out = v;
	return w;
}

/* A blob of `len` zero bytes with the runs copied in. */
static uint8_t *fill_runs(struct fw_arena *a, const uint8_t *src, size_t len, const struct range *r, size_t n)
{
	uint8_t *p = fw_arena_alloc(a, len ? len : 1);
	for (size_t i = 0; i < n; i++)
		memcpy(p + r[i].a, src + r[i].a, r[i].b - r[i].a);
	return p;
}

/* Whether the module decodes the same from its runs alone as from its whole blobs: the zeros
 * between runs could, in principle, change what the scan accepts next to a run. */
static bool runs_decode_same(const struct fw_hii_db *db, const struct fw_hii_module *m, struct range **runs,
			     const size_t *nruns)
{
	struct fw_hii_db t;
	fw_hii_db_init(&t, &db->opt);
	struct fw_hii_blob *blobs = fw_arena_alloc(&t.arena, (m->nblobs ? m->nblobs : 1) * sizeof(*blobs));
	for (uint32_t k = 0; k < m->nblobs; k++) {
		const struct fw_view *v = &m->blobs[k].view;
		blobs[k] = m->blobs[k];
		blobs[k].view = fw_view_make(fill_runs(&t.arena, v->p, v->len, runs[k], nruns[k]), v->len, v->base);
	}
	struct fw_error err;
	fw_error_clear(&err);
	bool same = fw_hii_add_module(&t, blobs, m->nblobs, m->has_guid ? &m->guid : NULL, m->name, m->offset, &err) &&
		    t.nmodules == 1;
	const struct fw_hii_module *x = same ? t.modules[0] : NULL;
	same = same && x->nforms == m->nforms && x->nstrings == m->nstrings && x->ngroups == m->ngroups &&
	       x->nlists == m->nlists;
	for (uint32_t i = 0; same && i < m->nforms; i++)
		same = x->forms[i].blob == m->forms[i].blob && x->forms[i].offset == m->forms[i].offset &&
		       x->forms[i].fs.package.len == m->forms[i].fs.package.len && x->forms[i].group == m->forms[i].group &&
		       x->forms[i].pairing == m->forms[i].pairing && x->forms[i].array_prefix == m->forms[i].array_prefix;
	for (uint32_t i = 0; same && i < m->nstrings; i++)
		same = x->strings[i].offset == m->strings[i].offset && x->strings[i].length == m->strings[i].length;
	for (uint32_t i = 0; same && i < m->ngroups; i++)
		same = x->groups[i].blob == m->groups[i].blob && x->groups[i].offset == m->groups[i].offset &&
		       x->groups[i].end == m->groups[i].end && strcmp(x->groups[i].kind, m->groups[i].kind) == 0;
	for (uint32_t i = 0; same && i < m->nlists; i++)
		same = x->lists[i].blob == m->lists[i].blob && x->lists[i].offset == m->lists[i].offset &&
		       x->lists[i].length == m->lists[i].length;
	fw_hii_db_free(&t);
	return same;
}

static void put_module(struct buf *b, const struct fw_hii_db *db, const struct fw_hii_module *m)
{
	uint8_t g[16];
	memcpy(g, &m->guid, 16);
	put(b, g, 16);
	put32(b, m->has_guid);
	put_str(b, m->name);
	put64(b, m->offset);
	put32(b, m->nblobs);
	struct range **runs = fw_xcalloc(m->nblobs ? m->nblobs : 1, sizeof(*runs));
	size_t *nruns = fw_xcalloc(m->nblobs ? m->nblobs : 1, sizeof(*nruns));
	for (uint32_t k = 0; k < m->nblobs; k++)
		nruns[k] = kept_runs(m, k, &runs[k]);
	bool whole = !runs_decode_same(db, m, runs, nruns);
	for (uint32_t k = 0; k < m->nblobs; k++) {
		const struct fw_view *v = &m->blobs[k].view;
		if (whole) { /* one run: the whole blob */
			free(runs[k]);
			runs[k] = fw_xmalloc(sizeof(**runs));
			runs[k][0] = (struct range){0, v->len};
			nruns[k] = v->len ? 1 : 0;
		}
		put_str(b, m->blobs[k].kind);
		put64(b, v->base);
		put64(b, v->len);
		put32(b, (uint32_t)nruns[k]);
		for (size_t i = 0; i < nruns[k]; i++) {
			put64(b, runs[k][i].a);
			put64(b, runs[k][i].b - runs[k][i].a);
			put(b, v->p + runs[k][i].a, runs[k][i].b - runs[k][i].a);
		}
		free(runs[k]);
	}
	free(runs);
	free(nruns);
}

bool fw_cache_store(const struct fw_cache *c, const char *sha, const struct fw_hii_db *db,
		    const struct fw_inventory *inv, const struct fw_cache_matches *matches, struct fw_error *err)
{
	if (!usable(c, sha))
		return fw_error_set(err, FW_E_INVALID, "no cache folder, image hash or rules hash");
	if (!make_dir(c->dir, err))
		return false;
	struct buf b = {0};
	put(&b, MAGIC, 8);
	put32(&b, FORMAT);
	put_str(&b, FWLENS_VERSION);
	put(&b, sha, 64);
	put(&b, c->rules_sha256, 64);
	put32(&b, (uint32_t)inv->nversions);
	for (size_t i = 0; i < inv->nversions; i++) {
		put_str(&b, inv->versions[i].key);
		put_str(&b, inv->versions[i].value);
		put_str(&b, inv->versions[i].source);
	}
	put32(&b, db->nmodules);
	for (uint32_t i = 0; i < db->nmodules; i++)
		put_module(&b, db, db->modules[i]);
	bool known = matches && matches->known && matches->n <= MAX_MATCHES;
	put32(&b, known);
	put_str(&b, known ? matches->lang : "");
	put32(&b, known ? matches->nitems : 0);
	put32(&b, known ? matches->n : 0);
	for (uint32_t i = 0; known && i < matches->n; i++) {
		put32(&b, matches->v[i].item);
		put_str(&b, matches->v[i].prompt);
		put_str(&b, matches->v[i].topic);
		put_str(&b, matches->v[i].rule);
	}
	uint8_t digest[FW_SHA256_LEN];
	fw_sha256(b.p, b.n, digest);
	put(&b, digest, sizeof(digest));
	bool ok = b.n <= FW_CACHE_MAX_ENTRY;
	if (!ok)
		fw_error_set(err, FW_E_LIMIT, "cache entry of %zu bytes is over the %zu MiB limit", b.n,
			     FW_CACHE_MAX_ENTRY >> 20);
	char *path = entry_path(c, sha);
	ok = ok && write_atomic(path, b.p, b.n, err);
	free(path);
	free(b.p);
	if (ok)
		evict(c);
	return ok;
}

/* ---- reading ---- */

/* Do the last FW_SHA256_LEN bytes of p[0..n) (n >= that) hold the SHA-256 of the rest? */
static bool digest_matches(const uint8_t *p, size_t n)
{
	uint8_t digest[FW_SHA256_LEN];
	fw_sha256(p, n - FW_SHA256_LEN, digest);
	return memcmp(digest, p + n - FW_SHA256_LEN, FW_SHA256_LEN) == 0;
}

struct rd {
	struct fw_view v;
	size_t off;
	bool ok;
};

static uint32_t get32(struct rd *r)
{
	uint32_t x = 0;
	if (r->ok && fw_rd_u32(&r->v, r->off, &x, NULL))
		r->off += 4;
	else
		r->ok = false;
	return x;
}

static uint64_t get64(struct rd *r)
{
	uint64_t lo = get32(r);
	return lo | ((uint64_t)get32(r) << 32);
}

static const uint8_t *get_bytes(struct rd *r, size_t n)
{
	if (!r->ok || !fw_view_has(&r->v, r->off, n)) {
		r->ok = false;
		return NULL;
	}
	const uint8_t *p = r->v.p + r->off;
	r->off += n;
	return p;
}

static const char *get_str(struct rd *r, struct fw_arena *a)
{
	uint32_t n = get32(r);
	if (n > 4096)
		r->ok = false;
	const uint8_t *p = get_bytes(r, n);
	return p ? fw_arena_strndup(a, (const char *)p, n) : NULL;
}

static bool parse_entry(struct fw_cache_entry *e, const char *sha, const char *rules, bool check_digest, char *why,
			size_t whylen)
{
	struct rd r = {fw_view_make(e->data, e->len, 0), 0, true};
	const uint8_t *magic = get_bytes(&r, 8);
	if (!magic || memcmp(magic, MAGIC, 8) != 0) {
		snprintf(why, whylen, "not a fwlens cache entry");
		return false;
	}
	if (e->len < 8 + FW_SHA256_LEN) {
		snprintf(why, whylen, "truncated");
		return false;
	}
	if (check_digest && !digest_matches(e->data, e->len)) {
		snprintf(why, whylen, "its digest does not match its bytes");
		return false;
	}
	r.v.len = e->len - FW_SHA256_LEN;
	uint32_t format = get32(&r);
	const char *version = r.ok && format == FORMAT ? get_str(&r, &e->arena) : NULL;
	const uint8_t *key = get_bytes(&r, 64), *rkey = get_bytes(&r, 64);
	if (!r.ok || !version || strcmp(version, FWLENS_VERSION) != 0 || memcmp(key, sha, 64) != 0 ||
	    memcmp(rkey, rules, 64) != 0) {
		snprintf(why, whylen, "written by another fwlens version, for another image or other rules");
		return false;
	}
	uint32_t nv = get32(&r);
	if (nv > FW_INVENTORY_MAX_VERSIONS)
		r.ok = false;
	for (uint32_t i = 0; r.ok && i < nv; i++) {
		struct fw_version_fact *f = &e->versions[e->nversions++];
		f->key = get_str(&r, &e->arena);
		f->value = get_str(&r, &e->arena);
		f->source = get_str(&r, &e->arena);
	}
	uint32_t nm = get32(&r);
	if (nm > FW_CACHE_MAX_MODULES)
		r.ok = false;
	if (r.ok) {
		e->modules = fw_arena_alloc(&e->arena, (nm ? nm : 1) * sizeof(*e->modules));
		e->nmodules = nm;
	}
	size_t expanded = 0; /* blob bytes, runs and the zeros between them: bounded like an entry */
	for (uint32_t i = 0; r.ok && i < nm; i++) {
		struct fw_cache_module *m = &e->modules[i];
		const uint8_t *g = get_bytes(&r, 16);
		if (g)
			memcpy(&m->guid, g, 16);
		m->has_guid = get32(&r) != 0;
		m->name = get_str(&r, &e->arena);
		if (m->name && !*m->name)
			m->name = NULL;
		m->offset = get64(&r);
		m->nblobs = get32(&r);
		if (m->nblobs > FW_CACHE_MAX_BLOBS)
			r.ok = false;
		if (!r.ok)
			break;
		m->blobs = fw_arena_alloc(&e->arena, (m->nblobs ? m->nblobs : 1) * sizeof(*m->blobs));
		for (uint32_t k = 0; r.ok && k < m->nblobs; k++) {
			m->blobs[k].kind = get_str(&r, &e->arena);
			uint64_t base = get64(&r), len = get64(&r);
			uint32_t nruns = get32(&r);
			if (!r.ok || len > FW_CACHE_MAX_ENTRY - expanded || nruns > (r.v.len - r.off) / 16) {
				r.ok = false;
				break;
			}
			expanded += (size_t)len;
			uint8_t *p = fw_arena_alloc(&e->arena, len ? (size_t)len : 1);
			uint64_t at = 0; /* runs are in order and apart */
			for (uint32_t k2 = 0; r.ok && k2 < nruns; k2++) {
				uint64_t off = get64(&r), n = get64(&r);
				const uint8_t *src = r.ok && off >= at && off <= len && n <= len - off ? get_bytes(&r, (size_t)n) : NULL;
				if (!src)
					r.ok = false;
				else
					memcpy(p + off, src, (size_t)n);
				at = off + n;
			}
			m->blobs[k].view = fw_view_make(p, (size_t)len, base);
		}
	}
	struct fw_cache_matches *mt = &e->matches;
	mt->known = get32(&r) != 0;
	mt->lang = get_str(&r, &e->arena);
	mt->nitems = get32(&r);
	uint32_t nmatch = get32(&r);
	if (nmatch > MAX_MATCHES || (r.ok && nmatch > (r.v.len - r.off) / 16))
		r.ok = false;
	if (r.ok && nmatch) {
		mt->v = fw_arena_alloc(&e->arena, nmatch * sizeof(*mt->v));
		mt->n = nmatch;
	}
	for (uint32_t i = 0; r.ok && i < nmatch; i++) {
		struct fw_cache_match *x = &mt->v[i];
		x->item = get32(&r);
		x->prompt = get_str(&r, &e->arena);
		x->topic = get_str(&r, &e->arena);
		x->rule = get_str(&r, &e->arena);
		if (r.ok && x->item >= mt->nitems)
			r.ok = false;
	}
	if (!r.ok || r.off != r.v.len) {
		snprintf(why, whylen, "malformed at offset 0x%zx", r.off);
		return false;
	}
	return true;
}

/* Parse `data` (malloc'd, n bytes; taken over); its digest is checked unless the caller does. */
static bool parse_owned(uint8_t *data, size_t n, const char *sha, const char *rules, bool check_digest,
			struct fw_cache_entry *out, char *why, size_t whylen)
{
	memset(out, 0, sizeof(*out));
	fw_arena_init(&out->arena);
	out->data = data;
	out->len = n;
	if (parse_entry(out, sha, rules, check_digest, why, whylen))
		return true;
	fw_cache_entry_free(out);
	return false;
}

bool fw_cache_entry_parse(const uint8_t *p, size_t n, const char *sha, const char *rules, struct fw_cache_entry *out,
			  char *why, size_t whylen)
{
	uint8_t *copy = fw_xmalloc(n ? n : 1);
	memcpy(copy, p, n);
	return parse_owned(copy, n, sha, rules, true, out, why, whylen);
}

/* The bytes of the entry file of an image (data malloc'd), or false with why said. */
static bool read_entry(const struct fw_cache *c, const char *sha, uint8_t **data, size_t *n, char *why, size_t whylen)
{
	*data = NULL;
	*n = 0;
	if (!usable(c, sha)) {
		snprintf(why, whylen, "no cache");
		return false;
	}
	char *path = entry_path(c, sha);
	/* read into memory of our own (a private copy: the entry may be replaced while in use) */
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	struct stat st;
	bool over = false, ok = false;
	struct fw_error err;
	fw_error_clear(&err);
	if (fd < 0)
		snprintf(why, whylen, "%s: %s", path, strerror(errno));
	else if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode))
		snprintf(why, whylen, "%s: not a regular file", path);
	else if (!fw_file_read_fd(fd, path, FW_CACHE_MAX_ENTRY, data, n, &over, &err) || over)
		snprintf(why, whylen, "%s: %s", path, over ? "larger than an entry may be" : err.msg);
	else
		ok = true;
	if (fd >= 0)
		close(fd);
	free(path);
	return ok;
}

/* A hit: the entry is used now, so it is evicted last. */
static void touch_entry(const struct fw_cache *c, const char *sha)
{
	char *path = entry_path(c, sha);
	utimensat(AT_FDCWD, path, NULL, 0);
	free(path);
}

bool fw_cache_load(const struct fw_cache *c, const char *sha, struct fw_cache_entry *out, char *why, size_t whylen)
{
	char dummy[8];
	if (!why) {
		why = dummy;
		whylen = sizeof(dummy);
	}
	memset(out, 0, sizeof(*out));
	uint8_t *data;
	size_t n;
	if (!read_entry(c, sha, &data, &n, why, whylen))
		return false;
	if (!parse_owned(data, n, sha, c->rules_sha256, true, out, why, whylen))
		return false;
	touch_entry(c, sha);
	return true;
}

/* Entries from this size have their digest checked on a thread of its own (FWLENS_THREADS=1: not). */
#define DIGEST_THREAD_MIN ((size_t)32 << 10)

struct digest_job {
	const uint8_t *p;
	size_t n;
	bool ok;
};

static void *digest_run(void *arg)
{
	struct digest_job *j = arg;
	j->ok = digest_matches(j->p, j->n);
	return NULL;
}

bool fw_cache_load_hii(const struct fw_cache *c, const char *sha, struct fw_cache_entry *out, struct fw_hii_db *db,
		       char *why, size_t whylen)
{
	memset(out, 0, sizeof(*out));
	uint8_t *data;
	size_t n;
	if (!read_entry(c, sha, &data, &n, why, whylen))
		return false;
	/* the digest is checked on a second thread while the entry is parsed and its forms decoded
	 * (both read it with bounds, as any input); nothing is used before both are done */
	struct digest_job job = {data, n, false};
	pthread_t t;
	bool threaded = n >= DIGEST_THREAD_MIN && fw_prefetch_threads(FW_PREFETCH_MIN_INPUT) > 1 &&
			pthread_create(&t, NULL, digest_run, &job) == 0;
	fw_arena_init(&out->arena);
	out->data = data;
	out->len = n;
	bool ok = parse_entry(out, sha, c->rules_sha256, !threaded, why, whylen);
	struct fw_error err;
	fw_error_clear(&err);
	if (ok && !fw_cache_entry_hii(out, db, &err)) {
		snprintf(why, whylen, "%s", err.msg);
		ok = false;
	}
	if (threaded) {
		pthread_join(t, NULL);
		if (ok && !job.ok) {
			snprintf(why, whylen, "its digest does not match its bytes");
			ok = false;
		}
	}
	if (!ok) {
		fw_cache_entry_free(out); /* the caller closes the db, which points into it */
		return false;
	}
	touch_entry(c, sha);
	return true;
}

void fw_cache_entry_free(struct fw_cache_entry *e)
{
	free(e->data);
	fw_arena_free(&e->arena);
	memset(e, 0, sizeof(*e));
}

bool fw_cache_entry_hii(const struct fw_cache_entry *e, struct fw_hii_db *db, struct fw_error *err)
{
	for (uint32_t i = 0; i < e->nmodules; i++) {
		const struct fw_cache_module *m = &e->modules[i];
		if (!fw_hii_add_module(db, m->blobs, m->nblobs, m->has_guid ? &m->guid : NULL, m->name, m->offset, err))
			return false;
	}
	return true;
}

/* ---- image files by hash ---- */

/* The modification time in nanoseconds: a file rewritten within the same second is noticed. */
static unsigned long long mtime_ns(const struct stat *st)
{
	return (unsigned long long)st->st_mtim.tv_sec * 1000000000ull + (unsigned long long)st->st_mtim.tv_nsec;
}

/* The hash remembered for `key` (a path) when the file it names still has the size, mtime and inode
 * of `st`. The index is small text; a line that does not parse is skipped. */
static bool idx_lookup(const struct fw_cache *c, const char *key, const struct stat *st, char out[FW_SHA256_HEX_LEN])
{
	if (!c || !c->dir)
		return false;
	char *idx = fw_xasprintf("%s/images.idx", c->dir);
	struct fw_file f;
	struct fw_error ierr;
	fw_error_clear(&ierr);
	bool found = false;
	if (fw_file_read(idx, (size_t)16 << 20, &f, &ierr)) {
		const char *p = (const char *)f.data, *end = p + f.len;
		while (p < end && !found) {
			const char *nl = memchr(p, '\n', (size_t)(end - p));
			size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
			char line[4200], sha[65], name[4097];
			unsigned long long size, mtime, ino;
			if (n < sizeof(line)) {
				memcpy(line, p, n);
				line[n] = 0;
				if (sscanf(line, "%64s %llu %llu %llu %4096[^\n]", sha, &size, &mtime, &ino, name) == 5 &&
				    hex_ok(sha) && strcmp(name, key) == 0 && size == (unsigned long long)st->st_size &&
				    mtime == mtime_ns(st) && ino == (unsigned long long)st->st_ino) {
					memcpy(out, sha, FW_SHA256_HEX_LEN);
					found = true;
				}
			}
			p += n + 1;
		}
		fw_file_close(&f);
	}
	free(idx);
	return found;
}

static void idx_remember(const struct fw_cache *c, const char *key, const struct stat *st, const char *sha)
{
	struct fw_error ierr;
	fw_error_clear(&ierr);
	if (!c || !c->dir || strchr(key, '\n') || strlen(key) > 4096 || !make_dir(c->dir, &ierr))
		return;
	char *idx = fw_xasprintf("%s/images.idx", c->dir);
	/* appends of one short line are atomic enough: a torn line is skipped when read */
	FILE *a = fopen(idx, "a");
	if (a) {
		fprintf(a, "%s %llu %llu %llu %s\n", sha, (unsigned long long)st->st_size, mtime_ns(st),
			(unsigned long long)st->st_ino, key);
		fclose(a);
	}
	free(idx);
}

bool fw_cache_file_sha256(const struct fw_cache *c, const char *path, char out[FW_SHA256_HEX_LEN], struct fw_error *err)
{
	struct stat st;
	if (stat(path, &st) != 0)
		return fw_error_errno(err, "%s: cannot open", path);
	char *abs = realpath(path, NULL);
	const char *key = abs ? abs : path;
	bool ok = idx_lookup(c, key, &st, out);
	struct fw_file f;
	if (!ok && fw_file_open(path, &f, err)) {
		fw_sha256_hex(f.data, f.len, out);
		fw_file_close(&f);
		idx_remember(c, key, &st, out);
		ok = true;
	}
	free(abs);
	return ok;
}

void fw_cache_member_sha256(const struct fw_cache *c, const char *archive, const char *member, const uint8_t *p,
			    size_t n, char out[FW_SHA256_HEX_LEN])
{
	struct stat st;
	char *abs = stat(archive, &st) == 0 && S_ISREG(st.st_mode) ? realpath(archive, NULL) : NULL;
	char *key = abs ? fw_xasprintf("%s\t%s", abs, member) : NULL;
	if (!key || !idx_lookup(c, key, &st, out)) {
		fw_sha256_hex(p, n, out);
		if (key)
			idx_remember(c, key, &st, out);
	}
	free(key);
	free(abs);
}

char *fw_cache_find_image(const struct fw_cache *c, const char *dir, const char *sha, struct fw_error *err)
{
	char got[FW_SHA256_HEX_LEN];
	char *named = fw_xasprintf("%s/%s", dir, sha);
	struct stat st;
	if (stat(named, &st) == 0 && S_ISREG(st.st_mode) && fw_cache_file_sha256(c, named, got, NULL) &&
	    strcmp(got, sha) == 0)
		return named;
	free(named);
	DIR *d = opendir(dir);
	if (!d) {
		fw_error_errno(err, "%s: cannot open the image folder", dir);
		return NULL;
	}
	char *found = NULL;
	struct dirent *e;
	unsigned looked = 0;
	while (!found && (e = readdir(d)) && looked < 10000) {
		if (e->d_name[0] == '.')
			continue;
		char *p = fw_xasprintf("%s/%s", dir, e->d_name);
		looked++;
		if (stat(p, &st) == 0 && S_ISREG(st.st_mode) && fw_cache_file_sha256(c, p, got, NULL) && strcmp(got, sha) == 0)
			found = p;
		else
			free(p);
	}
	closedir(d);
	if (!found)
		fw_error_set(err, FW_E_NOT_FOUND, "no file in %s has SHA-256 %s", dir, sha);
	return found;
}
