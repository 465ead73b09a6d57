/* Tables from a folder laid out like /sys/firmware/acpi/tables: one file per table (DSDT, FACP,
 * SSDT1..n, ...), dynamically loaded tables in dynamic/, and data/ (BERT regions and the like,
 * not tables) skipped. Any other file that does not start like a table is skipped with a note,
 * so a folder of acpixtract .dat files works too. Files are read in natural order (SSDT2 before
 * SSDT10), top level first, then dynamic/. */
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

static bool list_files(const char *dir, struct names *out, struct fw_error *err)
{
	DIR *d = opendir(dir);
	if (!d)
		return fw_error_errno(err, "%s: cannot open the folder", dir);
	struct dirent *e;
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		char path[4096];
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		struct stat st;
		if (stat(path, &st) != 0 || !S_ISREG(st.st_mode))
			continue;
		if (out->n >= FW_ACPI_MAX_TABLES) {
			closedir(d);
			return fw_error_set(err, FW_E_LIMIT, "%s: more than %d files", dir, FW_ACPI_MAX_TABLES);
		}
		if (out->n == out->cap) {
			out->cap = out->cap ? out->cap * 2 : 64;
			out->v = fw_xrealloc(out->v, out->cap * sizeof(*out->v));
		}
		out->v[out->n++] = fw_xstrdup(e->d_name);
	}
	closedir(d);
	if (out->n)
		qsort(out->v, out->n, sizeof(*out->v), natural_cmp);
	return true;
}

static void free_names(struct names *n)
{
	for (size_t i = 0; i < n->n; i++)
		free(n->v[i]);
	free(n->v);
}

static bool add_dir(struct fw_acpi_set *s, const char *dir, const char *prefix, struct fw_error *err)
{
	struct names names = {0};
	if (!list_files(dir, &names, err))
		return false;
	bool ok = true;
	for (size_t i = 0; i < names.n && ok; i++) {
		char path[4096], origin[512];
		snprintf(path, sizeof(path), "%s/%s", dir, names.v[i]);
		snprintf(origin, sizeof(origin), "%s%s", prefix, names.v[i]);
		struct fw_file f;
		if (!fw_file_read(path, FOLDER_FILE_CAP, &f, err)) {
			ok = false;
			break;
		}
		bool rsdp = f.len >= 8 && memcmp(f.data, FW_RSDP_SIGNATURE, 8) == 0;
		if (!rsdp && !fw_acpi_looks_like_table(f.data, f.len)) {
			fw_acpi_set_diag(s, FW_DIAG_INFO, "%s: skipped, not an ACPI table", origin);
			fw_file_close(&f);
			continue;
		}
		struct fw_error bad;
		if (!fw_acpi_set_add_table(s, f.data, f.len, 0, 0, origin, &bad)) {
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
		fw_file_close(&f);
	}
	free_names(&names);
	return ok;
}

bool fw_acpi_set_add_folder(struct fw_acpi_set *s, const char *dir, struct fw_error *err)
{
	if (!s->tables_dir)
		s->tables_dir = fw_arena_strdup(&s->arena, dir);
	size_t before = s->ntables;
	if (!add_dir(s, dir, "", err))
		return false;
	char dyn[4096];
	snprintf(dyn, sizeof(dyn), "%s/dynamic", dir);
	if (fw_is_directory(dyn) && !add_dir(s, dyn, "dynamic/", err))
		return false;
	if (s->ntables == before)
		return fw_error_set(err, FW_E_NOT_FOUND, "%s: no ACPI tables in this folder", dir);
	return true;
}
