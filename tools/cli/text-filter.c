/* The text filter in front of text-format output: control characters from firmware strings
 * become '?', only fwlens's own colour codes pass. */
#include "cli-internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Output of text formats passes through this filter (see fw_cli_out). */

/* The escape sequences fw_cli_color and the help printer emit: the only ones let through. */
static const char *const own_sgr[] = {"\033[0m", "\033[1m", "\033[2m", "\033[31m", "\033[32m",
				      "\033[33m", "\033[34m", "\033[36m"};

struct text_filter {
	FILE *to;
	bool color;
	bool keep_cr; /* formats that reproduce another tool's bytes (ifrextractor, sce) keep CR */
	unsigned char pend[8]; /* an escape sequence (or a UTF-8 lead byte 0xC2) not yet decided */
	size_t npend;
};

static void filter_put(struct text_filter *t, unsigned char c);

/* The pending bytes were not ours: the lead byte becomes '?' (ESC) or stays (0xC2), the rest is
 * text again. */
static void filter_release(struct text_filter *t)
{
	unsigned char p[sizeof(t->pend)];
	size_t n = t->npend;
	memcpy(p, t->pend, n);
	t->npend = 0;
	putc(p[0] == 0x1B ? '?' : p[0], t->to);
	for (size_t k = 1; k < n; k++)
		filter_put(t, p[k]);
}

static void filter_put(struct text_filter *t, unsigned char c)
{
	if (t->npend) {
		t->pend[t->npend++] = c;
		if (t->pend[0] == 0xC2) {
			if (c >= 0x80 && c <= 0x9F) { /* a C1 control (U+0080..U+009F, CSI among them) */
				putc('?', t->to);
				t->npend = 0;
			} else {
				filter_release(t);
			}
			return;
		}
		bool prefix = false;
		for (size_t i = 0; i < sizeof(own_sgr) / sizeof(own_sgr[0]); i++) {
			size_t len = strlen(own_sgr[i]);
			if (t->npend <= len && memcmp(own_sgr[i], t->pend, t->npend) == 0) {
				if (t->npend == len) {
					fwrite(t->pend, 1, t->npend, t->to);
					t->npend = 0;
					return;
				}
				prefix = true;
			}
		}
		if (!prefix || t->npend == sizeof(t->pend))
			filter_release(t);
		return;
	}
	if (c == 0x1B && t->color) {
		t->pend[t->npend++] = c;
		return;
	}
	if (c == 0xC2) {
		t->pend[t->npend++] = c;
		return;
	}
	if ((c < 0x20 && c != '\n' && c != '\t' && !(c == '\r' && t->keep_cr)) || c == 0x7F)
		c = '?';
	putc(c, t->to);
}

static ssize_t filter_write(void *cookie, const char *buf, size_t size)
{
	struct text_filter *t = cookie;
	size_t run = 0; /* bytes that need no look pass in runs */
	for (size_t i = 0; i < size; i++) {
		unsigned char c = (unsigned char)buf[i];
		bool plain = !t->npend && ((c >= 0x20 && c != 0x7F && c != 0xC2) || c == '\n' || c == '\t');
		if (plain) {
			run++;
			continue;
		}
		if (run)
			fwrite(buf + i - run, 1, run, t->to);
		run = 0;
		filter_put(t, c);
	}
	if (run)
		fwrite(buf + size - run, 1, run, t->to);
	return (ssize_t)size;
}

static int filter_close(void *cookie)
{
	struct text_filter *t = cookie;
	if (t->npend)
		filter_release(t);
	free(t);
	return 0;
}

void fw_cli_open_text_filter(struct fw_cli *cli)
{
	struct text_filter *t = fw_xcalloc(1, sizeof(*t));
	t->to = cli->out ? cli->out : stdout;
	t->color = cli->color;
	t->keep_cr = strcmp(cli->format, "text") != 0 && strcmp(cli->format, "markdown") != 0;
	cookie_io_functions_t io = {.write = filter_write, .close = filter_close};
	cli->text = fopencookie(t, "w", io);
	if (!cli->text) {
		free(t);
		return;
	}
	/* a terminal sees each line as it is written, as stdout would show it */
	setvbuf(cli->text, NULL, isatty(fileno(t->to)) ? _IOLBF : _IOFBF, 0);
}

bool fw_cli_text_format(const struct fw_cli *cli)
{
	return cli->cmd->formats && cli->format && strcmp(cli->format, "json") != 0 && strcmp(cli->format, "jsonl") != 0 &&
	       strcmp(cli->format, "xml") != 0;
}
