/* The machine snapshots: a folder laid out like a live Linux root, so that tools read it as they
 * read "/" (sysfs, procfs, the kernel log). Everything comes from the topology (topology.c), the
 * ACPI tables (acpi.c, asl.c) and the setup model of the same build (forms-*.c), so bus numbers,
 * IOMMU device ids, proximity domains, IOMMU groups and varstore offsets agree across files.
 *
 * The two snapshots tell the story of reference/domain.md 0: 1104 with NPS1, SEV-SNP on, the
 * IOMMU translating, Linux-enabled ACS redirect on every bridge and IO_PAGE_FAULTs between two
 * host GPUs behind one switch; 1201 with NPS4 and ACS redirect turned off on that switch
 * (pci=disable_acs_redir), which merges its IOMMU groups and leaves the faults on the other one. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "acpi.h"
#include "build.h"
#include "parsers/view.h"
#include "topology.h"

#define GIB (1ull << 30)

static struct topology topologies[2];
static bool built[2];

const struct topology *topology_for(const struct variant *v)
{
	int i = v->version >= 1201;
	if (!built[i]) {
		topology_build(&topologies[i], v->nps, v->version >= 1201);
		built[i] = true;
	}
	return &topologies[i];
}

/* ---- paths ---- */

/* A relative link target from the folder `from` to `to` (both relative to the root), the way
 * sysfs writes them: up to the common folder, then down ("../../../devices/pci0000:00/..."). */
static const char *rel_target(const char *from, const char *to)
{
	size_t common = 0, fl = strlen(from);
	if (strncmp(from, to, fl) == 0 && to[fl] == '/') {
		common = fl + 1; /* `to` lies below `from` */
	} else {
		for (size_t i = 0; from[i] && from[i] == to[i]; i++)
			if (from[i] == '/')
				common = i + 1;
	}
	char *up = sample_strdup("");
	if (from[common]) {
		up = sample_strdup("../");
		for (const char *p = from + common; *p; p++)
			if (*p == '/')
				up = sample_printf("%s../", up);
	}
	return sample_printf("%s%s", up, to + common);
}

static const char *dev_path(const struct topology *t, const struct topo_dev *d)
{
	if (d->parent < 0)
		return sample_printf("sys/devices/pci0000:%02x/%s", t->rbs[d->rb].bus, topo_bdf(d));
	return sample_printf("%s/%s", dev_path(t, &t->devs[d->parent]), topo_bdf(d));
}

/* ---- PCI config space ---- */

struct cfg {
	uint8_t b[4096];
	uint8_t last_cap, last_ext;
	uint16_t last_ext_off;
};

static void w8(struct cfg *c, size_t o, uint8_t v) { c->b[o] = v; }
static void w16(struct cfg *c, size_t o, uint16_t v) { fw_put_le16(c->b + o, v); }
static void w32(struct cfg *c, size_t o, uint32_t v) { fw_put_le32(c->b + o, v); }

static void cap(struct cfg *c, uint8_t off, uint8_t id)
{
	if (c->last_cap)
		w8(c, c->last_cap + 1u, off);
	else
		w8(c, 0x34, off);
	w8(c, off, id);
	c->last_cap = off;
}

static void ext_cap(struct cfg *c, uint16_t off, uint16_t id, uint8_t version)
{
	if (c->last_ext_off)
		w32(c, c->last_ext_off, fw_le32(c->b + c->last_ext_off) | ((uint32_t)off << 20));
	w32(c, off, id | ((uint32_t)version << 16));
	c->last_ext_off = off;
}

static void bar(struct cfg *c, int index, const struct topo_bar *b)
{
	size_t o = 0x10 + 4u * (unsigned)index;
	if (!b->size)
		return;
	uint32_t flags = (b->is64 ? 0x4u : 0) | (b->prefetch ? 0x8u : 0);
	w32(c, o, (uint32_t)b->base | flags);
	if (b->is64)
		w32(c, o + 4, (uint32_t)(b->base >> 32));
}

static void pcie_cap(struct cfg *c, const struct topo_dev *d, uint8_t port_type, bool slot)
{
	cap(c, 0x58, 0x10);
	w16(c, 0x5A, (uint16_t)(0x0002 | port_type << 4 | (slot ? 0x0100 : 0)));
	w32(c, 0x5C, 0x00008FE2u);                                    /* DevCap: 512 B payload, role-based errors */
	w16(c, 0x60, 0x2930);                                         /* DevCtl */
	w32(c, 0x64, (uint32_t)(5 | 16 << 4 | 0x0C00 | (uint32_t)d->dev << 24)); /* LinkCap: 32 GT/s x16 */
	w16(c, 0x68, 0x0040);
	w16(c, 0x6A, (uint16_t)(d->link_speed | d->link_width << 4 | 0x1000 | (port_type == 4 || port_type == 6 ? 0x2000 : 0)));
	if (slot)
		w32(c, 0x6C, (uint32_t)((d->bus + d->dev) << 19 | 0x60));
	w32(c, 0x7C, 0x00070000u | (port_type == 4 || port_type == 6 ? 0x20u : 0)); /* DevCap2: 10-bit tags, ARI fwd */
	w32(c, 0x84, 0x0000003Eu);                                    /* LinkCap2: 2.5-32 GT/s */
	w16(c, 0x88, 0x0005);                                         /* LinkCtl2: target 32 GT/s */
}

