/* Capsule headers: EFI_CAPSULE_HEADER, the AMI Aptio FW capsule (ASUS .CAP) with its firmware
 * certificate and ROM area map, and the FMP capsule (reference/formats.md 1). */
#ifndef FW_APTIO_H
#define FW_APTIO_H

#include "parsers/layout.h"

/* EFI_CAPSULE_HEADER (28 bytes) followed, in Aptio capsules, by RomImageOffset/RomLayoutOffset */
enum {
	CAP_GUID,
	CAP_HEADER_SIZE,
	CAP_FLAGS,
	CAP_IMAGE_SIZE,
	CAP_ROM_IMAGE_OFFSET,
	CAP_ROM_LAYOUT_OFFSET,
	CAP__COUNT
};
extern const struct fw_layout fw_efi_capsule_layout;   /* 0x1C bytes, the last two fields hidden */
extern const struct fw_layout fw_aptio_capsule_layout; /* 0x20 bytes */
#define FW_EFI_CAPSULE_HEADER_SIZE 0x1C
#define FW_APTIO_CAPSULE_HEADER_SIZE 0x20
#define FW_APTIO_CERT_OFFSET 0x20

/* EFI capsule flags */
#define FW_CAPSULE_PERSIST_ACROSS_RESET 0x00010000u
#define FW_CAPSULE_POPULATE_SYSTEM_TABLE 0x00020000u
#define FW_CAPSULE_INITIATE_RESET 0x00040000u
/* AMI Aptio flags (low 16 bits; AmiCertificate.h) */
#define FW_APTIO_FLAG_RSA_PSS 0x01
#define FW_APTIO_FLAG_HEADER_SIGNED 0x02
#define FW_APTIO_FLAG_ROOT_SIGNS_KEY_ONLY 0x04
#define FW_APTIO_FLAG_PAYLOAD_SIG_INVALID 0x08
#define FW_APTIO_FLAG_EMBEDDED 0x10
#define FW_APTIO_FLAG_HASH_MANIFEST 0x20
extern const struct fw_bitfields fw_capsule_flag_names;

/* FW_CERTIFICATE, RSA-2048/SHA-256 form, at capsule offset 0x20 */
enum {
	CERT_LENGTH,           /* WIN_CERTIFICATE.dwLength: SignCert and the RootCerts */
	CERT_REVISION,         /* 0x0200 */
	CERT_TYPE,             /* 0x0EF1 WIN_CERT_TYPE_EFI_GUID */
	CERT_CERT_TYPE_GUID,   /* RSA2048_SHA256 or PKCS7 */
	CERT_HASH_TYPE,        /* SHA-256 */
	CERT_PUBLIC_KEY,       /* 256 bytes, big-endian modulus, e = 65537 */
	CERT_SIGNATURE,        /* 256 bytes */
	CERT__COUNT
};
extern const struct fw_layout fw_aptio_sign_cert_layout; /* 0x228 bytes */
#define FW_APTIO_SIGN_CERT_SIZE 0x228
#define FW_WIN_CERT_TYPE_EFI_GUID 0x0EF1
#define FW_WIN_CERT_REVISION 0x0200
/* CertData offset inside SignCert (where the PKCS#7 DER starts in that form) */
#define FW_APTIO_CERT_DATA_OFFSET 0x18

/* RootCert = EFI_CERT_BLOCK_RSA_2048_SHA256 {HashType, PublicKey, Signature} */
enum { ROOT_HASH_TYPE, ROOT_PUBLIC_KEY, ROOT_SIGNATURE, ROOT__COUNT };
extern const struct fw_layout fw_aptio_root_cert_layout; /* 0x210 bytes */
#define FW_APTIO_ROOT_CERT_SIZE 0x210
#define FW_RSA2048_BYTES 256

/* ROM_AREA (24 bytes), a table terminated by Size == 0 */
enum { ROM_AREA_ADDRESS, ROM_AREA_OFFSET, ROM_AREA_SIZE, ROM_AREA_TYPE, ROM_AREA_ATTRIBUTES, ROM_AREA__COUNT };
extern const struct fw_layout fw_rom_area_layout;
#define FW_ROM_AREA_SIZE 24
#define FW_ROM_AREA_TYPE_FV 0
#define FW_ROM_AREA_TYPE_RAW 1
#define FW_ROM_AREA_FV_SIGNED 0x200
extern const struct fw_bitfields fw_rom_area_attribute_names;

