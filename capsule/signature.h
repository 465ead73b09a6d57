/* Signature check of AMI Aptio signed capsules with libcrypto (reference/formats.md 1.3).
 *
 * Firmware signature (SignCert): SHA-256 over the ROM areas marked ROM_AREA_FV_SIGNED, in table
 * order, then the capsule header up to SignCert.CertData when the flags carry 0x02, then the ROM
 * area table with its zero terminator; RSASSA-PSS when the flags carry 0x01, else PKCS#1 v1.5.
 * With the HMFT manifest (flag 0x20) the signature covers the manifest, and each signed area is
 * checked against its own digest in the manifest. PKCS#7 certificates sign the same digest.
 * Root signature (RootCert): SHA-256 over the whole SignCert, or over its public key alone with
 * flag 0x04, signed by the root key.
 *
 * The check never needs the platform key: it reports the SHA-256 of every key (the form AMI keeps
 * in its FWKEY file), and fw_capsule_verify can require one key (`fwlens verify --key`). */
#ifndef FW_SIGNATURE_H
#define FW_SIGNATURE_H

#include "capsule.h"
#include "parsers/hash.h"

struct fw_verify_area {
	const char *what;     /* "ROM area", "capsule header", "ROM area table", "hash manifest", "SignCert", ... */
	uint64_t offset;      /* absolute in the input, or FW_OFFSET_UNKNOWN */
	uint64_t size;
	int index;            /* ROM area index, -1 for the other parts */
	uint32_t image_offset, type, attributes; /* ROM areas */
	bool is_signed;       /* covered by the signature */
	bool present;         /* the bytes are in the input */
	bool erased;          /* every byte is 0xFF: never written, or lost */
	int manifest_match;   /* manifest form: 1 digest matches, 0 differs, -1 not applicable */
	char sha256[FW_SHA256_HEX_LEN];
};

struct fw_verify_sig {
	const char *role;     /* "firmware", "root" */
	const char *scheme;   /* "RSASSA-PSS SHA-256", "RSASSA-PKCS1-v1_5 SHA-256", "PKCS#7 SHA-256" */
	char key_sha256[FW_SHA256_HEX_LEN]; /* SHA-256 of the RSA modulus (big-endian, key length) */
	unsigned key_bits;
	bool valid;
	bool well_formed;     /* the signature opens with its key into a well-formed padding block */
	int salt_len;         /* PSS salt length recovered from the signature, -1 if unknown */
	char digest[FW_SHA256_HEX_LEN]; /* the digest computed over the areas */
	char detail[512];     /* why it does not verify, or what was checked */
	char signer[512];     /* PKCS#7: the signer's subject */
	struct fw_verify_area *areas;
	size_t nareas;
};

/* The platform key AMI keeps in the ROM as the FFS file FWKEY (3FEEC852-...): a raw section with
 * the RSA modulus (256 bytes) or its SHA-256 (32 bytes). The firmware's update check requires
 * the capsule's signing key or a RootCert key to match it. */
struct fw_platform_key {
	bool found;
	bool hash_only;                 /* the file holds the SHA-256 of the modulus */
	char sha256[FW_SHA256_HEX_LEN]; /* of the modulus */
	uint64_t offset;                /* of the FFS file in the input */
	const char *matches;            /* "firmware", "root" or NULL */
};

struct fw_verify_report {
	bool valid;
	struct fw_platform_key platform_key; /* found in the capsule's own ROM image */
	bool key_required, key_matched;
	char key_sha256[FW_SHA256_HEX_LEN]; /* the required key (--key) */
	const char *key_role;               /* which signature's key it matched */
	struct fw_verify_sig sigs[1 + FW_CAPSULE_MAX_ROOTS];
	size_t nsigs;
};

/* An RSA public key loaded from PEM (public key, certificate or private key). */
struct fw_pubkey {
	uint8_t modulus[1024]; /* big-endian, key length */
	size_t len;
	char sha256[FW_SHA256_HEX_LEN];
};
bool fw_pubkey_load_pem(const char *path, struct fw_pubkey *out, struct fw_error *err);

/* Check every signature of an Aptio signed capsule; `key` (optional) is the key that must have
 * signed it, directly or as a root. Fails (FW_E_UNSUPPORTED) when the capsule is not signed or
 * its certificate form is unknown. */
bool fw_capsule_verify(const struct fw_capsule *c, const struct fw_pubkey *key, struct fw_verify_report *r,
		       struct fw_error *err);
void fw_verify_report_free(struct fw_verify_report *r);
/* The first FWKEY file in a ROM image (a raw scan for the FFS file, so keys in uncompressed
 * volumes are found without building the tree). */
bool fw_capsule_find_platform_key(const struct fw_view *rom, struct fw_platform_key *out, uint8_t key[FW_SHA256_LEN]);

/* The firmware digest as the RSA and PKCS#7 forms define it (for the sample builder and tests). */
bool fw_capsule_firmware_digest(const struct fw_capsule *c, uint8_t out[FW_SHA256_LEN], struct fw_error *err);

/* Encoder side (sample builder, tests): sign an Aptio capsule laid out in buf whose header,
 * flags, certificate block (dwLength, type, CertType RSA2048_SHA256) and ROM area map are
 * written. Fills SignCert.HashType/PublicKey/Signature with `sign_key`, then RootCert i with
 * root_keys[i] over the SignCert (or its key, flag 0x04). PSS uses an 8-byte salt, as AMI's
 * signing tool does. Keys are RSA-2048 libcrypto keys with their private half. */
typedef struct evp_pkey_st EVP_PKEY;
bool fw_capsule_sign(uint8_t *buf, size_t len, EVP_PKEY *sign_key, EVP_PKEY *const *root_keys, size_t nroots,
		     struct fw_error *err);

#endif
