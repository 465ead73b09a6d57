/* The doctor on a small GPU host built here: two host GPUs under one switch faulting on each
 * other's BAR, one passthrough GPU, amd_iommu=on on the command line. */
#include <stdio.h>
#include <stdlib.h>

#include "harness.h"
#include "tools/host/pci-config.h"
#include "sysroot.h"
#include "tools/query/doctor.h"
#include "tools/host/sev-probe.h"

static const struct fw_check_result *find(const struct fw_doctor_report *r, const char *id)
{
	for (size_t i = 0; i < r->count; i++)
		if (strcmp(r->results[i].id, id) == 0)
			return &r->results[i];
	return NULL;
}

static bool evidence_has(const struct fw_check_result *c, const char *text)
{
	size_t i;
	json_t *e;
	json_array_foreach(c->evidence, i, e) if (strstr(fw_evidence_text(e), text)) return true;
	return false;
}

static void build_host(const char *dir, bool identity)
{
	uint8_t c[4096];
	fw_sysroot_cfg_bridge(c, 0x1022, 0x14AB, FW_PCIE_ROOT_PORT, 0x41, 0x45, 0x005F, 0x001D);
	fw_sysroot_pci(dir, "pci0000:40/0000:40:01.1", c, NULL, 0, "pcieport", 19);
	fw_sysroot_cfg_bridge(c, 0x1000, 0xC030, FW_PCIE_UPSTREAM_PORT, 0x42, 0x45, 0, 0);
	fw_sysroot_pci(dir, "pci0000:40/0000:40:01.1/0000:41:00.0", c, NULL, 0, "pcieport", 19);
	fw_sysroot_cfg_bridge(c, 0x1000, 0xC030, FW_PCIE_DOWNSTREAM_PORT, 0x43, 0x43, 0x005F, 0x001D);
	fw_sysroot_pci(dir, "pci0000:40/0000:40:01.1/0000:41:00.0/0000:42:00.0", c, NULL, 0, "pcieport", 19);
	fw_sysroot_cfg_bridge(c, 0x1000, 0xC030, FW_PCIE_DOWNSTREAM_PORT, 0x44, 0x44, 0x005F, 0x001D);
	fw_sysroot_pci(dir, "pci0000:40/0000:40:01.1/0000:41:00.0/0000:42:01.0", c, NULL, 0, "pcieport", 19);
	fw_sysroot_cfg_gpu(c, 0x10DE, 0x2BB1, 5, 16);
	fw_sysroot_pci(dir, "pci0000:40/0000:40:01.1/0000:41:00.0/0000:42:00.0/0000:43:00.0", c,
		       "0x000000f000000000 0x000000f000ffffff 0x0000000000040200\n"
		       "0x0000002000000000 0x0000003fffffffff 0x000000000014220c\n",
		       0, "nvidia", 20);
	fw_sysroot_cfg_gpu(c, 0x10DE, 0x2BB1, 2, 16); /* trained down to Gen2 */
	fw_sysroot_pci(dir, "pci0000:40/0000:40:01.1/0000:41:00.0/0000:42:01.0/0000:44:00.0", c,
		       "0x000000f100000000 0x000000f100ffffff 0x0000000000040200\n"
		       "0x0000004000000000 0x0000005fffffffff 0x000000000014220c\n",
		       0, "nvidia", 21);
	fw_sysroot_cfg_bridge(c, 0x1022, 0x14AB, FW_PCIE_ROOT_PORT, 0x61, 0x61, 0x005F, 0x001D);
	fw_sysroot_pci(dir, "pci0000:60/0000:60:01.1", c, NULL, 1, "pcieport", 29);
	fw_sysroot_cfg_gpu(c, 0x10DE, 0x2BB1, 5, 16);
	fw_sysroot_pci(dir, "pci0000:60/0000:60:01.1/0000:61:00.0", c,
		       "0x000000f200000000 0x000000f200ffffff 0x0000000000040200\n"
		       "0x0000006000000000 0x0000007fffffffff 0x000000000014220c\n",
		       1, "vfio-pci", 30);
	fw_sysroot_text(dir, "sys/kernel/iommu_groups/19/type", "DMA-FQ\n");
	fw_sysroot_text(dir, "sys/kernel/iommu_groups/20/type", "DMA-FQ\n");
	fw_sysroot_text(dir, "sys/kernel/iommu_groups/21/type", identity ? "identity\n" : "DMA-FQ\n");
	fw_sysroot_text(dir, "sys/kernel/iommu_groups/29/type", "DMA-FQ\n");
	fw_sysroot_text(dir, "sys/kernel/iommu_groups/30/type", "unmanaged\n");
	fw_sysroot_text(dir, "proc/cmdline", "BOOT_IMAGE=/boot/vmlinuz root=/dev/sda1 amd_iommu=on\n");
	fw_sysroot_text(dir, "sys/module/kvm_amd/parameters/sev", "Y\n");
	fw_sysroot_text(dir, "sys/module/kvm_amd/parameters/sev_es", "Y\n");
	fw_sysroot_text(dir, "sys/module/kvm_amd/parameters/sev_snp", "Y\n");
	fw_sysroot_text(dir, "dev/sev", "");
	fw_sysroot_text(dir, "var/log/dmesg",
			"[    0.100] AMD-Vi: Unknown option - 'on'\n"
			"[    0.500] SEV-SNP: RMP table physical range [0x0000000088000000 - 0x00000000a81fffff]\n"
			"[    1.200] AMD-Vi: Extended features (0x246577efa2254afa, 0x0): PPR NX GT IA GA PC GA_vAPIC SNP\n"
			"[    1.201] AMD-Vi: IOMMU SNP support enabled.\n"
			"[    5.000] ccp 0000:22:00.1: SEV-SNP API:1.55 build:21\n"
			"[    6.000] kvm_amd: SEV-SNP enabled (ASIDs 1 - 99)\n"
			"[  300.001] nvidia 0000:43:00.0: AMD-Vi: Event logged [IO_PAGE_FAULT domain=0x0014 address=0x4000100000 flags=0x0030]\n"
			"[  300.002] nvidia 0000:43:00.0: AMD-Vi: Event logged [IO_PAGE_FAULT domain=0x0014 address=0x4000100040 flags=0x0030]\n"
			"[  300.003] nvidia 0000:43:00.0: AMD-Vi: Event logged [IO_PAGE_FAULT domain=0x0014 address=0x4000100080 flags=0x0030]\n");
}

