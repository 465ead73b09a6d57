/* FFS files (PiFirmwareFile.h; reference/formats.md 3.2). */
#ifndef FW_FFS_H
#define FW_FFS_H

#include "layout.h"

/* EFI_FFS_FILE_HEADER (24 bytes); EFI_FFS_FILE_HEADER2 adds ExtendedSize (32 bytes). */
enum {
	FFS_NAME,
	FFS_HEADER_CHECKSUM,
	FFS_FILE_CHECKSUM,
	FFS_TYPE,
	FFS_ATTRIBUTES,
	FFS_SIZE,
	FFS_STATE,
	FFS_EXTENDED_SIZE,
	FFS__COUNT
};
extern const struct fw_layout fw_ffs_layout;  /* 24 bytes; ExtendedSize hidden */
extern const struct fw_layout fw_ffs2_layout; /* 32 bytes */
#define FW_FFS_HEADER_SIZE 24
#define FW_FFS_HEADER2_SIZE 32

/* Attributes */
#define FW_FFS_ATTR_LARGE_FILE 0x01 /* FFSv3; TAIL_PRESENT in revision-1 volumes */
#define FW_FFS_ATTR_DATA_ALIGNMENT_2 0x02
#define FW_FFS_ATTR_FIXED 0x04
#define FW_FFS_ATTR_DATA_ALIGNMENT 0x38
#define FW_FFS_ATTR_CHECKSUM 0x40
extern const struct fw_bitfields fw_ffs_attribute_names;
#define FW_FFS_FIXED_CHECKSUM 0xAA
#define FW_FFS_FIXED_CHECKSUM_REV1 0x5A

/* State bits (invert first when the volume's erase polarity is 1) */
#define FW_FFS_STATE_HEADER_CONSTRUCTION 0x01
#define FW_FFS_STATE_HEADER_VALID 0x02
#define FW_FFS_STATE_DATA_VALID 0x04
#define FW_FFS_STATE_MARKED_FOR_UPDATE 0x08
#define FW_FFS_STATE_DELETED 0x10
#define FW_FFS_STATE_HEADER_INVALID 0x20

/* Types */
enum {
	FW_FFS_TYPE_ALL = 0x00,
	FW_FFS_TYPE_RAW = 0x01,
	FW_FFS_TYPE_FREEFORM = 0x02,
	FW_FFS_TYPE_SECURITY_CORE = 0x03,
	FW_FFS_TYPE_PEI_CORE = 0x04,
	FW_FFS_TYPE_DXE_CORE = 0x05,
	FW_FFS_TYPE_PEIM = 0x06,
	FW_FFS_TYPE_DRIVER = 0x07,
	FW_FFS_TYPE_COMBINED_PEIM_DRIVER = 0x08,
	FW_FFS_TYPE_APPLICATION = 0x09,
	FW_FFS_TYPE_MM = 0x0A,
	FW_FFS_TYPE_FIRMWARE_VOLUME_IMAGE = 0x0B,
	FW_FFS_TYPE_COMBINED_MM_DXE = 0x0C,
	FW_FFS_TYPE_MM_CORE = 0x0D,
	FW_FFS_TYPE_MM_STANDALONE = 0x0E,
	FW_FFS_TYPE_MM_CORE_STANDALONE = 0x0F,
	FW_FFS_TYPE_PAD = 0xF0,
};
/* UEFIExtract report names: "Raw", "Freeform", "SEC core", "PEI core", "DXE core", "PEI module",
 * "DXE driver", "Combined PEI/DXE", "Application", "SMM module", "Volume image", "Combined SMM/DXE",
 * "SMM core", "MM standalone module", "MM standalone core", "Pad", OEM/Debug/FFS ranges. */
const char *fw_ffs_type_name(uint8_t type);

/* Data alignment of a file from its attributes (bytes). */
uint32_t fw_ffs_alignment(uint8_t attributes);

#endif
