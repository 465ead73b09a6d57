/* What a firmware image is made of, for comparing two of them: its modules (every FFS file that
 * is not a container: GUID, name, type, size, version section, SHA-256) and its version facts
 * (capsule/version.h: the AMI $FID, AGESA strings, the SEV firmware, microcode patch levels; and
 * the PSP header versions of the firmware the PSP loads).
 *
 * Built from a node tree the caller keeps alive; module bytes are views into it. SHA-256 is
 * computed on first use, so comparing two images hashes only the modules that differ. */
#ifndef FW_INVENTORY_H
#define FW_INVENTORY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "parsers/arena.h"
#include "parsers/hash.h"
#include "parsers/node.h"

struct fw_module {
	struct fw_guid guid;
	const char *name;     /* UI section text or GUID-table name, or NULL */
	const char *type;     /* "DXE driver", "PEI module", ... */
	const char *version;  /* text of its version section ("1.0"), or NULL */
	uint64_t offset;      /* absolute, or FW_OFFSET_UNKNOWN inside compressed data */
	const uint8_t *data;  /* header and body as stored (inflated when inside a compressed section) */
	size_t len;
	unsigned instance;    /* 0 for the first file with this GUID, 1 for the next ... */
	struct fw_node *node; /* the FFS file in the tree */
	bool hashed;
	char sha256[FW_SHA256_HEX_LEN];
};

struct fw_version_fact {
	const char *key;      /* "bios_version", "bios_date", "bios_tag", "ami_core", "agesa", "sev_firmware",
				 "microcode", "psp_bootloader", "smu_firmware", ... (PSP firmware by entry type) */
	const char *value;
	const char *source;   /* where it was read ("AMI $FID", "PSP entry 0x39", "kernel log", "DMI") */
};

#define FW_INVENTORY_MAX_VERSIONS 24

struct fw_inventory {
	struct fw_arena arena;
	struct fw_module *modules;
	size_t nmodules;
	struct fw_version_fact versions[FW_INVENTORY_MAX_VERSIONS];
	size_t nversions;
};

/* Modules and versions of a tree (NULL gives an empty inventory). */
void fw_inventory_build(const struct fw_tree *t, struct fw_inventory *out);
void fw_inventory_free(struct fw_inventory *inv);
/* SHA-256 of the module's bytes (hex), computed once. */
const char *fw_module_sha256(struct fw_module *m);
/* Add or replace a version fact (strings are copied). */
void fw_inventory_set_version(struct fw_inventory *inv, const char *key, const char *value, const char *source);
const struct fw_version_fact *fw_inventory_version(const struct fw_inventory *inv, const char *key);

#endif
