#include "hash.h"

/* SHA256_Init and friends are marked deprecated from OpenSSL 3.0 but kept: see fw_sha256 */
#define OPENSSL_SUPPRESS_DEPRECATED
#include <openssl/crypto.h>
#include <openssl/sha.h>
#include <stdio.h>
#include <string.h>
#include <zlib.h>

uint32_t fw_crc32_update(uint32_t crc, const uint8_t *p, size_t n)
{
	/* zlib takes uInt lengths; feed large buffers in pieces. */
	uLong c = crc;
	while (n) {
		uInt chunk = n > 0x40000000u ? 0x40000000u : (uInt)n;
		c = crc32(c, p, chunk);
		p += chunk;
		n -= chunk;
	}
	return (uint32_t)c;
}

uint32_t fw_crc32(const uint8_t *p, size_t n)
{
	return fw_crc32_update(0, p, n);
}

/* libcrypto's low-level SHA-256 calls, not EVP_Digest (nor SHA256(), which goes through it in
 * OpenSSL 3): EVP fetches the algorithm from a provider on first use, which initialises the
 * provider machinery, 3 to 5 ms of every run that hashes anything (a warm doctor hashes a few
 * lines, its whole run is some 60 ms); the low-level calls run the same assembly (SHA-NI where
 * the CPU has it) without that. The unit tests compare both with EVP. */
void fw_sha256(const uint8_t *p, size_t n, uint8_t out[FW_SHA256_LEN])
{
	SHA256_CTX ctx;
	SHA256_Init(&ctx);
	if (n)
		SHA256_Update(&ctx, p, n);
	SHA256_Final(out, &ctx);
}

bool fw_hmac_sha256(const uint8_t *key, size_t keylen, const uint8_t *p, size_t n, uint8_t out[FW_SHA256_LEN])
{
	/* RFC 2104: H((K ^ opad) || H((K ^ ipad) || text)), K padded with zeros to the 64-byte block */
	enum { BLOCK = 64 };
	if (keylen > BLOCK)
		return false;
	uint8_t pad[BLOCK], inner[FW_SHA256_LEN];
	SHA256_CTX ctx;
	memset(pad, 0x36, sizeof(pad));
	for (size_t i = 0; i < keylen; i++)
		pad[i] ^= key[i];
	bool ok = SHA256_Init(&ctx) && SHA256_Update(&ctx, pad, BLOCK) && (!n || SHA256_Update(&ctx, p, n)) &&
		  SHA256_Final(inner, &ctx);
	for (size_t i = 0; i < BLOCK; i++)
		pad[i] ^= 0x36 ^ 0x5c; /* the same key under opad */
	ok = ok && SHA256_Init(&ctx) && SHA256_Update(&ctx, pad, BLOCK) && SHA256_Update(&ctx, inner, sizeof(inner)) &&
	     SHA256_Final(out, &ctx);
	OPENSSL_cleanse(pad, sizeof(pad));
	OPENSSL_cleanse(&ctx, sizeof(ctx));
	return ok;
}

char *fw_hex(const uint8_t *p, size_t n, char *out)
{
	static const char digits[] = "0123456789abcdef";
	for (size_t i = 0; i < n; i++) {
		out[2 * i] = digits[p[i] >> 4];
		out[2 * i + 1] = digits[p[i] & 15];
	}
	out[2 * n] = '\0';
	return out;
}

char *fw_sha256_hex(const uint8_t *p, size_t n, char out[FW_SHA256_HEX_LEN])
{
	uint8_t d[FW_SHA256_LEN];
	fw_sha256(p, n, d);
	return fw_hex(d, sizeof(d), out);
}

uint8_t fw_sum8(const uint8_t *p, size_t n)
{
	uint8_t s = 0;
	for (size_t i = 0; i < n; i++)
		s = (uint8_t)(s + p[i]);
	return s;
}

uint16_t fw_sum16(const uint8_t *p, size_t n)
{
	uint16_t s = 0;
	for (size_t i = 0; i + 1 < n; i += 2)
		s = (uint16_t)(s + (p[i] | (p[i + 1] << 8)));
	return s;
}

uint32_t fw_fletcher32(const uint8_t *p, size_t n)
{
	uint32_t c0 = 0xFFFF, c1 = 0xFFFF;
	size_t words = n / 2;
	while (words) {
		/* 359 words keep the sums below 2^32 before folding. */
		size_t block = words > 359 ? 359 : words;
		words -= block;
		do {
			c0 += (uint32_t)(p[0] | (p[1] << 8));
			c1 += c0;
			p += 2;
		} while (--block);
		c0 = (c0 & 0xFFFF) + (c0 >> 16);
		c1 = (c1 & 0xFFFF) + (c1 >> 16);
	}
	c0 = (c0 & 0xFFFF) + (c0 >> 16);
	c1 = (c1 & 0xFFFF) + (c1 >> 16);
	return (c1 << 16) | c0;
}
