/* Deterministic RSA-2048 test keys and RSASSA-PSS signing (sign.h). */
#include "sign.h"

#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/param_build.h>
#include <openssl/pem.h>
#include <openssl/rsa.h>
#include <string.h>

#include "parsers/hash.h"
#include "sample.h"

#define KEY_BITS 2048
#define EM_LEN 256
#define SALT_LEN 8

struct sample_key {
	EVP_PKEY *pkey;
	char *label;
};

static BIGNUM *derive_prime(struct srng *r, const BIGNUM *e, BN_CTX *ctx)
{
	uint8_t bytes[KEY_BITS / 16];
	srng_bytes(r, bytes, sizeof(bytes));
	bytes[0] |= 0xC0; /* two top bits: the product has exactly KEY_BITS bits */
	bytes[sizeof(bytes) - 1] |= 1;
	BIGNUM *p = BN_bin2bn(bytes, sizeof(bytes), NULL);
	BIGNUM *pm1 = BN_new(), *g = BN_new();
	if (!p || !pm1 || !g)
		sample_die("libcrypto: out of memory");
	for (;;) {
		if (BN_check_prime(p, ctx, NULL) == 1) {
			BN_sub(pm1, p, BN_value_one());
			BN_gcd(g, pm1, e, ctx);
			if (BN_is_one(g))
				break;
		}
		BN_add_word(p, 2);
	}
	BN_free(pm1);
	BN_free(g);
	return p;
}

struct sample_key *key_derive(const char *label)
{
	struct sample_key *k = sample_alloc(sizeof(*k));
	k->label = sample_strdup(label);
	struct srng r;
	srng_init(&r, sample_printf("rsa key %s", label));
	BN_CTX *ctx = BN_CTX_new();
	BIGNUM *e = BN_new();
	BN_set_word(e, 65537);
	BIGNUM *p = derive_prime(&r, e, ctx), *q = derive_prime(&r, e, ctx);
	if (BN_cmp(p, q) < 0) {
		BIGNUM *t = p;
		p = q;
		q = t;
	}
	BIGNUM *n = BN_new(), *d = BN_new(), *p1 = BN_new(), *q1 = BN_new(), *phi = BN_new();
	BIGNUM *dp = BN_new(), *dq = BN_new(), *qinv = BN_new();
	BN_mul(n, p, q, ctx);
	BN_sub(p1, p, BN_value_one());
	BN_sub(q1, q, BN_value_one());
	BN_mul(phi, p1, q1, ctx);
	if (!BN_mod_inverse(d, e, phi, ctx) || !BN_mod_inverse(qinv, q, p, ctx))
		sample_die("libcrypto: key derivation failed");
	BN_mod(dp, d, p1, ctx);
	BN_mod(dq, d, q1, ctx);
	SAMPLE_ASSERT(BN_num_bits(n) == KEY_BITS);

	OSSL_PARAM_BLD *bld = OSSL_PARAM_BLD_new();
	OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_RSA_N, n);
	OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_RSA_E, e);
	OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_RSA_D, d);
	OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_RSA_FACTOR1, p);
	OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_RSA_FACTOR2, q);
	OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_RSA_EXPONENT1, dp);
	OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_RSA_EXPONENT2, dq);
	OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_RSA_COEFFICIENT1, qinv);
	OSSL_PARAM *params = OSSL_PARAM_BLD_to_param(bld);
	EVP_PKEY_CTX *pctx = EVP_PKEY_CTX_new_from_name(NULL, "RSA", NULL);
	if (!params || !pctx || EVP_PKEY_fromdata_init(pctx) <= 0 ||
	    EVP_PKEY_fromdata(pctx, &k->pkey, EVP_PKEY_KEYPAIR, params) <= 0)
		sample_die("libcrypto: cannot assemble the %s key", label);
	EVP_PKEY_CTX_free(pctx);
	OSSL_PARAM_free(params);
	OSSL_PARAM_BLD_free(bld);
	BIGNUM *all[] = {e, p, q, n, d, p1, q1, phi, dp, dq, qinv};
	for (size_t i = 0; i < ARRAY_LEN(all); i++)
		BN_clear_free(all[i]);
	BN_CTX_free(ctx);
	return k;
}

void key_free(struct sample_key *k)
{
	if (k)
		EVP_PKEY_free(k->pkey);
}

void key_modulus(const struct sample_key *k, uint8_t out[256])
{
	BIGNUM *n = NULL;
	if (!EVP_PKEY_get_bn_param(k->pkey, OSSL_PKEY_PARAM_RSA_N, &n) || BN_bn2binpad(n, out, 256) != 256)
		sample_die("libcrypto: cannot read the modulus");
	BN_free(n);
}

