/* Graphviz of the topology (see topo-dot.h). Node names: pxmN (clusters), brN (root bridges),
 * iommuN, and pci_SSSS_BB_DD_F for PCI functions. */
#include "topo-dot.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <spawn.h>
#include <stdbool.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>

#include "acpi/table.h"
#include "tools/host/pci-config.h"
#include "tools/host/pci-names.h"
#include "tools/query/doctor.h"

#define MAX_SHOWN 512

/* A quoted DOT string: quotes and backslashes escaped, newlines as \n. */
static void q(FILE *f, const char *s)
{
	fputc('"', f);
	for (; s && *s; s++) {
		if (*s == '"' || *s == '\\')
			fputc('\\', f);
		if (*s == '\n') {
			fputs("\\n", f);
			continue;
		}
		fputc(*s, f);
	}
	fputc('"', f);
}

static void pci_id(char *buf, size_t len, const char *bdf)
{
	snprintf(buf, len, "pci_%s", bdf);
	for (char *p = buf; *p; p++)
		if (*p == ':' || *p == '.')
			*p = '_';
}

/* The root bridge whose bus range holds a top-level device's root bus ("0000:40"). */
static int bridge_of(const struct fw_acpi_topo *t, const struct fw_pci_device *d)
{
	unsigned seg, bus;
	if (!d->root_bus || sscanf(d->root_bus, "%x:%x", &seg, &bus) != 2)
		return -1;
	for (size_t i = 0; i < t->nbridges; i++) {
		const struct fw_topo_bridge *b = &t->bridges[i];
		if (b->bus_known && b->segment == seg && bus >= b->bus_first && bus <= b->bus_last)
			return (int)i;
	}
	return -1;
}

static void bridge_node(FILE *f, const struct fw_topo_bridge *b, size_t i)
{
	char label[256];
	int n = snprintf(label, sizeof(label), "%s", b->dsl.path);
	if (b->bus_known)
		n += snprintf(label + n, sizeof(label) - (size_t)n, "\nbuses %04x:%02x-%02x", b->segment, b->bus_first, b->bus_last);
	snprintf(label + n, sizeof(label) - (size_t)n, "\nPXM %s", b->pxm_known ? "" : "unknown");
	if (b->pxm_known)
		snprintf(label + strlen(label), sizeof(label) - strlen(label), "%u", b->pxm);
	fprintf(f, "    br%zu [shape=box, style=rounded, label=", i);
	q(f, label);
	fprintf(f, "%s];\n", b->present ? "" : ", color=gray, fontcolor=gray");
}

static void port_node(FILE *f, const struct fw_pci_device *d)
{
	char id[48], label[256];
	pci_id(id, sizeof(id), d->bdf);
	const char *kind = d->have_config && d->cfg.has_pcie ? fw_pcie_port_type_name(d->cfg.pcie_port_type) : "bridge";
	const char *color = "black";
	int n = snprintf(label, sizeof(label), "%s\n%s", d->bdf, kind);
	if (!d->have_config || !d->cfg.extended_known) {
		snprintf(label + n, sizeof(label) - (size_t)n, "\nACS unknown");
		color = "gray";
	} else if (!d->cfg.has_acs) {
		snprintf(label + n, sizeof(label) - (size_t)n, "\nno ACS");
	} else {
		bool redirect = (d->cfg.acs_ctl & (FW_PCI_ACS_RR | FW_PCI_ACS_CR)) != 0;
		snprintf(label + n, sizeof(label) - (size_t)n, "\nACS redirect %s", redirect ? "on (RR/CR)" : "off");
		color = redirect ? "red" : "darkgreen";
	}
	fprintf(f, "  %s [shape=box, color=%s, label=", id, color);
	q(f, label);
	fputs("];\n", f);
}

static void gpu_node(FILE *f, const struct fw_host *h, const struct fw_pci_device *d)
{
	char id[48], label[768];
	pci_id(id, sizeof(id), d->bdf);
	const struct fw_iommu_group *g = fw_host_group(h, d->iommu_group);
	bool guest = d->driver && strcmp(d->driver, "vfio-pci") == 0;
	char owner[128];
	if (d->owner) /* from the VM and container configurations */
		snprintf(owner, sizeof(owner), "%s%s", d->owner, d->owner_snp ? " (SEV-SNP guest)" : "");
	else if (d->driver) /* else the driver that holds it says who uses it */
		snprintf(owner, sizeof(owner), "%s (%s)", guest ? "a guest" : "host", d->driver);
	else
		snprintf(owner, sizeof(owner), "not known (no driver)");
	char name[320];
	int n = snprintf(label, sizeof(label), "GPU %s\n%s\nowner: %s", d->bdf,
			 fw_pci_device_name(d->cfg.vendor, d->cfg.device, name, sizeof(name)), owner);
	if (d->iommu_group >= 0)
		snprintf(label + n, sizeof(label) - (size_t)n, "\nIOMMU group %d (%s)", d->iommu_group, g && g->type ? g->type : "type unknown");
	else
		snprintf(label + n, sizeof(label) - (size_t)n, "\nIOMMU group unknown");
	bool identity = g && g->type && strcmp(g->type, "identity") == 0;
	fprintf(f, "  %s [shape=box3d, style=filled, fillcolor=%s, label=", id, guest ? "lightblue" : identity ? "orange" : "palegreen");
	q(f, label);
	fputs("];\n", f);
}

