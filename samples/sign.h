/* Test signing keys for the sample capsules, derived deterministically (primes searched from a
 * SHA-256-seeded sequence, checked with BN_check_prime), and RSASSA-PSS signatures (SHA-256,
 * MGF1-SHA-256, 8-byte salt as the real ASUS header uses) with a salt derived from the message,
 * so every build signs byte-identically. */
#ifndef SAMPLES_SIGN_H
#define SAMPLES_SIGN_H

#include <stddef.h>
#include <stdint.h>

struct sample_key;
struct sample_key *key_derive(const char *label);
void key_free(struct sample_key *k);
/* Big-endian modulus, 256 bytes */
void key_modulus(const struct sample_key *k, uint8_t out[256]);
/* PSS signature of SHA-256(data); verified with libcrypto before it is returned. */
void key_sign_pss(const struct sample_key *k, const uint8_t *data, size_t len, uint8_t sig[256]);
/* The same for a digest computed by the caller (mhash = SHA-256 of the signed bytes). */
void key_sign_pss_hash(const struct sample_key *k, const uint8_t mhash[32], uint8_t sig[256]);
/* PEM files: private key (PKCS#8) and public key (SubjectPublicKeyInfo) */
void key_write_pem(const struct sample_key *k, const char *private_rel, const char *public_rel);

#endif
