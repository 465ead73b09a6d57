/* Signature check of AMI Aptio signed capsules (see signature.h for what is hashed and signed). */
#include "signature.h"

#include <openssl/bio.h>
#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/param_build.h>
#include <openssl/pem.h>
#include <openssl/pkcs7.h>
#include <openssl/rsa.h>
#include <openssl/x509.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aptio.h"
#include "parsers/firmware.h"

#define HASH_CHUNK ((size_t)1 << 20)

/* ---- keys ------------------------------------------------------------------------------------ */

static EVP_PKEY *rsa_public_key(const uint8_t *modulus, size_t len)
{
	EVP_PKEY *pkey = NULL;
	BIGNUM *n = BN_bin2bn(modulus, (int)len, NULL), *e = BN_new();
	OSSL_PARAM_BLD *bld = OSSL_PARAM_BLD_new();
	OSSL_PARAM *params = NULL;
	EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new_from_name(NULL, "RSA", NULL);
	if (n && e && bld && ctx && BN_set_word(e, 65537) && OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_RSA_N, n) &&
	    OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_RSA_E, e) && (params = OSSL_PARAM_BLD_to_param(bld)) &&
	    EVP_PKEY_fromdata_init(ctx) > 0)
		EVP_PKEY_fromdata(ctx, &pkey, EVP_PKEY_PUBLIC_KEY, params);
	EVP_PKEY_CTX_free(ctx);
	OSSL_PARAM_free(params);
	OSSL_PARAM_BLD_free(bld);
	BN_free(n);
	BN_free(e);
	return pkey;
}

/* The modulus of an RSA key, big-endian, padded to the key length. */
static bool key_modulus(EVP_PKEY *k, uint8_t *out, size_t cap, size_t *len)
{
	BIGNUM *n = NULL;
	if (EVP_PKEY_base_id(k) != EVP_PKEY_RSA || !EVP_PKEY_get_bn_param(k, OSSL_PKEY_PARAM_RSA_N, &n))
		return false;
	int bytes = (EVP_PKEY_get_bits(k) + 7) / 8;
	bool ok = bytes > 0 && (size_t)bytes <= cap && BN_bn2binpad(n, out, bytes) == bytes;
	BN_free(n);
	if (ok)
		*len = (size_t)bytes;
	return ok;
}

bool fw_pubkey_load_pem(const char *path, struct fw_pubkey *out, struct fw_error *err)
{
	memset(out, 0, sizeof(*out));
	FILE *f = fopen(path, "rb");
	if (!f)
		return fw_error_errno(err, "%s: cannot open", path);
	EVP_PKEY *k = PEM_read_PUBKEY(f, NULL, NULL, NULL);
	if (!k) {
		rewind(f);
		X509 *x = PEM_read_X509(f, NULL, NULL, NULL);
		if (x) {
			k = X509_get_pubkey(x);
			X509_free(x);
		}
	}
	if (!k) {
		rewind(f);
		k = PEM_read_PrivateKey(f, NULL, NULL, NULL);
	}
	fclose(f);
	ERR_clear_error();
	if (!k)
		return fw_error_set(err, FW_E_INVALID, "%s: no PEM public key, certificate or private key", path);
	bool ok = key_modulus(k, out->modulus, sizeof(out->modulus), &out->len);
	EVP_PKEY_free(k);
	if (!ok)
		return fw_error_set(err, FW_E_UNSUPPORTED, "%s: not an RSA key (Aptio capsules are signed with RSA)", path);
	fw_sha256_hex(out->modulus, out->len, out->sha256);
	return true;
}

/* ---- RSA signatures over a SHA-256 digest ------------------------------------------------------ */

static void mgf1_sha256(const uint8_t *seed, size_t seed_len, uint8_t *mask, size_t len)
{
	uint8_t block[FW_SHA256_LEN];
	for (uint32_t counter = 0, done = 0; done < len; counter++) {
		EVP_MD_CTX *m = EVP_MD_CTX_new();
		uint8_t c[4] = {(uint8_t)(counter >> 24), (uint8_t)(counter >> 16), (uint8_t)(counter >> 8), (uint8_t)counter};
		EVP_DigestInit_ex(m, EVP_sha256(), NULL);
		EVP_DigestUpdate(m, seed, seed_len);
		EVP_DigestUpdate(m, c, 4);
		EVP_DigestFinal_ex(m, block, NULL);
		EVP_MD_CTX_free(m);
		size_t n = len - done < FW_SHA256_LEN ? len - done : FW_SHA256_LEN;
		memcpy(mask + done, block, n);
		done += (uint32_t)n;
	}
}

