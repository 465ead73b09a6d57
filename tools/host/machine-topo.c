/* A machine's sysfs as the ACPI topology's view of the running system. */
#include "machine-topo.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Small sysfs attribute as trimmed text, or NULL. */
static const char *machine_attr(struct fw_machine *m, struct fw_arena *a, const char *rel)
{
	struct fw_blob b;
	if (!fw_machine_read(m, rel, &b, NULL) || b.len > 4096)
		return NULL;
	size_t n = b.len;
	while (n && (b.data[n - 1] == '\n' || b.data[n - 1] == ' ' || b.data[n - 1] == '\t' || b.data[n - 1] == '\r'))
		n--;
	return fw_arena_strndup(a, (const char *)b.data, n);
}

/* The last component of a link's target (iommu_group -> .../iommu_groups/12), else the file's text. */
static const char *machine_link_name(struct fw_machine *m, struct fw_arena *a, const char *rel)
{
	const char *t = fw_machine_link(m, rel);
	if (t) {
		const char *slash = strrchr(t, '/');
		return fw_arena_strdup(a, slash ? slash + 1 : t);
	}
	return machine_attr(m, a, rel);
}

/* sys/devices/pciSSSS:BB and the ACPI device that owns it (firmware_node/path). */
static size_t host_root_buses(void *ctx, struct fw_arena *a, struct fw_topo_root_bus **out)
{
	struct fw_machine *m = ctx;
	struct fw_strlist l;
	size_t n = 0, cap = 0;
	*out = NULL;
	if (!fw_machine_list(m, "sys/devices", &l))
		return 0;
	for (size_t i = 0; i < l.count && n < 4096; i++) {
		unsigned seg, bus;
		char tail, rel[1024];
		if (sscanf(l.items[i], "pci%4x:%2x%c", &seg, &bus, &tail) != 2)
			continue;
		snprintf(rel, sizeof(rel), "sys/devices/%s/firmware_node/path", l.items[i]);
		const char *acpi = machine_attr(m, a, rel);
		*out = fw_acpi_grow(a, *out, &cap, n + 1, sizeof(**out));
		(*out)[n++] = (struct fw_topo_root_bus){(uint16_t)seg, (uint8_t)bus, acpi};
	}
	fw_strlist_free(&l);
	return n;
}

/* sys/bus/pci/devices/SSSS:BB:DD.F, sorted by address (the list is). */
static size_t host_pci_devices(void *ctx, struct fw_arena *a, struct fw_topo_pci_device **out)
{
	struct fw_machine *m = ctx;
	struct fw_strlist l;
	size_t n = 0, cap = 0;
	*out = NULL;
	if (!fw_machine_list(m, "sys/bus/pci/devices", &l))
		return 0;
	for (size_t i = 0; i < l.count && n < 65536; i++) {
		unsigned seg, bus, dev, fn;
		char tail, rel[1024];
		const char *name = l.items[i];
		if (sscanf(name, "%4x:%2x:%2x.%1u%c", &seg, &bus, &dev, &fn, &tail) != 4 || dev > 31 || fn > 7)
			continue;
		*out = fw_acpi_grow(a, *out, &cap, n + 1, sizeof(**out));
		struct fw_topo_pci_device *pd = &(*out)[n++];
		memset(pd, 0, sizeof(*pd));
		pd->bdf = fw_arena_strdup(a, name);
		pd->segment = (uint16_t)seg;
		pd->bus = (uint8_t)bus;
		pd->dev = (uint8_t)dev;
		pd->fn = (uint8_t)fn;
		snprintf(rel, sizeof(rel), "sys/bus/pci/devices/%s/vendor", name);
		pd->vendor = machine_attr(m, a, rel);
		snprintf(rel, sizeof(rel), "sys/bus/pci/devices/%s/device", name);
		pd->device = machine_attr(m, a, rel);
		snprintf(rel, sizeof(rel), "sys/bus/pci/devices/%s/class", name);
		pd->class_code = machine_attr(m, a, rel);
		snprintf(rel, sizeof(rel), "sys/bus/pci/devices/%s/numa_node", name);
		const char *nn = machine_attr(m, a, rel);
		pd->numa_node = nn ? atoi(nn) : -1;
		snprintf(rel, sizeof(rel), "sys/bus/pci/devices/%s/iommu_group", name);
		pd->iommu_group = machine_link_name(m, a, rel);
		snprintf(rel, sizeof(rel), "sys/bus/pci/devices/%s/driver", name);
		pd->driver = machine_link_name(m, a, rel);
	}
	fw_strlist_free(&l);
	return n;
}

static const char *host_attr(void *ctx, struct fw_arena *a, const char *rel)
{
	return machine_attr(ctx, a, rel);
}

void fw_machine_topo_host(struct fw_machine *m, struct fw_topo_host *out)
{
	*out = (struct fw_topo_host){host_root_buses, host_pci_devices, m, host_attr};
}
