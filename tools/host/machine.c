/* Machine roots: a folder (live "/" or a sysroot) read through root-confined path resolution, or
 * a snapshot whose members live in memory. */
#include "machine.h"
#include "kernel-log.h"
#include "parsers/file.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "parsers/json-text.h"

#include "parsers/strmap.h"

#define MAX_LINK_HOPS 40
#define MAX_COMPONENTS 256

struct machine_file {
	uint8_t *data;
	size_t len;
	bool in_place; /* the snapshot file's bytes, not the machine's to free */
	int err_code; /* errno when unreadable (folder) */
};

struct fw_machine {
	enum fw_machine_kind kind;
	char *path;
	int root_fd;
	struct fw_strmap files;  /* rel -> struct machine_file* (cache for folders, members for snapshots) */
	struct fw_strmap links;  /* rel -> char* target (machine-relative) */
	struct fw_strmap nodes;  /* snapshot: rel -> (void*)1 for every directory and special node */
	json_t *manifest_doc;
	char *manifest_src; /* the manifest as stored, parsed into manifest_doc when first asked for */
	size_t manifest_src_len;
	bool manifest_src_in_place; /* in the snapshot's file: not freed */
	char *created;      /* the manifest's "created", read with its links while manifest_src waits */
	char *manifest; /* its text, made on demand */
	const char *kernel_log_from; /* where fw_machine_kernel_log read it: "/dev/kmsg", "dmesg", "var/log/dmesg" */
	struct fw_file archive; /* the snapshot's file, when its members are read in place */
};