/* Open the signature with the key (RSA without padding) and look at the block: a well-formed
 * block with a failing check means the key is right and the signed bytes changed. */
static void inspect_block(EVP_PKEY *k, const uint8_t *sig, size_t sig_len, bool pss, struct fw_verify_sig *s)
{
	uint8_t em[512];
	size_t em_len = sizeof(em);
	EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new(k, NULL);
	bool opened = ctx && EVP_PKEY_verify_recover_init(ctx) > 0 && EVP_PKEY_CTX_set_rsa_padding(ctx, RSA_NO_PADDING) > 0 &&
		      EVP_PKEY_verify_recover(ctx, em, &em_len, sig, sig_len) > 0;
	EVP_PKEY_CTX_free(ctx);
	ERR_clear_error();
	if (!opened || em_len != sig_len)
		return;
	if (pss) {
		/* EM = maskedDB || H || 0xBC; DB = zeros || 0x01 || salt (RFC 8017 9.1.2) */
		size_t h = FW_SHA256_LEN;
		if (em_len < h + 2 || em[em_len - 1] != 0xBC)
			return;
		size_t db_len = em_len - h - 1;
		uint8_t db[512];
		mgf1_sha256(em + db_len, h, db, db_len);
		for (size_t i = 0; i < db_len; i++)
			db[i] ^= em[i];
		unsigned bits = (unsigned)EVP_PKEY_get_bits(k);
		db[0] &= (uint8_t)(0xFF >> (8 * em_len - (bits - 1)));
		size_t i = 0;
		while (i < db_len && db[i] == 0)
			i++;
		if (i < db_len && db[i] == 0x01) {
			s->well_formed = true;
			s->salt_len = (int)(db_len - i - 1);
		}
		return;
	}
	/* EM = 00 01 FF.. 00 DigestInfo(SHA-256) */
	static const uint8_t info[] = {0x30, 0x31, 0x30, 0x0d, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01,
				       0x65, 0x03, 0x04, 0x02, 0x01, 0x05, 0x00, 0x04, 0x20};
	size_t tail = sizeof(info) + FW_SHA256_LEN;
	if (em_len < tail + 11 || em[0] != 0 || em[1] != 1 || em[em_len - tail - 1] != 0)
		return;
	for (size_t i = 2; i < em_len - tail - 1; i++)
		if (em[i] != 0xFF)
			return;
	if (memcmp(em + em_len - tail, info, sizeof(info)) == 0) {
		s->well_formed = true;
		char hex[FW_SHA256_HEX_LEN];
		fw_hex(em + em_len - FW_SHA256_LEN, FW_SHA256_LEN, hex);
		snprintf(s->detail + strlen(s->detail), sizeof(s->detail) - strlen(s->detail), "the signature carries digest %s",
			 hex);
	}
}

static bool rsa_verify(const uint8_t *modulus, size_t mod_len, const uint8_t digest[FW_SHA256_LEN], const uint8_t *sig,
		       size_t sig_len, bool pss, struct fw_verify_sig *s)
{
	EVP_PKEY *k = rsa_public_key(modulus, mod_len);
	if (!k) {
		snprintf(s->detail, sizeof(s->detail), "the public key does not load");
		return false;
	}
	s->key_bits = (unsigned)EVP_PKEY_get_bits(k);
	EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new(k, NULL);
	bool ok = ctx && EVP_PKEY_verify_init(ctx) > 0 && EVP_PKEY_CTX_set_signature_md(ctx, EVP_sha256()) > 0 &&
		  EVP_PKEY_CTX_set_rsa_padding(ctx, pss ? RSA_PKCS1_PSS_PADDING : RSA_PKCS1_PADDING) > 0 &&
		  (!pss || (EVP_PKEY_CTX_set_rsa_pss_saltlen(ctx, RSA_PSS_SALTLEN_AUTO) > 0 &&
			    EVP_PKEY_CTX_set_rsa_mgf1_md(ctx, EVP_sha256()) > 0)) &&
		  EVP_PKEY_verify(ctx, sig, sig_len, digest, FW_SHA256_LEN) == 1;
	EVP_PKEY_CTX_free(ctx);
	ERR_clear_error();
	s->valid = ok;
	inspect_block(k, sig, sig_len, pss, s);
	EVP_PKEY_free(k);
	return ok;
}

