/* GPU recovery as a plan (plan-gpu-recovery.h). */
#include "plan-gpu-recovery.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The GPU a driver-failure line names: "NVRM: GPU 0000:23:00.0: RmInitAdapter failed!" or
 * "nvidia: probe of 0000:23:00.0 failed with error -1"; the device minor when the line gives one
 * ("rm_init_adapter failed, device minor number 0"). Other lines: false. */
static bool failure_line(const char *line, size_t len, char bdf[16], int *minor)
{
	char buf[512];
	snprintf(buf, sizeof(buf), "%.*s", (int)(len < sizeof(buf) - 1 ? len : sizeof(buf) - 1), line);
	const char *at = NULL;
	if (strstr(buf, "NVRM") && (strstr(buf, "RmInitAdapter failed") || strstr(buf, "rm_init_adapter failed")))
		at = strstr(buf, "GPU ");
	else if ((at = strstr(buf, "probe of ")) && !strstr(at, " failed"))
		at = NULL;
	if (!at)
		return false;
	at = strchr(at, ' ');
	at = at && at[1] == 'o' ? strchr(at + 1, ' ') : at; /* "probe of " */
	unsigned seg, bus, dev, fn;
	if (!at || sscanf(at + 1, "%4x:%2x:%2x.%1x", &seg, &bus, &dev, &fn) != 4)
		return false;
	snprintf(bdf, 16, "%04x:%02x:%02x.%x", seg, bus, dev, fn);
	const char *m = strstr(buf, "device minor number ");
	*minor = m ? atoi(m + 20) : -1;
	return true;
}

/* The last driver-failure line for bdf in the log, and the minor it gives. */
static char *last_failure(const struct fw_host *h, const char *bdf, int *minor)
{
	char *found = NULL;
	*minor = -1;
	for (const char *line = h->dmesg; line && *line;) {
		const char *eol = strchr(line, '\n');
		size_t len = eol ? (size_t)(eol - line) : strlen(line);
		char b[16];
		int m = -1;
		if (failure_line(line, len, b, &m) && strcmp(b, bdf) == 0) {
			free(found);
			found = fw_xstrndup(line, len > 300 ? 300 : len);
			if (m >= 0)
				*minor = m;
		}
		line += len + (eol ? 1 : 0);
	}
	return found;
}

/* The translated type the machine's other groups have (the kernel's default domain type). */
static const char *translated_type(const struct fw_host *h, char **why)
{
	size_t fq = 0, dma = 0;
	for (size_t i = 0; i < h->ngroups; i++)
		if (h->groups[i].type) {
			fq += strcmp(h->groups[i].type, "DMA-FQ") == 0;
			dma += strcmp(h->groups[i].type, "DMA") == 0;
		}
	*why = fw_xasprintf("sys/kernel/iommu_groups/*/type: %zu DMA-FQ, %zu DMA groups", fq, dma);
	return fq >= dma && fq ? "DMA-FQ" : "DMA";
}

static bool add_gpu(const struct fw_host *h, const struct fw_pci_device *d, bool from_failed, struct fw_gpu_recovery_plan *p,
		    struct fw_error *err)
{
	for (size_t i = 0; i < p->n; i++)
		if (p->items[i].gpu == d)
			return true;
	if (p->n == FW_GPU_RECOVERY_MAX)
		return fw_error_set(err, FW_E_USAGE, "more than %d GPUs in one recovery plan", FW_GPU_RECOVERY_MAX);
	struct fw_gpu_recovery *g = &p->items[p->n];
	memset(g, 0, sizeof(*g));
	g->gpu = d;
	int log_minor = -1;
	g->failure = h->dmesg ? last_failure(h, d->bdf, &log_minor) : NULL;
	if (d->driver && (g->failure || !h->dmesg)) {
		/* bound now: a later probe succeeded, or nothing says it failed */
		free(g->failure);
		return from_failed || fw_error_set(err, FW_E_USAGE, "GPU %s has driver %s bound%s: a recovery would reset a "
						   "GPU that works", d->bdf, d->driver,
						   h->dmesg ? " after its failure in the kernel log" : " and no kernel log is captured");
	}
	if (!g->failure && h->dmesg)
		return fw_error_set(err, FW_E_USAGE, "GPU %s: the kernel log (%s) shows no driver failure for it: a recovery "
				    "would reset a GPU that may work", d->bdf, h->dmesg_from ? h->dmesg_from : "?");
	g->bridge = d->parent;
	if (!g->bridge) {
		free(g->failure);
		return fw_error_set(err, FW_E_USAGE, "GPU %s: no upstream bridge is known, so no secondary bus reset can be "
				    "aimed at it: power-cycle the machine instead", d->bdf);
	}
	for (size_t i = 0; i < h->npci; i++) {
		const struct fw_pci_device *o = &h->pci[i];
		bool own = o->segment == d->segment && o->bus == d->bus && o->dev == d->dev;
		if (own && g->nfns < FW_GPU_RECOVERY_FNS) {
			g->fns[g->nfns++] = o;
			continue;
		}
		for (const struct fw_pci_device *up = o->parent; up && !own; up = up->parent)
			if (up == g->bridge) {
				free(g->failure);
				return fw_error_set(err, FW_E_USAGE, "GPU %s: a secondary bus reset of its bridge %s would also "
						    "reset %s: recover it by a cold power cycle", d->bdf, g->bridge->bdf, o->bdf);
			}
	}
	for (size_t i = 1; i < g->nfns; i++) /* the GPU first */
		if (g->fns[i] == d) {
			g->fns[i] = g->fns[0];
			g->fns[0] = d;
		}
	g->group = d->iommu_group;
	const struct fw_iommu_group *grp = fw_host_group(h, d->iommu_group);
	g->group_type = grp ? grp->type : NULL;
	g->translated = translated_type(h, &g->translated_why);
	if (d->nvidia_minor >= 0) {
		g->minor = d->nvidia_minor;
		g->minor_from = fw_xasprintf("proc/driver/nvidia/gpus/%s/information", d->bdf);
	} else if (log_minor >= 0) {
		g->minor = log_minor;
		g->minor_from = fw_xasprintf("the kernel log (%s)", h->dmesg_from ? h->dmesg_from : "?");
	} else {
		g->minor = -1;
	}
	g->why = g->failure ? fw_xasprintf("the driver failed: %s", g->failure)
			    : fw_xstrdup("no driver is bound and no kernel log is captured");
	p->n++;
	return true;
}

