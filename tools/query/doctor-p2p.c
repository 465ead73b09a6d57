/* Doctor checks on GPUs: the bridges between them, ACS redirect, IOMMU faults between peers,
 * link training, NUMA locality and BAR sizes. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "doctor-checks.h"

#define MAX_GPUS 64
#define MAX_PATH 32

size_t fw_host_gpus(const struct fw_host *h, const struct fw_pci_device **out, size_t max)
{
	size_t n = 0;
	for (size_t i = 0; i < h->npci; i++)
		if (fw_pci_is_gpu(&h->pci[i])) {
			if (n < max)
				out[n] = &h->pci[i];
			n++;
		}
	return n;
}

static bool is_vfio(const struct fw_pci_device *d)
{
	return d->driver && strcmp(d->driver, "vfio-pci") == 0;
}

static size_t chain(const struct fw_pci_device *d, const struct fw_pci_device **out, size_t max)
{
	size_t n = 0;
	for (const struct fw_pci_device *p = d->parent; p && n < max; p = p->parent)
		out[n++] = p;
	return n;
}

size_t fw_host_path_bridges(const struct fw_host *h, const struct fw_pci_device *a, const struct fw_pci_device *b,
			    const struct fw_pci_device **out, size_t max, const struct fw_pci_device **common)
{
	(void)h;
	const struct fw_pci_device *ca[MAX_PATH], *cb[MAX_PATH];
	size_t na = chain(a, ca, MAX_PATH), nb = chain(b, cb, MAX_PATH);
	*common = NULL;
	size_t ia = na, ib = nb;
	for (size_t i = 0; i < na && !*common; i++)
		for (size_t j = 0; j < nb; j++)
			if (ca[i] == cb[j]) {
				*common = ca[i];
				ia = i;
				ib = j;
				break;
			}
	size_t n = 0;
	for (size_t i = 0; i < ia && n < max; i++)
		out[n++] = ca[i];
	for (size_t j = 0; j < ib && n < max; j++)
		out[n++] = cb[j];
	return n;
}

static const char *dev_file(const struct fw_pci_device *d, const char *file, char *buf, size_t len)
{
	snprintf(buf, len, "sys/bus/pci/devices/%s/%s", d->bdf, file);
	return buf;
}
static const char *cfg_path(const struct fw_pci_device *d, char *buf, size_t len) { return dev_file(d, "config", buf, len); }
static const char *numa_path(const struct fw_pci_device *d, char *buf, size_t len) { return dev_file(d, "numa_node", buf, len); }
static const char *res_path(const struct fw_pci_device *d, char *buf, size_t len) { return dev_file(d, "resource", buf, len); }

static const char *port_kind(const struct fw_pci_device *d)
{
	if (d->have_config && d->cfg.has_pcie)
		return fw_pcie_port_type_name(d->cfg.pcie_port_type);
	return d->have_config && d->cfg.bridge ? "PCI bridge" : "device";
}

static void acs_evidence(struct fw_check_result *r, const struct fw_pci_device *b, bool *redirect, bool *unknown)
{
	char path[96];
	if (!b->have_config || !b->cfg.extended_known) {
		*unknown = true;
		fw_check_evidence(r, FW_EVIDENCE_ABSENT, cfg_path(b, path, sizeof(path)), "%s (%s): ACS unknown (config space read without root)", b->bdf, port_kind(b));
		return;
	}
	if (!b->cfg.has_acs) {
		fw_check_evidence(r, FW_EVIDENCE_FILE, cfg_path(b, path, sizeof(path)), "%s (%s): no ACS capability", b->bdf, port_kind(b));
		return;
	}
	char bits[160];
	fw_pci_acs_str(b->cfg.acs_ctl, b->cfg.acs_cap, bits, sizeof(bits));
	bool rr = (b->cfg.acs_ctl & (FW_PCI_ACS_RR | FW_PCI_ACS_CR)) != 0;
	*redirect = *redirect || rr;
	fw_check_evidence(r, FW_EVIDENCE_FILE, cfg_path(b, path, sizeof(path)), "%s (%s): ACS at 0x%x: %s%s", b->bdf, port_kind(b), b->cfg.acs_offset, bits,
			  rr ? " -> peer requests go up to the root complex" : "");
}

void fw_check_acs_gpu_paths(const struct fw_doctor_ctx *ctx, struct fw_check_result *r)
{
	if (!fw_doctor_needs_host(ctx, r))
		return;
	const struct fw_host *h = ctx->host;
	const struct fw_pci_device *gpus[MAX_GPUS];
	size_t ng = fw_host_gpus(h, gpus, MAX_GPUS);
	if (ng > MAX_GPUS)
		ng = MAX_GPUS;
	const struct fw_pci_device *host_gpus[MAX_GPUS];
	size_t nh = 0;
	for (size_t i = 0; i < ng; i++)
		if (!is_vfio(gpus[i]))
			host_gpus[nh++] = gpus[i];
	if (nh < 2) {
		fw_check_skip(r, "sys/bus/pci/devices", "%zu GPU%s driven by the host: no peer pair to look at.", nh, nh == 1 ? "" : "s");
		return;
	}
	size_t shared = 0, redirected = 0;
	bool unknown = false;
	r->affects = FW_AFFECTS_HOST_GPUS; /* the pairs are of GPUs the host drives */
	char ports[512] = ""; /* the ports that redirect, as pci=disable_acs_redir= takes them */
	for (size_t i = 0; i < nh; i++)
		for (size_t j = i + 1; j < nh; j++) {
			const struct fw_pci_device *path[2 * MAX_PATH], *common;
			size_t np = fw_host_path_bridges(h, host_gpus[i], host_gpus[j], path, 2 * MAX_PATH, &common);
			if (!common) {
				fw_check_evidence(r, FW_EVIDENCE_FILE, "sys/devices (PCI tree)", "%s <-> %s: under different root ports (%s, %s): P2P crosses the root "
						     "complex and is translated by the IOMMU whatever ACS says",
						  host_gpus[i]->bdf, host_gpus[j]->bdf,
						  host_gpus[i]->parent ? host_gpus[i]->parent->bdf : "host bridge",
						  host_gpus[j]->parent ? host_gpus[j]->parent->bdf : "host bridge");
				continue;
			}
			shared++;
			fw_check_evidence(r, FW_EVIDENCE_FILE, "sys/devices (PCI tree)", "%s <-> %s: meet at %s (%s)", host_gpus[i]->bdf, host_gpus[j]->bdf, common->bdf,
					  port_kind(common));
			bool redirect = false;
			for (size_t k = 0; k < np; k++) {
				bool here = false;
				acs_evidence(r, path[k], &here, &unknown);
				redirect |= here;
				if (here && !strstr(ports, path[k]->bdf)) {
					size_t used = strlen(ports);
					snprintf(ports + used, sizeof(ports) - used, "%s%s", used ? ";" : "", path[k]->bdf);
				}
			}
			if (redirect)
				redirected++;
		}
	if (unknown)
		fw_check_set(r, FW_CHECK_SKIP,
			     "The bridges' ACS control registers were not captured (config spaces need root to read past "
			     "64 bytes).",
			     NULL);
	else if (redirected) {
		char fix[1024];
		snprintf(fix, sizeof(fix),
			 "To let same-switch pairs talk directly, clear redirect on those downstream ports only: add "
			 "pci=disable_acs_redir=%s to the kernel command line (quoted in /etc/default/grub, since it holds ';'), "
			 "keeping the passthrough GPUs under other switches so their groups stay isolated; or keep "
			 "NCCL_P2P_DISABLE=1. `fwlens plan SRC --kernel-arg 'pci=disable_acs_redir=%s' -o acs.sh` writes it for "
			 "this machine's boot loader (or `fwlens plan SRC --profile p2p-host`).",
			 ports, ports);
		fw_check_setf(r, FW_CHECK_WARN, fix,
			      "%zu of %zu same-switch GPU pairs have request/completion redirect on the ports between them. "
			      "Linux sets these bits itself once an IOMMU is present (pci_request_acs), so their P2P goes up to "
			      "the root complex and through the IOMMU, where it faults unless the peer's BAR is mapped in the "
			      "requester's domain.",
			      redirected, shared);
	} else if (shared)
		fw_check_setf(r, FW_CHECK_PASS, NULL, "The %zu same-switch GPU pairs have no redirect on their path.", shared);
	else
		fw_check_set(r, FW_CHECK_PASS,
			     "No two host GPUs share a switch: every P2P transfer crosses the root complex, so ACS on the "
			     "ports does not change its route; the IOMMU translates it.",
			     NULL);
}

