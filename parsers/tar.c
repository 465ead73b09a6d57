/* tar reading and writing through libarchive (POSIX ustar and pax, GNU long names). */
#include "tar.h"

#include <archive.h>
#include <archive_entry.h>
#include <errno.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "error.h"
#include "file.h"

/* The probe needs only the first header: magic and checksum (POSIX.1-1988 ustar, 512 bytes). */
static bool octal_field(const uint8_t *p, size_t n, uint64_t *out)
{
	uint64_t v = 0;
	size_t i = 0;
	while (i < n && (p[i] == ' ' || p[i] == 0))
		i++;
	for (; i < n && p[i] >= '0' && p[i] <= '7'; i++)
		v = v * 8 + (uint64_t)(p[i] - '0');
	for (; i < n; i++)
		if (p[i] != ' ' && p[i] != 0)
			return false;
	*out = v;
	return true;
}

bool fw_tar_probe(const struct fw_view *v)
{
	if (!fw_view_has(v, 0, FW_TAR_BLOCK))
		return false;
	const uint8_t *h = v->p;
	uint64_t stored, sum = 0;
	if (memcmp(h + 257, "ustar", 5) != 0 || !octal_field(h + 148, 8, &stored))
		return false;
	for (int i = 0; i < FW_TAR_BLOCK; i++)
		sum += (i >= 148 && i < 156) ? ' ' : h[i];
	return sum == stored;
}

/* The compression filters libarchive does itself; one it would hand to an outside program
 * (ARCHIVE_WARN: built without the library) is left out, and its files are no tar here. */
static void support_filters(struct archive *a)
{
	int (*const filters[])(struct archive *) = {archive_read_support_filter_gzip, archive_read_support_filter_xz,
						    archive_read_support_filter_zstd, archive_read_support_filter_bzip2};
	for (size_t i = 0; i < sizeof(filters) / sizeof(filters[0]); i++) {
		struct archive *probe = archive_read_new();
		if (probe && filters[i](probe) == ARCHIVE_OK)
			filters[i](a);
		archive_read_free(probe);
	}
}

const char *fw_tar_probe_compressed(const struct fw_view *v)
{
	if (v->len < 4 || fw_tar_probe(v))
		return NULL;
	struct archive *a = archive_read_new();
	if (!a)
		return NULL;
	support_filters(a);
	archive_read_support_format_tar(a);
	struct archive_entry *ae;
	const char *name = NULL;
	if (archive_read_open_memory(a, v->p, v->len) == ARCHIVE_OK) {
		switch (archive_filter_code(a, 0)) {
		case ARCHIVE_FILTER_GZIP: name = "gzip"; break;
		case ARCHIVE_FILTER_XZ: name = "xz"; break;
		case ARCHIVE_FILTER_ZSTD: name = "zstd"; break;
		case ARCHIVE_FILTER_BZIP2: name = "bzip2"; break;
		default: break;
		}
		int rc = name ? archive_read_next_header(a, &ae) : ARCHIVE_FATAL;
		if (!(rc == ARCHIVE_OK || rc == ARCHIVE_WARN) || (archive_format(a) & ARCHIVE_FORMAT_BASE_MASK) != ARCHIVE_FORMAT_TAR)
			name = NULL;
	}
	archive_read_free(a);
	return name;
}

void fw_tar_reader_init(struct fw_tar_reader *r, const struct fw_view *v, const struct fw_tar_limits *lim)
{
	memset(r, 0, sizeof(*r));
	r->in = v->p;
	r->in_len = v->len;
	if (lim)
		r->lim = *lim;
	else
		r->lim = (struct fw_tar_limits){v->len / FW_TAR_BLOCK + 1, v->len, v->len};
	struct archive *a = archive_read_new();
	if (!a) {
		r->done = true;
		return;
	}
	/* tar only, plain or compressed: bounded by the limits on what the members inflate to */
	support_filters(a);
	archive_read_support_format_tar(a);
	if (archive_read_open_memory(a, v->p, v->len) != ARCHIVE_OK) {
		archive_read_free(a);
		a = NULL;
	}
	r->archive = a;
}

/* A name that would leave the folder it is read into: absolute, or with a ".." component. */
static bool name_escapes(const char *name)
{
	if (name[0] == '/')
		return true;
	for (const char *p = name; (p = strstr(p, "..")); p += 2)
		if ((p == name || p[-1] == '/') && (p[2] == '\0' || p[2] == '/'))
			return true;
	return false;
}

/* End the walk with an error. */
#define READ_FAIL(code, ...) (r->done = true, fw_error_set(err, code, __VA_ARGS__))

