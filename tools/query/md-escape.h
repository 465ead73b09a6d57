/* Markdown: the one escaping of strings written into markdown (notes, diff, doctor, query, find,
 * settings). A string from firmware or a machine must not break out of the table cell, heading or
 * list item it is written in, whatever it holds. */
#ifndef FW_MD_ESCAPE_H
#define FW_MD_ESCAPE_H

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>

/* Inline text (a table cell, a heading, a list item): one line (CR and LF become spaces), '|',
 * '`', '\' and a '<' that would open raw HTML, a comment or an autolink backslash-escaped, and a
 * '#' that would begin the line escaped too. NULL writes nothing. */
void fw_md_cell(FILE *f, const char *s);
/* The same from a format. */
void fw_md_cellf(FILE *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void fw_md_vcellf(FILE *f, const char *fmt, va_list ap) __attribute__((format(printf, 2, 0)));
/* A table row of n cells, each escaped ("| a | b |" and a line feed); a NULL cell is empty. */
void fw_md_row(FILE *f, const char *const *cells, size_t n);
/* An inline code span holding s as it is (one line): fenced with more backticks than any run in s. */
void fw_md_code(FILE *f, const char *s);
/* A fenced code block of n lines (each up to its first line feed): the fence is longer than any
 * run of backticks in them, so no line can close it. */
void fw_md_code_block(FILE *f, const char *const *lines, size_t n);

#endif
