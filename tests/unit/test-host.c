/* PCI config space decoding and host facts from a machine folder built here. */
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "harness.h"
#include "tools/host/pci-config.h"
#include "tools/host/pci-names.h"
#include "parsers/view.h"
#include "tools/host/host.h"
#include "tools/host/kernel-log.h"
#include "sysroot.h"

/* A Turin-like root port: PCIe cap at 0x58 (root port, Gen5 x16), ACS at 0x2a0 as lspci shows. */
static void make_root_port(uint8_t *c)
{
	memset(c, 0, 4096);
	fw_put_le16(c + 0x00, 0x1022);
	fw_put_le16(c + 0x02, 0x14AB);
	fw_put_le16(c + 0x06, 0x0010); /* capabilities list */
	c[0x09] = 0x00, c[0x0A] = 0x04, c[0x0B] = 0x06; /* PCI bridge */
	c[0x0E] = 0x81; /* type 1, multi-function */
	c[0x18] = 0x40, c[0x19] = 0x41, c[0x1A] = 0x43;
	c[0x34] = 0x50;
	c[0x50] = 0x01, c[0x51] = 0x58; /* power management -> PCIe */
	c[0x58] = 0x10, c[0x59] = 0x00;
	fw_put_le16(c + 0x5A, 0x0042);  /* version 2, port type 4 (root port) */
	fw_put_le32(c + 0x64, 0x00000105); /* LnkCap: Gen5, x16 */
	fw_put_le16(c + 0x6A, 0x0105);     /* LnkSta: Gen5, x16 */
	/* extended capabilities: AER at 0x100 -> ARI at 0x150 -> ACS at 0x2a0 */
	fw_put_le32(c + 0x100, 0x15010001);
	fw_put_le32(c + 0x150, 0x2A01000E);
	fw_put_le32(c + 0x2A0, 0x0001000D);
	fw_put_le16(c + 0x2A4, 0x005F); /* SV TB RR CR UF DT */
	fw_put_le16(c + 0x2A6, 0x001D); /* SV RR CR UF set, as Linux does */
}

TEST(pci_config_root_port)
{
	uint8_t c[4096];
	make_root_port(c);
	struct fw_pci_config cfg;
	CHECK(fw_pci_config_decode(c, sizeof(c), &cfg));
	CHECK_EQ(cfg.vendor, 0x1022);
	CHECK(cfg.bridge && cfg.multifunction);
	CHECK_EQ(cfg.secondary_bus, 0x41);
	CHECK_EQ(cfg.subordinate_bus, 0x43);
	CHECK(cfg.has_pcie);
	CHECK_EQ(cfg.pcie_port_type, FW_PCIE_ROOT_PORT);
	CHECK_EQ(cfg.link_cap_speed, 5);
	CHECK_EQ(cfg.link_width, 16);
	CHECK(cfg.has_ari);
	CHECK(cfg.has_acs);
	CHECK_EQ(cfg.acs_offset, 0x2A0);
	CHECK_EQ(cfg.acs_ctl, 0x001D);
	char buf[128];
	CHECK_STR(fw_pci_acs_str(cfg.acs_ctl, cfg.acs_cap, buf, sizeof(buf)),
		  "SrcValid+ TransBlk- ReqRedir+ CmpltRedir+ UpstreamFwd+ DirectTrans-");
	CHECK_EQ(cfg.ext_cap_count, 3);
	CHECK(!cfg.cap_loop);
	CHECK_STR(fw_pci_class_name(cfg.class_code), "PCI bridge");
}

TEST(pci_config_short_reads_and_loops)
{
	uint8_t c[4096];
	make_root_port(c);
	struct fw_pci_config cfg;
	/* an unprivileged read gives 64 bytes: header only, nothing guessed */
	CHECK(fw_pci_config_decode(c, 64, &cfg));
	CHECK(!cfg.has_pcie && !cfg.extended_known && !cfg.has_acs);
	CHECK(!fw_pci_config_decode(c, 63, &cfg));
	/* a capability list that points back to itself ends with cap_loop, not a hang */
	c[0x59] = 0x50;
	fw_put_le32(c + 0x2A0, 0x1001000D); /* ACS -> 0x100 again */
	CHECK(fw_pci_config_decode(c, sizeof(c), &cfg));
	CHECK(cfg.cap_loop);
}

