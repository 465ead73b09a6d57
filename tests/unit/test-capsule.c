/* Capsules and their signatures: Aptio headers built here and signed with keys made at run time
 * (RSA PSS and PKCS#1 v1.5, header-signed and key-only root variants, the HMFT manifest, PKCS#7),
 * EFI and FMP capsules, damaged headers, and the real WRX90E 1203 header and rebuilt capsule. */
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/pkcs7.h>
#include <openssl/rsa.h>
#include <openssl/x509.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "capsule/aptio.h"
#include "capsule/capsule.h"
#include "capsule/signature.h"
#include "harness.h"
#include "parsers/hash.h"

static EVP_PKEY *test_key(int which)
{
	static EVP_PKEY *keys[3];
	if (!keys[which])
		keys[which] = EVP_RSA_gen(2048);
	return keys[which];
}

#define HDR 0x800
#define PAYLOAD 0x8000
#define CERT_LEN (FW_APTIO_SIGN_CERT_SIZE + FW_APTIO_ROOT_CERT_SIZE)
#define TABLE_OFF (FW_APTIO_CERT_OFFSET + CERT_LEN)

struct area_spec {
	uint32_t offset, size, type, attributes;
};
static const struct area_spec areas3[] = {
	{0x0000, 0x2000, FW_ROM_AREA_TYPE_FV, 0x208},  /* signed DXE volume */
	{0x2000, 0x1000, FW_ROM_AREA_TYPE_RAW, 0x000}, /* NVRAM, not signed */
	{0x3000, 0x5000, FW_ROM_AREA_TYPE_RAW, 0x200}, /* signed */
};

static void put_areas(uint8_t *at, const struct area_spec *a, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		uint8_t *e = at + i * FW_ROM_AREA_SIZE;
		fw_layout_put(&fw_rom_area_layout, e, ROM_AREA_ADDRESS, 0xFF000000u + a[i].offset);
		fw_layout_put(&fw_rom_area_layout, e, ROM_AREA_OFFSET, a[i].offset);
		fw_layout_put(&fw_rom_area_layout, e, ROM_AREA_SIZE, a[i].size);
		fw_layout_put(&fw_rom_area_layout, e, ROM_AREA_TYPE, a[i].type);
		fw_layout_put(&fw_rom_area_layout, e, ROM_AREA_ATTRIBUTES, a[i].attributes);
	}
	memset(at + n * FW_ROM_AREA_SIZE, 0, FW_ROM_AREA_SIZE);
}

/* An Aptio signed capsule with an RSA certificate and one root block, unsigned yet. */
static uint8_t *build_capsule(uint32_t flags, size_t *len)
{
	*len = HDR + PAYLOAD;
	uint8_t *b = calloc(1, *len);
	fw_layout_put_guid(&fw_aptio_capsule_layout, b, CAP_GUID, &fw_guid_capsule_aptio_signed);
	fw_layout_put(&fw_aptio_capsule_layout, b, CAP_HEADER_SIZE, HDR);
	fw_layout_put(&fw_aptio_capsule_layout, b, CAP_FLAGS, flags);
	fw_layout_put(&fw_aptio_capsule_layout, b, CAP_IMAGE_SIZE, *len);
	fw_layout_put(&fw_aptio_capsule_layout, b, CAP_ROM_IMAGE_OFFSET, HDR);
	fw_layout_put(&fw_aptio_capsule_layout, b, CAP_ROM_LAYOUT_OFFSET, TABLE_OFF);
	uint8_t *cert = b + FW_APTIO_CERT_OFFSET;
	fw_layout_put(&fw_aptio_sign_cert_layout, cert, CERT_LENGTH, CERT_LEN);
	fw_layout_put(&fw_aptio_sign_cert_layout, cert, CERT_REVISION, FW_WIN_CERT_REVISION);
	fw_layout_put(&fw_aptio_sign_cert_layout, cert, CERT_TYPE, FW_WIN_CERT_TYPE_EFI_GUID);
	fw_layout_put_guid(&fw_aptio_sign_cert_layout, cert, CERT_CERT_TYPE_GUID, &fw_guid_cert_rsa2048_sha256);
	put_areas(b + TABLE_OFF, areas3, 3);
	memset(b + TABLE_OFF + 4 * FW_ROM_AREA_SIZE, 0xFF, HDR - TABLE_OFF - 4 * FW_ROM_AREA_SIZE);
	for (size_t i = 0; i < PAYLOAD; i++)
		b[HDR + i] = (uint8_t)(i * 7 + (i >> 8));
	return b;
}

static uint8_t *signed_capsule(uint32_t flags, size_t *len)
{
	uint8_t *b = build_capsule(flags, len);
	EVP_PKEY *root = test_key(1);
	struct fw_error err;
	if (!fw_capsule_sign(b, *len, test_key(0), &root, 1, &err)) {
		free(b);
		return NULL;
	}
	return b;
}

