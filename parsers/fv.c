/* UEFI PI firmware volumes: the header layouts and file-system classification.
 * (The volume walk itself lives beside these declarations as the parser grows.) */
#include "fv.h"

static const struct fw_field fvh_fields[FVH__COUNT] = {
	[FVH_ZERO_VECTOR] = {"ZeroVector", FW_FT_BYTES, 0x00, 16, FW_FF_HIDDEN, NULL},
	[FVH_FILE_SYSTEM_GUID] = {"FileSystemGuid", FW_FT_GUID, 0x10, 0, 0, NULL},
	[FVH_LENGTH] = {"FvLength", FW_FT_U64, 0x20, 0, FW_FF_HEX, NULL},
	[FVH_SIGNATURE] = {"Signature", FW_FT_U32, 0x28, 0, FW_FF_HEX | FW_FF_HIDDEN, NULL},
	[FVH_ATTRIBUTES] = {"Attributes", FW_FT_U32, 0x2C, 0, FW_FF_FLAGS, fw_fvb2_attribute_names},
	[FVH_HEADER_LENGTH] = {"HeaderLength", FW_FT_U16, 0x30, 0, FW_FF_HEX, NULL},
	[FVH_CHECKSUM] = {"Checksum", FW_FT_U16, 0x32, 0, FW_FF_HEX, NULL},
	[FVH_EXT_HEADER_OFFSET] = {"ExtHeaderOffset", FW_FT_U16, 0x34, 0, FW_FF_HEX, NULL},
	[FVH_RESERVED] = {"Reserved", FW_FT_U8, 0x36, 0, FW_FF_HIDDEN, NULL},
	[FVH_REVISION] = {"Revision", FW_FT_U8, 0x37, 0, 0, NULL},
};
const struct fw_layout fw_fvh_layout = FW_LAYOUT("firmware volume header", FW_FVH_SIZE, fvh_fields);

static const struct fw_field fv_block_fields[FV_BLOCK__COUNT] = {
	[FV_BLOCK_NUM_BLOCKS] = {"NumBlocks", FW_FT_U32, 0, 0, FW_FF_HEX, NULL},
	[FV_BLOCK_LENGTH] = {"BlockLength", FW_FT_U32, 4, 0, FW_FF_HEX, NULL},
};
const struct fw_layout fw_fv_block_layout = FW_LAYOUT("volume block map entry", 8, fv_block_fields);

static const struct fw_field fv_ext_fields[FV_EXT__COUNT] = {
	[FV_EXT_FV_NAME] = {"FvName", FW_FT_GUID, 0, 0, 0, NULL},
	[FV_EXT_HEADER_SIZE] = {"ExtHeaderSize", FW_FT_U32, 16, 0, FW_FF_HEX, NULL},
};
const struct fw_layout fw_fv_ext_layout = FW_LAYOUT("volume extended header", 20, fv_ext_fields);

static const struct fw_field fv_ext_entry_fields[FV_EXT_ENTRY__COUNT] = {
	[FV_EXT_ENTRY_SIZE] = {"ExtEntrySize", FW_FT_U16, 0, 0, FW_FF_HEX, NULL},
	[FV_EXT_ENTRY_TYPE] = {"ExtEntryType", FW_FT_U16, 2, 0, FW_FF_HEX, NULL},
};
const struct fw_layout fw_fv_ext_entry_layout = FW_LAYOUT("volume extended header entry", 4, fv_ext_entry_fields);

const struct fw_named_value fw_fvb2_attribute_names[] = {
	{0x00000001, "READ_DISABLED_CAP"}, {0x00000002, "READ_ENABLED_CAP"}, {0x00000004, "READ_STATUS"},
	{0x00000008, "WRITE_DISABLED_CAP"}, {0x00000010, "WRITE_ENABLED_CAP"}, {0x00000020, "WRITE_STATUS"},
	{0x00000040, "LOCK_CAP"}, {0x00000080, "LOCK_STATUS"}, {0x00000200, "STICKY_WRITE"},
	{0x00000400, "MEMORY_MAPPED"}, {0x00000800, "ERASE_POLARITY"}, {0x00001000, "READ_LOCK_CAP"},
	{0x00002000, "READ_LOCK_STATUS"}, {0x00004000, "WRITE_LOCK_CAP"}, {0x00008000, "WRITE_LOCK_STATUS"},
	{0x80000000, "WEAK_ALIGNMENT"}, {0, NULL},
};