bool fw_tar_next(struct fw_tar_reader *r, struct fw_tar_entry *e, struct fw_error *err)
{
	struct archive *a = r->archive;
	free(r->data);
	r->data = NULL;
	memset(e, 0, sizeof(*e));
	if (!a && !r->done) {
		r->done = true;
		return fw_error_set(err, FW_E_INTERNAL, "tar: out of memory opening the archive");
	}
	while (!r->done) {
		struct archive_entry *ae;
		int rc = archive_read_next_header(a, &ae);
		la_int64_t pos = archive_read_header_position(a);
		uint64_t at = pos >= 0 ? (uint64_t)pos : 0;
		if (rc == ARCHIVE_EOF) {
			r->done = true;
			return false;
		}
		if (rc != ARCHIVE_OK && rc != ARCHIVE_WARN) {
			/* where the walk stopped: past the extension headers it read, and past the damaged
			 * header itself when its checksum is wrong (libarchive has consumed it) */
			la_int64_t stopped = archive_filter_bytes(a, 0);
			uint64_t stop = stopped >= 0 ? (uint64_t)stopped : 0;
			const char *why = archive_error_string(a);
			if (why && strncmp(why, "Damaged tar archive", 19) == 0 && stop >= FW_TAR_BLOCK)
				stop -= FW_TAR_BLOCK;
			return READ_FAIL(FW_E_INVALID, "tar header at 0x%llx: %s", (unsigned long long)(stop > at ? stop : at),
					 why ? why : "unreadable header");
		}
		if (++r->count > r->lim.members) {
			r->done = true;
			return fw_error_set(err, FW_E_LIMIT, "tar member at 0x%llx: more than %llu members",
					    (unsigned long long)at, (unsigned long long)r->lim.members);
		}
		mode_t type = archive_entry_filetype(ae);
		/* a member skipped is inflated all the same when the tar is compressed: its stated size
		 * counts against the limits before anything is read */
		int64_t stated = archive_entry_size_is_set(ae) ? archive_entry_size(ae) : 0;
		if (stated > 0 && (type != AE_IFREG || archive_entry_hardlink(ae))) {
			if ((uint64_t)stated > r->lim.member || (uint64_t)stated > r->lim.total - r->total)
				return READ_FAIL(FW_E_LIMIT, "tar member at 0x%llx: states %lld bytes, past the archive's limits",
						 (unsigned long long)at, (long long)stated);
			r->total += (uint64_t)stated;
		}
		if (type == AE_IFDIR)
			continue;
		const char *name = archive_entry_pathname(ae);
		if (!name || !name[0])
			return READ_FAIL(FW_E_INVALID, "tar member at 0x%llx: %s", (unsigned long long)(at), "no name");
		if (strlen(name) > FW_TAR_MAX_NAME)
			return READ_FAIL(FW_E_LIMIT, "tar member at 0x%llx: %s", (unsigned long long)(at), "name longer than 64 KiB");
		if (name_escapes(name))
			return READ_FAIL(FW_E_INVALID, "tar member at 0x%llx: name '%.200s' is absolute or climbs out with '..'", (unsigned long long)(at), name);
		if (type == AE_IFLNK && !archive_entry_hardlink(ae)) {
			const char *target = archive_entry_symlink(ae);
			e->name = name;
			e->link = target ? target : "";
			e->type = '2';
			e->mtime = (uint64_t)archive_entry_mtime(ae);
			e->header_offset = at;
			e->data = fw_view_make((const uint8_t *)"", 0, at);
			return true;
		}
		if (type != AE_IFREG || archive_entry_hardlink(ae))
			continue; /* hard links, devices, FIFOs and sockets hold no bytes of their own */
		int64_t size = archive_entry_size_is_set(ae) ? archive_entry_size(ae) : -1;
		if (size < 0)
			return READ_FAIL(FW_E_INVALID, "tar member at 0x%llx: %s", (unsigned long long)(at), "no size");
		if (r->want && !r->want(name)) {
			if ((uint64_t)size > r->lim.total - r->total)
				return READ_FAIL(FW_E_LIMIT, "tar member at 0x%llx: %s takes the members past their total limit", (unsigned long long)(at), name);
			r->total += (uint64_t)size;
			continue;
		}
		/* checked before allocating: the header's size is not trusted */
		if ((uint64_t)size > r->lim.member)
			return READ_FAIL(FW_E_LIMIT, "tar member at 0x%llx: %s is larger than the limit for one member", (unsigned long long)(at), name);
		if ((uint64_t)size > r->lim.total - r->total)
			return READ_FAIL(FW_E_LIMIT, "tar member at 0x%llx: %s takes the members past their total limit", (unsigned long long)(at), name);
		uint64_t data_at = (uint64_t)archive_filter_bytes(a, 0);
		/* a plain tar holds a regular member's bytes right after its headers, where the walk is */
		if (r->in_place && archive_filter_code(a, 0) == ARCHIVE_FILTER_NONE && archive_entry_sparse_count(ae) == 0 &&
		    data_at <= r->in_len && (uint64_t)size <= r->in_len - data_at) {
			if (archive_read_data_skip(a) != ARCHIVE_OK) {
				const char *why = archive_error_string(a);
				return READ_FAIL(FW_E_TRUNCATED, "tar member at 0x%llx: %.200s: %s", (unsigned long long)(at), name,
						 why ? why : "unreadable data");
			}
			r->total += (uint64_t)size;
			*e = (struct fw_tar_entry){name, "", '0', (uint64_t)size, (uint64_t)archive_entry_mtime(ae),
						   fw_view_make(r->in + data_at, (size_t)size, data_at), at};
			return true;
		}
		/* out of memory is exit 4 naming the member (and the archive, when the caller named it) */
		char was[512], reading[512];
		snprintf(was, sizeof(was), "%s", fw_file_reading());
		snprintf(reading, sizeof(reading), "%s%s%s", name, r->name ? " in " : "", r->name ? r->name : "");
		fw_file_note_reading(reading);
		r->data = fw_xmalloc(size ? (size_t)size : 1);
		la_ssize_t got = size ? archive_read_data(a, r->data, (size_t)size) : 0;
		if (got != size) {
			const char *why = got < 0 ? archive_error_string(a) : "the archive ends inside the member";
			char msg[320];
			snprintf(msg, sizeof(msg), "%.200s: %s", name, why ? why : "unreadable data");
			fw_file_note_reading(was);
			return READ_FAIL(FW_E_TRUNCATED, "tar member at 0x%llx: %s", (unsigned long long)(at), msg);
		}
		fw_file_note_reading(was);
		r->total += (uint64_t)size;
		e->name = name;
		e->link = "";
		e->type = '0';
		e->size = (uint64_t)size;
		e->mtime = (uint64_t)archive_entry_mtime(ae);
		e->header_offset = at;
		e->data = fw_view_make(r->data, (size_t)size, data_at);
		return true;
	}
	return false;
}