/* Parse and verify; the report stays valid while `t` lives. */
static bool verify_buf(const uint8_t *b, size_t len, const struct fw_pubkey *key, struct fw_tree **t,
		       struct fw_verify_report *r, struct fw_error *err)
{
	struct fw_view v = fw_view_make(b, len, 0), payload;
	*t = fw_tree_new(NULL);
	struct fw_node *n = fw_capsule_parse(*t, NULL, &v, &payload, err);
	return n && fw_capsule_verify(fw_capsule_of(n), key, r, err);
}

static bool pubkey_of(EVP_PKEY *k, struct fw_pubkey *out)
{
	char path[] = "/tmp/fwlens-test-key-XXXXXX";
	int fd = mkstemp(path);
	if (fd < 0)
		return false;
	FILE *f = fdopen(fd, "w");
	PEM_write_PUBKEY(f, k);
	fclose(f);
	struct fw_error err;
	bool ok = fw_pubkey_load_pem(path, out, &err);
	unlink(path);
	return ok;
}

TEST(capsule_aptio_header_decodes)
{
	size_t len;
	uint8_t *b = signed_capsule(0x00010001, &len);
	CHECK(b);
	struct fw_tree *t = fw_tree_new(NULL);
	struct fw_view v = fw_view_make(b, len, 0), payload;
	struct fw_error err;
	CHECK(fw_capsule_probe(&v));
	struct fw_node *n = fw_capsule_parse(t, NULL, &v, &payload, &err);
	CHECK(n);
	const struct fw_capsule *c = fw_capsule_of(n);
	CHECK_STR(n->type, "Aptio signed");
	CHECK_EQ(c->kind, FW_CAPSULE_APTIO_SIGNED);
	CHECK_EQ(c->flags, 0x00010001);
	CHECK_EQ(c->rom_image_offset, HDR);
	CHECK_EQ(c->rom_layout_offset, TABLE_OFF);
	CHECK_EQ(c->cert_form, FW_CERT_RSA2048_SHA256);
	CHECK_EQ(c->cert_length, CERT_LEN);
	CHECK_EQ(c->nroots, 1);
	CHECK_EQ(c->roots[0].offset, 0x248);
	CHECK_EQ(c->sign.offset, 0x38);
	CHECK_EQ(c->nareas, 3);
	CHECK_EQ(c->areas[2].offset, 0x3000);
	CHECK_EQ(c->areas[2].attributes, 0x200);
	CHECK_EQ(c->area_table.base, TABLE_OFF);
	CHECK_EQ(c->area_table.len, 4 * FW_ROM_AREA_SIZE);
	CHECK_EQ(payload.base, HDR);
	CHECK_EQ(payload.len, PAYLOAD);
	CHECK_EQ(n->header_size, HDR);
	CHECK_STR(fw_node_field_get(n, "CertForm")->v.s, "RSA2048_SHA256");
	CHECK_STR(fw_node_field_get(n, "SignatureScheme")->v.s, "RSASSA-PSS SHA-256");
	CHECK_STR(fw_node_field_get(n, "RomArea[0]")->v.s, "offset 0x0 size 0x2000 FV attributes 0x208 FV_DXE|SIGNED");
	char hex[FW_SHA256_HEX_LEN];
	CHECK_STR(fw_node_field_get(n, "SignKeySha256")->v.s, fw_sha256_hex(c->sign.key, 256, hex));
	CHECK_EQ(fw_node_field_get(n, "KeyBits")->v.u, 2048);
	fw_tree_free(t);
	free(b);
}

