/* The escaping of each output language, with exact expected outputs for hostile strings. */
#include "harness.h"
#include "parsers/json-text.h"
#include "parsers/utf8.h"
#include "tools/cli/cli-internal.h"
#include "tools/cli/doctor-metrics.h"
#include "tools/cli/term-escape.h"
#include "tools/query/md-escape.h"

#include <stdio.h>
#include <stdlib.h>

/* Display width: wide CJK and emoji count two columns, combining marks none, invalid bytes one. */
TEST(utf8_display_width)
{
	CHECK_EQ(fw_utf8_width("Boot", 4), 4);
	CHECK_EQ(fw_utf8_width("\xC3\xA9t\xC3\xA9", 5), 3);              /* été */
	CHECK_EQ(fw_utf8_width("\xE5\x90\xAF\xE5\x8A\xA8", 6), 4);       /* 启动 */
	CHECK_EQ(fw_utf8_width("e\xCC\x81", 3), 1);                      /* e + combining acute */
	CHECK_EQ(fw_utf8_width("\xF0\x9F\x94\x92", 4), 2);               /* U+1F512 */
	CHECK_EQ(fw_utf8_width("\xFF\xFE" "a", 3), 3);
	CHECK_EQ(fw_utf8_width("\xEF\xBC\xA1", 3), 2);                   /* fullwidth A */
	CHECK(fw_utf8_valid("\xE2\x86\x92", 3));
	CHECK(!fw_utf8_valid("\xE2\x86", 2));
	CHECK(!fw_utf8_valid("\xED\xA0\x80", 3));                        /* a surrogate */
	CHECK(!fw_utf8_valid("\xF4\x90\x80\x80", 4));                    /* past U+10FFFF */
}

/* Strings that are not UTF-8 enter the document (jansson alone refuses them and the member
 * vanishes) and leave it as U+FFFD with the raw bytes in NAME_hex, right after NAME. */
TEST(json_string_not_utf8_keeps_member)
{
	json_t *doc = json_object();
	CHECK(json_object_set_new(doc, "host", json_string("pve\xFF\x1B]0;x")) == 0);
	json_object_set_new(doc, "kernel", json_string("6.8"));
	json_t *list = json_array();
	json_array_append_new(list, json_string("ok"));
	json_array_append_new(list, json_string("\xC0\xAF"));
	json_object_set_new(doc, "names", list);
	json_object_set_new(doc, "nul", json_stringn("a\0\xFE", 3));
	CHECK(json_string(NULL) == NULL);
	char *text = fw_json_dumps(doc, JSON_COMPACT | JSON_PRESERVE_ORDER);
	CHECK(text != NULL);
	CHECK_STR(text, "{\"host\":\"pve\xEF\xBF\xBD\\u001B]0;x\",\"host_hex\":\"707665ff1b5d303b78\","
			"\"kernel\":\"6.8\",\"names\":[\"ok\",\"\xEF\xBF\xBD\xEF\xBF\xBD\"],"
			"\"names_hex\":[null,\"c0af\"],\"nul\":\"a\\u0000\xEF\xBF\xBD\",\"nul_hex\":\"6100fe\"}");
	/* a second pass finds nothing left to do: the same bytes */
	char *again = fw_json_dumps(doc, JSON_COMPACT | JSON_PRESERVE_ORDER);
	CHECK_STR(again, text);
	free(again);
	free(text);
	json_decref(doc);
}

#define MEM_WRITE(out, call)                                                                                       \
	do {                                                                                                       \
		size_t mem_len_ = 0;                                                                               \
		FILE *f = open_memstream(&(out), &mem_len_);                                                       \
		call;                                                                                              \
		fclose(f);                                                                                         \
	} while (0)

static char *term(const char *s, size_t n, unsigned flags)
{
	char *out = NULL;
	MEM_WRITE(out, fw_term_escape(f, s, n, flags, true));
	return out;
}

