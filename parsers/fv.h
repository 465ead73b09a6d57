/* UEFI PI firmware volumes (PiFirmwareVolume.h; reference/formats.md 3.1). */
#ifndef FW_FV_H
#define FW_FV_H

#include "layout.h"

/* EFI_FIRMWARE_VOLUME_HEADER, 0x38 bytes before the block map */
enum {
	FVH_ZERO_VECTOR,
	FVH_FILE_SYSTEM_GUID,
	FVH_LENGTH,
	FVH_SIGNATURE,
	FVH_ATTRIBUTES,
	FVH_HEADER_LENGTH,
	FVH_CHECKSUM,
	FVH_EXT_HEADER_OFFSET,
	FVH_RESERVED,
	FVH_REVISION,
	FVH__COUNT
};
extern const struct fw_layout fw_fvh_layout;
#define FW_FVH_SIZE 0x38
#define FW_FVH_SIGNATURE 0x4856465Fu /* "_FVH" */
#define FW_FVH_SIGNATURE_OFFSET 0x28
#define FW_FVH_MIN_HEADER 0x48 /* header + one block map entry + terminator */

/* EFI_FV_BLOCK_MAP_ENTRY, 8 bytes */
enum { FV_BLOCK_NUM_BLOCKS, FV_BLOCK_LENGTH, FV_BLOCK__COUNT };
extern const struct fw_layout fw_fv_block_layout;

/* EFI_FIRMWARE_VOLUME_EXT_HEADER, 20 bytes, then entries {u16 size, u16 type} */
enum { FV_EXT_FV_NAME, FV_EXT_HEADER_SIZE, FV_EXT__COUNT };
extern const struct fw_layout fw_fv_ext_layout;
enum { FV_EXT_ENTRY_SIZE, FV_EXT_ENTRY_TYPE, FV_EXT_ENTRY__COUNT };
extern const struct fw_layout fw_fv_ext_entry_layout;

/* Attributes (EFI_FVB2_*) */
#define FW_FVB2_ERASE_POLARITY 0x00000800u
#define FW_FVB2_ALIGNMENT_MASK 0x001F0000u
#define FW_FVB2_WEAK_ALIGNMENT 0x80000000u
extern const struct fw_bitfields fw_fvb2_attribute_names;

/* File systems */
enum fw_fv_filesystem { FW_FS_UNKNOWN, FW_FS_FFS2, FW_FS_FFS3, FW_FS_NVRAM };
enum fw_fv_filesystem fw_fv_filesystem_of(const struct fw_guid *fs_guid);
/* "FFSv2", "FFSv3", "NVRAM", "Unknown": the UEFIExtract report subtype */
const char *fw_fv_filesystem_name(enum fw_fv_filesystem fs);

extern const struct fw_guid fw_guid_ffs1, fw_guid_ffs2, fw_guid_ffs3, fw_guid_nvram_system_nv_data,
	fw_guid_nvram_fp_storage;

#endif
