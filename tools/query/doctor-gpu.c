/* Doctor checks on NVIDIA GPU bring-up: driver initialisation failures in the kernel log (NVRM
 * RmInitAdapter, FSP boot errors, Xid events, failed probes) and identity domains on GPUs whose
 * firmware security processor (FSP) needs the DMA mappings a translating domain sets up during
 * its boot. The recovery that worked on the reference host is given as exact commands. */
#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "doctor-checks.h"
#include "tools/host/pci-names.h"

#define MAX_GPUS 64
#define MAX_FAILING 16

static bool is_nvidia_gpu(const struct fw_pci_device *d)
{
	return fw_pci_is_gpu(d) && d->cfg.vendor == 0x10DE;
}

/* Blackwell generation, as the PCI id lists group NVIDIA's device ids: GB100/GB102 0x29xx, GB202
 * 0x2Bxx, GB203 0x2Cxx, GB205-GB207 0x2Dxx-0x2Fxx. Their FSP boots with DMA through the IOMMU. */
bool fw_doctor_gpu_needs_translation(const struct fw_pci_device *d)
{
	return is_nvidia_gpu(d) && d->cfg.device >= 0x2900 && d->cfg.device <= 0x2FFF;
}

const char *fw_doctor_gpu_model(const struct fw_host *h, const struct fw_pci_device *d, char *buf, size_t len)
{
	/* the driver's own name for it, when /proc/driver/nvidia was captured */
	char path[96];
	snprintf(path, sizeof(path), "proc/driver/nvidia/gpus/%s/information", d->bdf);
	char *info = fw_machine_read_text(h->machine, path);
	if (info) {
		const char *m = strstr(info, "Model:");
		if (m) {
			m += 6;
			while (*m == ' ' || *m == '\t')
				m++;
			if (d->have_config) /* the ids beside the driver's name, as beside the database's */
				snprintf(buf, len, "%.*s (%04x:%04x)", (int)strcspn(m, "\n"), m, d->cfg.vendor, d->cfg.device);
			else
				snprintf(buf, len, "%.*s", (int)strcspn(m, "\n"), m);
			free(info);
			return buf;
		}
		free(info);
	}
	if (d->have_config) /* the PCI ID database's name beside the ids, or the ids alone */
		fw_pci_device_name(d->cfg.vendor, d->cfg.device, buf, len);
	else
		snprintf(buf, len, "device of unknown id");
	return buf;
}

/* The device's other functions in the same slot (a GPU's audio function goes with it). */
static size_t slot_functions(const struct fw_host *h, const struct fw_pci_device *d, const struct fw_pci_device **out,
			     size_t max)
{
	size_t n = 0;
	for (size_t i = 0; i < h->npci && n < max; i++) {
		const struct fw_pci_device *o = &h->pci[i];
		if (o->segment == d->segment && o->bus == d->bus && o->dev == d->dev)
			out[n++] = o;
	}
	return n;
}

/* Devices below a bridge (other than the ones named), for the warning that a bus reset hits them. */
static size_t below(const struct fw_host *h, const struct fw_pci_device *bridge, const struct fw_pci_device *gpu,
		    char *list, size_t len)
{
	size_t n = 0;
	list[0] = '\0';
	for (size_t i = 0; i < h->npci; i++) {
		const struct fw_pci_device *o = &h->pci[i];
		if (o->segment == gpu->segment && o->bus == gpu->bus && o->dev == gpu->dev)
			continue;
		for (const struct fw_pci_device *p = o->parent; p; p = p->parent)
			if (p == bridge) {
				size_t used = strlen(list);
				snprintf(list + used, len - used, "%s%s", n ? ", " : "", o->bdf);
				n++;
				break;
			}
	}
	return n;
}