static bool run_as(const char *dir, unsigned profiles, enum fw_doctor_role role, struct fw_doctor_report *rep,
		   struct fw_host *h, struct fw_machine **m)
{
	struct fw_error err;
	if (!fw_machine_open(dir, m, &err) || !fw_host_load(*m, h, &err))
		return false;
	struct fw_doctor_ctx ctx = {.host = h, .profiles = profiles, .role = role};
	fw_doctor_run(&ctx, rep);
	return true;
}

static bool run(const char *dir, unsigned profiles, struct fw_doctor_report *rep, struct fw_host *h, struct fw_machine **m)
{
	return run_as(dir, profiles, FW_ROLE_AUTO, rep, h, m);
}

TEST(doctor_names_faulting_gpus_and_explains)
{
	char dir[] = "/tmp/fwlens-doctor.XXXXXX";
	CHECK(fw_sysroot_new(dir));
	build_host(dir, false);
	struct fw_doctor_report rep;
	struct fw_host h;
	struct fw_machine *m;
	CHECK(run(dir, FW_PROFILE_ALL, &rep, &h, &m));
	CHECK_MSG(rep.count >= 15, "only %zu checks", rep.count);

	const struct fw_check_result *f = find(&rep, "p2p-io-page-faults");
	CHECK(f && f->status == FW_CHECK_FAIL);
	CHECK(strstr(f->explanation, "GPU 0000:43:00.0 (IOMMU group 20, DMA-FQ)") != NULL);
	CHECK(strstr(f->explanation, "BAR1 of GPU 0000:44:00.0 (group 21") != NULL);
	CHECK(strstr(f->explanation, "ACS redirect") != NULL);
	CHECK(f->fix && strstr(f->fix, "NCCL_P2P_DISABLE=1") && strstr(f->fix, "iommu=pt"));
	CHECK(evidence_has(f, "3 IO_PAGE_FAULT from 0000:43:00.0"));
	CHECK(evidence_has(f, "0000:42:00.0 (Downstream Port): ACS at 0x100: SrcValid+ TransBlk- ReqRedir+ CmpltRedir+ UpstreamFwd+ DirectTrans-"));

	const struct fw_check_result *a = find(&rep, "acs-gpu-paths");
	CHECK(a && a->status == FW_CHECK_WARN);
	CHECK(evidence_has(a, "0000:43:00.0 <-> 0000:44:00.0: meet at 0000:41:00.0 (Upstream Port)"));

	CHECK_EQ(find(&rep, "kernel-options")->status, FW_CHECK_WARN);
	CHECK(evidence_has(find(&rep, "kernel-options"), "Unknown option - 'on'"));
	CHECK_EQ(find(&rep, "kernel-iommu-mode")->status, FW_CHECK_PASS);
	CHECK_EQ(find(&rep, "kernel-snp-log")->status, FW_CHECK_PASS);
	CHECK_EQ(find(&rep, "kernel-iommu-snp")->status, FW_CHECK_PASS);
	CHECK_EQ(find(&rep, "ccp-firmware")->status, FW_CHECK_PASS);
	CHECK_EQ(find(&rep, "kvm-amd-sev")->status, FW_CHECK_PASS);
	CHECK_EQ(find(&rep, "dev-sev")->status, FW_CHECK_PASS);
	CHECK_EQ(find(&rep, "iommu-group-types")->status, FW_CHECK_PASS);
	CHECK_EQ(find(&rep, "vfio-isolation")->status, FW_CHECK_PASS);
	CHECK_EQ(find(&rep, "gpu-links")->status, FW_CHECK_WARN);
	CHECK(evidence_has(find(&rep, "gpu-links"), "0000:44:00.0: Gen2 x16 of Gen5 x16 (below capability)"));
	CHECK_EQ(find(&rep, "gpu-numa")->status, FW_CHECK_PASS);
	CHECK_EQ(find(&rep, "gpu-bars")->status, FW_CHECK_PASS);
	/* no BIOS image and no ACPI: those checks say skip, with a reason */
	CHECK_EQ(find(&rep, "bios-smee")->status, FW_CHECK_SKIP);
	CHECK(strstr(find(&rep, "bios-smee")->explanation, "--image") != NULL);
	CHECK_EQ(find(&rep, "acpi-ivrs")->status, FW_CHECK_SKIP);
	for (size_t i = 0; i < rep.count; i++)
		CHECK_MSG(rep.results[i].explanation[0], "%s has no explanation", rep.results[i].id);
	fw_doctor_report_free(&rep);
	fw_host_free(&h);
	fw_machine_close(m);
	fw_sysroot_remove(dir);
}

