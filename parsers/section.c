/* FFS sections: header layouts, type names, well-known GUIDs. */
#include "section.h"

static const struct fw_field section_fields[SEC__COUNT] = {
	[SEC_SIZE] = {"Size", FW_FT_U24, 0, 0, FW_FF_HEX, NULL},
	[SEC_TYPE] = {"Type", FW_FT_U8, 3, 0, FW_FF_HEX, NULL},
	[SEC_EXTENDED_SIZE] = {"ExtendedSize", FW_FT_U32, 4, 0, FW_FF_HEX | FW_FF_HIDDEN, NULL},
};
const struct fw_layout fw_section_layout = {"section header", FW_SECTION_HEADER_SIZE, section_fields, SEC__COUNT};

static const struct fw_field section2_fields[SEC__COUNT] = {
	[SEC_SIZE] = {"Size", FW_FT_U24, 0, 0, FW_FF_HEX, NULL},
	[SEC_TYPE] = {"Type", FW_FT_U8, 3, 0, FW_FF_HEX, NULL},
	[SEC_EXTENDED_SIZE] = {"ExtendedSize", FW_FT_U32, 4, 0, FW_FF_HEX, NULL},
};
const struct fw_layout fw_section2_layout = {"section header (extended size)", FW_SECTION_HEADER2_SIZE, section2_fields,
					     SEC__COUNT};

static const struct fw_named_value compression_type_names[] = {
	{0x00, "none"}, {0x01, "EFI standard"}, {0x02, "LZMA"}, {0x86, "LZMA F86"}, {0, NULL},
};
static const struct fw_field compression_fields[SEC_COMPRESSION__COUNT] = {
	[SEC_COMPRESSION_UNCOMPRESSED_LENGTH] = {"UncompressedLength", FW_FT_U32, 0, 0, FW_FF_HEX, NULL},
	[SEC_COMPRESSION_TYPE] = {"CompressionType", FW_FT_U8, 4, 0, FW_FF_ENUM | FW_FF_HEX, compression_type_names},
};
const struct fw_layout fw_section_compression_layout = FW_LAYOUT("compression section header", 5, compression_fields);

const struct fw_named_value fw_guided_attribute_names[] = {
	{0x01, "PROCESSING_REQUIRED"}, {0x02, "AUTH_STATUS_VALID"}, {0, NULL},
};
static const struct fw_field guided_fields[SEC_GUIDED__COUNT] = {
	[SEC_GUIDED_GUID] = {"SectionDefinitionGuid", FW_FT_GUID, 0, 0, 0, NULL},
	[SEC_GUIDED_DATA_OFFSET] = {"DataOffset", FW_FT_U16, 16, 0, FW_FF_HEX, NULL},
	[SEC_GUIDED_ATTRIBUTES] = {"Attributes", FW_FT_U16, 18, 0, FW_FF_FLAGS, fw_guided_attribute_names},
};
const struct fw_layout fw_section_guided_layout = FW_LAYOUT("GUID-defined section header", 20, guided_fields);

static const struct fw_field freeform_fields[SEC_FREEFORM__COUNT] = {
	[SEC_FREEFORM_SUBTYPE_GUID] = {"SubTypeGuid", FW_FT_GUID, 0, 0, 0, NULL},
};
const struct fw_layout fw_section_freeform_layout = FW_LAYOUT("freeform subtype section header", 16, freeform_fields);

static const struct fw_field version_fields[SEC_VERSION__COUNT] = {
	[SEC_VERSION_BUILD_NUMBER] = {"BuildNumber", FW_FT_U16, 0, 0, 0, NULL},
};
const struct fw_layout fw_section_version_layout = FW_LAYOUT("version section header", 2, version_fields);

const char *fw_section_type_name(uint8_t type)
{
	switch (type) {
	case FW_SECTION_COMPRESSION: return "Compressed";
	case FW_SECTION_GUID_DEFINED: return "GUID defined";
	case FW_SECTION_DISPOSABLE: return "Disposable";
	case FW_SECTION_PE32: return "PE32 image";
	case FW_SECTION_PIC: return "PIC image";
	case FW_SECTION_TE: return "TE image";
	case FW_SECTION_DXE_DEPEX: return "DXE dependency";
	case FW_SECTION_VERSION: return "Version";
	case FW_SECTION_USER_INTERFACE: return "UI";
	case FW_SECTION_COMPATIBILITY16: return "16-bit image";
	case FW_SECTION_FIRMWARE_VOLUME_IMAGE: return "Volume image";
	case FW_SECTION_FREEFORM_SUBTYPE_GUID: return "Freeform subtype GUID";
	case FW_SECTION_RAW: return "Raw";
	case FW_SECTION_PEI_DEPEX: return "PEI dependency";
	case FW_SECTION_MM_DEPEX: return "MM dependency";
	case FW_SECTION_INSYDE_POSTCODE: return "Insyde postcode";
	case FW_SECTION_PHOENIX_POSTCODE: return "Phoenix postcode";
	}
	return "Unknown";
}

const struct fw_guid fw_guid_section_tiano = FW_GUID_INIT(0xA31280AD, 0x481E, 0x41B6, 0x95, 0xE8, 0x12, 0x7F, 0x4C, 0x98, 0x47, 0x79);
const struct fw_guid fw_guid_section_lzma = FW_GUID_INIT(0xEE4E5898, 0x3914, 0x4259, 0x9D, 0x6E, 0xDC, 0x7B, 0xD7, 0x94, 0x03, 0xCF);
const struct fw_guid fw_guid_section_lzma_hp = FW_GUID_INIT(0x0ED85E23, 0xF253, 0x413F, 0xA0, 0x3C, 0x90, 0x19, 0x87, 0xB0, 0x43, 0x97);
const struct fw_guid fw_guid_section_lzma_f86 = FW_GUID_INIT(0xD42AE6BD, 0x1352, 0x4BFB, 0x90, 0x9A, 0xCA, 0x72, 0xA6, 0xEA, 0xE8, 0x89);
const struct fw_guid fw_guid_section_brotli = FW_GUID_INIT(0x3D532050, 0x5CDA, 0x4FD0, 0x87, 0x9E, 0x0F, 0x7F, 0x63, 0x0D, 0x5A, 0xFB);
const struct fw_guid fw_guid_section_crc32 = FW_GUID_INIT(0xFC1BCDB0, 0x7D31, 0x49AA, 0x93, 0x6A, 0xA4, 0x60, 0x0D, 0x9D, 0xD0, 0x83);
const struct fw_guid fw_guid_section_gzip = FW_GUID_INIT(0x1D301FE9, 0xBE79, 0x4353, 0x91, 0xC2, 0xD2, 0x3B, 0xC9, 0x59, 0xAE, 0x0C);
const struct fw_guid fw_guid_section_amd_zlib = FW_GUID_INIT(0xCE3233F5, 0x2CD6, 0x4D87, 0x91, 0x52, 0x4A, 0x23, 0x8B, 0xB6, 0xD1, 0xC4);
const struct fw_guid fw_guid_section_firmware_contents_signed =
	FW_GUID_INIT(0x0F9D89E8, 0x9259, 0x4F76, 0xA5, 0xAF, 0x0C, 0x89, 0xE3, 0x40, 0x23, 0xDF);
const struct fw_guid fw_guid_section_rsa2048_sha256 =
	FW_GUID_INIT(0xA7717414, 0xC616, 0x4977, 0x94, 0x20, 0x84, 0x47, 0x12, 0xA7, 0x35, 0xBF);