char *fw_doctor_gpu_recovery(const struct fw_host *h, const struct fw_pci_device *gpu)
{
	const struct fw_pci_device *fns[8];
	size_t nf = slot_functions(h, gpu, fns, 8);
	const struct fw_pci_device *bridge = gpu->parent;
	char *out = fw_xasprintf("Recover GPU %s (do not bind a driver to it while its group is identity; a rebind under "
				 "identity fails the same way): ",
				 gpu->bdf);
#define ADD(...)                                                                                                       \
	do {                                                                                                           \
		char *more = fw_xasprintf(__VA_ARGS__);                                                                \
		char *joined = fw_xasprintf("%s%s", out, more);                                                        \
		free(out);                                                                                             \
		free(more);                                                                                            \
		out = joined;                                                                                          \
	} while (0)
	int step = 1;
	for (size_t i = 0; i < nf; i++)
		if (fns[i]->driver)
			ADD("(%d) echo %s > /sys/bus/pci/drivers/%s/unbind -- releases the function from its driver; ", step++,
			    fns[i]->bdf, fns[i]->driver);
	if (gpu->iommu_group >= 0)
		ADD("(%d) echo DMA-FQ > /sys/kernel/iommu_groups/%d/type -- gives the group a translating domain again (the "
		    "kernel accepts it only while no driver is bound in the group); ",
		    step++, gpu->iommu_group);
	for (size_t i = 0; i < nf; i++)
		ADD("(%d) echo 1 > /sys/bus/pci/devices/%s/remove -- takes the function out of the PCI tree; ", step++,
		    fns[i]->bdf);
	if (bridge) {
		char others[512];
		size_t n = below(h, bridge, gpu, others, sizeof(others));
		ADD("(%d) setpci -s %s BRIDGE_CONTROL=0x40:0x40; sleep 0.2; setpci -s %s BRIDGE_CONTROL=0x00:0x40; sleep 1 -- "
		    "secondary bus reset: sets, then clears, bit 6 (Secondary Bus Reset) of the Bridge Control register "
		    "(0x3E) of the upstream bridge %s, a hot reset of everything below it that restarts the GPU and its FSP "
		    "(on kernels with the attribute, echo 1 > /sys/bus/pci/devices/%s/reset_subordinate does the same)%s%s; ",
		    step++, bridge->bdf, bridge->bdf, bridge->bdf, bridge->bdf, n ? "; it also resets " : "",
		    n ? others : "");
	} else {
		ADD("(%d) no upstream bridge is known for %s, so no secondary bus reset can be aimed at it: power-cycle instead; ",
		    step++, gpu->bdf);
	}
	ADD("(%d) echo 1 > /sys/bus/pci/rescan -- finds the GPU again; the driver probes it in the default translated "
	    "domain and its FSP boots; (%d) dmesg | grep -E 'RmInitAdapter|kfsp' shows no new failure and nvidia-smi "
	    "lists %s. If it still fails: a cold power cycle (power off, remove AC or ipmitool chassis power cycle, power on) "
	    "always recovers it. FLR, a bus reset alone, remove/rescan alone and a driver reload did not.",
	    step, step + 1, gpu->bdf);
#undef ADD
	return out;
}

/* Drivers whose failed probe is a GPU bring-up failure even for a device no longer in the tree. */
static bool gpu_driver(const char *drv)
{
	return strcmp(drv, "nvidia") == 0 || strcmp(drv, "nouveau") == 0 || strcmp(drv, "amdgpu") == 0;
}

/* Driver errors of this boot, per device: a GPU's (or a GPU driver's) RmInitAdapter, FSP, Xid and
 * failed-probe events, judged by the device's latest state. */
struct gpu_failure {
	char bdf[16];
	struct fw_dev_state st;
	char kinds[192]; /* "1 RmInitAdapter failed (0x62:0xffff:2142), 1 FSP error 0x177, ..." */
};

