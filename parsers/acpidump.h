/* acpidump text: the hex-dump exchange format acpidump prints and acpixtract reads
 * (reference/acpi.md 2).
 *
 *   IVRS @ 0x0000000000000000
 *       0000: 49 56 52 53 A4 01 00 00 02 1F 41 4D 44 20 20 00  IVRS......AMD  .
 *
 * A header line (no leading blank, "SIG @ 0xADDR"; "RSD PTR @" and "RSD  @" name the RSDP)
 * opens a table; data lines (leading blank, hex offset of any width, ": ", up to 16 hex bytes,
 * the ASCII column) follow; a blank line or the next header ends it. Unlike acpixtract, the
 * offsets are checked: a line whose offset does not continue the table is an error, so a
 * damaged or re-wrapped dump is refused instead of silently corrupted. Text before the first
 * header (mail headers, notes) is ignored.
 */
#ifndef FW_ACPIDUMP_H
#define FW_ACPIDUMP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "parsers/error.h"

/* One table found in the text: its header-line signature ("RSDP" for the root pointer), the
 * address printed on the header line, its bytes (valid during the call) and the line number of
 * its header. Return false (with err set) to stop. */
typedef bool (*fw_acpidump_table_fn)(void *ctx, const char sig[5], uint64_t address, const uint8_t *bytes, size_t n,
				     unsigned line, struct fw_error *err);

/* Does this look like acpidump text (a header line followed by a "0000:" data line near the
 * start, and no NUL bytes)? */
bool fw_acpidump_detect(const uint8_t *p, size_t n);

/* Parse the whole text, calling `fn` once per table in order. Fails with the line number on
 * malformed data lines, and when no table is found. */
bool fw_acpidump_parse(const char *text, size_t len, fw_acpidump_table_fn fn, void *ctx, struct fw_error *err);

#endif
