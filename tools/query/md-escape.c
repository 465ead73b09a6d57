#include "md-escape.h"

#include <stdarg.h>
#include <stdbool.h>
#include <string.h>

/* Does '<' begin raw HTML or an autolink here (a tag name, "</", "<!--", "<?")? */
static bool html_start(const char *c)
{
	return (c[1] >= 'a' && c[1] <= 'z') || (c[1] >= 'A' && c[1] <= 'Z') || c[1] == '/' || c[1] == '!' || c[1] == '?';
}

void fw_md_cell(FILE *f, const char *s)
{
	for (const char *c = s ? s : ""; *c; c++) {
		if (*c == '|' || *c == '`' || *c == '\\' || (*c == '<' && html_start(c)) || (*c == '#' && c == s))
			fputc('\\', f);
		fputc(*c == '\r' || *c == '\n' ? ' ' : *c, f);
	}
}

void fw_md_vcellf(FILE *f, const char *fmt, va_list ap)
{
	char buf[1024];
	vsnprintf(buf, sizeof(buf), fmt, ap);
	fw_md_cell(f, buf);
}

void fw_md_cellf(FILE *f, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fw_md_vcellf(f, fmt, ap);
	va_end(ap);
}

void fw_md_row(FILE *f, const char *const *cells, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		fputs(i ? " | " : "| ", f);
		fw_md_cell(f, cells[i]);
	}
	fputs(" |\n", f);
}

/* The longest run of backticks in the first `len` bytes of s. */
static size_t longest_backticks(const char *s, size_t len)
{
	size_t best = 0, run = 0;
	for (size_t i = 0; i < len; i++) {
		run = s[i] == '`' ? run + 1 : 0;
		if (run > best)
			best = run;
	}
	return best;
}

static void fence(FILE *f, size_t n)
{
	for (size_t i = 0; i < n; i++)
		fputc('`', f);
}

void fw_md_code(FILE *f, const char *s)
{
	s = s ? s : "";
	size_t len = strlen(s), n = longest_backticks(s, len) + 1;
	/* a space on each side when s begins or ends with a backtick (markdown strips one of each) */
	bool pad = len && (s[0] == '`' || s[len - 1] == '`');
	fence(f, n);
	if (pad)
		fputc(' ', f);
	for (size_t i = 0; i < len; i++)
		fputc(s[i] == '\r' || s[i] == '\n' ? ' ' : s[i], f);
	if (pad)
		fputc(' ', f);
	fence(f, n);
}

void fw_md_code_block(FILE *f, const char *const *lines, size_t n)
{
	size_t longest = 0;
	for (size_t i = 0; i < n; i++) {
		size_t run = longest_backticks(lines[i], strcspn(lines[i], "\n"));
		if (run > longest)
			longest = run;
	}
	size_t width = longest >= 3 ? longest + 1 : 3;
	fence(f, width);
	fputc('\n', f);
	for (size_t i = 0; i < n; i++)
		fprintf(f, "%.*s\n", (int)strcspn(lines[i], "\n"), lines[i]);
	fence(f, width);
	fputc('\n', f);
}
