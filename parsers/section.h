/* FFS sections (PiFirmwareFile.h; reference/formats.md 3.3-3.4). */
#ifndef FW_SECTION_H
#define FW_SECTION_H

#include "layout.h"

/* EFI_COMMON_SECTION_HEADER (4 bytes) and EFI_COMMON_SECTION_HEADER2 (8 bytes, Size == 0xFFFFFF) */
enum { SEC_SIZE, SEC_TYPE, SEC_EXTENDED_SIZE, SEC__COUNT };
extern const struct fw_layout fw_section_layout;
extern const struct fw_layout fw_section2_layout;
#define FW_SECTION_HEADER_SIZE 4
#define FW_SECTION_HEADER2_SIZE 8
#define FW_SECTION_SIZE_EXTENDED 0xFFFFFFu
/* Characters kept of a UI or version section's text (README "Limits"). */
#define FW_SECTION_TEXT_MAX 1024

/* Type-specific headers, relative to the end of the common header */
enum { SEC_COMPRESSION_UNCOMPRESSED_LENGTH, SEC_COMPRESSION_TYPE, SEC_COMPRESSION__COUNT };
extern const struct fw_layout fw_section_compression_layout; /* 5 bytes */
enum { SEC_GUIDED_GUID, SEC_GUIDED_DATA_OFFSET, SEC_GUIDED_ATTRIBUTES, SEC_GUIDED__COUNT };
extern const struct fw_layout fw_section_guided_layout; /* 20 bytes; DataOffset counts from the section start */
enum { SEC_FREEFORM_SUBTYPE_GUID, SEC_FREEFORM__COUNT };
extern const struct fw_layout fw_section_freeform_layout; /* 16 bytes */
enum { SEC_VERSION_BUILD_NUMBER, SEC_VERSION__COUNT };
extern const struct fw_layout fw_section_version_layout; /* 2 bytes, then UCS-2 text */

#define FW_GUIDED_PROCESSING_REQUIRED 0x01
#define FW_GUIDED_AUTH_STATUS_VALID 0x02
extern const struct fw_bitfields fw_guided_attribute_names;

/* Compression section types */
#define FW_COMPRESSION_NONE 0x00
#define FW_COMPRESSION_STANDARD 0x01 /* EFI 1.1 or Tiano, chosen by re-parsing */
#define FW_COMPRESSION_LZMA_CUSTOM 0x02
#define FW_COMPRESSION_LZMA_F86_CUSTOM 0x86

enum {
	FW_SECTION_COMPRESSION = 0x01,
	FW_SECTION_GUID_DEFINED = 0x02,
	FW_SECTION_DISPOSABLE = 0x03,
	FW_SECTION_PE32 = 0x10,
	FW_SECTION_PIC = 0x11,
	FW_SECTION_TE = 0x12,
	FW_SECTION_DXE_DEPEX = 0x13,
	FW_SECTION_VERSION = 0x14,
	FW_SECTION_USER_INTERFACE = 0x15,
	FW_SECTION_COMPATIBILITY16 = 0x16,
	FW_SECTION_FIRMWARE_VOLUME_IMAGE = 0x17,
	FW_SECTION_FREEFORM_SUBTYPE_GUID = 0x18,
	FW_SECTION_RAW = 0x19,
	FW_SECTION_PEI_DEPEX = 0x1B,
	FW_SECTION_MM_DEPEX = 0x1C,
	FW_SECTION_INSYDE_POSTCODE = 0x20,
	FW_SECTION_PHOENIX_POSTCODE = 0xF0,
};
/* UEFIExtract report names: "Compressed", "GUID defined", "PE32 image", "TE image", "UI", "Version",
 * "Volume image", "Freeform subtype GUID", "Raw", "DXE dependency", "PEI dependency", "MM dependency"... */
const char *fw_section_type_name(uint8_t type);

/* Well-known GUID-defined section algorithms */
extern const struct fw_guid fw_guid_section_tiano, fw_guid_section_lzma, fw_guid_section_lzma_hp,
	fw_guid_section_lzma_f86, fw_guid_section_brotli, fw_guid_section_crc32, fw_guid_section_gzip,
	fw_guid_section_amd_zlib, fw_guid_section_firmware_contents_signed, fw_guid_section_rsa2048_sha256;
extern const struct fw_guid fw_guid_pei_apriori, fw_guid_dxe_apriori;
#define FW_AMD_ZLIB_HEADER_SIZE 0x100 /* u32 CompressedSize at +0x14, zlib stream after the header */

/* Dependency expressions (depex) */
enum {
	FW_DEPEX_BEFORE = 0x00,
	FW_DEPEX_AFTER = 0x01,
	FW_DEPEX_PUSH = 0x02,
	FW_DEPEX_AND = 0x03,
	FW_DEPEX_OR = 0x04,
	FW_DEPEX_NOT = 0x05,
	FW_DEPEX_TRUE = 0x06,
	FW_DEPEX_FALSE = 0x07,
	FW_DEPEX_END = 0x08,
	FW_DEPEX_SOR = 0x09,
};

#endif
