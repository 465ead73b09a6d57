/* Answering topic facts from a machine. To add a fact kind: a case in answer_one(), the kind in
 * topics.xsd, and a test in tests/unit/test-search.c. */
#include "facts.h"

#include <regex.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "doctor.h"

const char *fw_fact_state_name(enum fw_fact_state s)
{
	switch (s) {
	case FW_FACT_PRESENT: return "present";
	case FW_FACT_ABSENT: return "absent";
	case FW_FACT_UNKNOWN: return "unknown";
	}
	return "?";
}

struct ctx {
	struct fw_source *src;
	struct fw_fact_answers *out;
	struct fw_fact_answer *a;
	size_t cap;
};

static void evidence(struct ctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void evidence(struct ctx *c, const char *fmt, ...)
{
	struct fw_fact_answer *a = c->a;
	a->total++;
	if (a->nevidence == FW_FACT_MAX_EVIDENCE)
		return;
	if (!a->evidence)
		a->evidence = fw_arena_alloc(&c->out->arena, FW_FACT_MAX_EVIDENCE * sizeof(char *));
	char buf[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	a->evidence[a->nevidence++] = fw_arena_strdup(&c->out->arena, buf);
}

static void summary(struct ctx *c, enum fw_fact_state st, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void summary(struct ctx *c, enum fw_fact_state st, const char *fmt, ...)
{
	char buf[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	c->a->state = st;
	c->a->summary = fw_arena_strdup(&c->out->arena, buf);
}

static bool matches(const struct fw_topic_fact_rule *r, const char *s)
{
	return !r->re || (s && fw_regex_match(r->re, s));
}

static void kernel_option(struct ctx *c, const struct fw_topic_fact_rule *r)
{
	const struct fw_host *h = &c->src->host;
	if (!h->cmdline) {
		summary(c, FW_FACT_UNKNOWN, "kernel command line not captured");
		return;
	}
	for (size_t i = 0; i < h->noptions; i++) {
		const struct fw_kernel_option *o = &h->options[i];
		if (strcmp(o->key, r->name) != 0 || !matches(r, o->value))
			continue;
		if (o->value)
			evidence(c, "%s=%s", o->key, o->value);
		else
			evidence(c, "%s", o->key);
	}
	if (c->a->total)
		summary(c, FW_FACT_PRESENT, "%s", c->a->evidence[c->a->nevidence - 1]);
	else
		summary(c, FW_FACT_ABSENT, "not on the command line");
}

static void kernel_log(struct ctx *c, const struct fw_topic_fact_rule *r)
{
	const struct fw_host *h = &c->src->host;
	if (!h->dmesg) {
		summary(c, FW_FACT_UNKNOWN, "kernel log not captured");
		return;
	}
	for (const char *p = h->dmesg; *p;) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		char line[512];
		snprintf(line, sizeof(line), "%.*s", (int)(len < sizeof(line) - 1 ? len : sizeof(line) - 1), p);
		bool hit = r->re ? fw_regex_match(r->re, line) : strstr(line, r->name) != NULL;
		if (hit)
			evidence(c, "%s", line);
		p = nl ? nl + 1 : p + len;
	}
	if (c->a->total)
		summary(c, FW_FACT_PRESENT, "%zu line%s", c->a->total, c->a->total == 1 ? "" : "s");
	else
		summary(c, FW_FACT_ABSENT, "no such line in the kernel log");
}

static void module_param(struct ctx *c, const struct fw_topic_fact_rule *r)
{
	const char *slash = strchr(r->name, '/');
	if (!slash) {
		summary(c, FW_FACT_UNKNOWN, "rule name is not module/parameter");
		return;
	}
	char rel[512];
	snprintf(rel, sizeof(rel), "sys/module/%.*s/parameters/%s", (int)(slash - r->name), r->name, slash + 1);
	char *v = fw_machine_read_text(c->src->machine, rel);
	if (v) {
		evidence(c, "%s = %s", r->name, v);
		summary(c, FW_FACT_PRESENT, "%s", v);
	} else {
		snprintf(rel, sizeof(rel), "sys/module/%.*s", (int)(slash - r->name), r->name);
		summary(c, fw_machine_exists(c->src->machine, rel) ? FW_FACT_ABSENT : FW_FACT_UNKNOWN, "%s",
			fw_machine_exists(c->src->machine, rel) ? "parameter not present" : "module not loaded or not captured");
	}
	free(v);
}

static void acpi_table(struct ctx *c, const struct fw_topic_fact_rule *r)
{
	char rel[256];
	snprintf(rel, sizeof(rel), "sys/firmware/acpi/tables/%s", r->name);
	struct fw_blob b;
	if (!fw_machine_read(c->src->machine, rel, &b, NULL)) {
		bool dir = fw_machine_exists(c->src->machine, "sys/firmware/acpi/tables");
		summary(c, dir ? FW_FACT_ABSENT : FW_FACT_UNKNOWN, "%s", dir ? "no such table" : "ACPI tables not captured");
		return;
	}
	evidence(c, "%s: %zu bytes", r->name, b.len);
	if (r->re) {
		/* the pattern names what to look for in the table's decoded facts */
		const char *facts = fw_source_acpi_facts(c->src, r->name);
		if (!facts) {
			summary(c, FW_FACT_PRESENT, "present, %zu bytes (not decoded)", b.len);
			return;
		}
		evidence(c, "%s", facts);
		summary(c, FW_FACT_PRESENT, "present, %zu bytes; %s %s", b.len, r->pattern,
			matches(r, facts) ? "found" : "not found");
		return;
	}
	summary(c, FW_FACT_PRESENT, "present, %zu bytes", b.len);
}

static void acs_line(struct ctx *c, const struct fw_pci_device *d)
{
	char bits[160];
	if (!d->have_config || !d->cfg.extended_known) {
		evidence(c, "%s: config space not readable in full (needs root)", d->bdf);
		return;
	}
	if (!d->cfg.has_acs) {
		evidence(c, "%s %s: no ACS capability", d->bdf, fw_pcie_port_type_name(d->cfg.pcie_port_type));
		return;
	}
	evidence(c, "%s %s: ACS ctl %s", d->bdf, fw_pcie_port_type_name(d->cfg.pcie_port_type),
		 fw_pci_acs_str(d->cfg.acs_ctl, d->cfg.acs_cap, bits, sizeof(bits)));
}

static void pci_capability(struct ctx *c, const struct fw_topic_fact_rule *r)
{
	const struct fw_host *h = &c->src->host;
	if (!h->npci) {
		summary(c, FW_FACT_UNKNOWN, "no PCI devices captured");
		return;
	}
	const struct fw_pci_device *gpus[64];
	size_t ngpu = fw_host_gpus(h, gpus, 64);
	if (ngpu > 64)
		ngpu = 64;
	if (strcmp(r->name, "ACS") == 0) {
		/* the bridges above the GPUs, each once; every ACS-capable bridge when there are no GPUs */
		const struct fw_pci_device *seen[256];
		size_t nseen = 0, redirect = 0;
		for (size_t g = 0; g < ngpu; g++)
			for (const struct fw_pci_device *p = gpus[g]->parent; p; p = p->parent) {
				bool dup = false;
				for (size_t k = 0; k < nseen && !dup; k++)
					dup = seen[k] == p;
				if (dup || nseen == 256)
					continue;
				seen[nseen++] = p;
			}
		if (!ngpu)
			for (size_t i = 0; i < h->npci && nseen < 256; i++)
				if (h->pci[i].have_config && h->pci[i].cfg.has_acs)
					seen[nseen++] = &h->pci[i];
		for (size_t k = 0; k < nseen; k++) {
			acs_line(c, seen[k]);
			if (seen[k]->have_config && seen[k]->cfg.has_acs &&
			    (seen[k]->cfg.acs_ctl & (FW_PCI_ACS_RR | FW_PCI_ACS_CR)))
				redirect++;
		}
		if (!nseen)
			summary(c, FW_FACT_ABSENT, "no bridge with ACS");
		else
			summary(c, FW_FACT_PRESENT, "%zu bridge%s %s, %zu with P2P redirect (RR/CR) on", nseen,
				nseen == 1 ? "" : "s", ngpu ? "above the GPUs" : "with ACS", redirect);
		return;
	}
	/* "PCIe": the negotiated link of each GPU against what it can do */
	size_t degraded = 0;
	for (size_t g = 0; g < ngpu; g++) {
		const struct fw_pci_config *cfg = &gpus[g]->cfg;
		if (!cfg->has_pcie) {
			evidence(c, "%s: no PCI Express capability read", gpus[g]->bdf);
			continue;
		}
		bool down = cfg->link_speed < cfg->link_cap_speed || cfg->link_width < cfg->link_cap_width;
		degraded += down;
		evidence(c, "%s: Gen%u x%u (capable of Gen%u x%u)%s", gpus[g]->bdf, cfg->link_speed, cfg->link_width,
			 cfg->link_cap_speed, cfg->link_cap_width, down ? " degraded" : "");
	}
	if (!ngpu)
		summary(c, FW_FACT_ABSENT, "no GPU found");
	else
		summary(c, FW_FACT_PRESENT, "%zu GPU%s, %zu below their link capability", ngpu, ngpu == 1 ? "" : "s",
			degraded);
}

static void iommu_groups(struct ctx *c, const struct fw_topic_fact_rule *r)
{
	const struct fw_host *h = &c->src->host;
	if (!h->ngroups) {
		summary(c, FW_FACT_UNKNOWN, "no IOMMU groups captured (IOMMU off, or not captured)");
		return;
	}
	if (strcmp(r->name, "devices") == 0) {
		/* groups that hold a vfio-pci device, and what else sits in them */
		size_t vfio_groups = 0, shared = 0;
		for (size_t i = 0; i < h->ngroups; i++) {
			const struct fw_iommu_group *g = &h->groups[i];
			size_t vfio = 0;
			char list[384] = "";
			for (size_t k = 0; k < g->ndevices; k++) {
				const struct fw_pci_device *d = fw_host_pci(h, g->devices[k]);
				const char *drv = d && d->driver ? d->driver : "no driver";
				vfio += d && d->driver && strcmp(d->driver, "vfio-pci") == 0;
				size_t used = strlen(list);
				snprintf(list + used, sizeof(list) - used, "%s%s %s", k ? ", " : "", g->devices[k], drv);
			}
			if (!vfio)
				continue;
			vfio_groups++;
			shared += vfio < g->ndevices;
			evidence(c, "group %d: %s", g->id, list);
		}
		if (vfio_groups)
			summary(c, FW_FACT_PRESENT, "%zu group%s with vfio-pci devices, %zu shared with other drivers",
				vfio_groups, vfio_groups == 1 ? "" : "s", shared);
		else
			summary(c, FW_FACT_ABSENT, "no device bound to vfio-pci");
		return;
	}
	/* "type": how many groups of each domain type; groups that are not translated are listed */
	const char *types[8];
	size_t counts[8], ntypes = 0;
	for (size_t i = 0; i < h->ngroups; i++) {
		const char *t = h->groups[i].type ? h->groups[i].type : "unknown";
		size_t k = 0;
		while (k < ntypes && strcmp(types[k], t) != 0)
			k++;
		if (k == ntypes && ntypes < 8) {
			types[ntypes] = t;
			counts[ntypes++] = 0;
		}
		if (k < 8)
			counts[k]++;
		if (strcmp(t, "DMA") != 0 && strcmp(t, "DMA-FQ") != 0)
			evidence(c, "group %d: %s (%zu device%s)", h->groups[i].id, t, h->groups[i].ndevices,
				 h->groups[i].ndevices == 1 ? "" : "s");
	}
	char buf[256] = "";
	for (size_t k = 0; k < ntypes; k++) {
		size_t used = strlen(buf);
		snprintf(buf + used, sizeof(buf) - used, "%s%zu %s", k ? ", " : "", counts[k], types[k]);
	}
	summary(c, FW_FACT_PRESENT, "%zu groups: %s", h->ngroups, buf);
}

static void cpu_flag(struct ctx *c, const struct fw_topic_fact_rule *r)
{
	const char *flags = c->src->host.cpu_flags;
	if (!flags) {
		summary(c, FW_FACT_UNKNOWN, "CPU flags not captured");
		return;
	}
	size_t n = strlen(r->name);
	for (const char *p = flags; (p = strstr(p, r->name)); p += n)
		if ((p == flags || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0' || p[n] == '\n')) {
			summary(c, FW_FACT_PRESENT, "flag %s present", r->name);
			return;
		}
	summary(c, FW_FACT_ABSENT, "flag %s absent", r->name);
}

static void device_node(struct ctx *c, const struct fw_topic_fact_rule *r)
{
	bool there = fw_machine_exists(c->src->machine, r->name);
	summary(c, there ? FW_FACT_PRESENT : FW_FACT_ABSENT, "/%s %s", r->name, there ? "exists" : "does not exist");
}

static void answer_one(struct ctx *c, const struct fw_topic_fact_rule *r)
{
	if (strcmp(r->kind, "kernel-option") == 0)
		kernel_option(c, r);
	else if (strcmp(r->kind, "kernel-log") == 0)
		kernel_log(c, r);
	else if (strcmp(r->kind, "module-param") == 0)
		module_param(c, r);
	else if (strcmp(r->kind, "acpi-table") == 0)
		acpi_table(c, r);
	else if (strcmp(r->kind, "pci-capability") == 0)
		pci_capability(c, r);
	else if (strcmp(r->kind, "iommu-group") == 0)
		iommu_groups(c, r);
	else if (strcmp(r->kind, "cpu-flag") == 0)
		cpu_flag(c, r);
	else if (strcmp(r->kind, "device-node") == 0)
		device_node(c, r);
	else
		summary(c, FW_FACT_UNKNOWN, "fact kind %s is not known to this fwlens", r->kind);
}

void fw_facts_answer(struct fw_source *src, const struct fw_topic *const *topics, size_t ntopics,
		     struct fw_fact_answers *out)
{
	memset(out, 0, sizeof(*out));
	fw_arena_init(&out->arena);
	if (src->kind != FW_SOURCE_MACHINE || !src->have_host)
		return;
	size_t total = 0;
	for (size_t t = 0; t < ntopics; t++)
		total += topics[t]->nfacts;
	out->items = fw_xcalloc(total ? total : 1, sizeof(*out->items));
	struct ctx c = {src, out, NULL, total};
	for (size_t t = 0; t < ntopics; t++)
		for (size_t k = 0; k < topics[t]->nfacts; k++) {
			c.a = &out->items[out->n++];
			c.a->topic = topics[t];
			c.a->rule = &topics[t]->facts[k];
			c.a->side = "running";
			c.a->boot = src->host.boot_id;
			answer_one(&c, c.a->rule);
		}
}

void fw_fact_answers_free(struct fw_fact_answers *a)
{
	free(a->items);
	fw_arena_free(&a->arena);
	memset(a, 0, sizeof(*a));
}
