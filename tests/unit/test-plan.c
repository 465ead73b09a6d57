/* AMISCE exports and plans on the sample image: parsing (layout, comments, code page, errors),
 * resolution of SETTING, values, and dependencies through the CBS conditions. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "harness.h"
#include "tools/query/amisce.h"
#include "tools/query/plan.h"
#include "tools/query/say-once.h"

static const char export_text[] =
	"// Script File Name : nvram.txt\r\n"
	"HIICrc32= 59B5A216\r\n\r\n"
	"Setup Question\t= Intel SpeedStep\xae\r\n"
	"Map String\t= PCIS007\r\n"
	"Token\t=2A0C\t// Do NOT change this line\r\n"
	"Offset\t=4F8\r\n"
	"Width\t=01\r\n"
	"BIOS Default\t=[01]Auto \r\n"
	"Options\t=[01]Auto\t// Move \"*\" to the desired Option\r\n"
	"         *[00]Disabled\r\n\r\n"
	"// Setup Question\t= Gone\r\n"
	"Setup Question\t=   BCLK Frequency\r\n"
	"Token\t=2B95\t// Do NOT change this line\r\n"
	"Offset\t=377\r\n"
	"Width\t=28\r\n"
	"Value\t=\"48\"\r\n\r\n"
	"Setup Question\t= Limit\r\nToken\t=3\r\nOffset\t=10\r\nWidth\t=02\r\nBIOS Default\t=<1> \r\nValue\t=<100>\r\n";

TEST(amisce_parse_export)
{
	struct fw_amisce a;
	struct fw_error err;
	fw_error_clear(&err);
	CHECK_MSG(fw_amisce_parse(export_text, sizeof(export_text) - 1, "t", &a, &err), "%s", err.msg);
	CHECK_STR(a.hii_crc, "59B5A216");
	CHECK_EQ(a.n, 3);
	CHECK_STR(a.q[0].prompt, "Intel SpeedStep\xc2\xae"); /* Latin-1 read as such */
	CHECK_STR(a.q[0].keyword, "PCIS007");
	CHECK_EQ(a.q[0].token, 0x2A0C);
	CHECK_EQ(a.q[0].offset, 0x4F8);
	CHECK_EQ(a.q[0].width, 1);
	CHECK_EQ(a.q[0].noptions, 2);
	CHECK_EQ(a.q[0].def, 1);
	uint64_t v = 99;
	CHECK(fw_amisce_current(&a.q[0], &v));
	CHECK_EQ(v, 0);
	CHECK_STR(a.q[1].prompt, "  BCLK Frequency"); /* the blanks after "= " are the prompt's own */
	CHECK_STR(a.q[1].string, "48");
	CHECK_EQ(a.q[1].width, 0x28);
	CHECK(fw_amisce_current(&a.q[2], &v));
	CHECK_EQ(v, 100);
	fw_amisce_free(&a);
}

TEST(amisce_parse_errors)
{
	static const char *const bad[] = {
		"HIICrc32= 1\nToken =5\n",                            /* a key before any question */
		"Setup Question = X\nOffset =4G\n",                   /* not hex */
		"Setup Question = X\nWidth =0\n",                     /* zero width */
		"Setup Question = X\nOptions =*[0Z]A\n",               /* option value not hex */
		"Setup Question = X\nValue =<abc>\n",                 /* not a number */
		"HIICrc32= 1\n",                                      /* no question at all */
		"Setup Question = X\nnot a pair\n",                   /* no '=' */
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct fw_amisce a;
		struct fw_error err;
		fw_error_clear(&err);
		bool ok = fw_amisce_parse(bad[i], strlen(bad[i]), "t", &a, &err);
		fw_amisce_free(&a);
		CHECK_MSG(!ok && err.code == FW_E_INVALID, "case %zu parsed (%s)", i, err.msg);
		CHECK_MSG(strstr(err.msg, "t: ") == err.msg, "case %zu: %s", i, err.msg);
	}
}

/* A plan over the sample image with its own NVRAM store: SMEE Enable, SEV Control Enable, ASID limit 1. */
static bool open_sample(struct fw_source *src, struct fw_plan *p, struct fw_error *err)
{
	const char *cap = fw_test_build("samples/ESC8000A-E13-ASUS-1104.CAP");
	if (!cap) {
		fw_test_skip("samples not built");
		return false;
	}
	fw_error_clear(err);
	if (!fw_source_open(cap, NULL, src, err)) {
		fw_test_fail(__FILE__, __LINE__, "%s", err->msg);
		return false;
	}
	if (fw_plan_init(p, src, err))
		return true;
	fw_source_close(src);
	fw_test_fail(__FILE__, __LINE__, "%s", err->msg);
	return false;
}