TEST(capsule_pss_signature_verifies_and_changes_are_caught)
{
	size_t len;
	uint8_t *b = signed_capsule(0x00010001, &len);
	CHECK(b);
	struct fw_tree *t;
	struct fw_verify_report r, r2;
	struct fw_error err;
	CHECK(verify_buf(b, len, NULL, &t, &r, &err));
	CHECK(r.valid);
	CHECK_EQ(r.nsigs, 2);
	CHECK_STR(r.sigs[0].role, "firmware");
	CHECK_STR(r.sigs[0].scheme, "RSASSA-PSS SHA-256");
	CHECK(r.sigs[0].valid);
	CHECK_EQ(r.sigs[0].salt_len, 8);
	CHECK_EQ(r.sigs[0].nareas, 4); /* three ROM areas and the table */
	CHECK(r.sigs[0].areas[0].is_signed && !r.sigs[0].areas[1].is_signed && r.sigs[0].areas[2].is_signed);
	CHECK_EQ(r.sigs[0].areas[2].offset, HDR + 0x3000);
	CHECK_STR(r.sigs[0].areas[3].what, "ROM area table");
	CHECK_STR(r.sigs[1].role, "root");
	CHECK(r.sigs[1].valid);
	CHECK_STR(r.sigs[1].areas[0].what, "SignCert");
	CHECK_EQ(r.sigs[1].areas[0].offset, 0x20);
	CHECK_EQ(r.sigs[1].areas[0].size, 0x228);

	/* one byte in signed area 2: the firmware signature fails, its block is still well formed
	 * (right key, changed bytes), and area 2 is the only part whose SHA-256 changed */
	b[HDR + 0x3000 + 0x1234] ^= 0x01;
	struct fw_tree *t2;
	CHECK(verify_buf(b, len, NULL, &t2, &r2, &err));
	CHECK(!r2.valid);
	CHECK(!r2.sigs[0].valid);
	CHECK(r2.sigs[0].well_formed);
	CHECK(strstr(r2.sigs[0].detail, "signed bytes changed") != NULL);
	CHECK(r2.sigs[1].valid);
	for (size_t i = 0; i < 4; i++)
		CHECK_EQ(strcmp(r.sigs[0].areas[i].sha256, r2.sigs[0].areas[i].sha256) != 0, i == 2);
	fw_verify_report_free(&r2);
	fw_tree_free(t2);
	b[HDR + 0x3000 + 0x1234] ^= 0x01;

	/* the unsigned NVRAM area may change */
	b[HDR + 0x2000 + 5] ^= 0xFF;
	CHECK(verify_buf(b, len, NULL, &t2, &r2, &err));
	CHECK(r2.valid);
	fw_verify_report_free(&r2);
	fw_tree_free(t2);
	b[HDR + 0x2000 + 5] ^= 0xFF;

	/* the ROM area table is signed too: unmark area 1 ... */
	b[TABLE_OFF + FW_ROM_AREA_SIZE + 21] ^= 0x02;
	CHECK(verify_buf(b, len, NULL, &t2, &r2, &err));
	CHECK(!r2.valid);
	fw_verify_report_free(&r2);
	fw_tree_free(t2);
	b[TABLE_OFF + FW_ROM_AREA_SIZE + 21] ^= 0x02;

	/* a changed SignCert breaks the root signature only */
	b[0x38] ^= 0x40; /* SignCert.HashType */
	CHECK(verify_buf(b, len, NULL, &t2, &r2, &err));
	CHECK(r2.sigs[0].valid);
	CHECK(!r2.sigs[1].valid);
	CHECK(!r2.valid);
	fw_verify_report_free(&r2);
	fw_tree_free(t2);
	fw_verify_report_free(&r);
	fw_tree_free(t);
	free(b);
}

TEST(capsule_pkcs1_header_signed_and_key_only_root)
{
	size_t len;
	struct fw_tree *t;
	struct fw_verify_report r;
	struct fw_error err;
	/* PKCS#1 v1.5, capsule header signed (0x02), root over the key alone (0x04) */
	uint8_t *b = signed_capsule(0x00010006, &len);
	CHECK(b);
	CHECK(verify_buf(b, len, NULL, &t, &r, &err));
	CHECK(r.valid);
	CHECK_STR(r.sigs[0].scheme, "RSASSA-PKCS1-v1_5 SHA-256");
	CHECK_EQ(r.sigs[0].salt_len, -1);
	CHECK_EQ(r.sigs[0].nareas, 5);
	CHECK_STR(r.sigs[0].areas[3].what, "capsule header");
	CHECK_EQ(r.sigs[0].areas[3].size, 0x38);
	CHECK_STR(r.sigs[1].areas[0].what, "SignCert.PublicKey");
	CHECK_EQ(r.sigs[1].areas[0].offset, 0x48);
	fw_verify_report_free(&r);
	fw_tree_free(t);
	/* the header bytes are covered now */
	b[0x11] ^= 1;
	CHECK(verify_buf(b, len, NULL, &t, &r, &err));
	CHECK(!r.sigs[0].valid);
	CHECK(r.sigs[0].well_formed);
	CHECK(strstr(r.sigs[0].detail, "the signature carries digest") != NULL);
	fw_verify_report_free(&r);
	fw_tree_free(t);
	b[0x11] ^= 1;
	/* with 0x04 the root signs only the key: the hash type may change */
	b[0x38] ^= 0x40;
	CHECK(verify_buf(b, len, NULL, &t, &r, &err));
	CHECK(r.sigs[1].valid);
	fw_verify_report_free(&r);
	fw_tree_free(t);
	free(b);
}

/* An FWKEY file (FFS header, RAW section) in the payload: the full modulus or its hash. */
static void put_fwkey(uint8_t *at, const uint8_t *body, size_t len)
{
	static const struct fw_guid fwkey = FW_GUID_INIT(0x3FEEC852, 0xF14C, 0x4E7F, 0x97, 0xFD, 0x4C, 0x3A, 0x8C, 0x5B, 0xBE, 0xCC);
	memcpy(at, fwkey.b, 16);
	at[18] = 0x02;
	fw_put_le24(at + 20, (uint32_t)(24 + 4 + len));
	fw_put_le24(at + 24, (uint32_t)(4 + len));
	at[27] = 0x19;
	memcpy(at + 28, body, len);
}