static void config_space(const struct topology *t, const struct topo_dev *d, struct cfg *c)
{
	memset(c, 0, sizeof(*c));
	w16(c, 0x00, d->vendor);
	w16(c, 0x02, d->device);
	w16(c, 0x04, d->driver ? 0x0406 : 0x0000);
	w16(c, 0x06, 0x0010);
	w8(c, 0x08, d->revision);
	w8(c, 0x09, (uint8_t)d->class_code);
	w8(c, 0x0A, (uint8_t)(d->class_code >> 8));
	w8(c, 0x0B, (uint8_t)(d->class_code >> 16));
	w8(c, 0x0C, 0x10);
	bool bridge = d->kind == DEV_ROOT_PORT || d->kind == DEV_SWITCH_UP || d->kind == DEV_SWITCH_DOWN ||
		      (d->class_code >> 8) == 0x0604;
	bool multi = false;
	for (int i = 0; i < t->ndevs; i++)
		if (&t->devs[i] != d && t->devs[i].bus == d->bus && t->devs[i].dev == d->dev)
			multi = true;
	w8(c, 0x0E, (uint8_t)((bridge ? 1 : 0) | (multi ? 0x80 : 0)));
	if (bridge) {
		w8(c, 0x18, d->bus);
		w8(c, 0x19, d->secondary);
		w8(c, 0x1A, d->subordinate);
		w8(c, 0x1C, 0xF1); /* I/O window closed */
		w8(c, 0x1D, 0x01);
		if (d->mem_limit) {
			w16(c, 0x20, (uint16_t)((d->mem_base >> 16) & 0xFFF0));
			w16(c, 0x22, (uint16_t)((d->mem_limit >> 16) & 0xFFF0));
		} else {
			w16(c, 0x20, 0xFFF0);
		}
		if (d->pref_limit) {
			w16(c, 0x24, (uint16_t)(((d->pref_base >> 16) & 0xFFF0) | 1));
			w16(c, 0x26, (uint16_t)(((d->pref_limit >> 16) & 0xFFF0) | 1));
			w32(c, 0x28, (uint32_t)(d->pref_base >> 32));
			w32(c, 0x2C, (uint32_t)(d->pref_limit >> 32));
		} else {
			w16(c, 0x24, 0xFFF1);
			w16(c, 0x26, 0x0001);
		}
		w16(c, 0x3E, 0x0012);
	} else {
		for (int i = 0; i < 6; i++)
			bar(c, i, &d->bars[i]);
		w16(c, 0x2C, d->subsys_vendor);
		w16(c, 0x2E, d->subsys_device);
	}
	if (d->kind == DEV_GPU)
		w8(c, 0x3D, 1);

	switch (d->kind) {
	case DEV_IOMMU:
		/* the IOMMU capability the IVHD points at (offset 0x40) */
		cap(c, 0x40, 0x0F);
		w32(c, 0x40, fw_le32(c->b + 0x40) | 0x19030000u);
		w32(c, 0x44, (uint32_t)t->rbs[d->rb].iommu_base | 1);
		w32(c, 0x48, (uint32_t)(t->rbs[d->rb].iommu_base >> 32));
		cap(c, 0x64, 0x05);
		break;
	case DEV_ROOT_PORT:
	case DEV_SWITCH_UP:
	case DEV_SWITCH_DOWN: {
		cap(c, 0x50, 0x01);
		w16(c, 0x52, 0x0003);
		uint8_t type = d->kind == DEV_ROOT_PORT ? 4 : d->kind == DEV_SWITCH_UP ? 5 : 6;
		pcie_cap(c, d, type, type != 5);
		cap(c, 0xA0, 0x05);
		cap(c, 0xC0, 0x0D);
		w16(c, 0xC4, d->subsys_vendor);
		w16(c, 0xC6, d->subsys_device);
		ext_cap(c, 0x100, 0x0001, 2); /* AER */
		if (d->kind == DEV_ROOT_PORT) {
			ext_cap(c, 0x270, 0x0019, 1); /* Secondary PCIe */
		} else {
			ext_cap(c, 0x148, 0x0019, 1);
		}
		if (d->acs_offset) {
			ext_cap(c, d->acs_offset, 0x000D, 1);
			w16(c, d->acs_offset + 4u, d->acs_cap);
			w16(c, d->acs_offset + 6u, d->acs_ctrl);
		}
		ext_cap(c, d->kind == DEV_ROOT_PORT ? 0x400 : 0x1B0, 0x0025, 1); /* Data Link Feature */
		ext_cap(c, d->kind == DEV_ROOT_PORT ? 0x450 : 0x1C0, 0x002A, 1); /* Physical Layer 32 GT/s */
		break;
	}
	case DEV_GPU:
		cap(c, 0x50, 0x01);
		w16(c, 0x52, 0x0003);
		pcie_cap(c, d, 0, false);
		cap(c, 0xA0, 0x05);
		cap(c, 0xC0, 0x11); /* MSI-X */
		w16(c, 0xC2, 0x0008);
		ext_cap(c, 0x100, 0x0002, 1); /* Virtual Channel */
		ext_cap(c, 0x128, 0x0004, 1); /* Power Budgeting */
		ext_cap(c, 0x420, 0x0001, 2); /* AER */
		ext_cap(c, 0x900, 0x0019, 1);
		ext_cap(c, 0xBB0, 0x0015, 1); /* Resizable BAR: BAR1 at 128 GiB */
		w32(c, 0xBB4, 0x003FFFF0u);
		w32(c, 0xBB8, 0x00001121u);
		ext_cap(c, 0xE00, 0x002A, 1);
		break;
	default:
		break;
	}
}

/* ---- sysfs PCI ---- */

static const char *speed_text(int s)
{
	static const char *const names[] = {"Unknown", "2.5 GT/s PCIe", "5.0 GT/s PCIe", "8.0 GT/s PCIe", "16.0 GT/s PCIe",
					    "32.0 GT/s PCIe"};
	return s >= 1 && s <= 5 ? names[s] : names[0];
}

static void write_resource(const char *dir, const struct topo_dev *d, bool bridge)
{
	struct sbuf r = {0};
	int lines = bridge ? 17 : 13;
	for (int i = 0; i < lines; i++) {
		uint64_t s = 0, e = 0, f = 0;
		if (!bridge && i < 6 && d->bars[i].size) {
			s = d->bars[i].base;
			e = s + d->bars[i].size - 1;
			f = d->bars[i].is64 ? (d->bars[i].prefetch ? 0x14220C : 0x140204) : 0x40200;
		} else if (bridge && i == 14 && d->mem_limit) {
			s = d->mem_base, e = d->mem_limit, f = 0x200;
		} else if (bridge && i == 15 && d->pref_limit) {
			s = d->pref_base, e = d->pref_limit, f = 0x102201;
		}
		sb_printf(&r, "0x%016llx 0x%016llx 0x%016llx\n", (unsigned long long)s, (unsigned long long)e,
			  (unsigned long long)f);
	}
	out_write(sample_printf("%s/resource", dir), r.p, r.len);
	sb_free(&r);
}