TEST(doctor_identity_group_fails_snp_and_profiles_filter)
{
	char dir[] = "/tmp/fwlens-doctor.XXXXXX";
	CHECK(fw_sysroot_new(dir));
	build_host(dir, true);
	fw_sysroot_text(dir, "proc/cmdline", "root=/dev/sda1 iommu=pt\n");
	struct fw_doctor_report rep;
	struct fw_host h;
	struct fw_machine *m;
	CHECK(run(dir, FW_PROFILE_SNP, &rep, &h, &m));
	CHECK(find(&rep, "p2p-io-page-faults") == NULL); /* p2p only */
	CHECK(find(&rep, "vfio-isolation") == NULL);
	CHECK_EQ(find(&rep, "iommu-group-types")->status, FW_CHECK_FAIL);
	CHECK(evidence_has(find(&rep, "iommu-group-types"), "identity groups: 21"));
	CHECK_EQ(find(&rep, "kernel-iommu-mode")->status, FW_CHECK_FAIL);
	CHECK(strstr(find(&rep, "kernel-iommu-mode")->explanation, "iommu=pt makes default domains passthrough") != NULL);
	unsigned mask;
	CHECK(fw_doctor_profile_parse("sev-snp-host", &mask) && mask == FW_PROFILE_SNP);
	CHECK(!fw_doctor_profile_parse("gpu", &mask));
	json_t *doc = fw_doctor_report_json(&rep);
	CHECK(json_integer_value(json_object_get(json_object_get(doc, "summary"), "fail")) >= 2);
	json_decref(doc);
	fw_doctor_report_free(&rep);
	fw_host_free(&h);
	fw_machine_close(m);
	fw_sysroot_remove(dir);
}

/* Every verdict names what it was read from; a check without its input says skip. */
static void check_all_have_evidence(const struct fw_doctor_report *rep, const char *what)
{
	for (size_t i = 0; i < rep->count; i++) {
		const struct fw_check_result *c = &rep->results[i];
		CHECK_MSG(json_array_size(c->evidence) > 0, "%s: %s (%s) has no evidence", what, c->id,
			  fw_check_status_name(c->status));
		size_t k;
		json_t *e;
		json_array_foreach(c->evidence, k, e)
		{
			CHECK_MSG(fw_evidence_from(e)[0] && fw_evidence_text(e)[0], "%s: %s evidence without source", what, c->id);
			if (c->status != FW_CHECK_SKIP)
				continue;
		}
		bool any_real = false;
		json_array_foreach(c->evidence, k, e) any_real |= strcmp(fw_evidence_kind(e), FW_EVIDENCE_ABSENT) != 0;
		CHECK_MSG(c->status == FW_CHECK_SKIP || any_real, "%s: %s is %s on absent evidence only", what, c->id,
			  fw_check_status_name(c->status));
	}
}

