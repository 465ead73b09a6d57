/* Machine snapshots: a read-only capture of what a machine says about its firmware setup, in one
 * file that every command accepts wherever it takes a machine.
 *
 * The file is a tar archive (ustar headers, a pax record for a long name or one that is not
 * UTF-8; parsers/tar.h): `manifest.json` first (what was read, from where, size, SHA-256, what
 * could not be read or was left out and why, and the sysfs symbolic links), then the members
 * under `files/<machine path>` (gzip-compressed as `files/<path>.gz` when large), so `tar x` of a
 * snapshot gives a plain tree of files. Capture never writes to the source, follows no link out
 * of --root, takes each file and folder once (by device and inode) and stays within the budgets
 * the loader applies.
 */
#ifndef FW_SNAPSHOT_H
#define FW_SNAPSHOT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "capsule/recognise.h" /* FW_SNAPSHOT_FORMAT, and the probe of a snapshot */
#include "parsers/error.h"

#define FW_SNAPSHOT_VERSION 1
/* Members larger than this are stored gzip-compressed. */
#define FW_SNAPSHOT_GZIP_THRESHOLD 16384
/* How long capture waits for the end of a --dmesg that is a FIFO or a pipe. */
#define FW_SNAPSHOT_DMESG_SECONDS 10
/* Hard caps when loading a snapshot (a corrupt or hostile archive cannot exhaust memory). */
#define FW_SNAPSHOT_MAX_MEMBERS 200000
#define FW_SNAPSHOT_MAX_TOTAL ((uint64_t)1 << 31)
/* The gzip members together inflate to at most this: what a machine snapshot holds (one file of
 * FW_MACHINE_FILE_CAP, a firmware image, and as much again for tables, variables and logs), so a
 * 2 MB archive cannot stand for gigabytes. Each member's stated size is checked against it before
 * anything is allocated. Capture stores a member plain once the compressed ones reach it, so it
 * never writes a snapshot the loader refuses. */
#define FW_SNAPSHOT_MAX_INFLATED ((uint64_t)256 << 20)

struct fw_strlist;

struct fw_capture_options {
	const char *root;      /* "/" by default */
	const char *image;     /* optional BIOS image to include */
	/* the varstores its forms declare, whatever their names: their variables are taken too (the
	 * query layer reads them, fw_source_image_varstores; NULL: none) */
	const struct fw_strlist *image_varstores;
	const char *image_ref; /* optional BIOS image to name by SHA-256, size and name, without its bytes */
	const char *dmesg;     /* kernel log file; else var/log/dmesg under root, else `dmesg` on a live root */
	bool all_vars;         /* every efivar, not only the ones that matter */
	uint64_t created;      /* capture time (seconds since the epoch); SOURCE_DATE_EPOCH overrides */
	/* progress callback: called with the number of members read so far */
	void (*progress)(void *ctx, unsigned long done);
	void *progress_ctx;
};

struct fw_capture_stats {
	unsigned long members, links, unreadable;
	uint64_t bytes, stored_bytes;
};

/* Capture a machine into `out` (an open file). Warnings (unreadable files) are recorded in the
 * manifest and counted in stats; only a failure to write the archive is an error. */
bool fw_snapshot_capture(const struct fw_capture_options *o, FILE *out, struct fw_capture_stats *stats,
			 struct fw_error *err);

/* A path of a manifest entry (member, link, unreadable file) as raw bytes: the `key`_hex form of
 * a name that is not UTF-8, else the string; malloc'd, NULL when absent. */
struct json_t;
char *fw_snapshot_json_path(const struct json_t *obj, const char *key);

#endif