/* ---- what the firmware signature covers ------------------------------------------------------- */

static struct fw_verify_area *add_area(struct fw_verify_sig *s, size_t *cap)
{
	if (s->nareas == *cap) {
		*cap = *cap ? *cap * 2 : 16;
		s->areas = fw_xrealloc(s->areas, *cap * sizeof(*s->areas));
	}
	struct fw_verify_area *a = &s->areas[s->nareas++];
	memset(a, 0, sizeof(*a));
	a->index = -1;
	a->manifest_match = -1;
	return a;
}

/* Hash one part: its own SHA-256 and, when signed, into the running digest. */
static void hash_part(struct fw_verify_area *a, const struct fw_view *w, EVP_MD_CTX *digest)
{
	EVP_MD_CTX *own = EVP_MD_CTX_new();
	EVP_DigestInit_ex(own, EVP_sha256(), NULL);
	bool erased = true;
	for (size_t off = 0; off < w->len; off += HASH_CHUNK) {
		size_t n = w->len - off < HASH_CHUNK ? w->len - off : HASH_CHUNK;
		EVP_DigestUpdate(own, w->p + off, n);
		if (digest && a->is_signed)
			EVP_DigestUpdate(digest, w->p + off, n);
		if (erased)
			erased = fw_all_bytes(w->p + off, n, 0xFF);
	}
	uint8_t md[FW_SHA256_LEN];
	EVP_DigestFinal_ex(own, md, NULL);
	EVP_MD_CTX_free(own);
	fw_hex(md, FW_SHA256_LEN, a->sha256);
	a->erased = erased && w->len > 0;
}

static const EVP_MD *manifest_md(uint32_t type)
{
	switch (type) {
	case FW_APTIO_HASH_SHA256: return EVP_sha256();
	case FW_APTIO_HASH_SHA384: return EVP_sha384();
	case FW_APTIO_HASH_SHA512: return EVP_sha512();
	}
	return NULL;
}

/* Every ROM area (signed or not), the header part and the table, in the order the digest takes
 * them. Returns false when a signed area is not in the input (no digest then). */
