/* Tables from a folder laid out like /sys/firmware/acpi/tables: one file per table (DSDT, FACP,
 * SSDT1..n, ...), dynamically loaded tables in dynamic/, and data/ (BERT regions and the like,
 * not tables) skipped. Any other file that does not start like a table is skipped with a note,
 * so a folder of acpixtract .dat files works too. Files are read in natural order (SSDT2 before
 * SSDT10), top level first, then dynamic/. A link is followed only while it stays inside the folder
 * given (a link out of it is skipped with a warning), as snapshot capture confines links to its root. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "acpi/rsdp.h"
#include "acpi/set.h"
#include "parsers/file.h"

/* Table files are small; a sysfs DSDT of a big server is a few MiB. */
#define FOLDER_FILE_CAP ((size_t)256 << 20)

static int natural_cmp(const void *x, const void *y)
{
	const char *a = *(const char *const *)x, *b = *(const char *const *)y;
	while (*a && *b) {
		if (*a >= '0' && *a <= '9' && *b >= '0' && *b <= '9') {
			char *ea, *eb;
			unsigned long long na = strtoull(a, &ea, 10), nb = strtoull(b, &eb, 10);
			if (na != nb)
				return na < nb ? -1 : 1;
			a = ea;
			b = eb;
			continue;
		}
		if (*a != *b)
			return (unsigned char)*a < (unsigned char)*b ? -1 : 1;
		a++;
		b++;
	}
	return *a ? 1 : *b ? -1 : 0;
}

struct names {
	char **v;
	size_t n, cap;
};

static bool add_name(struct names *out, const char *name, const char *dir, struct fw_error *err)
{
	if (out->n >= FW_ACPI_MAX_TABLES)
		return fw_error_set(err, FW_E_LIMIT, "%s: more than %d files", dir, FW_ACPI_MAX_TABLES);
	if (out->n == out->cap) {
		out->cap = out->cap ? out->cap * 2 : 64;
		out->v = fw_xrealloc(out->v, out->cap * sizeof(*out->v));
	}
	out->v[out->n++] = fw_xstrdup(name);
	return true;
}

static void free_names(struct names *n)
{
	for (size_t i = 0; i < n->n; i++)
		free(n->v[i]);
	free(n->v);
}

/* ---- the file system as a source of files ---- */

static bool disk_list(void *ctx, const char *dir, char ***names, size_t *n, struct fw_error *err)
{
	(void)ctx;
	DIR *d = opendir(dir);
	if (!d)
		return fw_error_errno(err, "%s: cannot open the folder", dir);
	struct names out = {0};
	struct dirent *e;
	bool ok = true;
	while (ok && (e = readdir(d)))
		if (e->d_name[0] != '.')
			ok = add_name(&out, e->d_name, dir, err);
	closedir(d);
	if (!ok) {
		free_names(&out);
		return false;
	}
	*names = out.v;
	*n = out.n;
	return true;
}

/* path with every link resolved, when it stays inside the folder read; NULL (and *outside set)
 * when a link leads out of it, as snapshot capture confines links to its root. */
static char *confined(const struct fw_acpi_disk *dk, const char *path, bool *outside)
{
	*outside = false;
	char *real = realpath(path, NULL);
	if (!real || !dk->root)
		return real;
	size_t n = strlen(dk->root);
	if (strncmp(real, dk->root, n) == 0 && (real[n] == '/' || real[n] == '\0' || strcmp(dk->root, "/") == 0))
		return real;
	free(real);
	*outside = true;
	return NULL;
}

static bool disk_read(void *ctx, const char *path, const uint8_t **data, size_t *len, struct fw_error *err)
{
	struct fw_acpi_disk *dk = ctx;
	if (dk->open)
		fw_file_close(&dk->file);
	dk->open = false;
	bool outside;
	char *real = confined(dk, path, &outside);
	if (outside)
		return fw_error_set(err, FW_E_UNSUPPORTED, "a link out of the folder, not followed");
	struct stat st;
	/* the resolved name is read: no link is met between the check and the read */
	if (!real || stat(real, &st) != 0 || !S_ISREG(st.st_mode)) {
		free(real);
		return fw_error_set(err, FW_E_NOT_FOUND, "%s: not a regular file", path);
	}
	bool ok = fw_file_read(real, FOLDER_FILE_CAP, &dk->file, err);
	free(real);
	if (!ok)
		return false;
	dk->open = true;
	*data = dk->file.data;
	*len = dk->file.len;
	return true;
}

static bool disk_is_dir(void *ctx, const char *dir)
{
	bool outside;
	char *real = confined(ctx, dir, &outside);
	bool is = real && fw_is_directory(real);
	free(real);
	return is;
}

