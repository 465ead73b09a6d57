/* ACS redirect off between host GPUs, as a kernel option (plan-p2p.h). */
#include "plan-p2p.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "doctor.h"
#include "plan-kernel-arg.h"

#define MAX_GPUS 64
#define MAX_PATH 64

static bool is_vfio(const struct fw_pci_device *d)
{
	return d->driver && strcmp(d->driver, "vfio-pci") == 0;
}

/* A vfio device anywhere below `bridge`. */
static const struct fw_pci_device *vfio_below(const struct fw_host *h, const struct fw_pci_device *bridge)
{
	for (size_t i = 0; i < h->npci; i++)
		for (const struct fw_pci_device *up = h->pci[i].parent; up; up = up->parent)
			if (up == bridge && is_vfio(&h->pci[i]))
				return &h->pci[i];
	return NULL;
}

static void add_port(struct fw_p2p_acs_plan *p, const struct fw_pci_device *d)
{
	for (size_t i = 0; i < p->nports; i++)
		if (p->ports[i] == d)
			return;
	if (p->nports < FW_P2P_PORTS_MAX)
		p->ports[p->nports++] = d;
}

__attribute__((format(printf, 2, 3))) static void note(char **why, const char *fmt, ...)
{
	char more[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(more, sizeof(more), fmt, ap);
	va_end(ap);
	char *joined = fw_xasprintf("%s%s%s", *why ? *why : "", *why ? "; " : "", more);
	free(*why);
	*why = joined;
}

void fw_p2p_acs_plan_make(const struct fw_host *h, struct fw_p2p_acs_plan *out)
{
	memset(out, 0, sizeof(*out));
	const struct fw_pci_device *gpus[MAX_GPUS], *host[MAX_GPUS];
	size_t ng = fw_host_gpus(h, gpus, MAX_GPUS), nh = 0;
	for (size_t i = 0; i < ng && i < MAX_GPUS; i++)
		if (!is_vfio(gpus[i]))
			host[nh++] = gpus[i];
	for (size_t i = 0; i < nh; i++)
		for (size_t j = i + 1; j < nh; j++) {
			const struct fw_pci_device *path[MAX_PATH], *common;
			size_t np = fw_host_path_bridges(h, host[i], host[j], path, MAX_PATH, &common);
			if (!common)
				continue; /* through the root complex: ACS does not change the route */
			const struct fw_pci_device *v = vfio_below(h, common);
			if (v) {
				note(&out->why, "%s and %s share a switch with the vfio device %s: left alone", host[i]->bdf,
				     host[j]->bdf, v->bdf);
				continue;
			}
			for (size_t k = 0; k < np; k++) {
				const struct fw_pci_device *b = path[k];
				if (!b->have_config || !b->cfg.extended_known) {
					out->unknown = true;
					note(&out->why, "%s: ACS control not captured (config space read without root)", b->bdf);
				} else if (b->cfg.has_acs && (b->cfg.acs_ctl & (FW_PCI_ACS_RR | FW_PCI_ACS_CR))) {
					add_port(out, b);
				}
			}
			note(&out->why, "%s <-> %s meet at %s", host[i]->bdf, host[j]->bdf, common->bdf);
		}
	if (!out->nports || out->unknown) {
		if (!out->why)
			out->why = fw_xasprintf("%zu GPU%s driven by the host, no two under one switch with redirect on the ports "
						"between them", nh, nh == 1 ? "" : "s");
		return;
	}
	size_t len = 64 + out->nports * 16;
	out->option = fw_xmalloc(len);
	snprintf(out->option, len, "pci=disable_acs_redir=");
	for (size_t i = 0; i < out->nports; i++)
		snprintf(out->option + strlen(out->option), len - strlen(out->option), "%s%s", i ? ";" : "", out->ports[i]->bdf);
	note(&out->why, "request/completion redirect set on %s (sys/bus/pci/devices/*/config)", out->option + 22);
	struct fw_karg a = {.word = out->option};
	out->running = h->cmdline && fw_karg_line_has(h->cmdline, &a);
}

void fw_p2p_acs_plan_free(struct fw_p2p_acs_plan *p)
{
	free(p->option), free(p->why);
	memset(p, 0, sizeof(*p));
}

json_t *fw_p2p_acs_plan_json(const struct fw_p2p_acs_plan *p)
{
	json_t *o = json_object(), *ports = json_array();
	json_object_set_new(o, "option", p->option ? json_string(p->option) : json_null());
	for (size_t i = 0; i < p->nports; i++)
		json_array_append_new(ports, json_string(p->ports[i]->bdf));
	json_object_set_new(o, "ports", ports);
	json_object_set_new(o, "why", json_string(p->why));
	json_object_set_new(o, "unknown", json_boolean(p->unknown));
	json_object_set_new(o, "running", json_boolean(p->running));
	return o;
}