static bool firmware_parts(const struct fw_capsule *c, struct fw_verify_sig *s, uint8_t digest[FW_SHA256_LEN])
{
	size_t cap = 0;
	EVP_MD_CTX *d = EVP_MD_CTX_new();
	EVP_DigestInit_ex(d, EVP_sha256(), NULL);
	bool complete = true;
	size_t missing = 0, erased = 0, mismatched = 0;
	char erased_list[256] = "", missing_list[256] = "", mismatch_list[256] = "";
	for (size_t i = 0; i < c->nareas; i++) {
		const struct fw_rom_area *ra = &c->areas[i];
		struct fw_verify_area *a = add_area(s, &cap);
		a->what = "ROM area";
		a->index = (int)i;
		a->image_offset = ra->offset;
		a->type = ra->type;
		a->attributes = ra->attributes;
		a->size = ra->size;
		a->is_signed = (ra->attributes & FW_ROM_AREA_FV_SIGNED) != 0;
		a->offset = fw_view_abs(&c->payload, ra->offset);
		struct fw_view w;
		a->present = fw_rd_sub(&c->payload, ra->offset, ra->size, &w, NULL);
		if (!a->present) {
			if (a->is_signed) {
				complete = false;
				if (missing++ < 4)
					snprintf(missing_list + strlen(missing_list), sizeof(missing_list) - strlen(missing_list),
						 "%s#%zu 0x%X+0x%X", missing > 1 ? ", " : "", i, ra->offset, ra->size);
			}
			continue;
		}
		/* The manifest form signs the manifest only: areas are checked against their digests. */
		hash_part(a, &w, c->manifest ? NULL : d);
		if (a->is_signed && a->erased && erased++ < 4)
			snprintf(erased_list + strlen(erased_list), sizeof(erased_list) - strlen(erased_list), "%s#%zu 0x%X+0x%X",
				 erased > 1 ? ", " : "", i, ra->offset, ra->size);
		if (c->manifest && a->is_signed && ra->hash) {
			const EVP_MD *md = manifest_md(c->manifest_hash_type);
			uint8_t h[EVP_MAX_MD_SIZE];
			unsigned hl = 0;
			if (md && EVP_Digest(w.p, w.len, h, &hl, md, NULL) && hl == c->manifest_hash_size) {
				a->manifest_match = memcmp(h, ra->hash, hl) == 0;
				if (!a->manifest_match && mismatched++ < 4)
					snprintf(mismatch_list + strlen(mismatch_list), sizeof(mismatch_list) - strlen(mismatch_list),
						 "%s#%zu 0x%X+0x%X", mismatched > 1 ? ", " : "", i, ra->offset, ra->size);
			}
		}
	}
	if (!c->manifest && (c->flags & FW_APTIO_FLAG_HEADER_SIGNED)) {
		struct fw_verify_area *a = add_area(s, &cap);
		struct fw_view w;
		fw_rd_sub(&c->whole, 0, FW_APTIO_CERT_OFFSET + FW_APTIO_CERT_DATA_OFFSET, &w, NULL);
		a->what = "capsule header";
		a->offset = w.base;
		a->size = w.len;
		a->is_signed = a->present = true;
		hash_part(a, &w, d);
	}
	struct fw_verify_area *t = add_area(s, &cap);
	t->what = c->manifest ? "hash manifest" : "ROM area table";
	t->offset = c->area_table.base;
	t->size = c->area_table.len;
	t->is_signed = t->present = true;
	hash_part(t, &c->area_table, d);
	EVP_DigestFinal_ex(d, digest, NULL);
	EVP_MD_CTX_free(d);
	if (c->manifest) {
		/* the signature covers the manifest alone */
		EVP_Digest(c->area_table.p, c->area_table.len, digest, NULL, EVP_sha256(), NULL);
	}
	size_t used = strlen(s->detail);
	if (missing)
		used += (size_t)snprintf(s->detail + used, sizeof(s->detail) - used, "%zu signed area%s outside the file (%s%s); ",
					 missing, missing == 1 ? " lies" : "s lie", missing_list, missing > 4 ? ", ..." : "");
	if (erased && used < sizeof(s->detail))
		used += (size_t)snprintf(s->detail + used, sizeof(s->detail) - used,
					 "%zu signed area%s erased, all 0xFF (%s%s): lost or never written; ", erased,
					 erased == 1 ? " is" : "s are", erased_list, erased > 4 ? ", ..." : "");
	if (mismatched && used < sizeof(s->detail))
		snprintf(s->detail + used, sizeof(s->detail) - used, "%zu signed area%s the manifest's digest (%s%s); ",
			 mismatched, mismatched == 1 ? " differs from" : "s differ from", mismatch_list,
			 mismatched > 4 ? ", ..." : "");
	s->valid = !mismatched; /* the signature check decides the rest */
	return complete;
}

bool fw_capsule_firmware_digest(const struct fw_capsule *c, uint8_t out[FW_SHA256_LEN], struct fw_error *err)
{
	struct fw_verify_sig s;
	memset(&s, 0, sizeof(s));
	bool ok = c->area_table.len > 0 && firmware_parts(c, &s, out);
	free(s.areas);
	if (!ok)
		return fw_error_set(err, FW_E_INVALID, "the capsule's ROM area map is missing or names areas outside the file");
	return true;
}

static void trim_detail(char *d)
{
	size_t n = strlen(d);
	while (n && (d[n - 1] == ' ' || d[n - 1] == ';'))
		d[--n] = '\0';
}

