/* Text for a terminal: the one escaping of strings that reach one (text output through the text
 * filter, diagnostics on stderr). Firmware, snapshot and file-name strings may carry escape
 * sequences, BEL, C1 controls (U+0080..U+009F, and the raw bytes 0x80..0x9F 8-bit terminals read
 * as CSI), bidirectional overrides and bytes that are not UTF-8; each is shown as a visible escape
 * instead: "\x1b" for a byte (controls, DEL, bytes of invalid UTF-8), "\u009b" for a code point
 * (C1 controls, U+2028/U+2029, the bidi embedding, override and isolate controls). Valid UTF-8
 * otherwise passes as it is. */
#ifndef FW_TERM_ESCAPE_H
#define FW_TERM_ESCAPE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#define FW_TERM_KEEP_LF 0x1 /* line feed and tab pass (text output); without: escaped (one line) */
#define FW_TERM_KEEP_CR 0x2 /* carriage return passes (formats that copy another tool's bytes) */

/* Write the terminal-safe form of the n bytes at s to f. Returns the bytes consumed: all of them
 * when `final`, else it stops before a UTF-8 sequence cut short at the end (the caller passes it
 * again with the bytes that follow). */
size_t fw_term_escape(FILE *f, const char *s, size_t n, unsigned flags, bool final);
/* The same for a whole string into a malloc'd one. */
char *fw_term_escape_string(const char *s, unsigned flags);

#endif