TEST(doctor_every_check_has_evidence_or_skips)
{
	char dir[] = "/tmp/fwlens-doctor.XXXXXX";
	CHECK(fw_sysroot_new(dir));
	fw_sysroot_text(dir, "proc/version", "Linux version 6.14\n");
	struct fw_doctor_report rep;
	struct fw_host h;
	struct fw_machine *m;
	/* an almost empty machine: nothing passes or fails */
	CHECK(run(dir, FW_PROFILE_ALL, &rep, &h, &m));
	check_all_have_evidence(&rep, "empty");
	CHECK_EQ(rep.pass + rep.warn + rep.fail, 0);
	CHECK(strstr(find(&rep, "iommu-group-types")->explanation, "not captured") != NULL);
	CHECK(strstr(find(&rep, "gpu-driver-init")->explanation, "kernel log was not captured") != NULL);
	fw_doctor_report_free(&rep);
	fw_host_free(&h);
	fw_machine_close(m);
	/* groups captured but empty, no passthrough on the command line: the translated mode cannot pass */
	fw_sysroot_text(dir, "proc/cmdline", "root=/dev/sda1\n");
	fw_sysroot_text(dir, "sys/kernel/iommu_groups/.keep", "");
	CHECK(run(dir, FW_PROFILE_ALL, &rep, &h, &m));
	check_all_have_evidence(&rep, "no groups");
	CHECK_EQ(find(&rep, "kernel-iommu-mode")->status, FW_CHECK_FAIL);
	CHECK_EQ(find(&rep, "iommu-group-types")->status, FW_CHECK_FAIL);
	fw_doctor_report_free(&rep);
	fw_host_free(&h);
	fw_machine_close(m);
	/* no machine at all (an image alone gives settings; here nothing): every check skips */
	struct fw_doctor_ctx none = {.host = NULL, .profiles = FW_PROFILE_ALL, .role = FW_ROLE_AUTO};
	fw_doctor_run(&none, &rep);
	check_all_have_evidence(&rep, "no machine");
	CHECK_EQ(rep.skip, rep.count);
	CHECK(strstr(find(&rep, "acpi-ivrs")->explanation, "built by the firmware at boot") != NULL);
	fw_doctor_report_free(&rep);
	fw_sysroot_remove(dir);
}

TEST(doctor_host_sample_has_evidence)
{
	char dir[] = "/tmp/fwlens-doctor.XXXXXX";
	CHECK(fw_sysroot_new(dir));
	build_host(dir, false);
	struct fw_doctor_report rep;
	struct fw_host h;
	struct fw_machine *m;
	CHECK(run(dir, FW_PROFILE_ALL, &rep, &h, &m));
	check_all_have_evidence(&rep, "host");
	const struct fw_check_result *k = find(&rep, "kernel-iommu-mode");
	size_t i;
	json_t *e;
	bool cmdline = false;
	json_array_foreach(k->evidence, i, e) cmdline |= strcmp(fw_evidence_from(e), "proc/cmdline") == 0;
	CHECK(cmdline);
	CHECK_EQ(find(&rep, "gpu-driver-init")->status, FW_CHECK_PASS);
	CHECK_EQ(find(&rep, "gpu-identity-domains")->status, FW_CHECK_PASS);
	CHECK_EQ(find(&rep, "guest-snp")->status, FW_CHECK_SKIP);
	fw_doctor_report_free(&rep);
	fw_host_free(&h);
	fw_machine_close(m);
	fw_sysroot_remove(dir);
}

/* The second half of the reference host's story: a Blackwell GPU's group switched to identity at
 * runtime, its driver failing in the FSP boot. */
