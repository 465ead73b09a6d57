/* The cache of decoded firmware, so the Nth machine that runs the same BIOS is cheap.
 *
 * An entry holds what the commands that read a machine draw from its BIOS image: the blobs of
 * every module that has setup forms (the bytes the forms and strings are decoded from, with their
 * offsets, so the settings model is rebuilt exactly as from the image) and the image's version
 * facts ($FID, AGESA, SEV firmware ... with where they were read). It is keyed by the image's
 * SHA-256 and the fwlens version, one file per key in the cache folder:
 *
 *   DIR/forms-SHA256.bin     "FWLCACHE", format, fwlens version, image SHA-256, the version facts,
 *                            the modules and their blobs, then the SHA-256 of all that
 *   DIR/images.idx           image files already hashed ("SHA256 SIZE MTIME PATH" lines), for
 *                            --image-dir folders whose files are not named by their hash
 *
 * Entries are written to a temporary file and renamed; the folder is kept under a size bound by
 * removing the entries used longest ago (a hit refreshes its time). An entry is read with the
 * bounded reader like any input: a wrong magic, version, key, length or digest makes it a miss
 * (it is rebuilt), never an error and never trusted. */
#ifndef FW_CACHE_H
#define FW_CACHE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ifr/hii.h"
#include "inventory.h"
#include "parsers/arena.h"
#include "parsers/hash.h"

/* Default bound on the folder's total size, and the largest entry read. */
#define FW_CACHE_MAX_BYTES ((uint64_t)512 << 20)
#define FW_CACHE_MAX_ENTRY ((size_t)64 << 20)
/* Most modules and blobs one entry may describe. */
#define FW_CACHE_MAX_MODULES 4096
#define FW_CACHE_MAX_BLOBS 64

struct fw_cache {
	const char *dir;    /* NULL: no cache (--no-cache, or no folder known) */
	uint64_t max_bytes; /* 0: FW_CACHE_MAX_BYTES */
};

/* The cache folder from --cache-dir, else $XDG_CACHE_HOME/fwlens, else $HOME/.cache/fwlens (the
 * caller reads the environment); NULL when none applies. Returns a new string. */
char *fw_cache_dir_default(const char *cache_dir_opt, const char *xdg_cache_home, const char *home);

/* A loaded entry: the module blobs (views into `data`) and the version facts. */
struct fw_cache_module {
	struct fw_guid guid;
	bool has_guid;
	const char *name;
	uint64_t offset;
	struct fw_hii_blob *blobs;
	uint32_t nblobs;
};

struct fw_cache_entry {
	uint8_t *data; /* the entry file's bytes */
	size_t len;
	struct fw_arena arena;
	struct fw_cache_module *modules;
	uint32_t nmodules;
	struct fw_version_fact versions[FW_INVENTORY_MAX_VERSIONS];
	size_t nversions;
};

/* The entry of an image, or false (no cache, absent, or not valid: why is in `why` when given). */
bool fw_cache_load(const struct fw_cache *c, const char *sha256_hex, struct fw_cache_entry *out, char *why,
		   size_t whylen);
void fw_cache_entry_free(struct fw_cache_entry *e);
/* The same from bytes already read (copied): what fw_cache_load checks after reading the file. */
bool fw_cache_entry_parse(const uint8_t *p, size_t n, const char *sha256_hex, struct fw_cache_entry *out, char *why,
			  size_t whylen);
/* Rebuild the HII database of an entry (the entry must outlive the db). */
bool fw_cache_entry_hii(const struct fw_cache_entry *e, struct fw_hii_db *db, struct fw_error *err);

/* Store the modules of a db and the image's version facts under the image's hash, then keep the
 * folder under its bound. False (with the reason in err) when the folder cannot be written; the
 * caller goes on without the cache. */
bool fw_cache_store(const struct fw_cache *c, const char *sha256_hex, const struct fw_hii_db *db,
		    const struct fw_inventory *inv, struct fw_error *err);

/* The SHA-256 of an image file, remembered in DIR/images.idx by path, size and mtime. */
bool fw_cache_file_sha256(const struct fw_cache *c, const char *path, char out[FW_SHA256_HEX_LEN],
			  struct fw_error *err);
/* The file in `dir` whose SHA-256 is `sha256_hex`: DIR/SHA256 when it exists (checked), else every
 * regular file in it, hashed once (remembered through the cache). Returns a new path, or NULL. */
char *fw_cache_find_image(const struct fw_cache *c, const char *dir, const char *sha256_hex, struct fw_error *err);

#endif