/* A NUMA domain with its root bridges. */
static void domain_cluster(FILE *f, const struct fw_acpi_topo *t, const struct fw_topo_domain *d)
{
	fprintf(f, "  subgraph cluster_pxm%u {\n    label=", d->pxm);
	char label[128];
	snprintf(label, sizeof(label), "NUMA domain (PXM) %u: %zu CPUs, %" PRIu64 " MiB", d->pxm, d->cpus, d->memory >> 20);
	q(f, label);
	fputs(";\n    style=dashed;\n", f);
	for (size_t k = 0; k < t->nbridges; k++)
		if (t->bridges[k].pxm_known && t->bridges[k].pxm == d->pxm)
			bridge_node(f, &t->bridges[k], k);
	fprintf(f, "    pxm%u [shape=point, style=invis];\n  }\n", d->pxm);
}

void fw_topo_dot(FILE *f, const struct fw_acpi_topo *t, const struct fw_host *h)
{
	char a[16], id[48], pid[48];
	fputs("digraph topology {\n  rankdir=TB;\n  node [fontname=\"Helvetica\", fontsize=10];\n", f);
	/* Sockets: SRAT and MADT give proximity domains and APIC IDs, not the package they sit in. A
	 * running machine's sysfs says it (the node's cpulist and each CPU's physical_package_id), and
	 * so does PPTT (the physical package node the domain's processors reach): those domains go
	 * inside their socket, the label naming where it was read; the others inside one cluster that
	 * says the socket is not known, rather than a guessed split. */
	int sockets[64];
	size_t nsockets = 0;
	bool unknown = false;
	for (size_t i = 0; i < t->ndomains; i++) {
		int s = t->domains[i].socket;
		bool seen = s < 0;
		unknown = unknown || s < 0;
		for (size_t k = 0; k < nsockets && !seen; k++)
			seen = sockets[k] == s;
		if (!seen && nsockets == 64)
			unknown = true;
		else if (!seen) {
			size_t at = nsockets++;
			for (; at && sockets[at - 1] > s; at--)
				sockets[at] = sockets[at - 1];
			sockets[at] = s;
		}
	}
	for (size_t k = 0; k < nsockets; k++) {
		bool tables = false;
		for (size_t i = 0; i < t->ndomains; i++)
			tables = tables || (t->domains[i].socket == sockets[k] && t->domains[i].socket_from_tables);
		if (tables)
			fprintf(f, "  subgraph cluster_socket%d {\n    label=\"socket %d (PPTT: the physical package node of the "
				   "domain's processors, by their ACPI processor UIDs in MADT)\";\n    style=dotted;\n",
				sockets[k], sockets[k]);
		else
			fprintf(f, "  subgraph cluster_socket%d {\n    label=\"socket %d (Linux: cpuN/topology/physical_package_id of the "
				   "CPUs in /sys/devices/system/node/nodeN/cpulist)\";\n    style=dotted;\n",
				sockets[k], sockets[k]);
		for (size_t i = 0; i < t->ndomains; i++)
			if (t->domains[i].socket == sockets[k])
				domain_cluster(f, t, &t->domains[i]);
		fputs("  }\n", f);
	}
	if (unknown) {
		fputs("  subgraph cluster_socket_unknown {\n    label=\"socket not known: SRAT and MADT do not say which socket "
		      "a NUMA domain is on, and no PPTT package holds all its processors\";\n    style=dotted;\n",
		      f);
		for (size_t i = 0; i < t->ndomains; i++) {
			bool placed = false;
			for (size_t k = 0; k < nsockets && !placed; k++)
				placed = t->domains[i].socket == sockets[k];
			if (!placed)
				domain_cluster(f, t, &t->domains[i]);
		}
		fputs("  }\n", f);
	}
	/* bridges of no known domain outside any cluster */
	for (size_t k = 0; k < t->nbridges; k++) {
		const struct fw_topo_bridge *b = &t->bridges[k];
		bool placed = false;
		for (size_t i = 0; i < t->ndomains && b->pxm_known; i++)
			placed = placed || t->domains[i].pxm == b->pxm;
		if (!placed)
			bridge_node(f, b, k);
	}
	/* IOMMUs and the bridges they translate for */
	if (t->ivrs)
		for (size_t i = 0; i < t->ivrs->nblocks; i++) {
			const struct fw_ivrs_block *blk = &t->ivrs->blocks[i];
			if (!blk->linux_uses)
				continue;
			char label[96];
			snprintf(label, sizeof(label), "IOMMU %d\n%s", blk->iommu_index, fw_acpi_bdf_str(blk->segment, blk->device_id, a));
			fprintf(f, "  iommu%d [shape=hexagon, label=", blk->iommu_index);
			q(f, label);
			fputs("];\n", f);
			for (size_t k = 0; k < t->nbridges; k++)
				if (t->bridges[k].iommu == blk)
					fprintf(f, "  iommu%d -> br%zu [style=dashed, arrowhead=none, label=\"translates\"];\n",
						blk->iommu_index, k);
		}
	if (!h) {
		fputs("}\n", f);
		return;
	}
	/* the PCI path from each GPU up to its root bridge, each function once */
	const struct fw_pci_device *shown[MAX_SHOWN], *gpus[64];
	size_t nshown = 0, ngpus = fw_host_gpus(h, gpus, 64);
	for (size_t i = 0; i < ngpus && i < 64; i++) {
		const struct fw_pci_device *g = gpus[i];
		if (nshown >= MAX_SHOWN)
			continue;
		gpu_node(f, h, g);
		shown[nshown++] = g;
		for (const struct fw_pci_device *c = g, *p = g->parent; c; c = p, p = p ? p->parent : NULL) {
			pci_id(id, sizeof(id), c->bdf);
			if (p) {
				bool seen = false;
				for (size_t k = 0; k < nshown && !seen; k++)
					seen = shown[k] == p;
				pci_id(pid, sizeof(pid), p->bdf);
				fprintf(f, "  %s -> %s;\n", pid, id);
				if (seen)
					break;
				if (nshown < MAX_SHOWN)
					shown[nshown++] = p;
				port_node(f, p);
			} else {
				int br = bridge_of(t, c);
				if (br >= 0)
					fprintf(f, "  br%d -> %s;\n", br, id);
			}
		}
	}
	/* requester -> peer pairs of IO_PAGE_FAULTs: P2P that the IOMMU refused */
	for (size_t i = 0; i < h->nfaults; i++) {
		const struct fw_iommu_fault *fl = &h->faults[i];
		int bar = -1;
		const struct fw_pci_device *peer = strcmp(fl->event, "IO_PAGE_FAULT") == 0 ? fw_host_bar_owner(h, fl->address, &bar) : NULL;
		if (!peer)
			continue;
		bool dup = false;
		for (size_t k = 0; k < i && !dup; k++) {
			int b2;
			dup = strcmp(h->faults[k].device, fl->device) == 0 && strcmp(h->faults[k].event, "IO_PAGE_FAULT") == 0 &&
			      fw_host_bar_owner(h, h->faults[k].address, &b2) == peer;
		}
		if (dup)
			continue;
		pci_id(id, sizeof(id), fl->device);
		pci_id(pid, sizeof(pid), peer->bdf);
		fprintf(f, "  %s -> %s [color=red, fontcolor=red, style=bold, constraint=false, label=\"IO_PAGE_FAULT\\nBAR%d\"];\n",
			id, pid, bar);
	}
	fputs("}\n", f);
}