TEST(doctor_identity_blackwell_fails_with_recovery)
{
	char dir[] = "/tmp/fwlens-doctor.XXXXXX";
	CHECK(fw_sysroot_new(dir));
	build_host(dir, true);
	fw_sysroot_text(dir, "var/log/dmesg",
			"[    0.900] iommu: Default domain type: Translated\n"
			"[  300.001] nvidia 0000:43:00.0: AMD-Vi: Event logged [IO_PAGE_FAULT domain=0x0014 address=0x4000100000 flags=0x0030]\n"
			"[  300.002] nvidia 0000:43:00.0: AMD-Vi: Event logged [IO_PAGE_FAULT domain=0x0014 address=0x4000100040 flags=0x0030]\n"
			"[  300.005] nvidia 0000:44:00.0: AMD-Vi: Event logged [IO_PAGE_FAULT domain=0x0015 address=0x2000100040 flags=0x0030]\n"
			"[  900.100] NVRM: GPU 0000:44:00.0: kfspSendBootCommands_HAL: FSP boot command failed, error 0x177\n"
			"[  900.101] NVRM: GPU 0000:44:00.0: RmInitAdapter failed! (0x62:0xffff:2142)\n"
			"[  900.102] NVRM: Xid (PCI:0000:44:00): 79, pid=1234, GPU has fallen off the bus.\n"
			"[  900.103] nvidia: probe of 0000:44:00.0 failed with error -1\n");
	struct fw_doctor_report rep;
	struct fw_host h;
	struct fw_machine *m;
	CHECK(run(dir, FW_PROFILE_ALL, &rep, &h, &m));
	check_all_have_evidence(&rep, "identity");
	const struct fw_check_result *g = find(&rep, "gpu-identity-domains");
	CHECK_EQ(g->status, FW_CHECK_FAIL);
	CHECK(strstr(g->explanation, "0000:44:00.0 (group 21)") != NULL);
	CHECK(strstr(g->explanation, "does not translate") != NULL);
	/* the recovery, in order: unbind, group back to DMA-FQ, remove, bus reset of the upstream bridge, rescan */
	const char *fix = g->fix;
	const char *unbind = strstr(fix, "echo 0000:44:00.0 > /sys/bus/pci/drivers/nvidia/unbind");
	const char *type = strstr(fix, "echo DMA-FQ > /sys/kernel/iommu_groups/21/type");
	const char *rm = strstr(fix, "echo 1 > /sys/bus/pci/devices/0000:44:00.0/remove");
	const char *sbr = strstr(fix, "setpci -s 0000:42:01.0 BRIDGE_CONTROL=0x40:0x40");
	const char *rescan = strstr(fix, "echo 1 > /sys/bus/pci/rescan");
	CHECK(unbind && type && rm && sbr && rescan);
	CHECK(unbind < type && type < rm && rm < sbr && sbr < rescan);
	CHECK(strstr(fix, "cold power cycle") != NULL);
	CHECK(strstr(fix, "/bind ") == NULL && strstr(fix, "drivers/nvidia/bind") == NULL);
	const struct fw_check_result *d = find(&rep, "gpu-driver-init");
	CHECK_EQ(d->status, FW_CHECK_FAIL);
	CHECK(strstr(d->explanation, "GPU 0000:44:00.0 (NVIDIA Corporation GB202GL [RTX PRO 6000 Blackwell Workstation Edition] (10de:2bb1), IOMMU "
				     "group 21, identity now)") != NULL);
	CHECK_MSG(strstr(d->explanation, "0x62:0xffff:2142") && strstr(d->explanation, "FSP error 0x177") &&
	      strstr(d->explanation, "Xid 79") && strstr(d->explanation, "probe error -1"), "%s", d->explanation);
	CHECK(strstr(d->explanation, "Cause: the failing GPUs' IOMMU groups are identity now") != NULL);
	CHECK(d->fix && strstr(d->fix, "setpci -s 0000:42:01.0") != NULL);
	/* faults logged before the switch are not put on the identity domain */
	const struct fw_check_result *f = find(&rep, "p2p-io-page-faults");
	CHECK(strstr(f->explanation, "translates every request in a identity") == NULL);
	CHECK_EQ(find(&rep, "kernel-iommu-mode")->status, FW_CHECK_WARN);
	CHECK(strstr(find(&rep, "kernel-iommu-mode")->explanation, "group 21 is identity now") != NULL);
	fw_doctor_report_free(&rep);
	fw_host_free(&h);
	fw_machine_close(m);
	/* the faulting GPU's own group identity now: the faults are dated, not blamed on identity */
	fw_sysroot_text(dir, "sys/kernel/iommu_groups/20/type", "identity\n");
	CHECK(run(dir, FW_PROFILE_ALL, &rep, &h, &m));
	f = find(&rep, "p2p-io-page-faults");
	CHECK(strstr(f->explanation, "IOMMU group 20 is identity now") != NULL);
	CHECK(strstr(f->explanation, "between 300.001000 and 300.005000 s after boot") != NULL);
	fw_doctor_report_free(&rep);
	fw_host_free(&h);
	fw_machine_close(m);
	fw_sysroot_remove(dir);
}