#define put_file fw_sysroot_file
#define put_link fw_sysroot_link

TEST(host_facts_from_a_folder)
{
	char dir[] = "/tmp/fwlens-host.XXXXXX";
	CHECK(mkdtemp(dir) != NULL);
	uint8_t rp[4096], gpu[4096];
	make_root_port(rp);
	memset(gpu, 0, sizeof(gpu));
	fw_put_le16(gpu, 0x10DE);
	fw_put_le16(gpu + 2, 0x2BB1);
	gpu[0x0B] = 0x03;
	put_file(dir, "sys/devices/pci0000:40/0000:40:01.1/config", rp, sizeof(rp));
	put_file(dir, "sys/devices/pci0000:40/0000:40:01.1/0000:41:00.0/config", gpu, sizeof(gpu));
	const char *res = "0x000000f000000000 0x000000f0ffffffff 0x0000000000140204\n"
			  "0x0000000000000000 0x0000000000000000 0x0000000000000000\n"
			  "0x0000002000000000 0x0000003fffffffff 0x000000000014220c\n";
	put_file(dir, "sys/devices/pci0000:40/0000:40:01.1/0000:41:00.0/resource", res, strlen(res));
	put_file(dir, "sys/devices/pci0000:40/0000:40:01.1/0000:41:00.0/numa_node", "0\n", 2);
	put_link(dir, "sys/bus/pci/devices/0000:40:01.1", "../../../devices/pci0000:40/0000:40:01.1");
	put_link(dir, "sys/bus/pci/devices/0000:41:00.0", "../../../devices/pci0000:40/0000:40:01.1/0000:41:00.0");
	put_link(dir, "sys/devices/pci0000:40/0000:40:01.1/0000:41:00.0/iommu_group", "../../../../kernel/iommu_groups/12");
	put_link(dir, "sys/devices/pci0000:40/0000:40:01.1/0000:41:00.0/driver", "../../../../bus/pci/drivers/vfio-pci");
	put_file(dir, "sys/kernel/iommu_groups/12/type", "DMA-FQ\n", 7);
	put_link(dir, "sys/kernel/iommu_groups/12/devices/0000:41:00.0", "../../../../devices/pci0000:40/0000:40:01.1/0000:41:00.0");
	const char *cmd = "BOOT_IMAGE=/vmlinuz root=/dev/md0 amd_iommu=on iommu=pt quiet \"foo=a b\" bar=\"c d\" iommu=nopt -- init=x\n";
	put_file(dir, "proc/cmdline", cmd, strlen(cmd));
	const char *log = "[   1.0] AMD-Vi: IOMMU SNP support enabled.\n"
			  "[  99.1] nvidia 0000:41:00.0: AMD-Vi: Event logged [IO_PAGE_FAULT domain=0x0012 address=0x2000001000 flags=0x0020]\n"
			  "[  99.2] AMD-Vi: Event logged [IO_PAGE_FAULT device=41:00.0 domain=0x0012 address=0xf000000040 flags=0x0000]\n";
	put_file(dir, "var/log/dmesg", log, strlen(log));
	put_file(dir, "sys/module/kvm_amd/parameters/sev_snp", "Y\n", 2);

	struct fw_machine *m;
	struct fw_error err;
	CHECK(fw_machine_open(dir, &m, &err));
	struct fw_host h;
	CHECK(fw_host_load(m, &h, &err));
	CHECK_EQ(h.npci, 2);
	struct fw_pci_device *g = fw_host_pci(&h, "41:00.0");
	CHECK(g != NULL);
	CHECK_STR(g->bdf, "0000:41:00.0");
	CHECK(g->parent == fw_host_pci(&h, "0000:40:01.1"));
	CHECK_STR(g->root_bus, "0000:40");
	CHECK_STR(g->driver, "vfio-pci");
	CHECK_EQ(g->iommu_group, 12);
	CHECK_EQ(g->numa_node, 0);
	CHECK_EQ(g->bars[2].start, 0x2000000000ULL);
	CHECK_STR(fw_host_group(&h, 12)->type, "DMA-FQ");
	bool present;
	CHECK_STR(fw_host_option(&h, "iommu", &present), "nopt");
	CHECK_STR(fw_host_option(&h, "amd_iommu", &present), "on");
	CHECK_STR(fw_host_option(&h, "foo", &present), "a b");
	CHECK_STR(fw_host_option(&h, "bar", &present), "c d");
	CHECK(fw_host_option(&h, "quiet", &present) == NULL && present);
	CHECK(fw_host_option(&h, "init", &present) == NULL && !present);
	CHECK_STR(h.kvm_sev_snp, "Y");
	CHECK_EQ(h.nfaults, 2);
	CHECK_STR(h.faults[0].device, "0000:41:00.0");
	CHECK_STR(h.faults[0].event, "IO_PAGE_FAULT");
	CHECK_EQ(h.faults[0].domain, 0x12);
	CHECK_EQ(h.faults[0].address, 0x2000001000ULL);
	CHECK_STR(h.faults[1].device, "0000:41:00.0");
	CHECK_EQ(h.faults[1].address, 0xF000000040ULL);
	int bar = -1;
	CHECK(fw_host_bar_owner(&h, 0xF000000040ULL, &bar) == g);
	CHECK_EQ(bar, 0);
	CHECK_EQ(fw_host_log_lines(&h, "SNP support enabled", NULL, 0), 1);
	fw_host_free(&h);
	fw_machine_close(m);
	fw_sysroot_remove(dir);
}