void fw_strlist_push(struct fw_strlist *l, const char *s)
{
	if (l->count == l->cap) {
		l->cap = l->cap ? l->cap * 2 : 16;
		l->items = fw_xrealloc(l->items, l->cap * sizeof(char *));
	}
	l->items[l->count++] = fw_xstrdup(s);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

void fw_strlist_sort(struct fw_strlist *l)
{
	if (l->count > 1)
		qsort(l->items, l->count, sizeof(char *), cmp_str);
}

void fw_strlist_free(struct fw_strlist *l)
{
	for (size_t i = 0; i < l->count; i++)
		free(l->items[i]);
	free(l->items);
	memset(l, 0, sizeof(*l));
}

static struct fw_machine *machine_new(enum fw_machine_kind kind, const char *path)
{
	struct fw_machine *m = fw_xcalloc(1, sizeof(*m));
	m->kind = kind;
	m->path = fw_xstrdup(path);
	m->root_fd = -1;
	fw_strmap_init(&m->files);
	fw_strmap_init(&m->links);
	fw_strmap_init(&m->nodes);
	return m;
}

struct fw_machine *fw_machine_new_snapshot(const char *path)
{
	return machine_new(FW_MACHINE_SNAPSHOT, path);
}

/* Record every parent directory of rel so listings of snapshots see it. */
static void add_parents(struct fw_machine *m, const char *rel)
{
	char buf[4096];
	snprintf(buf, sizeof(buf), "%s", rel);
	for (char *slash = strrchr(buf, '/'); slash; slash = strrchr(buf, '/')) {
		*slash = '\0';
		if (fw_strmap_has(&m->nodes, buf))
			break;
		fw_strmap_put(&m->nodes, buf, (void *)1);
	}
}

static void free_file(void *v);

static void add_file(struct fw_machine *m, const char *rel, uint8_t *data, size_t len, bool in_place)
{
	struct machine_file *f = fw_xcalloc(1, sizeof(*f));
	f->data = data;
	f->len = len;
	f->in_place = in_place;
	free_file(fw_strmap_put(&m->files, rel, f));
	add_parents(m, rel);
}

void fw_machine_add_file(struct fw_machine *m, const char *rel, uint8_t *data_taken, size_t len)
{
	add_file(m, rel, data_taken, len, false);
}

void fw_machine_add_file_in_place(struct fw_machine *m, const char *rel, const uint8_t *data, size_t len)
{
	add_file(m, rel, (uint8_t *)data, len, true); /* never written through: fw_machine_read gives const bytes */
}

void fw_machine_keep_archive(struct fw_machine *m, struct fw_file *taken)
{
	m->archive = *taken;
	memset(taken, 0, sizeof(*taken));
}

void fw_machine_add_link(struct fw_machine *m, const char *rel, const char *target)
{
	free(fw_strmap_put(&m->links, rel, fw_xstrdup(target)));
	add_parents(m, rel);
}

void fw_machine_add_node(struct fw_machine *m, const char *rel)
{
	fw_strmap_put(&m->nodes, rel, (void *)1);
	add_parents(m, rel);
}

/* the stored text, freed unless it is the snapshot file's */
static void drop_manifest_src(struct fw_machine *m)
{
	if (!m->manifest_src_in_place)
		free(m->manifest_src);
	m->manifest_src = NULL;
	m->manifest_src_in_place = false;
}

void fw_machine_set_manifest(struct fw_machine *m, json_t *doc_taken)
{
	json_decref(m->manifest_doc);
	free(m->manifest);
	drop_manifest_src(m);
	free(m->created);
	m->manifest_doc = doc_taken;
	m->manifest = m->manifest_src = m->created = NULL;
}

void fw_machine_set_manifest_text(struct fw_machine *m, const char *text, size_t len, bool in_place, const char *created)
{
	fw_machine_set_manifest(m, NULL);
	m->manifest_src = (char *)text; /* only read, never written */
	m->manifest_src_len = len;
	m->manifest_src_in_place = in_place;
	m->created = created ? fw_xstrdup(created) : NULL;
}

const char *fw_machine_created(const struct fw_machine *m)
{
	if (m->manifest_src)
		return m->created;
	return json_string_value(json_object_get(m->manifest_doc, "created"));
}

const json_t *fw_machine_manifest(const struct fw_machine *m)
{
	struct fw_machine *w = (struct fw_machine *)m; /* parsed once, on demand */
	if (!w->manifest_doc && w->manifest_src) {
		w->manifest_doc = json_loadb(w->manifest_src, w->manifest_src_len, 0, NULL);
		drop_manifest_src(w);
	}
	return w->manifest_doc;
}

const char *fw_machine_manifest_json(const struct fw_machine *m)
{
	struct fw_machine *w = (struct fw_machine *)m; /* the text is made once, on demand */
	if (!w->manifest && fw_machine_manifest(m))
		w->manifest = fw_json_dumps(w->manifest_doc, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	return w->manifest;
}

enum fw_machine_kind fw_machine_kind(const struct fw_machine *m)
{
	return m->kind;
}

const char *fw_machine_path(const struct fw_machine *m)
{
	return m->path;
}

bool fw_machine_open(const char *path, struct fw_machine **out, struct fw_error *err)
{
	struct stat st;
	if (strcmp(path, "-") == 0)
		return fw_snapshot_load(path, out, err);
	if (stat(path, &st) != 0)
		return fw_error_errno(err, "%s: cannot open", path);
	if (!S_ISDIR(st.st_mode))
		return fw_snapshot_load(path, out, err);
	int fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return fw_error_errno(err, "%s: cannot open the folder", path);
	struct fw_machine *m = machine_new(FW_MACHINE_FOLDER, path);
	m->root_fd = fd;
	*out = m;
	return true;
}

static void free_file(void *v)
{
	struct machine_file *f = v;
	if (f) {
		if (!f->in_place)
			free(f->data);
		free(f);
	}
}

void fw_machine_close(struct fw_machine *m)
{
	if (!m)
		return;
	const char *k;
	void *v;
	for (size_t i = 0; fw_strmap_next(&m->files, &i, &k, &v);)
		free_file(v);
	for (size_t i = 0; fw_strmap_next(&m->links, &i, &k, &v);)
		free(v);
	fw_strmap_free(&m->files);
	fw_strmap_free(&m->links);
	fw_strmap_free(&m->nodes);
	if (m->root_fd >= 0)
		close(m->root_fd);
	free(m->manifest);
	drop_manifest_src(m);
	fw_file_close(&m->archive); /* after everything read in place from it */
	free(m->created);
	json_decref(m->manifest_doc);
	free(m->path);
	free(m);
}

/* --- root-confined path resolution (folders) ------------------------------------------------ */

struct comp_stack {
	char *items[MAX_COMPONENTS];
	size_t n;
};

static void stack_clear(struct comp_stack *s)
{
	for (size_t i = 0; i < s->n; i++)
		free(s->items[i]);
	s->n = 0;
}

static void join(const struct comp_stack *s, size_t upto, char *out, size_t len)
{
	size_t used = 0;
	out[0] = '\0';
	for (size_t i = 0; i < upto && used < len; i++) {
		int w = snprintf(out + used, len - used, "%s%s", i ? "/" : "", s->items[i]);
		if (w < 0)
			break;
		used += (size_t)w;
	}
	if (upto == 0)
		snprintf(out, len, ".");
}

/* Split `path` and push its components in front of the pending list (processed left to right). */
static bool push_pending(struct comp_stack *pending, const char *path)
{
	char *copy = fw_xstrdup(path);
	char *parts[MAX_COMPONENTS];
	size_t n = 0;
	char *save = NULL;
	for (char *tok = strtok_r(copy, "/", &save); tok; tok = strtok_r(NULL, "/", &save)) {
		if (n == MAX_COMPONENTS) {
			free(copy);
			return false;
		}
		parts[n++] = tok;
	}
	if (pending->n + n > MAX_COMPONENTS) {
		free(copy);
		return false;
	}
	/* pending is a stack whose top (end) is the next component to process */
	for (size_t i = n; i-- > 0;)
		pending->items[pending->n++] = fw_xstrdup(parts[i]);
	free(copy);
	return true;
}

/* Resolve rel to a symlink-free path inside the root. follow_last: resolve a final symlink too. */
static bool resolve(struct fw_machine *m, const char *rel, bool follow_last, char *out, size_t outlen, int *err_no)
{
	struct comp_stack done = {0}, pending = {0};
	unsigned hops = 0;
	bool ok = push_pending(&pending, rel);
	while (ok && pending.n) {
		char *c = pending.items[--pending.n];
		if (strcmp(c, ".") == 0 || c[0] == '\0') {
			free(c);
			continue;
		}
		if (strcmp(c, "..") == 0) {
			free(c);
			if (done.n)
				free(done.items[--done.n]);
			continue;
		}
		if (done.n == MAX_COMPONENTS) {
			free(c);
			ok = false;
			*err_no = ENAMETOOLONG;
			break;
		}
		done.items[done.n++] = c;
		bool last = pending.n == 0;
		if (last && !follow_last)
			break;
		char cand[4096];
		join(&done, done.n, cand, sizeof(cand));
		struct stat st;
		if (fstatat(m->root_fd, cand, &st, AT_SYMLINK_NOFOLLOW) != 0) {
			*err_no = errno;
			ok = false;
			break;
		}
		if (!S_ISLNK(st.st_mode))
			continue;
		if (++hops > MAX_LINK_HOPS) {
			*err_no = ELOOP;
			ok = false;
			break;
		}
		char target[4096];
		ssize_t n = readlinkat(m->root_fd, cand, target, sizeof(target) - 1);
		if (n < 0) {
			*err_no = errno;
			ok = false;
			break;
		}
		target[n] = '\0';
		free(done.items[--done.n]); /* the link itself is replaced by its target */
		if (target[0] == '/')
			stack_clear(&done); /* absolute targets are taken relative to the root */
		if (!push_pending(&pending, target)) {
			*err_no = ENAMETOOLONG;
			ok = false;
		}
	}
	if (ok)
		join(&done, done.n, out, outlen);
	stack_clear(&done);
	stack_clear(&pending);
	return ok;
}

/* Open a symlink-free relative path, refusing any symlink met on the way. */
static int open_confined(struct fw_machine *m, const char *resolved, int flags)
{
	if (strcmp(resolved, ".") == 0)
		return openat(m->root_fd, ".", flags | O_CLOEXEC);
	char buf[4096];
	snprintf(buf, sizeof(buf), "%s", resolved);
	int dir = dup(m->root_fd);
	char *save = NULL;
	char *c = strtok_r(buf, "/", &save);
	while (c && dir >= 0) {
		char *next = strtok_r(NULL, "/", &save);
		int fd = openat(dir, c, (next ? O_RDONLY | O_DIRECTORY : flags) | O_NOFOLLOW | O_CLOEXEC);
		close(dir);
		dir = fd;
		c = next;
	}
	return dir;
}

static struct machine_file *folder_read(struct fw_machine *m, const char *rel)
{
	struct machine_file *f = fw_strmap_get(&m->files, rel);
	if (f)
		return f;
	f = fw_xcalloc(1, sizeof(*f));
	char resolved[4096];
	int e = 0;
	if (!resolve(m, rel, true, resolved, sizeof(resolved), &e)) {
		f->err_code = e ? e : ENOENT;
	} else {
		int fd = open_confined(m, resolved, O_RDONLY | O_NONBLOCK);
		struct stat st;
		if (fd < 0) {
			f->err_code = errno;
		} else if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
			f->err_code = S_ISDIR(st.st_mode) ? EISDIR : EINVAL;
		} else if ((uint64_t)st.st_size > FW_MACHINE_FILE_CAP) {
			f->err_code = EFBIG; /* known too large: not 128 MiB read for nothing (sysfs sizes are 4096) */
		} else {
			bool over = false;
			if (!fw_file_read_fd(fd, rel, FW_MACHINE_FILE_CAP, &f->data, &f->len, &over, NULL))
				f->err_code = over ? EFBIG : errno;
		}
		if (fd >= 0)
			close(fd);
	}
	fw_strmap_put(&m->files, rel, f);
	return f;
}

bool fw_machine_read(struct fw_machine *m, const char *rel, struct fw_blob *out, struct fw_error *err)
{
	struct machine_file *f;
	if (m->kind == FW_MACHINE_FOLDER) {
		f = folder_read(m, rel);
	} else {
		f = fw_strmap_get(&m->files, rel);
		const char *alias = f ? NULL : fw_strmap_get(&m->links, rel);
		if (alias) /* a file captured once under another path (the same device and inode) */
			f = fw_strmap_get(&m->files, alias);
		if (!f) {
			/* a member stored under a linked directory: resolve links in the snapshot */
			const char *target = NULL;
			char buf[4096];
			snprintf(buf, sizeof(buf), "%s", rel);
			for (char *slash = strrchr(buf, '/'); slash && !target; slash = strrchr(buf, '/')) {
				*slash = '\0';
				target = fw_strmap_get(&m->links, buf);
				if (target) {
					char joined[4096];
					snprintf(joined, sizeof(joined), "%s/%s", target, rel + strlen(buf) + 1);
					f = fw_strmap_get(&m->files, joined);
				}
			}
		}
		if (!f)
			return fw_error_set(err, FW_E_NOT_FOUND, "%s: not in the snapshot %s", rel, m->path);
	}
	if (f->err_code) {
		errno = f->err_code;
		return fw_error_errno(err, "%s/%s", m->path, rel);
	}
	out->data = f->data ? f->data : (const uint8_t *)"";
	out->len = f->len;
	return true;
}

char *fw_machine_read_text(struct fw_machine *m, const char *rel)
{
	struct fw_blob b;
	if (!fw_machine_read(m, rel, &b, NULL))
		return NULL;
	size_t n = b.len;
	while (n && (b.data[n - 1] == '\n' || b.data[n - 1] == ' ' || b.data[n - 1] == '\0' || b.data[n - 1] == '\r'))
		n--;
	char *s = fw_xstrndup((const char *)b.data, n);
	for (char *p = s; *p; p++)
		if ((unsigned char)*p < 0x20 && *p != '\n' && *p != '\t')
			*p = ' ';
	return s;
}

bool fw_machine_exists(struct fw_machine *m, const char *rel)
{
	if (m->kind == FW_MACHINE_SNAPSHOT)
		return fw_strmap_has(&m->files, rel) || fw_strmap_has(&m->links, rel) || fw_strmap_has(&m->nodes, rel);
	char resolved[4096];
	int e = 0;
	if (!resolve(m, rel, true, resolved, sizeof(resolved), &e))
		return false;
	struct stat st;
	return fstatat(m->root_fd, resolved, &st, AT_SYMLINK_NOFOLLOW) == 0;
}

bool fw_machine_identity(struct fw_machine *m, const char *rel, uint64_t *dev, uint64_t *ino)
{
	char resolved[4096];
	int e = 0;
	struct stat st;
	if (m->kind != FW_MACHINE_FOLDER || !resolve(m, rel, true, resolved, sizeof(resolved), &e) ||
	    fstatat(m->root_fd, resolved, &st, AT_SYMLINK_NOFOLLOW) != 0)
		return false;
	*dev = (uint64_t)st.st_dev;
	*ino = (uint64_t)st.st_ino;
	return true;
}

/* Lexically join a link's text to the folder it sits in, confined to the root. */
static char *lexical_target(const char *dir, const char *text)
{
	struct comp_stack st = {0};
	char buf[8192];
	snprintf(buf, sizeof(buf), "%s/%s", text[0] == '/' ? "" : dir, text);
	char *save = NULL;
	for (char *c = strtok_r(buf, "/", &save); c; c = strtok_r(NULL, "/", &save)) {
		if (strcmp(c, ".") == 0)
			continue;
		if (strcmp(c, "..") == 0) {
			if (st.n)
				free(st.items[--st.n]);
			continue;
		}
		if (st.n == MAX_COMPONENTS)
			break;
		st.items[st.n++] = fw_xstrdup(c);
	}
	char out[4096];
	join(&st, st.n, out, sizeof(out));
	stack_clear(&st);
	return fw_xstrdup(out);
}

const char *fw_machine_link(struct fw_machine *m, const char *rel)
{
	const char *cached = fw_strmap_get(&m->links, rel);
	if (cached || m->kind == FW_MACHINE_SNAPSHOT)
		return cached;
	/* Resolve the parent fully, then read the entry's own link text; the target need not exist
	 * (a driver's folder outside a sysroot), only its path is wanted. */
	char parent[4096], resolved_parent[4096];
	snprintf(parent, sizeof(parent), "%s", rel);
	char *slash = strrchr(parent, '/');
	const char *base = rel;
	if (slash) {
		*slash = '\0';
		base = rel + (slash - parent) + 1;
	} else {
		snprintf(parent, sizeof(parent), ".");
	}
	int e = 0;
	if (!resolve(m, parent, true, resolved_parent, sizeof(resolved_parent), &e))
		return NULL;
	char entry[4096];
	snprintf(entry, sizeof(entry), "%s/%s", resolved_parent, base);
	char text[4096];
	ssize_t n = readlinkat(m->root_fd, entry, text, sizeof(text) - 1);
	if (n < 0)
		return NULL;
	text[n] = '\0';
	char *target = lexical_target(strcmp(resolved_parent, ".") == 0 ? "" : resolved_parent, text);
	fw_strmap_put(&m->links, rel, target);
	return target;
}

bool fw_machine_list(struct fw_machine *m, const char *rel_dir, struct fw_strlist *out)
{
	memset(out, 0, sizeof(*out));
	if (m->kind == FW_MACHINE_SNAPSHOT) {
		/* the directory may itself be a link */
		const char *dir = rel_dir;
		const char *target = fw_strmap_get(&m->links, rel_dir);
		if (target)
			dir = target;
		if (!fw_strmap_has(&m->nodes, dir))
			return false;
		size_t dlen = strlen(dir);
		struct fw_strmap seen;
		fw_strmap_init(&seen);
		const struct fw_strmap *maps[3] = {&m->files, &m->links, &m->nodes};
		for (int k = 0; k < 3; k++) {
			const char *key;
			for (size_t i = 0; fw_strmap_next(maps[k], &i, &key, NULL);) {
				if (strncmp(key, dir, dlen) != 0 || key[dlen] != '/')
					continue;
				const char *rest = key + dlen + 1;
				const char *sl = strchr(rest, '/');
				char name[1024];
				snprintf(name, sizeof(name), "%.*s", (int)(sl ? (size_t)(sl - rest) : strlen(rest)), rest);
				if (!fw_strmap_has(&seen, name)) {
					fw_strmap_put(&seen, name, NULL);
					fw_strlist_push(out, name);
				}
			}
		}
		fw_strmap_free(&seen);
		fw_strlist_sort(out);
		return true;
	}
	char resolved[4096];
	int e = 0;
	if (!resolve(m, rel_dir, true, resolved, sizeof(resolved), &e))
		return false;
	int fd = open_confined(m, resolved, O_RDONLY | O_DIRECTORY);
	if (fd < 0)
		return false;
	DIR *d = fdopendir(fd);
	if (!d) {
		close(fd);
		return false;
	}
	struct dirent *de;
	while ((de = readdir(d))) {
		if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
			continue;
		fw_strlist_push(out, de->d_name);
	}
	closedir(d);
	fw_strlist_sort(out);
	return true;
}

bool fw_machine_kernel_log(struct fw_machine *m, struct fw_blob *out, char *why, size_t whylen)
{
	struct fw_error err;
	fw_error_clear(&err);
	char real[4096];
	bool live = m->kind == FW_MACHINE_FOLDER && realpath(m->path, real) && strcmp(real, "/") == 0;
	if (live && !m->kernel_log_from) {
		/* the running kernel's log, once: var/log/dmesg is only what a boot-time service saved */
		uint8_t *data;
		size_t len;
		char why_kmsg[160] = "", why_dmesg[160] = "";
		if (fw_kernel_log_kmsg("/dev/kmsg", &data, &len, why_kmsg, sizeof(why_kmsg)))
			m->kernel_log_from = "/dev/kmsg";
		else if (fw_kernel_log_dmesg(&data, &len, why_dmesg, sizeof(why_dmesg)))
			m->kernel_log_from = "dmesg";
		if (m->kernel_log_from) {
			fw_machine_add_file(m, "var/log/dmesg", data, len);
			return fw_machine_read(m, "var/log/dmesg", out, NULL);
		}
		m->kernel_log_from = "var/log/dmesg";
		if (fw_machine_read(m, "var/log/dmesg", out, &err))
			return true;
		snprintf(why, whylen, "/dev/kmsg: %s; dmesg: %s; no var/log/dmesg", why_kmsg, why_dmesg);
		return false;
	}
	if (fw_machine_read(m, "var/log/dmesg", out, &err)) {
		if (!m->kernel_log_from)
			m->kernel_log_from = "var/log/dmesg";
		return true;
	}
	if (m->kind == FW_MACHINE_FOLDER && fw_machine_exists(m, "var/log/dmesg")) {
		snprintf(why, whylen, "%s", err.msg); /* there, but unreadable or over the size cap */
		return false;
	}
	if (m->kind == FW_MACHINE_SNAPSHOT) {
		snprintf(why, whylen, "the snapshot holds no kernel log");
		return false;
	}
	snprintf(why, whylen, "no var/log/dmesg in the root folder (snapshot capture --dmesg FILE adds one)");
	return false;
}

const char *fw_machine_kernel_log_from(const struct fw_machine *m)
{
	return m->kernel_log_from ? m->kernel_log_from : "var/log/dmesg";
}