TEST(capsule_platform_key_in_the_rom)
{
	size_t len;
	uint8_t *b = build_capsule(0x00010001, &len);
	EVP_PKEY *root = test_key(1);
	struct fw_pubkey rk, sk;
	CHECK(pubkey_of(root, &rk) && pubkey_of(test_key(0), &sk));
	put_fwkey(b + HDR + 0x2000, rk.modulus, 256); /* in the unsigned area: signing does not cover it */
	struct fw_error err;
	CHECK(fw_capsule_sign(b, len, test_key(0), &root, 1, &err));
	struct fw_tree *t;
	struct fw_verify_report r;
	CHECK(verify_buf(b, len, NULL, &t, &r, &err));
	CHECK(r.valid && r.platform_key.found);
	CHECK_EQ(r.platform_key.offset, HDR + 0x2000);
	CHECK_STR(r.platform_key.sha256, rk.sha256);
	CHECK_STR(r.platform_key.matches, "root");
	fw_verify_report_free(&r);
	fw_tree_free(t);
	/* the hash form naming the signing key */
	uint8_t h[32];
	fw_sha256(sk.modulus, 256, h);
	memset(b + HDR + 0x2000, 0xFF, 0x200);
	put_fwkey(b + HDR + 0x2000, h, 32);
	CHECK(verify_buf(b, len, NULL, &t, &r, &err));
	CHECK(r.platform_key.found && r.platform_key.hash_only);
	CHECK_STR(r.platform_key.matches, "firmware");
	fw_verify_report_free(&r);
	fw_tree_free(t);
	/* a key that is neither */
	memset(b + HDR + 0x2000, 0x11, 32 + 28);
	put_fwkey(b + HDR + 0x2000, h, 31);
	CHECK(verify_buf(b, len, NULL, &t, &r, &err));
	CHECK(!r.platform_key.found); /* 31 bytes: not a key */
	fw_verify_report_free(&r);
	fw_tree_free(t);
	free(b);
}

TEST(capsule_required_key)
{
	size_t len;
	uint8_t *b = signed_capsule(0x00010001, &len);
	struct fw_pubkey sign, root, other;
	CHECK(b && pubkey_of(test_key(0), &sign) && pubkey_of(test_key(1), &root) && pubkey_of(test_key(2), &other));
	CHECK_EQ(sign.len, 256);
	struct fw_tree *t;
	struct fw_verify_report r;
	struct fw_error err;
	CHECK(verify_buf(b, len, &sign, &t, &r, &err));
	CHECK(r.valid && r.key_matched);
	CHECK_STR(r.key_role, "firmware");
	CHECK_STR(r.key_sha256, r.sigs[0].key_sha256);
	fw_verify_report_free(&r);
	fw_tree_free(t);
	CHECK(verify_buf(b, len, &root, &t, &r, &err));
	CHECK(r.valid && r.key_matched);
	CHECK_STR(r.key_role, "root");
	fw_verify_report_free(&r);
	fw_tree_free(t);
	CHECK(verify_buf(b, len, &other, &t, &r, &err));
	CHECK(!r.valid && !r.key_matched);
	CHECK(r.sigs[0].valid && r.sigs[1].valid);
	fw_verify_report_free(&r);
	fw_tree_free(t);
	free(b);
}

TEST(capsule_truncated_and_damaged_headers)
{
	size_t len;
	uint8_t *b = signed_capsule(0x00010001, &len);
	CHECK(b);
	struct fw_tree *t;
	struct fw_verify_report r;
	struct fw_error err;
	/* cut inside signed area 2 */
	CHECK(verify_buf(b, HDR + 0x4000, NULL, &t, &r, &err));
	CHECK(!r.valid);
	CHECK(!r.sigs[0].areas[2].present);
	CHECK(strstr(r.sigs[0].detail, "1 signed area lies outside the file (#2 0x3000+0x5000)") != NULL);
	CHECK(r.sigs[1].valid);
	fw_verify_report_free(&r);
	fw_tree_free(t);
	/* RomImageOffset past the end of the file */
	fw_error_clear(&err);
	CHECK(!verify_buf(b, 0x400, NULL, &t, &r, &err));
	CHECK_EQ(err.code, FW_E_INVALID);
	CHECK(strstr(err.msg, "RomImageOffset 0x800") != NULL);
	fw_tree_free(t);
	/* a certificate longer than the header */
	fw_put_le32(b + 0x20, 0x10000);
	struct fw_view v = fw_view_make(b, len, 0), payload;
	t = fw_tree_new(NULL);
	struct fw_node *n = fw_capsule_parse(t, NULL, &v, &payload, &err);
	CHECK(n);
	CHECK(n->diags && strstr(n->diags->msg, "certificate length 0x10000 does not fit") != NULL);
	fw_error_clear(&err);
	CHECK(!fw_capsule_verify(fw_capsule_of(n), NULL, &r, &err));
	CHECK_EQ(err.code, FW_E_UNSUPPORTED);
	fw_tree_free(t);
	/* a table with no terminator */
	fw_put_le32(b + 0x20, CERT_LEN);
	memset(b + TABLE_OFF, 0x11, HDR - TABLE_OFF);
	t = fw_tree_new(NULL);
	n = fw_capsule_parse(t, NULL, &v, &payload, &err);
	CHECK(n && !fw_capsule_of(n)->areas_terminated);
	CHECK_EQ(fw_capsule_of(n)->nareas, (HDR - TABLE_OFF) / FW_ROM_AREA_SIZE);
	fw_tree_free(t);
	free(b);
}