static void write_pci(const struct topology *t)
{
	for (int i = 0; i < t->ndevs; i++) {
		const struct topo_dev *d = &t->devs[i];
		const char *dir = dev_path(t, d);
		const char *bdf = topo_bdf(d);
		struct cfg c;
		config_space(t, d, &c);
		out_write(sample_printf("%s/config", dir), c.b, sizeof(c.b));
		out_text(sample_printf("%s/vendor", dir), "0x%04x\n", d->vendor);
		out_text(sample_printf("%s/device", dir), "0x%04x\n", d->device);
		out_text(sample_printf("%s/subsystem_vendor", dir), "0x%04x\n", d->subsys_vendor);
		out_text(sample_printf("%s/subsystem_device", dir), "0x%04x\n", d->subsys_device);
		out_text(sample_printf("%s/class", dir), "0x%06x\n", d->class_code);
		out_text(sample_printf("%s/revision", dir), "0x%02x\n", d->revision);
		int pxm = topo_rb_pxm(t, &t->rbs[d->rb]);
		out_text(sample_printf("%s/numa_node", dir), "%d\n", pxm);
		out_text(sample_printf("%s/local_cpulist", dir), "%s\n", topo_cpulist(t, pxm));
		out_text(sample_printf("%s/enable", dir), "%d\n", d->driver ? 1 : 0);
		bool bridge = (d->class_code >> 8) == 0x0604;
		write_resource(dir, d, bridge);
		if (d->kind == DEV_ROOT_PORT || d->kind == DEV_SWITCH_UP || d->kind == DEV_SWITCH_DOWN || d->kind == DEV_GPU) {
			out_text(sample_printf("%s/current_link_speed", dir), "%s\n", speed_text(d->link_speed));
			out_text(sample_printf("%s/current_link_width", dir), "%d\n", d->link_width);
			out_text(sample_printf("%s/max_link_speed", dir), "%s\n", speed_text(5));
			out_text(sample_printf("%s/max_link_width", dir), "16\n");
		}
		if (d->driver) {
			out_mkdirs(sample_printf("sys/bus/pci/drivers/%s", d->driver));
			out_symlink(sample_printf("%s/driver", dir),
				    rel_target(dir, sample_printf("sys/bus/pci/drivers/%s", d->driver)));
			out_symlink(sample_printf("sys/bus/pci/drivers/%s/%s", d->driver, bdf),
				    rel_target(sample_printf("sys/bus/pci/drivers/%s", d->driver), dir));
		}
		if (d->group >= 0) {
			const char *gdir = sample_printf("sys/kernel/iommu_groups/%d", d->group);
			out_symlink(sample_printf("%s/iommu_group", dir), rel_target(dir, gdir));
			out_symlink(sample_printf("%s/devices/%s", gdir, bdf), rel_target(sample_printf("%s/devices", gdir), dir));
		}
		out_symlink(sample_printf("sys/bus/pci/devices/%s", bdf), rel_target("sys/bus/pci/devices", dir));
		if (d->kind == DEV_IOMMU) {
			int n = d->rb;
			const char *idir = sample_printf("%s/iommu/ivhd%d", dir, n);
			out_text(sample_printf("%s/amd-iommu/features", idir), "%llx:%llx\n", (unsigned long long)acpi_iommu_efr(),
				 (unsigned long long)acpi_iommu_efr2());
			/* the capability header dword at the offset IVHD names (0x40) */
			out_text(sample_printf("%s/amd-iommu/cap", idir), "%x\n", fw_le32(c.b + 0x40));
			out_symlink(sample_printf("sys/class/iommu/ivhd%d", n), rel_target("sys/class/iommu", idir));
		}
	}
	for (int g = 0; g < t->ngroups; g++)
		out_text(sample_printf("sys/kernel/iommu_groups/%d/type", g), "%s\n", t->group_type[g]);
}

/* ---- EFI variables ---- */

void efivar(const char *name, const struct fw_guid *g, uint32_t attributes, const void *data, size_t n)
{
	char gs[FW_GUID_STR_LEN];
	struct sbuf b = {0};
	sb_put32(&b, attributes);
	sb_put(&b, data, n);
	out_write(sample_printf("sys/firmware/efi/efivars/%s-%s", name, fw_guid_format_lower(g, gs)), b.p, b.len);
	sb_free(&b);
}

#define NV_BS_RT 0x7u

static void write_efivars(struct variant *v, const struct topology *t)
{
	struct varstore *setup = fs_varstore(&v->setup, "Setup");
	uint8_t *d = vs_defaults(setup, 0);
	/* the owner's choices for GPUs: large BARs and SR-IOV on (above-4G and ReBAR default on) */
	vs_set(setup, d, "SriovSupport", 1);
	vs_set(setup, d, "SvmMode", 1);
	efivar("Setup", &setup->guid, NV_BS_RT, d, setup->size);
	free(d);

	struct varstore *cbs = fs_varstore(&v->cbs, "AmdSetupBRH");
	d = vs_defaults(cbs, 0);
	/* an SEV-SNP host: SMEE explicitly on, SEV enabled, ASIDs for SNP guests, RMP covering all
	 * memory, IOMMU and its SNP support on; ACS left at Auto; NPS as the SRAT shows */
	vs_set(cbs, d, "CbsCmnCpuSmee", 1);
	vs_set(cbs, d, "CbsPspSevCtrl", 0);
	vs_set(cbs, d, "CbsCmnCpuSevAsidSpaceLimit", 100);
	vs_set(cbs, d, "CbsDbgCpuSnpMemCover", 1);
	vs_set(cbs, d, "CbsSevSnpSupport", 1);
	vs_set(cbs, d, "CbsCmnGnbNbIOMMU", 1);
	vs_set(cbs, d, "CbsCmnGnbACSEnable", 0xF);
	vs_set(cbs, d, "CbsDfCmnDramNps", t->nps == 4 ? 3 : 1);
	efivar("AmdSetupBRH", &cbs->guid, NV_BS_RT, d, cbs->size);
	free(d);

	static const char *const others[] = {"SecureBootSetup", "AMITSESetup"};
	for (size_t i = 0; i < ARRAY_LEN(others); i++) {
		struct varstore *vs = fs_varstore(&v->setup, others[i]);
		d = vs_defaults(vs, 0);
		efivar(vs->name, &vs->guid, NV_BS_RT, d, vs->size);
		free(d);
	}
	struct fw_guid global = sample_guid("8BE4DF61-93CA-11D2-AA0D-00E098032B8C");
	efivar("PlatformLang", &global, NV_BS_RT, "en-US", 6);
	uint8_t timeout[2] = {1, 0};
	efivar("Timeout", &global, NV_BS_RT, timeout, 2);
	uint8_t order[4] = {0x00, 0x00, 0x01, 0x00};
	efivar("BootOrder", &global, NV_BS_RT, order, sizeof(order));
	uint8_t current[2] = {0x00, 0x00};
	efivar("BootCurrent", &global, 0x6, current, 2);
	uint8_t off = 0;
	efivar("SecureBoot", &global, 0x6, &off, 1);
	efivar("SetupMode", &global, 0x6, &off, 1);
	/* Boot0000: EFI_LOAD_OPTION for the Proxmox boot loader on the first NVMe disk */
	struct sbuf lo = {0};
	sb_put32(&lo, 1); /* LOAD_OPTION_ACTIVE */
	size_t fpl = sb_put16(&lo, 0);
	sb_put_ucs2(&lo, "proxmox");
	size_t dp = lo.len;
	/* HD(1,GPT,...) media device path and the file path, then the end node */
	sb_put8(&lo, 0x04), sb_put8(&lo, 0x01), sb_put16(&lo, 42);
	sb_put32(&lo, 1), sb_put64(&lo, 2048), sb_put64(&lo, 2097152);
	struct fw_guid part = sample_guid_named("ESP partition");
	sb_put_guid(&lo, &part);
	sb_put8(&lo, 0x02), sb_put8(&lo, 0x02);
	struct sbuf path = {0};
	sb_put_ucs2(&path, "\\EFI\\proxmox\\shimx64.efi");
	sb_put8(&lo, 0x04), sb_put8(&lo, 0x04), sb_put16(&lo, (uint16_t)(4 + path.len));
	sb_put(&lo, path.p, path.len);
	sb_free(&path);
	sb_put8(&lo, 0x7F), sb_put8(&lo, 0xFF), sb_put16(&lo, 4);
	fw_put_le16(lo.p + fpl, (uint16_t)(lo.len - dp));
	efivar("Boot0000", &global, NV_BS_RT, lo.p, lo.len);
	sb_free(&lo);
}

/* ---- DMI, proc, modules ---- */