TEST(doctor_in_a_guest_gives_no_host_advice)
{
	char dir[] = "/tmp/fwlens-doctor.XXXXXX";
	CHECK(fw_sysroot_new(dir));
	uint8_t c[4096];
	fw_sysroot_cfg_gpu(c, 0x10DE, 0x2BB5, 5, 16);
	fw_sysroot_pci(dir, "pci0000:00/0000:00:10.0", c,
		       "0x00000000fd000000 0x00000000fdffffff 0x0000000000040200\n"
		       "0x0000038000000000 0x0000039fffffffff 0x000000000014220c\n",
		       -1, "nvidia", 5);
	fw_sysroot_text(dir, "proc/cpuinfo", "processor\t: 0\nflags\t\t: fpu sse2 hypervisor sev sev_es\n");
	fw_sysroot_text(dir, "sys/class/dmi/id/sys_vendor", "QEMU\n");
	fw_sysroot_text(dir, "proc/cmdline", "root=/dev/vda1\n");
	fw_sysroot_text(dir, "dev/sev-guest", "");
	fw_sysroot_text(dir, "var/log/dmesg", "[    0.0] Memory Encryption Features active: AMD SEV SEV-ES SEV-SNP\n");
	struct fw_doctor_report rep;
	struct fw_host h;
	struct fw_machine *m;
	CHECK(run(dir, FW_PROFILE_ALL, &rep, &h, &m));
	check_all_have_evidence(&rep, "guest");
	for (size_t i = 0; i < rep.count; i++) {
		const struct fw_check_result *r = &rep.results[i];
		CHECK_MSG(!r->fix || !strstr(r->fix, "SMEE"), "%s gives host BIOS advice in a guest", r->id);
		if (strncmp(r->id, "bios-", 5) == 0 || strncmp(r->id, "kernel-", 7) == 0 || strcmp(r->id, "cpu-flags") == 0)
			CHECK_MSG(r->status == FW_CHECK_SKIP && strstr(r->explanation, "virtual machine guest"), "%s", r->id);
	}
	CHECK_EQ(find(&rep, "guest-snp")->status, FW_CHECK_PASS);
	CHECK_EQ(find(&rep, "guest-gpus")->status, FW_CHECK_PASS);
	CHECK(evidence_has(find(&rep, "guest-gpus"), "0000:00:10.0 NVIDIA Corporation GB202GL [RTX PRO 6000 Blackwell Server Edition] (10de:2bb5): driver nvidia"));
	fw_doctor_report_free(&rep);
	fw_host_free(&h);
	fw_machine_close(m);
	/* SEV-ES only and no sev-guest node: not an SNP guest */
	fw_sysroot_text(dir, "var/log/dmesg", "[    0.0] Memory Encryption Features active: AMD SEV SEV-ES\n");
	CHECK(run(dir, FW_PROFILE_ALL, &rep, &h, &m));
	CHECK_EQ(find(&rep, "guest-snp")->status, FW_CHECK_FAIL);
	fw_doctor_report_free(&rep);
	fw_host_free(&h);
	fw_machine_close(m);
	fw_sysroot_remove(dir);
}

/* A plain VM as QEMU makes one: its std VGA, a NIC, an IOMMU of its own, no SEV. Nothing fails
 * with the default profile; asked for SNP or vfio by name, the guest checks do; judged as the host
 * under test (--role host) the host checks read its own IOMMU groups. */
