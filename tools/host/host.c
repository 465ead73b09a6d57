/* Host facts from a machine's files. */
#include "host.h"

#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parsers/view.h"

bool fw_parse_bdf(const char *s, unsigned *seg, unsigned *bus, unsigned *dev, unsigned *fn)
{
	unsigned a, b, c, d;
	char tail;
	if (sscanf(s, "%x:%x:%x.%x%c", &a, &b, &c, &d, &tail) == 4 && a <= 0xFFFF && b <= 0xFF && c <= 0x1F && d <= 7) {
		*seg = a, *bus = b, *dev = c, *fn = d;
		return true;
	}
	if (sscanf(s, "%x:%x.%x%c", &b, &c, &d, &tail) == 3 && b <= 0xFF && c <= 0x1F && d <= 7) {
		*seg = 0, *bus = b, *dev = c, *fn = d;
		return true;
	}
	return false;
}

static void parse_cmdline(struct fw_host *h)
{
	if (!h->cmdline)
		return;
	/* Words are separated by spaces; double quotes group (as the kernel's next_arg does). */
	size_t cap = 16;
	h->options = fw_xcalloc(cap, sizeof(*h->options));
	const char *p = h->cmdline;
	while (*p) {
		while (*p == ' ' || *p == '\t')
			p++;
		if (!*p)
			break;
		const char *start = p;
		bool quoted = false;
		while (*p && (quoted || (*p != ' ' && *p != '\t'))) {
			if (*p == '"')
				quoted = !quoted;
			p++;
		}
		char *word = fw_xstrndup(start, (size_t)(p - start));
		if (strcmp(word, "--") == 0) {
			free(word);
			break; /* the rest goes to init */
		}
		/* quotes group words and are dropped, as the kernel's next_arg does */
		size_t wl = strlen(word);
		if (wl && word[0] == '"') {
			memmove(word, word + 1, wl--);
			if (wl && word[wl - 1] == '"')
				word[--wl] = '\0';
		}
		char *eq = strchr(word, '=');
		if (eq && eq[1] == '"') {
			size_t vl = strlen(eq + 1);
			if (vl >= 2 && eq[vl] == '"') {
				memmove(eq + 1, eq + 2, vl - 2);
				eq[vl - 1] = '\0';
			}
		}
		if (h->noptions == cap) {
			cap *= 2;
			h->options = fw_xrealloc(h->options, cap * sizeof(*h->options));
		}
		struct fw_kernel_option *o = &h->options[h->noptions++];
		if (eq) {
			o->key = fw_xstrndup(word, (size_t)(eq - word));
			o->value = fw_xstrdup(eq + 1);
		} else {
			o->key = fw_xstrdup(word);
			o->value = NULL;
		}
		free(word);
	}
}

const char *fw_host_option(const struct fw_host *h, const char *key, bool *present)
{
	const char *v = NULL;
	bool found = false;
	for (size_t i = 0; i < h->noptions; i++)
		if (strcmp(h->options[i].key, key) == 0) {
			v = h->options[i].value;
			found = true;
		}
	if (present)
		*present = found;
	return v;
}

static void read_bars(struct fw_machine *m, const char *base, struct fw_pci_device *d)
{
	char rel[512];
	snprintf(rel, sizeof(rel), "%s/resource", base);
	char *text = fw_machine_read_text(m, rel);
	if (!text)
		return;
	char *save = NULL;
	int i = 0;
	for (char *line = strtok_r(text, "\n", &save); line && i < 7; line = strtok_r(NULL, "\n", &save), i++) {
		unsigned long long s, e, f;
		if (sscanf(line, "%llx %llx %llx", &s, &e, &f) == 3) {
			d->bars[i].start = s;
			d->bars[i].end = e;
			d->bars[i].flags = f;
		}
	}
	free(text);
}

static int cmp_pci(const void *a, const void *b)
{
	return strcmp(((const struct fw_pci_device *)a)->bdf, ((const struct fw_pci_device *)b)->bdf);
}

