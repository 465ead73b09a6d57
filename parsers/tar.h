/* tar archives through libarchive: a bounded reader over bytes in memory and a small
 * deterministic writer. Used for efivarfs dumps packed with tar and for fwlens machine snapshots.
 * Nothing is ever extracted to disk: members are read into memory within the caller's limits. */
#ifndef FW_TAR_H
#define FW_TAR_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "view.h"

#define FW_TAR_BLOCK 512
/* Longest member name accepted (pax path records may be longer than any file system allows). */
#define FW_TAR_MAX_NAME 65536

/* What one archive may hold; a member past one of them ends the walk with FW_E_LIMIT. */
struct fw_tar_limits {
	uint64_t members;    /* members counted, of any type */
	uint64_t member;     /* bytes of one member */
	uint64_t total;      /* bytes of all members */
};

struct fw_tar_entry {
	const char *name;    /* the whole name, as stored (pax path, GNU long name or ustar prefix/name) */
	const char *link;    /* symbolic link target, else "" */
	char type;           /* '0' regular file, '2' symbolic link: the only types returned */
	uint64_t size;
	uint64_t mtime;
	struct fw_view data; /* the member's bytes (regular files); base = their offset in the archive */
	uint64_t header_offset;
};

struct fw_tar_reader {
	void *archive;       /* struct archive */
	const char *name;    /* the archive, for the out-of-memory line ("MEMBER in NAME"); may be NULL */
	/* NULL, or which regular files to read: the others are skipped unread (their stated size
	 * still counts against the total, not against the limit of one member) */
	bool (*want)(const char *name);
	struct fw_tar_limits lim;
	uint64_t count, total;
	uint8_t *data;       /* the current member's bytes, freed by the next call unless taken */
	/* set by a caller that keeps the archive's bytes as long as its members: a plain tar's
	 * members (not sparse) are then given in place, not copied (a snapshot is a thousand files) */
	bool in_place;
	const uint8_t *in;   /* the archive's bytes */
	size_t in_len;
	bool done;
};

/* True when the view starts with a valid ustar/GNU tar header (magic and header checksum). */
bool fw_tar_probe(const struct fw_view *v);
/* When the view is a tar compressed with gzip, xz, zstd or bzip2 (its first header, inflated, is
 * a tar header): the compression's name ("gzip", "xz", "zstd", "bzip2"); else NULL. The reader
 * takes such a tar as it takes a plain one; offsets in its messages are then offsets in the
 * inflated tar. */
const char *fw_tar_probe_compressed(const struct fw_view *v);
/* Read the archive in `v` (a tar, plain or compressed as fw_tar_probe_compressed says; the bytes
 * must outlive the reader). The limits bound the inflated bytes: every member's stated size,
 * also of members skipped, is checked before it is read. lim NULL: the view's own size bounds
 * every member. */
void fw_tar_reader_init(struct fw_tar_reader *r, const struct fw_view *v, const struct fw_tar_limits *lim);
/* Next regular file or symbolic link (folders and other types are skipped); false at the end (err
 * untouched, code FW_OK) or on a malformed archive, an absolute name, a name with a ".." component
 * or a limit (err set, naming the offset). */
bool fw_tar_next(struct fw_tar_reader *r, struct fw_tar_entry *e, struct fw_error *err);
/* The current member's bytes, now the caller's to free (so views into them may outlive the walk);
 * NULL when they were given in place (in_place: they are the archive's). */
uint8_t *fw_tar_take_data(struct fw_tar_reader *r);
void fw_tar_reader_free(struct fw_tar_reader *r);

/* Writer: pax (ustar headers, with a pax record for a name ustar cannot hold), uid/gid 0, one
 * mtime, so the same members give the same bytes. Entries are written as they come; the caller
 * sorts for determinism. */
struct fw_tar_writer {
	void *archive;       /* struct archive */
	FILE *f;
	uint64_t mtime;
	uint64_t written;
	bool failed;
};
void fw_tar_writer_init(struct fw_tar_writer *w, FILE *f, uint64_t mtime);
bool fw_tar_write_file(struct fw_tar_writer *w, const char *name, const uint8_t *data, size_t len);
/* Ends the archive and frees the writer (call it once, also after a failure). */
bool fw_tar_finish(struct fw_tar_writer *w);

#endif