/* HMFT: header, three descriptors, three SHA-256 digests; the signature covers TableSize bytes. */
TEST(capsule_hash_manifest_names_the_changed_area)
{
	size_t len;
	uint8_t *b = build_capsule(0x00010021, &len);
	uint8_t *m = b + TABLE_OFF;
	size_t hsize = FW_APTIO_MANIFEST_HEADER_SIZE, dsize = FW_ROM_AREA_SIZE, hash_off = hsize + 3 * dsize;
	size_t tsize = hash_off + 3 * 32;
	memset(m, 0, tsize);
	fw_put_le32(m + 0, FW_APTIO_MANIFEST_SIGNATURE);
	fw_put_le32(m + 4, 2);
	fw_put_le32(m + 8, (uint32_t)hsize);
	fw_put_le32(m + 12, (uint32_t)tsize);
	fw_put_le16(m + 16, 2024);
	m[18] = 5;
	m[19] = 17;
	fw_put_le32(m + 32, (uint32_t)dsize);
	fw_put_le32(m + 36, 3);
	fw_put_le32(m + 40, FW_APTIO_HASH_SHA256);
	fw_put_le32(m + 44, 32);
	fw_put_le32(m + 48, (uint32_t)hash_off);
	put_areas(m + hsize, areas3, 3);
	for (size_t i = 0; i < 3; i++)
		fw_sha256(b + HDR + areas3[i].offset, areas3[i].size, m + hash_off + 32 * i);
	EVP_PKEY *root = test_key(1);
	struct fw_error err;
	CHECK(fw_capsule_sign(b, len, test_key(0), &root, 1, &err));
	struct fw_tree *t;
	struct fw_verify_report r;
	CHECK(verify_buf(b, len, NULL, &t, &r, &err));
	CHECK(r.valid);
	CHECK_STR(r.sigs[0].areas[3].what, "hash manifest");
	CHECK_EQ(r.sigs[0].areas[3].size, tsize);
	CHECK_EQ(r.sigs[0].areas[0].manifest_match, 1);
	CHECK_EQ(r.sigs[0].areas[1].manifest_match, -1); /* not signed: not checked */
	fw_verify_report_free(&r);
	fw_tree_free(t);
	b[HDR + 0x100] ^= 0x80;
	CHECK(verify_buf(b, len, NULL, &t, &r, &err));
	CHECK(!r.valid);
	CHECK(r.sigs[0].valid == false);
	CHECK_EQ(r.sigs[0].areas[0].manifest_match, 0);
	CHECK_EQ(r.sigs[0].areas[2].manifest_match, 1);
	CHECK(strstr(r.sigs[0].detail, "1 signed area differs from the manifest's digest (#0 0x0+0x2000)") != NULL);
	fw_verify_report_free(&r);
	fw_tree_free(t);
	free(b);
}

static X509 *self_signed(EVP_PKEY *k)
{
	X509 *x = X509_new();
	ASN1_INTEGER_set(X509_get_serialNumber(x), 1);
	X509_gmtime_adj(X509_getm_notBefore(x), 0);
	X509_gmtime_adj(X509_getm_notAfter(x), 3600);
	X509_set_pubkey(x, k);
	X509_NAME *nm = X509_get_subject_name(x);
	X509_NAME_add_entry_by_txt(nm, "CN", MBSTRING_ASC, (const unsigned char *)"fwlens test signer", -1, -1, 0);
	X509_set_issuer_name(x, nm);
	X509_sign(x, k, EVP_sha256());
	return x;
}

