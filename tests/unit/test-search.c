/* find and query over a settings list, and topic facts answered from a small machine folder. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "harness.h"
#include "tools/host/pci-config.h"
#include "sysroot.h"
#include "tools/query/facts.h"
#include "tools/query/search.h"
#include "tools/query/user-regex.h"

static const char settings_json[] =
	"{\"settings\": ["
	"{\"prompt\": \"SMEE\", \"help\": \"Secure Memory Encryption Enable\", \"path\": \"AMD CBS > CPU Common Options\", "
	" \"varstore\": \"AmdSetupSHP\", \"offset\": 54, \"width\": 1, "
	" \"options\": [{\"text\": \"Disable\", \"value\": 0}, {\"text\": \"Enable\", \"value\": 1}, {\"text\": \"Auto\", \"value\": 3}]},"
	"{\"prompt\": \"SMEE Lock\", \"path\": \"AMD CBS > CPU Common Options\", \"varstore\": \"AmdSetupSHP\", \"offset\": 55, \"width\": 1},"
	"{\"prompt\": \"IOMMU\", \"path\": \"AMD CBS > NBIO Common Options > IOMMU/Security\", \"varstore\": \"AmdSetupSHP\", \"offset\": 887, \"width\": 1},"
	"{\"prompt\": \"Fan Speed\", \"help\": \"Quiet or loud\", \"path\": \"Monitor\", \"varstore\": \"FanSetup\", \"offset\": 1, \"width\": 1,"
	" \"options\": [{\"text\": \"Quiet\", \"value\": 0}, {\"text\": \"Encrypted loud\", \"value\": 1}]}"
	"]}";

static const char *reason(const struct fw_hit *h, const char *topic)
{
	for (size_t i = 0; i < h->nreasons; i++)
		if (h->reasons[i].topic && strcmp(h->reasons[i].topic, topic) == 0)
			return h->reasons[i].rule;
	return NULL;
}

TEST(search_find_fields)
{
	struct fw_setlist l;
	struct fw_error err;
	CHECK(fw_setlist_from_json(settings_json, strlen(settings_json), "t", &l, &err));
	struct fw_hits h;
	CHECK(fw_find(&l, "^smee$", FW_FIND_ALL, &h, &err));
	CHECK_EQ(h.n, 1);
	CHECK_STR(h.items[0].it->prompt, "SMEE");
	CHECK_STR(h.items[0].reasons[0].rule, "prompt");
	fw_hits_free(&h);
	/* "encrypt" is in SMEE's help and in an option text of Fan Speed */
	CHECK(fw_find(&l, "encrypt", FW_FIND_ALL, &h, &err));
	CHECK_EQ(h.n, 2);
	CHECK_STR(h.items[0].reasons[0].rule, "help");
	CHECK_STR(h.items[1].reasons[0].rule, "option");
	CHECK_STR(h.items[1].reasons[0].why, "option \"Encrypted loud\"");
	fw_hits_free(&h);
	CHECK(fw_find(&l, "encrypt", FW_FIND_PROMPT, &h, &err));
	CHECK_EQ(h.n, 0);
	fw_hits_free(&h);
	CHECK(fw_find(&l, "^Fan", FW_FIND_VARSTORE, &h, &err));
	CHECK_EQ(h.n, 1);
	CHECK_STR(h.items[0].reasons[0].why, "varstore FanSetup");
	fw_hits_free(&h);
	CHECK(!fw_find(&l, "(", FW_FIND_ALL, &h, &err));
	CHECK_EQ(err.code, FW_E_USAGE);
	unsigned mask;
	CHECK(fw_find_fields_parse("prompt,varstore", &mask) && mask == (FW_FIND_PROMPT | FW_FIND_VARSTORE));
	CHECK(!fw_find_fields_parse("prompt,colour", &mask));
	fw_setlist_free(&l);
}

TEST(search_query_topics)
{
	struct fw_setlist l;
	struct fw_error err;
	CHECK(fw_setlist_from_json(settings_json, strlen(settings_json), "t", &l, &err));
	struct fw_topics t;
	CHECK_MSG(fw_topics_load(NULL, &t, &err), "%s", err.msg);
	const struct fw_topic **sel;
	size_t n;
	CHECK(fw_topics_select(&t, NULL, &sel, &n, &err));
	struct fw_hits h;
	fw_query(&l, sel, n, &h);
	/* SMEE and IOMMU match; "SMEE Lock" and the fan do not */
	CHECK_EQ(h.n, 2);
	CHECK_STR(h.items[0].it->prompt, "SMEE");
	CHECK_STR(reason(&h.items[0], "sev-snp"), "smee");
	CHECK(!reason(&h.items[0], "iommu"));
	CHECK_STR(h.items[1].it->prompt, "IOMMU");
	CHECK_STR(reason(&h.items[1], "iommu"), "iommu");
	CHECK_STR(reason(&h.items[1], "p2p"), "iommu");
	CHECK_STR(reason(&h.items[1], "virtualization"), "iommu");
	fw_hits_free(&h);
	free(sel);
	fw_topics_free(&t);
	fw_setlist_free(&l);
}

