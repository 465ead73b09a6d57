/* UCS-2 (UEFI CHAR16) text to UTF-8. Firmware strings are UCS-2 without surrogates; EDK2's
 * control characters (NARROW 0xFFF0, WIDE 0xFFF1, NON_BREAKING 0xFFF2) are dropped. */
#ifndef FW_UCS2_H
#define FW_UCS2_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Length in CHAR16 units up to (not including) the NUL, scanning at most max_units;
 * *terminated tells whether a NUL was found. */
size_t fw_ucs2_len(const uint8_t *p, size_t max_units, bool *terminated);
/* Convert `units` CHAR16 to a malloc'd UTF-8 string (never NULL). */
char *fw_ucs2_to_utf8(const uint8_t *p, size_t units);
/* Same, into a caller buffer; truncates at a character boundary. Returns out. */
char *fw_ucs2_to_utf8_buf(const uint8_t *p, size_t units, char *out, size_t outlen);
/* CHAR8 text (an IFR varstore name, an NVAR ASCII name) as the CHAR16 firmware makes of it, each
 * byte widened (so 0xFF is U+00FF, as the variable's name holds it and efivarfs shows it), into
 * a caller buffer of at least 2 * n + 1 bytes; stops at a NUL. Returns out. */
char *fw_char8_to_utf8_buf(const uint8_t *p, size_t n, char *out, size_t outlen);
/* UTF-8 to UCS-2LE with a terminating NUL; *units_out counts the NUL. Malloc'd. For encoders. */
uint8_t *fw_utf8_to_ucs2(const char *s, size_t *units_out);
/* Append one code point as UTF-8; returns bytes written (0 if no room). */
size_t fw_utf8_put(uint32_t cp, char *out, size_t room);

#endif
