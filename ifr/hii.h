/* HII package discovery and pairing (reference/ifr.md 1.2, 3).
 *
 * A module (one FFS file, or one blob given on its own) holds one or more blobs: a PE32/TE body,
 * raw and freeform sections next to it. fwlens finds, in every blob:
 *   - form packages (type 0x02): start with a scoped FORM_SET, every opcode 2..127 bytes, scopes
 *     balanced exactly at the package end (fw_ifr_check_package);
 *   - string packages (type 0x04): header, language tag and SIBT walk checked (fw_hii_strings_check);
 *   - package lists (GUID + length + packages + END), as built for HII resource sections.
 * Accepted packages are skipped over, so nothing is found inside another package.
 *
 * String packages are grouped: the packages of one package list; else a run of adjacent packages
 * (a StrGather array when a u32 length prefix confirms it), split where a language repeats. Each
 * form package is paired with one group:
 *   1. "package-list": the group of the package list that holds the form package;
 *   2. "coverage": the group whose text covers the most string ids the form package uses (every
 *      one, normally), whose formset title is plausible text, nearest to the form package first.
 * The choice, the coverage and the number of candidates are kept for the output.
 * Text is looked up per id: the requested language, then en-US, then any display language.
 */
#ifndef FW_HII_H
#define FW_HII_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "capsule/detect.h"
#include "hii-strings.h"
#include "ifr.h"
#include "parsers/file.h"
#include "parsers/node.h"

struct fw_hii_blob {
	struct fw_view view;
	const char *kind; /* "PE32", "TE", "raw", "freeform", "file" */
};

struct fw_hii_group {
	uint32_t first, count;   /* consecutive entries of fw_hii_module.strings */
	const char *kind;        /* "package-list", "array", "run" */
	uint32_t blob;
	size_t offset, end;      /* inside the blob */
};

enum fw_hii_pairing { FW_HII_PAIR_NONE, FW_HII_PAIR_PACKAGE_LIST, FW_HII_PAIR_COVERAGE };
const char *fw_hii_pairing_name(enum fw_hii_pairing p); /* "none", "package-list", "coverage" */

/* Text lookup order for one form package: the requested language first, then fallbacks. */
struct fw_hii_strtab {
	const struct fw_hii_strings **pkgs;
	uint32_t n;
	const char *language; /* language of pkgs[0], or NULL without strings */
};

struct fw_hii_form_pkg {
	struct fw_ifr_formset fs;
	uint32_t blob;
	size_t offset;           /* of the package inside its blob */
	uint64_t abs_offset;     /* in the input, or FW_OFFSET_UNKNOWN */
	int list;                /* package list index, -1 when not in one */
	bool array_prefix;       /* preceded by the u32 length of a VfrCompile array */
	/* pairing */
	int group;               /* index into fw_hii_module.groups, -1 = none */
	enum fw_hii_pairing pairing;
	uint32_t ids_used;       /* string ids the package references */
	uint32_t ids_covered;    /* of those, ids with text in the chosen group */
	uint32_t candidates;     /* groups considered */
	uint32_t full_cover;     /* groups that cover every id */
	size_t distance;         /* bytes between package and group (same blob) */
	struct fw_hii_strtab strings;
	struct fw_hii_module *module;
	uint32_t index;          /* in the module */
};

struct fw_hii_list {
	struct fw_guid guid;
	uint32_t blob;
	size_t offset, length;
};

struct fw_hii_module {
	struct fw_guid guid;     /* FFS file GUID */
	bool has_guid;
	const char *name;        /* UI section text or GUID-table name, NULL if unknown */
	uint64_t offset;         /* of the FFS file, or FW_OFFSET_UNKNOWN */
	struct fw_hii_blob *blobs;
	uint32_t nblobs;
	struct fw_hii_form_pkg *forms;
	uint32_t nforms;
	struct fw_hii_strings *strings;
	uint32_t nstrings;
	struct fw_hii_group *groups;
	uint32_t ngroups;
	struct fw_hii_list *lists;
	uint32_t nlists;
	uint32_t index;
};

