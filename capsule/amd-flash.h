/* AMD flash layout in an image: find the Embedded Firmware Structure, follow PSP, BIOS and combo
 * directories (levels 1 and 2) and add psp-directory / psp-entry nodes under `image`.
 *
 * Every EFS found becomes a region node ("AMD EFS") under the image; the directories it points to
 * are its children, each entry a psp-entry child of its directory, and a directory an entry links
 * to (level 2, A/B copies, combo targets) a child of that entry. A directory reached a second time
 * is not decoded again: the entry carries "SameAs". Directory nodes carry a struct fw_amd_dir as
 * `ext`, entry nodes a struct fw_amd_entry. */
#ifndef FW_AMD_FLASH_H
#define FW_AMD_FLASH_H

#include "parsers/node.h"

struct fw_amd_efs {
	uint64_t offset;   /* in the image */
	bool second_gen;   /* EfsGeneration bit 0 clear */
	uint32_t psp, psp_legacy, bios[4], psp_backup; /* raw pointers */
};

struct fw_amd_dir {
	uint32_t cookie;       /* FW_AMD_COOKIE_* */
	bool combo, bios, level2;
	uint32_t num_entries, additional_info;
	uint32_t checksum, checksum_computed;
	bool checksum_ok;
	unsigned address_mode; /* from additional_info bits 29-30 */
	uint64_t offset;       /* in the image */
};

struct fw_amd_entry {
	bool bios, combo;
	uint8_t type, subprogram, region_type;
	uint16_t flags;
	unsigned instance, rom_id;
	bool writable, reset, copy, read_only, compressed;
	uint32_t size;
	uint64_t address;      /* as written, without the address-mode bits */
	uint64_t destination;  /* BIOS entries */
	unsigned address_mode;
	uint32_t id_select, id; /* combo entries */
	bool inline_value;     /* soft fuse chain: `address` is the value */
	bool located;          /* the data lies inside the image */
	uint64_t image_offset; /* where the data starts in the image (when located) */
	const char *name;
	char version[32];      /* from the PSP firmware header, "" if none */
	bool psp_header;       /* data starts with a 0x100-byte PSP firmware header */
	uint32_t uncompressed_size;
	struct fw_view inflated; /* set by fw_amd_entry_inflate */
	struct fw_error *inflate_error; /* its failure, kept: many entries may point at one bomb */
};

/* Returns true when the image was examined (finding nothing is not an error). */
bool fw_amd_flash_parse(struct fw_tree *t, struct fw_node *image, const struct fw_view *v, struct fw_error *err);

/* The zlib stream of a compressed entry (PSP header compression option, or the BIOS entry's
 * compressed flag), inflated once into a buffer the tree owns, within what is left of the tree's
 * decompression limits; a failure is kept and given again without inflating again. */
bool fw_amd_entry_inflate(struct fw_tree *t, const struct fw_node *entry, struct fw_view *out, struct fw_error *err);

#endif
