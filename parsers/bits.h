/* Named bit fields inside one register value (IVinfo, EFR, DTE settings, a table's Flags, a
 * volume's or capsule's attributes): the one way bits are named, in ACPI tables and the firmware
 * tree alike. A layout field points at its bit fields with FW_FF_BITS or FW_FF_FLAGS
 * (parsers/layout.h); the two differ only in how they are written: BITS as "PreFSup HATS=2"
 * (single-bit fields as names, wider ones as numbers), FLAGS as "ERASE_POLARITY|READ_STATUS|0x8000"
 * (a field named when all its bits are set, what no field covers in hex). */
#ifndef FW_BITS_H
#define FW_BITS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct fw_bitfield {
	const char *name;
	uint8_t lsb;
	uint8_t width;
	const char *help; /* short meaning, or NULL */
};

static inline uint64_t fw_bitfield_get(uint64_t value, const struct fw_bitfield *f)
{
	uint64_t mask = f->width >= 64 ? ~(uint64_t)0 : (((uint64_t)1 << f->width) - 1);
	return (value >> f->lsb) & mask;
}

/* The fields of one register. */
struct fw_bitfields {
	const struct fw_bitfield *v;
	size_t n;
};
#define FW_BITFIELDS(arr) {(arr), sizeof(arr) / sizeof((arr)[0])}
/* A field given by its mask (0x400 -> bit 10, one bit wide). */
#define FW_FLAG(name, mask) {name, (uint8_t)__builtin_ctzll(mask), (uint8_t)__builtin_popcountll(mask), NULL}

/* Bits of `value` that no field covers. */
uint64_t fw_bitfields_unnamed(uint64_t value, const struct fw_bitfields *fields);
/* "PreFSup PPRSup HATS=2 PASmax=15" (set flags, non-zero numbers) into buf. */
char *fw_bitfields_str(uint64_t value, const struct fw_bitfields *fields, char *buf, size_t len);
/* The same as separate tokens ("PreFSup", "HATS=2", "reserved=0x200"), for lists; returns the
 * count stored, each token written into its own slot of `slots` (n x width bytes). */
/* "ERASE_POLARITY|READ_STATUS|0x8000" into buf: the fields whose bits are all set, then the
 * bits left over. */
char *fw_flags_str(const struct fw_bitfields *fields, uint64_t value, char *buf, size_t len);
/* Whether every bit of field `f` is set in `value` (a FLAGS name applies). */
static inline bool fw_flag_set(uint64_t value, const struct fw_bitfield *f)
{
	uint64_t mask = f->width >= 64 ? ~(uint64_t)0 : (((uint64_t)1 << f->width) - 1);
	return f->width && (value & (mask << f->lsb)) == mask << f->lsb;
}
size_t fw_bitfields_tokens(uint64_t value, const struct fw_bitfields *fields, char *slots, size_t n, size_t width);

#endif
