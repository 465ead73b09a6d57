/* Capsule header layouts (the decoder and signature check build on these). */
#include "aptio.h"

static const struct fw_bitfield fw_capsule_flag_bits[] = {
	FW_FLAG("RSA_PSS", 0x00000001), FW_FLAG("HEADER_SIGNED", 0x00000002),
	FW_FLAG("ROOT_SIGNS_KEY_ONLY", 0x00000004), FW_FLAG("PAYLOAD_SIG_INVALID", 0x00000008),
	FW_FLAG("EMBEDDED", 0x00000010), FW_FLAG("HASH_MANIFEST", 0x00000020),
	FW_FLAG("PERSIST_ACROSS_RESET", 0x00010000), FW_FLAG("POPULATE_SYSTEM_TABLE", 0x00020000),
	FW_FLAG("INITIATE_RESET", 0x00040000),
};
const struct fw_bitfields fw_capsule_flag_names = FW_BITFIELDS(fw_capsule_flag_bits);

static const struct fw_field efi_capsule_fields[CAP__COUNT] = {
	[CAP_GUID] = {"CapsuleGuid", FW_FT_GUID, 0x00, 0, 0, NULL},
	[CAP_HEADER_SIZE] = {"HeaderSize", FW_FT_U32, 0x10, 0, FW_FF_HEX, NULL},
	[CAP_FLAGS] = {"Flags", FW_FT_U32, 0x14, 0, FW_FF_FLAGS, &fw_capsule_flag_names},
	[CAP_IMAGE_SIZE] = {"CapsuleImageSize", FW_FT_U32, 0x18, 0, FW_FF_HEX, NULL},
	[CAP_ROM_IMAGE_OFFSET] = {"RomImageOffset", FW_FT_U16, 0x1C, 0, FW_FF_HEX | FW_FF_HIDDEN, NULL},
	[CAP_ROM_LAYOUT_OFFSET] = {"RomLayoutOffset", FW_FT_U16, 0x1E, 0, FW_FF_HEX | FW_FF_HIDDEN, NULL},
};
const struct fw_layout fw_efi_capsule_layout = FW_LAYOUT("EFI capsule header", FW_EFI_CAPSULE_HEADER_SIZE, efi_capsule_fields);

static const struct fw_field aptio_capsule_fields[CAP__COUNT] = {
	[CAP_GUID] = {"CapsuleGuid", FW_FT_GUID, 0x00, 0, 0, NULL},
	[CAP_HEADER_SIZE] = {"HeaderSize", FW_FT_U32, 0x10, 0, FW_FF_HEX, NULL},
	[CAP_FLAGS] = {"Flags", FW_FT_U32, 0x14, 0, FW_FF_FLAGS, &fw_capsule_flag_names},
	[CAP_IMAGE_SIZE] = {"CapsuleImageSize", FW_FT_U32, 0x18, 0, FW_FF_HEX, NULL},
	[CAP_ROM_IMAGE_OFFSET] = {"RomImageOffset", FW_FT_U16, 0x1C, 0, FW_FF_HEX, NULL},
	[CAP_ROM_LAYOUT_OFFSET] = {"RomLayoutOffset", FW_FT_U16, 0x1E, 0, FW_FF_HEX, NULL},
};
const struct fw_layout fw_aptio_capsule_layout =
	FW_LAYOUT("AMI Aptio capsule header", FW_APTIO_CAPSULE_HEADER_SIZE, aptio_capsule_fields);

static const struct fw_field sign_cert_fields[CERT__COUNT] = {
	[CERT_LENGTH] = {"dwLength", FW_FT_U32, 0x00, 0, FW_FF_HEX, NULL},
	[CERT_REVISION] = {"wRevision", FW_FT_U16, 0x04, 0, FW_FF_HEX, NULL},
	[CERT_TYPE] = {"wCertificateType", FW_FT_U16, 0x06, 0, FW_FF_HEX, NULL},
	[CERT_CERT_TYPE_GUID] = {"CertType", FW_FT_GUID, 0x08, 0, 0, NULL},
	[CERT_HASH_TYPE] = {"HashType", FW_FT_GUID, 0x18, 0, 0, NULL},
	[CERT_PUBLIC_KEY] = {"PublicKey", FW_FT_BYTES, 0x28, FW_RSA2048_BYTES, FW_FF_HIDDEN, NULL},
	[CERT_SIGNATURE] = {"Signature", FW_FT_BYTES, 0x128, FW_RSA2048_BYTES, FW_FF_HIDDEN, NULL},
};
const struct fw_layout fw_aptio_sign_cert_layout = FW_LAYOUT("AMI firmware certificate", FW_APTIO_SIGN_CERT_SIZE, sign_cert_fields);

