/* UTF-8 as untrusted bytes: decoding one sequence, validity, cleaning and display width. Every
 * output language escapes from these (JSON, XML, markdown, metrics, the terminal), so they all
 * agree on what is UTF-8: overlong forms, surrogates and code points past U+10FFFF are not. */
#ifndef FW_UTF8_H
#define FW_UTF8_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Length of the valid UTF-8 sequence at s, reading at most `room` bytes (0 when invalid or cut
 * short); *cp gets the code point. */
size_t fw_utf8_seq(const unsigned char *s, size_t room, uint32_t *cp);
/* Are the n bytes at s valid UTF-8? */
bool fw_utf8_valid(const char *s, size_t n);
/* Valid UTF-8 copy of s (malloc'd): invalid sequences become U+FFFD; with `xml`, so do the
 * control characters XML 1.0 forbids. */
char *fw_utf8_clean(const char *s, bool xml);
/* `s` itself when it needs no cleaning, else a cleaned copy that *to_free owns (free it either way). */
const char *fw_utf8_clean_view(const char *s, bool xml, char **to_free);
/* Is the code point a control character (C0, DEL or C1)? */
bool fw_codepoint_is_control(uint32_t cp);
/* Columns a code point takes on a terminal: 0 (combining marks, zero-width characters), 2 (East
 * Asian wide and fullwidth forms, emoji) or 1; the same for every locale. */
int fw_codepoint_width(uint32_t cp);
/* Columns the n bytes at s take: each invalid byte and each control counts one column (the
 * writers show them escaped or replaced, never raw). */
size_t fw_utf8_width(const char *s, size_t n);

#endif