static void load_pci(struct fw_host *h)
{
	struct fw_strlist names;
	if (!fw_machine_list(h->machine, "sys/bus/pci/devices", &names))
		return;
	h->pci = fw_xcalloc(names.count ? names.count : 1, sizeof(*h->pci));
	for (size_t i = 0; i < names.count; i++) {
		struct fw_pci_device *d = &h->pci[h->npci];
		if (!fw_parse_bdf(names.items[i], &d->segment, &d->bus, &d->dev, &d->fn))
			continue;
		snprintf(d->bdf, sizeof(d->bdf), "%04x:%02x:%02x.%x", d->segment, d->bus, d->dev, d->fn);
		d->iommu_group = -1;
		d->numa_node = -1;
		d->nvidia_minor = -1;
		char base[256], rel[512];
		snprintf(base, sizeof(base), "sys/bus/pci/devices/%s", names.items[i]);
		struct fw_blob b;
		snprintf(rel, sizeof(rel), "%s/config", base);
		if (fw_machine_read(h->machine, rel, &b, NULL))
			d->have_config = fw_pci_config_decode(b.data, b.len, &d->cfg);
		snprintf(rel, sizeof(rel), "%s/numa_node", base);
		char *numa = fw_machine_read_text(h->machine, rel);
		if (numa) {
			d->numa_node = atoi(numa);
			free(numa);
		}
		const char *link = fw_machine_link(h->machine, base);
		if (link) {
			d->sysfs_path = fw_xstrdup(link);
			const char *root = strstr(link, "/pci");
			if (root)
				d->root_bus = fw_xstrndup(root + 4, strcspn(root + 4, "/"));
		}
		snprintf(rel, sizeof(rel), "%s/driver", base);
		const char *drv = fw_machine_link(h->machine, rel);
		if (drv) {
			const char *slash = strrchr(drv, '/');
			d->driver = fw_xstrdup(slash ? slash + 1 : drv);
		}
		snprintf(rel, sizeof(rel), "%s/iommu_group", base);
		const char *grp = fw_machine_link(h->machine, rel);
		if (grp) {
			const char *slash = strrchr(grp, '/');
			d->iommu_group = atoi(slash ? slash + 1 : grp);
		}
		read_bars(h->machine, base, d);
		h->npci++;
	}
	fw_strlist_free(&names);
	qsort(h->pci, h->npci, sizeof(*h->pci), cmp_pci);
	/* Parents: the sysfs path when known (exact), else the bridge whose secondary bus is ours. */
	for (size_t i = 0; i < h->npci; i++) {
		struct fw_pci_device *d = &h->pci[i];
		if (d->sysfs_path) {
			char buf[1024];
			snprintf(buf, sizeof(buf), "%s", d->sysfs_path);
			char *slash = strrchr(buf, '/');
			if (slash) {
				*slash = '\0';
				const char *up = strrchr(buf, '/');
				struct fw_pci_device *p = fw_host_pci(h, up ? up + 1 : buf);
				if (p && p != d) {
					d->parent = p;
					continue;
				}
			}
		}
		for (size_t j = 0; j < h->npci; j++) {
			struct fw_pci_device *b = &h->pci[j];
			if (b != d && b->have_config && b->cfg.bridge && b->segment == d->segment &&
			    b->cfg.secondary_bus == d->bus && b->cfg.secondary_bus != 0) {
				d->parent = b;
				break;
			}
		}
	}
	/* Break any parent cycle a hostile config space could create. */
	for (size_t i = 0; i < h->npci; i++) {
		struct fw_pci_device *p = h->pci[i].parent;
		for (size_t hops = 0; p && hops <= h->npci; hops++)
			p = p->parent;
		if (p)
			h->pci[i].parent = NULL;
	}
}