/* The terminal: controls, C1 (raw or UTF-8), bidi overrides and invalid bytes shown escaped. */
TEST(term_escape_exact)
{
	static const struct {
		const char *in;
		size_t len;
		unsigned flags;
		const char *want;
	} cases[] = {
		{"plain \xC3\xA9t\xC3\xA9", 11, FW_TERM_KEEP_LF, "plain \xC3\xA9t\xC3\xA9"},
		{"\x1b]0;owned\x07 title", 16, FW_TERM_KEEP_LF, "\\x1b]0;owned\\x07 title"},
		{"a\nb\tc\rd", 7, FW_TERM_KEEP_LF, "a\nb\tc\\x0dd"},
		{"a\nb\tc\rd", 7, FW_TERM_KEEP_LF | FW_TERM_KEEP_CR, "a\nb\tc\rd"},
		{"one\nline\x7f", 9, 0, "one\\x0aline\\x7f"},
		{"\x9b" "31m", 4, FW_TERM_KEEP_LF, "\\x9b31m"},              /* raw 8-bit CSI */
		{"\xC2\x9b" "2J", 4, FW_TERM_KEEP_LF, "\\u009b2J"},          /* U+009B as UTF-8 */
		{"abc\xE2\x80\xAE" "cba", 9, FW_TERM_KEEP_LF, "abc\\u202ecba"}, /* right-to-left override */
		{"\xFF\xC0\xAF\xE2\x86", 5, FW_TERM_KEEP_LF, "\\xff\\xc0\\xaf\\xe2\\x86"},
		{"nul\0x", 5, FW_TERM_KEEP_LF, "nul\\x00x"},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *got = term(cases[i].in, cases[i].len, cases[i].flags);
		CHECK_MSG(strcmp(got, cases[i].want) == 0, "case %zu: \"%s\"", i, got);
		free(got);
	}
	/* a character cut by the end of the input is left for the next call unless final */
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);
	CHECK_EQ(fw_term_escape(f, "ab\xE2\x86", 4, FW_TERM_KEEP_LF, false), 2);
	CHECK_EQ(fw_term_escape(f, "\xE2\x86\x92", 3, FW_TERM_KEEP_LF, false), 3);
	fclose(f);
	CHECK_STR(out, "ab\xE2\x86\x92");
	free(out);
	char *s = fw_term_escape_string("host\n\x1b[2Jname", 0);
	CHECK_STR(s, "host\\x0a\\x1b[2Jname");
	free(s);
}

/* Through the text filter, byte by byte: our colour tokens become escape sequences, a firmware
 * string holding the very same sequence does not. */
TEST(text_filter_colour_tokens)
{
	char *out = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&out, &len);
	struct fw_command cmd = {.name = "t", .formats = "text"};
	struct fw_cli cli = {.cmd = &cmd, .format = "text", .out = mem, .color = true};
	fw_cli_open_text_filter(&cli);
	CHECK(cli.text != NULL);
	char line[256];
	snprintf(line, sizeof(line), "%sSetup%s \x1b[31mfake\x1b[0m \xE2\x86\x92 \x9b\n", fw_cli_color(&cli, "bold"),
		 fw_cli_color(&cli, "reset"));
	for (const char *p = line; *p; p++) {
		fputc(*p, cli.text);
		fflush(cli.text);
	}
	fclose(cli.text);
	fclose(mem);
	CHECK_STR(out, "\x1b[1mSetup\x1b[0m \\x1b[31mfake\\x1b[0m \xE2\x86\x92 \\x9b\n");
	free(out);
}

/* What `call` writes to f equals `want`. */
#define CHECK_WRITES(call, want)                                                                                   \
	do {                                                                                                       \
		char *written_ = NULL;                                                                             \
		MEM_WRITE(written_, call);                                                                         \
		bool same_ = strcmp(written_, want) == 0;                                                          \
		free(written_);                                                                                    \
		CHECK_MSG(same_, "%s writes other bytes than %s", #call, #want);                                   \
	} while (0)

/* Markdown: a cell or heading cannot be broken out of. */
TEST(markdown_escape_exact)
{
	CHECK_WRITES(fw_md_cell(f, "# Forged\n| x | y |\r\n`id` <script>alert(1)</script> <!-- a \\_SB < 4G"),
		     "\\# Forged \\| x \\| y \\|  \\`id\\` \\<script>alert(1)\\</script> \\<!-- a \\\\_SB < 4G");
	CHECK_WRITES(fw_md_cell(f, "a # b"), "a # b");
	const char *cells[] = {"p|q", NULL, "r"};
	CHECK_WRITES(fw_md_row(f, cells, 3), "| p\\|q |  | r |\n");
	CHECK_WRITES(fw_md_code(f, "quiet `x` ``y``\nz"), "```quiet `x` ``y`` z```");
	CHECK_WRITES(fw_md_code(f, "`edge"), "`` `edge ``");
	const char *lines[] = {"[ 1.0] ok", "````\n# not a heading", "x"};
	CHECK_WRITES(fw_md_code_block(f, lines, 3), "`````\n[ 1.0] ok\n````\nx\n`````\n");
	CHECK_WRITES(fw_md_code_block(f, lines, 1), "```\n[ 1.0] ok\n```\n");
}

/* Prometheus and OpenMetrics label values: the three escapes of the format, valid UTF-8 always. */
TEST(metrics_label_value_exact)
{
	CHECK_WRITES(fw_metrics_label_value(f, "pve-01"), "\"pve-01\"");
	CHECK_WRITES(fw_metrics_label_value(f, "a\"b\\c\nd"), "\"a\\\"b\\\\c\\nd\"");
	CHECK_WRITES(fw_metrics_label_value(f, "host\x1b]0;x\x07\xff\xC2\x85"), "\"host\\\\x1b]0;x\\\\x07\\\\xff\\\\u0085\"");
	CHECK_WRITES(fw_metrics_label_value(f, "caf\xC3\xA9"), "\"caf\xC3\xA9\"");
	CHECK_WRITES(fw_metrics_label_value(f, NULL), "\"\"");
}