static const struct fw_fact_answer *answer(const struct fw_fact_answers *a, const char *topic, const char *id)
{
	for (size_t i = 0; i < a->n; i++)
		if (strcmp(a->items[i].topic->name, topic) == 0 && strcmp(a->items[i].rule->id, id) == 0)
			return &a->items[i];
	return NULL;
}

TEST(search_machine_facts)
{
	char dir[] = "/tmp/fwlens-facts.XXXXXX";
	CHECK(fw_sysroot_new(dir));
	fw_sysroot_text(dir, "proc/cmdline", "BOOT_IMAGE=/vmlinuz iommu=pt amd_iommu=on pci=disable_acs_redir=0000:42:00.0\n");
	fw_sysroot_text(dir, "proc/cpuinfo", "processor\t: 0\nflags\t\t: fpu svm sev sev_es\n");
	fw_sysroot_text(dir, "sys/module/kvm_amd/parameters/sev_snp", "N\n");
	fw_sysroot_text(dir, "var/log/dmesg", "[ 1.0] AMD-Vi: Unknown option - 'on'\n[ 2.0] SEV-SNP: RMP table not reserved\n");
	uint8_t c[4096];
	fw_sysroot_cfg_bridge(c, 0x1022, 0x14AB, FW_PCIE_ROOT_PORT, 0x41, 0x41, 0x005F, 0x001D);
	fw_sysroot_pci(dir, "pci0000:40/0000:40:01.1", c, NULL, 0, "pcieport", 7);
	fw_sysroot_cfg_gpu(c, 0x10DE, 0x2BB1, 5, 8);
	fw_sysroot_pci(dir, "pci0000:40/0000:40:01.1/0000:41:00.0", c, NULL, 0, "vfio-pci", 8);
	fw_sysroot_text(dir, "sys/kernel/iommu_groups/7/type", "DMA-FQ\n");
	fw_sysroot_text(dir, "sys/kernel/iommu_groups/8/type", "identity\n");
	struct fw_source src;
	struct fw_error err;
	CHECK_MSG(fw_source_open(dir, NULL, &src, &err), "%s", err.msg);
	struct fw_topics t;
	CHECK(fw_topics_load(NULL, &t, &err));
	const struct fw_topic **sel;
	size_t n;
	CHECK(fw_topics_select(&t, NULL, &sel, &n, &err));
	struct fw_fact_answers a;
	fw_facts_answer(&src, sel, n, &a);
	const struct fw_fact_answer *x = answer(&a, "iommu", "iommu-option");
	CHECK(x && x->state == FW_FACT_PRESENT);
	CHECK_STR(x->summary, "iommu=pt");
	x = answer(&a, "iommu", "iommu-passthrough-option");
	CHECK(x && x->state == FW_FACT_ABSENT);
	x = answer(&a, "acs", "disable-acs-redir");
	CHECK(x && x->state == FW_FACT_PRESENT);
	CHECK_STR(x->summary, "pci=disable_acs_redir=0000:42:00.0");
	x = answer(&a, "sev-snp", "kvm-amd-sev-snp");
	CHECK(x && x->state == FW_FACT_PRESENT);
	CHECK_STR(x->summary, "N");
	x = answer(&a, "sev-snp", "kvm-amd-sev");
	CHECK(x && x->state == FW_FACT_ABSENT);
	x = answer(&a, "sev-snp", "cpu-sev-snp");
	CHECK(x && x->state == FW_FACT_ABSENT);
	x = answer(&a, "virtualization", "svm-flag");
	CHECK(x && x->state == FW_FACT_PRESENT);
	x = answer(&a, "sev-snp", "snp-kernel-log");
	CHECK(x && x->state == FW_FACT_PRESENT && x->total == 1);
	CHECK_STR(x->evidence[0], "[ 2.0] SEV-SNP: RMP table not reserved");
	x = answer(&a, "sev-snp", "ivrs-efr-snp");
	CHECK(x && x->state == FW_FACT_UNKNOWN);
	x = answer(&a, "iommu", "iommu-groups");
	CHECK(x && x->state == FW_FACT_PRESENT);
	CHECK_STR(x->summary, "2 groups: 1 DMA-FQ, 1 identity");
	CHECK_STR(x->evidence[0], "group 8: identity (1 device)");
	x = answer(&a, "virtualization", "vfio-groups");
	CHECK(x && x->state == FW_FACT_PRESENT);
	CHECK_STR(x->evidence[0], "group 8: 0000:41:00.0 vfio-pci");
	x = answer(&a, "acs", "acs-ctl");
	CHECK(x && x->state == FW_FACT_PRESENT);
	CHECK_STR(x->summary, "1 bridge above the GPUs, 1 with P2P redirect (RR/CR) on");
	x = answer(&a, "pcie", "link-state");
	CHECK(x && x->state == FW_FACT_PRESENT);
	CHECK_STR(x->evidence[0], "0000:41:00.0: Gen5 x8 (capable of Gen5 x16) degraded");
	fw_fact_answers_free(&a);
	free(sel);
	fw_topics_free(&t);
	fw_source_close(&src);
	fw_sysroot_remove(dir);
}

