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
	bool current;   /* marked with "*" */
	uint8_t digits; /* hex digits the value was written with ("[02]": 2) */
};

/* The layout of the file, so that it can be written back byte for byte: each line of a question
 * (and of the header before the first one) in file order, as the field it spells. A line the
 * fields spell differently (a blank where AMISCE writes none, Latin-1 text, a Value in another
 * form, a comment, a commented-out block) keeps its own bytes in `raw`; raw holds no line end. */
enum fw_amisce_line_kind {
	FW_AMISCE_L_BLANK, FW_AMISCE_L_COMMENT, FW_AMISCE_L_HIICRC, FW_AMISCE_L_QUESTION, FW_AMISCE_L_MAP,
	FW_AMISCE_L_HELP, FW_AMISCE_L_TOKEN, FW_AMISCE_L_OFFSET, FW_AMISCE_L_WIDTH, FW_AMISCE_L_DEFAULT,
	FW_AMISCE_L_OPTION, FW_AMISCE_L_VALUE, FW_AMISCE_L_OTHER
};
struct fw_amisce_line {
	uint8_t kind;      /* enum fw_amisce_line_kind */
	uint32_t option;   /* FW_AMISCE_L_OPTION: which option */
	const char *raw;   /* the line's bytes when the fields do not spell it, else NULL */
};

struct fw_amisce_question {
	size_t line;
	const char *prompt, *keyword, *help;
	bool has_token, has_offset, has_width;
	uint32_t token, offset, width;
	bool has_default;
	char def_form;      /* how BIOS Default is written: '[' option, '<' decimal, 'h' bare hex */
	uint8_t def_digits; /* '[': hex digits */
	uint64_t def;
	const char *def_text;
	struct fw_amisce_option *options;
	uint32_t noptions;
	bool has_value;     /* Value =<n> (decimal) or Value =N (bare hex, as AMISCE writes checkboxes) */
	char value_form;    /* '<' or 'h' */
	uint64_t value;
	const char *string; /* Value ="..." */
	struct fw_amisce_line *lines; /* this question's lines up to the next one */
	uint32_t nlines;
};

struct fw_amisce {
	struct fw_arena arena;
	const char *origin;
	const char *hii_crc;  /* "4BD96F42", or NULL */
	const char *version;  /* "5.04.1144", or NULL */
	struct fw_amisce_question *q;
	size_t n, cap;
	const char *eol;      /* "\r\n" or "\n": the line end most lines have */
	bool last_eol;        /* the last line has one */
	struct fw_amisce_line *head; /* lines before the first question */
	uint32_t nhead;
	size_t raw_lines;     /* lines kept as their own bytes (fw_amisce_line.raw) */
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

/* One line as the fields spell it (its raw bytes when kept), without the line end, appended to
 * *buf (grown with fw_xrealloc; *len its length). `mark`: for option lines, the value to carry
 * the "*" (NULL: as read); for the Value line, the number to write. */
void fw_amisce_line_text(const struct fw_amisce *a, const struct fw_amisce_question *q, const struct fw_amisce_line *l, const uint64_t *mark,
			 char **buf, size_t *len, size_t *cap);
/* The question whose SETTING is its Map String keyword, else its prompt (blanks around it and
 * case ignored), else "0xTOKEN": NULL when none or several match (*nmatch says how many). */
const struct fw_amisce_question *fw_amisce_find(const struct fw_amisce *a, const char *setting, size_t *nmatch,
						 const struct fw_amisce_question **matches, size_t max);

/* A value for a question: an option's text or value, or a number that fits its width (FW_E_USAGE
 * naming the options or the range otherwise; strings are not planned). */
bool fw_amisce_parse_value(const struct fw_amisce_question *q, const char *text, uint64_t *out, struct fw_error *err);

#endif