/* Signed ROM-area hash manifest ("HMFT"), in place of the ROM area table when the capsule flags
 * carry 0x20 (AmiCertificate.h FwHashManifestHdr): header, ROM_AREA[NumberOfDescriptors] at
 * HeaderSize, one hash per area at HashAreaOffset; the firmware signature covers the first
 * TableSize bytes of the manifest. */
enum {
	HMFT_SIGNATURE,
	HMFT_VERSION,
	HMFT_HEADER_SIZE,
	HMFT_TABLE_SIZE,
	HMFT_SIGN_TIME,
	HMFT_DESCRIPTOR_SIZE,
	HMFT_DESCRIPTOR_COUNT,
	HMFT_HASH_TYPE,
	HMFT_HASH_SIZE,
	HMFT_HASH_AREA_OFFSET,
	HMFT__COUNT
};
extern const struct fw_layout fw_aptio_manifest_layout; /* 52 bytes */
#define FW_APTIO_MANIFEST_SIGNATURE 0x54464D48u /* "HMFT" */
#define FW_APTIO_MANIFEST_HEADER_SIZE 52
#define FW_APTIO_HASH_SHA256 1
#define FW_APTIO_HASH_SHA384 2
#define FW_APTIO_HASH_SHA512 3

/* FMP capsule body: EFI_FIRMWARE_MANAGEMENT_CAPSULE_HEADER then u64 ItemOffsetList[] */
enum { FMP_VERSION, FMP_EMBEDDED_DRIVER_COUNT, FMP_PAYLOAD_ITEM_COUNT, FMP__COUNT };
extern const struct fw_layout fw_fmp_capsule_layout; /* 8 bytes */
enum {
	FMP_IMG_VERSION,
	FMP_IMG_UPDATE_IMAGE_TYPE_ID,
	FMP_IMG_UPDATE_IMAGE_INDEX,
	FMP_IMG_UPDATE_IMAGE_SIZE,
	FMP_IMG_UPDATE_VENDOR_CODE_SIZE,
	FMP_IMG_UPDATE_HARDWARE_INSTANCE,
	FMP_IMG__COUNT
};
extern const struct fw_layout fw_fmp_image_layout; /* 0x28 bytes (version 2) */
#define FW_FMP_IMAGE_HEADER_V1_SIZE 0x20
#define FW_FMP_IMAGE_HEADER_V2_SIZE 0x28
#define FW_FMP_IMAGE_HEADER_V3_SIZE 0x30
#define FW_FMP_CAPSULE_VERSION 1
/* EFI_FIRMWARE_IMAGE_AUTHENTICATION at the start of an FMP image: u64 MonotonicCount, then a
 * WIN_CERTIFICATE_UEFI_GUID {u32 dwLength, u16 wRevision, u16 wCertificateType, GUID CertType}
 * whose CertData (dwLength - 24 bytes) is a PKCS#7 SignedData. */
enum { FMP_AUTH_MONOTONIC_COUNT, FMP_AUTH_LENGTH, FMP_AUTH_REVISION, FMP_AUTH_CERT_TYPE, FMP_AUTH_CERT_GUID, FMP_AUTH__COUNT };
extern const struct fw_layout fw_fmp_auth_layout; /* 0x20 bytes */
#define FW_FMP_AUTH_HEADER_SIZE 0x20

/* FMP_PAYLOAD_HEADER that edk2's FmpDevicePkg puts before the image it hands to the device
 * library: u32 Signature "MSS1", u32 HeaderSize, u32 FwVersion, u32 LowestSupportedVersion
 * (FmpDevicePkg/Library/FmpPayloadHeaderLibV1). */
#define FW_FMP_PAYLOAD_HEADER_SIGNATURE 0x3153534Du /* "MSS1" */
#define FW_FMP_PAYLOAD_HEADER_SIZE 16

/* FFS file that carries the signature block inside the ROM (AMI FWCAPSULE_FILE_FORMAT 0) */
extern const struct fw_guid fw_guid_ami_fw_capsule_hdr_file;
extern const struct fw_guid fw_guid_capsule_efi, fw_guid_capsule_fmp, fw_guid_capsule_aptio_signed,
	fw_guid_capsule_aptio_unsigned, fw_guid_cert_rsa2048_sha256, fw_guid_cert_pkcs7, fw_guid_hash_sha256;

#endif
