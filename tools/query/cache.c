/* The cache of decoded firmware (see cache.h). */
#include "cache.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <openssl/crypto.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "parsers/file.h"
#include "parsers/prefetch.h"
#include "parsers/view.h"

#define MAGIC "FWLCACHE"
#define FORMAT 3u /* 3: an HMAC-SHA256 with the folder's key ends an entry, not its SHA-256 */
/* Most topic matches one entry may hold. */
#define MAX_MATCHES (1u << 20)
#define KEY_FILE "hmac.key"
#define INDEX_FILE "images.idx"
#define NAMES_FILE "pci-names.idx"
/* A temporary file younger than this may be a store under way: eviction leaves it. */
#define TEMP_STALE_SECONDS 3600

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

/* Whether p starts with n lower-case hex digits. */
static bool hex_run(const char *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!((p[i] >= '0' && p[i] <= '9') || (p[i] >= 'a' && p[i] <= 'f')))
			return false;
	return true;
}

static bool hex_ok(const char *h)
{
	return hex_run(h, 64) && h[64] == '\0';
}

/* The file name of an entry in the folder. */
static char *entry_name(const struct fw_cache *c, const char *sha)
{
	return fw_xasprintf("forms-%s-%s.bin", sha, c->rules_sha256);
}

/* Whether `name` is one the cache writes for entries, forms-HEX64-HEX64.bin, or a temporary file of
 * one (.tmp-HEX12, *temp set): eviction removes nothing else. */
static bool entry_named(const char *name, bool *temp)
{
	const size_t end = 6 + 64 + 1 + 64 + 4;
	if (strncmp(name, "forms-", 6) != 0 || !hex_run(name + 6, 64) || name[70] != '-' || !hex_run(name + 71, 64) ||
	    strncmp(name + 135, ".bin", 4) != 0)
		return false;
	*temp = name[end] != '\0';
	return !*temp ||
	       (strncmp(name + end, ".tmp-", 5) == 0 && hex_run(name + end + 5, 12) && name[end + 17] == '\0');
}

static bool usable(const struct fw_cache *c, const char *sha)
{
	return c && c->dir && hex_ok(sha) && hex_ok(c->rules_sha256);
}

bool fw_cache_mac(const uint8_t key[FW_CACHE_KEY_LEN], const uint8_t *p, size_t n, uint8_t out[FW_SHA256_LEN])
{
	return fw_hmac_sha256(key, FW_CACHE_KEY_LEN, p, n, out);
}

/* Do the last FW_SHA256_LEN bytes of p[0..n) (n >= that) hold the MAC of the rest? */
static bool mac_matches(const uint8_t key[FW_CACHE_KEY_LEN], const uint8_t *p, size_t n)
{
	uint8_t mac[FW_SHA256_LEN];
	return fw_cache_mac(key, p, n - FW_SHA256_LEN, mac) &&
	       CRYPTO_memcmp(mac, p + n - FW_SHA256_LEN, FW_SHA256_LEN) == 0;
}

/* ---- the folder and its files: the user's own, or not used ---- */