TEST(plan_resolution_and_values)
{
	struct fw_source src;
	struct fw_plan p;
	struct fw_error err;
	if (!open_sample(&src, &p, &err))
		return;
	const struct fw_setting *a = fw_plan_lookup(&p, "  smee ", NULL, &err);
	const struct fw_setting *b = fw_plan_lookup(&p, "CbsCmnCpuSmeeBRH", NULL, &err);
	const struct fw_setting *c = fw_plan_lookup(&p, "AmdSetupBRH+0x33", NULL, &err);
	CHECK(a && a == b && a == c);
	CHECK(!fw_plan_lookup(&p, "SMEE", "Setup", &err)); /* not in that module */
	CHECK(!fw_plan_lookup(&p, "AmdSetupBRH+0x3E", NULL, &err));
	CHECK_EQ(p.ncandidates, 8);
	uint64_t v;
	CHECK(fw_plan_parse_value(a, "enable", &v, &err) && v == 1);
	CHECK(fw_plan_parse_value(a, "3", &v, &err) && v == 3);
	CHECK(!fw_plan_parse_value(a, "2", &v, &err) && err.code == FW_E_USAGE);
	const struct fw_setting *asid = fw_plan_lookup(&p, "SEV-ES ASID Space Limit", NULL, &err);
	CHECK(asid);
	CHECK(fw_plan_parse_value(asid, "1007", &v, &err) && v == 1007);
	CHECK(!fw_plan_parse_value(asid, "0", &v, &err));
	CHECK(!fw_plan_parse_value(asid, "-5", &v, &err));
	CHECK(!fw_plan_parse_value(asid, "0x100000000", &v, &err));
	fw_plan_free(&p);
	fw_source_close(&src);
}

TEST(plan_dependencies_through_conditions)
{
	struct fw_source src;
	struct fw_plan p;
	struct fw_error err;
	if (!open_sample(&src, &p, &err))
		return;
	/* SMEE Disable hides the limit: planned together, a contradiction */
	CHECK(fw_plan_add(&p, "SEV-ES ASID Space Limit", "100", NULL, "t", NULL, &err));
	CHECK(fw_plan_add(&p, "SMEE", "Disable", NULL, "t", NULL, &err));
	CHECK(!fw_plan_resolve(&p, &err));
	CHECK_MSG(strstr(err.msg, "contradiction") != NULL, "%s", err.msg);
	fw_plan_free(&p);
	/* Amount of Memory to Cover is hidden unless the coverage is Custom: the coverage comes first */
	CHECK(fw_plan_init(&p, &src, &err));
	CHECK(fw_plan_add(&p, "Amount of Memory to Cover", "0x20", NULL, "t", NULL, &err));
	CHECK_MSG(fw_plan_resolve(&p, &err), "%s", err.msg);
	CHECK_EQ(p.n, 2);
	CHECK_STR(p.entries[0].st->prompt, "SNP Memory (RMP Table) Coverage");
	CHECK_EQ(p.entries[0].value, 2);
	CHECK(p.entries[0].dependency);
	CHECK_STR(p.entries[0].unlocks, "Amount of Memory to Cover");
	CHECK_EQ(p.entries[1].raw_len, 4);
	CHECK_EQ(p.entries[1].new_raw[0], 0x20);
	CHECK(p.entries[1].has_raw && p.entries[1].change);
	fw_plan_free(&p);
	fw_source_close(&src);
}

static void say(char ***items, size_t *n, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void say(char ***items, size_t *n, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fw_say_once(items, n, fmt, ap);
	va_end(ap);
}

/* A source's warnings and a plan's notes: each message once, in the order first said. */
TEST(say_once_keeps_the_first_of_each_message)
{
	char **items = NULL;
	size_t n = 0;
	say(&items, &n, "condition %s not known", "A");
	say(&items, &n, "condition %s not known", "B");
	say(&items, &n, "condition %s not known", "A");
	say(&items, &n, "%s", "condition B not known");
	CHECK(n == 2);
	CHECK(!strcmp(items[0], "condition A not known") && !strcmp(items[1], "condition B not known"));
	fw_say_once_free(items, n);
}