bool fw_gpu_recovery_make(const struct fw_host *h, const char *spec, struct fw_gpu_recovery_plan *out,
			  struct fw_error *err)
{
	memset(out, 0, sizeof(*out));
	out->log_from = h->dmesg_from;
	if (strcmp(spec, "failed") == 0) {
		if (!h->dmesg)
			return fw_error_set(err, FW_E_NOT_FOUND, "--gpu-recovery failed needs the kernel log: %s",
					    h->dmesg_why[0] ? h->dmesg_why : "not captured");
		for (size_t i = 0; i < h->npci; i++) {
			const struct fw_pci_device *d = &h->pci[i];
			int minor;
			char *line = fw_pci_is_gpu(d) ? last_failure(h, d->bdf, &minor) : NULL;
			if (!line)
				continue;
			free(line);
			if (!add_gpu(h, d, true, out, err)) {
				fw_gpu_recovery_free(out);
				return false;
			}
		}
		if (!out->n)
			return fw_error_set(err, FW_E_NOT_FOUND, "the kernel log (%s) shows no GPU whose driver failed and is "
					    "still unbound", h->dmesg_from ? h->dmesg_from : "?");
		return true;
	}
	char *list = fw_xstrdup(spec);
	bool ok = true;
	for (char *save = NULL, *tok = strtok_r(list, ",", &save); tok && ok; tok = strtok_r(NULL, ",", &save)) {
		unsigned seg, bus, dev, fn;
		char bdf[16];
		if (!fw_parse_bdf(tok, &seg, &bus, &dev, &fn)) {
			ok = fw_error_set(err, FW_E_USAGE, "--gpu-recovery takes failed or BDF[,BDF...], not '%s'", tok);
			break;
		}
		snprintf(bdf, sizeof(bdf), "%04x:%02x:%02x.%x", seg, bus, dev, fn);
		const struct fw_pci_device *d = fw_host_pci(h, bdf);
		if (!d || !fw_pci_is_gpu(d))
			ok = fw_error_set(err, FW_E_USAGE, "%s is not a GPU of this machine%s", bdf,
					  d ? "" : " (not in its PCI tree)");
		else
			ok = add_gpu(h, d, false, out, err);
	}
	free(list);
	if (!ok)
		fw_gpu_recovery_free(out);
	return ok;
}

void fw_gpu_recovery_free(struct fw_gpu_recovery_plan *p)
{
	for (size_t i = 0; i < p->n; i++) {
		free(p->items[i].translated_why), free(p->items[i].minor_from);
		free(p->items[i].failure), free(p->items[i].why);
	}
	memset(p, 0, sizeof(*p));
}

static void step(json_t *arr, const char *name, char *command, char *why)
{
	json_t *o = json_object();
	json_object_set_new(o, "step", json_string(name));
	json_object_set_new(o, "command", json_string(command));
	json_object_set_new(o, "why", json_string(why));
	json_array_append_new(arr, o);
	free(command), free(why);
}

