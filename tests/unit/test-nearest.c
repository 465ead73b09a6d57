/* Nearest names for usage errors: distance, the closeness limit, prefixes, and the hint text. */
#include "harness.h"
#include "parsers/nearest.h"

TEST(nearest_distance)
{
	CHECK_EQ(fw_edit_distance("iommu", "iommu"), 0);
	CHECK_EQ(fw_edit_distance("iomu", "iommu"), 1);
	CHECK_EQ(fw_edit_distance("IOMMU", "iommu"), 0);
	CHECK_EQ(fw_edit_distance("vifo", "vfio"), 2);
	CHECK_EQ(fw_edit_distance("", "acs"), 3);
}

TEST(nearest_name)
{
	const char *topics[] = {"sev-snp", "iommu", "acs", "p2p", "numa", "pcie", "virtualization", "cxl"};
	size_t n = sizeof(topics) / sizeof(topics[0]);
	CHECK_STR(fw_nearest("iomu", topics, n), "iommu");
	CHECK_STR(fw_nearest("sev", topics, n), "sev-snp");      /* the only name it begins */
	CHECK_STR(fw_nearest("virt", topics, n), "virtualization");
	CHECK_STR(fw_nearest("cx", topics, n), "cxl");           /* short words: one edit */
	CHECK(fw_nearest("gpu", topics, n) == NULL);              /* two edits from p2p: too far for 3 letters */
	CHECK(fw_nearest("memory", topics, n) == NULL);
	CHECK(fw_nearest("", topics, n) == NULL);
	const char *two[] = {"sev-snp-host", "sev-snp-guest"};
	CHECK(fw_nearest("sev", two, 2) == NULL);                 /* a prefix of two names names neither */
}

TEST(nearest_hint)
{
	char buf[128];
	CHECK_STR(fw_nearest_hint("vifo", "sev-snp-host,vfio,p2p,all", buf, sizeof(buf)), "; did you mean 'vfio'?");
	CHECK_STR(fw_nearest_hint("prompt,hlep", "prompt,help,option,varstore", buf, sizeof(buf)), "; did you mean 'help'?");
	CHECK_STR(fw_nearest_hint("zzzzzz", "bash,zsh", buf, sizeof(buf)), "");
}