struct fw_pci_device *fw_host_pci(const struct fw_host *h, const char *bdf)
{
	unsigned s, b, d, f;
	if (!fw_parse_bdf(bdf, &s, &b, &d, &f))
		return NULL;
	char norm[16];
	snprintf(norm, sizeof(norm), "%04x:%02x:%02x.%x", s, b, d, f);
	size_t lo = 0, hi = h->npci;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = strcmp(h->pci[mid].bdf, norm);
		if (c == 0)
			return &h->pci[mid];
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

static int cmp_group(const void *a, const void *b)
{
	int x = ((const struct fw_iommu_group *)a)->id, y = ((const struct fw_iommu_group *)b)->id;
	return (x > y) - (x < y);
}

static void load_groups(struct fw_host *h)
{
	struct fw_strlist names;
	if (!fw_machine_list(h->machine, "sys/kernel/iommu_groups", &names))
		return;
	h->groups = fw_xcalloc(names.count ? names.count : 1, sizeof(*h->groups));
	for (size_t i = 0; i < names.count; i++) {
		char *end;
		long id = strtol(names.items[i], &end, 10);
		if (*end || id < 0 || id > 1000000)
			continue;
		struct fw_iommu_group *g = &h->groups[h->ngroups++];
		g->id = (int)id;
		char rel[512];
		snprintf(rel, sizeof(rel), "sys/kernel/iommu_groups/%s/type", names.items[i]);
		g->type = fw_machine_read_text(h->machine, rel);
		snprintf(rel, sizeof(rel), "sys/kernel/iommu_groups/%s/devices", names.items[i]);
		struct fw_strlist devs;
		if (fw_machine_list(h->machine, rel, &devs)) {
			g->devices = devs.items;
			g->ndevices = devs.count;
		}
	}
	fw_strlist_free(&names);
	qsort(h->groups, h->ngroups, sizeof(*h->groups), cmp_group);
	/* Devices whose iommu_group link was not captured get it from the group listing. */
	for (size_t i = 0; i < h->ngroups; i++)
		for (size_t k = 0; k < h->groups[i].ndevices; k++) {
			struct fw_pci_device *d = fw_host_pci(h, h->groups[i].devices[k]);
			if (d && d->iommu_group < 0)
				d->iommu_group = h->groups[i].id;
		}
}

const struct fw_iommu_group *fw_host_group(const struct fw_host *h, int id)
{
	for (size_t i = 0; i < h->ngroups; i++)
		if (h->groups[i].id == id)
			return &h->groups[i];
	return NULL;
}

static bool hex_field(const char *line, const char *key, uint64_t *out)
{
	const char *p = strstr(line, key);
	if (!p)
		return false;
	p += strlen(key);
	char *end;
	unsigned long long v = strtoull(p, &end, 16);
	if (end == p)
		return false;
	*out = v;
	return true;
}

/* "[ts] vfio-pci 0000:41:00.0: AMD-Vi: Event logged [IO_PAGE_FAULT domain=0x0012 address=0x... flags=0x0020]"
 * and the older "AMD-Vi: Event logged [IO_PAGE_FAULT device=41:00.0 domain=... address=... flags=...]". */
static void parse_faults(struct fw_host *h)
{
	if (!h->dmesg)
		return;
	size_t cap = 0;
	for (const char *line = h->dmesg; *line;) {
		const char *eol = strchr(line, '\n');
		size_t len = eol ? (size_t)(eol - line) : strlen(line);
		char buf[1024];
		snprintf(buf, sizeof(buf), "%.*s", (int)(len < sizeof(buf) - 1 ? len : sizeof(buf) - 1), line);
		const char *ev = strstr(buf, "Event logged [");
		if (ev && strstr(buf, "AMD-Vi")) {
			struct fw_iommu_fault f;
			memset(&f, 0, sizeof(f));
			const char *name = ev + strlen("Event logged [");
			size_t nlen = strcspn(name, " ]");
			snprintf(f.event, sizeof(f.event), "%.*s", (int)(nlen < sizeof(f.event) - 1 ? nlen : sizeof(f.event) - 1), name);
			const char *dev = strstr(buf, "device=");
			unsigned s = 0, b = 0, d = 0, fn = 0;
			bool have_dev = false;
			if (dev) {
				char tmp[32];
				snprintf(tmp, sizeof(tmp), "%.*s", (int)strcspn(dev + 7, " ]"), dev + 7);
				have_dev = fw_parse_bdf(tmp, &s, &b, &d, &fn);
			} else {
				/* the requester is the device prefix before "AMD-Vi" */
				const char *amd = strstr(buf, "AMD-Vi");
				for (const char *p = buf; p < amd && !have_dev; p++)
					if (isxdigit((unsigned char)p[0]) && p[4] == ':' && (p == buf || p[-1] == ' ')) {
						char tmp[16];
						snprintf(tmp, sizeof(tmp), "%.12s", p);
						have_dev = fw_parse_bdf(tmp, &s, &b, &d, &fn);
					}
			}
			if (have_dev)
				snprintf(f.device, sizeof(f.device), "%04x:%02x:%02x.%x", s, b, d, fn);
			hex_field(buf, "domain=0x", &f.domain);
			hex_field(buf, "address=0x", &f.address);
			hex_field(buf, "flags=0x", &f.flags);
			f.line = fw_xstrdup(buf);
			if (h->nfaults == cap) {
				cap = cap ? cap * 2 : 16;
				h->faults = fw_xrealloc(h->faults, cap * sizeof(*h->faults));
			}
			h->faults[h->nfaults++] = f;
		}
		line += len + (eol ? 1 : 0);
	}
}

/* The first "flags" line's value in /proc/cpuinfo, read in place to its first NUL. */
static char *first_flags(const struct fw_blob *b)
{
	const char *text = (const char *)b->data, *line;
	size_t n = strnlen(text, b->len), at = 0, len;
	while (fw_next_line(text, n, &at, &line, &len)) {
		if (len < 5 || memcmp(line, "flags", 5) != 0)
			continue;
		const char *colon = memchr(line, ':', len);
		if (!colon)
			return NULL;
		const char *v = colon + 1, *end = line + len;
		while (v < end && *v == ' ')
			v++;
		return fw_xstrndup(v, (size_t)(end - v));
	}
	return NULL;
}

/* DMI names of hypervisors' virtual hardware (sys_vendor or product_name). */
/* Container managers' own marks: systemd's run/systemd/container (lxc, docker, podman, ...),
 * PID 1's container= variable (LXC sets it), Docker's /.dockerenv, Podman's run/.containerenv. */
static char *container_mark(struct fw_machine *m)
{
	char *t = fw_machine_read_text(m, "run/systemd/container");
	if (t) {
		t[strcspn(t, "\n")] = '\0';
		char *why = fw_xasprintf("run/systemd/container: %s", t);
		free(t);
		return why;
	}
	struct fw_blob b;
	if (fw_machine_read(m, "proc/1/environ", &b, NULL)) {
		/* NUL-separated; only the container= entry is looked at */
		for (size_t i = 0; i < b.len;) {
			const char *e = (const char *)b.data + i;
			size_t l = strnlen(e, b.len - i);
			if (l > 10 && memcmp(e, "container=", 10) == 0)
				return fw_xasprintf("proc/1/environ: container=%.*s", (int)(l - 10 < 32 ? l - 10 : 32), e + 10);
			i += l + 1;
		}
	}
	if (fw_machine_exists(m, ".dockerenv"))
		return fw_xstrdup(".dockerenv: a Docker container");
	if (fw_machine_exists(m, "run/.containerenv"))
		return fw_xstrdup("run/.containerenv: a Podman container");
	return NULL;
}

static const char *dmi_hypervisor(const struct fw_host *h)
{
	static const char *const names[] = {"QEMU", "KVM", "VMware", "VirtualBox", "innotek GmbH", "Xen", "Bochs",
					    "Virtual Machine", "Amazon EC2", "Google Compute Engine", "OpenStack Nova",
					    "Cloud Hypervisor"};
	const char *fields[] = {h->vendor, h->product};
	for (size_t f = 0; f < 2; f++)
		for (size_t i = 0; fields[f] && i < sizeof(names) / sizeof(names[0]); i++)
			if (strstr(fields[f], names[i]))
				return names[i];
	return NULL;
}

static bool has_word(const char *list, const char *word)
{
	size_t n = strlen(word);
	for (const char *p = list; p && (p = strstr(p, word)); p += n)
		if ((p == list || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0'))
			return true;
	return false;
}

/* A "Key: value" field of the NVIDIA driver's per-GPU information file. */
static char *info_field(const char *info, const char *key)
{
	const char *p = strstr(info, key);
	if (!p)
		return NULL;
	p += strlen(key);
	while (*p == ' ' || *p == '\t')
		p++;
	return fw_xstrndup(p, strcspn(p, "\n"));
}

static void claim(struct fw_pci_device *d, const char *owner, const char *file, const char *line, bool snp)
{
	d->nclaims++;
	if (d->owner && strcmp(d->owner, "host") != 0)
		return; /* the first configuration is named; nclaims tells the conflict */
	free(d->owner);
	free(d->owner_from);
	d->owner = fw_xstrdup(owner);
	d->owner_from = fw_xasprintf("%s: %s", file, line);
	d->owner_snp = snp;
}

/* Proxmox hostpci value "0000:a3:00.0,pcie=1", "a3:00.0;a4:00.0" or "a3:00" (every function of
 * the slot): claim the devices it names for the VM. */
static void claim_hostpci(struct fw_host *h, const char *value, const char *owner, const char *file, const char *line,
			  bool snp)
{
	char ids[256];
	snprintf(ids, sizeof(ids), "%.*s", (int)strcspn(value, ","), value);
	char *save = NULL;
	for (char *id = strtok_r(ids, ";", &save); id; id = strtok_r(NULL, ";", &save)) {
		unsigned seg = 0, bus, dev, fn;
		bool whole_slot = false;
		if (!fw_parse_bdf(id, &seg, &bus, &dev, &fn)) {
			char with_fn[64];
			snprintf(with_fn, sizeof(with_fn), "%s.0", id);
			if (!fw_parse_bdf(with_fn, &seg, &bus, &dev, &fn))
				continue;
			whole_slot = true;
		}
		for (size_t i = 0; i < h->npci; i++) {
			struct fw_pci_device *d = &h->pci[i];
			if (d->segment == seg && d->bus == bus && d->dev == dev && (whole_slot || d->fn == fn))
				claim(d, owner, file, line, snp);
		}
	}
}

/* Which GPU belongs to which VM (hostpci entries), container (/dev/nvidiaN bind mounts or devN
 * entries) or the host (bound to a host driver, claimed by no guest). Sections after the first
 * "[snapshot]" header are old states of the guest and are not read. */
static void load_owners(struct fw_host *h)
{
	static const char *const dirs[2] = {"etc/pve/qemu-server", "etc/pve/lxc"};
	for (int kind = 0; kind < 2; kind++) {
		struct fw_strlist names;
		if (!fw_machine_list(h->machine, dirs[kind], &names))
			continue;
		h->pve_captured = true;
		for (size_t n = 0; n < names.count; n++) {
			size_t len = strlen(names.items[n]);
			if (len < 6 || strcmp(names.items[n] + len - 5, ".conf") != 0)
				continue;
			char file[512], owner[64];
			snprintf(file, sizeof(file), "%s/%s", dirs[kind], names.items[n]);
			snprintf(owner, sizeof(owner), "%s %.*s", kind ? "container" : "VM", (int)(len - 5), names.items[n]);
			char *text = fw_machine_read_text(h->machine, file);
			if (!text)
				continue;
			bool snp = false;
			for (const char *l = text; *l; l += strcspn(l, "\n") + (l[strcspn(l, "\n")] ? 1 : 0)) {
				if (*l == '[')
					break;
				if (strncmp(l, "amd-sev:", 8) == 0 && strstr(l, "type=snp") &&
				    (size_t)(strstr(l, "type=snp") - l) < strcspn(l, "\n"))
					snp = true;
			}
			for (const char *l = text; *l; l += strcspn(l, "\n") + (l[strcspn(l, "\n")] ? 1 : 0)) {
				if (*l == '[')
					break;
				char line[512];
				snprintf(line, sizeof(line), "%.*s", (int)strcspn(l, "\n"), l);
				if (kind == 0 && strncmp(line, "hostpci", 7) == 0 && strchr(line, ':')) {
					const char *v = strchr(line, ':') + 1;
					while (*v == ' ')
						v++;
					claim_hostpci(h, v, owner, file, line, snp);
				} else if (kind == 1) {
					const char *dev = strstr(line, "/dev/nvidia");
					int minor;
					if (dev && (strncmp(line, "lxc.mount.entry:", 16) == 0 || strncmp(line, "dev", 3) == 0) &&
					    sscanf(dev, "/dev/nvidia%d", &minor) == 1)
						for (size_t i = 0; i < h->npci; i++)
							if (h->pci[i].nvidia_minor == minor)
								claim(&h->pci[i], owner, file, line, false);
				}
			}
			free(text);
		}
		fw_strlist_free(&names);
	}
}

static void load_gpu_stack(struct fw_host *h)
{
	for (size_t i = 0; i < h->npci; i++) {
		struct fw_pci_device *d = &h->pci[i];
		char rel[128];
		snprintf(rel, sizeof(rel), "proc/driver/nvidia/gpus/%s/information", d->bdf);
		char *info = fw_machine_read_text(h->machine, rel);
		if (!info)
			continue;
		d->model = info_field(info, "Model:");
		d->vbios = info_field(info, "Video BIOS:");
		char *minor = info_field(info, "Device Minor:");
		if (minor)
			d->nvidia_minor = atoi(minor);
		free(minor);
		free(info);
	}
	load_owners(h);
	/* the rest of the GPUs a host driver holds belong to the host */
	for (size_t i = 0; i < h->npci; i++) {
		struct fw_pci_device *d = &h->pci[i];
		if (fw_pci_is_gpu(d) && !d->owner && d->driver && strcmp(d->driver, "vfio-pci") != 0) {
			d->owner = fw_xstrdup("host");
			d->owner_from = fw_xasprintf("sys/bus/pci/devices/%s/driver: %s", d->bdf, d->driver);
		}
	}
}

bool fw_pci_is_gpu(const struct fw_pci_device *d)
{
	if (!d->have_config)
		return false;
	uint8_t base = (uint8_t)(d->cfg.class_code >> 16);
	if (base == 0x12)
		return d->cfg.vendor == 0x10DE || d->cfg.vendor == 0x1002;
	if (base != 0x03)
		return false;
	/* Display adapters that only draw a console: hypervisors' emulated ones (QEMU std VGA and
	 * Bochs 1234:1111, virtio-gpu 1af4:1050, QXL 1b36:0100, VMware SVGA 15ad:0405/0710, Cirrus
	 * 1013:00b8, VirtualBox 80ee:beef, Hyper-V 1414:5353) and a server's BMC VGA (ASPEED 1a03,
	 * Matrox G200e 102b on BMCs): no compute, no peer-to-peer, nothing to pass through. */
	static const uint16_t console_vendors[] = {0x1234, 0x1AF4, 0x1B36, 0x15AD, 0x1013, 0x80EE, 0x1414, 0x1A03, 0x102B};
	for (size_t i = 0; i < sizeof(console_vendors) / sizeof(console_vendors[0]); i++)
		if (d->cfg.vendor == console_vendors[i])
			return false;
	return true;
}

bool fw_host_load(struct fw_machine *m, struct fw_host *h, struct fw_error *err)
{
	(void)err;
	memset(h, 0, sizeof(*h));
	h->machine = m;
	h->board = fw_machine_read_text(m, "sys/class/dmi/id/board_name");
	h->product = fw_machine_read_text(m, "sys/class/dmi/id/product_name");
	h->vendor = fw_machine_read_text(m, "sys/class/dmi/id/sys_vendor");
	h->bios_vendor = fw_machine_read_text(m, "sys/class/dmi/id/bios_vendor");
	h->bios_version = fw_machine_read_text(m, "sys/class/dmi/id/bios_version");
	h->bios_date = fw_machine_read_text(m, "sys/class/dmi/id/bios_date");
	h->kernel_release = fw_machine_read_text(m, "proc/sys/kernel/osrelease");
	h->kernel_version = fw_machine_read_text(m, "proc/version");
	h->cmdline = fw_machine_read_text(m, "proc/cmdline");
	parse_cmdline(h);
	h->boot_id = fw_machine_read_text(m, "proc/sys/kernel/random/boot_id");
	h->boot_time = -1;
	char *stat = fw_machine_read_text(m, "proc/stat");
	/* the btime line, wherever it is in the file */
	const char *bt = !stat ? NULL : strncmp(stat, "btime ", 6) == 0 ? stat : strstr(stat, "\nbtime ");
	if (bt)
		h->boot_time = strtoll(bt + (*bt == '\n' ? 7 : 6), NULL, 10);
	free(stat);
	h->kvm_sev = fw_machine_read_text(m, "sys/module/kvm_amd/parameters/sev");
	h->kvm_sev_es = fw_machine_read_text(m, "sys/module/kvm_amd/parameters/sev_es");
	h->kvm_sev_snp = fw_machine_read_text(m, "sys/module/kvm_amd/parameters/sev_snp");
	h->dev_sev = fw_machine_exists(m, "dev/sev");
	struct fw_blob b;
	if (fw_machine_read(m, "proc/cpuinfo", &b, NULL))
		h->cpu_flags = first_flags(&b);
	h->dev_sev_guest = fw_machine_exists(m, "dev/sev-guest");
	h->nvidia_version = fw_machine_read_text(m, "proc/driver/nvidia/version");
	if (h->nvidia_version)
		h->nvidia_version[strcspn(h->nvidia_version, "\n")] = '\0';
	const char *vm = dmi_hypervisor(h);
	if (h->cpu_flags && has_word(h->cpu_flags, "hypervisor"))
		h->guest_why = "the hypervisor flag in /proc/cpuinfo";
	else if (vm)
		h->guest_why = strstr(h->vendor ? h->vendor : "", vm) ? "the DMI system vendor of a hypervisor"
								       : "the DMI product name of a hypervisor";
	h->container_why = container_mark(m);
	load_pci(h);
	load_groups(h);
	load_gpu_stack(h);
	h->groups_captured = fw_machine_exists(m, "sys/kernel/iommu_groups");
	struct fw_strlist iommus;
	if (fw_machine_list(m, "sys/class/iommu", &iommus)) {
		h->iommus = iommus.items;
		h->niommus = iommus.count;
	}
	if (fw_machine_kernel_log(m, &b, h->dmesg_why, sizeof(h->dmesg_why)))
		h->dmesg = fw_xstrndup((const char *)b.data, b.len);
	h->dmesg_from = fw_machine_kernel_log_from(m);
	parse_faults(h);
	fw_dev_history_parse(h->dmesg, &h->history);
	return true;
}

struct fw_pci_device *fw_host_bar_owner(const struct fw_host *h, uint64_t address, int *bar)
{
	for (size_t i = 0; i < h->npci; i++)
		for (int k = 0; k < 6; k++) {
			const struct fw_pci_bar *b = &h->pci[i].bars[k];
			if (b->end > b->start && address >= b->start && address <= b->end) {
				if (bar)
					*bar = k;
				return &h->pci[i];
			}
		}
	return NULL;
}

size_t fw_host_log_lines(const struct fw_host *h, const char *needle, const char **lines, size_t max)
{
	size_t n = 0;
	if (!h->dmesg)
		return 0;
	for (const char *line = h->dmesg; *line;) {
		const char *eol = strchr(line, '\n');
		size_t len = eol ? (size_t)(eol - line) : strlen(line);
		const char *hit = memmem(line, len, needle, strlen(needle));
		if (hit) {
			if (n < max && lines)
				lines[n] = line;
			n++;
		}
		line += len + (eol ? 1 : 0);
	}
	return n;
}

void fw_host_free(struct fw_host *h)
{
	char **strings[] = {&h->board, &h->product, &h->vendor, &h->bios_vendor, &h->bios_version, &h->bios_date,
			    &h->kernel_release, &h->kernel_version, &h->cmdline, &h->kvm_sev, &h->kvm_sev_es,
			    &h->kvm_sev_snp, &h->cpu_flags, &h->nvidia_version, &h->dmesg, &h->boot_id};
	for (size_t i = 0; i < sizeof(strings) / sizeof(strings[0]); i++)
		free(*strings[i]);
	for (size_t i = 0; i < h->noptions; i++) {
		free(h->options[i].key);
		free(h->options[i].value);
	}
	free(h->options);
	for (size_t i = 0; i < h->npci; i++) {
		free(h->pci[i].driver);
		free(h->pci[i].sysfs_path);
		free(h->pci[i].root_bus);
		free(h->pci[i].model);
		free(h->pci[i].vbios);
		free(h->pci[i].owner);
		free(h->pci[i].owner_from);
	}
	free(h->pci);
	for (size_t i = 0; i < h->ngroups; i++) {
		free(h->groups[i].type);
		for (size_t k = 0; k < h->groups[i].ndevices; k++)
			free(h->groups[i].devices[k]);
		free(h->groups[i].devices);
	}
	free(h->groups);
	for (size_t i = 0; i < h->niommus; i++)
		free(h->iommus[i]);
	free(h->iommus);
	for (size_t i = 0; i < h->nfaults; i++)
		free(h->faults[i].line);
	free(h->faults);
	fw_dev_history_free(&h->history);
	free(h->container_why);
	memset(h, 0, sizeof(*h));
}