struct fault_group {
	const char *device;
	const struct fw_pci_device *peer;
	int bar;
	uint64_t domain, lo, hi;
	size_t count;
};

/* A fault the device raised while bound to vfio-pci (the driver named in the log line, else the
 * one bound now): its address is an IOVA of the guest that owns the device. */
static bool guest_fault(const struct fw_iommu_fault *f, const struct fw_pci_device *req)
{
	if (f->line) {
		const char *p = f->line;
		if (*p == '[' && (p = strchr(p, ']')))
			p++;
		while (p && *p == ' ')
			p++;
		if (p && strncmp(p, "vfio-pci ", 9) == 0)
			return true;
		if (p && strchr(p, ' ') && strchr(p, ' ') - p < 24 && strstr(p, "AMD-Vi") && strncmp(p, "AMD-Vi", 6) != 0)
			return false; /* another driver logged it */
	}
	return req && req->driver && strcmp(req->driver, "vfio-pci") == 0;
}

void fw_check_p2p_faults(const struct fw_doctor_ctx *ctx, struct fw_check_result *r)
{
	if (!fw_doctor_needs_log(ctx, r))
		return;
	const struct fw_host *h = ctx->host;
	struct fault_group groups[64];
	size_t ng = 0, total = 0, peer_faults = 0, nguest = 0, guest_total = 0;
	struct fault_group guests[64];
	for (size_t i = 0; i < h->nfaults; i++) {
		const struct fw_iommu_fault *f = &h->faults[i];
		if (strcmp(f->event, "IO_PAGE_FAULT") != 0)
			continue;
		const struct fw_pci_device *req = fw_host_pci(h, f->device);
		if (guest_fault(f, req)) {
			/* a guest's IOVA: never looked up among the host's BARs */
			size_t k;
			for (k = 0; k < nguest; k++)
				if (strcmp(guests[k].device, f->device) == 0)
					break;
			if (k == nguest && nguest < 64)
				guests[nguest++] = (struct fault_group){f->device, NULL, -1, f->domain, f->address, f->address, 0};
			if (k < nguest) {
				guests[k].count++;
				guests[k].lo = f->address < guests[k].lo ? f->address : guests[k].lo;
				guests[k].hi = f->address > guests[k].hi ? f->address : guests[k].hi;
			}
			guest_total++;
			continue;
		}
		total++;
		int bar = -1;
		const struct fw_pci_device *peer = fw_host_bar_owner(h, f->address, &bar);
		size_t k;
		for (k = 0; k < ng; k++)
			if (strcmp(groups[k].device, f->device) == 0 && groups[k].peer == peer && groups[k].domain == f->domain)
				break;
		if (k == ng) {
			if (ng == 64)
				continue;
			groups[ng++] = (struct fault_group){f->device, peer, bar, f->domain, f->address, f->address, 0};
		}
		struct fault_group *g = &groups[k];
		g->count++;
		if (f->address < g->lo)
			g->lo = f->address;
		if (f->address > g->hi)
			g->hi = f->address;
		if (peer)
			peer_faults++;
	}
	for (size_t k = 0; k < nguest; k++) {
		const struct fw_pci_device *req = fw_host_pci(h, guests[k].device);
		fw_check_evidence(r, FW_EVIDENCE_LOG, fw_doctor_log_from(ctx),
				  "%zu IO_PAGE_FAULT from %s (bound to vfio-pci%s%s, domain 0x%" PRIx64 ") at 0x%" PRIx64
				  "..0x%" PRIx64 ": guest addresses, not matched against the host's BARs",
				  guests[k].count, guests[k].device, req && req->owner ? ", " : "",
				  req && req->owner ? req->owner : "", guests[k].domain, guests[k].lo, guests[k].hi);
	}
	r->affects = (guest_total ? FW_AFFECTS_VM_GPUS : 0) | (total ? FW_AFFECTS_HOST_GPUS : 0);
	if (!total && guest_total) {
		fw_doctor_log_evidence(ctx, r, "IO_PAGE_FAULT", 2);
		fw_check_setf(r, FW_CHECK_WARN,
			      "Look inside the guest that owns the device (its driver and the memory it gave the device); "
			      "nothing on the host's side needs changing for these.",
			      "%zu IO_PAGE_FAULT event%s, all from devices bound to vfio-pci: the faulting addresses are the "
			      "guest's DMA addresses in its own domain, so these are the guest's faults, not P2P between the "
			      "host's GPUs.",
			      guest_total, guest_total == 1 ? "" : "s");
		return;
	}
	if (!total) {
		size_t lines = fw_host_log_lines(h, "", NULL, 0);
		fw_check_evidence(r, FW_EVIDENCE_LOG, fw_doctor_log_from(ctx), "no IO_PAGE_FAULT in %zu lines", lines);
		fw_check_set(r, FW_CHECK_PASS, "The kernel log has no IO_PAGE_FAULT.", NULL);
		return;
	}
	/* when the faults were logged: a group's type now may differ from its type then */
	double first_ts = -1, last_ts = -1;
	for (size_t i = 0; i < h->nfaults; i++) {
		double t;
		if (h->faults[i].line && sscanf(h->faults[i].line, " [ %lf]", &t) == 1) {
			if (first_ts < 0 || t < first_ts)
				first_ts = t;
			if (t > last_ts)
				last_ts = t;
		}
	}
	char when[96] = "at times the log does not give";
	if (first_ts >= 0)
		snprintf(when, sizeof(when), "between %.6f and %.6f s after boot", first_ts, last_ts);
	const struct fw_pci_device *first_req = NULL, *first_peer = NULL;
	int first_bar = -1;
	for (size_t k = 0; k < ng; k++) {
		const struct fault_group *g = &groups[k];
		const struct fw_pci_device *req = fw_host_pci(h, g->device);
		const struct fw_iommu_group *rg = req ? fw_host_group(h, req->iommu_group) : NULL;
		char target[160];
		if (g->peer)
			snprintf(target, sizeof(target), "BAR%d of %s (%s)", g->bar, g->peer->bdf,
				 fw_pci_is_gpu(g->peer) ? "GPU" : fw_pci_class_name(g->peer->cfg.class_code));
		else
			snprintf(target, sizeof(target), "no device BAR (system memory or unmapped)");
		fw_check_evidence(r, FW_EVIDENCE_LOG, fw_doctor_log_from(ctx), "%zu IO_PAGE_FAULT from %s (%s, IOMMU group %d, %s now, domain 0x%" PRIx64 ") at 0x%" PRIx64
				     "..0x%" PRIx64 " -> %s",
				  g->count, g->device[0] ? g->device : "(unknown requester)",
				  req && fw_pci_is_gpu(req) ? "GPU" : "device", req ? req->iommu_group : -1,
				  rg && rg->type ? rg->type : "type unknown", g->domain, g->lo, g->hi, target);
		if (req && g->peer && fw_pci_is_gpu(req) && fw_pci_is_gpu(g->peer) && !first_req) {
			first_req = req;
			first_peer = g->peer;
			first_bar = g->bar;
		}
	}
	fw_doctor_log_evidence(ctx, r, "IO_PAGE_FAULT", 2);
	if (first_req) {
		const struct fw_pci_device *path[2 * MAX_PATH], *common;
		size_t np = fw_host_path_bridges(h, first_req, first_peer, path, 2 * MAX_PATH, &common);
		bool redirect = false, unknown = false;
		fw_check_evidence(r, FW_EVIDENCE_FILE, "sys/devices (PCI tree)", "path %s -> %s: %s", first_req->bdf, first_peer->bdf,
				  common ? "through a shared switch" : "through the root complex");
		for (size_t k = 0; k < np; k++)
			acs_evidence(r, path[k], &redirect, &unknown);
		const struct fw_iommu_group *rg = fw_host_group(h, first_req->iommu_group);
		const struct fw_iommu_group *pg = fw_host_group(h, first_peer->iommu_group);
		if (rg && rg->type && strcmp(rg->type, "identity") == 0) {
			/* an identity domain does not translate and cannot fault: these date from an earlier type */
			fw_check_setf(r, FW_CHECK_FAIL,
				      "Keep the host GPUs' groups on translated domains (DMA-FQ) and set NCCL_P2P_DISABLE=1; see "
				      "gpu-identity-domains for returning the identity groups.",
				      "GPU %s faulted %zu times on BAR%d of GPU %s, logged %s. Its IOMMU group %d is identity now; "
				      "an identity domain does not translate and raises no IO_PAGE_FAULT, so these faults were "
				      "logged while the group still had a translating domain, before its type was changed. Known: "
				      "the type now (identity) and the time of the faults; the type then is not recorded.",
				      first_req->bdf, peer_faults, first_bar, first_peer->bdf, when, first_req->iommu_group);
			return;
		}
		fw_check_setf(r, FW_CHECK_FAIL,
			      "Options: (1) keep the IOMMU translating and set NCCL_P2P_DISABLE=1 (traffic goes through host "
			      "memory; works, slower); (2) map peer BARs for the host GPUs (driver/CUDA peer mappings through "
			      "the DMA API) so P2P is translated instead of faulting; (3) put the host GPUs that talk to each "
			      "other under one switch and clear ACS redirect on its downstream ports only "
			      "(pci=disable_acs_redir= with the ports acs-gpu-paths names), leaving the passthrough GPUs isolated. Rejected: iommu=pt or identity "
			      "domains for the host GPUs' groups (SNP requires translation; identity domains also broke GPU "
			      "firmware init on this class of host); disabling the IOMMU (no SNP, no vfio).",
			      "GPU %s (IOMMU group %d, %s) issued DMA to addresses inside BAR%d of GPU %s (group %d, %s): "
			      "peer-to-peer traffic %s. The IOMMU translates every request in a %s domain, and the peer's BAR "
			      "is not mapped in the requester's domain, so each access faults (%zu of %zu faults hit a peer "
			      "BAR, logged %s). This is what makes NCCL hang in init_process_group.",
			      first_req->bdf, first_req->iommu_group, rg && rg->type ? rg->type : "translated", first_bar,
			      first_peer->bdf, first_peer->iommu_group, pg && pg->type ? pg->type : "?",
			      common ? (redirect ? "that ACS redirect sends up to the root complex" : "inside a switch")
				     : "across the root complex",
			      rg && rg->type ? rg->type : "translated", peer_faults, total, when);
		return;
	}
	fw_check_setf(r, FW_CHECK_WARN, "Find the driver that programs these addresses; faults on system memory often mean a "
					"stale or missing DMA mapping.",
		      "%zu IO_PAGE_FAULT event%s from the host's devices, none of them on a GPU's BAR: faults on system "
		      "memory or unmapped addresses, not between GPUs.",
		      total, total == 1 ? "" : "s");
}