static void say(const struct fw_cache *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void say(const struct fw_cache *c, const char *fmt, ...)
{
	if (!c->warn)
		return;
	char msg[1400];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	c->warn(c->warn_ctx, msg);
}

/* Why what `st` describes is not the user's own (written into buf), or NULL: owned by another
 * user, or writable by group or others; `secret` (the key) refuses reading by them too. */
static const char *not_own(const struct stat *st, bool secret, char *buf, size_t n)
{
	mode_t others = secret ? 077 : 022;
	if (st->st_uid != geteuid())
		snprintf(buf, n, "is owned by uid %u, not by uid %u running fwlens", (unsigned)st->st_uid,
			 (unsigned)geteuid());
	else if (st->st_mode & others)
		snprintf(buf, n, "is %s by group or others (mode %04o)", secret ? "readable or writable" : "writable",
			 (unsigned)(st->st_mode & 07777));
	else
		return NULL;
	return buf;
}

/* Make the folder and its missing parents ($XDG_CACHE_HOME may not exist yet), 0700 whatever the
 * umask. */
static void make_dirs(const char *dir)
{
	char *p = fw_xstrdup(dir);
	for (char *s = p + 1; *s; s++) {
		if (*s != '/')
			continue;
		*s = 0;
		mkdir(p, 0700);
		*s = '/';
	}
	mkdir(p, 0700);
	free(p);
}

/* Open `name` (relative to dfd; a path with AT_FDCWD) without following a link as its last part
 * nor waiting on a FIFO, and check what was opened (into *st): a folder (`folder`) or a regular
 * file, the user's own and writable by no one else (`secret`: readable by no one else either).
 * -1 with errno ENOENT when absent, or EPERM when refused (said, naming it). */
static int open_own(const struct fw_cache *c, int dfd, const char *name, bool folder, bool secret, struct stat *st)
{
	int fd = openat(dfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | (folder ? O_DIRECTORY : 0));
	int e = errno;
	char why[160];
	const char *bad = NULL;
	if (fd < 0) {
		if (e == ENOENT)
			return -1;
		bool link = fstatat(dfd, name, st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISLNK(st->st_mode);
		bad = link ? "is a symbolic link" : e == ENOTDIR ? "is not a folder" : strerror(e);
	} else if (fstat(fd, st) != 0 || (folder ? !S_ISDIR(st->st_mode) : !S_ISREG(st->st_mode))) {
		bad = folder ? "is not a folder" : "is not a regular file";
	} else {
		bad = not_own(st, secret, why, sizeof(why));
	}
	if (!bad)
		return fd;
	if (fd >= 0)
		close(fd);
	if (folder)
		say(c, "the cache folder %s %s: not used", c->dir, bad);
	else
		say(c, "the cache file %s/%s %s: not used", c->dir, name, bad);
	errno = EPERM;
	return -1;
}

/* The cache folder, opened with open_own (made first with `create`): what is in it is opened
 * relative to it. -1 when it is absent (*refused false) or not to be used (*refused true, said). */
static int open_dir(const struct fw_cache *c, bool create, bool *refused)
{
	if (create)
		make_dirs(c->dir);
	struct stat st;
	int fd = open_own(c, AT_FDCWD, c->dir, true, false, &st);
	*refused = fd < 0 && errno != ENOENT;
	return fd;
}

/* Read `name` in the folder (open_own) in one piece, the length fstat gives and at most cap bytes,
 * into memory from `arena` (an entry is megabytes: an arena block that large comes in huge pages,
 * not 4 KiB faults as a buffer grown by doubling) or, arena NULL, malloc'd for the caller to free.
 * A file another run appends to while it is read (an index) is taken to the length stated (a torn
 * last line does not verify); `whole` (an entry, only ever replaced by a rename) refuses it
 * instead. False with errno ENOENT when absent, EFBIG when longer than cap, EPERM when refused
 * (said), EAGAIN when its length changed and `whole`, or shrank, else the read's. */
static bool read_own(const struct fw_cache *c, int dfd, const char *name, bool secret, size_t cap,
		     struct fw_arena *arena, bool whole, uint8_t **data, size_t *n)
{
	*data = NULL;
	*n = 0;
	struct stat st;
	int fd = open_own(c, dfd, name, false, secret, &st);
	if (fd < 0)
		return false;
	if ((uint64_t)st.st_size > cap) {
		close(fd);
		errno = EFBIG;
		return false;
	}
	size_t want = (size_t)st.st_size, got = 0;
	uint8_t *p = arena ? fw_arena_alloc(arena, want + 1) : fw_xmalloc(want + 1);
	int e = 0;
	for (;;) { /* one byte more than stated: tells a file that grew */
		ssize_t r = read(fd, p + got, want + 1 - got);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			e = errno;
		if (r <= 0)
			break;
		got += (size_t)r;
		if (got == want + 1)
			break;
	}
	close(fd);
	if (!e && got > want && !whole)
		got = want;
	if (!e && got != want)
		e = EAGAIN;
	if (e) {
		if (!arena)
			free(p);
		errno = e;
		return false;
	}
	p[got] = 0;
	*data = p;
	*n = got;
	return true;
}

/* A new file of the user's alone in the folder (0600, made with O_EXCL, never through a link)
 * named after `name` with a random .tmp-HEX12 tail (into tmp), holding p[0..n). */
static bool write_temp(int dfd, const char *name, const uint8_t *p, size_t n, char *tmp, size_t tmplen)
{
	uint8_t r[6];
	char hex[13];
	if (getrandom(r, sizeof(r), 0) != (ssize_t)sizeof(r))
		return false;
	snprintf(tmp, tmplen, "%s.tmp-%s", name, fw_hex(r, sizeof(r), hex));
	int fd = openat(dfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0)
		return false;
	size_t done = 0;
	while (done < n) {
		ssize_t w = write(fd, p + done, n - done);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			break;
		done += (size_t)w;
	}
	bool ok = close(fd) == 0 && done == n;
	if (!ok)
		unlinkat(dfd, tmp, 0);
	return ok;
}

/* Put p[0..n) as `name` in the folder: a temporary file renamed over it, which replaces a link or
 * a foreign file standing there, never writes through it. */
static bool replace_file(const struct fw_cache *c, int dfd, const char *name, const uint8_t *p, size_t n,
			 struct fw_error *err)
{
	char tmp[256];
	if (!write_temp(dfd, name, p, n, tmp, sizeof(tmp)))
		return fw_error_errno(err, "%s/%s: cannot write", c->dir, name);
	if (renameat(dfd, tmp, dfd, name) != 0) {
		fw_error_errno(err, "%s/%s: cannot write", c->dir, name);
		unlinkat(dfd, tmp, 0);
		return false;
	}
	return true;
}

/* The MAC key, DIR/hmac.key (read as a secret). With `create`, an absent key is made: random bytes
 * in a temporary file, then linked to its name, so runs at the same time agree on one key and
 * none reads a short one. False when absent or not usable (*refused, said). */
static bool get_key(const struct fw_cache *c, int dfd, bool create, uint8_t key[FW_CACHE_KEY_LEN], bool *refused)
{
	*refused = false;
	for (int tries = 0; tries < 2; tries++) {
		uint8_t *data;
		size_t n;
		if (read_own(c, dfd, KEY_FILE, true, FW_CACHE_KEY_LEN, NULL, true, &data, &n)) {
			bool ok = n == FW_CACHE_KEY_LEN;
			if (ok)
				memcpy(key, data, FW_CACHE_KEY_LEN);
			else
				say(c, "the cache key %s/%s has %zu bytes, not %d: not used (remove it for a new one)", c->dir,
				    KEY_FILE, n, FW_CACHE_KEY_LEN);
			free(data);
			*refused = !ok;
			return ok;
		}
		int e = errno;
		if (e == EFBIG)
			say(c, "the cache key %s/%s is longer than %d bytes: not used (remove it for a new one)", c->dir,
			    KEY_FILE, FW_CACHE_KEY_LEN);
		if (e != ENOENT) {
			*refused = true;
			return false;
		}
		uint8_t fresh[FW_CACHE_KEY_LEN];
		char tmp[64];
		if (!create || getrandom(fresh, sizeof(fresh), 0) != (ssize_t)sizeof(fresh) ||
		    !write_temp(dfd, KEY_FILE, fresh, sizeof(fresh), tmp, sizeof(tmp)))
			return false;
		bool linked = linkat(dfd, tmp, dfd, KEY_FILE, 0) == 0;
		unlinkat(dfd, tmp, 0);
		if (linked) {
			memcpy(key, fresh, FW_CACHE_KEY_LEN);
			return true;
		}
		/* another run made it first: read theirs */
	}
	return false;
}

bool fw_cache_trusted(const struct fw_cache *c)
{
	if (!c || !c->dir)
		return false;
	bool refused;
	int dfd = open_dir(c, false, &refused);
	if (dfd < 0)
		return !refused;
	uint8_t key[FW_CACHE_KEY_LEN];
	bool ok = get_key(c, dfd, false, key, &refused) || !refused;
	close(dfd);
	return ok;
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

struct aged {
	char *name;
	time_t when;
	uint64_t size;
};

static int cmp_aged(const void *a, const void *b)
{
	const struct aged *x = a, *y = b;
	return x->when < y->when ? -1 : x->when > y->when;
}

/* Remove the entries used longest ago until what the cache wrote in the folder (entries, their
 * temporary files, the index) fits the bound. Only regular files named as the cache names entries
 * are removed (unlinkat on the name: a link is never followed); other files neither count nor go. */
static void evict(const struct fw_cache *c, int dfd)
{
	uint64_t bound = c->max_bytes ? c->max_bytes : FW_CACHE_MAX_BYTES, total = 0;
	int fd = openat(dfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
	if (!d) {
		if (fd >= 0)
			close(fd);
		return;
	}
	struct aged *v = NULL;
	size_t n = 0, cap = 0;
	time_t now = time(NULL);
	struct dirent *e;
	while ((e = readdir(d)) && n < 100000) {
		bool temp = false, entry = entry_named(e->d_name, &temp);
		struct stat st;
		bool index = strcmp(e->d_name, INDEX_FILE) == 0 || strcmp(e->d_name, NAMES_FILE) == 0;
		if ((!entry && !index) ||
		    fstatat(dfd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISREG(st.st_mode))
			continue;
		total += (uint64_t)st.st_size;
		/* the indexes stay (they have a bound of their own); a young temporary file may be a store under way */
		if (!entry || (temp && now - st.st_mtime < TEMP_STALE_SECONDS))
			continue;
		if (n == cap) {
			cap = cap ? cap * 2 : 64;
			v = fw_xrealloc(v, cap * sizeof(*v));
		}
		v[n++] = (struct aged){fw_xstrdup(e->d_name), st.st_mtime, (uint64_t)st.st_size};
	}
	closedir(d);
	if (n)
		qsort(v, n, sizeof(*v), cmp_aged);
	for (size_t i = 0; i < n; i++) {
		if (total > bound && unlinkat(dfd, v[i].name, 0) == 0)
			total -= v[i].size;
		free(v[i].name);
	}
	free(v);
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
	bool refused;
	int dfd = open_dir(c, true, &refused);
	if (dfd < 0)
		return refused ? fw_error_set(err, FW_E_IO, "%s: the cache folder is not used", c->dir)
			       : fw_error_errno(err, "%s: cannot create the cache folder", c->dir);
	uint8_t key[FW_CACHE_KEY_LEN];
	if (!get_key(c, dfd, true, key, &refused)) {
		close(dfd);
		return refused ? fw_error_set(err, FW_E_IO, "%s/%s: the cache key is not used", c->dir, KEY_FILE)
			       : fw_error_errno(err, "%s/%s: cannot make the cache key", c->dir, KEY_FILE);
	}
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
	uint8_t mac[FW_SHA256_LEN];
	bool ok = fw_cache_mac(key, b.p, b.n, mac);
	put(&b, mac, sizeof(mac));
	if (!ok)
		fw_error_set(err, FW_E_INTERNAL, "the MAC of a cache entry cannot be made (libcrypto)");
	else if (b.n > FW_CACHE_MAX_ENTRY)
		ok = fw_error_set(err, FW_E_LIMIT, "cache entry of %zu bytes is over the %zu MiB limit", b.n,
				  FW_CACHE_MAX_ENTRY >> 20);
	char *name = entry_name(c, sha);
	ok = ok && replace_file(c, dfd, name, b.p, b.n, err);
	free(name);
	free(b.p);
	if (ok)
		evict(c, dfd);
	close(dfd);
	return ok;
}

/* ---- reading ---- */

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

/* Parse an entry; its MAC is checked first with `key`, unless the caller checks it (NULL). */
static bool parse_entry(struct fw_cache_entry *e, const char *sha, const char *rules, const uint8_t *key, char *why,
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
	if (key && !mac_matches(key, e->data, e->len)) {
		snprintf(why, whylen, "its MAC does not verify with the cache's key");
		return false;
	}
	r.v.len = e->len - FW_SHA256_LEN;
	uint32_t format = get32(&r);
	const char *version = r.ok && format == FORMAT ? get_str(&r, &e->arena) : NULL;
	const uint8_t *ikey = get_bytes(&r, 64), *rkey = get_bytes(&r, 64);
	if (!r.ok || !version || strcmp(version, FWLENS_VERSION) != 0 || memcmp(ikey, sha, 64) != 0 ||
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
			/* one run over the whole blob (a module stored whole): a view into the entry's bytes,
			 * which live as long as the entry, instead of a copy */
			if (nruns == 1 && r.off + 16 <= r.v.len && fw_le64(e->data + r.off) == 0 &&
			    fw_le64(e->data + r.off + 8) == len && len > 0) {
				r.off += 16;
				const uint8_t *whole = get_bytes(&r, (size_t)len);
				m->blobs[k].view = fw_view_make(whole, (size_t)len, base);
				continue;
			}
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


/* Parse out->data (out->len bytes, in out->arena); its MAC is checked with `key` unless NULL (the
 * caller checks it). The entry is freed when it does not parse. */
static bool parse_read(const char *sha, const char *rules, const uint8_t *key, struct fw_cache_entry *out, char *why,
		       size_t whylen)
{
	if (parse_entry(out, sha, rules, key, why, whylen))
		return true;
	fw_cache_entry_free(out);
	return false;
}

bool fw_cache_entry_parse(const uint8_t *p, size_t n, const char *sha, const char *rules,
			  const uint8_t key[FW_CACHE_KEY_LEN], struct fw_cache_entry *out, char *why, size_t whylen)
{
	memset(out, 0, sizeof(*out));
	fw_arena_init(&out->arena);
	out->data = fw_arena_memdup(&out->arena, p, n);
	out->len = n;
	return parse_read(sha, rules, key, out, why, whylen);
}

/* The bytes of the entry file of an image into out->data and out->len (in out->arena, initialised
 * here: a private copy, the entry may be replaced while in use) and the key to check them with, or
 * false with why said (out is freed then); *dfd is the opened folder (for the hit's touch), closed
 * by the caller. */
static bool read_entry(const struct fw_cache *c, const char *sha, struct fw_cache_entry *out,
		       uint8_t key[FW_CACHE_KEY_LEN], int *dfd, char *why, size_t whylen)
{
	memset(out, 0, sizeof(*out));
	fw_arena_init(&out->arena);
	*dfd = -1;
	bool refused;
	if (!usable(c, sha)) {
		snprintf(why, whylen, "no cache");
		return false;
	}
	*dfd = open_dir(c, false, &refused);
	if (*dfd < 0) {
		snprintf(why, whylen, "%s: %s", c->dir, refused ? "the cache folder is not used" : "no cache folder");
		return false;
	}
	if (!get_key(c, *dfd, false, key, &refused)) {
		snprintf(why, whylen, "%s/%s: %s", c->dir, KEY_FILE,
			 refused ? "the cache key is not used" : "no cache key");
		close(*dfd);
		*dfd = -1;
		return false;
	}
	char *name = entry_name(c, sha);
	uint8_t *data;
	bool ok = read_own(c, *dfd, name, false, FW_CACHE_MAX_ENTRY, &out->arena, true, &data, &out->len);
	out->data = data;
	if (!ok)
		snprintf(why, whylen, "%s/%s: %s", c->dir, name,
			 errno == EFBIG	   ? "larger than an entry may be"
			 : errno == EPERM  ? "not used"
			 : errno == EAGAIN ? "changed while it was read"
					   : strerror(errno));
	free(name);
	if (!ok) {
		fw_cache_entry_free(out);
		close(*dfd);
		*dfd = -1;
	}
	return ok;
}

/* A hit: the entry is used now, so it is evicted last. */
static void touch_entry(const struct fw_cache *c, int dfd, const char *sha)
{
	char *name = entry_name(c, sha);
	utimensat(dfd, name, NULL, AT_SYMLINK_NOFOLLOW);
	free(name);
	close(dfd);
}

bool fw_cache_load(const struct fw_cache *c, const char *sha, struct fw_cache_entry *out, char *why, size_t whylen)
{
	char dummy[8];
	if (!why) {
		why = dummy;
		whylen = sizeof(dummy);
	}
	uint8_t key[FW_CACHE_KEY_LEN];
	int dfd;
	if (!read_entry(c, sha, out, key, &dfd, why, whylen))
		return false;
	if (!parse_read(sha, c->rules_sha256, key, out, why, whylen)) {
		close(dfd);
		return false;
	}
	touch_entry(c, dfd, sha);
	return true;
}

/* Entries from this size have their MAC checked on a thread of its own (FWLENS_THREADS=1: not). */
#define MAC_THREAD_MIN ((size_t)32 << 10)

struct mac_job {
	const uint8_t *key, *p;
	size_t n;
	bool ok;
};

static void *mac_run(void *arg)
{
	struct mac_job *j = arg;
	j->ok = mac_matches(j->key, j->p, j->n);
	return NULL;
}

bool fw_cache_load_hii(const struct fw_cache *c, const char *sha, struct fw_cache_entry *out, struct fw_hii_db *db,
		       char *why, size_t whylen)
{
	uint8_t key[FW_CACHE_KEY_LEN];
	int dfd;
	if (!read_entry(c, sha, out, key, &dfd, why, whylen))
		return false;
	size_t n = out->len;
	/* the MAC is checked on a second thread while the entry is parsed and its forms decoded
	 * (both read it with bounds, as any input); nothing is used before both are done */
	struct mac_job job = {key, out->data, n, false};
	pthread_t t;
	bool threaded = n >= MAC_THREAD_MIN && n >= FW_SHA256_LEN && fw_prefetch_threads(FW_PREFETCH_MIN_INPUT) > 1 &&
			pthread_create(&t, NULL, mac_run, &job) == 0;
	bool ok = parse_entry(out, sha, c->rules_sha256, threaded ? NULL : key, why, whylen);
	struct fw_error err;
	fw_error_clear(&err);
	if (ok && !fw_cache_entry_hii(out, db, &err)) {
		snprintf(why, whylen, "%s", err.msg);
		ok = false;
	}
	if (threaded) {
		pthread_join(t, NULL);
		if (ok && !job.ok) {
			snprintf(why, whylen, "its MAC does not verify with the cache's key");
			ok = false;
		}
	}
	if (!ok) {
		fw_cache_entry_free(out); /* the caller closes the db, which points into it */
		close(dfd);
		return false;
	}
	touch_entry(c, dfd, sha);
	return true;
}

void fw_cache_entry_free(struct fw_cache_entry *e)
{
	fw_arena_free(&e->arena); /* the entry's bytes too */
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

/* A line of images.idx: "SHA256 SIZE MTIME-NS INODE HMAC PATH". */
struct idx_line {
	char sha[65], mac[65], path[4097];
	unsigned long long size, mtime, ino;
};

/* The hex MAC of a line: over its text without the MAC. */
static bool idx_mac(const uint8_t key[FW_CACHE_KEY_LEN], const char *sha, unsigned long long size,
		    unsigned long long mtime, unsigned long long ino, const char *path, char hex[FW_SHA256_HEX_LEN])
{
	char *text = fw_xasprintf("%s %llu %llu %llu %s", sha, size, mtime, ino, path);
	uint8_t mac[FW_SHA256_LEN];
	bool ok = fw_cache_mac(key, (const uint8_t *)text, strlen(text), mac);
	fw_hex(mac, sizeof(mac), hex);
	free(text);
	return ok;
}

/* Parse the line p[0..n) (without its line feed); false when it does not parse. */
static bool idx_parse(const char *p, size_t n, struct idx_line *l)
{
	char text[4400];
	if (n >= sizeof(text))
		return false;
	memcpy(text, p, n);
	text[n] = 0;
	return sscanf(text, "%64s %llu %llu %llu %64s %4096[^\n]", l->sha, &l->size, &l->mtime, &l->ino, l->mac,
		      l->path) == 6 &&
	       hex_ok(l->sha) && hex_ok(l->mac);
}

static bool idx_verified(const struct idx_line *l, const uint8_t key[FW_CACHE_KEY_LEN])
{
	char want[FW_SHA256_HEX_LEN];
	return idx_mac(key, l->sha, l->size, l->mtime, l->ino, l->path, want) && CRYPTO_memcmp(want, l->mac, 64) == 0;
}

/* The hash remembered for `key` (a path) when the file it names still has the size, mtime and inode
 * of `st`, from a line whose MAC verifies. The index is read only when it is the user's own and at
 * most FW_CACHE_MAX_INDEX bytes (longer: not read, and rebuilt when a line is next remembered); a
 * line that does not parse or verify is skipped. */
static bool idx_lookup(const struct fw_cache *c, const char *key, const struct stat *st, char out[FW_SHA256_HEX_LEN])
{
	if (!c || !c->dir)
		return false;
	bool refused, found = false;
	int dfd = open_dir(c, false, &refused);
	if (dfd < 0)
		return false;
	uint8_t k[FW_CACHE_KEY_LEN], *data = NULL;
	size_t n = 0;
	if (get_key(c, dfd, false, k, &refused) &&
	    read_own(c, dfd, INDEX_FILE, false, FW_CACHE_MAX_INDEX, NULL, false, &data, &n)) {
		struct idx_line *l = fw_xmalloc(sizeof(*l));
		const char *line;
		size_t at = 0, len;
		while (!found && fw_next_line((const char *)data, n, &at, &line, &len))
			found = idx_parse(line, len, l) && strcmp(l->path, key) == 0 &&
				l->size == (unsigned long long)st->st_size && l->mtime == mtime_ns(st) &&
				l->ino == (unsigned long long)st->st_ino && idx_verified(l, k);
		if (found)
			memcpy(out, l->sha, FW_SHA256_HEX_LEN);
		free(l);
	}
	free(data);
	close(dfd);
	return found;
}

/* Append a line to an index (images.idx, pci-names.idx) when it is the user's own regular file and
 * stays in its bound, in one write (a run at the same time tears no line); false when it is not to
 * be appended to. */
static bool idx_append(int dfd, const char *file, const char *line)
{
	int fd = openat(dfd, file, O_WRONLY | O_APPEND | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return false;
	struct stat st;
	char why[160];
	size_t len = strlen(line);
	bool ok = fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && !not_own(&st, false, why, sizeof(why)) &&
		  (uint64_t)st.st_size + len <= FW_CACHE_MAX_INDEX && write(fd, line, len) == (ssize_t)len;
	close(fd);
	return ok;
}

/* A new index in place of one that is absent, full, or not the user's own: the newest lines of the
 * old one that verify, in half the bound (when it was readable), then `line`. */
static void idx_rebuild(const struct fw_cache *c, int dfd, const uint8_t key[FW_CACHE_KEY_LEN], const char *line)
{
	uint8_t *data = NULL;
	size_t n = 0, nkept = 0, kept = strlen(line);
	struct range *v = NULL;
	if (read_own(c, dfd, INDEX_FILE, false, FW_CACHE_MAX_INDEX, NULL, false, &data, &n)) {
		struct idx_line *l = fw_xmalloc(sizeof(*l));
		const char *p;
		size_t at = 0, len, cap = 0;
		while (fw_next_line((const char *)data, n, &at, &p, &len))
			if (idx_parse(p, len, l) && idx_verified(l, key)) {
				if (nkept == cap) {
					cap = cap ? cap * 2 : 64;
					v = fw_xrealloc(v, cap * sizeof(*v));
				}
				v[nkept++] = (struct range){(size_t)(p - (const char *)data), len + 1};
			}
		free(l);
	}
	size_t first = nkept;
	while (first > 0 && kept + v[first - 1].b <= FW_CACHE_MAX_INDEX / 2)
		kept += v[--first].b;
	struct buf b = {0};
	for (size_t i = first; i < nkept; i++) {
		put(&b, data + v[i].a, v[i].b - 1);
		put(&b, "\n", 1);
	}
	put(&b, line, strlen(line));
	struct fw_error err;
	fw_error_clear(&err);
	replace_file(c, dfd, INDEX_FILE, b.p, b.n, &err);
	free(b.p);
	free(v);
	free(data);
}

static void idx_remember(const struct fw_cache *c, const char *key, const struct stat *st, const char *sha)
{
	if (!c || !c->dir || strchr(key, '\n') || strlen(key) > 4096)
		return;
	bool refused;
	int dfd = open_dir(c, true, &refused);
	if (dfd < 0)
		return;
	uint8_t k[FW_CACHE_KEY_LEN];
	if (get_key(c, dfd, true, k, &refused)) {
		char mac[FW_SHA256_HEX_LEN];
		unsigned long long size = (unsigned long long)st->st_size, ino = (unsigned long long)st->st_ino;
		if (idx_mac(k, sha, size, mtime_ns(st), ino, key, mac)) {
			char *line = fw_xasprintf("%s %llu %llu %llu %s %s\n", sha, size, mtime_ns(st), ino, mac, key);
			if (!idx_append(dfd, INDEX_FILE, line))
				idx_rebuild(c, dfd, k, line);
			free(line);
		}
	}
	close(dfd);
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

/* ---- PCI names libpci found (tools/host/pci-names.h) ---- */

/* The hex MAC of a names line: over "VVVV DDDD DATABASE<tab>NAME". */
static bool names_mac(const uint8_t key[FW_CACHE_KEY_LEN], uint16_t vendor, uint16_t device, const char *db,
		      const char *name, char hex[FW_SHA256_HEX_LEN])
{
	char *text = fw_xasprintf("%04x %04x %s\t%s", vendor, device, db, name);
	uint8_t mac[FW_SHA256_LEN];
	bool ok = fw_cache_mac(key, (const uint8_t *)text, strlen(text), mac);
	fw_hex(mac, sizeof(mac), hex);
	free(text);
	return ok;
}

/* The file and the key, once per run, when both are the user's own (read_own). */
static void names_read(struct fw_cache_names *n)
{
	n->read = true;
	bool refused;
	int dfd = open_dir(n->cache, false, &refused);
	if (dfd < 0)
		return;
	uint8_t *data = NULL;
	size_t len = 0;
	n->keyed = get_key(n->cache, dfd, false, n->key, &refused);
	if (n->keyed && read_own(n->cache, dfd, NAMES_FILE, false, FW_CACHE_MAX_INDEX, NULL, false, &data, &len)) {
		n->text = (char *)data;
		n->len = len;
	} else {
		free(data);
	}
	close(dfd);
}

static bool names_recall(void *ctx, const char *db, uint16_t vendor, uint16_t device, char *name, size_t len)
{
	struct fw_cache_names *n = ctx;
	if (!n->read)
		names_read(n);
	if (!n->keyed || !n->text)
		return false;
	char head[16];
	snprintf(head, sizeof(head), "%04x %04x ", vendor, device);
	const size_t dblen = strlen(db), at_db = 10 + 64 + 1; /* "VVVV DDDD " HMAC ' ' */
	const char *line;
	size_t at = 0, ll;
	while (fw_next_line(n->text, n->len, &at, &line, &ll)) {
		if (ll < at_db + dblen + 1 || memcmp(line, head, 10) != 0 || !hex_run(line + 10, 64) ||
		    line[74] != ' ' || memcmp(line + at_db, db, dblen) != 0 || line[at_db + dblen] != '\t')
			continue;
		const char *nm = line + at_db + dblen + 1;
		size_t nl = ll - at_db - dblen - 1;
		if (nl >= len || memchr(nm, '\0', nl))
			continue;
		memcpy(name, nm, nl);
		name[nl] = 0;
		char want[FW_SHA256_HEX_LEN];
		if (names_mac(n->key, vendor, device, db, name, want) && CRYPTO_memcmp(want, line + 10, 64) == 0)
			return true;
	}
	return false;
}

/* Only into a cache folder and key that exist (made by the first store of an entry): naming
 * devices alone makes no cache folder. */
static void names_remember(void *ctx, const char *db, uint16_t vendor, uint16_t device, const char *name)
{
	struct fw_cache_names *n = ctx;
	if (strpbrk(name, "\t\n") || strchr(db, '\n'))
		return;
	bool refused;
	int dfd = open_dir(n->cache, false, &refused);
	if (dfd < 0)
		return;
	uint8_t key[FW_CACHE_KEY_LEN];
	char mac[FW_SHA256_HEX_LEN];
	if (get_key(n->cache, dfd, false, key, &refused) && names_mac(key, vendor, device, db, name, mac)) {
		char *line = fw_xasprintf("%04x %04x %s %s\t%s\n", vendor, device, mac, db, name);
		size_t ll = strlen(line);
		struct fw_error err;
		fw_error_clear(&err);
		if (!idx_append(dfd, NAMES_FILE, line))
			replace_file(n->cache, dfd, NAMES_FILE, (const uint8_t *)line, ll, &err);
		/* asked again in this run (a GPU of the same model): recalled from here */
		if (!n->keyed || memcmp(n->key, key, sizeof(key)) != 0) {
			free(n->text);
			n->text = NULL;
			n->len = 0;
		}
		memcpy(n->key, key, sizeof(key));
		n->keyed = n->read = true;
		n->text = fw_xrealloc(n->text, n->len + ll + 1);
		if (n->len && n->text[n->len - 1] != '\n') /* a torn last line stays apart */
			n->text[n->len++] = '\n';
		memcpy(n->text + n->len, line, ll);
		n->len += ll;
		free(line);
	}
	close(dfd);
}

void fw_cache_names_use(struct fw_cache_names *n, const struct fw_cache *c)
{
	memset(n, 0, sizeof(*n));
	n->cache = c;
	n->memo = (struct fw_pci_names_memo){names_recall, names_remember, n};
	fw_pci_names_memo(c && c->dir ? &n->memo : NULL);
}
