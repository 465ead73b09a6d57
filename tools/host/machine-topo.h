/* The facts of a running machine the ACPI topology joins its tables with (root buses and the
 * ACPI device owning each, PCI devices with their NUMA node, IOMMU group and driver, a node's
 * CPUs and their packages), read from a machine: a live root, a folder laid out like one, or a
 * snapshot give the same view. The ACPI layer takes the view and opens nothing itself. */
#ifndef FW_MACHINE_TOPO_H
#define FW_MACHINE_TOPO_H

#include "acpi/topo.h"
#include "machine.h"

/* The view over m (which must outlive every topology built with it). */
void fw_machine_topo_host(struct fw_machine *m, struct fw_topo_host *out);

#endif
