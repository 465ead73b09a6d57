/* The sample capsules against independent checks: the firmware certificate verifies with
 * libcrypto's own RSASSA-PSS verifier over the signed ROM areas (reference/formats.md 1.3), the
 * root certificate signs the signing certificate and matches the platform key file, and every AMD
 * directory carries a valid Fletcher-32 with its compressed BIOS entry inflating to the size its
 * header declares (formats.md 2). Skipped when the samples were not built. */
#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/param_build.h>
#include <openssl/rsa.h>
#include <stdlib.h>
#include <zlib.h>

#include "capsule/amd-psp.h"
#include "capsule/aptio.h"
#include "harness.h"
#include "parsers/hash.h"
#include "parsers/view.h"

static uint8_t *load(const char *name, size_t *len)
{
	const char *path = fw_test_build(name);
	return path ? fw_test_read_file(path, len) : NULL;
}

static EVP_PKEY *rsa_key(const uint8_t modulus[256])
{
	BIGNUM *n = BN_bin2bn(modulus, 256, NULL), *e = BN_new();
	BN_set_word(e, 65537);
	OSSL_PARAM_BLD *bld = OSSL_PARAM_BLD_new();
	OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_RSA_N, n);
	OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_RSA_E, e);
	OSSL_PARAM *params = OSSL_PARAM_BLD_to_param(bld);
	EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new_from_name(NULL, "RSA", NULL);
	EVP_PKEY *key = NULL;
	if (!params || !ctx || EVP_PKEY_fromdata_init(ctx) <= 0 || EVP_PKEY_fromdata(ctx, &key, EVP_PKEY_PUBLIC_KEY, params) <= 0)
		key = NULL;
	EVP_PKEY_CTX_free(ctx);
	OSSL_PARAM_free(params);
	OSSL_PARAM_BLD_free(bld);
	BN_free(n);
	BN_free(e);
	return key;
}

static bool pss_verify(const uint8_t modulus[256], const uint8_t digest[32], const uint8_t sig[256])
{
	EVP_PKEY *key = rsa_key(modulus);
	EVP_PKEY_CTX *ctx = key ? EVP_PKEY_CTX_new(key, NULL) : NULL;
	bool ok = ctx && EVP_PKEY_verify_init(ctx) > 0 && EVP_PKEY_CTX_set_rsa_padding(ctx, RSA_PKCS1_PSS_PADDING) > 0 &&
		  EVP_PKEY_CTX_set_signature_md(ctx, EVP_sha256()) > 0 && EVP_PKEY_CTX_set_rsa_pss_saltlen(ctx, 8) > 0 &&
		  EVP_PKEY_verify(ctx, sig, 256, digest, 32) == 1;
	EVP_PKEY_CTX_free(ctx);
	EVP_PKEY_free(key);
	return ok;
}

