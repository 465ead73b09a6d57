/* ustar archives: a bounded reader over a view and a small deterministic writer.
 * Used for efivarfs dumps packed with tar and for fwlens machine snapshots. */
#ifndef FW_TAR_H
#define FW_TAR_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "view.h"

#define FW_TAR_BLOCK 512

struct fw_tar_entry {
	char name[257];      /* prefix/name joined */
	char link[101];      /* link target for symbolic links */
	char type;           /* '0' file, '2' symlink, '5' directory, ... */
	uint64_t size;
	uint64_t mtime;
	struct fw_view data; /* the member's bytes (files) */
	uint64_t header_offset;
};

struct fw_tar_reader {
	struct fw_view v;
	size_t off;
	bool done;
};

/* True when the view starts with a valid ustar/GNU tar header. */
bool fw_tar_probe(const struct fw_view *v);
void fw_tar_reader_init(struct fw_tar_reader *r, const struct fw_view *v);
/* Next entry; returns false at the end (err untouched, code FW_OK) or on a malformed header
 * (err set). pax/GNU long-name records are honoured. */
bool fw_tar_next(struct fw_tar_reader *r, struct fw_tar_entry *e, struct fw_error *err);

/* Writer: entries are written as they come; the caller sorts for determinism. */
struct fw_tar_writer {
	FILE *f;
	uint64_t mtime;
	uint64_t written;
	bool failed;
};
void fw_tar_writer_init(struct fw_tar_writer *w, FILE *f, uint64_t mtime);
/* name longer than ustar allows is written with a pax "path" record. */
bool fw_tar_write_file(struct fw_tar_writer *w, const char *name, const uint8_t *data, size_t len);
bool fw_tar_finish(struct fw_tar_writer *w);

#endif