json_t *fw_gpu_recovery_steps_json(const struct fw_gpu_recovery *g)
{
	json_t *arr = json_array();
	char nodes[64] = "";
	if (g->minor >= 0)
		snprintf(nodes, sizeof(nodes), "/dev/nvidia%d", g->minor);
	if (g->group >= 0)
		snprintf(nodes + strlen(nodes), sizeof(nodes) - strlen(nodes), "%s/dev/vfio/%d", nodes[0] ? " " : "", g->group);
	step(arr, "check-holders", fw_xasprintf("refuse while a process holds %s (/proc/*/fd, fuser)", nodes[0] ? nodes : "(no node known)"),
	     fw_xstrdup("a reset under a process using the GPU (or a VM owning its vfio group) takes the device away from it"));
	for (size_t i = 0; i < g->nfns; i++)
		if (g->fns[i]->driver)
			step(arr, "unbind", fw_xasprintf("echo %s > /sys/bus/pci/devices/%s/driver/unbind", g->fns[i]->bdf, g->fns[i]->bdf),
			     fw_xasprintf("%s is bound to %s: the group's type changes only with no driver bound", g->fns[i]->bdf,
					  g->fns[i]->driver));
	if (g->group >= 0 && g->group_type && strcmp(g->group_type, "identity") == 0)
		step(arr, "iommu-type", fw_xasprintf("echo %s > /sys/kernel/iommu_groups/%d/type", g->translated, g->group),
		     fw_xasprintf("group %d is identity: the GPU's FSP needs a translating domain to boot (%s)", g->group,
				  g->translated_why));
	for (size_t i = 0; i < g->nfns; i++)
		step(arr, "remove", fw_xasprintf("echo 1 > /sys/bus/pci/devices/%s/remove", g->fns[i]->bdf),
		     fw_xstrdup("takes the function out of the PCI tree before its bus is reset"));
	step(arr, "bus-reset",
	     fw_xasprintf("setpci -s %s BRIDGE_CONTROL=0x40:0x40; sleep 1; setpci -s %s BRIDGE_CONTROL=0x00:0x40; sleep 1",
			  g->bridge->bdf, g->bridge->bdf),
	     fw_xasprintf("secondary bus reset: bit 6 of the Bridge Control register (0x3E) of the upstream bridge %s held at "
			  "least 1 ms, then at least 1 s before the bus is used again; restarts the GPU and its FSP",
			  g->bridge->bdf));
	step(arr, "rescan", fw_xstrdup("echo 1 > /sys/bus/pci/rescan"),
	     fw_xstrdup("finds the GPU again; the driver probes it in the translated domain"));
	step(arr, "driver-result",
	     fw_xasprintf("dmesg (or journalctl -k) lines naming %s after the rescan; the driver bound to it", g->gpu->bdf),
	     fw_xstrdup("RmInitAdapter failed or a failed probe: not recovered; no failure and the driver bound: recovered"));
	step(arr, "fallback", fw_xstrdup("cold power cycle: power off, remove AC or ipmitool chassis power cycle, power on"),
	     fw_xstrdup("always recovers the GPU when the steps above do not"));
	return arr;
}

json_t *fw_gpu_recovery_json(const struct fw_gpu_recovery_plan *p, const char *source, json_t *made)
{
	json_t *doc = json_object(), *gpus = json_array();
	json_object_set_new(doc, "kind", json_string("gpu-recovery"));
	json_object_set_new(doc, "source", json_string(source));
	json_object_set_new(doc, "log_from", p->log_from ? json_string(p->log_from) : json_null());
	for (size_t i = 0; i < p->n; i++) {
		const struct fw_gpu_recovery *g = &p->items[i];
		json_t *o = json_object(), *fns = json_array();
		json_object_set_new(o, "bdf", json_string(g->gpu->bdf));
		json_object_set_new(o, "why", json_string(g->why));
		for (size_t k = 0; k < g->nfns; k++)
			json_array_append_new(fns, json_string(g->fns[k]->bdf));
		json_object_set_new(o, "functions", fns);
		json_object_set_new(o, "bridge", json_string(g->bridge->bdf));
		json_object_set_new(o, "iommu_group", g->group >= 0 ? json_integer(g->group) : json_null());
		json_object_set_new(o, "group_type", g->group_type ? json_string(g->group_type) : json_null());
		json_object_set_new(o, "device_minor", g->minor >= 0 ? json_integer(g->minor) : json_null());
		json_object_set_new(o, "device_minor_from", g->minor_from ? json_string(g->minor_from) : json_null());
		json_object_set_new(o, "steps", fw_gpu_recovery_steps_json(g));
		json_array_append_new(gpus, o);
	}
	json_object_set_new(doc, "gpus", gpus);
	json_object_set_new(doc, "made", made);
	return doc;
}