static const struct fw_field root_cert_fields[ROOT__COUNT] = {
	[ROOT_HASH_TYPE] = {"HashType", FW_FT_GUID, 0x00, 0, 0, NULL},
	[ROOT_PUBLIC_KEY] = {"PublicKey", FW_FT_BYTES, 0x10, FW_RSA2048_BYTES, FW_FF_HIDDEN, NULL},
	[ROOT_SIGNATURE] = {"Signature", FW_FT_BYTES, 0x110, FW_RSA2048_BYTES, FW_FF_HIDDEN, NULL},
};
const struct fw_layout fw_aptio_root_cert_layout = FW_LAYOUT("AMI root certificate", FW_APTIO_ROOT_CERT_SIZE, root_cert_fields);

static const struct fw_bitfield fw_rom_area_attribute_bits[] = {
	FW_FLAG("FV_PEI", 0x002), FW_FLAG("FV_PEI_MEM", 0x004), FW_FLAG("FV_DXE", 0x008), FW_FLAG("FV_BDS", 0x010),
	FW_FLAG("PEI_SHADOW", 0x020), FW_FLAG("VERIFY", 0x040), FW_FLAG("NON_CRITICAL", 0x080),
	FW_FLAG("SIGNED", 0x200), FW_FLAG("VITAL", 0x400), FW_FLAG("FV_DXE2", 0x800), FW_FLAG("TCG_MEASURED", 0x8000),
};
const struct fw_bitfields fw_rom_area_attribute_names = FW_BITFIELDS(fw_rom_area_attribute_bits);
static const struct fw_named_value rom_area_type_names[] = {{0, "FV"}, {1, "Raw"}, {0, NULL}};
static const struct fw_field rom_area_fields[ROM_AREA__COUNT] = {
	[ROM_AREA_ADDRESS] = {"Address", FW_FT_U64, 0, 0, FW_FF_HEX, NULL},
	[ROM_AREA_OFFSET] = {"Offset", FW_FT_U32, 8, 0, FW_FF_HEX, NULL},
	[ROM_AREA_SIZE] = {"Size", FW_FT_U32, 12, 0, FW_FF_HEX, NULL},
	[ROM_AREA_TYPE] = {"Type", FW_FT_U32, 16, 0, FW_FF_ENUM, rom_area_type_names},
	[ROM_AREA_ATTRIBUTES] = {"Attributes", FW_FT_U32, 20, 0, FW_FF_FLAGS, &fw_rom_area_attribute_names},
};
const struct fw_layout fw_rom_area_layout = FW_LAYOUT("ROM area", FW_ROM_AREA_SIZE, rom_area_fields);

static const struct fw_named_value manifest_hash_names[] = {{1, "SHA256"}, {2, "SHA384"}, {3, "SHA512"}, {0, NULL}};
static const struct fw_field manifest_fields[HMFT__COUNT] = {
	[HMFT_SIGNATURE] = {"Signature", FW_FT_CHARS, 0, 4, 0, NULL},
	[HMFT_VERSION] = {"Version", FW_FT_U32, 4, 0, 0, NULL},
	[HMFT_HEADER_SIZE] = {"HeaderSize", FW_FT_U32, 8, 0, FW_FF_HEX, NULL},
	[HMFT_TABLE_SIZE] = {"TableSize", FW_FT_U32, 12, 0, FW_FF_HEX, NULL},
	[HMFT_SIGN_TIME] = {"FwSignTime", FW_FT_BYTES, 16, 16, FW_FF_HIDDEN, NULL},
	[HMFT_DESCRIPTOR_SIZE] = {"DescriptorSize", FW_FT_U32, 32, 0, FW_FF_HEX, NULL},
	[HMFT_DESCRIPTOR_COUNT] = {"NumberOfDescriptors", FW_FT_U32, 36, 0, 0, NULL},
	[HMFT_HASH_TYPE] = {"HashType", FW_FT_U32, 40, 0, FW_FF_ENUM, manifest_hash_names},
	[HMFT_HASH_SIZE] = {"HashSize", FW_FT_U32, 44, 0, 0, NULL},
	[HMFT_HASH_AREA_OFFSET] = {"HashAreaOffset", FW_FT_U32, 48, 0, FW_FF_HEX, NULL},
};
const struct fw_layout fw_aptio_manifest_layout =
	FW_LAYOUT("AMI ROM area hash manifest", FW_APTIO_MANIFEST_HEADER_SIZE, manifest_fields);

