/* The text filter in front of text-format output: strings from firmware and machines reach the
 * terminal escaped (term-escape.h); only fwlens's own colour codes pass as escape sequences. */
#include "cli-internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#include "term-escape.h"

/* Output of text formats passes through this filter (see fw_cli_out).
 *
 * With colour on, fw_cli_color hands the writers a token instead of the escape sequence: ESC, a
 * nonce drawn when the filter opens and the colour's index. The filter turns tokens into the
 * sequences and escapes every other ESC, so a firmware string holding "\033[31m" cannot pass for
 * ours: it would have to guess the nonce. */

static const struct {
	const char *name, *sgr;
} colors[] = {
	{"bold", "\033[1m"},    {"dim", "\033[2m"},   {"red", "\033[31m"},  {"green", "\033[32m"},
	{"yellow", "\033[33m"}, {"blue", "\033[34m"}, {"cyan", "\033[36m"}, {"reset", "\033[0m"},
};
#define NCOLORS (sizeof(colors) / sizeof(colors[0]))
#define NONCE_LEN 12
#define TOKEN_LEN (1 + NONCE_LEN + 1)

static char tokens[NCOLORS][TOKEN_LEN + 1];

struct text_filter {
	FILE *to;
	bool color;
	unsigned flags;
	char pend[TOKEN_LEN]; /* a colour token or a UTF-8 sequence cut by the end of a write */
	size_t npend;
};

/* Length of the token at s (n bytes) when it is one, 0 when it is not, -1 when s is a token's
 * beginning cut short. *which gets its colour. */
static int token_at(const char *s, size_t n, size_t *which)
{
	for (size_t i = 0; i < NCOLORS; i++) {
		size_t m = n < TOKEN_LEN ? n : TOKEN_LEN;
		if (memcmp(s, tokens[i], m) != 0)
			continue;
		if (m < TOKEN_LEN)
			return -1;
		*which = i;
		return TOKEN_LEN;
	}
	return 0;
}

/* Filter n bytes; returns how many were consumed (the rest is an unfinished token or character). */
static size_t filter_run(struct text_filter *t, const char *b, size_t n, bool final)
{
	size_t i = 0;
	while (i < n) {
		if (b[i] == 0x1B && t->color) {
			size_t which = 0;
			int m = token_at(b + i, n - i, &which);
			if (m < 0 && !final)
				return i;
			if (m > 0) {
				fputs(colors[which].sgr, t->to);
				i += (size_t)m;
				continue;
			}
			fputs("\\x1b", t->to);
			i++;
			continue;
		}
		const char *esc = t->color ? memchr(b + i, 0x1B, n - i) : NULL;
		size_t end = esc ? (size_t)(esc - b) : n;
		size_t used = fw_term_escape(t->to, b + i, end - i, t->flags, final || esc);
		i += used;
		if (i < end)
			return i;
	}
	return n;
}

static void keep_rest(struct text_filter *t, const char *b, size_t n, size_t used)
{
	t->npend = n - used; /* at most a token or a character: filter_run stops only at one */
	memmove(t->pend, b + used, t->npend);
}

static ssize_t filter_write(void *cookie, const char *buf, size_t size)
{
	struct text_filter *t = cookie;
	if (!t->npend) {
		keep_rest(t, buf, size, filter_run(t, buf, size, false));
		return (ssize_t)size;
	}
	/* a token or character cut by the previous write: join it with what follows */
	char *joined = fw_xmalloc(t->npend + size);
	memcpy(joined, t->pend, t->npend);
	memcpy(joined + t->npend, buf, size);
	size_t n = t->npend + size;
	keep_rest(t, joined, n, filter_run(t, joined, n, false));
	free(joined);
	return (ssize_t)size;
}

static int filter_close(void *cookie)
{
	struct text_filter *t = cookie;
	if (t->npend)
		filter_run(t, t->pend, t->npend, true);
	free(t);
	return 0;
}

/* A fresh nonce for the colour tokens, of letters (never ESC, never a byte the writers treat). */
static void draw_tokens(void)
{
	unsigned char r[NONCE_LEN];
	if (getrandom(r, sizeof(r), GRND_NONBLOCK) != (ssize_t)sizeof(r)) {
		unsigned long x = (unsigned long)time(NULL) ^ ((unsigned long)getpid() << 16) ^ (unsigned long)(uintptr_t)&r;
		for (size_t i = 0; i < sizeof(r); i++, x = x * 6364136223846793005UL + 1442695040888963407UL)
			r[i] = (unsigned char)(x >> 33);
	}
	for (size_t c = 0; c < NCOLORS; c++) {
		tokens[c][0] = 0x1B;
		for (size_t i = 0; i < NONCE_LEN; i++)
			tokens[c][1 + i] = (char)('a' + r[i] % 26);
		tokens[c][1 + NONCE_LEN] = (char)('A' + c);
		tokens[c][TOKEN_LEN] = '\0';
	}
}

void fw_cli_open_text_filter(struct fw_cli *cli)
{
	struct text_filter *t = fw_xcalloc(1, sizeof(*t));
	t->to = cli->out ? cli->out : stdout;
	t->color = cli->color;
	/* formats that reproduce another tool's bytes (ifrextractor, sce) keep CR */
	t->flags = FW_TERM_KEEP_LF;
	if (strcmp(cli->format, "text") != 0 && strcmp(cli->format, "markdown") != 0)
		t->flags |= FW_TERM_KEEP_CR;
	if (t->color)
		draw_tokens();
	cookie_io_functions_t io = {.write = filter_write, .close = filter_close};
	cli->text = fopencookie(t, "w", io);
	if (!cli->text) {
		free(t);
		return;
	}
	/* a terminal sees each line as it is written, as stdout would show it */
	setvbuf(cli->text, NULL, isatty(fileno(t->to)) ? _IOLBF : _IOFBF, 0);
}

const char *fw_cli_color(const struct fw_cli *cli, const char *what)
{
	if (!cli || !cli->color)
		return "";
	for (size_t i = 0; i < NCOLORS; i++)
		if (strcmp(colors[i].name, what) == 0)
			return cli->text ? tokens[i] : colors[i].sgr;
	return "";
}

bool fw_cli_text_format(const struct fw_cli *cli)
{
	return cli->cmd->formats && cli->format && strcmp(cli->format, "json") != 0 && strcmp(cli->format, "jsonl") != 0 &&
	       strcmp(cli->format, "xml") != 0;
}