struct fw_hii_options {
	const char *lang;   /* requested display language; NULL = "en-US" */
	size_t max_string;  /* longest string kept, bytes; 0 = the tree limit default */
	bool keep_string_only; /* keep modules that have string packages but no forms */
	/* Called once the firmware tree is parsed, before its forms are decoded: a caller that needs
	 * more of the raw image (version strings, module lists) takes it here, while it is resident. */
	void (*tree_parsed)(void *ctx, struct fw_firmware *fw);
	void *tree_parsed_ctx;
};

struct fw_hii_db {
	struct fw_arena arena;
	struct fw_hii_options opt;
	struct fw_hii_module **modules;
	uint32_t nmodules, cap;
	uint32_t modules_scanned;  /* modules looked at */
	uint32_t string_only;      /* modules with strings and no forms */
};

void fw_hii_db_init(struct fw_hii_db *db, const struct fw_hii_options *o);
void fw_hii_db_free(struct fw_hii_db *db);

/* Scan the blobs of one module, decode its form packages and pair them. The blob views must
 * outlive the db. A module without packages is not added (that is not an error). */
bool fw_hii_add_module(struct fw_hii_db *db, const struct fw_hii_blob *blobs, uint32_t nblobs,
		       const struct fw_guid *guid, const char *name, uint64_t offset, struct fw_error *err);

/* Every FFS file under `root` is a module; its PE32, TE, raw and freeform section bodies are its
 * blobs (compressed sections are already inflated by the tree, once). A tree without FFS files
 * (a bare section or module) is scanned as one blob. */
bool fw_hii_add_tree(struct fw_hii_db *db, const struct fw_node *root, struct fw_error *err);

/* An input opened for HII: the mapped file and the packages found in it. */
struct fw_hii_input {
	struct fw_file file;
	struct fw_firmware fw; /* the firmware tree, when the input has FFS files */
	bool have_fw;
	struct fw_hii_db db;
	const char *how; /* "modules of the firmware tree", "one blob" */
};

/* Paths are opened by the query layer (fw_source_open_hii, tools/query/source.h); here forms are
 * found in a firmware tree or in bytes.
 *
 * A firmware input already opened (fw_firmware_open or fw_firmware_parse_buffer), taken over by
 * `in`: every module of its tree when it has FFS files (*used set); else the tree is closed and
 * the caller hands the bytes over as one blob (fw_hii_open_buffer). */
bool fw_hii_open_firmware(struct fw_hii_input *in, struct fw_firmware *fw, const struct fw_hii_options *o, bool *used,
			  struct fw_error *err);
/* Whole images, capsules, volumes, FFS files, section files (UEFITool .sct), PE32/TE bodies or
 * raw package blobs in a buffer the caller keeps alive (an image stored in a snapshot): the
 * firmware tree when the bytes have FFS files, else one blob. */
bool fw_hii_open_image(const uint8_t *p, size_t n, const struct fw_hii_options *o, struct fw_hii_input *in,
		       struct fw_error *err);
/* One blob over a buffer the caller keeps alive: no firmware tree. */
bool fw_hii_open_buffer(const uint8_t *p, size_t n, const struct fw_hii_options *o, struct fw_hii_input *in,
			struct fw_error *err);
void fw_hii_close(struct fw_hii_input *in);

/* Text of a string id for a form package (requested language with per-id fallback), or NULL. */
const char *fw_hii_string(const struct fw_hii_form_pkg *fp, uint16_t id);
/* The same, never NULL: "" for id 0, "InvalidId" when no package has it (IFRExtractor-RS word). */
const char *fw_hii_string_or(const struct fw_hii_form_pkg *fp, uint16_t id, const char *missing);

/* The keyword of a string id in the configuration language of the form package's strings
 * (x-UEFI-AMI "PCIS007": the name AMI BMCs publish as a Redfish BIOS attribute), or NULL. */
const char *fw_hii_keyword(const struct fw_hii_form_pkg *fp, uint16_t id);

/* Languages of the chosen group, in package order (display and configuration). */
uint32_t fw_hii_languages(const struct fw_hii_form_pkg *fp, const char **out, uint32_t max);

/* Does the module match --module (a GUID, a name, case-insensitive, or a GUID prefix)? */
bool fw_hii_module_matches(const struct fw_hii_module *m, const char *want);

#endif