static void check_capsule(const char *name)
{
	size_t len;
	uint8_t *cap = load(name, &len);
	if (!cap)
		SKIP("%s not built (make samples)", name);
	struct fw_view v = fw_view_make(cap, len, 0);
	CHECK(len > 0x1000);
	CHECK_EQ(fw_layout_get(&fw_aptio_capsule_layout, &v, 0, CAP_FLAGS), 0x00010001u);
	uint32_t image_off = (uint32_t)fw_layout_get(&fw_aptio_capsule_layout, &v, 0, CAP_ROM_IMAGE_OFFSET);
	uint32_t layout_off = (uint32_t)fw_layout_get(&fw_aptio_capsule_layout, &v, 0, CAP_ROM_LAYOUT_OFFSET);
	CHECK_EQ(image_off, 0x1000);
	CHECK_EQ(layout_off, 0x458);
	CHECK_EQ(fw_layout_get(&fw_aptio_capsule_layout, &v, 0, CAP_IMAGE_SIZE), len);
	const uint8_t *image = cap + image_off;
	size_t image_len = len - image_off;

	/* digest: signed areas in table order, then the table with its terminator */
	EVP_MD_CTX *md = EVP_MD_CTX_new();
	EVP_DigestInit_ex(md, EVP_sha256(), NULL);
	size_t n = 0, signed_areas = 0, unsigned_nvram = 0;
	for (;; n++) {
		size_t e = layout_off + n * FW_ROM_AREA_SIZE;
		CHECK(e + FW_ROM_AREA_SIZE <= image_off);
		uint64_t size = fw_layout_get(&fw_rom_area_layout, &v, e, ROM_AREA_SIZE);
		if (size == 0)
			break;
		uint64_t off = fw_layout_get(&fw_rom_area_layout, &v, e, ROM_AREA_OFFSET);
		uint64_t attr = fw_layout_get(&fw_rom_area_layout, &v, e, ROM_AREA_ATTRIBUTES);
		CHECK(off + size <= image_len);
		if (attr & FW_ROM_AREA_FV_SIGNED) {
			EVP_DigestUpdate(md, image + off, size);
			signed_areas++;
		} else if (off == 0x1BE0000) {
			unsigned_nvram++;
		}
	}
	EVP_DigestUpdate(md, cap + layout_off, (n + 1) * FW_ROM_AREA_SIZE);
	uint8_t digest[32];
	unsigned dl = 0;
	EVP_DigestFinal_ex(md, digest, &dl);
	EVP_MD_CTX_free(md);
	CHECK(signed_areas >= 5);
	CHECK_EQ(unsigned_nvram, 1);

	const uint8_t *sign_cert = cap + FW_APTIO_CERT_OFFSET;
	const uint8_t *root_cert = sign_cert + FW_APTIO_SIGN_CERT_SIZE;
	const struct fw_field *pk = &fw_aptio_sign_cert_layout.fields[CERT_PUBLIC_KEY];
	const struct fw_field *sig = &fw_aptio_sign_cert_layout.fields[CERT_SIGNATURE];
	CHECK_MSG(pss_verify(sign_cert + pk->offset, digest, sign_cert + sig->offset), "%s: SignCert does not verify", name);
	/* a changed byte in a signed area breaks it */
	cap[image_off + 0x1000000 + 0x100] ^= 1;
	uint8_t digest2[32];
	md = EVP_MD_CTX_new();
	EVP_DigestInit_ex(md, EVP_sha256(), NULL);
	for (size_t i = 0; i < n; i++) {
		size_t e = layout_off + i * FW_ROM_AREA_SIZE;
		if (fw_layout_get(&fw_rom_area_layout, &v, e, ROM_AREA_ATTRIBUTES) & FW_ROM_AREA_FV_SIGNED)
			EVP_DigestUpdate(md, image + fw_layout_get(&fw_rom_area_layout, &v, e, ROM_AREA_OFFSET),
					 fw_layout_get(&fw_rom_area_layout, &v, e, ROM_AREA_SIZE));
	}
	EVP_DigestUpdate(md, cap + layout_off, (n + 1) * FW_ROM_AREA_SIZE);
	EVP_DigestFinal_ex(md, digest2, &dl);
	EVP_MD_CTX_free(md);
	CHECK(!pss_verify(sign_cert + pk->offset, digest2, sign_cert + sig->offset));

	/* RootCert signs the whole SignCert */
	uint8_t sc_digest[32];
	fw_sha256(sign_cert, FW_APTIO_SIGN_CERT_SIZE, sc_digest);
	const struct fw_field *rpk = &fw_aptio_root_cert_layout.fields[ROOT_PUBLIC_KEY];
	const struct fw_field *rsig = &fw_aptio_root_cert_layout.fields[ROOT_SIGNATURE];
	CHECK_MSG(pss_verify(root_cert + rpk->offset, sc_digest, root_cert + rsig->offset), "%s: RootCert does not verify", name);

	/* the platform key file (AMI PR_KEY_FFS_FILE_RAW_GUID) carries the root modulus */
	static const uint8_t fwkey_guid[16] = {0x52, 0xC8, 0xEE, 0x3F, 0x4C, 0xF1, 0x7F, 0x4E,
					       0x97, 0xFD, 0x4C, 0x3A, 0x8C, 0x5B, 0xBE, 0xCC};
	size_t found = 0;
	for (size_t off = 0x1C00000; off + 0x200 < image_len; off += 8)
		if (memcmp(image + off, fwkey_guid, 16) == 0) {
			/* FFS header (24) + raw section header (4) */
			CHECK(memcmp(image + off + 28, root_cert + rpk->offset, 256) == 0);
			found++;
		}
	CHECK_EQ(found, 2); /* PEI volumes A and B */
	free(cap);
}

TEST(samples_capsule_1104_signature) { check_capsule("samples/ESC8000A-E13-ASUS-1104.CAP"); }
TEST(samples_capsule_1201_signature) { check_capsule("samples/ESC8000A-E13-ASUS-1201.CAP"); }