const struct fw_guid fw_guid_ffs1 = FW_GUID_INIT(0x7A9354D9, 0x0468, 0x444A, 0x81, 0xCE, 0x0B, 0xF6, 0x17, 0xD8, 0x90, 0xDF);
const struct fw_guid fw_guid_ffs2 = FW_GUID_INIT(0x8C8CE578, 0x8A3D, 0x4F1C, 0x99, 0x35, 0x89, 0x61, 0x85, 0xC3, 0x2D, 0xD3);
const struct fw_guid fw_guid_ffs3 = FW_GUID_INIT(0x5473C07A, 0x3DCB, 0x4DCA, 0xBD, 0x6F, 0x1E, 0x96, 0x89, 0xE7, 0x34, 0x9A);
const struct fw_guid fw_guid_nvram_system_nv_data =
	FW_GUID_INIT(0xFFF12B8D, 0x7696, 0x4C8B, 0xA9, 0x85, 0x27, 0x47, 0x07, 0x5B, 0x4F, 0x50);
const struct fw_guid fw_guid_nvram_fp_storage =
	FW_GUID_INIT(0x00504624, 0x8A59, 0x4EEB, 0xBD, 0x0F, 0x6B, 0x36, 0xE9, 0x61, 0x28, 0xE0);

/* FFSv2-compatible file systems beyond FFS1/FFS2 (UEFITool common/ffs.cpp FFSv2Volumes). */
static const struct fw_guid ffs2_compatible[] = {
	FW_GUID_INIT(0x04ADEEAD, 0x61FF, 0x4D31, 0xB6, 0xBA, 0x64, 0xF8, 0xBF, 0x90, 0x1F, 0x5A), /* Apple boot volume */
	FW_GUID_INIT(0xBD001B8C, 0x6A71, 0x487B, 0xA1, 0x4F, 0x0C, 0x2A, 0x2D, 0xCF, 0x7A, 0x5D), /* Apple boot volume */
	FW_GUID_INIT(0xAD3FFFFF, 0xD28B, 0x44C4, 0x9F, 0x13, 0x9E, 0xA9, 0x8A, 0x97, 0xF9, 0xF0), /* Intel */
	FW_GUID_INIT(0xD6A1CD70, 0x4B33, 0x4994, 0xA6, 0xEA, 0x37, 0x5F, 0x2C, 0xCC, 0x54, 0x37), /* Intel */
	FW_GUID_INIT(0x4F494156, 0xAED6, 0x4D64, 0xA5, 0x37, 0xB8, 0xA5, 0x55, 0x7B, 0xCE, 0xEC), /* Sony */
};

enum fw_fv_filesystem fw_fv_filesystem_of(const struct fw_guid *g)
{
	if (fw_guid_eq(g, &fw_guid_ffs1) || fw_guid_eq(g, &fw_guid_ffs2))
		return FW_FS_FFS2;
	if (fw_guid_eq(g, &fw_guid_ffs3))
		return FW_FS_FFS3;
	if (fw_guid_eq(g, &fw_guid_nvram_system_nv_data) || fw_guid_eq(g, &fw_guid_nvram_fp_storage))
		return FW_FS_NVRAM;
	for (size_t i = 0; i < sizeof(ffs2_compatible) / sizeof(ffs2_compatible[0]); i++)
		if (fw_guid_eq(g, &ffs2_compatible[i]))
			return FW_FS_FFS2;
	return FW_FS_UNKNOWN;
}

const char *fw_fv_filesystem_name(enum fw_fv_filesystem fs)
{
	switch (fs) {
	case FW_FS_FFS2: return "FFSv2";
	case FW_FS_FFS3: return "FFSv3";
	case FW_FS_NVRAM: return "NVRAM";
	case FW_FS_UNKNOWN: break;
	}
	return "Unknown";
}