static const struct fw_field fmp_auth_fields[FMP_AUTH__COUNT] = {
	[FMP_AUTH_MONOTONIC_COUNT] = {"MonotonicCount", FW_FT_U64, 0, 0, 0, NULL},
	[FMP_AUTH_LENGTH] = {"dwLength", FW_FT_U32, 8, 0, FW_FF_HEX, NULL},
	[FMP_AUTH_REVISION] = {"wRevision", FW_FT_U16, 12, 0, FW_FF_HEX, NULL},
	[FMP_AUTH_CERT_TYPE] = {"wCertificateType", FW_FT_U16, 14, 0, FW_FF_HEX, NULL},
	[FMP_AUTH_CERT_GUID] = {"CertType", FW_FT_GUID, 16, 0, 0, NULL},
};
const struct fw_layout fw_fmp_auth_layout = FW_LAYOUT("FMP image authentication", FW_FMP_AUTH_HEADER_SIZE, fmp_auth_fields);

static const struct fw_field fmp_fields[FMP__COUNT] = {
	[FMP_VERSION] = {"Version", FW_FT_U32, 0, 0, 0, NULL},
	[FMP_EMBEDDED_DRIVER_COUNT] = {"EmbeddedDriverCount", FW_FT_U16, 4, 0, 0, NULL},
	[FMP_PAYLOAD_ITEM_COUNT] = {"PayloadItemCount", FW_FT_U16, 6, 0, 0, NULL},
};
const struct fw_layout fw_fmp_capsule_layout = FW_LAYOUT("FMP capsule header", 8, fmp_fields);

static const struct fw_field fmp_image_fields[FMP_IMG__COUNT] = {
	[FMP_IMG_VERSION] = {"Version", FW_FT_U32, 0x00, 0, 0, NULL},
	[FMP_IMG_UPDATE_IMAGE_TYPE_ID] = {"UpdateImageTypeId", FW_FT_GUID, 0x04, 0, 0, NULL},
	[FMP_IMG_UPDATE_IMAGE_INDEX] = {"UpdateImageIndex", FW_FT_U8, 0x14, 0, 0, NULL},
	[FMP_IMG_UPDATE_IMAGE_SIZE] = {"UpdateImageSize", FW_FT_U32, 0x18, 0, FW_FF_HEX, NULL},
	[FMP_IMG_UPDATE_VENDOR_CODE_SIZE] = {"UpdateVendorCodeSize", FW_FT_U32, 0x1C, 0, FW_FF_HEX, NULL},
	[FMP_IMG_UPDATE_HARDWARE_INSTANCE] = {"UpdateHardwareInstance", FW_FT_U64, 0x20, 0, FW_FF_HEX, NULL},
};
const struct fw_layout fw_fmp_image_layout = FW_LAYOUT("FMP capsule image header", 0x28, fmp_image_fields);

const struct fw_guid fw_guid_ami_fw_capsule_hdr_file =
	FW_GUID_INIT(0x414D94AD, 0x998D, 0x47D2, 0xBF, 0xCD, 0x4E, 0x88, 0x22, 0x41, 0xDE, 0x32);
const struct fw_guid fw_guid_capsule_efi = FW_GUID_INIT(0x3B6686BD, 0x0D76, 0x4030, 0xB7, 0x0E, 0xB5, 0x51, 0x9E, 0x2F, 0xC5, 0xA0);
const struct fw_guid fw_guid_capsule_fmp = FW_GUID_INIT(0x6DCBD5ED, 0xE82D, 0x4C44, 0xBD, 0xA1, 0x71, 0x94, 0x19, 0x9A, 0xD9, 0x2A);
const struct fw_guid fw_guid_capsule_aptio_signed =
	FW_GUID_INIT(0x4A3CA68B, 0x7723, 0x48FB, 0x80, 0x3D, 0x57, 0x8C, 0xC1, 0xFE, 0xC4, 0x4D);
const struct fw_guid fw_guid_capsule_aptio_unsigned =
	FW_GUID_INIT(0x14EEBB90, 0x890A, 0x43DB, 0xAE, 0xD1, 0x5D, 0x3C, 0x45, 0x88, 0xA4, 0x18);
const struct fw_guid fw_guid_cert_rsa2048_sha256 =
	FW_GUID_INIT(0xA7717414, 0xC616, 0x4977, 0x94, 0x20, 0x84, 0x47, 0x12, 0xA7, 0x35, 0xBF);
const struct fw_guid fw_guid_cert_pkcs7 = FW_GUID_INIT(0x4AAFD29D, 0x68DF, 0x49EE, 0x8A, 0xA9, 0x34, 0x7D, 0x37, 0x56, 0x65, 0xA7);
const struct fw_guid fw_guid_hash_sha256 = FW_GUID_INIT(0x51AA59DE, 0xFDF2, 0x4EA3, 0xBC, 0x63, 0x87, 0x5F, 0xB7, 0x84, 0x2E, 0xE9);