static void write_dmi(const struct variant *v)
{
	static const struct {
		const char *name, *value;
	} fixed[] = {
		{"board_vendor", "ASUSTeK COMPUTER INC."}, {"board_name", "K15PG-D24"}, {"board_version", "Rev 1.xx"},
		{"product_name", "ESC8000A-E13"}, {"product_family", "Server"}, {"product_version", "1.0"},
		{"product_sku", "90SF04B1-M00010"}, {"sys_vendor", "ASUSTeK COMPUTER INC."},
		{"chassis_vendor", "ASUSTeK COMPUTER INC."}, {"chassis_type", "23"}, {"chassis_version", "1.0"},
		{"bios_vendor", "American Megatrends International, LLC."},
	};
	for (size_t i = 0; i < ARRAY_LEN(fixed); i++)
		out_text(sample_printf("sys/class/dmi/id/%s", fixed[i].name), "%s\n", fixed[i].value);
	out_text("sys/class/dmi/id/bios_version", "%s\n", v->bios_version);
	out_text("sys/class/dmi/id/bios_date", "%s\n", v->bios_date);
	out_text("sys/class/dmi/id/bios_release", "5.37\n");
}

static const char *cmdline(const struct variant *v, const struct topology *t)
{
	const char *base = sample_printf("BOOT_IMAGE=/boot/vmlinuz-%s root=/dev/mapper/pve-root ro quiet amd_iommu=on "
					 "kvm_amd.sev=1 kvm_amd.sev_es=1 kvm_amd.sev_snp=1 mem_encrypt=on pcie_aspm=off",
					 v->kernel);
	if (!t->relaxed_acs)
		return base;
	/* the downstream ports of the first host-GPU switch (pci=disable_acs_redir) */
	const char *ports = sample_strdup("");
	for (int i = 0; i < t->ndevs; i++)
		if (t->devs[i].kind == DEV_SWITCH_DOWN && (t->devs[i].acs_ctrl & 0x04) == 0)
			ports = sample_printf("%s%s%s", ports, ports[0] ? ";" : "", topo_bdf(&t->devs[i]));
	return sample_printf("%s pci=disable_acs_redir=%s", base, ports);
}

static void write_proc(const struct variant *v, const struct topology *t)
{
	out_text("proc/cmdline", "%s\n", cmdline(v, t));
	out_text("proc/sys/kernel/osrelease", "%s\n", v->kernel);
	out_text("proc/version",
		 "Linux version %s (build@proxmox) (gcc (Debian 12.2.0-14+deb12u1) 12.2.0, GNU ld (GNU Binutils for Debian) "
		 "2.40) #1 SMP PREEMPT_DYNAMIC PMX %s (2025-07-22T10:04Z) x86_64\n",
		 v->kernel, v->kernel);
	struct sbuf c = {0};
	for (int cpu = 0; cpu < TOPO_CPUS; cpu++) {
		int socket = topo_cpu_socket(cpu);
		uint32_t apic = topo_apic_id(cpu);
		sb_printf(&c,
			  "processor\t: %d\nvendor_id\t: AuthenticAMD\ncpu family\t: 26\nmodel\t\t: 2\n"
			  "model name\t: AMD EPYC 9575F 64-Core Processor\nstepping\t: 1\nmicrocode\t: 0x%x\n"
			  "cpu MHz\t\t: 3300.000\ncache size\t: 1024 KB\nphysical id\t: %d\nsiblings\t: 128\n"
			  "core id\t\t: %u\ncpu cores\t: 64\napicid\t\t: %u\ninitial apicid\t: %u\nfpu\t\t: yes\n"
			  "fpu_exception\t: yes\ncpuid level\t: 16\nwp\t\t: yes\n",
			  cpu, v->ucode_patch, socket, (apic & 0xFF) >> 1, apic, apic);
		sb_printf(&c, "flags\t\t: fpu vme de pse tsc msr pae mce cx8 apic sep mtrr pge mca cmov pat pse36 clflush mmx fxsr "
			      "sse sse2 ht syscall nx mmxext fxsr_opt pdpe1gb rdtscp lm constant_tsc rep_good amd_lbr_v2 nopl "
			      "nonstop_tsc cpuid extd_apicid aperfmperf rapl pni pclmulqdq monitor ssse3 fma cx16 pcid sse4_1 "
			      "sse4_2 x2apic movbe popcnt aes xsave avx f16c rdrand lahf_lm cmp_legacy svm extapic cr8_legacy "
			      "abm sse4a misalignsse 3dnowprefetch osvw ibs skinit wdt tce topoext perfctr_core perfctr_nb "
			      "bpext perfctr_llc mwaitx cpb cat_l3 cdp_l3 hw_pstate ssbd mba perfmon_v2 ibrs ibpb stibp ibrs_enhanced "
			      "vmmcall fsgsbase tsc_adjust bmi1 avx2 smep bmi2 erms invpcid cqm rdt_a avx512f avx512dq rdseed "
			      "adx smap avx512ifma clflushopt clwb avx512cd sha_ni avx512bw avx512vl xsaveopt xsavec xgetbv1 "
			      "xsaves cqm_llc cqm_occup_llc cqm_mbm_total cqm_mbm_local user_shstk avx_vnni avx512_bf16 clzero "
			      "irperf xsaveerptr rdpru wbnoinvd amd_ppin cppc arat npt lbrv svm_lock nrip_save tsc_scale "
			      "vmcb_clean flushbyasid decodeassists pausefilter pfthreshold avic v_vmsave_vmload vgif "
			      "x2avic v_spec_ctrl vnmi avx512vbmi umip pku ospke avx512_vbmi2 gfni vaes vpclmulqdq avx512_vnni "
			      "avx512_bitalg avx512_vpopcntdq rdpid bus_lock_detect movdiri movdir64b overflow_recov succor smca "
			      "fsrm avx512_vp2intersect flush_l1d sme sev sev_es sev_snp debug_swap\n");
		sb_printf(&c, "bugs\t\t: sysret_ss_attrs spectre_v1 spectre_v2 spec_store_bypass\nbogomips\t: 6600.00\n"
			      "TLB size\t: 192 4K pages\nclflush size\t: 64\ncache_alignment\t: 64\n"
			      "address sizes\t: 52 bits physical, 57 bits virtual\npower management: ts ttp tm hwpstate cpb eff_freq_ro "
			      "[13] [14]\n\n");
	}
	out_write("proc/cpuinfo", c.p, c.len);
	sb_free(&c);
	static const char *const params[][2] = {{"sev", "Y"}, {"sev_es", "Y"}, {"sev_snp", "Y"}, {"avic", "Y"}, {"nested", "1"},
						{"npt", "Y"}};
	for (size_t i = 0; i < ARRAY_LEN(params); i++)
		out_text(sample_printf("sys/module/kvm_amd/parameters/%s", params[i][0]), "%s\n", params[i][1]);
	/* the ccp driver's device node; a folder cannot hold a character device, so an empty file
	 * stands for it (readers only ask whether it exists) */
	out_write("dev/sev", "", 0);
}

/* ---- kernel log ---- */

