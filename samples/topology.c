/* The sample machine (topology.h). PCI ids: AMD Turin root complex 1022:153a, IOMMU 1022:153b,
 * dummy host bridge 1022:153d, GPP bridge 1022:14ab; Broadcom PEX890xx switch 1000:c030 rev b0;
 * NVIDIA RTX PRO 6000 Blackwell Server Edition 10de:2bb5 rev a1 (public lspci listings). ACS
 * capability offsets 0x2A0 on the root ports and 0x170 on the switch downstream ports follow
 * reference/domain.md 0.4 / 4. */
#include "topology.h"

#include <stdio.h>
#include <string.h>

#include "sample.h"

#define GIB (1ull << 30)
#define MIB (1ull << 20)

static const char *const rb_names[TOPO_RBS] = {"PCI0", "S0D1", "S0D2", "S0D3", "S1D0", "S1D1", "S1D2", "S1D3"};
/* root bridges whose x16 slot carries a PEX890xx switch with two GPUs */
static const int gpu_rbs[] = {1, 2, 5, 6};

/* ACS bits (reference/domain.md 4) */
#define ACS_SV 0x01
#define ACS_TB 0x02
#define ACS_RR 0x04
#define ACS_CR 0x08
#define ACS_UF 0x10

int topo_domains(const struct topology *t) { return t->nps == 4 ? TOPO_SOCKETS * 4 : TOPO_SOCKETS; }

int topo_rb_pxm(const struct topology *t, const struct topo_rb *rb)
{
	return t->nps == 4 ? rb->socket * 4 + rb->quadrant : rb->socket;
}

/* cpu index -> (thread, socket, ccd, core) in MADT order */
static void cpu_coords(int cpu, int *thread, int *socket, int *ccd, int *core)
{
	int per_socket = TOPO_CCDS * TOPO_CORES_PER_CCD;
	*thread = cpu / (TOPO_SOCKETS * per_socket);
	int rest = cpu % (TOPO_SOCKETS * per_socket);
	*socket = rest / per_socket;
	*ccd = rest % per_socket / TOPO_CORES_PER_CCD;
	*core = rest % TOPO_CORES_PER_CCD;
}

uint32_t topo_apic_id(int cpu)
{
	int thread, socket, ccd, core;
	cpu_coords(cpu, &thread, &socket, &ccd, &core);
	return (uint32_t)(socket << 8 | ccd << 4 | core << 1 | thread);
}

int topo_cpu_socket(int cpu)
{
	int thread, socket, ccd, core;
	cpu_coords(cpu, &thread, &socket, &ccd, &core);
	return socket;
}

int topo_cpu_pxm(const struct topology *t, int cpu)
{
	int thread, socket, ccd, core;
	cpu_coords(cpu, &thread, &socket, &ccd, &core);
	return t->nps == 4 ? socket * 4 + ccd / 2 : socket;
}

const char *topo_cpulist(const struct topology *t, int pxm)
{
	char *out = sample_strdup("");
	int start = -1;
	for (int cpu = 0; cpu <= TOPO_CPUS; cpu++) {
		bool in = cpu < TOPO_CPUS && topo_cpu_pxm(t, cpu) == pxm;
		if (in && start < 0)
			start = cpu;
		if (!in && start >= 0) {
			out = sample_printf("%s%s%d-%d", out, out[0] ? "," : "", start, cpu - 1);
			start = -1;
		}
	}
	return out;
}

const char *topo_bdf(const struct topo_dev *d)
{
	return sample_printf("0000:%02x:%02x.%x", d->bus, d->dev, d->fn);
}

uint16_t topo_rid(const struct topo_dev *d) { return (uint16_t)(d->bus << 8 | d->dev << 3 | d->fn); }

static struct topo_dev *add_dev(struct topology *t, int kind, int rb, int parent, uint8_t bus, uint8_t dev, uint8_t fn,
				uint16_t vendor, uint16_t device, uint32_t class_code, uint8_t rev)
{
	SAMPLE_ASSERT(t->ndevs < TOPO_MAX_DEVICES);
	struct topo_dev *d = &t->devs[t->ndevs++];
	memset(d, 0, sizeof(*d));
	d->kind = kind;
	d->rb = rb;
	d->parent = parent;
	d->bus = bus;
	d->dev = dev;
	d->fn = fn;
	d->vendor = vendor;
	d->device = device;
	d->subsys_vendor = vendor == 0x1022 ? 0x1043 : vendor;
	d->subsys_device = vendor == 0x1022 ? 0x8870 : device;
	d->class_code = class_code;
	d->revision = rev;
	d->group = -1;
	d->link_speed = 5;
	d->link_width = 16;
	return d;
}

/* Memory map: each socket has 768 GiB; the holes below 4 GiB (MMIO, 2-4 GiB) and below 1 TiB
 * (the 12 GiB HyperTransport reserved range at 0xFD00000000) are skipped. */
