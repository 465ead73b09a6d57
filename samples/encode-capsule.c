/* The AMI Aptio signed capsule around the flash image (reference/formats.md 1.3; layouts of
 * capsule/aptio.h), laid out as the ASUS WRX90E 1203 header of the corpus: a 0x1000-byte header,
 * RomImageOffset 0x1000, the RSA-2048/SHA-256 firmware certificate with one RootCert, the ROM area
 * table at 0x458 and 0xFF up to the image. Flags 0x00010001: PERSIST_ACROSS_RESET and RSA-PSS.
 *
 * SignCert.Signature: PSS over SHA-256 of every signed ROM area (table order) followed by the
 * ROM area table with its terminator (the header is not hashed: flag 0x02 clear).
 * RootCert.Signature: PSS over SHA-256 of the whole SignCert, made with the root key whose
 * modulus the PEI volume carries in the FWKEY file. */
#include <openssl/evp.h>
#include <stdlib.h>
#include <string.h>

#include "build.h"
#include "capsule/aptio.h"
#include "parsers/hash.h"
#include "sign.h"

#define HEADER_SIZE 0x1000u
#define CAPSULE_FLAGS (FW_CAPSULE_PERSIST_ACROSS_RESET | FW_APTIO_FLAG_RSA_PSS)

void write_capsule(struct variant *v, const uint8_t *image, size_t len, const struct rom_map *map,
		   const struct sample_key *signer, const struct sample_key *root, const char *rel)
{
	(void)v;
	uint8_t *cap = fw_xmalloc(HEADER_SIZE + len);
	uint8_t *h = cap;
	memset(h, 0xFF, HEADER_SIZE);
	memset(h, 0, FW_APTIO_CAPSULE_HEADER_SIZE + FW_APTIO_SIGN_CERT_SIZE + FW_APTIO_ROOT_CERT_SIZE);
	const struct fw_layout *cl = &fw_aptio_capsule_layout;
	fw_layout_put_guid(cl, h, CAP_GUID, &fw_guid_capsule_aptio_signed);
	fw_layout_put(cl, h, CAP_HEADER_SIZE, HEADER_SIZE);
	fw_layout_put(cl, h, CAP_FLAGS, CAPSULE_FLAGS);
	fw_layout_put(cl, h, CAP_IMAGE_SIZE, HEADER_SIZE + len);
	fw_layout_put(cl, h, CAP_ROM_IMAGE_OFFSET, HEADER_SIZE);
	size_t layout_off = FW_APTIO_CERT_OFFSET + FW_APTIO_SIGN_CERT_SIZE + FW_APTIO_ROOT_CERT_SIZE;
	fw_layout_put(cl, h, CAP_ROM_LAYOUT_OFFSET, layout_off);

	/* ROM area table and its zero terminator */
	size_t table_len = (map->n + 1) * FW_ROM_AREA_SIZE;
	SAMPLE_ASSERT(layout_off + table_len <= HEADER_SIZE);
	uint8_t *t = h + layout_off;
	memset(t, 0, table_len);
	for (size_t i = 0; i < map->n; i++) {
		uint8_t *e = t + i * FW_ROM_AREA_SIZE;
		fw_layout_put(&fw_rom_area_layout, e, ROM_AREA_ADDRESS, map->a[i].offset);
		fw_layout_put(&fw_rom_area_layout, e, ROM_AREA_OFFSET, map->a[i].offset);
		fw_layout_put(&fw_rom_area_layout, e, ROM_AREA_SIZE, map->a[i].size);
		fw_layout_put(&fw_rom_area_layout, e, ROM_AREA_TYPE, map->a[i].type);
		fw_layout_put(&fw_rom_area_layout, e, ROM_AREA_ATTRIBUTES, map->a[i].attributes);
	}

	/* digest of the signed areas and the table */
	uint8_t digest[32];
	unsigned dlen = 0;
	EVP_MD_CTX *md = EVP_MD_CTX_new();
	if (!md || !EVP_DigestInit_ex(md, EVP_sha256(), NULL))
		sample_die("libcrypto: SHA-256 unavailable");
	for (size_t i = 0; i < map->n; i++)
		if (map->a[i].attributes & FW_ROM_AREA_FV_SIGNED) {
			SAMPLE_ASSERT(map->a[i].offset + (size_t)map->a[i].size <= len);
			EVP_DigestUpdate(md, image + map->a[i].offset, map->a[i].size);
		}
	EVP_DigestUpdate(md, t, table_len);
	if (!EVP_DigestFinal_ex(md, digest, &dlen) || dlen != 32)
		sample_die("libcrypto: SHA-256 failed");
	EVP_MD_CTX_free(md);

	uint8_t *sc = h + FW_APTIO_CERT_OFFSET;
	const struct fw_layout *sl = &fw_aptio_sign_cert_layout;
	fw_layout_put(sl, sc, CERT_LENGTH, FW_APTIO_SIGN_CERT_SIZE + FW_APTIO_ROOT_CERT_SIZE);
	fw_layout_put(sl, sc, CERT_REVISION, FW_WIN_CERT_REVISION);
	fw_layout_put(sl, sc, CERT_TYPE, FW_WIN_CERT_TYPE_EFI_GUID);
	fw_layout_put_guid(sl, sc, CERT_CERT_TYPE_GUID, &fw_guid_cert_rsa2048_sha256);
	fw_layout_put_guid(sl, sc, CERT_HASH_TYPE, &fw_guid_hash_sha256);
	uint8_t modulus[256], sig[256];
	key_modulus(signer, modulus);
	fw_layout_put_bytes(sl, sc, CERT_PUBLIC_KEY, modulus, sizeof(modulus));
	key_sign_pss_hash(signer, digest, sig);
	fw_layout_put_bytes(sl, sc, CERT_SIGNATURE, sig, sizeof(sig));

	uint8_t *rc = sc + FW_APTIO_SIGN_CERT_SIZE;
	const struct fw_layout *rl = &fw_aptio_root_cert_layout;
	fw_layout_put_guid(rl, rc, ROOT_HASH_TYPE, &fw_guid_hash_sha256);
	key_modulus(root, modulus);
	fw_layout_put_bytes(rl, rc, ROOT_PUBLIC_KEY, modulus, sizeof(modulus));
	key_sign_pss(root, sc, FW_APTIO_SIGN_CERT_SIZE, sig);
	fw_layout_put_bytes(rl, rc, ROOT_SIGNATURE, sig, sizeof(sig));

	memcpy(cap + HEADER_SIZE, image, len);
	out_write(rel, cap, HEADER_SIZE + len);
	free(cap);
}