uint8_t *fw_tar_take_data(struct fw_tar_reader *r)
{
	uint8_t *p = r->data;
	r->data = NULL;
	return p;
}

void fw_tar_reader_free(struct fw_tar_reader *r)
{
	free(r->data);
	if (r->archive)
		archive_read_free(r->archive);
	memset(r, 0, sizeof(*r));
}

/* --- writing ----------------------------------------------------------------------------------- */

static la_ssize_t write_to_file(struct archive *a, void *ctx, const void *buf, size_t n)
{
	struct fw_tar_writer *w = ctx;
	if (fwrite(buf, 1, n, w->f) != n) {
		w->failed = true;
		archive_set_error(a, EIO, "write failed");
		return -1;
	}
	w->written += n;
	return (la_ssize_t)n;
}

void fw_tar_writer_init(struct fw_tar_writer *w, FILE *f, uint64_t mtime)
{
	memset(w, 0, sizeof(*w));
	w->f = f;
	w->mtime = mtime;
	struct archive *a = archive_write_new();
	if (!a || archive_write_set_format_pax_restricted(a) != ARCHIVE_OK ||
	    archive_write_set_bytes_per_block(a, 0) != ARCHIVE_OK ||
	    archive_write_open2(a, w, NULL, write_to_file, NULL, NULL) != ARCHIVE_OK) {
		if (a)
			archive_write_free(a);
		w->failed = true;
		return;
	}
	w->archive = a;
}

bool fw_tar_write_file(struct fw_tar_writer *w, const char *name, const uint8_t *data, size_t len)
{
	if (w->failed || !w->archive)
		return false;
	struct archive_entry *ae = archive_entry_new();
	if (!ae)
		return !(w->failed = true);
	archive_entry_copy_pathname(ae, name);
	archive_entry_set_filetype(ae, AE_IFREG);
	archive_entry_set_perm(ae, 0644);
	archive_entry_set_uid(ae, 0);
	archive_entry_set_gid(ae, 0);
	archive_entry_set_size(ae, (la_int64_t)len);
	archive_entry_set_mtime(ae, (time_t)w->mtime, 0);
	/* ARCHIVE_WARN: a name that does not convert to UTF-8 is written as its bytes, with the pax
	 * record hdrcharset=BINARY, which the reader takes back as bytes */
	int rc = archive_write_header(w->archive, ae);
	bool ok = (rc == ARCHIVE_OK || rc == ARCHIVE_WARN) &&
		  (!len || archive_write_data(w->archive, data, len) == (la_ssize_t)len);
	archive_entry_free(ae);
	if (!ok)
		w->failed = true;
	return ok;
}

bool fw_tar_finish(struct fw_tar_writer *w)
{
	if (w->archive) {
		if (archive_write_close(w->archive) != ARCHIVE_OK)
			w->failed = true;
		archive_write_free(w->archive);
		w->archive = NULL;
	}
	return !w->failed;
}