static void add_kind(struct gpu_failure *g, const struct fw_host *h)
{
	/* each distinct "what" with its count, in log order */
	char seen[8][64];
	size_t counts[8], n = 0;
	for (size_t i = 0; i < h->history.count; i++) {
		const struct fw_dev_event *e = &h->history.events[i];
		if (strcmp(e->bdf, g->bdf) != 0 || (e->kind != FW_DEV_DRIVER_ERROR && e->kind != FW_DEV_PROBE_FAILED))
			continue;
		size_t k;
		for (k = 0; k < n; k++)
			if (strcmp(seen[k], e->what) == 0)
				break;
		if (k == n && n < 8) {
			snprintf(seen[n], sizeof(seen[n]), "%s", e->what);
			counts[n++] = 0;
		}
		if (k < n)
			counts[k]++;
	}
	g->kinds[0] = '\0';
	for (size_t k = 0; k < n; k++) {
		size_t used = strlen(g->kinds);
		snprintf(g->kinds + used, sizeof(g->kinds) - used, "%s%zu %s", k ? ", " : "", counts[k], seen[k]);
	}
}

static size_t gpu_failures(const struct fw_host *h, struct gpu_failure *out, size_t max)
{
	size_t n = 0;
	for (size_t i = 0; i < h->history.count; i++) {
		const struct fw_dev_event *e = &h->history.events[i];
		if (e->kind != FW_DEV_DRIVER_ERROR && e->kind != FW_DEV_PROBE_FAILED)
			continue;
		const struct fw_pci_device *d = fw_host_pci(h, e->bdf);
		if (d ? !fw_pci_is_gpu(d) : !gpu_driver(e->driver))
			continue;
		size_t k;
		for (k = 0; k < n; k++)
			if (strcmp(out[k].bdf, e->bdf) == 0)
				break;
		if (k < n || n == max)
			continue;
		snprintf(out[n].bdf, sizeof(out[n].bdf), "%s", e->bdf);
		fw_dev_state(&h->history, e->bdf, &out[n].st);
		add_kind(&out[n], h);
		n++;
	}
	return n;
}

/* Failure lines in the log that name no PCI address (so whose, and whether current, is not known). */
static size_t unattributed_failures(const struct fw_host *h)
{
	const char *lines[64];
	size_t n = fw_host_log_lines(h, "RmInitAdapter failed", lines, 64), un = 0;
	for (size_t i = 0; i < n && i < 64; i++) {
		const char *g = strstr(lines[i], "GPU ");
		unsigned s, b, d, f;
		if (!g || sscanf(g + 4, "%4x:%2x:%2x.%1x", &s, &b, &d, &f) != 4)
			un++;
	}
	return un;
}

/* Is the device working now by what is known: re-enumerated or re-probed with no error since,
 * still in the PCI tree, with a driver bound (when the tree was captured). */
static const char *recovered_text(const struct fw_host *h, const struct gpu_failure *g, char *buf, size_t len)
{
	const struct fw_dev_state *st = &g->st;
	const struct fw_pci_device *d = fw_host_pci(h, g->bdf);
	const struct fw_dev_event *re = st->reenumerated;
	if (re && re->seconds >= 0 && st->last_error && st->last_error->seconds > re->seconds)
		re = NULL; /* an older re-enumeration: the latest start is a re-probe */
	char drv[64] = "";
	if (d && d->driver)
		snprintf(drv, sizeof(drv), "; bound to %s now", d->driver);
	if (re && st->start && st->start != re)
		snprintf(buf, len, "recovered at %s: re-enumerated, then enabled by %s at %s, no error since%s",
			 fw_dev_event_when(re), st->start->driver, fw_dev_event_when(st->start), drv);
	else if (re)
		snprintf(buf, len, "re-enumerated at %s, no error since%s", fw_dev_event_when(re), drv);
	else
		snprintf(buf, len, "recovered at %s: enabled again by %s, no error since%s", fw_dev_event_when(st->start),
			 st->start->driver, drv);
	return buf;
}

