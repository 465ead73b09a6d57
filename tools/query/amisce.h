/* AMISCE exports (SCEWIN/SCELNX /o: nvram.txt, BIOSSettings.txt): the header comments, HIICrc32,
 * then per question "Setup Question", optional "Map String" (the x-UEFI keyword, newer versions)
 * and "Help String", "Token" (question id, hex), "Offset" and "Width" (hex), "BIOS Default", and
 * either "Options" with "*" before the current option or "Value" (<number> or "string").
 * `//` lines are comments (hand-edited exports comment whole blocks out). Texts (Setup Question,
 * Map String, Help String) are the rest of the line after "= ", their own blanks and any "//"
 * kept; a quoted Value runs to the line's last quote. The varstore is not in
 * the file: a question is found in the forms by offset and width, checked against its prompt. */
#ifndef FW_AMISCE_H
#define FW_AMISCE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "capsule/recognise.h"
#include "parsers/arena.h"
#include "parsers/error.h"
#include "setlist.h"

struct fw_amisce_option {
	uint64_t value;
	const char *text;
	bool current; /* marked with "*" */
};

struct fw_amisce_question {
	size_t line;
	const char *prompt, *keyword, *help;
	bool has_token, has_offset, has_width;
	uint32_t token, offset, width;
	bool has_default;
	uint64_t def;
	const char *def_text;
	struct fw_amisce_option *options;
	uint32_t noptions;
	bool has_value;     /* Value =<n> */
	uint64_t value;
	const char *string; /* Value ="..." */
};

struct fw_amisce {
	struct fw_arena arena;
	const char *origin;
	const char *hii_crc;  /* "4BD96F42", or NULL */
	const char *version;  /* "5.04.1144", or NULL */
	struct fw_amisce_question *q;
	size_t n, cap;
};

#define FW_AMISCE_MAX_BYTES ((size_t)64 << 20)
#define FW_AMISCE_MAX_QUESTIONS 200000u

/* Whether text reads as an export: fw_amisce_probe, the recogniser's probe (capsule/recognise.h). */
bool fw_amisce_parse(const char *text, size_t len, const char *origin, struct fw_amisce *out, struct fw_error *err);
void fw_amisce_free(struct fw_amisce *a);
/* The current value of a question: the "*" option, or Value; false when the file does not say. */
bool fw_amisce_current(const struct fw_amisce_question *q, uint64_t *v);
/* The questions as a settings list (prompt, keyword, offset, width, options, default, current). */
void fw_amisce_to_setlist(const struct fw_amisce *a, struct fw_setlist *out);

#endif
