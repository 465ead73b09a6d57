/* Vendor downloads: a firmware image inside a zip, 7z, tar (plain or compressed with gzip, bzip2,
 * xz or zstd) or gzip file, read into memory through libarchive with the archive's own bounds
 * (members, bytes of one member, bytes of all of them, and their ratio to the archive's size).
 * Nothing is written to disk. Of the members, the one the caller recognises as firmware is taken
 * (capsule/recognise.h says which bytes are an archive and which member is an image);
 * with several, the caller (--member NAME) names one, and the error lists them. */
#ifndef FW_ARCHIVE_H
#define FW_ARCHIVE_H

#include <stdbool.h>
#include <stdint.h>

#include "file.h"
#include "view.h"

#define FW_ARCHIVE_MAX_MEMBERS 4096
#define FW_ARCHIVE_MAX_MEMBER ((uint64_t)256 << 20)
#define FW_ARCHIVE_MAX_TOTAL ((uint64_t)1 << 30)
/* Members read inflate to at most RATIO times the archive's size, plus the floor (a zip holding
 * a 32 MiB image of erased flash compresses well; a bomb compresses a thousand times better). */
#define FW_ARCHIVE_MAX_RATIO 100
#ifdef FW_FUZZING /* fuzz inputs are small: bombs are found as well with less to inflate */
#define FW_ARCHIVE_RATIO_FLOOR ((uint64_t)8 << 20)
#else
#define FW_ARCHIVE_RATIO_FLOOR ((uint64_t)64 << 20)
#endif

/* Whether a member's bytes are a firmware image (the caller's recogniser). */
typedef bool (*fw_archive_recognise_fn)(const uint8_t *p, size_t n);

/* The member to take when several are recognised (--member NAME), for every archive opened
 * afterwards in this process; NULL: the only one recognised. */
void fw_archive_choose_member(const char *name);

/* The one recognised member of the archive in p[0..n): a malloc'd copy in *out and its name in
 * *member (malloc'd). `name` names the archive in messages. */
bool fw_archive_extract(const uint8_t *p, size_t n, const char *name, fw_archive_recognise_fn recognise, uint8_t **out,
			size_t *outlen, char **member, struct fw_error *err);

/* f holds an archive (what bytes are is the recogniser's to say: fw_input_archive_probe,
 * capsule/recognise.h): its bytes become the recognised member's and its path "ARCHIVE:MEMBER".
 * False (f unchanged) on error. */
bool fw_archive_unwrap(struct fw_file *f, fw_archive_recognise_fn recognise, struct fw_error *err);

#endif
