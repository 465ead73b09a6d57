/* The ACPI tables of a path the user names: what it is comes from the recogniser
 * (FW_ACCEPT_ACPI), and the ACPI layer builds the set from bytes, a firmware tree or the files of
 * a folder seen through callbacks (the file system here). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "source.h"
#include "tools/host/machine-topo.h"

/* Table files are small; a sysfs DSDT of a big server is a few MiB. */
#define FOLDER_FILE_CAP ((size_t)256 << 20)

/* ---- a folder on disk as fw_acpi_files ---- */

struct disk {
	struct fw_file file;
	bool open;
	char *root; /* the folder read, links resolved: no file outside it is read (NULL: no bound) */
};

static bool disk_list(void *ctx, const char *dir, char ***names, size_t *n, struct fw_error *err)
{
	(void)ctx;
	DIR *d = opendir(dir);
	if (!d)
		return fw_error_errno(err, "%s: cannot open the folder", dir);
	struct fw_strlist out = {0};
	struct dirent *e;
	bool ok = true;
	while (ok && (e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		if (out.count >= FW_ACPI_MAX_TABLES)
			ok = fw_error_set(err, FW_E_LIMIT, "%s: more than %d files", dir, FW_ACPI_MAX_TABLES);
		else
			fw_strlist_push(&out, e->d_name);
	}
	closedir(d);
	if (!ok) {
		fw_strlist_free(&out);
		return false;
	}
	*names = out.items;
	*n = out.count;
	return true;
}

/* path with every link resolved, when it stays inside the folder read; NULL (and *outside set)
 * when a link leads out of it, as snapshot capture confines links to its root. */
static char *confined(const struct disk *dk, const char *path, bool *outside)
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

/* A name that is no link, opened without following one: no path to resolve (a folder of tables is
 * thousands of files, and resolving each name is a system call per component). -1 with errno ELOOP
 * for a link, which the caller confines. */
static int open_no_link(const char *path)
{
	return open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
}

static bool disk_read(void *ctx, const char *path, const uint8_t **data, size_t *len, struct fw_error *err)
{
	struct disk *dk = ctx;
	if (dk->open)
		fw_file_close(&dk->file);
	dk->open = false;
	struct stat st;
	int fd = open_no_link(path);
	if (fd >= 0) {
		uint8_t *bytes = NULL;
		size_t n = 0;
		bool over, ok = fstat(fd, &st) == 0 && S_ISREG(st.st_mode);
		if (!ok)
			fw_error_set(err, FW_E_NOT_FOUND, "%s: not a regular file", path);
		else {
			fw_file_note_reading(path); /* named by an out-of-memory exit */
			ok = fw_file_read_fd(fd, path, FOLDER_FILE_CAP, &bytes, &n, &over, err);
		}
		close(fd);
		if (!ok)
			return false;
		dk->file = (struct fw_file){.data = bytes, .len = n, .path = fw_xstrdup(path)};
	} else {
		if (errno != ELOOP)
			return fw_error_set(err, FW_E_NOT_FOUND, "%s: not a regular file", path);
		bool outside;
		char *real = confined(dk, path, &outside);
		if (outside)
			return fw_error_set(err, FW_E_UNSUPPORTED, "a link out of the folder, not followed");
		/* the resolved name is read: no link is met between the check and the read */
		if (!real || stat(real, &st) != 0 || !S_ISREG(st.st_mode)) {
			free(real);
			return fw_error_set(err, FW_E_NOT_FOUND, "%s: not a regular file", path);
		}
		bool ok = fw_file_read(real, FOLDER_FILE_CAP, &dk->file, err);
		free(real);
		if (!ok)
			return false;
	}
	dk->open = true;
	*data = dk->file.data;
	*len = dk->file.len;
	return true;
}

static bool disk_is_dir(void *ctx, const char *dir)
{
	struct stat st;
	if (lstat(dir, &st) == 0 && !S_ISLNK(st.st_mode))
		return S_ISDIR(st.st_mode);
	bool outside;
	char *real = confined(ctx, dir, &outside);
	bool is = real && fw_is_directory(real);
	free(real);
	return is;
}

static bool add_folder(struct fw_acpi_set *s, const char *dir, struct fw_error *err)
{
	struct disk dk = {.root = realpath(dir, NULL)};
	struct fw_acpi_files fs = {&dk, disk_list, disk_read, disk_is_dir};
	bool ok = fw_acpi_set_add_files(s, &fs, dir, err);
	if (dk.open)
		fw_file_close(&dk.file);
	free(dk.root);
	return ok;
}

/* ---- a file: tables, acpidump text, or a firmware image carrying tables ---- */

/* kept: the bytes the recogniser read (none: the path is opened) */
static bool add_file(struct fw_acpi_set *s, const char *path, struct fw_file *kept, struct fw_error *err)
{
	struct fw_file f = *kept;
	memset(kept, 0, sizeof(*kept));
	if (!f.path && !fw_file_open(path, &f, err))
		return false;
	bool ok = fw_acpi_set_add_buffer(s, f.data, f.len, path, err);
	fw_file_close(&f);
	return ok;
}

/* Neither a table nor a dump: a firmware image whose sections may hold tables. */
static bool add_image(struct fw_acpi_set *s, const char *path, struct fw_file *kept, struct fw_error *err)
{
	struct fw_firmware fw;
	bool ok = fw_source_open_firmware_kept(path, kept, NULL, &fw, err);
	if (ok) {
		ok = fw_acpi_set_add_tree(s, fw.tree, path, err);
		fw_firmware_close(&fw);
	}
	if (!ok && err && err->code != FW_E_NOT_FOUND && err->code != FW_E_IO && err->code != FW_E_LIMIT) {
		/* Say what was tried, once, with the firmware parser's reason. */
		char why[FW_ERROR_MSG_MAX];
		size_t plen = strlen(path);
		const char *msg = err->msg;
		if (!strncmp(msg, path, plen) && !strncmp(msg + plen, ": ", 2))
			msg += plen + 2;
		snprintf(why, sizeof(why), "%s", msg);
		fw_error_set(err, FW_E_INVALID, "%s: not an ACPI table or acpidump text, nor a firmware image (%s)", path, why);
	}
	return ok;
}

bool fw_source_acpi_open(const char *path, struct fw_acpi_set **out, struct fw_error *err)
{
	struct fw_file kept; /* a file is opened once: the recogniser's bytes are read */
	enum fw_input_kind kind = fw_source_recognise_keep(path, FW_ACCEPT_ACPI, &kept);
	return fw_source_acpi_open_kind(path, kind, &kept, out, err);
}

bool fw_source_acpi_open_kind(const char *path, enum fw_input_kind kind, struct fw_file *kept, struct fw_acpi_set **out,
			      struct fw_error *err)
{
	struct fw_acpi_set *s = fw_acpi_set_new();
	s->path = fw_arena_strdup(&s->arena, path);
	bool ok;
	char *tables = fw_arena_printf(&s->arena, "%s/sys/firmware/acpi/tables", path);
	if (kind == FW_INPUT_MACHINE_ROOT && fw_is_directory(tables)) {
		s->source = FW_ACPI_SRC_SYSROOT;
		s->sysroot = s->path;
		ok = add_folder(s, tables, err);
	} else if (kind == FW_INPUT_MACHINE_ROOT || kind == FW_INPUT_FOLDER) {
		/* a root without tables is read as a folder of tables */
		s->source = FW_ACPI_SRC_FOLDER;
		ok = add_folder(s, path, err);
	} else if (kind == FW_INPUT_ACPIDUMP || kind == FW_INPUT_ACPI_TABLE || kind == FW_INPUT_EMPTY) {
		s->source = kind == FW_INPUT_ACPIDUMP ? FW_ACPI_SRC_ACPIDUMP : FW_ACPI_SRC_TABLE;
		ok = add_file(s, path, kept, err);
	} else {
		/* anything else, a file that cannot be read included (the firmware reader says why) */
		s->source = FW_ACPI_SRC_IMAGE;
		ok = add_image(s, path, kept, err);
	}
	fw_file_close(kept); /* a folder's: nothing */
	if (!ok) {
		fw_acpi_set_free(s);
		return false;
	}
	fw_acpi_set_finish(s);
	*out = s;
	return true;
}

bool fw_source_acpi_topo_host(const struct fw_acpi_set *s, struct fw_machine **m, struct fw_topo_host *out)
{
	*m = NULL;
	if (!s->sysroot || !fw_machine_open(s->sysroot, m, NULL))
		return false;
	fw_machine_topo_host(*m, out);
	return true;
}
