/* find and query over a settings list, and topic facts answered from a small machine folder. */
#include <stdio.h>
#include <stdlib.h>

#include "harness.h"
#include "parsers/pci-config.h"
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
	regex_t re;
	struct fw_error err;
	CHECK_MSG(fw_regex_compile(&re, "^(SMEE|SEV[- ]ES ASID.*)$", &err), "%s", err.msg);
	regfree(&re);
	CHECK(fw_regex_compile(&re, "ACS (Control|cntl)$|^ACS Rcc_Dev[0-9]+$", &err));
	regfree(&re);
	CHECK(fw_regex_compile(&re, "x{3,40}", &err));
	regfree(&re);
	/* expansions that grow exponentially are refused before regcomp sees them */
	CHECK(!fw_regex_compile(&re, "(BBBBBBBBBBBB)++++++++++++++++++++", &err));
	CHECK(strstr(err.msg, "stacks more than 2 repetition operators"));
	CHECK(!fw_regex_compile(&re, "(BBBBBBBBBBBB)+(BBBB)+(BBBB)+(BBBBBBBBBBBB){60}", &err));
	CHECK(strstr(err.msg, "repeats too much"));
	CHECK(!fw_regex_compile(&re, "((a{60}){60}){60}", &err));
	CHECK(!fw_regex_compile(&re, " BBBB)++++++++++++++++++++++++++++BBB", &err)); /* a lone ')' is a character */
	CHECK(!fw_regex_compile(&re, "a{99999999999999999999}", &err));
	CHECK(!fw_regex_compile(&re, "(", &err));
	CHECK(strstr(err.msg, "bad regular expression"));
	CHECK_EQ(err.code, FW_E_INVALID);
}