void fw_check_gpu_driver_init(const struct fw_doctor_ctx *ctx, struct fw_check_result *r)
{
	if (!fw_doctor_needs_log(ctx, r))
		return;
	const struct fw_host *h = ctx->host;
	struct gpu_failure gpus[MAX_FAILING];
	size_t ng = gpu_failures(h, gpus, MAX_FAILING), unattributed = unattributed_failures(h);
	size_t lines = fw_host_log_lines(h, "", NULL, 0);
	if (h->history.earlier_boots)
		fw_check_evidence(r, FW_EVIDENCE_LOG, fw_doctor_log_from(ctx),
				  "the log holds %zu earlier boot%s; only the last boot's lines are judged", h->history.earlier_boots,
				  h->history.earlier_boots == 1 ? "" : "s");
	if (!ng && !unattributed) {
		const struct fw_pci_device *all[MAX_GPUS];
		size_t n = fw_host_gpus(h, all, MAX_GPUS), nv = 0;
		for (size_t i = 0; i < n && i < MAX_GPUS; i++)
			nv += is_nvidia_gpu(all[i]);
		fw_check_evidence(r, FW_EVIDENCE_LOG, fw_doctor_log_from(ctx),
				  "no RmInitAdapter, FSP, Xid or failed-probe line in %zu lines", lines);
		if (h->nvidia_version)
			fw_check_evidence(r, FW_EVIDENCE_FILE, "proc/driver/nvidia/version", "%s", h->nvidia_version);
		if (!nv && !h->nvidia_version)
			fw_check_skip(r, "sys/bus/pci/devices", "No NVIDIA GPU and no NVIDIA driver on this machine.");
		else
			fw_check_setf(r, FW_CHECK_PASS, NULL,
				      "The kernel log shows no GPU driver initialisation failure for the %zu NVIDIA GPU%s.", nv,
				      nv == 1 ? "" : "s");
		return;
	}
	char expl[4096] = "";
	const struct fw_pci_device *failing[MAX_FAILING];
	size_t nfail = 0, nrec = 0, shown = 0, identity = 0;
	for (size_t k = 0; k < ng; k++) {
		const struct gpu_failure *g = &gpus[k];
		const struct fw_pci_device *d = fw_host_pci(h, g->bdf);
		const struct fw_iommu_group *grp = d ? fw_host_group(h, d->iommu_group) : NULL;
		/* current: an error after the latest (re-)enumeration or probe, or the device gone since */
		bool gone = g->st.removed || (!d && h->npci);
		bool current = g->st.errors_current || gone || !g->st.start;
		for (size_t i = 0; i < h->history.count; i++) {
			const struct fw_dev_event *e = &h->history.events[i];
			if (strcmp(e->bdf, g->bdf) == 0 && (e->kind == FW_DEV_DRIVER_ERROR || e->kind == FW_DEV_PROBE_FAILED) &&
			    shown++ < 8)
				fw_check_evidence(r, FW_EVIDENCE_LOG, fw_doctor_log_from(ctx), "[%s] %.*s", fw_dev_event_when(e),
						  (int)(e->len > 300 ? 300 : e->len), e->line);
		}
		r->affects |= fw_doctor_gpu_affects(d);
		char model[128], gs[64] = "unknown", one[1024], state[256];
		if (grp)
			snprintf(gs, sizeof(gs), "%d, %s now", grp->id, grp->type ? grp->type : "type unknown");
		if (current) {
			if (gone)
				snprintf(state, sizeof(state), "not in the PCI tree now%s%s", g->st.removed ? " (removed at " : "",
					 g->st.removed ? fw_dev_event_when(g->st.removed) : "");
			else
				snprintf(state, sizeof(state), "failing now: the last error at %s comes after its latest %s",
					 fw_dev_event_when(g->st.last_error),
					 g->st.start ? (g->st.start->kind == FW_DEV_ENUMERATED ? "enumeration" : "probe")
						     : "enumeration, which the log does not show");
			if (gone && g->st.removed)
				strncat(state, ")", sizeof(state) - strlen(state) - 1);
			if (d && nfail < MAX_FAILING)
				failing[nfail++] = d;
			identity += grp && grp->type && strcmp(grp->type, "identity") == 0;
		} else {
			recovered_text(h, g, state, sizeof(state));
			fw_check_evidence(r, FW_EVIDENCE_LOG, fw_doctor_log_from(ctx), "%s: %s", g->bdf, state);
			if (d && !d->driver)
				strncat(state, "; no driver is bound to it now", sizeof(state) - strlen(state) - 1);
			nrec++;
		}
		snprintf(one, sizeof(one), "GPU %s (%s, IOMMU group %s): %s, first at %s; %s. ", g->bdf,
			 d ? fw_doctor_gpu_model(h, d, model, sizeof(model)) : "not in the captured PCI tree", gs, g->kinds,
			 fw_dev_event_when(g->st.first_error), state);
		strncat(expl, one, sizeof(expl) - strlen(expl) - 1);
		if (d)
			fw_check_evidence(r, FW_EVIDENCE_FILE, "sys/kernel/iommu_groups/*/type", "%s: IOMMU group %d, %s, driver %s",
					  g->bdf, d->iommu_group, grp && grp->type ? grp->type : "type unknown",
					  d->driver ? d->driver : "none");
	}
	if (shown > 8)
		fw_check_evidence(r, FW_EVIDENCE_LOG, fw_doctor_log_from(ctx), "(%zu more GPU failure lines)", shown - 8);
	if (unattributed) {
		char one[160];
		snprintf(one, sizeof(one), "%zu RmInitAdapter failure line%s name no PCI address: whose, and whether current, is "
					   "not known. ",
			 unattributed, unattributed == 1 ? "" : "s");
		strncat(expl, one, sizeof(expl) - strlen(expl) - 1);
		fw_doctor_log_evidence(ctx, r, "RmInitAdapter failed", 2);
	}
	size_t current = ng - nrec;
	if (!current) {
		strncat(expl,
			"Every failure above is history: the GPU was enumerated or probed again after it and no error was "
			"logged since. Nothing to recover; keep its group translating.",
			sizeof(expl) - strlen(expl) - 1);
		fw_check_set(r, FW_CHECK_WARN, expl, NULL);
		return;
	}
	if (identity)
		strncat(expl,
			"Cause: the failing GPUs' IOMMU groups are identity now, switched from the translated default after "
			"boot. The GPU's firmware security processor (FSP) needs the DMA mappings a translating domain sets up "
			"while it boots; an identity domain does not translate and sets none up, so the FSP boot commands fail "
			"(kfspSendBootCommands_HAL, 0x177) and RmInitAdapter gives up.",
			sizeof(expl) - strlen(expl) - 1);
	else
		strncat(expl,
			"The groups of the failing GPUs are not identity now; if they were identity when the failures were "
			"logged, that was the cause (the type then is not recorded).",
			sizeof(expl) - strlen(expl) - 1);
	char *fix = nfail && identity ? fw_doctor_gpu_recovery_all(h, failing, nfail) : NULL;
	fw_check_set(r, FW_CHECK_FAIL, expl,
		     fix ? fix
			 : "Look the Xid and RmInitAdapter codes up in NVIDIA's Xid catalogue; if the GPUs' groups were "
			   "switched to identity before the failures, follow the recovery in gpu-identity-domains.");
	free(fix);
}