extern char **environ;

bool fw_topo_render_svg(const char *dot_program, const char *dot_path, const char *svg_path, struct fw_error *err)
{
	const char *prog = dot_program && *dot_program ? dot_program : "dot";
	char *argv[] = {(char *)prog, "-Tsvg", "-o", (char *)svg_path, (char *)dot_path, NULL};
	posix_spawn_file_actions_t fa;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
	pid_t pid = -1;
	int rc = strchr(prog, '/') ? posix_spawn(&pid, prog, &fa, NULL, argv, environ)
				   : posix_spawnp(&pid, prog, &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	if (rc == ENOENT)
		return fw_error_set(err, FW_E_DEPENDENCY, "%s is not installed: drawing the topology needs Graphviz "
					  "(Debian/Ubuntu: apt-get install graphviz)", prog);
	if (rc != 0) {
		errno = rc;
		return fw_error_errno(err, "cannot start %s", prog);
	}
	int status = 0;
	for (int waited_ms = 0;; waited_ms += 20) {
		pid_t w = waitpid(pid, &status, WNOHANG);
		if (w == pid)
			break;
		if (w < 0 && errno != EINTR)
			return fw_error_errno(err, "waiting for %s", prog);
		if (waited_ms >= 60000) {
			kill(pid, SIGKILL);
			while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
				;
			return fw_error_set(err, FW_E_DEPENDENCY, "%s did not finish %s within 60 s", prog, dot_path);
		}
		nanosleep(&(struct timespec){0, 20 * 1000 * 1000}, NULL);
	}
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
		return fw_error_set(err, FW_E_DEPENDENCY, "%s failed on %s (exit status %d)", prog, dot_path,
				    WIFEXITED(status) ? WEXITSTATUS(status) : -1);
	return true;
}
