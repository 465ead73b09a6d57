/* Named bit fields inside one register value (IVinfo, EFR, DTE settings, a table's Flags), so
 * every writer prints the same names from one declaration: ACPI tables and the firmware tree
 * name bits this way (a layout field points at its bit fields with FW_FF_BITS, parsers/layout.h).
 * Single-bit fields print as flags, wider ones as numbers. */
#ifndef FW_BITS_H
#define FW_BITS_H

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

/* Bits of `value` that no field covers. */
uint64_t fw_bitfields_unnamed(uint64_t value, const struct fw_bitfields *fields);
/* "PreFSup PPRSup HATS=2 PASmax=15" (set flags, non-zero numbers) into buf. */
char *fw_bitfields_str(uint64_t value, const struct fw_bitfields *fields, char *buf, size_t len);
/* The same as separate tokens ("PreFSup", "HATS=2", "reserved=0x200"), for lists; returns the
 * count stored, each token written into its own slot of `slots` (n x width bytes). */
size_t fw_bitfields_tokens(uint64_t value, const struct fw_bitfields *fields, char *slots, size_t n, size_t width);

#endif