char *fw_doctor_gpu_recovery_all(const struct fw_host *h, const struct fw_pci_device *const *gpus, size_t n)
{
	char list[1024] = "", bdfs[512] = "";
	for (size_t i = 0; i < n; i++) {
		size_t used = strlen(list);
		char grp[32] = "IOMMU group not known";
		if (gpus[i]->iommu_group >= 0)
			snprintf(grp, sizeof(grp), "IOMMU group %d", gpus[i]->iommu_group);
		snprintf(list + used, sizeof(list) - used, "%s%s (%s, upstream bridge %s)", i ? ", " : "", gpus[i]->bdf, grp,
			 gpus[i]->parent ? gpus[i]->parent->bdf : "not known");
		used = strlen(bdfs);
		snprintf(bdfs + used, sizeof(bdfs) - used, "%s%s", i ? "," : "", gpus[i]->bdf);
	}
	char *steps = fw_doctor_gpu_recovery(h, gpus[0]);
	char *out = fw_xasprintf("Recover only the GPU%s whose driver failed: %s. Write the steps as a script, read it, then "
				 "run it: fwlens plan %s --gpu-recovery %s -o recover.sh. By hand: %s%s",
				 n == 1 ? "" : "s", list, fw_machine_path(h->machine), bdfs, steps,
				 n > 1 ? " Repeat for each GPU listed, with its own group and upstream bridge." : "");
	free(steps);
	return out;
}

