/* Checksums and digests: CRC32 from zlib, SHA-256 from libcrypto, and the small sums the
 * firmware formats define (8-bit, 16-bit word sums, AMD's Fletcher-32). */
#ifndef FW_HASH_H
#define FW_HASH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define FW_SHA256_LEN 32
#define FW_SHA256_HEX_LEN 65

uint32_t fw_crc32(const uint8_t *p, size_t n);
uint32_t fw_crc32_update(uint32_t crc, const uint8_t *p, size_t n);
void fw_sha256(const uint8_t *p, size_t n, uint8_t out[FW_SHA256_LEN]);
/* HMAC-SHA256 (RFC 2104) of p[0..n) with a key of at most 64 bytes; false when the key is longer
 * or libcrypto fails. */
bool fw_hmac_sha256(const uint8_t *key, size_t keylen, const uint8_t *p, size_t n, uint8_t out[FW_SHA256_LEN]);
/* Lower-case hex of the SHA-256 of p[0..n). */
char *fw_sha256_hex(const uint8_t *p, size_t n, char out[FW_SHA256_HEX_LEN]);
char *fw_hex(const uint8_t *p, size_t n, char *out /* 2n+1 */);

/* 8-bit sum of the bytes (a valid checksummed block sums to 0). */
uint8_t fw_sum8(const uint8_t *p, size_t n);
/* 16-bit sum of little-endian words; n must be even (odd tail byte is ignored). */
uint16_t fw_sum16(const uint8_t *p, size_t n);
/* AMD PSP/BIOS directory checksum: Fletcher-32 over little-endian u16 words. */
uint32_t fw_fletcher32(const uint8_t *p, size_t n);

#endif
