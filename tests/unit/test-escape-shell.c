/* The escaping of the scripts fwlens writes (tools/cli/escape-shell.c): shell literals give back
 * exactly their bytes through /bin/sh, comments stay one line with visible escapes. */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "harness.h"
#include "tools/cli/escape-shell.h"

/* What a writer puts in a FILE, as a string (malloc'd). */
#define CAPTURE(out, call)                                                                                         \
	do {                                                                                                       \
		size_t len_;                                                                                       \
		FILE *f = open_memstream(&(out), &len_);                                                           \
		call;                                                                                              \
		fclose(f);                                                                                         \
	} while (0)

static char *visible(const char *s)
{
	char *out;
	CAPTURE(out, fw_put_visible(f, s));
	return out;
}

TEST(visible_escapes_every_hidden_character)
{
	static const struct {
		const char *in, *want;
	} cases[] = {
		{"plain 'quotes' \"and\" $(touch x) `y` \\", "plain 'quotes' \"and\" $(touch x) `y` \\"},
		{"a\nb\r\tc", "a\\nb\\r\\tc"},
		{"\x1b]0;t\x07\x1b[2J\x7f", "\\x1B]0;t\\x07\\x1B[2J\\x7F"},
		{"\xc2\x9b" "31m \xc2\x85", "\\u009B31m \\u0085"},             /* C1 CSI and NEL */
		{"\xe2\x80\xae" "evil \xe2\x80\xa8", "\\u202Eevil \\u2028"},    /* RLO, line separator */
		{"\xff\xfe", "\\xFF\\xFE"},                                   /* not UTF-8 */
		{"\xc0\xaf", "\\xC0\\xAF"},                                   /* overlong '/' */
		{"\xed\xa0\x80", "\\xED\\xA0\\x80"},                          /* a surrogate */
		{"x\xe2\x80", "x\\xE2\\x80"},                                 /* cut at the end */
		{"\xc3\xa9t\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80", "\xc3\xa9t\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80"},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *got = visible(cases[i].in);
		CHECK_MSG(strcmp(got, cases[i].want) == 0, "case %zu: got \"%s\", want \"%s\"", i, got, cases[i].want);
		free(got);
	}
	char *folded;
	CAPTURE(folded, fw_put_visible_folded(f, "one\r\n\ntwo\x1b"));
	CHECK_STR(folded, "one two\\x1B");
	free(folded);
	char *comment;
	CAPTURE(comment, fw_script_comment(f, "#", "%s -> %s", "Evil\n$(touch PWNED)", "ok"));
	CHECK_STR(comment, "# Evil\\n$(touch PWNED) -> ok\n");
	free(comment);
}

TEST(one_line_says_where_and_what)
{
	size_t at = 99;
	char what[12];
	CHECK(fw_text_one_line("Enable // 'x' \"y\" \xc3\xa9", &at, what));
	CHECK(!fw_text_one_line("Auto\nSetup Question", &at, what));
	CHECK_EQ(at, 4);
	CHECK_STR(what, "\\n");
	CHECK(!fw_text_one_line("ok \xc2\x9b", &at, what));
	CHECK_EQ(at, 3);
	CHECK_STR(what, "\\u009B");
	CHECK(!fw_text_one_line("ab\xff", &at, what));
	CHECK_EQ(at, 2);
	CHECK_STR(what, "\\xFF");
}

/* Each literal, run through /bin/sh's printf, gives back exactly its bytes. */
TEST(sh_quote_gives_back_the_bytes)
{
	static const char *const words[] = {
		"it's", "'", "''", "", "$(touch PWNED)", "`touch PWNED`", "a\nb\n", "\x1b[2J\x07", "\xff\xfe\\", "-rf", "*", "~",
		"\"$HOME\" ${x:-y} \\n %s",
	};
	char path[] = "/tmp/fwlens-quote-XXXXXX";
	int fd = mkstemp(path);
	CHECK(fd >= 0);
	FILE *f = fdopen(fd, "w");
	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++) {
		fputs("printf '%s|' ", f);
		fw_sh_quote(f, words[i]);
		fputc('\n', f);
	}
	fclose(f);
	char *cmd;
	CHECK(asprintf(&cmd, "cd / && /bin/sh %s", path) > 0);
	FILE *p = popen(cmd, "r");
	free(cmd);
	CHECK(p != NULL);
	char got[512];
	size_t n = fread(got, 1, sizeof(got) - 1, p);
	got[n] = '\0';
	int rc = pclose(p);
	unlink(path);
	char want[512] = "";
	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		snprintf(want + strlen(want), sizeof(want) - strlen(want), "%s|", words[i]);
	CHECK_EQ(rc, 0);
	CHECK_MSG(strcmp(got, want) == 0, "got \"%s\"", got);
	CHECK(access("/PWNED", F_OK) != 0);
}