/* A host GPU driver (not vfio-pci) holds the device. */
static bool host_driver_bound(const struct fw_pci_device *d)
{
	return d->driver && strcmp(d->driver, "vfio-pci") != 0;
}

void fw_check_gpu_identity_domains(const struct fw_doctor_ctx *ctx, struct fw_check_result *r)
{
	if (!fw_doctor_needs_host(ctx, r))
		return;
	const struct fw_host *h = ctx->host;
	const struct fw_pci_device *all[MAX_GPUS];
	size_t n = fw_host_gpus(h, all, MAX_GPUS), fsp = 0;
	if (n > MAX_GPUS)
		n = MAX_GPUS;
	if (!h->groups_captured) {
		fw_check_skip(r, "sys/kernel/iommu_groups", "The IOMMU groups were not captured.");
		return;
	}
	/* identity GPUs by state: failing now, working now (a host driver bound, no error since its
	 * latest start), not bound */
	char failing_ids[256] = "", working_ids[256] = "", idle_ids[256] = "";
	const struct fw_pci_device *failing[MAX_FAILING];
	size_t nfail = 0, nwork = 0, nidle = 0;
	for (size_t i = 0; i < n; i++) {
		const struct fw_pci_device *d = all[i];
		if (!fw_doctor_gpu_needs_translation(d))
			continue;
		fsp++;
		const struct fw_iommu_group *g = fw_host_group(h, d->iommu_group);
		char model[128];
		fw_check_evidence(r, FW_EVIDENCE_FILE, "sys/kernel/iommu_groups/*/type", "%s %s: IOMMU group %d, %s, driver %s",
				  d->bdf, fw_doctor_gpu_model(h, d, model, sizeof(model)), d->iommu_group,
				  g && g->type ? g->type : "type unknown", d->driver ? d->driver : "none");
		if (!g || !g->type || strcmp(g->type, "identity") != 0)
			continue;
		struct fw_dev_state st;
		fw_dev_state(&h->history, d->bdf, &st);
		r->affects |= fw_doctor_gpu_affects(d);
		char *ids;
		if (st.errors_current) {
			ids = failing_ids;
			if (nfail < MAX_FAILING)
				failing[nfail] = d;
			nfail++;
		} else if (host_driver_bound(d)) {
			ids = working_ids;
			nwork++;
			if (st.start)
				fw_check_evidence(r, FW_EVIDENCE_LOG, fw_doctor_log_from(ctx), "%s: enabled by %s at %s, no error since",
						  d->bdf, st.start->driver[0] ? st.start->driver : "its driver",
						  fw_dev_event_when(st.start));
			else if (!h->dmesg)
				fw_check_evidence(r, FW_EVIDENCE_ABSENT, fw_doctor_log_from(ctx),
						  "%s: bound to %s; no kernel log, so whether its firmware initialised is not known",
						  d->bdf, d->driver);
		} else {
			ids = idle_ids;
			nidle++;
		}
		size_t used = strlen(ids);
		snprintf(ids + used, 256 - used, "%s%s (group %d)", used ? ", " : "", d->bdf, g->id);
	}
	if (!fsp) {
		fw_check_skip(r, "sys/bus/pci/devices", "No NVIDIA GPU of the Blackwell generation (device ids 0x2900-0x2FFF).");
		return;
	}
	if (!nfail && !nwork && !nidle) {
		fw_check_setf(r, FW_CHECK_PASS, NULL,
			      "None of the %zu Blackwell GPUs is in an identity group: their firmware boots with the DMA "
			      "mappings of a translating domain.",
			      fsp);
		return;
	}
	char expl[2048] = "";
	if (nfail)
		snprintf(expl, sizeof(expl),
			 "%zu Blackwell GPU%s in identity group%s and failing: %s. An identity domain does not translate, so the "
			 "GPU's firmware security processor (FSP) finds none of the DMA mappings a translating domain sets up "
			 "during its boot; the driver then fails with RmInitAdapter failed (0x62:0xffff:2142) and FSP error "
			 "0x177 (see gpu-driver-init). Binding the driver again under identity fails the same way. ",
			 nfail, nfail == 1 ? " is" : "s are", nfail == 1 ? "" : "s", failing_ids);
	if (nwork) {
		size_t used = strlen(expl);
		snprintf(expl + used, sizeof(expl) - used,
			 "%zu Blackwell GPU%s in identity group%s with %s: %s. %s now; "
			 "Blackwell FSP init is known to fail when the driver re-initialises under identity: do not unbind "
			 "%s, and return the group%s to DMA-FQ only at a planned stop (a reboot does it). ",
			 nwork, nwork == 1 ? " is" : "s are", nwork == 1 ? "" : "s",
			 !h->dmesg ? "a host driver bound (no kernel log: whether it initialised is not known)"
			 : nwork == 1 ? "its driver initialised and no error since"
				      : "their driver initialised and no error since",
			 working_ids,
			 !h->dmesg ? (nwork == 1 ? "It is bound" : "They are bound") : nwork == 1 ? "It works" : "They work", nwork == 1 ? "it" : "them", nwork == 1 ? "" : "s");
	}
	if (nidle) {
		size_t used = strlen(expl);
		snprintf(expl + used, sizeof(expl) - used,
			 "%zu Blackwell GPU%s in identity group%s with no host driver bound: %s. Binding the driver under "
			 "identity would fail; the group can be returned to a translating domain first, since no driver holds "
			 "it. ",
			 nidle, nidle == 1 ? " is" : "s are", nidle == 1 ? "" : "s", idle_ids);
	}
	expl[strlen(expl) - 1] = '\0';
	char *fix = NULL;
	if (nfail)
		fix = fw_doctor_gpu_recovery_all(h, failing, nfail < MAX_FAILING ? nfail : MAX_FAILING);
	else if (nidle)
		fix = fw_xasprintf("For each GPU with no driver listed: echo DMA-FQ > /sys/kernel/iommu_groups/N/type (its "
				   "group number above), then bind its driver.");
	else
		fix = fw_xasprintf("Nothing to do now: leave the working GPUs bound. To return their groups to translated "
				   "domains, reboot (the default domain type is what the kernel sets at boot).");
	fw_check_set(r, nfail ? FW_CHECK_FAIL : FW_CHECK_WARN, expl, fix);
	free(fix);
}

