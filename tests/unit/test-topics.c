/* Topic rules: schema validation, matching, and precision on real setup forms. */
#include <stdio.h>
#include <stdlib.h>

#include "harness.h"
#include "parsers/env.h"
#include "parsers/hash.h"
#include "tools/query/topics.h"

static const struct fw_topic_setting_rule *match(const struct fw_topics *t, const char *topic, const char *prompt)
{
	const struct fw_topic *tp = fw_topics_find(t, topic);
	struct fw_topic_subject s = {prompt, "", "", "", NULL, 0};
	return tp ? fw_topic_match(tp, &s) : NULL;
}

TEST(topics_builtin_rules_load)
{
	struct fw_topics t;
	struct fw_error err;
	CHECK_MSG(fw_topics_load(NULL, &t, &err), "%s", err.msg);
	CHECK_STR(t.source, "built-in");
	const char *names[] = {"sev-snp", "iommu", "acs", "p2p", "numa", "pcie", "virtualization", "cxl"};
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		const struct fw_topic *tp = fw_topics_find(&t, names[i]);
		CHECK_MSG(tp != NULL, "topic %s missing", names[i]);
		CHECK(tp->description && tp->description[0]);
		for (size_t k = 0; k < tp->nsettings; k++)
			CHECK_MSG(tp->settings[k].why && tp->settings[k].why[0], "%s/%s has no why", names[i], tp->settings[k].id);
	}
	fw_topics_free(&t);
}

/* The built-in rules' hash is taken when they are built in: it is the hash of the rules file. */
TEST(topics_builtin_rules_sha256_is_the_files)
{
	char path[4096], want[FW_SHA256_HEX_LEN], got[FW_SHA256_HEX_LEN];
	snprintf(path, sizeof(path), "%s/tools/query/rules/topics.xml", fw_test_srcdir());
	size_t len;
	uint8_t *p = fw_test_read_file(path, &len);
	CHECK(p);
	if (!p)
		return;
	fw_sha256_hex(p, len, want);
	free(p);
	struct fw_error err;
	CHECK(fw_topics_rules_sha256(NULL, got, &err));
	if (fw_env()->rules && *fw_env()->rules)
		SKIP("FWLENS_RULES names other rules");
	CHECK_STR(got, want);
}

TEST(topics_match_prompts)
{
	struct fw_topics t;
	struct fw_error err;
	CHECK(fw_topics_load(NULL, &t, &err));
	CHECK_STR(match(&t, "sev-snp", "SMEE")->id, "smee");
	CHECK_STR(match(&t, "sev-snp", "  smee ")->id, "smee");
	CHECK_STR(match(&t, "sev-snp", "SNP Memory (RMP Table) Coverage")->id, "snp-rmp-coverage");
	CHECK_STR(match(&t, "iommu", "SEV-SNP Support")->id, "sev-snp-support");
	CHECK_STR(match(&t, "numa", "NUMA nodes per socket")->id, "nps");
	CHECK_STR(match(&t, "numa", "NUMA nodes")->id, "nps");
	CHECK_STR(match(&t, "p2p", "Re-Size BAR Support")->id, "resize-bar");
	CHECK_STR(match(&t, "acs", "P2pReq ACS Control")->id, "nbif-acs-straps");
	CHECK(match(&t, "p2p", "P2pReq ACS Control") == NULL);
	CHECK_STR(match(&t, "acs", "SourceVal ACS cntl")->id, "acs-source-validation");
	CHECK_STR(match(&t, "iommu", "Local APIC Mode")->id, "local-apic-mode");
	CHECK_STR(match(&t, "p2p", "DF Cstates")->id, "df-cstates");
	CHECK_STR(match(&t, "p2p", "DF C-States")->id, "df-cstates");
	CHECK_STR(match(&t, "p2p", "xGMI Max Link Width Control")->id, "xgmi");
	CHECK_STR(match(&t, "p2p", "4-link xGMI max speed")->id, "xgmi");
	CHECK(match(&t, "p2p", "xGMI CRC Threshold") == NULL);
	CHECK_STR(match(&t, "p2p", "PFMMIO 64 bit Resources Padding")->id, "mmio-limits");
	CHECK(match(&t, "p2p", "RMP Coverage for 64Bit MMIO Ranges") == NULL);
	CHECK_STR(match(&t, "pcie", "SRIOV")->id, "sr-iov");
	CHECK_STR(match(&t, "pcie", "DlfEnableStrap1")->id, "dlf");
	CHECK_STR(match(&t, "cxl", "CXL Memory interleaving")->id, "cxl-interleaving");
	CHECK_STR(match(&t, "cxl", "ACPI SLIT remote CXL distance")->id, "cxl-numa-distance");
	CHECK(match(&t, "cxl", "CXL DVSEC Lock") == NULL);
	CHECK(match(&t, "pcie", "PCIe Port 3 Target Speed") == NULL);
	CHECK(match(&t, "sev-snp", "SMEE Lock") == NULL);
	CHECK(match(&t, "sev-snp", "SEV Control Lock") == NULL);
	fw_topics_free(&t);
}

