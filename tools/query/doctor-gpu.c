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

enum gpu_event { EV_INIT, EV_FSP, EV_XID, EV_PROBE, EV_COUNT };
static const char *const event_names[EV_COUNT] = {"RmInitAdapter failed", "FSP boot error", "Xid", "probe failed"};

struct failing_gpu {
	char bdf[16];
	size_t count[EV_COUNT];
	char codes[160];
	double first_ts;
};

/* The first PCI address in a line: "0000:23:00.0", or "PCI:0000:23:00" (NVRM's Xid form). */
static bool line_bdf(const char *line, size_t len, char out[16])
{
	for (size_t i = 0; i + 7 <= len; i++) {
		const char *p = line + i;
		bool after_pci = i >= 4 && memcmp(p - 4, "PCI:", 4) == 0;
		if (i && (isxdigit((unsigned char)p[-1]) || (p[-1] == ':' && !after_pci)))
			continue;
		unsigned seg, bus, dev, fn = 0;
		int used = 0;
		if (sscanf(p, "%4x:%2x:%2x.%1x%n", &seg, &bus, &dev, &fn, &used) == 4 && p[4] == ':' && p[7] == ':') {
			snprintf(out, 16, "%04x:%02x:%02x.%x", seg, bus, dev, fn);
			return true;
		}
		if (sscanf(p, "%4x:%2x:%2x%n", &seg, &bus, &dev, &used) == 3 && p[4] == ':' && p[7] == ':' && used == 10 &&
		    (p[10] == ')' || p[10] == ' ' || p[10] == ':')) {
			snprintf(out, 16, "%04x:%02x:%02x.0", seg, bus, dev);
			return true;
		}
	}
	return false;
}

static void add_code(struct failing_gpu *g, const char *code)
{
	if (strstr(g->codes, code))
		return;
	size_t used = strlen(g->codes);
	snprintf(g->codes + used, sizeof(g->codes) - used, "%s%s", used ? ", " : "", code);
}

/* Error codes a line carries: NVRM's "(0x62:0xffff:2142)", FSP's "0x177", an Xid number. */
static void line_codes(struct failing_gpu *g, enum gpu_event ev, const char *line, size_t len)
{
	char buf[512];
	snprintf(buf, sizeof(buf), "%.*s", (int)(len < sizeof(buf) - 1 ? len : sizeof(buf) - 1), line);
	char code[64];
	if (ev == EV_INIT) {
		const char *p = strstr(buf, "failed!");
		p = p ? strchr(p, '(') : NULL;
		if (p && sscanf(p, "(%60[0-9a-fA-Fx:])", code) == 1)
			add_code(g, code);
		return;
	}
	if (ev == EV_XID) {
		const char *p = strstr(buf, "): ");
		unsigned xid;
		if (p && sscanf(p + 3, "%u", &xid) == 1) {
			snprintf(code, sizeof(code), "Xid %u", xid);
			add_code(g, code);
		}
		return;
	}
	if (ev == EV_PROBE) {
		const char *p = strstr(buf, "error ");
		int e;
		if (p && sscanf(p + 6, "%d", &e) == 1) {
			snprintf(code, sizeof(code), "probe error %d", e);
			add_code(g, code);
		}
		return;
	}
	/* FSP: hex numbers after "error" */
	const char *p = strstr(buf, "rror");
	for (p = p ? p : buf; (p = strstr(p, "0x")); p += 2) {
		unsigned v;
		if (sscanf(p, "0x%x", &v) == 1 && v > 0xFF) {
			snprintf(code, sizeof(code), "FSP error 0x%x", v);
			add_code(g, code);
		}
	}
}

