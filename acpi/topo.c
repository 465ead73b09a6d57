/* ACPI topology: root bridges, domains, IOMMUs, initiators, devices. */
#include "topo.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "acpi/iasl.h"
#include "acpi/madt.h"
#include "acpi/mcfg.h"
#include "acpi/pptt.h"

static void topo_diag(struct fw_acpi_topo *t, enum fw_diag_severity sev, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void topo_diag(struct fw_acpi_topo *t, enum fw_diag_severity sev, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fw_acpi_diag_append(&t->arena, &t->diags, &t->diags_tail, sev, FW_OFFSET_UNKNOWN, fmt, ap);
	va_end(ap);
}

void fw_acpi_topo_free(struct fw_acpi_topo *t)
{
	if (!t)
		return;
	fw_arena_free(&t->arena);
	free(t);
}

/* --- joining ----------------------------------------------------------------------------------- */

static uint8_t mcfg_end_bus(const struct fw_acpi_set *s, uint16_t seg)
{
	const struct fw_mcfg *m = fw_acpi_set_model(s, FW_ACPI_MODEL_MCFG);
	for (size_t i = 0; m && i < m->n; i++)
		if (m->allocations[i].segment == seg)
			return m->allocations[i].end_bus;
	return 0xFF;
}

static void assign_bus_ranges(struct fw_acpi_topo *t, const struct fw_topo_root_bus *roots, size_t nroots)
{
	for (size_t i = 0; i < t->nbridges; i++) {
		struct fw_topo_bridge *b = &t->bridges[i];
		if (!b->present)
			continue;
		const char *canon = fw_dsl_canonical_path(&t->arena, b->dsl.path);
		for (size_t r = 0; r < nroots && canon; r++) {
			const char *root = roots[r].acpi_path ? fw_dsl_canonical_path(&t->arena, roots[r].acpi_path) : NULL;
			if (!root || strcmp(root, canon) != 0)
				continue;
			b->segment = roots[r].segment;
			b->bus_first = roots[r].bus;
			b->bus_known = true;
			b->bus_source = "sysfs";
			b->bus_last_certain = true;
		}
		if (b->bus_known)
			continue;
		b->segment = b->dsl.has_seg ? (uint16_t)b->dsl.seg : 0;
		if (b->dsl.has_bus_range) {
			b->bus_known = true;
			b->bus_last_certain = true;
			b->bus_first = (uint8_t)b->dsl.bus_min;
			b->bus_last = (uint8_t)(b->dsl.bus_max > 0xFF ? 0xFF : b->dsl.bus_max);
			b->bus_source = "_CRS";
		} else if (b->dsl.has_bbn && b->dsl.bbn <= 0xFF) {
			b->bus_known = true;
			b->bus_first = (uint8_t)b->dsl.bbn;
			b->bus_source = "_BBN";
		}
	}
	/* Ends: the next base in the same segment minus one, or the segment's MCFG end. */
	for (size_t i = 0; i < t->nbridges; i++) {
		struct fw_topo_bridge *b = &t->bridges[i];
		if (!b->bus_known || !strcmp(b->bus_source, "_CRS"))
			continue;
		bool unknown_sibling = false;
		for (size_t k = 0; k < t->nbridges; k++)
			unknown_sibling |= t->bridges[k].present && !t->bridges[k].bus_known && t->bridges[k].segment == b->segment;
		b->bus_last_certain = !unknown_sibling;
		unsigned next = 0x100;
		for (size_t k = 0; k < t->nbridges; k++) {
			const struct fw_topo_bridge *o = &t->bridges[k];
			if (k != i && o->bus_known && o->segment == b->segment && o->bus_first > b->bus_first && o->bus_first < next)
				next = o->bus_first;
		}
		if (next <= 0xFF) {
			b->bus_last = (uint8_t)(next - 1);
			b->bus_source = fw_arena_printf(&t->arena, "%s, ends before the next bridge%s", b->bus_source,
							unknown_sibling ? " whose base is known (another bridge's base is not)" : "");
		} else {
			uint8_t end = mcfg_end_bus(t->set, b->segment);
			b->bus_last = end >= b->bus_first ? end : b->bus_first;
			b->bus_source = fw_arena_printf(&t->arena, "%s, ends with the MCFG window%s", b->bus_source,
							unknown_sibling ? " (another bridge's base is unknown)" : "");
		}
	}
	for (size_t i = 0; i < t->nbridges; i++)
		for (size_t k = 0; k < i; k++) {
			const struct fw_topo_bridge *a = &t->bridges[i], *o = &t->bridges[k];
			if (!(a->bus_known && o->bus_known && a->segment == o->segment && a->bus_first <= o->bus_last &&
			      o->bus_first <= a->bus_last))
				continue;
			/* Bridges of absent sockets keep the tables' default range; their _STA, computed
			 * at boot, hides them. Only a conflict among bridges known to be present is one. */
			const struct fw_topo_bridge *dyn = !a->dsl.has_sta && a->dsl.sta_declared ? a
							   : !o->dsl.has_sta && o->dsl.sta_declared ? o
												    : NULL;
			if (dyn)
				topo_diag(t, FW_DIAG_INFO,
					  "root bridges %s and %s claim overlapping buses %02x-%02x and %02x-%02x; %s's _STA is computed at run time, so both need not be present",
					  o->dsl.path, a->dsl.path, o->bus_first, o->bus_last, a->bus_first, a->bus_last, dyn->dsl.path);
			else
				topo_diag(t, FW_DIAG_WARN, "root bridges %s and %s claim overlapping buses %02x-%02x and %02x-%02x", o->dsl.path,
					  a->dsl.path, o->bus_first, o->bus_last, a->bus_first, a->bus_last);
		}
}

static void assign_iommus(struct fw_acpi_topo *t)
{
	if (!t->ivrs)
		return;
	for (size_t i = 0; i < t->nbridges; i++) {
		struct fw_topo_bridge *b = &t->bridges[i];
		if (!b->bus_known)
			continue;
		uint32_t lo = (uint32_t)b->bus_first << 8, hi = (uint32_t)b->bus_last << 8 | 0xFF;
		for (size_t k = 0; k < t->ivrs->nblocks; k++) {
			const struct fw_ivrs_block *blk = &t->ivrs->blocks[k];
			if (!blk->linux_uses || blk->segment != b->segment)
				continue;
			size_t count = 0;
			for (size_t r = 0; r < blk->ncovered; r++) {
				uint32_t a = blk->covered[r].first > lo ? blk->covered[r].first : lo;
				uint32_t z = blk->covered[r].last < hi ? blk->covered[r].last : hi;
				if (a <= z)
					count += z - a + 1;
			}
			if (count > b->iommu_devices) {
				b->iommu_devices = count;
				b->iommu = blk;
			}
		}
	}
}

static bool uid_equals(const char *uid, uint32_t v)
{
	if (!uid)
		return false;
	char buf[16];
	snprintf(buf, sizeof(buf), "%u", v);
	return strcmp(uid, buf) == 0;
}

static bool bridge_has_id(const struct fw_topo_bridge *b, const char *id)
{
	if (b->dsl.hid && strcmp(b->dsl.hid, id) == 0)
		return true;
	for (size_t c = 0; c < b->dsl.ncids; c++)
		if (strcmp(b->dsl.cids[c], id) == 0)
			return true;
	return false;
}

static void assign_initiators(struct fw_acpi_topo *t)
{
	if (!t->srat)
		return;
	size_t n = 0;
	for (size_t i = 0; i < t->srat->nentries; i++)
		n += t->srat->entries[i].type == FW_SRAT_GENERIC_INITIATOR || t->srat->entries[i].type == FW_SRAT_GENERIC_PORT;
	t->initiators = fw_arena_alloc(&t->arena, (n + 1) * sizeof(*t->initiators));
	t->initiator_bridge = fw_arena_alloc(&t->arena, (n + 1) * sizeof(*t->initiator_bridge));
	for (size_t i = 0; i < t->srat->nentries; i++) {
		const struct fw_srat_entry *e = &t->srat->entries[i];
		if (e->type != FW_SRAT_GENERIC_INITIATOR && e->type != FW_SRAT_GENERIC_PORT)
			continue;
		int found = -1;
		for (size_t k = 0; k < t->nbridges && found < 0; k++) {
			const struct fw_topo_bridge *b = &t->bridges[k];
			if (e->handle_type == FW_SRAT_GI_HANDLE_PCI)
				found = b->bus_known && b->segment == e->segment && (e->bdf >> 8) >= b->bus_first &&
						(e->bdf >> 8) <= b->bus_last
					? (int)k
					: -1;
			else if (e->handle_type == FW_SRAT_GI_HANDLE_ACPI)
				found = bridge_has_id(b, e->hid) && uid_equals(b->dsl.uid, e->uid) ? (int)k : -1;
		}
		t->initiators[t->ninitiators] = e;
		t->initiator_bridge[t->ninitiators++] = found;
		if (found >= 0) {
			struct fw_topo_bridge *b = &t->bridges[found];
			const struct fw_srat_entry **v = fw_arena_alloc(&t->arena, (b->ninitiators + 1) * sizeof(*v));
			if (b->ninitiators)
				memcpy(v, b->initiators, b->ninitiators * sizeof(*v));
			v[b->ninitiators++] = e;
			b->initiators = v;
		}
	}
}

static void assign_devices(struct fw_acpi_topo *t, struct fw_topo_pci_device *devs, size_t n)
{
	size_t *counts = fw_arena_alloc(&t->arena, (t->nbridges + 1) * sizeof(*counts));
	int *owner = fw_arena_alloc(&t->arena, (n + 1) * sizeof(*owner));
	size_t unplaced = 0;
	for (size_t i = 0; i < n; i++) {
		owner[i] = -1;
		for (size_t k = 0; k < t->nbridges; k++) {
			const struct fw_topo_bridge *b = &t->bridges[k];
			if (b->bus_known && b->segment == devs[i].segment && devs[i].bus >= b->bus_first && devs[i].bus <= b->bus_last) {
				owner[i] = (int)k;
				counts[k]++;
				break;
			}
		}
		unplaced += owner[i] < 0;
	}
	for (size_t k = 0; k < t->nbridges; k++)
		t->bridges[k].devices = fw_arena_alloc(&t->arena, (counts[k] + 1) * sizeof(struct fw_topo_pci_device));
	t->unplaced = fw_arena_alloc(&t->arena, (unplaced + 1) * sizeof(*t->unplaced));
	for (size_t i = 0; i < n; i++) {
		if (owner[i] < 0)
			t->unplaced[t->nunplaced++] = devs[i];
		else {
			struct fw_topo_bridge *b = &t->bridges[owner[i]];
			b->devices[b->ndevices++] = devs[i];
		}
	}
}

static void build_domains(struct fw_acpi_topo *t)
{
	size_t cap = 0;
	/* Domains named by SRAT, then any _PXM that SRAT does not name. */
	if (t->srat)
		for (size_t i = 0; i < t->srat->ndomains; i++) {
			t->domains = fw_acpi_grow(&t->arena, t->domains, &cap, t->ndomains + 1, sizeof(*t->domains));
			t->domains[t->ndomains++] = (struct fw_topo_domain){t->srat->domains[i], 0, 0, 0, 0, -1, NULL, false};
		}
	for (size_t k = 0; k < t->nbridges; k++) {
		struct fw_topo_bridge *b = &t->bridges[k];
		b->pxm_in_srat = true;
		if (!b->pxm_known || !b->present)
			continue;
		struct fw_topo_domain *d = NULL;
		for (size_t i = 0; i < t->ndomains && !d; i++)
			if (t->domains[i].pxm == b->pxm)
				d = &t->domains[i];
		if (!d) {
			if (t->srat) {
				b->pxm_in_srat = false;
				topo_diag(t, FW_DIAG_WARN, "root bridge %s has _PXM %u, which SRAT does not describe", b->dsl.path, b->pxm);
			}
			t->domains = fw_acpi_grow(&t->arena, t->domains, &cap, t->ndomains + 1, sizeof(*t->domains));
			t->domains[t->ndomains] = (struct fw_topo_domain){b->pxm, 0, 0, 0, 0, -1, NULL, false};
			d = &t->domains[t->ndomains++];
		}
		d->bridges++;
	}
	if (!t->srat)
		return;
	for (size_t i = 0; i < t->srat->nentries; i++) {
		const struct fw_srat_entry *e = &t->srat->entries[i];
		if (!e->enabled)
			continue;
		for (size_t k = 0; k < t->ndomains; k++) {
			struct fw_topo_domain *d = &t->domains[k];
			if (d->pxm != e->proximity_domain)
				continue;
			if (e->type == FW_SRAT_LOCAL_APIC || e->type == FW_SRAT_X2APIC || e->type == FW_SRAT_GICC || e->type == FW_SRAT_RINTC)
				d->cpus++;
			else if (e->type == FW_SRAT_MEMORY)
				d->memory += e->size;
			else if (e->type == FW_SRAT_GENERIC_INITIATOR)
				d->initiators++;
		}
	}
}

/* The ACPI processor UID of an enabled SRAT processor entry: GICC and RINTC name it, a local APIC
 * or x2APIC entry names the APIC ID that MADT pairs with a UID. False when not known. */
static bool processor_uid(const struct fw_srat_entry *e, const struct fw_madt *madt, uint32_t *uid)
{
	if (e->type == FW_SRAT_GICC || e->type == FW_SRAT_RINTC) {
		*uid = e->id;
		return true;
	}
	for (size_t i = 0; madt && i < madt->ncpus; i++)
		if (madt->cpus[i].apic_id == e->id) {
			*uid = madt->cpus[i].uid;
			return true;
		}
	return false;
}

/* The socket of each domain from the tables alone: every processor SRAT puts in the domain, by its
 * ACPI processor UID (MADT), is a PPTT leaf whose parents reach one physical package node. The
 * socket is that package's ACPI processor ID when valid, else its place among the packages in
 * table order (as Linux numbers a package without one: by the node's offset, in that order). A
 * domain with a processor PPTT does not place, or with processors in two packages, stays not known. */
static void assign_sockets_from_tables(struct fw_acpi_topo *t)
{
	const struct fw_pptt *pptt = fw_acpi_set_model(t->set, FW_ACPI_MODEL_PPTT);
	const struct fw_madt *madt = fw_acpi_set_model(t->set, FW_ACPI_MODEL_MADT);
	if (!pptt || !pptt->npackages || !t->srat)
		return;
	for (size_t k = 0; k < t->ndomains; k++) {
		struct fw_topo_domain *d = &t->domains[k];
		const struct fw_pptt_node *pkg = NULL;
		size_t ordinal = 0, n = 0;
		bool one = true;
		for (size_t i = 0; i < t->srat->nentries && one; i++) {
			const struct fw_srat_entry *e = &t->srat->entries[i];
			uint32_t uid;
			if (!e->enabled || e->proximity_domain != d->pxm ||
			    !(e->type == FW_SRAT_LOCAL_APIC || e->type == FW_SRAT_X2APIC || e->type == FW_SRAT_GICC || e->type == FW_SRAT_RINTC))
				continue;
			size_t ord = 0;
			const struct fw_pptt_node *p = processor_uid(e, madt, &uid) ? fw_pptt_package_of(pptt, uid, &ord) : NULL;
			one = p && (!pkg || p == pkg);
			pkg = p, ordinal = ord, n++;
		}
		if (!one || !pkg)
			continue;
		bool id = pkg->flags & FW_PPTT_ACPI_ID_VALID;
		d->socket = id ? (int)(pkg->acpi_id & 0x7FFFFFFF) : (int)ordinal;
		d->socket_from_tables = true;
		d->socket_source = fw_arena_printf(&t->arena, "PPTT physical package node at 0x%x (%s %u) of its %zu processors, by their ACPI processor UIDs in MADT", pkg->offset,
						   id ? "ACPI processor ID" : "package in table order", id ? pkg->acpi_id : (unsigned)ordinal, n);
	}
}

/* The socket of each domain from Linux: the node Linux numbers the domain as (in SRAT's order,
 * as the kernel does), that node's cpulist and each of its CPUs' topology/physical_package_id.
 * Only when the node has as many CPUs as SRAT gives the domain; a node whose CPUs span packages,
 * or that has none, stays not known. */
static void assign_sockets(struct fw_acpi_topo *t, const struct fw_topo_host *host)
{
	for (size_t i = 0; i < t->ndomains && t->srat; i++) {
		struct fw_topo_domain *d = &t->domains[i];
		int node = fw_srat_linux_node(t->srat, d->pxm);
		if (node < 0)
			continue;
		char rel[96];
		snprintf(rel, sizeof(rel), "sys/devices/system/node/node%d/cpulist", node);
		const char *list = host->attr(host->ctx, &t->arena, rel);
		if (!list || !d->cpus)
			continue;
		int socket = -1;
		size_t ncpus = 0;
		bool same = true;
		for (const char *p = list; *p && same;) {
			char *end;
			unsigned long first = strtoul(p, &end, 10), last = first;
			if (end == p)
				break;
			if (*end == '-')
				last = strtoul(end + 1, &end, 10);
			for (unsigned long c = first; c <= last && same && ncpus <= 65536; c++, ncpus++) {
				char crel[96];
				snprintf(crel, sizeof(crel), "sys/devices/system/cpu/cpu%lu/topology/physical_package_id", c);
				const char *pkg = host->attr(host->ctx, &t->arena, crel);
				char *pend;
				long v = pkg ? strtol(pkg, &pend, 10) : -1;
				if (!pkg || *pend || v < 0 || (socket >= 0 && v != socket))
					same = false;
				socket = (int)v;
			}
			p = *end == ',' ? end + 1 : end;
		}
		if (!same || ncpus != d->cpus || socket < 0) {
			/* the running machine says what the tables cannot: no single package */
			if (!same && d->socket_from_tables) {
				d->socket = -1;
				d->socket_source = NULL;
				d->socket_from_tables = false;
			}
			continue;
		}
		d->socket = socket;
		d->socket_from_tables = false;
		d->socket_source = fw_arena_printf(&t->arena, "/%s and cpuN/topology/physical_package_id of its %zu CPUs", rel, ncpus);
	}
}

static void build(struct fw_acpi_topo *t, struct fw_dsl_namespace *ns, const struct fw_topo_host *host)
{
	const struct fw_acpi_set *s = t->set;
	t->ivrs = fw_acpi_set_model(s, FW_ACPI_MODEL_IVRS);
	t->srat = fw_acpi_set_model(s, FW_ACPI_MODEL_SRAT);
	struct fw_dsl_devices bridges = {0};
	if (ns)
		fw_dsl_devices(ns, &bridges, &t->pxm_devices);
	t->bridges = fw_arena_alloc(&t->arena, (bridges.n + 1) * sizeof(*t->bridges));
	for (size_t i = 0; i < bridges.n; i++) {
		struct fw_topo_bridge *b = &t->bridges[t->nbridges++];
		memset(b, 0, sizeof(*b));
		b->dsl = bridges.v[i];
		b->present = !(b->dsl.has_sta && !(b->dsl.sta & 1));
		if (b->dsl.has_pxm) {
			b->pxm_known = true;
			b->pxm = (uint32_t)b->dsl.pxm;
			b->pxm_source = b->dsl.pxm_how;
		} else if (b->dsl.pxm_declared) {
			topo_diag(t, FW_DIAG_INFO, "%s: _PXM exists but is not a constant this reader can resolve", b->dsl.path);
		}
		if (!b->dsl.has_bbn && b->dsl.bbn_declared && !b->dsl.has_bus_range)
			topo_diag(t, FW_DIAG_INFO, "%s: _BBN is computed at run time; its bus range is unknown without a live root",
				  b->dsl.path);
		if (!b->present)
			topo_diag(t, FW_DIAG_INFO, "%s: _STA 0x%llx says the bridge is not present; Linux does not enumerate it",
				  b->dsl.path, (unsigned long long)b->dsl.sta);
	}
	if (s->source == FW_ACPI_SRC_IMAGE)
		topo_diag(t, FW_DIAG_INFO,
			  "the tables come from a firmware image: bus numbers, _PXM and _UID there are templates the firmware "
			  "patches at boot; a running machine's tables hold the real values");
	t->have_host = host != NULL;
	struct fw_topo_root_bus *roots = NULL;
	size_t nroots = host && host->root_buses ? host->root_buses(host->ctx, &t->arena, &roots) : 0;
	assign_bus_ranges(t, roots, nroots);
	assign_iommus(t);
	assign_initiators(t);
	build_domains(t);
	assign_sockets_from_tables(t);
	if (host) {
		struct fw_topo_pci_device *devs = NULL;
		size_t n = host->pci_devices ? host->pci_devices(host->ctx, &t->arena, &devs) : 0;
		assign_devices(t, devs, n);
		if (host->attr)
			assign_sockets(t, host);
		/* A device's numa_node is Linux's verdict; flag a bridge whose _PXM disagrees. */
		for (size_t k = 0; k < t->nbridges; k++) {
			const struct fw_topo_bridge *b = &t->bridges[k];
			for (size_t i = 0; i < b->ndevices && b->pxm_known; i++)
				if (b->devices[i].numa_node >= 0 && t->srat && t->srat->ndomains > 1 &&
				    (uint32_t)b->devices[i].numa_node != b->pxm) {
					topo_diag(t, FW_DIAG_INFO, "%s: device %s reports NUMA node %d, the bridge's _PXM is %u (node ids are Linux's numbering of the domains)",
						  b->dsl.path, b->devices[i].bdf, b->devices[i].numa_node, b->pxm);
					break;
				}
		}
	}
	if (t->ivrs)
		for (size_t k = 0; k < t->nbridges; k++)
			if (t->bridges[k].bus_known && !t->bridges[k].iommu && t->ivrs->niommus)
				topo_diag(t, FW_DIAG_WARN, "no IOMMU in the IVRS covers %s (buses %02x-%02x)", t->bridges[k].dsl.path,
					  t->bridges[k].bus_first, t->bridges[k].bus_last);
}

static struct fw_acpi_topo *topo_new(const struct fw_acpi_set *s)
{
	struct fw_acpi_topo *t = fw_xcalloc(1, sizeof(*t));
	fw_arena_init(&t->arena);
	t->set = s;
	return t;
}

bool fw_acpi_topo_build_dsl(const struct fw_acpi_set *s, const char *const *texts, const size_t *lens,
			    const char *const *names, size_t n, const struct fw_topo_host *host, struct fw_acpi_topo **out,
			    struct fw_error *err)
{
	struct fw_acpi_topo *t = topo_new(s);
	struct fw_dsl_namespace ns;
	fw_dsl_namespace_init(&ns, &t->arena);
	for (size_t i = 0; i < n; i++)
		if (!fw_dsl_parse(&ns, texts[i], lens[i], names[i], err)) {
			fw_acpi_topo_free(t);
			return false;
		}
	t->have_dsl = n > 0;
	t->dsl_tables = n;
	build(t, n ? &ns : NULL, host);
	*out = t;
	return true;
}

bool fw_acpi_topo_build(const struct fw_acpi_set *s, const struct fw_topo_options *o, struct fw_acpi_topo **out,
			struct fw_error *err)
{
	size_t naml = 0;
	for (size_t i = 0; i < s->ntables; i++)
		naml += (!memcmp(s->tables[i]->signature, "DSDT", 4) || !memcmp(s->tables[i]->signature, "SSDT", 4)) &&
			!s->tables[i]->truncated;
	if (!naml || (o && o->no_dsl)) {
		bool ok = fw_acpi_topo_build_dsl(s, NULL, NULL, NULL, 0, o ? o->host : NULL, out, err);
		if (ok && !naml)
			topo_diag(*out, FW_DIAG_INFO, "no DSDT or SSDT in the input: root bridges are unknown");
		return ok;
	}
	struct fw_iasl_job *jobs = fw_xcalloc(naml, sizeof(*jobs));
	char (*names)[16] = fw_xcalloc(naml, sizeof(*names)); /* "SSDT3" */
	char (*stems)[16] = fw_xcalloc(naml, sizeof(*stems)); /* "ssdt3", the file iasl reads */
	size_t n = 0;
	/* The DSDT first, then the SSDTs in input order: the order an OS loads them in, and iasl
	 * reads every table of one run into one namespace. */
	for (size_t k = 0; k < 2 * s->ntables; k++) {
		const struct fw_acpi_table *tb = s->tables[k % s->ntables];
		bool dsdt = !memcmp(tb->signature, "DSDT", 4);
		if ((k < s->ntables) != dsdt || (!dsdt && memcmp(tb->signature, "SSDT", 4)) || tb->truncated)
			continue;
		fw_acpi_table_name(tb, names[n], sizeof(names[n]));
		for (size_t c = 0; c < sizeof(stems[n]); c++)
			stems[n][c] = (char)tolower((unsigned char)names[n][c]);
		jobs[n].name = stems[n];
		jobs[n].aml = tb->data.p;
		jobs[n].len = tb->data.len;
		n++;
	}
	char *log = NULL;
	bool ok = fw_iasl_disassemble(jobs, n, o ? o->iasl_timeout : 0, &log, err);
	if (ok) {
		const char **texts = fw_xcalloc(n, sizeof(*texts));
		const char **labels = fw_xcalloc(n, sizeof(*labels));
		size_t *lens = fw_xcalloc(n, sizeof(*lens));
		size_t k = 0;
		for (size_t i = 0; i < n; i++) {
			if (!jobs[i].dsl)
				continue;
			texts[k] = jobs[i].dsl;
			lens[k] = jobs[i].dsl_len;
			labels[k] = names[i];
			k++;
		}
		ok = fw_acpi_topo_build_dsl(s, texts, lens, labels, k, o ? o->host : NULL, out, err);
		for (size_t i = 0; ok && i < n; i++) {
			if (jobs[i].signal)
				topo_diag(*out, FW_DIAG_WARN, "%s -d crashed (signal %d) on %s: its objects are not read",
					  fw_iasl_program(), jobs[i].signal, names[i]);
			else if (!jobs[i].dsl)
				topo_diag(*out, FW_DIAG_WARN, "iasl could not disassemble %s", names[i]);
		}
		free(texts);
		free(labels);
		free(lens);
	}
	free(log);
	fw_iasl_jobs_free(jobs, n);
	free(jobs);
	free(names);
	free(stems);
	return ok;
}