void fw_check_gpu_links(const struct fw_doctor_ctx *ctx, struct fw_check_result *r)
{
	char path[96];
	if (!fw_doctor_needs_host(ctx, r))
		return;
	const struct fw_pci_device *gpus[MAX_GPUS];
	size_t ng = fw_host_gpus(ctx->host, gpus, MAX_GPUS), known = 0, slow = 0;
	if (ng > MAX_GPUS)
		ng = MAX_GPUS;
	for (size_t i = 0; i < ng; i++) {
		const struct fw_pci_device *g = gpus[i];
		if (!g->cfg.has_pcie || !g->cfg.link_cap_speed)
			continue;
		known++;
		bool down = g->cfg.link_speed < g->cfg.link_cap_speed || g->cfg.link_width < g->cfg.link_cap_width;
		slow += down;
		fw_check_evidence(r, FW_EVIDENCE_FILE, cfg_path(g, path, sizeof(path)), "%s: Gen%u x%u of Gen%u x%u%s", g->bdf, g->cfg.link_speed, g->cfg.link_width,
				  g->cfg.link_cap_speed, g->cfg.link_cap_width, down ? " (below capability)" : "");
	}
	if (!ng)
		fw_check_skip(r, "sys/bus/pci/devices", "No GPU found.");
	else if (!known)
		fw_check_skip(r, "sys/bus/pci/devices/*/config", "The GPUs' PCIe capabilities were not captured.");
	else if (slow)
		fw_check_setf(r, FW_CHECK_WARN,
			      "Check the slot, riser and bifurcation settings; an idle GPU may also train down to save power.",
			      "%zu of %zu GPUs run below their link capability.", slow, known);
	else
		fw_check_setf(r, FW_CHECK_PASS, NULL, "All %zu GPUs run at their full link speed and width.", known);
}