/* ---- PKCS#7 -------------------------------------------------------------------------------- */

static void pkcs7_verify(const struct fw_capsule *c, const uint8_t digest[FW_SHA256_LEN], struct fw_verify_sig *s,
			 const struct fw_pubkey *key, bool *key_seen)
{
	const unsigned char *p = c->pkcs7.p;
	PKCS7 *p7 = d2i_PKCS7(NULL, &p, (long)c->pkcs7.len);
	if (!p7 || !PKCS7_type_is_signed(p7)) {
		snprintf(s->detail + strlen(s->detail), sizeof(s->detail) - strlen(s->detail),
			 "the certificate data is not a PKCS#7 SignedData");
		PKCS7_free(p7);
		ERR_clear_error();
		return;
	}
	STACK_OF(X509) *signers = PKCS7_get0_signers(p7, NULL, 0);
	if (signers && sk_X509_num(signers) > 0) {
		X509 *x = sk_X509_value(signers, 0);
		X509_NAME_oneline(X509_get_subject_name(x), s->signer, sizeof(s->signer));
		EVP_PKEY *k = X509_get0_pubkey(x);
		uint8_t mod[1024];
		size_t len;
		if (k && key_modulus(k, mod, sizeof(mod), &len)) {
			fw_sha256_hex(mod, len, s->key_sha256);
			s->key_bits = (unsigned)EVP_PKEY_get_bits(k);
		}
	}
	sk_X509_free(signers);
	/* --key may name any certificate the SignedData carries (the signer or its issuers). */
	STACK_OF(X509) *certs = p7->d.sign ? p7->d.sign->cert : NULL;
	for (int i = 0; key && certs && i < sk_X509_num(certs); i++) {
		uint8_t mod[1024];
		size_t len;
		EVP_PKEY *k = X509_get0_pubkey(sk_X509_value(certs, i));
		if (k && key_modulus(k, mod, sizeof(mod), &len) && len == key->len && memcmp(mod, key->modulus, len) == 0)
			*key_seen = true;
	}
	/* AMI's Pkcs7Verify signs the 32-byte digest as the content; the chain to the platform key is
	 * what --key checks, so the certificates are not verified against a trust store here. */
	X509_STORE *store = X509_STORE_new();
	s->well_formed = true;
	if (PKCS7_get_detached(p7)) {
		BIO *content = BIO_new_mem_buf(digest, FW_SHA256_LEN);
		s->valid = PKCS7_verify(p7, NULL, store, content, NULL, PKCS7_NOVERIFY | PKCS7_BINARY) == 1;
		BIO_free(content);
	} else {
		/* the digest travels inside the SignedData: verify it, then compare */
		BIO *out = BIO_new(BIO_s_mem());
		char *got = NULL;
		s->valid = PKCS7_verify(p7, NULL, store, NULL, out, PKCS7_NOVERIFY | PKCS7_BINARY) == 1 &&
			   BIO_get_mem_data(out, &got) == FW_SHA256_LEN && memcmp(got, digest, FW_SHA256_LEN) == 0;
		BIO_free(out);
	}
	if (!s->valid)
		snprintf(s->detail + strlen(s->detail), sizeof(s->detail) - strlen(s->detail),
			 "the PKCS#7 signature does not match the digest");
	X509_STORE_free(store);
	PKCS7_free(p7);
	ERR_clear_error();
}

/* ---- the platform key in the ROM ----------------------------------------------------------------- */

static const struct fw_guid fwkey_file = FW_GUID_INIT(0x3FEEC852, 0xF14C, 0x4E7F, 0x97, 0xFD, 0x4C, 0x3A, 0x8C, 0x5B, 0xBE, 0xCC);
#define FFS_HEADER 24
#define SECTION_RAW 0x19

