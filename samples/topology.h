/* The machine the snapshots describe, in one place so that every file agrees: two EPYC 9005
 * sockets with four PCI root bridges each (one IOMMU per root bridge), eight GPUs behind four
 * PCIe switches, NPS1 or NPS4 NUMA layout, the memory map and the MMIO windows.
 *
 * DSDT/SSDT (asl.c), the data tables (acpi.c), sysfs, efivars and the kernel log (sysroot.c) all
 * read these numbers; nothing about the machine is written anywhere else. */
#ifndef SAMPLES_TOPOLOGY_H
#define SAMPLES_TOPOLOGY_H

#include <stdbool.h>
#include <stdint.h>

#define TOPO_SOCKETS 2
#define TOPO_RB_PER_SOCKET 4
#define TOPO_RBS (TOPO_SOCKETS * TOPO_RB_PER_SOCKET)
#define TOPO_CCDS 8              /* per socket */
#define TOPO_CORES_PER_CCD 8
#define TOPO_THREADS 2
#define TOPO_CPUS (TOPO_SOCKETS * TOPO_CCDS * TOPO_CORES_PER_CCD * TOPO_THREADS)
#define TOPO_MAX_DEVICES 96
#define TOPO_MAX_RANGES 8

struct topo_rb {
	int index, socket, quadrant;
	const char *acpi_name; /* PCI0, S0D1, ... */
	uint8_t bus, bus_end;
	uint16_t iommu_bdf;
	uint64_t iommu_base;
	uint32_t mmio32_base, mmio32_size;
	uint64_t mmio64_base, mmio64_size;
	uint32_t ioapic_base;
	uint8_t ioapic_id;
	uint32_t gsi_base;
};

enum {
	DEV_ROOT_COMPLEX,
	DEV_IOMMU,
	DEV_DUMMY_BRIDGE,
	DEV_ROOT_PORT,
	DEV_SWITCH_UP,
	DEV_SWITCH_DOWN,
	DEV_GPU,
	DEV_FCH,
	DEV_INTERNAL_BRIDGE,
	DEV_DUMMY_FUNCTION,
	DEV_PSP,
};

struct topo_bar {
	uint64_t base, size;
	bool is64, prefetch;
};

struct topo_dev {
	int kind, rb, parent; /* parent: index in devices, -1 at the root bus */
	uint8_t bus, dev, fn;
	uint16_t vendor, device, subsys_vendor, subsys_device;
	uint32_t class_code;
	uint8_t revision;
	uint8_t secondary, subordinate; /* bridges */
	struct topo_bar bars[6];
	/* bridge windows */
	uint64_t mem_base, mem_limit, pref_base, pref_limit;
	uint16_t acs_cap, acs_ctrl; /* 0: no ACS capability */
	uint16_t acs_offset;
	int link_speed, link_width; /* current; 5 = 32 GT/s */
	const char *driver;         /* NULL: no driver bound */
	int group;                  /* IOMMU group, -1: none */
	bool guest;                 /* a GPU passed through to the SNP guest */
};

struct topo_range {
	uint64_t base, size;
};

struct topology {
	int nps;
	struct topo_rb rbs[TOPO_RBS];
	struct topo_dev devs[TOPO_MAX_DEVICES];
	int ndevs;
	int ngroups;
	char group_type[TOPO_MAX_DEVICES][16];
	/* memory of each proximity domain */
	struct topo_range mem[8][TOPO_MAX_RANGES];
	int nmem[8];
	bool relaxed_acs; /* pci=disable_acs_redir on the first host-GPU switch (1201 snapshot) */
};

/* Build the topology for a NUMA mode (1 or 4) and the ACS state of the snapshot. */
void topology_build(struct topology *t, int nps, bool relaxed_acs);
int topo_domains(const struct topology *t);
int topo_rb_pxm(const struct topology *t, const struct topo_rb *rb);
/* The CPUs in Linux order (MADT order): thread 0 of every core of both sockets first. */
uint32_t topo_apic_id(int cpu);
int topo_cpu_socket(int cpu);
int topo_cpu_pxm(const struct topology *t, int cpu);
const char *topo_bdf(const struct topo_dev *d); /* "0000:23:00.0", static buffer per call site */
uint16_t topo_rid(const struct topo_dev *d);
/* Linux CPU list of a proximity domain ("0-15,128-143") */
const char *topo_cpulist(const struct topology *t, int pxm);

#endif