/* Device names from the PCI ID database (the tests' list, tests/data/pci/pci.ids): the name with
 * the ids beside it; the ids alone for a device or vendor the list lacks. */
TEST(pci_device_names_from_the_id_list)
{
	char buf[160];
	CHECK_STR(fw_pci_device_name(0x10DE, 0x2BB5, buf, sizeof(buf)),
		  "NVIDIA Corporation GB202GL [RTX PRO 6000 Blackwell Server Edition] (10de:2bb5)");
	CHECK_STR(fw_pci_device_name(0x10DE, 0x2BB1, buf, sizeof(buf)),
		  "NVIDIA Corporation GB202GL [RTX PRO 6000 Blackwell Workstation Edition] (10de:2bb1)");
	CHECK_STR(fw_pci_device_name(0x10DE, 0xFFF0, buf, sizeof(buf)), "10de:fff0");
	CHECK_STR(fw_pci_device_name(0x1234, 0x5678, buf, sizeof(buf)), "1234:5678");
	CHECK_STR(fw_pci_device_name(0x10DE, 0x2BB5, buf, 12), "NVIDIA Corp"); /* cut, never overrun */
}

/* Which display controllers are GPUs: emulated and BMC adapters are not (QEMU's std VGA was
 * taken for a GPU inside a VM). */
TEST(pci_gpu_classification)
{
	static const struct {
		uint16_t vendor, device;
		uint32_t class_code;
		bool gpu;
	} cases[] = {
		{0x10DE, 0x2BB5, 0x030200, true},  /* NVIDIA RTX PRO 6000 Blackwell Server */
		{0x1002, 0x74A1, 0x120000, true},  /* AMD Instinct (processing accelerator) */
		{0x8086, 0x56C0, 0x038000, true},  /* Intel Data Center GPU Flex */
		{0x1234, 0x1111, 0x030000, false}, /* QEMU std VGA / Bochs */
		{0x1AF4, 0x1050, 0x038000, false}, /* virtio-gpu */
		{0x1B36, 0x0100, 0x030000, false}, /* QXL */
		{0x15AD, 0x0405, 0x030000, false}, /* VMware SVGA II */
		{0x1013, 0x00B8, 0x030000, false}, /* Cirrus */
		{0x1A03, 0x2000, 0x030000, false}, /* ASPEED BMC VGA */
		{0x1B36, 0x000C, 0x060400, false}, /* a root port */
		{0x8086, 0x10D3, 0x020000, false}, /* a NIC */
		{0x1234, 0x0001, 0x120000, false}, /* class 12h of no GPU vendor */
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct fw_pci_device d;
		memset(&d, 0, sizeof(d));
		d.have_config = true;
		d.cfg.vendor = cases[i].vendor;
		d.cfg.device = cases[i].device;
		d.cfg.class_code = cases[i].class_code;
		CHECK_EQ(fw_pci_is_gpu(&d), cases[i].gpu);
	}
	struct fw_pci_device none;
	memset(&none, 0, sizeof(none));
	CHECK(!fw_pci_is_gpu(&none));
}