TEST(search_regex_bounded)
{
	struct fw_regex re;
	struct fw_error err;
	CHECK_MSG(fw_regex_compile(&re, "^(SMEE|SEV[- ]ES ASID.*)$", &err), "%s", err.msg);
	CHECK(fw_regex_match(&re, "sev-es asid space limit") && !fw_regex_match(&re, "SMEE Lock"));
	fw_regex_free(&re);
	CHECK(fw_regex_compile(&re, "ACS (Control|cntl)$|^ACS Rcc_Dev[0-9]+$", &err));
	CHECK(fw_regex_match(&re, "ACS Rcc_Dev12") && !fw_regex_match(&re, "ACS Rcc_Dev12 x"));
	fw_regex_free(&re);
	/* POSIX meanings kept: '.' and a negated list match a newline, '$' only at the very end */
	CHECK(fw_regex_compile(&re, "^Enable.[^x]Disable$", &err));
	CHECK(fw_regex_match(&re, "enable\n\ndisable") && !fw_regex_match(&re, "Enable\n\nDisable\n"));
	fw_regex_free(&re);
	CHECK(fw_regex_compile(&re, "x{3,40}", &err));
	fw_regex_free(&re);
	/* repetitions nested or repeated many times compile and match at once: PCRE2 does not expand them */
	static const char *const big[] = {"(BBBBBBBBBBBB)+(BBBB)+(BBBB)+(BBBBBBBBBBBB){60}", "((a{60}){60}){60}"};
	for (size_t i = 0; i < 2; i++) {
		CHECK_MSG(fw_regex_compile(&re, big[i], &err), "%s", err.msg);
		CHECK(!fw_regex_match(&re, "BBBBBBBBBBBBBBBBBBBBBBBBBBBB aaaaaaaa") && !re.limit_hit);
		fw_regex_free(&re);
	}
	/* stacked quantifiers, a lone ')', a huge count, an open group: refused with the position */
	CHECK(!fw_regex_compile(&re, "(BBBBBBBBBBBB)++++++++++++++++++++", &err));
	CHECK(!fw_regex_compile(&re, " BBBB)++++++++++++++++++++++++++++BBB", &err));
	CHECK(!fw_regex_compile(&re, "a{99999999999999999999}", &err));
	CHECK(!fw_regex_compile(&re, "(", &err));
	CHECK_MSG(strstr(err.msg, "bad regular expression '(': missing closing parenthesis at character 1"), "%s", err.msg);
	CHECK_EQ(err.code, FW_E_INVALID);
}

/* A back-reference inside nested repetitions made the C library's matcher run past 60 s on one
 * prompt of 60 characters; matching now stops at the match limit and find fails with exit 2
 * naming the pattern, in well under a second. */
TEST(search_regex_backreference_limit)
{
	char json[512];
	snprintf(json, sizeof(json), "{\"settings\": [{\"prompt\": \"%s\", \"varstore\": \"Setup\", \"offset\": 1, \"width\": 1}]}",
		 "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaac1");
	struct fw_setlist l;
	struct fw_error err;
	CHECK(fw_setlist_from_json(json, strlen(json), "t", &l, &err));
	struct timespec t0, t1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	struct fw_hits h;
	bool ok = fw_find(&l, "^((a*)*\\2)*[0-9]$", FW_FIND_PROMPT, &h, &err);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	long ms = (t1.tv_sec - t0.tv_sec) * 1000 + (t1.tv_nsec - t0.tv_nsec) / 1000000;
	CHECK(!ok);
	CHECK_EQ(err.code, FW_E_USAGE);
	CHECK_MSG(strstr(err.msg, "regular expression '^((a*)*\\2)*[0-9]$' needs more than 1000000 matching steps"), "%s",
		  err.msg);
	CHECK_MSG(ms < 5000, "%ld ms", ms);
	/* an ordinary back-reference still matches */
	CHECK(fw_find(&l, "(a)\\1c", FW_FIND_PROMPT, &h, &err));
	CHECK_EQ(h.n, 1);
	fw_hits_free(&h);
	fw_setlist_free(&l);
}