TEST(doctor_plain_vm_and_role)
{
	char dir[] = "/tmp/fwlens-doctor.XXXXXX";
	CHECK(fw_sysroot_new(dir));
	uint8_t vga[4096], nic[4096];
	memset(vga, 0, sizeof(vga));
	fw_put_le16(vga, 0x1234);
	fw_put_le16(vga + 2, 0x1111);
	vga[0x0B] = 0x03;
	memset(nic, 0, sizeof(nic));
	fw_put_le16(nic, 0x8086);
	fw_put_le16(nic + 2, 0x10D3);
	nic[0x0B] = 0x02;
	fw_sysroot_pci(dir, "pci0000:00/0000:00:01.0", vga,
		       "0x00000000c0000000 0x00000000c0ffffff 0x0000000000042208\n", -1, "bochs-drm", 1);
	fw_sysroot_pci(dir, "pci0000:00/0000:00:02.0", nic,
		       "0x00000000c1000000 0x00000000c101ffff 0x0000000000040200\n", -1, "e1000e", 2);
	fw_sysroot_text(dir, "sys/kernel/iommu_groups/1/type", "DMA\n");
	fw_sysroot_text(dir, "sys/kernel/iommu_groups/2/type", "DMA\n");
	fw_sysroot_text(dir, "proc/cpuinfo", "processor\t: 0\nflags\t\t: fpu sse2 hypervisor\n");
	fw_sysroot_text(dir, "sys/class/dmi/id/sys_vendor", "QEMU\n");
	fw_sysroot_text(dir, "proc/cmdline", "console=ttyS0 intremap=off\n");
	fw_sysroot_text(dir, "var/log/dmesg", "[    0.5] iommu: Default domain type: Translated \n");
	struct fw_doctor_report rep;
	struct fw_host h;
	struct fw_machine *m;
	CHECK(run(dir, FW_PROFILE_ALL, &rep, &h, &m));
	check_all_have_evidence(&rep, "plain VM");
	CHECK_EQ(rep.fail, 0);
	CHECK_EQ(find(&rep, "guest-snp")->status, FW_CHECK_SKIP);
	CHECK(strstr(find(&rep, "guest-snp")->explanation, "A plain VM") != NULL);
	CHECK_EQ(find(&rep, "guest-gpus")->status, FW_CHECK_SKIP);
	CHECK(evidence_has(find(&rep, "guest-gpus"), "2 PCI devices, no GPU among them"));
	/* the VGA is no GPU: nothing to judge for NUMA nodes or BARs */
	CHECK_EQ(find(&rep, "gpu-numa")->status, FW_CHECK_SKIP);
	CHECK_EQ(find(&rep, "gpu-bars")->status, FW_CHECK_SKIP);
	CHECK_EQ(find(&rep, "iommu-group-types")->status, FW_CHECK_SKIP);
	fw_doctor_report_free(&rep);
	fw_host_free(&h);
	fw_machine_close(m);
	CHECK(run(dir, FW_PROFILE_SNP, &rep, &h, &m));
	CHECK_EQ(find(&rep, "guest-snp")->status, FW_CHECK_FAIL);
	fw_doctor_report_free(&rep);
	fw_host_free(&h);
	fw_machine_close(m);
	CHECK(run(dir, FW_PROFILE_VFIO, &rep, &h, &m));
	CHECK_EQ(find(&rep, "guest-gpus")->status, FW_CHECK_FAIL);
	fw_doctor_report_free(&rep);
	fw_host_free(&h);
	fw_machine_close(m);
	/* judged as the host under test: its own groups are read, the guest checks do not apply */
	CHECK(run_as(dir, FW_PROFILE_ALL, FW_ROLE_HOST, &rep, &h, &m));
	check_all_have_evidence(&rep, "role host");
	const struct fw_check_result *g = find(&rep, "iommu-group-types");
	CHECK_EQ(g->status, FW_CHECK_PASS);
	CHECK(evidence_has(g, "judged as the host under test (--role host), though a guest: the hypervisor flag in /proc/cpuinfo"));
	CHECK_EQ(find(&rep, "guest-snp")->status, FW_CHECK_SKIP);
	CHECK(strstr(find(&rep, "guest-snp")->explanation, "--role host") != NULL);
	fw_doctor_report_free(&rep);
	fw_host_free(&h);
	fw_machine_close(m);
	fw_sysroot_remove(dir);
}

/* The live probe never fails: each part is read or says why not (no root, no /dev/sev, no msr
 * module on a build machine). */
TEST(doctor_sev_probe_records_why_not)
{
	json_t *p = fw_sev_probe_live();
	CHECK_STR(json_string_value(json_object_get(p, "format")), "fwlens-sev-probe");
	json_t *parts[3] = {json_object_get(json_object_get(p, "platform"), "sev"),
			    json_object_get(json_object_get(p, "platform"), "snp"), json_object_get(p, "msr")};
	for (int i = 0; i < 3; i++) {
		CHECK(json_is_boolean(json_object_get(parts[i], "read")));
		if (json_is_false(json_object_get(parts[i], "read")))
			CHECK(json_string_length(json_object_get(parts[i], "why")) > 0);
	}
	json_decref(p);
}

/* Owners from Proxmox configurations: hostpci in its three forms, container device nodes matched
 * by the driver's device minor, snapshot sections ignored, a GPU claimed twice. */
