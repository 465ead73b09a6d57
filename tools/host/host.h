/* What a machine says about itself, decoded from its files: DMI ids, kernel command line and
 * version, kvm_amd/ccp parameters, PCI devices with their config spaces, topology and BARs,
 * IOMMU groups and units, and the kernel log with the IOMMU faults it reports.
 *
 * Loaded from a struct fw_machine, so a live root, a sysroot folder and a snapshot give the same
 * model. Missing or unreadable pieces stay empty; nothing here fails on a partial machine. */
#ifndef FW_HOST_H
#define FW_HOST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "device-history.h"
#include "machine.h"
#include "pci-config.h"

struct fw_pci_bar {
	uint64_t start, end, flags; /* from the sysfs resource file; end == 0 means unused */
};

struct fw_pci_device {
	char bdf[16];            /* "0000:41:00.0" */
	unsigned segment, bus, dev, fn;
	bool have_config;
	struct fw_pci_config cfg;
	char *driver;            /* bound driver name, or NULL */
	int iommu_group;         /* -1 when unknown */
	int numa_node;           /* -1 when unknown */
	char *sysfs_path;        /* "sys/devices/pci0000:40/0000:40:01.1/0000:41:00.0", or NULL */
	char *root_bus;          /* "0000:40" from pci0000:40, or NULL */
	struct fw_pci_device *parent; /* upstream bridge, or NULL under a host bridge */
	struct fw_pci_bar bars[7];    /* BAR0-5 and the expansion ROM */
	/* GPU stack and ownership */
	char *model, *vbios;     /* proc/driver/nvidia/gpus/BDF/information, or NULL */
	int nvidia_minor;        /* its Device Minor (/dev/nvidiaN), -1 when unknown */
	char *owner;             /* "VM 100", "container 200", "host", or NULL when not known */
	char *owner_from;        /* the configuration line that says so */
	bool owner_snp;          /* that VM runs as an SEV-SNP guest (amd-sev: type=snp) */
	unsigned nclaims;        /* configurations that claim the device (more than one conflict) */
};

struct fw_iommu_group {
	int id;
	char *type; /* DMA, DMA-FQ, identity, blocked, unmanaged */
	char **devices;
	size_t ndevices;
};

struct fw_kernel_option {
	char *key;
	char *value; /* NULL for a bare flag */
};

/* One IO_PAGE_FAULT (or other AMD-Vi event) from the kernel log. */
struct fw_iommu_fault {
	char device[16]; /* requester "0000:41:00.0" */
	char event[32];  /* "IO_PAGE_FAULT" */
	uint64_t domain, address, flags;
	char *line;
};

struct fw_host {
	struct fw_machine *machine;
	char *board, *product, *vendor, *bios_vendor, *bios_version, *bios_date;
	char *kernel_release, *kernel_version, *cmdline;
	/* which boot this is: proc/sys/kernel/random/boot_id, and proc/stat's btime (seconds since
	 * the epoch), or NULL / -1 when not known */
	char *boot_id;
	long long boot_time;
	struct fw_kernel_option *options;
	size_t noptions;
	char *kvm_sev, *kvm_sev_es, *kvm_sev_snp; /* "Y"/"N"/"1"/"0" as read, or NULL */
	bool dev_sev;
	char *cpu_flags; /* flags line of the first processor in /proc/cpuinfo */
	struct fw_pci_device *pci;
	size_t npci;
	struct fw_iommu_group *groups;
	size_t ngroups;
	char **iommus; /* sys/class/iommu entries (ivhd0, ...) */
	size_t niommus;
	bool groups_captured; /* sys/kernel/iommu_groups exists (possibly empty) */
	/* a virtual machine: why it is one ("hypervisor CPU flag", "DMI product QEMU"), else NULL */
	const char *guest_why;
	bool dev_sev_guest; /* /dev/sev-guest: the SEV-SNP guest driver's node */
	/* a container: what says so ("run/systemd/container: lxc", ".dockerenv", ...), else NULL. It
	 * shares the host's kernel, so /proc and the kernel log are the host's, but not its firmware
	 * variables or its /etc. */
	char *container_why;
	char *nvidia_version; /* first line of /proc/driver/nvidia/version, or NULL */
	bool pve_captured;    /* etc/pve/qemu-server or etc/pve/lxc exists */
	char *dmesg;   /* the kernel log, NUL-terminated */
	const char *dmesg_from; /* where it was read: "var/log/dmesg", or on a live root "/dev/kmsg" or "dmesg" */
	char dmesg_why[256]; /* why there is no kernel log */
	struct fw_iommu_fault *faults;
	size_t nfaults;
	struct fw_dev_history history; /* per-device events of the last boot in the log (device-history.h) */
};

bool fw_host_load(struct fw_machine *m, struct fw_host *h, struct fw_error *err);
void fw_host_free(struct fw_host *h);

struct fw_pci_device *fw_host_pci(const struct fw_host *h, const char *bdf);
const struct fw_iommu_group *fw_host_group(const struct fw_host *h, int id);
/* Value of a kernel option (last one wins, as the kernel parses them); `present` tells a bare
 * flag from an absent option. */
const char *fw_host_option(const struct fw_host *h, const char *key, bool *present);
/* The device whose BAR contains `address`, with the BAR index, or NULL. */
struct fw_pci_device *fw_host_bar_owner(const struct fw_host *h, uint64_t address, int *bar);
/* Kernel log lines containing `needle` (pointers into h->dmesg, each up to its newline). */
size_t fw_host_log_lines(const struct fw_host *h, const char *needle, const char **lines, size_t max);
/* A GPU: a display controller (class 03h) that is not an emulated or BMC display adapter, or a
 * processing accelerator (class 12h) of a GPU vendor (NVIDIA, AMD). */
bool fw_pci_is_gpu(const struct fw_pci_device *d);
/* Parse "BDF" forms "0000:41:00.0" or "41:00.0" (segment 0). */
bool fw_parse_bdf(const char *s, unsigned *seg, unsigned *bus, unsigned *dev, unsigned *fn);

#endif
