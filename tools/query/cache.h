/* The cache of decoded firmware, so the Nth machine that runs the same BIOS is cheap.
 *
 * An entry holds what the commands that read a machine draw from its BIOS image: the blobs of
 * every module that has setup forms (the bytes the forms and strings are decoded from, at their
 * offsets, so the settings model is rebuilt exactly as from the image; bytes no package, package
 * list or length prefix covers are left out and read back as zeros, which is checked to decode
 * the same before it is stored), the image's version facts ($FID, AGESA, SEV firmware ... with
 * where they were read; doctor and notes use them) and the topic matches of the settings (which
 * rule of which topic matches which setting). It is keyed by the image's SHA-256, the fwlens
 * version and the SHA-256 of the topic rules in use (the built-in topics.xml, $FWLENS_RULES or
 * --rules), one file per key in the cache folder:
 *
 *   DIR/forms-IMAGE-RULES.bin  "FWLCACHE", format, fwlens version, image SHA-256, rules SHA-256,
 *                              the version facts, the modules and their blobs (runs of bytes),
 *                              the topic matches, then the HMAC-SHA256 of all that
 *   DIR/images.idx             image files already hashed ("SHA256 SIZE MTIME-NS INODE HMAC PATH"
 *                              lines, the HMAC over the line without it): --image, --image-dir
 *                              files not named by their hash and images stored in snapshots
 *                              ("PATH<tab>MEMBER") are hashed once; at most FW_CACHE_MAX_INDEX
 *                              bytes (a longer index is not read, and is rebuilt)
 *   DIR/pci-names.idx          PCI device names libpci found in its database (tools/host/pci-names.h),
 *                              "VVVV DDDD HMAC DATABASE<tab>NAME" lines (the HMAC over the line
 *                              without it; DATABASE: the file's path and state, a changed file is
 *                              a miss), so a warm doctor does not load the database; at most
 *                              FW_CACHE_MAX_INDEX bytes (a longer file is replaced)
 *   DIR/hmac.key               the MAC key: 32 random bytes, made on the first store, 0600
 *
 * What the cache trusts: its folder and files only when they are the user's own, as ssh treats
 * ~/.ssh. The folder (its last part no symbolic link) and every file in it are opened relative to
 * the opened folder without following links, and what was opened is checked (fstat): owned by the
 * user running fwlens and writable by no one else (the key: not readable by anyone else either);
 * otherwise it is not used and `warn` says why, naming the path. Folders are made 0700 and files
 * 0600 whatever the umask. An entry or index line counts only when its HMAC verifies with the key:
 * bytes from anyone who cannot read the key (an entry copied in, written through another path, or
 * forged with a recomputed digest) are a miss, rebuilt from the image. Anyone who can read the key
 * (the user, root) can forge entries; they can change the user's files anyway.
 *
 * Entries are written to a new temporary file and renamed over their name (a link or a foreign
 * file there is replaced, never written through); the folder is kept under a size bound
 * (--cache-max, $FWLENS_CACHE_MAX, else 512 MiB; images.idx counts) by removing the entries used
 * longest ago (a hit refreshes its time); eviction removes only names the cache writes
 * (forms-HEX64-HEX64.bin and their temporary files), never other files. An entry is read in one
 * piece (its size from fstat, at most FW_CACHE_MAX_ENTRY; a file whose length changes meanwhile is
 * a miss) and parsed with the bounded reader like any input: a wrong magic, MAC, version, key or
 * length makes it a miss (it is rebuilt), never an error and never trusted. */
#ifndef FW_CACHE_H
#define FW_CACHE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ifr/hii.h"
#include "tools/host/pci-names.h"
#include "inventory.h"
#include "parsers/arena.h"
#include "parsers/hash.h"

/* Default bound on the folder's total size, and the largest entry read. */
#define FW_CACHE_MAX_BYTES ((uint64_t)512 << 20)
#define FW_CACHE_MAX_ENTRY ((size_t)64 << 20)
/* The largest images.idx read; a longer one is rebuilt. */
#define FW_CACHE_MAX_INDEX ((size_t)1 << 20)
/* The MAC key's length in bytes. */
#define FW_CACHE_KEY_LEN 32
/* Most modules and blobs one entry may describe. */
#define FW_CACHE_MAX_MODULES 4096
#define FW_CACHE_MAX_BLOBS 64

struct fw_cache {
	const char *dir;    /* NULL: no cache (--no-cache, or no folder known) */
	uint64_t max_bytes; /* 0: FW_CACHE_MAX_BYTES */
	const char *rules;  /* the topic rules file (--rules); NULL: $FWLENS_RULES, else the built-in rules */
	char rules_sha256[FW_SHA256_HEX_LEN]; /* the SHA-256 of the rules' bytes: part of every key */
	/* told (one line) when a folder or file of the cache is not used because it is not the user's
	 * own or is a symbolic link; NULL: not told */
	void (*warn)(void *ctx, const char *msg);
	void *warn_ctx;
};

/* Whether the cache folder may be used: absent (it is made on the first store), or the user's own
 * folder, writable by no one else, with no unusable key in it. False (said through `warn`) when
 * the command is to go on without the cache. */