TEST(capsule_pkcs7_certificate)
{
	size_t len;
	uint8_t *b = build_capsule(0x00010000, &len);
	/* CertData holds the SignedData; leave room for it before the ROM area table */
	size_t room = 0x700, table = FW_APTIO_CERT_OFFSET + FW_APTIO_CERT_DATA_OFFSET + room;
	memset(b + FW_APTIO_CERT_OFFSET + 0x18, 0, HDR - FW_APTIO_CERT_OFFSET - 0x18);
	fw_put_le32(b + FW_APTIO_CERT_OFFSET, (uint32_t)(FW_APTIO_CERT_DATA_OFFSET + room));
	memcpy(b + FW_APTIO_CERT_OFFSET + 8, fw_guid_cert_pkcs7.b, 16);
	fw_put_le16(b + 0x1E, (uint16_t)table);
	put_areas(b + table, areas3, 3);
	struct fw_tree *t = fw_tree_new(NULL);
	struct fw_view v = fw_view_make(b, len, 0), payload;
	struct fw_error err;
	struct fw_node *n = fw_capsule_parse(t, NULL, &v, &payload, &err);
	CHECK(n && fw_capsule_of(n)->cert_form == FW_CERT_PKCS7);
	uint8_t digest[FW_SHA256_LEN];
	CHECK(fw_capsule_firmware_digest(fw_capsule_of(n), digest, &err));
	fw_tree_free(t);
	X509 *x = self_signed(test_key(0));
	BIO *in = BIO_new_mem_buf(digest, sizeof(digest));
	PKCS7 *p7 = PKCS7_sign(x, test_key(0), NULL, in, PKCS7_BINARY | PKCS7_DETACHED);
	unsigned char *der = NULL;
	int der_len = i2d_PKCS7(p7, &der);
	CHECK(der_len > 0 && (size_t)der_len <= room);
	memcpy(b + FW_APTIO_CERT_OFFSET + FW_APTIO_CERT_DATA_OFFSET, der, (size_t)der_len);
	fw_put_le32(b + FW_APTIO_CERT_OFFSET, (uint32_t)(FW_APTIO_CERT_DATA_OFFSET + der_len));
	OPENSSL_free(der);
	PKCS7_free(p7);
	BIO_free(in);
	X509_free(x);

	struct fw_pubkey sign, other;
	CHECK(pubkey_of(test_key(0), &sign) && pubkey_of(test_key(2), &other));
	struct fw_verify_report r;
	CHECK(verify_buf(b, len, &sign, &t, &r, &err));
	CHECK(r.valid);
	CHECK_EQ(r.nsigs, 1);
	CHECK_STR(r.sigs[0].scheme, "PKCS#7 SHA-256");
	CHECK(strstr(r.sigs[0].signer, "fwlens test signer") != NULL);
	CHECK_STR(r.sigs[0].key_sha256, sign.sha256);
	CHECK(r.key_matched);
	fw_verify_report_free(&r);
	fw_tree_free(t);
	CHECK(verify_buf(b, len, &other, &t, &r, &err));
	CHECK(!r.valid && !r.key_matched);
	fw_verify_report_free(&r);
	fw_tree_free(t);
	b[HDR + 0x10] ^= 1;
	CHECK(verify_buf(b, len, NULL, &t, &r, &err));
	CHECK(!r.valid);
	CHECK(strstr(r.sigs[0].detail, "does not match the digest") != NULL);
	fw_verify_report_free(&r);
	fw_tree_free(t);
	free(b);
}

