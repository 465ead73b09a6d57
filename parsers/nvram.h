/* NVRAM variables, whatever store they come from (AMI NVAR, EDK2 VSS/VSS2, efivarfs files).
 *
 * Store parsers add nvram-store and variable nodes to a tree; each variable node's `ext` points to
 * a struct fw_variable. Consumers (settings binding, snapshots, diff) work on the flat list from
 * fw_nvram_collect and never on store formats. */
#ifndef FW_NVRAM_H
#define FW_NVRAM_H

#include "node.h"

enum fw_var_state {
	FW_VAR_STATE_VALID,   /* the live version */
	FW_VAR_STATE_DELETED, /* an older version, or deleted */
	FW_VAR_STATE_INVALID, /* malformed or not completely written */
};
const char *fw_var_state_name(enum fw_var_state s);

struct fw_variable {
	const char *name;     /* UTF-8 */
	struct fw_guid guid;
	uint32_t attributes;  /* EFI_VARIABLE_* */
	const uint8_t *data;  /* the live data (after following NVAR links) */
	size_t size;
	enum fw_var_state state;
	uint64_t offset;      /* absolute offset of the record, or FW_OFFSET_UNKNOWN */
	const char *store;    /* "NVAR", "VSS", "efivarfs", or a defaults store name ("StdDefaults") */
	struct fw_node *node;
};

struct fw_varlist {
	struct fw_variable **items;
	size_t count, cap;
};

/* Helpers shared by the store parsers (nvram.c). */
struct fw_variable *fw_variable_new(struct fw_tree *t);
/* Add a variable node for `record` (the whole on-disk record) under `parent`; sets the node's
 * GUID, name (the variable name), text (the GUID's table name) and ext, and the common fields. */
struct fw_node *fw_nvram_add_variable(struct fw_tree *t, struct fw_node *parent, const char *type,
				      const struct fw_view *record, struct fw_variable *var, struct fw_error *err);
/* Variable names as UTF-8 arena strings, capped at the tree's string limit: an 8-bit name (bytes
 * above 0x7F read as Latin-1) and a UCS-2 name of `units` CHAR16. */
const char *fw_nvram_name_8bit(struct fw_tree *t, const uint8_t *p, size_t n);
const char *fw_nvram_name_ucs2(struct fw_tree *t, const uint8_t *p, size_t units);

/* Store parsers: add children to `parent` from the store bytes in v. */
bool fw_nvar_parse_store(struct fw_tree *t, struct fw_node *parent, const struct fw_view *v, struct fw_error *err);
/* The same for a store that is the data of a variable (`name` = "StdDefaults", ...): its
 * variables carry that name as their store. */
bool fw_nvar_parse_named_store(struct fw_tree *t, struct fw_node *parent, const struct fw_view *v, const char *name,
			       struct fw_error *err);
bool fw_vss_parse_store(struct fw_tree *t, struct fw_node *parent, const struct fw_view *v, struct fw_error *err);
/* An efivarfs file (4-byte attributes + data) named Name-guid. */
bool fw_efivarfs_parse_file(struct fw_tree *t, struct fw_node *parent, const char *file_name, const struct fw_view *v,
			    struct fw_error *err);
/* True when a file name has the efivarfs form Name-guid. */
bool fw_efivarfs_name_ok(const char *file_name);
/* Larger than any variable a firmware accepts (they cap a variable at tens of KiB). */
#define FW_EFIVARFS_FILE_CAP ((size_t)16 << 20)
/* The root of a tree holding the variables of a folder laid out like /sys/firmware/efi/efivars
 * (an nvram store "efivarfs" of no bytes): each file goes under it (fw_efivarfs_parse_file). */
struct fw_node *fw_efivarfs_new_store(struct fw_tree *t, struct fw_error *err);
/* A tar archive of such a folder (plain, or compressed with gzip, xz, zstd or bzip2; the
 * recogniser says it is one: FW_INPUT_EFIVARFS_TAR), `name` in messages: the tree gets an
 * nvram-store root ("efivarfs") over v holding the variables, which keep views into v. An archive
 * with no Name-guid member is FW_E_NOT_FOUND (its other members are not read). */
bool fw_efivarfs_parse_tar(struct fw_tree *t, const struct fw_view *v, const char *name, struct fw_error *err);

/* Every variable under `root` (all versions when all_versions, else the live ones). */
void fw_nvram_collect(struct fw_node *root, bool all_versions, struct fw_varlist *out);
/* Live variable by name and GUID (NULL GUID matches any), outside default stores. */
const struct fw_variable *fw_nvram_find(const struct fw_varlist *l, const char *name, const struct fw_guid *g);
void fw_varlist_free(struct fw_varlist *l);

#endif
