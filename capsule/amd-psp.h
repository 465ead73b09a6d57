/* AMD flash layout: Embedded Firmware Structure, PSP/BIOS directories, combo directories
 * (reference/formats.md 2). */
#ifndef FW_AMD_PSP_H
#define FW_AMD_PSP_H

#include "parsers/layout.h"

/* Embedded Firmware Structure (0x50 bytes) */
enum {
	EFS_SIGNATURE,
	EFS_IMC,
	EFS_GEC,
	EFS_XHCI,
	EFS_PSP_DIRECTORY,
	EFS_NEW_PSP_DIRECTORY,
	EFS_BIOS0,
	EFS_BIOS1,
	EFS_BIOS2,
	EFS_GEN,
	EFS_BIOS3,
	EFS_PSP_BACKUP,
	EFS_PROMONTORY,
	EFS_LP_PROMONTORY,
	EFS__COUNT
};
extern const struct fw_layout fw_amd_efs_layout;
#define FW_AMD_EFS_SIZE 0x50
#define FW_AMD_EFS_SIGNATURE 0x55AA55AAu

/* Directory header (16 bytes): $PSP, $PL2, $BHD, $BL2 */
enum { DIR_COOKIE, DIR_CHECKSUM, DIR_NUM_ENTRIES, DIR_ADDITIONAL_INFO, DIR__COUNT };
extern const struct fw_layout fw_amd_dir_layout;
#define FW_AMD_DIR_HEADER_SIZE 16
#define FW_AMD_COOKIE_PSP 0x50535024u  /* "$PSP" */
#define FW_AMD_COOKIE_PL2 0x324C5024u  /* "$PL2" */
#define FW_AMD_COOKIE_BHD 0x44484224u  /* "$BHD" */
#define FW_AMD_COOKIE_BL2 0x324C4224u  /* "$BL2" */
#define FW_AMD_COOKIE_2PSP 0x50535032u /* "2PSP" */
#define FW_AMD_COOKIE_2BHD 0x44484232u /* "2BHD" */
/* The checksum covers bytes from 0x08 (num_entries) to the end of the entries. */
#define FW_AMD_DIR_CHECKSUM_START 8
/* Entries decoded per directory when AdditionalInfo gives no size (real directories hold well
 * under 100; README "Limits"). */
#define FW_AMD_MAX_DIR_ENTRIES 1024

/* PSP directory entry (16 bytes) */
enum { PSP_ENTRY_TYPE, PSP_ENTRY_SUBPROG, PSP_ENTRY_FLAGS, PSP_ENTRY_SIZE, PSP_ENTRY_ADDRESS, PSP_ENTRY__COUNT };
extern const struct fw_layout fw_amd_psp_entry_layout;
#define FW_AMD_PSP_ENTRY_SIZE 16

/* BIOS directory entry (24 bytes) */
enum {
	BIOS_ENTRY_TYPE,
	BIOS_ENTRY_REGION_TYPE,
	BIOS_ENTRY_FLAGS,
	BIOS_ENTRY_SIZE,
	BIOS_ENTRY_SOURCE,
	BIOS_ENTRY_DESTINATION,
	BIOS_ENTRY__COUNT
};
extern const struct fw_layout fw_amd_bios_entry_layout;
#define FW_AMD_BIOS_ENTRY_SIZE 24
#define FW_AMD_BIOS_FLAG_RESET 0x01
#define FW_AMD_BIOS_FLAG_COPY 0x02
#define FW_AMD_BIOS_FLAG_READ_ONLY 0x04
#define FW_AMD_BIOS_FLAG_COMPRESSED 0x08

/* Combo directory header (32 bytes) and entries (16 bytes) */
enum { COMBO_COOKIE, COMBO_CHECKSUM, COMBO_NUM_ENTRIES, COMBO_LOOKUP, COMBO__COUNT };
extern const struct fw_layout fw_amd_combo_layout;
#define FW_AMD_COMBO_HEADER_SIZE 32
enum { COMBO_ENTRY_ID_SEL, COMBO_ENTRY_ID, COMBO_ENTRY_L2_ADDRESS, COMBO_ENTRY__COUNT };
extern const struct fw_layout fw_amd_combo_entry_layout;
#define FW_AMD_COMBO_ENTRY_SIZE 16

/* PSP firmware blob header (0x100 bytes) */
enum {
	PSPHDR_MAGIC,
	PSPHDR_SIZE_SIGNED,
	PSPHDR_SIG_OPT,
	PSPHDR_SIG_ID,
	PSPHDR_COMP_OPT,
	PSPHDR_UNCOMP_SIZE,
	PSPHDR_COMP_SIZE,
	PSPHDR_VERSION,
	PSPHDR_SIZE_TOTAL,
	PSPHDR_FW_TYPE,
	PSPHDR__COUNT
};
extern const struct fw_layout fw_amd_psp_blob_layout;
#define FW_AMD_PSP_BLOB_HEADER_SIZE 0x100

/* Entry type names (PSPTool psptool/file.py, amdfwtool.h) */
const char *fw_amd_psp_entry_name(uint8_t type);
const char *fw_amd_bios_entry_name(uint8_t type);

/* Address modes (bits 62-63 of an entry address, bits 29-30 of additional_info) */
enum { FW_AMD_ADDR_PHYSICAL = 0, FW_AMD_ADDR_FLASH_OFFSET = 1, FW_AMD_ADDR_DIR_RELATIVE = 2, FW_AMD_ADDR_SLOT_RELATIVE = 3 };

#endif