TEST(capsule_efi_and_fmp)
{
	/* UEFI 2.0: a 0x1C header, then the body */
	uint8_t e[0x40];
	memset(e, 0xAB, sizeof(e));
	fw_layout_put_guid(&fw_efi_capsule_layout, e, CAP_GUID, &fw_guid_capsule_efi);
	fw_layout_put(&fw_efi_capsule_layout, e, CAP_HEADER_SIZE, 0x20);
	fw_layout_put(&fw_efi_capsule_layout, e, CAP_FLAGS, FW_CAPSULE_PERSIST_ACROSS_RESET);
	fw_layout_put(&fw_efi_capsule_layout, e, CAP_IMAGE_SIZE, sizeof(e));
	struct fw_tree *t = fw_tree_new(NULL);
	struct fw_view v = fw_view_make(e, sizeof(e), 0x100), payload;
	struct fw_error err;
	struct fw_node *n = fw_capsule_parse(t, NULL, &v, &payload, &err);
	CHECK(n);
	CHECK_STR(n->type, "UEFI 2.0");
	CHECK_EQ(payload.base, 0x120);
	CHECK_EQ(payload.len, 0x20);
	struct fw_verify_report r;
	fw_error_clear(&err);
	CHECK(!fw_capsule_verify(fw_capsule_of(n), NULL, &r, &err));
	CHECK_EQ(err.code, FW_E_UNSUPPORTED);
	CHECK(strstr(err.msg, "not a signed capsule") != NULL);
	fw_tree_free(t);
	/* HeaderSize that does not fit */
	fw_layout_put(&fw_efi_capsule_layout, e, CAP_HEADER_SIZE, 0x1000);
	t = fw_tree_new(NULL);
	CHECK(!fw_capsule_parse(t, NULL, &v, &payload, &err));
	CHECK(strstr(err.msg, "HeaderSize 0x1000") != NULL);
	fw_tree_free(t);

	/* FMP: one payload with an authentication block, then the image */
	uint8_t f[0x200];
	memset(f, 0, sizeof(f));
	fw_layout_put_guid(&fw_efi_capsule_layout, f, CAP_GUID, &fw_guid_capsule_fmp);
	fw_layout_put(&fw_efi_capsule_layout, f, CAP_HEADER_SIZE, 0x20);
	fw_layout_put(&fw_efi_capsule_layout, f, CAP_IMAGE_SIZE, sizeof(f));
	uint8_t *body = f + 0x20;
	fw_put_le32(body, 1);
	fw_put_le16(body + 6, 1);
	fw_put_le64(body + 8, 0x10);
	uint8_t *item = body + 0x10;
	fw_put_le32(item, 2);
	memcpy(item + 4, fw_guid_capsule_efi.b, 16); /* any GUID */
	item[0x14] = 1;
	fw_put_le32(item + 0x18, 0x100);
	uint8_t *img = item + FW_FMP_IMAGE_HEADER_V2_SIZE;
	fw_put_le64(img, 42);
	fw_put_le32(img + 8, 24 + 8); /* WIN_CERTIFICATE with 8 bytes of CertData */
	fw_put_le16(img + 12, FW_WIN_CERT_REVISION);
	fw_put_le16(img + 14, FW_WIN_CERT_TYPE_EFI_GUID);
	memcpy(img + 16, fw_guid_cert_pkcs7.b, 16);
	memcpy(img + 8 + 32, "_FVH", 4);
	t = fw_tree_new(NULL);
	v = fw_view_make(f, sizeof(f), 0);
	n = fw_capsule_parse(t, NULL, &v, &payload, &err);
	CHECK(n);
	CHECK_STR(n->type, "FMP");
	CHECK_EQ(fw_capsule_of(n)->fmp_payloads, 1);
	CHECK_EQ(payload.base, 0x20 + 0x10 + FW_FMP_IMAGE_HEADER_V2_SIZE + 8 + 32);
	CHECK_EQ(payload.len, 0x100 - 40);
	CHECK(memcmp(payload.p, "_FVH", 4) == 0);
	CHECK(strstr(fw_node_field_get(n, "Payload[0] authentication")->v.s, "monotonic count 42") != NULL);
	fw_tree_free(t);
	/* an item offset outside the body */
	fw_put_le64(body + 8, 0x4000);
	t = fw_tree_new(NULL);
	n = fw_capsule_parse(t, NULL, &v, &payload, &err);
	CHECK(n && payload.len == 0);
	CHECK(n->diags && strstr(n->diags->msg, "outside the body") != NULL);
	fw_tree_free(t);
}

/* ---- the real WRX90E 1203 capsule ------------------------------------------------------------ */

#define WRX_ROOT_KEY "536a4335b3e2ab0efb20d84f69cafb4b6a03375f2ea5e631329e17a48ba89f19"
#define WRX_SIGN_KEY "d4acdb2b2d7ed7f6b904e970fb78d6d3f7589dd313e76a133350e73455f4143e"

TEST(capsule_wrx90e_header_root_signature_verifies)
{
	const char *path = fw_test_corpus("firmware/asus-wrx90e-sage-se-1203_capsule-header.bin");
	if (!path)
		SKIP("corpus firmware/asus-wrx90e-sage-se-1203_capsule-header.bin not present");
	size_t len;
	uint8_t *b = fw_test_read_file(path, &len);
	struct fw_tree *t = fw_tree_new(NULL);
	struct fw_view v = fw_view_make(b, len, 0), payload;
	struct fw_error err;
	struct fw_node *n = fw_capsule_parse(t, NULL, &v, &payload, &err);
	CHECK(n);
	const struct fw_capsule *c = fw_capsule_of(n);
	CHECK_EQ(c->flags, 0x00010001);
	CHECK_EQ(c->image_size, 0x2001000);
	CHECK_EQ(c->rom_image_offset, 0x1000);
	CHECK_EQ(c->rom_layout_offset, 0x458);
	CHECK_EQ(c->cert_length, 0x438);
	CHECK_EQ(c->nroots, 1);
	CHECK_EQ(c->nareas, 20);
	CHECK_EQ(c->area_table.len, 21 * 24);
	CHECK_EQ(c->areas[14].offset, 0x1000000);
	CHECK_EQ(c->areas[14].size, 0xB3F000);
	CHECK_EQ(c->areas[14].attributes, 0x208);
	CHECK_EQ(payload.len, 0);
	struct fw_verify_report r;
	CHECK(fw_capsule_verify(c, NULL, &r, &err));
	CHECK(!r.valid);
	CHECK_STR(r.sigs[0].key_sha256, WRX_SIGN_KEY);
	CHECK(!r.sigs[0].valid);
	CHECK(strstr(r.sigs[0].detail, "9 signed areas lie outside the file") != NULL);
	CHECK_STR(r.sigs[1].role, "root");
	CHECK_STR(r.sigs[1].scheme, "RSASSA-PSS SHA-256");
	CHECK(r.sigs[1].valid);
	CHECK_EQ(r.sigs[1].salt_len, 8);
	CHECK_STR(r.sigs[1].key_sha256, WRX_ROOT_KEY);
	/* SHA-256 of header[0x20:0x248], the SignCert the root key signs */
	char hex[FW_SHA256_HEX_LEN];
	CHECK_STR(r.sigs[1].digest, fw_sha256_hex(b + 0x20, 0x228, hex));
	fw_verify_report_free(&r);
	fw_tree_free(t);
	free(b);
}

