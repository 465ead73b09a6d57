/* Text layout helpers shared by the text writers: word wrapping with indents. */
#ifndef FW_OUTPUT_TEXT_H
#define FW_OUTPUT_TEXT_H

#include <stddef.h>
#include <stdio.h>

#include "tools/query/md-escape.h" /* markdown escaping: fw_md_cell, fw_md_row, fw_md_code */

/* Wrap paragraphs (blank-line separated; lines starting with a space are kept verbatim). */
void fw_text_wrap(FILE *f, const char *text, const char *indent, size_t width);
/* Wrap one paragraph with a different indent on the first line ("  - item" lists). */
void fw_text_wrap_hanging(FILE *f, const char *text, const char *first, const char *rest, size_t width);

#endif
