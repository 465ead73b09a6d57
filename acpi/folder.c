/* Tables from a folder laid out like /sys/firmware/acpi/tables: one file per table (DSDT, FACP,
 * SSDT1..n, ...), dynamically loaded tables in dynamic/, and data/ (BERT regions and the like,
 * not tables) skipped. Any other file that does not start like a table (the recogniser's
 * fw_acpi_table_file_probe) is skipped with a note,
 * so a folder of acpixtract .dat files works too. Files are read in natural order (SSDT2 before
 * SSDT10), top level first, then dynamic/. The files come through callbacks (fw_acpi_files): a
 * folder on disk (tools/query/source-acpi.c, where a link is followed only while it stays inside
 * the folder given) or a machine snapshot; nothing here opens a path. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "acpi/set.h"
#include "capsule/recognise.h"
#include "parsers/file.h"

_Static_assert(FW_ACPI_HEADER_SIZE == FW_ACPI_TABLE_FILE_MIN, "the recogniser knows the common header's size");


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

static void free_names(struct names *n)
{
	for (size_t i = 0; i < n->n; i++)
		free(n->v[i]);
	free(n->v);
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
		if (!fw_acpi_table_file_probe(data, len)) {
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