struct klog {
	struct sbuf b;
	double ts;
};

static void kl(struct klog *k, double step, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void kl(struct klog *k, double step, const char *fmt, ...)
{
	k->ts += step;
	char text[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	sb_printf(&k->b, "[%5d.%06d] %s\n", (int)k->ts, (int)((k->ts - (int)k->ts) * 1e6 + 0.5) % 1000000, text);
}

static const struct topo_dev *find_dev(const struct topology *t, int kind, int nth)
{
	for (int i = 0; i < t->ndevs; i++)
		if (t->devs[i].kind == kind && nth-- == 0)
			return &t->devs[i];
	return NULL;
}

static void write_dmesg(const struct variant *v, const struct topology *t, const struct acpi_table *tables, size_t ntables,
			enum sysroot_story story)
{
	struct klog k = {{0}, 0};
	kl(&k, 0, "Linux version %s (build@proxmox) (gcc (Debian 12.2.0-14+deb12u1) 12.2.0, GNU ld (GNU Binutils for Debian) "
		  "2.40) #1 SMP PREEMPT_DYNAMIC PMX %s (2025-07-22T10:04Z) x86_64",
	   v->kernel, v->kernel);
	kl(&k, 0, "Command line: %s", cmdline(v, t));
	kl(&k, 0, "BIOS-provided physical RAM map:");
	kl(&k, 0.000001, "DMI: ASUSTeK COMPUTER INC. ESC8000A-E13/K15PG-D24, BIOS %s %s", v->bios_version, v->bios_date);
	kl(&k, 0.000120, "SEV-SNP: RMP table physical range [0x000000004c800000 - 0x000000008cbfffff]");
	kl(&k, 0.002, "ACPI: Early table checksum verification disabled");
	kl(&k, 0.000004, "ACPI: RSDP 0x00000000000F05B0 000024 (v02 ALASKA)");
	kl(&k, 0.000004, "ACPI: XSDT 0x000000006A5D0728 0000A4 (v01 ALASKA A M I    01072009 AMI  01000013)");
	uint64_t addr = 0x6A5D1000;
	for (size_t i = 0; i < ntables; i++) {
		const uint8_t *p = tables[i].data;
		uint64_t at = addr;
		if (memcmp(p, "DSDT", 4) == 0)
			at = ACPI_DSDT_ADDRESS;
		else if (memcmp(p, "FACS", 4) == 0)
			at = ACPI_FACS_ADDRESS;
		else
			addr += align_up(tables[i].len, 0x1000);
		if (tables[i].len < 36 || memcmp(p, "FACS", 4) == 0) {
			kl(&k, 0.000004, "ACPI: %.4s 0x%016llX %06zX", (const char *)p, (unsigned long long)at, tables[i].len);
		} else {
			kl(&k, 0.000004, "ACPI: %.4s 0x%016llX %06zX (v%02u %-6.6s %-8.8s %08X %-4.4s %08X)", (const char *)p,
			   (unsigned long long)at, tables[i].len, p[8], (const char *)p + 10, (const char *)p + 16,
			   fw_le32(p + 24), (const char *)p + 28, fw_le32(p + 32));
		}
	}
	for (int pd = 0; pd < topo_domains(t); pd++)
		for (int r = 0; r < t->nmem[pd]; r++)
			kl(&k, 0.000003, "ACPI: SRAT: Node %d PXM %d [mem 0x%08llx-0x%08llx]", pd, pd,
			   (unsigned long long)t->mem[pd][r].base,
			   (unsigned long long)(t->mem[pd][r].base + t->mem[pd][r].size - 1));
	kl(&k, 0.05, "Memory: %lluK/%lluK available", 1536ull * 1024 * 1024 - 28ull * 1024 * 1024, 1536ull * 1024 * 1024);
	kl(&k, 0.01, "AMD Memory Encryption Features active: SEV SEV-ES SEV-SNP");
	kl(&k, 0.3, "AMD-Vi: Unknown option - 'on'");
	kl(&k, 0.9, "iommu: Default domain type: Translated");
	kl(&k, 0.000002, "iommu: DMA domain TLB invalidation policy: lazy mode");
	for (int i = 0; i < TOPO_RBS; i++)
		kl(&k, 0.0001, "pci 0000:%02x:00.2: AMD-Vi: IOMMU performance counters supported", t->rbs[i].bus);
	for (int i = 0; i < t->ndevs; i++)
		if (t->devs[i].group >= 0)
			kl(&k, 0.00001, "pci %s: Adding to iommu group %d", topo_bdf(&t->devs[i]), t->devs[i].group);
	for (int i = 0; i < TOPO_RBS; i++)
		kl(&k, 0.0001, "pci 0000:%02x:00.2: AMD-Vi: Found IOMMU cap 0x40", t->rbs[i].bus);
	kl(&k, 0.00001, "AMD-Vi: Extended features (0x%llx, 0x%llx): PreF PPR X2APIC NX GT IA GA HE PC GA_vAPIC SNP",
	   (unsigned long long)acpi_iommu_efr(), (unsigned long long)acpi_iommu_efr2());
	kl(&k, 0.00001, "AMD-Vi: Interrupt remapping enabled");
	kl(&k, 0.00001, "AMD-Vi: X2APIC enabled");
	kl(&k, 0.0005, "AMD-Vi: IOMMU SNP support enabled.");
	for (int i = 0; i < TOPO_RBS; i++)
		kl(&k, 0.00002, "AMD-Vi: Virtual APIC enabled");
	if (t->relaxed_acs)
		for (int i = 0; i < t->ndevs; i++)
			if (t->devs[i].kind == DEV_SWITCH_DOWN && (t->devs[i].acs_ctrl & 0x04) == 0)
				kl(&k, 0.0001, "pci %s: disabled ACS redirect", topo_bdf(&t->devs[i]));
	const struct topo_dev *psp = NULL;
	for (int i = 0; i < t->ndevs; i++)
		if (t->devs[i].driver && strcmp(t->devs[i].driver, "ccp") == 0)
			psp = &t->devs[i];
	if (psp) {
		const char *b = topo_bdf(psp);
		kl(&k, 6.2, "ccp %s: enabling device (0000 -> 0002)", b);
		kl(&k, 0.01, "ccp %s: sev enabled", b);
		kl(&k, 0.8, "ccp %s: SEV firmware update successful", b);
		kl(&k, 0.2, "ccp %s: SEV API:%u.%u build:%u", b, v->sev_api_major, v->sev_api_minor, v->sev_build);
		kl(&k, 0.0001, "ccp %s: SEV-SNP API:%u.%u build:%u", b, v->sev_api_major, v->sev_api_minor, v->sev_build);
	}
	kl(&k, 0.3, "kvm_amd: TSC scaling supported");
	kl(&k, 0.000001, "kvm_amd: Nested Virtualization enabled");
	kl(&k, 0.000001, "kvm_amd: Nested Paging enabled");
	kl(&k, 0.000001, "kvm_amd: LBR virtualization supported");
	kl(&k, 0.000001, "kvm_amd: SEV enabled (ASIDs 100 - 1006)");
	kl(&k, 0.000001, "kvm_amd: SEV-ES enabled (ASIDs 1 - 99)");
	kl(&k, 0.000001, "kvm_amd: SEV-SNP enabled (ASIDs 1 - 99)");
	kl(&k, 0.000001, "kvm_amd: Virtual GIF supported");
	kl(&k, 0.000001, "kvm_amd: Virtual NMI enabled");
	kl(&k, 1.4, "nvidia: loading out-of-tree module taints kernel.");
	kl(&k, 0.2, "NVRM: loading NVIDIA UNIX Open Kernel Module for x86_64  575.57.08  Release Build  (dvs-builder@U22-I3-AF03-09-1)");
	for (int g = 0;; g++) {
		const struct topo_dev *d = find_dev(t, DEV_GPU, g);
		if (!d)
			break;
		if (d->guest)
			kl(&k, 0.01, "vfio-pci %s: enabling device (0000 -> 0002)", topo_bdf(d));
	}
	/* NCCL peer-to-peer between two host GPUs behind one switch: with ACS redirect on the
	 * downstream ports the reads go up to the root complex, where the IOMMU finds the peer's BAR
	 * unmapped in the requester's domain. */
	k.ts = 4000.0 + (v->version >= 1201 ? 600.0 : 0.0);
	for (int sw = 0; sw < 2; sw++) {
		const struct topo_dev *a = find_dev(t, DEV_GPU, 2 * sw), *b = find_dev(t, DEV_GPU, 2 * sw + 1);
		const struct topo_dev *dsp = &t->devs[a->parent];
		if (a->guest || !(dsp->acs_ctrl & 0x04))
			continue; /* P2P goes direct when redirect is off */
		for (int n = 0; n < 6; n++) {
			const struct topo_dev *req = n % 2 ? b : a, *peer = n % 2 ? a : b;
			int dom = 0x10 + req->group;
			kl(&k, n ? 0.000021 : 0.0, "nvidia %s: AMD-Vi: Event logged [IO_PAGE_FAULT domain=0x%04x address=0x%llx flags=0x%04x]",
			   topo_bdf(req), dom, (unsigned long long)(peer->bars[1].base + 0x1000000ull * (uint64_t)(n / 2) + 0x40000),
			   n % 3 == 2 ? 0x0030 : 0x0020);
		}
		kl(&k, 0.0004, "AMD-Vi: IOMMU event log overflow");
	}
	if (story == STORY_IDENTITY) {
		/* an hour later the host GPUs' groups went to identity (nvidia unbound, type written, rebound):
		 * the GPUs' FSP could not boot without the DMA mappings of a translating domain */
		k.ts = 7600.0;
		for (int g = 0;; g++) {
			const struct topo_dev *d = find_dev(t, DEV_GPU, g);
			if (!d)
				break;
			if (d->guest)
				continue;
			const char *b = topo_bdf(d);
			kl(&k, 0.2, "nvidia %s: enabling device (0000 -> 0002)", b);
			kl(&k, 2.1, "NVRM: GPU %s: kfspSendBootCommands_HAL: FSP response reported error. Task ID: 0x1 Command type: "
				    "0x14 Error code: 0x177", b);
			kl(&k, 0.0001, "NVRM: GPU %s: RmInitAdapter failed! (0x62:0xffff:2142)", b);
			kl(&k, 0.0001, "NVRM: GPU %s: rm_init_adapter failed, device minor number %d", b, g);
			kl(&k, 0.0002, "nvidia: probe of %s failed with error -1", b);
		}
	}
	out_write("var/log/dmesg", k.b.p, k.b.len);
	sb_free(&k.b);
}

/* ---- GPU driver, boot configuration, Proxmox ---- */

#define NVIDIA_DRIVER "575.57.08"

/* The host GPUs the nvidia driver initialised: /proc/driver/nvidia, module versions; the SNP VM
 * (VMID 100) gets the vfio GPUs through hostpci, the container (CTID 200) the host GPUs' device
 * nodes. In the identity story no host GPU initialised, so the driver lists none. */
static void write_gpu_stack(const struct variant *v, const struct topology *t, enum sysroot_story story)
{
	out_text("proc/driver/nvidia/version",
		 "NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  " NVIDIA_DRIVER "  Release Build  "
		 "(dvs-builder@U22-I3-AF03-09-1)  Wed May 21 22:01:45 UTC 2025\nGCC version:  gcc version 12.2.0 (Debian "
		 "12.2.0-14+deb12u1)\n");
	out_text("sys/module/nvidia/version", NVIDIA_DRIVER "\n");
	out_text("sys/module/nvidia_uvm/version", NVIDIA_DRIVER "\n");
	struct sbuf vm = {0}, ct = {0};
	sb_printf(&vm, "amd-sev: type=snp,allow-smt=1\nbios: ovmf\nboot: order=scsi0\ncores: 32\ncpu: EPYC-Genoa\n"
		       "efidisk0: local-lvm:vm-100-disk-0,efitype=4m,size=4M\nmachine: q35\nmemory: 262144\nname: snp-guest\n"
		       "net0: virtio=BC:24:11:5E:10:01,bridge=vmbr0\nnuma: 1\nostype: l26\nscsi0: local-lvm:vm-100-disk-1,size=200G\n"
		       "scsihw: virtio-scsi-single\nsockets: 1\n");
	sb_printf(&ct, "arch: amd64\ncores: 64\nfeatures: nesting=1\nhostname: sglang\nmemory: 524288\n"
		       "net0: name=eth0,bridge=vmbr0,hwaddr=BC:24:11:5E:20:01,ip=dhcp,type=veth\nostype: debian\n"
		       "rootfs: local-lvm:vm-200-disk-0,size=500G\nunprivileged: 0\n"
		       "lxc.cgroup2.devices.allow: c 195:* rwm\nlxc.cgroup2.devices.allow: c 509:* rwm\n"
		       "lxc.mount.entry: /dev/nvidiactl dev/nvidiactl none bind,optional,create=file\n"
		       "lxc.mount.entry: /dev/nvidia-uvm dev/nvidia-uvm none bind,optional,create=file\n");
	int minor = 0, hostpci = 0;
	for (int g = 0;; g++) {
		const struct topo_dev *d = find_dev(t, DEV_GPU, g);
		if (!d)
			break;
		const char *b = topo_bdf(d);
		if (d->guest) {
			sb_printf(&vm, "hostpci%d: %s,pcie=1\n", hostpci++, b);
			continue;
		}
		sb_printf(&ct, "lxc.mount.entry: /dev/nvidia%d dev/nvidia%d none bind,optional,create=file\n", minor, minor);
		if (story == STORY_REFERENCE) {
			struct fw_guid u = sample_guid_named(sample_printf("GPU %s", b));
			char us[FW_GUID_STR_LEN];
			out_text(sample_printf("proc/driver/nvidia/gpus/%s/information", b),
				 "Model: \t\t NVIDIA RTX PRO 6000 Blackwell Server Edition\nIRQ:   \t\t %d\nGPU UUID: \t GPU-%s\n"
				 "Video BIOS: \t 98.02.6a.00.05\nBus Type: \t PCIe\nDMA Size: \t 52 bits\nDMA Mask: \t "
				 "0xfffffffffffff\nBus Location: \t %s\nDevice Minor: \t %d\nGPU Firmware: \t " NVIDIA_DRIVER
				 "\nGPU Excluded:\t No\n",
				 400 + minor, fw_guid_format_lower(&u, us), b, minor);
		}
		minor++;
	}
	sb_printf(&vm, "vmgenid: 6c3f0a52-9d0e-4b1f-8a55-0f1e2d3c4b5a\n");
	out_write("etc/pve/qemu-server/100.conf", vm.p, vm.len);
	out_write("etc/pve/lxc/200.conf", ct.p, ct.len);
	sb_free(&vm);
	sb_free(&ct);
	/* boot configuration: systemd-boot through proxmox-boot-tool reads etc/kernel/cmdline */
	const char *line = cmdline(v, t);
	const char *args = strchr(line, ' ') ? strchr(line, ' ') + 1 : line;
	out_text("etc/kernel/cmdline", "%s\n", args);
	out_text("etc/default/grub",
		 "GRUB_DEFAULT=0\nGRUB_TIMEOUT=5\nGRUB_DISTRIBUTOR=`lsb_release -i -s 2> /dev/null || echo Debian`\n"
		 "GRUB_CMDLINE_LINUX_DEFAULT=\"quiet\"\nGRUB_CMDLINE_LINUX=\"\"\n");
	out_text("etc/modprobe.d/nvidia.conf", "blacklist nouveau\noptions nouveau modeset=0\n");
	out_text("etc/modprobe.d/vfio.conf", "softdep nvidia pre: vfio-pci\n");
	out_text("etc/modules-load.d/vfio.conf", "vfio\nvfio_iommu_type1\nvfio_pci\n");
}

/* What `snapshot capture` run as root records about the SEV platform (tools/host/sev-probe.c):
 * SYSCFG with MemEncryptionModEn, SNPEn and VMPLEn set, the RMP range the kernel log prints, the
 * PSP's SEV and SNP platform status; and /proc/iomem read as root, the RMP inside a reserved range. */
static void write_sev_probe(const struct variant *v)
{
	out_text("fwlens/probes/sev.json",
		 "{\n  \"format\": \"fwlens-sev-probe\",\n  \"msr\": {\n    \"read\": true,\n    \"source\": \"/dev/cpu/0/msr\",\n"
		 "    \"syscfg\": \"0x3f40000\",\n    \"mem_encrypt\": true,\n    \"snp_en\": true,\n    \"vmpl_en\": true,\n"
		 "    \"rmp_base\": \"0x4c800000\",\n    \"rmp_end\": \"0x8cbfffff\"\n  },\n  \"platform\": {\n"
		 "    \"sev\": {\"read\": true, \"source\": \"SEV_ISSUE_CMD SEV_PLATFORM_STATUS\", \"api_major\": %u, "
		 "\"api_minor\": %u, \"state\": 1, \"flags\": \"0x100\", \"build\": %u, \"guest_count\": 1},\n"
		 "    \"snp\": {\"read\": true, \"source\": \"SEV_ISSUE_CMD SNP_PLATFORM_STATUS\", \"api_major\": %u, "
		 "\"api_minor\": %u, \"state\": 1, \"rmp_initialized\": true, \"build\": %u, \"guest_count\": 1, "
		 "\"current_tcb\": \"0x1b00000000000004\", \"reported_tcb\": \"0x1b00000000000004\"}\n  }\n}\n",
		 v->sev_api_major, v->sev_api_minor, v->sev_build, v->sev_api_major, v->sev_api_minor, v->sev_build);
	out_text("proc/iomem", "00000000-00000fff : Reserved\n00001000-0009ffff : System RAM\n"
			       "00100000-4c7fffff : System RAM\n4c800000-8cbfffff : Reserved\n"
			       "8cc00000-bfffffff : System RAM\n");
}

/* ---- the snapshot ---- */

/* ---- sysfs: the CPUs' packages and the NUMA nodes' CPUs ---- */

static void write_cpu_nodes(const struct topology *t)
{
	for (int cpu = 0; cpu < TOPO_CPUS; cpu++)
		out_text(sample_printf("sys/devices/system/cpu/cpu%d/topology/physical_package_id", cpu), "%d\n", topo_cpu_socket(cpu));
	for (int pxm = 0; pxm < (t->nps == 4 ? 4 : 1) * TOPO_SOCKETS; pxm++)
		out_text(sample_printf("sys/devices/system/node/node%d/cpulist", pxm), "%s\n", topo_cpulist(t, pxm));
}

void write_sysroot(struct variant *v, const char *rel, enum sysroot_story story)
{
	const struct topology *t = topology_for(v);
	static struct topology identity;
	if (story == STORY_IDENTITY) {
		/* the host GPUs' groups switched to identity at runtime; their driver failed to probe */
		identity = *t;
		for (int i = 0; i < identity.ndevs; i++) {
			struct topo_dev *d = &identity.devs[i];
			if (d->kind == DEV_GPU && !d->guest) {
				snprintf(identity.group_type[d->group], sizeof(identity.group_type[0]), "identity");
				d->driver = NULL;
			}
		}
		t = &identity;
	}
	out_remove_tree(rel);
	char *old_root = sample_strdup(out_root());
	out_set_root(out_path(rel));

	struct acpi_table tables[ACPI_DATA_TABLES + 3];
	acpi_tables(t, tables);
	size_t ntables = ACPI_DATA_TABLES;
	if (v->dsdt) {
		tables[ntables++] = (struct acpi_table){"DSDT", v->dsdt, v->dsdt_len};
		tables[ntables++] = (struct acpi_table){"SSDT1", v->ssdt1, v->ssdt1_len};
		tables[ntables++] = (struct acpi_table){"SSDT2", v->ssdt2, v->ssdt2_len};
	}
	for (size_t i = 0; i < ntables; i++)
		out_write(sample_printf("sys/firmware/acpi/tables/%s", tables[i].signature), tables[i].data, tables[i].len);
	out_mkdirs("sys/firmware/acpi/tables/data");
	out_mkdirs("sys/firmware/acpi/tables/dynamic");

	write_pci(t);
	write_cpu_nodes(t);
	write_efivars(v, t);
	write_dmi(v);
	write_proc(v, t);
	write_dmesg(v, t, tables, ntables, story);
	write_gpu_stack(v, t, story);
	write_sev_probe(v);
	for (size_t i = 0; i < ACPI_DATA_TABLES; i++)
		free(tables[i].data);
	out_set_root(old_root);
}

/* ---- the SEV-SNP guest ---- */

/* VM 100 of the reference host as seen from inside: QEMU q35, the hypervisor CPU flag, SEV-SNP
 * active with /dev/sev-guest, and the four passed-through GPUs behind QEMU root ports, driven by
 * the guest's nvidia driver. */
void write_guest_sysroot(struct variant *v, const char *rel)
{
	(void)v;
	out_remove_tree(rel);
	char *old_root = sample_strdup(out_root());
	out_set_root(out_path(rel));
	static struct topology g;
	memset(&g, 0, sizeof(g));
	g.nps = 1;
	g.rbs[0].bus = 0;
	for (int i = 0; i < 4; i++) {
		struct topo_dev *rp = &g.devs[g.ndevs++];
		*rp = (struct topo_dev){.kind = DEV_ROOT_PORT, .parent = -1, .bus = 0, .dev = 0x1c, .fn = (uint8_t)i,
					.vendor = 0x1B36, .device = 0x000C, .class_code = 0x060400, .revision = 0,
					.secondary = (uint8_t)(i + 1), .subordinate = (uint8_t)(i + 1), .link_speed = 5,
					.link_width = 16, .driver = "pcieport", .group = -1};
		struct topo_dev *gpu = &g.devs[g.ndevs++];
		*gpu = (struct topo_dev){.kind = DEV_GPU, .parent = g.ndevs - 2, .bus = (uint8_t)(i + 1), .vendor = 0x10DE,
					 .device = 0x2BB5, .subsys_vendor = 0x10DE, .subsys_device = 0x204E,
					 .class_code = 0x030200, .revision = 0xA1, .link_speed = 5, .link_width = 16,
					 .driver = "nvidia", .group = -1};
		gpu->bars[0] = (struct topo_bar){0xFC000000ull - 0x1000000ull * (uint64_t)i, 0x1000000, false, false};
		gpu->bars[1] = (struct topo_bar){0x38000000000ull + 0x2000000000ull * (uint64_t)i, 0x2000000000ull, true, true};
	}
	for (int i = 0; i < g.ndevs; i++) {
		const struct topo_dev *d = &g.devs[i];
		const char *dir = dev_path(&g, d);
		const char *bdf = topo_bdf(d);
		struct cfg c;
		config_space(&g, d, &c);
		out_write(sample_printf("%s/config", dir), c.b, 256); /* unprivileged capture: 256 bytes */
		out_text(sample_printf("%s/vendor", dir), "0x%04x\n", d->vendor);
		out_text(sample_printf("%s/device", dir), "0x%04x\n", d->device);
		out_text(sample_printf("%s/class", dir), "0x%06x\n", d->class_code);
		out_text(sample_printf("%s/numa_node", dir), "-1\n");
		write_resource(dir, d, d->kind == DEV_ROOT_PORT);
		out_mkdirs(sample_printf("sys/bus/pci/drivers/%s", d->driver));
		out_symlink(sample_printf("%s/driver", dir), rel_target(dir, sample_printf("sys/bus/pci/drivers/%s", d->driver)));
		out_symlink(sample_printf("sys/bus/pci/devices/%s", bdf), rel_target("sys/bus/pci/devices", dir));
		if (d->kind == DEV_GPU)
			out_text(sample_printf("proc/driver/nvidia/gpus/%s/information", bdf),
				 "Model: \t\t NVIDIA RTX PRO 6000 Blackwell Server Edition\nVideo BIOS: \t 98.02.6a.00.05\n"
				 "Bus Location: \t %s\nDevice Minor: \t %d\nGPU Firmware: \t " NVIDIA_DRIVER "\n",
				 bdf, d->bus - 1);
	}
	static const char *const dmi[][2] = {{"sys_vendor", "QEMU"}, {"product_name", "Standard PC (Q35 + ICH9, 2009)"},
					     {"bios_vendor", "EFI Development Kit II / OVMF"}, {"bios_version", "4.2025.02-3"},
					     {"bios_date", "03/18/2025"}};
	for (size_t i = 0; i < ARRAY_LEN(dmi); i++)
		out_text(sample_printf("sys/class/dmi/id/%s", dmi[i][0]), "%s\n", dmi[i][1]);
	out_text("proc/cmdline", "BOOT_IMAGE=/boot/vmlinuz-6.14.0-1006-azure root=/dev/sda1 ro console=ttyS0\n");
	out_text("proc/sys/kernel/osrelease", "6.14.0-1006-azure\n");
	out_text("proc/cpuinfo",
		 "processor\t: 0\nvendor_id\t: AuthenticAMD\ncpu family\t: 25\nmodel\t\t: 17\nmodel name\t: AMD EPYC-Genoa "
		 "Processor\nflags\t\t: fpu vme de pse tsc msr pae mce cx8 apic sep mtrr pge mca cmov pat pse36 clflush mmx "
		 "fxsr sse sse2 ht syscall nx mmxext pdpe1gb rdtscp lm rep_good nopl cpuid extd_apicid tsc_known_freq pni "
		 "pclmulqdq ssse3 fma cx16 sse4_1 sse4_2 x2apic movbe popcnt aes xsave avx f16c rdrand hypervisor lahf_lm "
		 "cmp_legacy cr8_legacy abm sse4a misalignsse 3dnowprefetch topoext sev sev_es sev_snp\n\n");
	out_text("proc/driver/nvidia/version", "NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  " NVIDIA_DRIVER
					       "  Release Build  (dvs-builder@U22-I3-AF03-09-1)\n");
	out_text("sys/module/nvidia/version", NVIDIA_DRIVER "\n");
	out_write("dev/sev-guest", "", 0);
	struct klog k = {{0}, 0};
	kl(&k, 0, "Linux version 6.14.0-1006-azure (buildd@lcy02-amd64-010) (x86_64-linux-gnu-gcc-13 (Ubuntu "
		  "13.3.0-6ubuntu2~24.04) 13.3.0) #6-Ubuntu SMP");
	kl(&k, 0, "Command line: BOOT_IMAGE=/boot/vmlinuz-6.14.0-1006-azure root=/dev/sda1 ro console=ttyS0");
	kl(&k, 0.000001, "DMI: QEMU Standard PC (Q35 + ICH9, 2009), BIOS 4.2025.02-3 03/18/2025");
	kl(&k, 0.000002, "Hypervisor detected: KVM");
	kl(&k, 0.01, "Memory Encryption Features active: AMD SEV SEV-ES SEV-SNP");
	kl(&k, 0.000001, "SEV: Status: SEV SEV-ES SEV-SNP");
	kl(&k, 2.3, "sev-guest sev-guest: Initialized SEV guest driver (using VMPCK0 communication key)");
	kl(&k, 1.1, "nvidia: loading out-of-tree module taints kernel.");
	kl(&k, 0.2, "NVRM: loading NVIDIA UNIX Open Kernel Module for x86_64  " NVIDIA_DRIVER "  Release Build  "
		    "(dvs-builder@U22-I3-AF03-09-1)");
	for (int i = 0; i < g.ndevs; i++)
		if (g.devs[i].kind == DEV_GPU)
			kl(&k, 0.01, "nvidia %s: enabling device (0000 -> 0002)", topo_bdf(&g.devs[i]));
	out_write("var/log/dmesg", k.b.p, k.b.len);
	sb_free(&k.b);
	out_set_root(old_root);
}