void fw_check_gpu_assignment(const struct fw_doctor_ctx *ctx, struct fw_check_result *r)
{
	if (!fw_doctor_needs_host(ctx, r))
		return;
	const struct fw_host *h = ctx->host;
	if (!h->pve_captured) {
		fw_check_skip(r, "etc/pve", "No Proxmox VM or container configuration (etc/pve/qemu-server, etc/pve/lxc) was "
					    "captured, so which guest owns which GPU is not known.");
		return;
	}
	const struct fw_pci_device *all[MAX_GPUS];
	size_t n = fw_host_gpus(h, all, MAX_GPUS), conflicts = 0, held = 0, vm = 0, ct = 0, host = 0, undriven = 0,
	       unowned = 0;
	char undriven_ids[512] = "", unowned_ids[512] = "";
	if (n > MAX_GPUS)
		n = MAX_GPUS;
	if (!n) {
		fw_check_skip(r, "sys/bus/pci/devices", "No GPU found.");
		return;
	}
	for (size_t i = 0; i < n; i++) {
		const struct fw_pci_device *d = all[i];
		char model[128];
		char file[256] = "sys/bus/pci/devices";
		if (d->owner_from)
			snprintf(file, sizeof(file), "%.*s", (int)strcspn(d->owner_from, ":"), d->owner_from);
		fw_check_evidence(r, FW_EVIDENCE_FILE, file, "%s %s: %s%s (%s), driver %s%s", d->bdf,
				  fw_doctor_gpu_model(h, d, model, sizeof(model)), d->owner ? d->owner : "no owner",
				  d->owner_snp ? ", an SEV-SNP guest" : "",
				  d->owner_from ? strchr(d->owner_from, ':') + 2 : "no configuration names it",
				  d->driver ? d->driver : "none", d->nclaims > 1 ? "; claimed by more than one guest" : "");
		conflicts += d->nclaims > 1;
		bool to_vm = d->owner && strncmp(d->owner, "VM ", 3) == 0;
		vm += to_vm;
		ct += d->owner && strncmp(d->owner, "container ", 10) == 0;
		host += d->owner && strcmp(d->owner, "host") == 0;
		held += to_vm && d->driver && strcmp(d->driver, "vfio-pci") != 0;
		char *ids = NULL;
		if (!d->driver && d->owner) {
			ids = undriven_ids;
			undriven++;
		} else if (!d->owner) {
			ids = unowned_ids;
			unowned++;
		}
		if (ids || (to_vm && d->driver && strcmp(d->driver, "vfio-pci") != 0) || d->nclaims > 1)
			r->affects |= fw_doctor_gpu_affects(d);
		if (ids) {
			size_t used = strlen(ids);
			snprintf(ids + used, 512 - used, "%s%s (%s)", used ? ", " : "", d->bdf, d->owner ? d->owner : "no owner");
		}
	}
	if (undriven) {
		/* a GPU nobody can use: the host or a container needs the host driver, a VM needs vfio-pci */
		fw_check_setf(r, FW_CHECK_FAIL,
			      "Find why the driver did not bind (gpu-driver-init shows failed probes); bind the driver its "
			      "owner needs (a VM: vfio-pci; the host or a container: the GPU driver).",
			      "%zu GPU%s no driver bound: %s. %s owner cannot use %s.", undriven,
			      undriven == 1 ? " has" : "s have", undriven_ids, undriven == 1 ? "Its" : "Their",
			      undriven == 1 ? "it" : "them");
	} else if (unowned) {
		fw_check_setf(r, FW_CHECK_WARN,
			      "Give the GPU to the host (bind its driver), a VM (hostpciN) or a container (device mounts), "
			      "or leave it unused on purpose.",
			      "%zu GPU%s no owner: no driver holds %s and no VM or container configuration names %s: %s.",
			      unowned, unowned == 1 ? " has" : "s have", unowned == 1 ? "it" : "them",
			      unowned == 1 ? "it" : "them", unowned_ids);
	} else if (conflicts)
		fw_check_setf(r, FW_CHECK_FAIL, "Give each GPU to one guest: remove it from the other configurations.",
			      "%zu GPU%s claimed by more than one VM or container configuration: whichever starts second "
			      "fails, or both use the device at once.",
			      conflicts, conflicts == 1 ? " is" : "s are");
	else if (held)
		fw_check_setf(r, FW_CHECK_WARN,
			      "Stop the host's use of those GPUs (or the container using them) before starting the VM; bind "
			      "them to vfio-pci at boot (driver_override) if they are the VM's for good.",
			      "%zu GPU%s given to a VM %s bound to a host driver, not vfio-pci: the VM is not running, or it "
			      "cannot start while the host holds them.",
			      held, held == 1 ? " is" : "s are", held == 1 ? "is" : "are");
	else
		fw_check_setf(r, FW_CHECK_PASS, NULL,
			      "Each of the %zu GPUs has one owner: %zu given to VMs (bound to vfio-pci), %zu to containers, %zu "
			      "used by the host directly.",
			      n, vm, ct, host);
}