void fw_check_gpu_numa(const struct fw_doctor_ctx *ctx, struct fw_check_result *r)
{
	char path[96];
	if (!fw_doctor_needs_host(ctx, r))
		return;
	const struct fw_pci_device *gpus[MAX_GPUS];
	size_t ng = fw_host_gpus(ctx->host, gpus, MAX_GPUS), unknown = 0;
	if (ng > MAX_GPUS)
		ng = MAX_GPUS;
	for (size_t i = 0; i < ng; i++) {
		fw_check_evidence(r, FW_EVIDENCE_FILE, numa_path(gpus[i], path, sizeof(path)), "%s: NUMA node %d%s", gpus[i]->bdf, gpus[i]->numa_node,
				  is_vfio(gpus[i]) ? " (vfio-pci)" : "");
		unknown += gpus[i]->numa_node < 0;
	}
	if (!ng)
		fw_check_skip(r, "sys/bus/pci/devices", "No GPU found.");
	else if (unknown)
		fw_check_setf(r, FW_CHECK_WARN,
			      fw_doctor_guest_why(ctx)
				      ? "Inside a guest the NUMA layout is the VM's: give it NUMA nodes that follow the GPUs' host "
					"nodes (Proxmox: numa: 1 with numaN: entries) if pinning matters."
				      : "The root bridges need a _PXM in the DSDT (or the kernel a SRAT); check 'fwlens acpi topo'.",
			      "%zu of %zu GPUs have no NUMA node (numa_node -1): pinning VMs and ranks to the GPU's socket is "
			      "guesswork.",
			      unknown, ng);
	else
		fw_check_setf(r, FW_CHECK_PASS, NULL, "Every GPU has a NUMA node; pin each rank or VM to its GPU's node.");
}

