/* FFS files: header layouts, type names, alignment. */
#include "ffs.h"

#include <stdio.h>

static const struct fw_field ffs_fields[FFS__COUNT] = {
	[FFS_NAME] = {"Name", FW_FT_GUID, 0x00, 0, 0, NULL},
	[FFS_HEADER_CHECKSUM] = {"HeaderChecksum", FW_FT_U8, 0x10, 0, FW_FF_HEX, NULL},
	[FFS_FILE_CHECKSUM] = {"FileChecksum", FW_FT_U8, 0x11, 0, FW_FF_HEX, NULL},
	[FFS_TYPE] = {"Type", FW_FT_U8, 0x12, 0, FW_FF_HEX, NULL},
	[FFS_ATTRIBUTES] = {"Attributes", FW_FT_U8, 0x13, 0, FW_FF_FLAGS, fw_ffs_attribute_names},
	[FFS_SIZE] = {"Size", FW_FT_U24, 0x14, 0, FW_FF_HEX, NULL},
	[FFS_STATE] = {"State", FW_FT_U8, 0x17, 0, FW_FF_HEX, NULL},
	[FFS_EXTENDED_SIZE] = {"ExtendedSize", FW_FT_U64, 0x18, 0, FW_FF_HEX | FW_FF_HIDDEN, NULL},
};
const struct fw_layout fw_ffs_layout = {"FFS file header", FW_FFS_HEADER_SIZE, ffs_fields, FFS__COUNT};

static const struct fw_field ffs2_fields[FFS__COUNT] = {
	[FFS_NAME] = {"Name", FW_FT_GUID, 0x00, 0, 0, NULL},
	[FFS_HEADER_CHECKSUM] = {"HeaderChecksum", FW_FT_U8, 0x10, 0, FW_FF_HEX, NULL},
	[FFS_FILE_CHECKSUM] = {"FileChecksum", FW_FT_U8, 0x11, 0, FW_FF_HEX, NULL},
	[FFS_TYPE] = {"Type", FW_FT_U8, 0x12, 0, FW_FF_HEX, NULL},
	[FFS_ATTRIBUTES] = {"Attributes", FW_FT_U8, 0x13, 0, FW_FF_FLAGS, fw_ffs_attribute_names},
	[FFS_SIZE] = {"Size", FW_FT_U24, 0x14, 0, FW_FF_HEX, NULL},
	[FFS_STATE] = {"State", FW_FT_U8, 0x17, 0, FW_FF_HEX, NULL},
	[FFS_EXTENDED_SIZE] = {"ExtendedSize", FW_FT_U64, 0x18, 0, FW_FF_HEX, NULL},
};
const struct fw_layout fw_ffs2_layout = {"FFS file header (large file)", FW_FFS_HEADER2_SIZE, ffs2_fields, FFS__COUNT};

const struct fw_named_value fw_ffs_attribute_names[] = {
	{0x01, "LARGE_FILE"}, {0x02, "DATA_ALIGNMENT_2"}, {0x04, "FIXED"}, {0x40, "CHECKSUM"}, {0, NULL},
};

const char *fw_ffs_type_name(uint8_t type)
{
	static const char *const names[] = {
		[0x00] = "All",
		[0x01] = "Raw",
		[0x02] = "Freeform",
		[0x03] = "SEC core",
		[0x04] = "PEI core",
		[0x05] = "DXE core",
		[0x06] = "PEI module",
		[0x07] = "DXE driver",
		[0x08] = "Combined PEI/DXE",
		[0x09] = "Application",
		[0x0A] = "SMM module",
		[0x0B] = "Volume image",
		[0x0C] = "Combined SMM/DXE",
		[0x0D] = "SMM core",
		[0x0E] = "MM standalone module",
		[0x0F] = "MM standalone core",
	};
	if (type < sizeof(names) / sizeof(names[0]))
		return names[type];
	if (type == FW_FFS_TYPE_PAD)
		return "Pad";
	if (type >= 0xC0 && type <= 0xDF)
		return "OEM";
	if (type >= 0xE0 && type <= 0xEF)
		return "Debug";
	if (type >= 0xF1)
		return "FFS";
	return "Unknown";
}

uint32_t fw_ffs_alignment(uint8_t attributes)
{
	static const uint32_t table[8] = {1, 16, 128, 512, 1024, 4096, 32768, 65536};
	static const uint32_t table2[8] = {128u << 10, 256u << 10, 512u << 10, 1u << 20, 2u << 20, 4u << 20, 8u << 20, 16u << 20};
	unsigned idx = (attributes & FW_FFS_ATTR_DATA_ALIGNMENT) >> 3;
	return (attributes & FW_FFS_ATTR_DATA_ALIGNMENT_2) ? table2[idx] : table[idx];
}