/* Walk EFS -> combo -> level 1 -> level 2 directories; check every checksum. */
static size_t check_dir(const uint8_t *image, size_t len, uint32_t off, size_t entry_size, int *compressed_ok)
{
	struct fw_view v = fw_view_make(image, len, 0);
	uint32_t cookie = fw_le32(image + off);
	if (cookie != FW_AMD_COOKIE_PSP && cookie != FW_AMD_COOKIE_PL2 && cookie != FW_AMD_COOKIE_BHD && cookie != FW_AMD_COOKIE_BL2)
		return 0;
	uint32_t n = (uint32_t)fw_layout_get(&fw_amd_dir_layout, &v, off, DIR_NUM_ENTRIES);
	size_t end = FW_AMD_DIR_HEADER_SIZE + n * entry_size;
	if (n == 0 || off + end > len)
		return 0;
	if (fw_fletcher32(image + off + FW_AMD_DIR_CHECKSUM_START, end - FW_AMD_DIR_CHECKSUM_START) !=
	    fw_layout_get(&fw_amd_dir_layout, &v, off, DIR_CHECKSUM))
		return 0;
	size_t dirs = 1;
	for (uint32_t i = 0; i < n; i++) {
		size_t e = off + FW_AMD_DIR_HEADER_SIZE + i * entry_size;
		uint8_t type = image[e];
		if (entry_size == FW_AMD_PSP_ENTRY_SIZE && type == 0x40)
			dirs += check_dir(image, len, (uint32_t)fw_layout_get(&fw_amd_psp_entry_layout, &v, e, PSP_ENTRY_ADDRESS),
					  FW_AMD_PSP_ENTRY_SIZE, compressed_ok);
		if (entry_size == FW_AMD_BIOS_ENTRY_SIZE && type == 0x70)
			dirs += check_dir(image, len, (uint32_t)fw_layout_get(&fw_amd_bios_entry_layout, &v, e, BIOS_ENTRY_SOURCE),
					  FW_AMD_BIOS_ENTRY_SIZE, compressed_ok);
		if (entry_size == FW_AMD_BIOS_ENTRY_SIZE &&
		    (fw_layout_get(&fw_amd_bios_entry_layout, &v, e, BIOS_ENTRY_FLAGS) & FW_AMD_BIOS_FLAG_COMPRESSED)) {
			uint64_t src = fw_layout_get(&fw_amd_bios_entry_layout, &v, e, BIOS_ENTRY_SOURCE);
			uint64_t size = fw_layout_get(&fw_amd_bios_entry_layout, &v, e, BIOS_ENTRY_SIZE);
			if (src + size > len || size < FW_AMD_PSP_BLOB_HEADER_SIZE)
				return 0;
			uint32_t plain = (uint32_t)fw_layout_get(&fw_amd_psp_blob_layout, &v, src, PSPHDR_UNCOMP_SIZE);
			uint32_t comp = (uint32_t)fw_layout_get(&fw_amd_psp_blob_layout, &v, src, PSPHDR_COMP_SIZE);
			uLongf out_len = plain;
			uint8_t *out = malloc(plain ? plain : 1);
			if (uncompress(out, &out_len, image + src + FW_AMD_PSP_BLOB_HEADER_SIZE, comp) == Z_OK && out_len == plain)
				(*compressed_ok)++;
			free(out);
		}
	}
	return dirs;
}

TEST(samples_amd_directories)
{
	size_t len;
	uint8_t *cap = load("samples/ESC8000A-E13-ASUS-1104.CAP", &len);
	if (!cap)
		SKIP("samples not built (make samples)");
	const uint8_t *image = cap + 0x1000;
	size_t ilen = len - 0x1000;
	struct fw_view v = fw_view_make(image, ilen, 0);
	CHECK_EQ(fw_layout_get(&fw_amd_efs_layout, &v, 0x20000, EFS_SIGNATURE), FW_AMD_EFS_SIGNATURE);
	uint32_t combo_psp = (uint32_t)fw_layout_get(&fw_amd_efs_layout, &v, 0x20000, EFS_NEW_PSP_DIRECTORY);
	uint32_t combo_bhd = (uint32_t)fw_layout_get(&fw_amd_efs_layout, &v, 0x20000, EFS_BIOS3);
	int compressed_ok = 0;
	size_t dirs = 0;
	uint32_t combos[2] = {combo_psp, combo_bhd};
	for (int c = 0; c < 2; c++) {
		uint32_t off = combos[c];
		CHECK_EQ(fw_le32(image + off), c ? FW_AMD_COOKIE_2BHD : FW_AMD_COOKIE_2PSP);
		size_t end = FW_AMD_COMBO_HEADER_SIZE + FW_AMD_COMBO_ENTRY_SIZE;
		CHECK_EQ(fw_fletcher32(image + off + FW_AMD_DIR_CHECKSUM_START, end - FW_AMD_DIR_CHECKSUM_START),
			 fw_layout_get(&fw_amd_combo_layout, &v, off, COMBO_CHECKSUM));
		uint32_t l1 = (uint32_t)fw_layout_get(&fw_amd_combo_entry_layout, &v, off + FW_AMD_COMBO_HEADER_SIZE,
						      COMBO_ENTRY_L2_ADDRESS);
		dirs += check_dir(image, ilen, l1, c ? FW_AMD_BIOS_ENTRY_SIZE : FW_AMD_PSP_ENTRY_SIZE, &compressed_ok);
	}
	CHECK_EQ(dirs, 4); /* $PSP, $PL2, $BHD, $BL2, all with valid checksums */
	CHECK_EQ(compressed_ok, 1);
	free(cap);
}
