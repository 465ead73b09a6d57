/* ACPI topology: PCI root bridges (DSDT/SSDT through iasl) joined with their bus ranges, NUMA
 * proximity domains (_PXM, SRAT), the IOMMU (IVRS) covering each bus range and the SRAT Generic
 * Initiators and Ports behind them; given a view of the running machine also the PCI devices
 * under each and the socket of each domain (the tables alone give it too when PPTT has physical
 * packages: acpi/pptt.h). Nothing here reads a file: the view comes from the
 * caller (tools/host/machine-topo.h reads it from a live root, a sysroot folder or a snapshot).
 *
 * Bus ranges come, best first, from the running machine (/sys/devices/pciSSSS:BB/firmware_node/path
 * names the bridge that owns each root bus), a static _CRS WordBusNumber, or _BBN resolved from
 * the DSL; the end of a range without _CRS is the next bridge's base minus one (the last one
 * ends where MCFG's window for the segment ends).
 */
#ifndef FW_ACPI_TOPO_H
#define FW_ACPI_TOPO_H

#include "acpi/dsl.h"
#include "acpi/ivrs.h"
#include "acpi/set.h"
#include "acpi/srat.h"

struct fw_topo_pci_device {
	const char *bdf;   /* "0000:41:00.0" */
	uint16_t segment;
	uint8_t bus, dev, fn;
	const char *vendor, *device, *class_code; /* as sysfs prints them ("0x10de") or NULL */
	int numa_node;     /* -1 unknown */
	const char *iommu_group, *driver;
};

/* A root bus of the running system and the ACPI device that owns it
 * (/sys/devices/pciSSSS:BB/firmware_node/path). */
struct fw_topo_root_bus {
	uint16_t segment;
	uint8_t bus;
	const char *acpi_path; /* as the kernel prints it ("\_SB_.S0D2"), or NULL */
};

/* Where the facts of a running machine come from, supplied by the caller (none: the tables
 * alone). Results are allocated in `a`. */
struct fw_topo_host {
	size_t (*root_buses)(void *ctx, struct fw_arena *a, struct fw_topo_root_bus **out);
	size_t (*pci_devices)(void *ctx, struct fw_arena *a, struct fw_topo_pci_device **out);
	void *ctx;
	/* A small sysfs file below the root ("sys/devices/system/node/node0/cpulist") as trimmed
	 * text, or NULL; NULL callback: none. */
	const char *(*attr)(void *ctx, struct fw_arena *a, const char *rel);
};

struct fw_topo_bridge {
	struct fw_dsl_device dsl;
	bool present;             /* false when a constant _STA clears bit 0: Linux does not enumerate it */
	uint16_t segment;
	bool bus_known;
	uint8_t bus_first, bus_last;
	bool bus_last_certain;    /* false when a bridge of the segment has an unknown base */
	const char *bus_source;   /* "sysfs", "_CRS", "_BBN", with the end "next bridge" or "MCFG" */
	bool pxm_known;
	uint32_t pxm;
	const char *pxm_source;
	bool pxm_in_srat;         /* the domain exists in SRAT (true when there is no SRAT) */
	const struct fw_ivrs_block *iommu; /* covers most of the bus range */
	size_t iommu_devices;     /* requester ids of the range it covers */
	const struct fw_srat_entry **initiators;
	size_t ninitiators;
	struct fw_topo_pci_device *devices;
	size_t ndevices;
};

struct fw_topo_domain {
	uint32_t pxm;
	size_t cpus;          /* enabled processor entries */
	uint64_t memory;      /* bytes of enabled memory ranges */
	size_t initiators;    /* Generic Initiators */
	size_t bridges;       /* root bridges whose _PXM is this domain */
	int socket;           /* physical package of all the node's CPUs, -1 not known: from the running
	                         machine's sysfs when it says, else from PPTT (socket_from_tables) */
	const char *socket_source; /* what it was read from, when known */
	bool socket_from_tables;   /* PPTT, MADT and SRAT alone */
};

struct fw_acpi_topo {
	struct fw_arena arena;
	const struct fw_acpi_set *set;
	bool have_dsl;            /* DSDT/SSDT were disassembled */
	size_t dsl_tables;
	struct fw_topo_bridge *bridges;
	size_t nbridges;
	struct fw_dsl_devices pxm_devices; /* other devices with a _PXM */
	const struct fw_ivrs *ivrs;
	const struct fw_srat *srat;
	struct fw_topo_domain *domains;
	size_t ndomains;
	const struct fw_srat_entry **initiators; /* every Generic Initiator/Port */
	int *initiator_bridge;    /* index into bridges, -1 none */
	size_t ninitiators;
	bool have_host;           /* facts of a running machine were available */
	struct fw_topo_pci_device *unplaced; /* devices under no known bridge */
	size_t nunplaced;
	struct fw_diag *diags, *diags_tail;
};

struct fw_topo_options {
	bool no_dsl;          /* skip iasl (tests, or a set without AML) */
	unsigned iasl_timeout;
	const struct fw_topo_host *host; /* the running machine; NULL: the tables alone */
};

/* Build the topology of a finished set. Fails only when iasl is needed and cannot run
 * (FW_E_DEPENDENCY) or a limit is reached. */
bool fw_acpi_topo_build(const struct fw_acpi_set *s, const struct fw_topo_options *o, struct fw_acpi_topo **out,
			struct fw_error *err);
/* The same from DSL texts already at hand (tests, fuzzing): names[i] labels texts[i]. */
bool fw_acpi_topo_build_dsl(const struct fw_acpi_set *s, const char *const *texts, const size_t *lens,
			    const char *const *names, size_t n, const struct fw_topo_host *host, struct fw_acpi_topo **out,
			    struct fw_error *err);
void fw_acpi_topo_free(struct fw_acpi_topo *t);

#endif