bool fw_capsule_find_platform_key(const struct fw_view *rom, struct fw_platform_key *out, uint8_t key[FW_SHA256_LEN])
{
	memset(out, 0, sizeof(*out));
	const uint8_t *p = rom->p, *end = rom->p + rom->len;
	while ((p = memmem(p, (size_t)(end - p), fwkey_file.b, 16))) {
		size_t off = (size_t)(p - rom->p);
		p += 16;
		/* FFS files are 8-byte aligned; then a RAW section right after the file header */
		if (off % 8 || !fw_view_has(rom, off, FFS_HEADER + 4))
			continue;
		size_t fsize = fw_le24(rom->p + off + 20), ssize = fw_le24(rom->p + off + FFS_HEADER);
		if (fsize < FFS_HEADER + 4 || !fw_view_has(rom, off, fsize) || rom->p[off + FFS_HEADER + 3] != SECTION_RAW ||
		    ssize < 4 || ssize > fsize - FFS_HEADER)
			continue;
		const uint8_t *body = rom->p + off + FFS_HEADER + 4;
		size_t blen = ssize - 4;
		if (blen == FW_RSA2048_BYTES) {
			fw_sha256(body, blen, key);
		} else if (blen == FW_SHA256_LEN) {
			memcpy(key, body, FW_SHA256_LEN);
			out->hash_only = true;
		} else {
			continue;
		}
		fw_hex(key, FW_SHA256_LEN, out->sha256);
		out->found = true;
		out->offset = fw_view_abs(rom, off);
		return true;
	}
	return false;
}

/* ---- the report ------------------------------------------------------------------------------ */

static void root_parts(const struct fw_capsule *c, struct fw_verify_sig *s, uint8_t digest[FW_SHA256_LEN])
{
	size_t cap = 0;
	struct fw_verify_area *a = add_area(s, &cap);
	struct fw_view w;
	if (c->flags & FW_APTIO_FLAG_ROOT_SIGNS_KEY_ONLY) {
		a->what = "SignCert.PublicKey";
		fw_rd_sub(&c->whole, (size_t)(c->sign.key - c->whole.p), FW_RSA2048_BYTES, &w, NULL);
	} else {
		a->what = "SignCert";
		w = c->sign_cert;
	}
	a->offset = w.base;
	a->size = w.len;
	a->is_signed = a->present = true;
	hash_part(a, &w, NULL);
	fw_sha256(w.p, w.len, digest);
}

static bool same_key(const struct fw_pubkey *k, const uint8_t *modulus)
{
	return k && k->len == FW_RSA2048_BYTES && memcmp(k->modulus, modulus, FW_RSA2048_BYTES) == 0;
}

bool fw_capsule_verify(const struct fw_capsule *c, const struct fw_pubkey *key, struct fw_verify_report *r,
		       struct fw_error *err)
{
	memset(r, 0, sizeof(*r));
	if (c->kind != FW_CAPSULE_APTIO_SIGNED)
		return fw_error_set(err, FW_E_UNSUPPORTED, "not a signed capsule: %s capsules carry no AMI firmware certificate",
				    fw_capsule_kind_name(c->kind));
	if (c->cert_form != FW_CERT_RSA2048_SHA256 && c->cert_form != FW_CERT_PKCS7)
		return fw_error_set(err, FW_E_UNSUPPORTED, "the capsule's certificate is missing or of a type fwlens does not know");
	if (!c->area_table.len)
		return fw_error_set(err, FW_E_INVALID, "the signed capsule has no ROM area map to compute its digest from");
	bool pss = c->flags & FW_APTIO_FLAG_RSA_PSS;
	const char *scheme = pss ? "RSASSA-PSS SHA-256" : "RSASSA-PKCS1-v1_5 SHA-256";
	r->key_required = key != NULL;
	if (key)
		memcpy(r->key_sha256, key->sha256, sizeof(r->key_sha256));

	uint8_t platform[FW_SHA256_LEN];
	bool have_platform = fw_capsule_find_platform_key(&c->payload, &r->platform_key, platform);