TEST(capsule_wrx90e_rebuilt_names_the_lost_signed_areas)
{
	const char *path = fw_test_corpus("firmware/asus-wrx90e-sage-se-1203_rebuilt.cap");
	if (!path)
		SKIP("corpus firmware/asus-wrx90e-sage-se-1203_rebuilt.cap not present");
	size_t len;
	uint8_t *b = fw_test_read_file(path, &len);
	CHECK_EQ(len, 0x2001000);
	struct fw_tree *t;
	struct fw_verify_report r;
	struct fw_error err;
	CHECK(verify_buf(b, len, NULL, &t, &r, &err));
	CHECK(!r.valid);
	CHECK(!r.sigs[0].valid);
	CHECK(r.sigs[0].well_formed); /* the signing key opens it: the bytes changed, not the key */
	CHECK_EQ(r.sigs[0].salt_len, 8);
	CHECK(r.sigs[1].valid);
	/* the signed areas in the lost PSP region (image 0..0x1000000) are erased */
	size_t lost = 0;
	for (size_t i = 0; i < r.sigs[0].nareas; i++) {
		const struct fw_verify_area *a = &r.sigs[0].areas[i];
		if (a->index < 0 || !a->is_signed || a->image_offset >= 0x1000000)
			continue;
		CHECK_MSG(a->erased, "signed area %d in the lost region is not erased", a->index);
		lost++;
	}
	CHECK_EQ(lost, 2);
	CHECK(strstr(r.sigs[0].detail, "#15 0x12E8A4+0xED175C") != NULL);
	CHECK(strstr(r.sigs[0].detail, "#17 0x21000+0x10D873") != NULL);
	/* the platform key the image keeps (FWKEY, in the PEI volume) is the capsule's root key */
	CHECK(r.platform_key.found && !r.platform_key.hash_only);
	CHECK_EQ(r.platform_key.offset, 0x1C01078);
	CHECK_STR(r.platform_key.sha256, WRX_ROOT_KEY);
	CHECK_STR(r.platform_key.matches, "root");
	/* the NVRAM volume area holds the corpus NVRAM volume */
	const char *nv = fw_test_corpus("firmware/asus-wrx90e-sage-se-1203_nvram-volume-1.bin");
	if (nv) {
		size_t nvlen;
		uint8_t *p = fw_test_read_file(nv, &nvlen);
		char hex[FW_SHA256_HEX_LEN];
		CHECK_EQ(r.sigs[0].areas[6].offset, 0x1BE1000);
		CHECK_STR(r.sigs[0].areas[6].sha256, fw_sha256_hex(p, nvlen, hex));
		free(p);
	}
	fw_verify_report_free(&r);
	fw_tree_free(t);
	free(b);
}

TEST(capsule_fwcapsulehdr_template)
{
	const char *path = fw_test_corpus("firmware/ami-aptio5-secureflash_FwCapsuleHdr-template.ffs");
	if (!path)
		SKIP("corpus firmware/ami-aptio5-secureflash_FwCapsuleHdr-template.ffs not present");
	size_t len;
	uint8_t *b = fw_test_read_file(path, &len);
	CHECK_EQ(len, 4140);
	struct fw_tree *t = fw_tree_new(NULL);
	struct fw_view v = fw_view_make(b + 0x2C, 0x1000, 0x2C), payload;
	struct fw_error err;
	CHECK(fw_capsule_probe(&v));
	struct fw_node *n = fw_capsule_parse(t, NULL, &v, &payload, &err);
	CHECK(n);
	const struct fw_capsule *c = fw_capsule_of(n);
	CHECK_EQ(c->kind, FW_CAPSULE_APTIO_SIGNED);
	CHECK_EQ(c->header_size, 0x1000);
	CHECK_EQ(c->flags, 0x00010008);
	CHECK_EQ(c->rom_layout_offset, 0x470);
	CHECK_EQ(c->cert_form, FW_CERT_UNKNOWN); /* the template's certificate is empty */
	CHECK_EQ(payload.len, 0);
	struct fw_verify_report r;
	CHECK(!fw_capsule_verify(c, NULL, &r, &err));
	fw_tree_free(t);
	free(b);
}
