/* A quick look at a JSON text (RFC 8259) without building it: is it, for certain, a document
 * jansson reads, and where do the values of its top-level object's members lie?
 *
 * A snapshot's manifest is mostly the list of its members, which loading a snapshot does not
 * need (only its format, links and device nodes): the skim lets the loader parse those few values
 * and leave the whole document for when a command asks for it. The skim is conservative: it says
 * "certain" only for texts inside a plain subset (ASCII, no \u0000 or surrogate escapes, integers
 * of at most 18 digits, no fractions or exponents, nesting of at most FW_JSON_SKIM_MAX_DEPTH,
 * top-level keys without escapes), which jansson accepts and reads to the same values; for any
 * other text the caller parses the whole document as before.
 */
#ifndef FW_JSON_SKIM_H
#define FW_JSON_SKIM_H

#include <stdbool.h>
#include <stddef.h>

#define FW_JSON_SKIM_MAX_DEPTH 64

/* A member of the top-level object: its key (without quotes) and its value, as spans of the text. */
struct fw_json_span {
	size_t key, key_len;
	size_t value, value_len;
};

/* True when `p[0..n)` is certainly a JSON object jansson reads; then the spans of the last member
 * named each of `keys[0..nkeys)` (a later duplicate replaces an earlier one, as in jansson) are in
 * out[i] (value_len 0: no such member). */
bool fw_json_skim_object(const char *p, size_t n, const char *const *keys, size_t nkeys, struct fw_json_span *out);

#endif