TEST(doctor_gpu_owners_from_proxmox)
{
	char dir[] = "/tmp/fwlens-doctor.XXXXXX";
	CHECK(fw_sysroot_new(dir));
	build_host(dir, false);
	fw_sysroot_text(dir, "proc/driver/nvidia/gpus/0000:43:00.0/information",
			"Model: \t\t NVIDIA RTX PRO 6000 Blackwell Workstation Edition\nVideo BIOS: \t 98.02.6a.00.01\n"
			"Device Minor: \t 0\n");
	fw_sysroot_text(dir, "etc/pve/qemu-server/101.conf",
			"amd-sev: type=snp\nhostpci0: 61:00,pcie=1\n[snap1]\nhostpci1: 0000:44:00.0\n");
	fw_sysroot_text(dir, "etc/pve/lxc/300.conf", "lxc.mount.entry: /dev/nvidia0 dev/nvidia0 none bind,optional,create=file\n");
	struct fw_doctor_report rep;
	struct fw_host h;
	struct fw_machine *m;
	CHECK(run(dir, FW_PROFILE_ALL, &rep, &h, &m));
	const struct fw_pci_device *vm = fw_host_pci(&h, "0000:61:00.0"), *ct = fw_host_pci(&h, "0000:43:00.0"),
				   *host = fw_host_pci(&h, "0000:44:00.0");
	CHECK(vm && ct && host);
	CHECK_STR(vm->owner, "VM 101");
	CHECK(vm->owner_snp);
	CHECK_STR(vm->owner_from, "etc/pve/qemu-server/101.conf: hostpci0: 61:00,pcie=1");
	CHECK_STR(ct->owner, "container 300");
	CHECK_STR(ct->vbios, "98.02.6a.00.01");
	CHECK_STR(host->owner, "host"); /* the snapshot section's hostpci1 is an old state */
	CHECK_EQ(find(&rep, "gpu-assignment")->status, FW_CHECK_PASS);
	fw_doctor_report_free(&rep);
	fw_host_free(&h);
	fw_machine_close(m);
	/* the same GPU given to the VM as well: a conflict */
	fw_sysroot_text(dir, "etc/pve/qemu-server/101.conf", "hostpci0: 61:00;0000:43:00.0,pcie=1\n");
	CHECK(run(dir, FW_PROFILE_ALL, &rep, &h, &m));
	CHECK_EQ(find(&rep, "gpu-assignment")->status, FW_CHECK_FAIL);
	fw_doctor_report_free(&rep);
	fw_host_free(&h);
	fw_machine_close(m);
	fw_sysroot_remove(dir);
}

/* TCB versions split per CPU family (SEV-SNP ABI TCB_VERSION): a Genoa report's reported TCB
 * (boot loader 10, TEE 0, SNP 23, microcode 84) and a Turin one with its FMC byte; CPUID
 * Fn8000_001F as an EPYC reports it. */
TEST(sev_tcb_and_cpuid_decode)
{
	struct fw_snp_tcb t;
	CHECK(fw_snp_tcb_decode(0x19, 0x541700000000000aull, &t));
	CHECK_STR(t.layout, "Milan/Genoa");
	CHECK(!t.has_fmc);
	CHECK_EQ(t.boot_loader, 10u);
	CHECK_EQ(t.tee, 0u);
	CHECK_EQ(t.snp, 23u);
	CHECK_EQ(t.microcode, 84u);
	CHECK(fw_snp_tcb_decode(0x1A, 0x480000000b020903ull, &t));
	CHECK_STR(t.layout, "Turin");
	CHECK(t.has_fmc);
	CHECK_EQ(t.fmc, 3u);
	CHECK_EQ(t.boot_loader, 9u);
	CHECK_EQ(t.tee, 2u);
	CHECK_EQ(t.snp, 11u);
	CHECK_EQ(t.microcode, 72u);
	CHECK(!fw_snp_tcb_decode(0x17, 0x480000000b020903ull, &t)); /* Rome: no SNP, no layout */
	CHECK_EQ(t.raw, 0x480000000b020903ull);
	struct fw_sev_cpuid c;
	CHECK(fw_sev_cpuid_facts(0x0101fd3f, 0x4073, 1006, 100, &c));
	CHECK(c.sme && c.sev && c.sev_es && c.snp && c.vmpl);
	CHECK_EQ(c.c_bit, 51u);
	CHECK_EQ(c.phys_addr_reduction, 1u);
	CHECK_EQ(c.vmpls, 4u);
	CHECK_EQ(c.encrypted_guests, 1006u);
	CHECK_EQ(c.min_sev_asid, 100u);
	CHECK(!fw_sev_cpuid_facts(0, 0, 0, 0, &c));
}