TEST(topics_select)
{
	struct fw_topics t;
	struct fw_error err;
	CHECK(fw_topics_load(NULL, &t, &err));
	const struct fw_topic **sel;
	size_t n;
	CHECK(fw_topics_select(&t, "sev-snp,iommu,sev-snp", &sel, &n, &err));
	CHECK_EQ(n, 2);
	free(sel);
	CHECK(!fw_topics_select(&t, "sev-snp,gpu", &sel, &n, &err));
	CHECK_EQ(err.code, FW_E_USAGE);
	CHECK(strstr(err.msg, "unknown topic 'gpu'") != NULL);
	fw_topics_free(&t);
}

TEST(topics_bad_rules_are_rejected)
{
	struct fw_topics t;
	struct fw_error err;
	const char *not_xml = "<topics";
	CHECK(!fw_topics_load_buffer(not_xml, strlen(not_xml), "x.xml", &t, &err));
	CHECK(strstr(err.msg, "x.xml: not well-formed XML") == err.msg);
	const char *bad_schema = "<topics version=\"1\"><topic name=\"A\" title=\"t\"><description>d</description></topic></topics>";
	CHECK(!fw_topics_load_buffer(bad_schema, strlen(bad_schema), "y.xml", &t, &err));
	CHECK(strstr(err.msg, "does not follow topics.xsd") != NULL);
	const char *bad_re = "<topics version=\"1\"><topic name=\"a\" title=\"t\"><description>d</description>"
			     "<setting id=\"s\"><prompt-regex>(</prompt-regex><why>w</why></setting></topic></topics>";
	CHECK(!fw_topics_load_buffer(bad_re, strlen(bad_re), "z.xml", &t, &err));
	CHECK(strstr(err.msg, "bad regular expression") != NULL);
	const char *ok = "<topics version=\"1\"><topic name=\"a\" title=\"t\"><description>d</description>"
			 "<setting id=\"s\"><prompt>Foo  Bar</prompt><why>w</why></setting></topic></topics>";
	CHECK_MSG(fw_topics_load_buffer(ok, strlen(ok), "ok.xml", &t, &err), "%s", err.msg);
	CHECK(match(&t, "a", "foo bar") != NULL);
	fw_topics_free(&t);
}

/* Precision and recall on the real WRX90E forms: every prompt of the three IFR dumps run
 * through the topics the mission asks about. */
TEST(topics_precision_on_real_forms)
{
	const char *files[] = {"ifr/asus-wrx90e-sage-se_1203_CbsSetupDxeSHP_zen5.ifr.txt",
			       "ifr/asus-wrx90e-sage-se_1203_CbsSetupDxeSTP_zen4.ifr.txt",
			       "ifr/asus-wrx90e-sage-se_1203_AmiSetup.ifr.txt"};
	struct fw_topics t;
	struct fw_error err;
	CHECK(fw_topics_load(NULL, &t, &err));
	const char *topics[] = {"sev-snp", "iommu", "acs", "p2p", "numa"};
	const char *must[] = {"SMEE", "SEV Control", "TSME", "SEV-SNP Support", "SNP Memory (RMP Table) Coverage",
			      "SEV-ES ASID Space Limit", "IOMMU", "ACS Enable", "PCIe ARI Support", "PCIe Ten Bit Tag Support",
			      "Above 4G Decoding", "Resize BAR Support", "ACPI SRAT L3 Cache As NUMA Domain"};
	bool found[sizeof(must) / sizeof(must[0])] = {0};
	size_t matches = 0, questions = 0;
	for (size_t f = 0; f < 3; f++) {
		size_t len;
		char *text = (char *)fw_test_read_file(fw_test_corpus(files[f]), &len);
		if (!text) {
			fw_topics_free(&t);
			SKIP("corpus IFR dumps not present (%s)", files[f]);
		}
		text = fw_xrealloc(text, len + 1);
		text[len] = '\0';
		for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
			while (*line == '\t')
				line++;
			if (strncmp(line, "OneOf ", 6) && strncmp(line, "CheckBox ", 9) && strncmp(line, "Numeric ", 8) &&
			    strncmp(line, "String ", 7))
				continue;
			char *p = strstr(line, "Prompt: \"");
			if (!p)
				continue;
			p += 9;
			char *q = strchr(p, '"');
			if (!q)
				continue;
			*q = '\0';
			questions++;
			struct fw_topic_subject s = {p, "", "", "", NULL, 0};
			for (size_t k = 0; k < 5; k++)
				if (fw_topic_match(fw_topics_find(&t, topics[k]), &s)) {
					matches++;
					for (size_t m = 0; m < sizeof(must) / sizeof(must[0]); m++)
						if (strcmp(must[m], p) == 0)
							found[m] = true;
				}
		}
		free(text);
	}
	for (size_t m = 0; m < sizeof(must) / sizeof(must[0]); m++)
		CHECK_MSG(found[m], "no topic matched %s", must[m]);
	CHECK_MSG(questions > 3000, "only %zu questions read", questions);
	CHECK_MSG(matches < 250, "%zu matches over %zu questions: not precise", matches, questions);
	printf("# topics: %zu matches over %zu questions\n", matches, questions);
	fw_topics_free(&t);
}