void fw_check_gpu_bars(const struct fw_doctor_ctx *ctx, struct fw_check_result *r)
{
	char path[96];
	if (!fw_doctor_needs_host(ctx, r))
		return;
	const struct fw_pci_device *gpus[MAX_GPUS];
	size_t ng = fw_host_gpus(ctx->host, gpus, MAX_GPUS), small = 0, known = 0;
	if (ng > MAX_GPUS)
		ng = MAX_GPUS;
	for (size_t i = 0; i < ng; i++) {
		uint64_t largest = 0;
		int which = -1;
		for (int k = 0; k < 6; k++) {
			const struct fw_pci_bar *b = &gpus[i]->bars[k];
			if (b->end > b->start && b->end - b->start + 1 > largest) {
				largest = b->end - b->start + 1;
				which = k;
			}
		}
		if (which < 0)
			continue;
		known++;
		bool is_small = largest < (1ULL << 30);
		small += is_small;
		fw_check_evidence(r, FW_EVIDENCE_FILE, res_path(gpus[i], path, sizeof(path)), "%s: largest BAR%d is %" PRIu64 " MiB at 0x%" PRIx64 "%s", gpus[i]->bdf, which,
				  largest >> 20, gpus[i]->bars[which].start, is_small ? " (small: Resize BAR off?)" : "");
	}
	if (!known)
		fw_check_skip(r, ng ? "sys/bus/pci/devices/*/resource" : "sys/bus/pci/devices",
			      "%s", ng ? "The GPUs' BAR ranges were not captured." : "No GPU found.");
	else if (small)
		fw_check_setf(r, FW_CHECK_WARN, "Enable Above 4G Decoding and Resize BAR Support in the BIOS.",
			      "%zu of %zu GPUs expose no BAR of 1 GiB or more: only a window of the VRAM is mappable by peers "
			      "and guests.",
			      small, known);
	else
		fw_check_setf(r, FW_CHECK_PASS, NULL, "Every GPU maps at least 1 GiB through one BAR (full-size BAR1).");
}
