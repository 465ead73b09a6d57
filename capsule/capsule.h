/* Capsule recognition and decoding (the node side of capsule/aptio.h layouts).
 *
 * fw_capsule_probe tells whether a buffer starts with a capsule header fwlens knows;
 * fw_capsule_parse adds the capsule node (kind "capsule", type "Aptio signed", "Aptio unsigned",
 * "UEFI 2.0" or "FMP") with its decoded header, certificate and ROM area map, and returns the
 * payload window (the flash image) for the caller to parse as the capsule's child. The node's
 * `ext` is a struct fw_capsule: the decoded model the signature check works on. */
#ifndef FW_CAPSULE_H
#define FW_CAPSULE_H

#include "parsers/node.h"

enum fw_capsule_kind { FW_CAPSULE_EFI, FW_CAPSULE_FMP, FW_CAPSULE_APTIO_SIGNED, FW_CAPSULE_APTIO_UNSIGNED };

enum fw_capsule_cert_form {
	FW_CERT_NONE,           /* unsigned capsule, or no room for a certificate */
	FW_CERT_RSA2048_SHA256, /* SignCert {HashType, PublicKey, Signature} + RootCerts */
	FW_CERT_PKCS7,          /* SignCert.CertData is a DER SignedData */
	FW_CERT_UNKNOWN,        /* a CertType fwlens does not know */
};

/* EFI_CERT_BLOCK_RSA_2048_SHA256: the key and signature point into the input. */
struct fw_rsa_block {
	uint64_t offset; /* absolute offset of the block (its HashType) */
	struct fw_guid hash_type;
	const uint8_t *key;       /* 256-byte big-endian modulus; e = 65537 */
	const uint8_t *signature; /* 256 bytes */
};

struct fw_rom_area {
	uint64_t address;
	uint32_t offset, size, type, attributes; /* offset: in the ROM image (payload) */
	const uint8_t *hash;                     /* manifest form: the expected digest, else NULL */
};

#define FW_CAPSULE_MAX_ROOTS 8

struct fw_capsule {
	enum fw_capsule_kind kind;
	struct fw_view whole; /* the capsule as given to the parser (header and payload) */
	struct fw_guid guid;
	uint32_t header_size, flags, image_size;
	uint32_t rom_image_offset, rom_layout_offset; /* Aptio */
	struct fw_view header;  /* [0, start of the payload) */
	struct fw_view payload; /* the ROM image (Aptio), the body (EFI), the first payload image (FMP) */

	/* Aptio firmware certificate (FW_CERTIFICATE at 0x20) */
	enum fw_capsule_cert_form cert_form;
	uint32_t cert_length;    /* WIN_CERTIFICATE.dwLength */
	struct fw_guid cert_type;
	struct fw_view sign_cert; /* the whole SignCert as the root signature covers it */
	struct fw_rsa_block sign;
	struct fw_rsa_block roots[FW_CAPSULE_MAX_ROOTS];
	size_t nroots;
	struct fw_view pkcs7; /* PKCS#7 form: DER SignedData */

	/* ROM area map (table terminated by Size == 0), or the HMFT manifest */
	struct fw_rom_area *areas;
	size_t nareas;
	struct fw_view area_table; /* the bytes the signature covers: table with terminator, or manifest TableSize */
	bool manifest;
	uint32_t manifest_hash_type, manifest_hash_size;
	bool areas_terminated;

	/* FMP: the update image of each payload item that fits the body, after its authentication
	 * block and FMP payload header (fmp_images[0] is also `payload`) */
	uint32_t fmp_version;
	uint16_t fmp_drivers, fmp_payloads;
	struct fw_view *fmp_images;
	size_t nfmp_images;
};

/* The capsule model of a capsule node (NULL for other nodes). */
const struct fw_capsule *fw_capsule_of(const struct fw_node *n);
/* "Aptio signed", "Aptio unsigned", "UEFI 2.0", "FMP" */
const char *fw_capsule_kind_name(enum fw_capsule_kind k);

bool fw_capsule_probe(const struct fw_view *v);
struct fw_node *fw_capsule_parse(struct fw_tree *t, struct fw_node *parent, const struct fw_view *v,
				 struct fw_view *payload, struct fw_error *err);

#endif