static bool classify(const char *line, size_t len, enum gpu_event *ev)
{
	char buf[512];
	snprintf(buf, sizeof(buf), "%.*s", (int)(len < sizeof(buf) - 1 ? len : sizeof(buf) - 1), line);
	if (strstr(buf, "probe of ") && strstr(buf, " failed")) {
		*ev = EV_PROBE;
		return true;
	}
	if (!strstr(buf, "NVRM"))
		return false;
	if (strstr(buf, "RmInitAdapter failed"))
		*ev = EV_INIT;
	else if (strstr(buf, "kfsp") || strstr(buf, "FSP"))
		*ev = EV_FSP;
	else if (strstr(buf, "Xid"))
		*ev = EV_XID;
	else
		return false;
	return true;
}

void fw_check_gpu_driver_init(const struct fw_doctor_ctx *ctx, struct fw_check_result *r)
{
	if (!fw_doctor_needs_log(ctx, r))
		return;
	const struct fw_host *h = ctx->host;
	struct failing_gpu gpus[MAX_FAILING];
	size_t ng = 0, lines = 0, unattributed = 0, shown = 0;
	for (const char *line = h->dmesg; *line;) {
		const char *eol = strchr(line, '\n');
		size_t len = eol ? (size_t)(eol - line) : strlen(line);
		lines++;
		enum gpu_event ev;
		if (classify(line, len, &ev)) {
			char bdf[16];
			if (!line_bdf(line, len, bdf)) {
				unattributed++;
			} else {
				size_t k;
				for (k = 0; k < ng; k++)
					if (strcmp(gpus[k].bdf, bdf) == 0)
						break;
				if (k == ng && ng < MAX_FAILING) {
					memset(&gpus[ng], 0, sizeof(gpus[ng]));
					snprintf(gpus[ng].bdf, sizeof(gpus[ng].bdf), "%s", bdf);
					gpus[ng].first_ts = -1;
					if (sscanf(line, " [ %lf]", &gpus[ng].first_ts) != 1)
						gpus[ng].first_ts = -1;
					ng++;
				}
				if (k < ng) {
					gpus[k].count[ev]++;
					line_codes(&gpus[k], ev, line, len);
				}
			}
			if (shown++ < 8)
				fw_check_evidence(r, FW_EVIDENCE_LOG, fw_doctor_log_from(ctx), "%.*s", (int)(len > 300 ? 300 : len), line);
		}
		line += len + (eol ? 1 : 0);
	}
	if (shown > 8)
		fw_check_evidence(r, FW_EVIDENCE_LOG, fw_doctor_log_from(ctx), "(%zu more GPU failure lines)", shown - 8);
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
	char *fix = NULL;
	size_t identity = 0;
	for (size_t k = 0; k < ng; k++) {
		const struct failing_gpu *g = &gpus[k];
		const struct fw_pci_device *d = fw_host_pci(h, g->bdf);
		const struct fw_iommu_group *grp = d ? fw_host_group(h, d->iommu_group) : NULL;
		char model[128], counts[160] = "";
		for (int e = 0; e < EV_COUNT; e++)
			if (g->count[e]) {
				size_t used = strlen(counts);
				snprintf(counts + used, sizeof(counts) - used, "%s%zu %s", used ? ", " : "", g->count[e], event_names[e]);
			}
		bool ident = grp && grp->type && strcmp(grp->type, "identity") == 0;
		identity += ident;
		char one[1024], gs[64] = "unknown", ts[48] = "";
		if (grp)
			snprintf(gs, sizeof(gs), "%d, %s now", grp->id, grp->type ? grp->type : "type unknown");
		if (g->first_ts >= 0)
			snprintf(ts, sizeof(ts), ", first at %.6f s", g->first_ts);
		snprintf(one, sizeof(one), "GPU %s (%s, IOMMU group %s): %s%s%s%s%s. ", g->bdf,
			 d ? fw_doctor_gpu_model(h, d, model, sizeof(model)) : "not in the captured PCI tree", gs, counts,
			 g->codes[0] ? " (" : "", g->codes, g->codes[0] ? ")" : "", ts);
		strncat(expl, one, sizeof(expl) - strlen(expl) - 1);
		if (d)
			fw_check_evidence(r, FW_EVIDENCE_FILE, "sys/kernel/iommu_groups/*/type", "%s: IOMMU group %d, %s",
					  g->bdf, d->iommu_group, grp && grp->type ? grp->type : "type unknown");
		if (ident && d && !fix)
			fix = fw_doctor_gpu_recovery(h, d);
	}
	if (unattributed) {
		char one[128];
		snprintf(one, sizeof(one), "%zu failure line%s name no PCI address. ", unattributed, unattributed == 1 ? "" : "s");
		strncat(expl, one, sizeof(expl) - strlen(expl) - 1);
	}
	if (identity)
		strncat(expl,
			"Cause: the GPU's IOMMU group is identity now, switched from the translated default after boot. The "
			"GPU's firmware security processor (FSP) needs the DMA mappings a translating domain sets up while it "
			"boots; an identity domain does not translate and sets none up, so the FSP boot commands fail "
			"(kfspSendBootCommands_HAL, 0x177) and RmInitAdapter gives up.",
			sizeof(expl) - strlen(expl) - 1);
	else
		strncat(expl,
			"The groups of these GPUs are not identity now; if they were identity when the failures were logged, "
			"that was the cause (the type then is not recorded).",
			sizeof(expl) - strlen(expl) - 1);
	fw_check_set(r, FW_CHECK_FAIL, expl,
		     fix ? fix
			 : "Look the Xid and RmInitAdapter codes up in NVIDIA's Xid catalogue; if the GPUs' groups were "
			   "switched to identity before the failures, follow the recovery in gpu-identity-domains.");
	free(fix);
}

