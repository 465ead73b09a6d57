#include "hash.h"

#include <openssl/evp.h>
#include <stdio.h>
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

void fw_sha256(const uint8_t *p, size_t n, uint8_t out[FW_SHA256_LEN])
{
	unsigned int len = 0;
	EVP_Digest(p, n, out, &len, EVP_sha256(), NULL);
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