static void add_memory(struct topology *t)
{
	static const struct topo_range holes[] = {{0x80000000ull, 2 * GIB}, {0xFD00000000ull, 12 * GIB}};
	uint64_t per_domain = 768 * GIB / (uint64_t)(t->nps == 4 ? 4 : 1);
	uint64_t addr = 0;
	for (int pd = 0; pd < topo_domains(t); pd++) {
		uint64_t left = per_domain;
		while (left) {
			for (size_t h = 0; h < ARRAY_LEN(holes); h++)
				if (addr == holes[h].base)
					addr += holes[h].size;
			uint64_t end = addr + left;
			for (size_t h = 0; h < ARRAY_LEN(holes); h++)
				if (addr < holes[h].base && end > holes[h].base)
					end = holes[h].base;
			SAMPLE_ASSERT(t->nmem[pd] < TOPO_MAX_RANGES);
			t->mem[pd][t->nmem[pd]++] = (struct topo_range){addr, end - addr};
			left -= end - addr;
			addr = end;
		}
	}
}

void topology_build(struct topology *t, int nps, bool relaxed_acs)
{
	memset(t, 0, sizeof(*t));
	t->nps = nps;
	t->relaxed_acs = relaxed_acs;
	for (int i = 0; i < TOPO_RBS; i++) {
		struct topo_rb *rb = &t->rbs[i];
		rb->index = i;
		rb->socket = i / TOPO_RB_PER_SOCKET;
		rb->quadrant = i % TOPO_RB_PER_SOCKET;
		rb->acpi_name = rb_names[i];
		rb->bus = (uint8_t)(i * 0x20);
		rb->bus_end = (uint8_t)(i * 0x20 + 0x1F);
		rb->iommu_bdf = (uint16_t)(rb->bus << 8 | 0x02);
		rb->mmio32_base = 0x80000000u + (uint32_t)i * 0x0C000000u;
		rb->mmio32_size = 0x0C000000u;
		rb->iommu_base = rb->mmio32_base + rb->mmio32_size - 0x80000u;
		rb->mmio64_base = 0x20000000000ull + (uint64_t)i * 512 * GIB;
		rb->mmio64_size = 512 * GIB;
		rb->ioapic_id = (uint8_t)(0xF1 + i);
		rb->ioapic_base = 0xFD000000u + (uint32_t)i * 0x100000u;
		rb->gsi_base = 24 + 32 * (uint32_t)i;
	}
	add_memory(t);

	for (int i = 0; i < TOPO_RBS; i++) {
		struct topo_rb *rb = &t->rbs[i];
		add_dev(t, DEV_ROOT_COMPLEX, i, -1, rb->bus, 0, 0, 0x1022, 0x153A, 0x060000, 0x00);
		struct topo_dev *iommu = add_dev(t, DEV_IOMMU, i, -1, rb->bus, 0, 2, 0x1022, 0x153B, 0x080600, 0x00);
		iommu->bars[0] = (struct topo_bar){rb->iommu_base, 0x80000, false, false};
		add_dev(t, DEV_DUMMY_BRIDGE, i, -1, rb->bus, 1, 0, 0x1022, 0x153D, 0x060000, 0x00);
		if (i == 0) {
			add_dev(t, DEV_FCH, i, -1, 0, 0x14, 0, 0x1022, 0x790B, 0x0C0500, 0x71)->driver = "piix4_smbus";
			add_dev(t, DEV_FCH, i, -1, 0, 0x14, 3, 0x1022, 0x790E, 0x060100, 0x51);
			/* the PSP (ccp, /dev/sev) behind the internal bridge, as on EPYC */
			add_dev(t, DEV_DUMMY_BRIDGE, i, -1, 0, 7, 0, 0x1022, 0x153D, 0x060000, 0x00);
			int ib = t->ndevs;
			struct topo_dev *br = add_dev(t, DEV_INTERNAL_BRIDGE, i, -1, 0, 7, 1, 0x1022, 0x14A7, 0x060400, 0x00);
			br->secondary = br->subordinate = 0x06;
			br->mem_base = rb->mmio32_base + 0x08000000u;
			br->mem_limit = br->mem_base + 0x3FFFFF;
			br->driver = "pcieport";
			add_dev(t, DEV_DUMMY_FUNCTION, i, ib, 0x06, 0, 0, 0x1022, 0x14AC, 0x130000, 0x00);
			struct topo_dev *psp = add_dev(t, DEV_PSP, i, ib, 0x06, 0, 1, 0x1022, 0x14CA, 0x108000, 0x00);
			psp->bars[2] = (struct topo_bar){br->mem_base, 0x100000, false, false};
			psp->bars[5] = (struct topo_bar){br->mem_base + 0x200000, 0x2000, false, false};
			psp->driver = "ccp";
		}
		bool gpus = false;
		for (size_t g = 0; g < ARRAY_LEN(gpu_rbs); g++)
			gpus |= gpu_rbs[g] == i;
		if (!gpus)
			continue;
		/* root port -> switch upstream -> two downstream ports -> one GPU each */
		uint8_t b = rb->bus;
		int rp = t->ndevs;
		struct topo_dev *d = add_dev(t, DEV_ROOT_PORT, i, -1, b, 1, 1, 0x1022, 0x14AB, 0x060400, 0x00);
		d->secondary = (uint8_t)(b + 1);
		d->subordinate = (uint8_t)(b + 4);
		d->acs_offset = 0x2A0;
		d->acs_cap = ACS_SV | ACS_TB | ACS_RR | ACS_CR | ACS_UF;
		d->acs_ctrl = ACS_SV | ACS_RR | ACS_CR | ACS_UF; /* set by Linux: pci_std_enable_acs */
		d->driver = "pcieport";
		int usp = t->ndevs;
		d = add_dev(t, DEV_SWITCH_UP, i, rp, (uint8_t)(b + 1), 0, 0, 0x1000, 0xC030, 0x060400, 0xB0);
		d->secondary = (uint8_t)(b + 2);
		d->subordinate = (uint8_t)(b + 4);
		d->driver = "pcieport";
		for (int k = 0; k < 2; k++) {
			int dsp = t->ndevs;
			d = add_dev(t, DEV_SWITCH_DOWN, i, usp, (uint8_t)(b + 2), (uint8_t)k, 0, 0x1000, 0xC030, 0x060400, 0xB0);
			d->secondary = d->subordinate = (uint8_t)(b + 3 + k);
			d->acs_offset = 0x170;
			d->acs_cap = ACS_SV | ACS_TB | ACS_RR | ACS_CR | ACS_UF;
			d->acs_ctrl = ACS_SV | ACS_RR | ACS_CR | ACS_UF;
			/* pci=disable_acs_redir clears RR/CR (and EC) on the listed ports */
			if (relaxed_acs && i == gpu_rbs[0])
				d->acs_ctrl = ACS_SV | ACS_UF;
			d->driver = "pcieport";
			struct topo_dev *gpu =
				add_dev(t, DEV_GPU, i, dsp, (uint8_t)(b + 3 + k), 0, 0, 0x10DE, 0x2BB5, 0x030200, 0xA1);
			gpu->subsys_vendor = 0x10DE;
			gpu->subsys_device = 0x204E;
			gpu->bars[0] = (struct topo_bar){rb->mmio32_base + (uint64_t)k * 64 * MIB, 64 * MIB, false, false};
			gpu->bars[1] = (struct topo_bar){rb->mmio64_base + (uint64_t)k * 128 * GIB, 128 * GIB, true, true};
			gpu->bars[3] = (struct topo_bar){rb->mmio64_base + 256 * GIB + (uint64_t)k * 32 * MIB, 32 * MIB, true, true};
			/* the four GPUs of socket 1 go to the SEV-SNP guest through vfio */
			gpu->guest = rb->socket == 1;
			gpu->driver = gpu->guest ? "vfio-pci" : "nvidia";
			struct topo_dev *dspd = &t->devs[dsp];
			dspd->mem_base = gpu->bars[0].base;
			dspd->mem_limit = gpu->bars[0].base + gpu->bars[0].size - 1;
			dspd->pref_base = gpu->bars[1].base;
			dspd->pref_limit = gpu->bars[3].base + gpu->bars[3].size - 1;
		}
		/* the upstream windows cover both GPUs */
		for (int w = rp; w <= usp; w++) {
			d = &t->devs[w];
			d->mem_base = rb->mmio32_base;
			d->mem_limit = rb->mmio32_base + 128 * MIB - 1;
			d->pref_base = rb->mmio64_base;
			d->pref_limit = rb->mmio64_base + 256 * GIB + 64 * MIB - 1;
		}
	}

	/* IOMMU groups in bus order, as Linux numbers them: every device alone, except the devices
	 * below a downstream port whose ACS redirect was turned off (they share one group). */
	int merged_group = -1;
	for (int i = 0; i < t->ndevs; i++) {
		struct topo_dev *d = &t->devs[i];
		if (d->kind == DEV_IOMMU)
			continue;
		bool merge = relaxed_acs && d->rb == gpu_rbs[0] && (d->kind == DEV_SWITCH_DOWN || d->kind == DEV_GPU);
		if (merge && merged_group >= 0) {
			d->group = merged_group;
			continue;
		}
		d->group = t->ngroups++;
		snprintf(t->group_type[d->group], sizeof(t->group_type[0]), "DMA-FQ");
		if (merge)
			merged_group = d->group;
	}
}
