#include "output-text.h"

#include <stdbool.h>
#include <string.h>

void fw_text_wrap_hanging(FILE *f, const char *text, const char *first, const char *rest, size_t width)
{
	size_t col = 0;
	const char *indent = first;
	const char *w = text;
	bool line_open = false;
	while (*w) {
		while (*w == ' ' || *w == '\n')
			w++;
		const char *we = w;
		while (*we && *we != ' ' && *we != '\n')
			we++;
		size_t wl = (size_t)(we - w);
		if (!wl)
			break;
		if (!line_open) {
			fputs(indent, f);
			col = strlen(indent);
			line_open = true;
			fprintf(f, "%.*s", (int)wl, w);
			col += wl;
		} else if (col + 1 + wl > width) {
			fputc('\n', f);
			indent = rest;
			fputs(indent, f);
			col = strlen(indent);
			fprintf(f, "%.*s", (int)wl, w);
			col += wl;
		} else {
			fprintf(f, " %.*s", (int)wl, w);
			col += wl + 1;
		}
		w = we;
	}
	if (line_open)
		fputc('\n', f);
}

void fw_text_wrap(FILE *f, const char *text, const char *indent, size_t width)
{
	const char *p = text;
	while (*p) {
		const char *eol = strchr(p, '\n');
		size_t len = eol ? (size_t)(eol - p) : strlen(p);
		if (len == 0) {
			fputc('\n', f);
		} else if (p[0] == ' ') {
			fprintf(f, "%s%.*s\n", indent, (int)len, p);
		} else {
			char buf[8192];
			snprintf(buf, sizeof(buf), "%.*s", (int)(len < sizeof(buf) - 1 ? len : sizeof(buf) - 1), p);
			fw_text_wrap_hanging(f, buf, indent, indent, width);
		}
		p = eol ? eol + 1 : p + len;
	}
}
