/* Escaping for the scripts fwlens writes (the efivarfs shell script of `plan`, the AMISCE scripts
 * of `plan` and `settings`). Every string from firmware, a machine or a file name is hostile: in a
 * shell script it appears only inside a single-quoted literal (fw_sh_quote) or inside a comment
 * made one line (fw_script_comment), where a line feed, ESC, BEL, a C1 control, a line separator,
 * a bidirectional override or a byte that is not UTF-8 shows as a visible escape ("\n", "\x1B",
 * "\u009B", "\u202E") and so cannot end the comment, drive a terminal showing the script or hide
 * text from its reader. Backslashes are kept as they are: the visible form is for reading, and
 * each escape stands for a character the text cannot carry. */
#ifndef FW_ESCAPE_SHELL_H
#define FW_ESCAPE_SHELL_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* s as one single-quoted POSIX shell word with exactly its bytes: 'it'\''s'. */
void fw_sh_quote(FILE *f, const char *s);

/* s on one line, every character fw_text_one_line refuses written as a visible escape. */
void fw_put_visible(FILE *f, const char *s);
/* The same with each run of line breaks (CR, LF) written as one space: for help texts, whose
 * line breaks are layout (AMISCE folds them the same way). */
void fw_put_visible_folded(FILE *f, const char *s);

/* fw_put_visible into a new string (malloc'd): untrusted text in a one-line message. */
char *fw_visible_dup(const char *s);

/* The formatted text through fw_put_visible: untrusted strings go in as %s arguments. */
void fw_put_visible_vformat(FILE *f, const char *fmt, va_list ap);
void fw_put_visible_format(FILE *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* One comment line: `lead` ("#", "//"), a space and the formatted text through fw_put_visible
 * (no space for an empty format), and a line feed. */
void fw_script_comment(FILE *f, const char *lead, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* True when s is valid UTF-8 with no control character (C0, DEL, C1), line or paragraph
 * separator or bidirectional control: text a one-line field can carry as it is. Otherwise false,
 * with the byte offset of the first character that is not in *at and its visible form in
 * what[12] ("\n", "\x1B", "\u202E"). */
bool fw_text_one_line(const char *s, size_t *at, char what[12]);

/* The argument handling every change script shares: a dry run unless given --apply. */
#define FW_SCRIPT_APPLY_ARGUMENT                                                                   \
	"apply=0\n"                                                                                \
	"case \"${1:-}\" in\n"                                                                      \
	"--apply) apply=1 ;;\n"                                                                    \
	"'') ;;\n"                                                                                 \
	"*) echo \"usage: $0 [--apply]\" >&2; exit 2 ;;\n"                                         \
	"esac\n"

#endif