void fw_acpi_files_disk(struct fw_acpi_disk *state, struct fw_acpi_files *out)
{
	memset(state, 0, sizeof(*state));
	*out = (struct fw_acpi_files){state, disk_list, disk_read, disk_is_dir};
}

void fw_acpi_disk_close(struct fw_acpi_disk *state)
{
	if (state->open)
		fw_file_close(&state->file);
	state->open = false;
	free(state->root);
	state->root = NULL;
}

/* ---- one folder of tables ---- */

static bool add_dir(struct fw_acpi_set *s, const struct fw_acpi_files *fs, const char *dir, const char *prefix,
		    struct fw_error *err)
{
	struct names names = {0};
	if (!fs->list(fs->ctx, dir, &names.v, &names.n, err))
		return false;
	names.cap = names.n;
	if (names.n)
		qsort(names.v, names.n, sizeof(*names.v), natural_cmp);
	bool ok = true;
	for (size_t i = 0; i < names.n && ok; i++) {
		char path[4096], origin[512];
		snprintf(path, sizeof(path), "%s/%s", dir, names.v[i]);
		snprintf(origin, sizeof(origin), "%s%s", prefix, names.v[i]);
		const uint8_t *data;
		size_t len;
		if (fs->is_dir(fs->ctx, path))
			continue; /* dynamic/ is read on its own; data/ holds no tables */
		struct fw_error rerr;
		if (!fs->read(fs->ctx, path, &data, &len, &rerr)) {
			if (rerr.code == FW_E_NOT_FOUND)
				continue; /* not a regular file */
			if (rerr.code == FW_E_UNSUPPORTED) {
				fw_acpi_set_diag(s, FW_DIAG_WARN, "%s: skipped: %s", origin, rerr.msg);
				continue;
			}
			if (err)
				*err = rerr;
			ok = false;
			break;
		}
		bool rsdp = len >= 8 && memcmp(data, FW_RSDP_SIGNATURE, 8) == 0;
		if (!rsdp && !fw_acpi_looks_like_table(data, len)) {
			fw_acpi_set_diag(s, FW_DIAG_INFO, "%s: skipped, not an ACPI table", origin);
			continue;
		}
		struct fw_error bad;
		if (!fw_acpi_set_add_table(s, data, len, 0, 0, origin, &bad)) {
			if (bad.code == FW_E_LIMIT) {
				*err = bad;
				ok = false;
			} else {
				fw_acpi_set_diag(s, FW_DIAG_WARN, "%s: skipped: %s", origin, bad.msg);
			}
		} else {
			struct fw_acpi_table *t = s->tables[s->ntables - 1];
			/* sysfs names a table by its signature, numbered when repeated (SSDT12);
			 * acpixtract by the lower-case signature (ssdt12.dat). */
			const char *base = names.v[i];
			char c5 = strlen(base) >= 4 ? base[4] : 'x';
			bool named = c5 == '\0' || c5 == '.' || (c5 >= '0' && c5 <= '9');
			if (named && strncasecmp(base, t->signature, 4) != 0 && memcmp(t->signature, "RSDP", 4) != 0)
				fw_acpi_diag(t, &s->arena, FW_DIAG_WARN, 0, "file %s holds a %s table", origin, t->signature);
		}
	}
	free_names(&names);
	return ok;
}

bool fw_acpi_set_add_files(struct fw_acpi_set *s, const struct fw_acpi_files *fs, const char *dir, struct fw_error *err)
{
	if (!s->tables_dir)
		s->tables_dir = fw_arena_strdup(&s->arena, dir);
	size_t before = s->ntables;
	if (!add_dir(s, fs, dir, "", err))
		return false;
	char dyn[4096];
	snprintf(dyn, sizeof(dyn), "%s/dynamic", dir);
	if (fs->is_dir(fs->ctx, dyn) && !add_dir(s, fs, dyn, "dynamic/", err))
		return false;
	if (s->ntables == before)
		return fw_error_set(err, FW_E_NOT_FOUND, "%s: no ACPI tables in this folder", dir);
	return true;
}

bool fw_acpi_set_add_folder(struct fw_acpi_set *s, const char *dir, struct fw_error *err)
{
	struct fw_acpi_disk dk;
	struct fw_acpi_files fs;
	fw_acpi_files_disk(&dk, &fs);
	dk.root = realpath(dir, NULL);
	bool ok = fw_acpi_set_add_files(s, &fs, dir, err);
	fw_acpi_disk_close(&dk);
	return ok;
}