/* MGF1 with SHA-256 (RFC 8017 B.2.1), XORed into buf */
static void mgf1_xor(uint8_t *buf, size_t len, const uint8_t *seed, size_t seed_len)
{
	uint8_t in[64], h[FW_SHA256_LEN];
	SAMPLE_ASSERT(seed_len <= 60);
	memcpy(in, seed, seed_len);
	for (uint32_t counter = 0, done = 0; done < len; counter++) {
		in[seed_len] = (uint8_t)(counter >> 24);
		in[seed_len + 1] = (uint8_t)(counter >> 16);
		in[seed_len + 2] = (uint8_t)(counter >> 8);
		in[seed_len + 3] = (uint8_t)counter;
		fw_sha256(in, seed_len + 4, h);
		for (size_t i = 0; i < sizeof(h) && done < len; i++)
			buf[done++] ^= h[i];
	}
}

void key_sign_pss(const struct sample_key *k, const uint8_t *data, size_t len, uint8_t sig[256])
{
	uint8_t mhash[FW_SHA256_LEN];
	fw_sha256(data, len, mhash);
	key_sign_pss_hash(k, mhash, sig);
}

void key_sign_pss_hash(const struct sample_key *k, const uint8_t mhash[32], uint8_t sig[256])
{
	/* salt = SHA-256(label || mHash)[0..8): fixed for a given key and message */
	uint8_t salt_src[128 + FW_SHA256_LEN], salt_full[FW_SHA256_LEN];
	size_t ll = strlen(k->label);
	SAMPLE_ASSERT(ll <= 128);
	memcpy(salt_src, k->label, ll);
	memcpy(salt_src + ll, mhash, FW_SHA256_LEN);
	fw_sha256(salt_src, ll + FW_SHA256_LEN, salt_full);

	/* EMSA-PSS encoding (RFC 8017 9.1.1), emBits = 2047 */
	uint8_t mprime[8 + FW_SHA256_LEN + SALT_LEN] = {0};
	memcpy(mprime + 8, mhash, FW_SHA256_LEN);
	memcpy(mprime + 8 + FW_SHA256_LEN, salt_full, SALT_LEN);
	uint8_t h[FW_SHA256_LEN];
	fw_sha256(mprime, sizeof(mprime), h);
	uint8_t em[EM_LEN] = {0};
	size_t db_len = EM_LEN - FW_SHA256_LEN - 1;
	em[db_len - SALT_LEN - 1] = 0x01;
	memcpy(em + db_len - SALT_LEN, salt_full, SALT_LEN);
	mgf1_xor(em, db_len, h, sizeof(h));
	em[0] &= 0x7F;
	memcpy(em + db_len, h, sizeof(h));
	em[EM_LEN - 1] = 0xBC;

	/* raw private-key operation */
	EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new(k->pkey, NULL);
	size_t siglen = 256;
	if (!ctx || EVP_PKEY_sign_init(ctx) <= 0 || EVP_PKEY_CTX_set_rsa_padding(ctx, RSA_NO_PADDING) <= 0 ||
	    EVP_PKEY_sign(ctx, sig, &siglen, em, sizeof(em)) <= 0 || siglen != 256)
		sample_die("libcrypto: RSA signing failed");
	EVP_PKEY_CTX_free(ctx);

	/* check with libcrypto's own PSS verifier */
	ctx = EVP_PKEY_CTX_new(k->pkey, NULL);
	if (!ctx || EVP_PKEY_verify_init(ctx) <= 0 || EVP_PKEY_CTX_set_rsa_padding(ctx, RSA_PKCS1_PSS_PADDING) <= 0 ||
	    EVP_PKEY_CTX_set_signature_md(ctx, EVP_sha256()) <= 0 || EVP_PKEY_CTX_set_rsa_pss_saltlen(ctx, SALT_LEN) <= 0 ||
	    EVP_PKEY_verify(ctx, sig, 256, mhash, FW_SHA256_LEN) != 1)
		sample_die("libcrypto does not accept the PSS signature made with the %s key", k->label);
	EVP_PKEY_CTX_free(ctx);
}

static void write_bio(BIO *bio, const char *rel)
{
	char *p;
	long n = BIO_get_mem_data(bio, &p);
	if (n <= 0)
		sample_die("libcrypto: empty PEM for %s", rel);
	out_write(rel, p, (size_t)n);
}

void key_write_pem(const struct sample_key *k, const char *private_rel, const char *public_rel)
{
	BIO *priv = BIO_new(BIO_s_mem()), *pub = BIO_new(BIO_s_mem());
	if (!priv || !pub || !PEM_write_bio_PrivateKey(priv, k->pkey, NULL, NULL, 0, NULL, NULL) ||
	    !PEM_write_bio_PUBKEY(pub, k->pkey))
		sample_die("libcrypto: cannot write the %s key", k->label);
	write_bio(priv, private_rel);
	write_bio(pub, public_rel);
	BIO_free(priv);
	BIO_free(pub);
}