	struct fw_verify_sig *fs = &r->sigs[r->nsigs++];
	fs->role = "firmware";
	fs->salt_len = -1;
	uint8_t digest[FW_SHA256_LEN];
	bool complete = firmware_parts(c, fs, digest);
	bool parts_ok = fs->valid;
	fs->valid = false;
	fw_hex(digest, FW_SHA256_LEN, fs->digest);
	if (c->cert_form == FW_CERT_PKCS7) {
		fs->scheme = "PKCS#7 SHA-256";
		bool seen = false;
		if (complete)
			pkcs7_verify(c, digest, fs, key, &seen);
		fs->valid = fs->valid && parts_ok && complete;
		trim_detail(fs->detail);
		if (seen) {
			r->key_matched = true;
			r->key_role = "firmware";
		}
		r->valid = fs->valid && (!key || r->key_matched);
		return true;
	}
	fs->scheme = scheme;
	fs->key_bits = 8 * FW_RSA2048_BYTES;
	fw_sha256_hex(c->sign.key, FW_RSA2048_BYTES, fs->key_sha256);
	if (complete)
		rsa_verify(c->sign.key, FW_RSA2048_BYTES, digest, c->sign.signature, FW_RSA2048_BYTES, pss, fs);
	else
		fs->digest[0] = '\0';
	fs->valid = fs->valid && parts_ok && complete;
	if (complete && !fs->valid && fs->well_formed)
		snprintf(fs->detail + strlen(fs->detail), sizeof(fs->detail) - strlen(fs->detail),
			 "the signature opens to a well-formed %s block with this key: the signed bytes changed",
			 pss ? "PSS" : "PKCS#1");
	else if (complete && !fs->valid && !fs->well_formed)
		snprintf(fs->detail + strlen(fs->detail), sizeof(fs->detail) - strlen(fs->detail),
			 "the signature does not open with this key");
	trim_detail(fs->detail);

	bool roots_ok = true;
	int key_root = -1;
	for (size_t i = 0; i < c->nroots; i++) {
		struct fw_verify_sig *rs = &r->sigs[r->nsigs++];
		rs->role = "root";
		rs->scheme = scheme;
		rs->salt_len = -1;
		uint8_t rd[FW_SHA256_LEN];
		root_parts(c, rs, rd);
		fw_hex(rd, FW_SHA256_LEN, rs->digest);
		fw_sha256_hex(c->roots[i].key, FW_RSA2048_BYTES, rs->key_sha256);
		if (!rsa_verify(c->roots[i].key, FW_RSA2048_BYTES, rd, c->roots[i].signature, FW_RSA2048_BYTES, pss, rs)) {
			roots_ok = false;
			if (!rs->detail[0])
				snprintf(rs->detail, sizeof(rs->detail), "%s", rs->well_formed ? "the signed certificate changed"
											  : "the signature does not open with this key");
		}
		if (same_key(key, c->roots[i].key) && key_root < 0)
			key_root = (int)i;
	}
	if (have_platform) {
		uint8_t h[FW_SHA256_LEN];
		fw_sha256(c->sign.key, FW_RSA2048_BYTES, h);
		if (memcmp(h, platform, FW_SHA256_LEN) == 0)
			r->platform_key.matches = "firmware";
		for (size_t i = 0; i < c->nroots && !r->platform_key.matches; i++) {
			fw_sha256(c->roots[i].key, FW_RSA2048_BYTES, h);
			if (memcmp(h, platform, FW_SHA256_LEN) == 0)
				r->platform_key.matches = "root";
		}
	}
	if (key) {
		if (same_key(key, c->sign.key)) {
			r->key_matched = true;
			r->key_role = "firmware";
			r->valid = fs->valid;
		} else if (key_root >= 0) {
			r->key_matched = true;
			r->key_role = "root";
			r->valid = fs->valid && r->sigs[1 + key_root].valid;
		} else {
			r->valid = false;
		}
	} else {
		r->valid = fs->valid && roots_ok;
	}
	return true;
}

/* ---- signing (encoder side) ---------------------------------------------------------------- */

static bool rsa_sign(EVP_PKEY *k, const uint8_t digest[FW_SHA256_LEN], bool pss, uint8_t *sig, size_t cap)
{
	size_t len = cap;
	EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new(k, NULL);
	bool ok = ctx && EVP_PKEY_sign_init(ctx) > 0 && EVP_PKEY_CTX_set_signature_md(ctx, EVP_sha256()) > 0 &&
		  EVP_PKEY_CTX_set_rsa_padding(ctx, pss ? RSA_PKCS1_PSS_PADDING : RSA_PKCS1_PADDING) > 0 &&
		  (!pss || (EVP_PKEY_CTX_set_rsa_pss_saltlen(ctx, 8) > 0 && EVP_PKEY_CTX_set_rsa_mgf1_md(ctx, EVP_sha256()) > 0)) &&
		  EVP_PKEY_sign(ctx, sig, &len, digest, FW_SHA256_LEN) > 0 && len == cap;
	EVP_PKEY_CTX_free(ctx);
	ERR_clear_error();
	return ok;
}