/* /dev/kmsg records as dmesg lines: the header gives the time, continuation lines are dropped, a
 * line without a header is kept as it is; a file of records reads like the device. */
TEST(kernel_log_from_kmsg_records)
{
	const char *rec = "6,512,1234567,-;AMD-Vi: Event logged [IO_PAGE_FAULT device=41:00.0 domain=0x0012 address=0x2000001000 flags=0x0020]\n"
			  " SUBSYSTEM=pci\n"
			  " DEVICE=+pci:0000:41:00.0\n"
			  "4,513,98000001,c,more;iommu: Default domain type: Translated \n"
			  "no header here\n"
			  "12,514,0,-;\\x1b[31mescaped\n";
	size_t n;
	char *out = fw_kernel_log_from_kmsg(rec, strlen(rec), &n);
	CHECK_STR(out, "[    1.234567] AMD-Vi: Event logged [IO_PAGE_FAULT device=41:00.0 domain=0x0012 address=0x2000001000 flags=0x0020]\n"
		       "[   98.000001] iommu: Default domain type: Translated \n"
		       "no header here\n"
		       "[    0.000000] \\x1b[31mescaped\n");
	CHECK_EQ(n, strlen(out));
	free(out);
	out = fw_kernel_log_from_kmsg("", 0, &n);
	CHECK_EQ(n, 0);
	free(out);

	char dir[] = "/tmp/fwlens-kmsg.XXXXXX";
	CHECK(mkdtemp(dir) != NULL);
	char path[64];
	snprintf(path, sizeof(path), "%s/kmsg", dir);
	put_file(dir, "kmsg", rec, strlen(rec));
	uint8_t *data;
	char why[128];
	CHECK(fw_kernel_log_kmsg(path, &data, &n, why, sizeof(why)));
	CHECK(n > 0 && strncmp((const char *)data, "[    1.234567] AMD-Vi: Event logged", 35) == 0);
	free(data);
	put_file(dir, "empty", "", 0);
	snprintf(path, sizeof(path), "%s/empty", dir);
	CHECK(!fw_kernel_log_kmsg(path, &data, &n, why, sizeof(why)));
	CHECK_STR(why, "no records");
	snprintf(path, sizeof(path), "%s/absent", dir);
	CHECK(!fw_kernel_log_kmsg(path, &data, &n, why, sizeof(why)));
	CHECK_STR(why, "No such file or directory");
	fw_sysroot_remove(dir);
}

/* Device history: the log forms give the same events with their times; a journal's boot marker
 * keeps only the last boot; the latest state tells history from current errors. */