void fw_check_gpu_identity_domains(const struct fw_doctor_ctx *ctx, struct fw_check_result *r)
{
	if (!fw_doctor_needs_host(ctx, r))
		return;
	const struct fw_host *h = ctx->host;
	const struct fw_pci_device *all[MAX_GPUS];
	size_t n = fw_host_gpus(h, all, MAX_GPUS), fsp = 0, identity = 0;
	if (n > MAX_GPUS)
		n = MAX_GPUS;
	if (!h->groups_captured) {
		fw_check_skip(r, "sys/kernel/iommu_groups", "The IOMMU groups were not captured.");
		return;
	}
	char ids[256] = "";
	const struct fw_pci_device *first = NULL;
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
		if (g && g->type && strcmp(g->type, "identity") == 0) {
			identity++;
			size_t used = strlen(ids);
			snprintf(ids + used, sizeof(ids) - used, "%s%s (group %d)", used ? ", " : "", d->bdf, g->id);
			if (!first)
				first = d;
		}
	}
	if (!fsp) {
		fw_check_skip(r, "sys/bus/pci/devices", "No NVIDIA GPU of the Blackwell generation (device ids 0x2900-0x2FFF).");
		return;
	}
	if (!identity) {
		fw_check_setf(r, FW_CHECK_PASS, NULL,
			      "None of the %zu Blackwell GPUs is in an identity group: their firmware boots with the DMA "
			      "mappings of a translating domain.",
			      fsp);
		return;
	}
	char *fix = fw_doctor_gpu_recovery(h, first);
	if (identity > 1) {
		char *more = fw_xasprintf("%s Repeat for each GPU listed, with its own group and upstream bridge.", fix);
		free(fix);
		fix = more;
	}
	fw_check_setf(r, FW_CHECK_FAIL, fix,
		      "%zu Blackwell GPU%s in identity group%s: %s. An identity domain does not translate, so the GPU's "
		      "firmware security processor (FSP) finds none of the DMA mappings a translating domain sets up during "
		      "its boot; the driver then fails with RmInitAdapter failed (0x62:0xffff:2142) and FSP error 0x177 "
		      "(see gpu-driver-init). Binding the driver again under identity fails the same way.",
		      identity, identity == 1 ? " is" : "s are", identity == 1 ? "" : "s", ids);
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
	size_t n = fw_host_gpus(h, all, MAX_GPUS), conflicts = 0, held = 0, vm = 0, ct = 0, host = 0;
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
	}
	if (conflicts)
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