bool fw_capsule_sign(uint8_t *buf, size_t len, EVP_PKEY *sign_key, EVP_PKEY *const *root_keys, size_t nroots,
		     struct fw_error *err)
{
	size_t mlen;
	uint8_t mod[1024];
	if (!key_modulus(sign_key, mod, sizeof(mod), &mlen) || mlen != FW_RSA2048_BYTES)
		return fw_error_set(err, FW_E_UNSUPPORTED, "capsule signing needs RSA-2048 keys");
	struct fw_tree *t = fw_tree_new(NULL);
	struct fw_view v = fw_view_make(buf, len, 0), payload;
	struct fw_node *n = fw_capsule_parse(t, NULL, &v, &payload, err);
	const struct fw_capsule *c = fw_capsule_of(n);
	bool ok = false;
	if (!c || c->cert_form != FW_CERT_RSA2048_SHA256 || c->cert_length < FW_APTIO_SIGN_CERT_SIZE + nroots * FW_APTIO_ROOT_CERT_SIZE) {
		if (c)
			fw_error_set(err, FW_E_INVALID, "the capsule has no RSA-2048 certificate block with room for %zu root keys",
				     nroots);
		goto out;
	}
	bool pss = c->flags & FW_APTIO_FLAG_RSA_PSS;
	size_t sign_off = FW_APTIO_CERT_OFFSET + FW_APTIO_CERT_DATA_OFFSET;
	memcpy(buf + sign_off, fw_guid_hash_sha256.b, 16);
	memcpy(buf + sign_off + 16, mod, FW_RSA2048_BYTES);
	uint8_t digest[FW_SHA256_LEN];
	if (!fw_capsule_firmware_digest(c, digest, err))
		goto out;
	if (!rsa_sign(sign_key, digest, pss, buf + sign_off + 16 + FW_RSA2048_BYTES, FW_RSA2048_BYTES)) {
		fw_error_set(err, FW_E_INTERNAL, "signing the firmware digest failed");
		goto out;
	}
	for (size_t i = 0; i < nroots; i++) {
		size_t r = FW_APTIO_CERT_OFFSET + FW_APTIO_SIGN_CERT_SIZE + i * FW_APTIO_ROOT_CERT_SIZE;
		uint8_t rmod[1024];
		if (!key_modulus(root_keys[i], rmod, sizeof(rmod), &mlen) || mlen != FW_RSA2048_BYTES) {
			fw_error_set(err, FW_E_UNSUPPORTED, "capsule signing needs RSA-2048 keys");
			goto out;
		}
		memcpy(buf + r, fw_guid_hash_sha256.b, 16);
		memcpy(buf + r + 16, rmod, FW_RSA2048_BYTES);
		if (c->flags & FW_APTIO_FLAG_ROOT_SIGNS_KEY_ONLY)
			fw_sha256(buf + sign_off + 16, FW_RSA2048_BYTES, digest);
		else
			fw_sha256(buf + FW_APTIO_CERT_OFFSET, FW_APTIO_SIGN_CERT_SIZE, digest);
		if (!rsa_sign(root_keys[i], digest, pss, buf + r + 16 + FW_RSA2048_BYTES, FW_RSA2048_BYTES)) {
			fw_error_set(err, FW_E_INTERNAL, "signing the certificate with root key %zu failed", i);
			goto out;
		}
	}
	ok = true;
out:
	fw_tree_free(t);
	return ok;
}

void fw_verify_report_free(struct fw_verify_report *r)
{
	for (size_t i = 0; i < r->nsigs; i++)
		free(r->sigs[i].areas);
	memset(r, 0, sizeof(*r));
}