TEST(host_device_history_forms_and_state)
{
	struct fw_dev_history h;
	fw_dev_history_parse("[ 7602.300100] NVRM: GPU 0000:23:00.0: RmInitAdapter failed! (0x62:0xffff:2142)\n"
			     "6,900,7602300400,-;nvidia: probe of 0000:23:00.0 failed with error -1\n"
			     "Dec 05 06:19:32 pve kernel: pci 0000:23:00.0: Removing from iommu group 13\n"
			     "2026-12-05T06:19:33+0000 pve kernel: pci 0000:23:00.0: [10de:2bb5] type 00 class 0x030200\n"
			     "[ 7701.000100] pve kernel: pci 0000:23:00.0: Adding to iommu group 13\n"
			     "[Sat Dec  5 06:19:34 2026] nvidia 0000:23:00.0: enabling device (0000 -> 0002)\n"
			     "Dec 05 06:19:35 pve sshd[1]: pci 0000:23:00.0: Removing from iommu group 13\n"
			     "[ 7702.0] vfio-pci 0000:41:00.0: AMD-Vi: Event logged [IO_PAGE_FAULT domain=0x0012 address=0x1000 flags=0x0]\n"
			     "[ 7703.0] AMD-Vi: Event logged [IO_PAGE_FAULT device=41:00.0 domain=0x0012 address=0x2000 flags=0x0]\n"
			     "[ 7704.0] NVRM: Xid (PCI:0000:41:00): 79, pid=1, GPU has fallen off the bus.\n"
			     "[ 7705.0] amdgpu 0000:c1:00.0: probe with driver amdgpu failed with error -22\n",
			     &h);
	CHECK_EQ(h.count, (size_t)11 - 1); /* sshd's line is not the kernel's */
	CHECK_EQ(h.events[0].kind, FW_DEV_DRIVER_ERROR);
	CHECK(strcmp(h.events[0].what, "RmInitAdapter failed (0x62:0xffff:2142)") == 0);
	CHECK(strcmp(h.events[0].when, "7602.300100 s") == 0);
	CHECK_EQ(h.events[1].kind, FW_DEV_PROBE_FAILED);
	CHECK(strcmp(h.events[1].when, "7602.300400 s") == 0 && strcmp(h.events[1].what, "probe error -1") == 0);
	CHECK_EQ(h.events[2].kind, FW_DEV_REMOVED);
	CHECK(strcmp(h.events[2].when, "Dec 05 06:19:32") == 0 && h.events[2].group == 13);
	CHECK_EQ(h.events[3].kind, FW_DEV_ENUMERATED);
	CHECK(strcmp(h.events[3].when, "2026-12-05T06:19:33+0000") == 0);
	CHECK_EQ(h.events[4].kind, FW_DEV_GROUP);
	CHECK_EQ(h.events[5].kind, FW_DEV_ENABLED);
	CHECK(strcmp(h.events[5].driver, "nvidia") == 0 && strcmp(h.events[5].when, "Sat Dec  5 06:19:34 2026") == 0);
	CHECK(h.events[6].kind == FW_DEV_FAULT && strcmp(h.events[6].driver, "vfio-pci") == 0);
	CHECK(h.events[7].kind == FW_DEV_FAULT && strcmp(h.events[7].bdf, "0000:41:00.0") == 0);
	CHECK(strcmp(h.events[8].what, "Xid 79") == 0 && strcmp(h.events[8].bdf, "0000:41:00.0") == 0);
	CHECK(h.events[9].kind == FW_DEV_PROBE_FAILED && strcmp(h.events[9].driver, "amdgpu") == 0);
	struct fw_dev_state st;
	fw_dev_state(&h, "0000:23:00.0", &st);
	CHECK(st.recovered && st.errors == 2 && st.errors_current == 0);
	CHECK(st.reenumerated == &h.events[3] && st.start == &h.events[5] && !st.removed);
	fw_dev_state(&h, "0000:41:00.0", &st);
	CHECK(!st.recovered && st.errors_current == 1 && st.faults == 2 && !st.start);
	fw_dev_history_free(&h);

	/* two boots: only the last one's events */
	fw_dev_history_parse("[    0.000000] Linux version 6.14.8-2-pve\n"
			     "[  900.1] NVRM: GPU 0000:23:00.0: RmInitAdapter failed! (0x62:0xffff:2142)\n"
			     "-- Boot 0123456789abcdef0123456789abcdef --\n"
			     "[    0.000000] pve kernel: Linux version 6.14.8-2-pve\n"
			     "[   10.5] pve kernel: nvidia 0000:23:00.0: enabling device (0000 -> 0002)\n",
			     &h);
	CHECK_EQ(h.earlier_boots, (size_t)1);
	CHECK_EQ(h.count, (size_t)1);
	fw_dev_state(&h, "0000:23:00.0", &st);
	CHECK(st.errors == 0 && st.start);
	fw_dev_history_free(&h);
}