bool fw_cache_trusted(const struct fw_cache *c);
/* The MAC of p[0..n) that entries and index lines carry (HMAC-SHA256); false when libcrypto
 * cannot make it (then nothing verifies). */
bool fw_cache_mac(const uint8_t key[FW_CACHE_KEY_LEN], const uint8_t *p, size_t n, uint8_t out[FW_SHA256_LEN]);

/* The cache folder from --cache-dir, else $XDG_CACHE_HOME/fwlens, else $HOME/.cache/fwlens (the
 * caller reads the environment); NULL when none applies. Returns a new string. */
char *fw_cache_dir_default(const char *cache_dir_opt, const char *xdg_cache_home, const char *home);
/* A size bound: bytes, or a number with K, M or G (binary units); at least 1 MiB. False when the
 * text is not one. */
bool fw_cache_parse_size(const char *text, uint64_t *out);

/* A topic match of the settings list built from the forms (fw_setlist_from_settings, every
 * module): the item's index and prompt (checked before use), the topic and the rule's id. */
struct fw_cache_match {
	uint32_t item;
	const char *prompt, *topic, *rule;
};
struct fw_cache_matches {
	bool known;       /* false: not stored (a rule ran into the matching limits) */
	const char *lang; /* the --lang the list was built with ("" for the default) */
	uint32_t nitems;  /* the list's length */
	struct fw_cache_match *v;
	uint32_t n;
};

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
	const uint8_t *data; /* the entry file's bytes (in arena) */
	size_t len;
	struct fw_arena arena;
	struct fw_cache_module *modules;
	uint32_t nmodules;
	struct fw_version_fact versions[FW_INVENTORY_MAX_VERSIONS];
	size_t nversions;
	struct fw_cache_matches matches;
};

/* The entry of an image, or false (no cache, absent, or not valid: why is in `why` when given). */
bool fw_cache_load(const struct fw_cache *c, const char *sha256_hex, struct fw_cache_entry *out, char *why,
		   size_t whylen);
void fw_cache_entry_free(struct fw_cache_entry *e);
/* The same from bytes already read (copied), for the image and rules hashes and the MAC key
 * given: what fw_cache_load checks after reading the file. */
bool fw_cache_entry_parse(const uint8_t *p, size_t n, const char *sha256_hex, const char *rules_sha256_hex,
			  const uint8_t key[FW_CACHE_KEY_LEN], struct fw_cache_entry *out, char *why, size_t whylen);
/* fw_cache_load, then fw_cache_entry_hii into db (initialised by the caller), with the entry's
 * MAC checked on a second thread meanwhile (both read the entry with bounds, as any input).
 * False when any of it fails (why says what): the entry is freed then and the caller closes the
 * db, which may hold modules of it. */
bool fw_cache_load_hii(const struct fw_cache *c, const char *sha256_hex, struct fw_cache_entry *out,
		       struct fw_hii_db *db, char *why, size_t whylen);
/* Rebuild the HII database of an entry (the entry must outlive the db). */
bool fw_cache_entry_hii(const struct fw_cache_entry *e, struct fw_hii_db *db, struct fw_error *err);

/* Store the modules of a db, the image's version facts and the topic matches (NULL: none known)
 * under the image's hash and the rules' hash, then keep the folder under its bound. False (with
 * the reason in err) when the folder cannot be written; the caller goes on without the cache. */
bool fw_cache_store(const struct fw_cache *c, const char *sha256_hex, const struct fw_hii_db *db,
		    const struct fw_inventory *inv, const struct fw_cache_matches *matches, struct fw_error *err);

/* The SHA-256 of an image file, remembered in DIR/images.idx by path, size, mtime (ns) and inode. */
bool fw_cache_file_sha256(const struct fw_cache *c, const char *path, char out[FW_SHA256_HEX_LEN],
			  struct fw_error *err);
/* The SHA-256 of `member` of the archive file `archive` (its bytes p[0..n)), remembered in
 * DIR/images.idx by the archive's path, size, mtime and inode and the member's name: an image stored
 * in a snapshot is hashed once, not on every run. */
void fw_cache_member_sha256(const struct fw_cache *c, const char *archive, const char *member, const uint8_t *p,
			    size_t n, char out[FW_SHA256_HEX_LEN]);
/* The file in `dir` whose SHA-256 is `sha256_hex`: DIR/SHA256 when it exists (checked), else every
 * regular file in it, hashed once (remembered through the cache). Returns a new path, or NULL. */
char *fw_cache_find_image(const struct fw_cache *c, const char *dir, const char *sha256_hex, struct fw_error *err);

/* PCI names through the cache (DIR/pci-names.idx): `n` (living until exit) becomes the memo of
 * fw_pci_device_name. The file is read on the first name asked for; names found later are
 * appended. */
struct fw_cache_names {
	const struct fw_cache *cache;
	struct fw_pci_names_memo memo;
	bool read;  /* the file was looked at */
	char *text; /* its lines, then those remembered since (NULL: none) */
	size_t len;
	bool keyed;
	uint8_t key[FW_CACHE_KEY_LEN];
};
void fw_cache_names_use(struct fw_cache_names *n, const struct fw_cache *c);

#endif
