/* The uefi-settings notes, in the layout of reference/domain.md section 5. */
#include "notes.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "acpi/topo.h"
#include "cpu-gen.h"
#include "doctor-checks.h"
#include "md-escape.h"
#include "sev-version.h"
#include "tools/host/pci-names.h"
#include "tools/host/sev-probe.h"

/* The settings the notes tabulate, per area, with what each use needs (domain.md section 1).
 * To add a row: add {area, prompt, needs}; prompts missing from a BIOS are left out. */
static const struct notes_row {
	const char *area;
	const char *prompt;
	const char *needs;
} rows[] = {
	{"Memory encryption and SEV", "SMEE", "SNP: Enable (Auto hides the SEV options)"},
	{"Memory encryption and SEV", "SEV Control", "SNP: Enable"},
	{"Memory encryption and SEV", "SEV-ES ASID Space Limit Control", "SNP: Manual (Zen 4)"},
	{"Memory encryption and SEV", "SEV-ES ASID Space Limit", "SNP: > 1 (e.g. 100); 1 leaves no SNP ASIDs"},
	{"Memory encryption and SEV", "SNP Memory (RMP Table) Coverage", "SNP: Enabled"},
	{"Memory encryption and SEV", "Amount of Memory to Cover", "only with Custom coverage"},
	{"Memory encryption and SEV", "TSME", "not required"},
	{"Memory encryption and SEV", "SME-MK", "SNP: Disabled (with SMEE: #GP)"},
	{"IOMMU", "IOMMU", "SNP, vfio: Enabled (Auto = platform default)"},
	{"IOMMU", "SEV-SNP Support", "SNP: Enable (Auto may read as off)"},
	{"IOMMU", "Pre-boot DMA Protection", "-"},
	{"IOMMU", "Kernel DMA Protection Indicator", "-"},
	{"PCIe, ACS and P2P", "ACS Enable", "vfio: Auto/Enable for per-port groups"},
	{"PCIe, ACS and P2P", "Enable AER Cap", "ACS Enable needs it"},
	{"PCIe, ACS and P2P", "PCIe ARI Support", "SR-IOV NICs: Enable"},
	{"PCIe, ACS and P2P", "PCIe Ten Bit Tag Support", "P2P: only if every peer supports it"},
	{"PCIe, ACS and P2P", "Above 4G Decoding", "GPUs: Enabled"},
	{"PCIe, ACS and P2P", "Above 4GB MMIO Limit", "GPUs: room for every BAR"},
	{"PCIe, ACS and P2P", "Resize BAR Support", "GPUs: Enabled (full BAR1)"},
	{"PCIe, ACS and P2P", "Relaxed Ordering", "-"},
	{"NUMA", "NUMA nodes per socket", "pinning of VMs and ranks"},
	{"NUMA", "NUMA nodes", "pinning of VMs and ranks"},
	{"NUMA", "ACPI SRAT L3 Cache As NUMA Domain", "-"},
	{"NUMA", "Memory interleaving", "-"},
	{"Virtualization", "SVM Mode", "KVM: Enabled"},
	{"Virtualization", "SR-IOV Support", "NIC VFs"},
};

/* One table cell after the row's opening '|' or the previous cell (md-escape.h escapes it). */
static void cell(FILE *f, const char *s)
{
	fputc(' ', f);
	fw_md_cell(f, s);
	fputs(" |", f);
}

static void cellf(FILE *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void cellf(FILE *f, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fputc(' ', f);
	fw_md_vcellf(f, fmt, ap);
	fputs(" |", f);
	va_end(ap);
}

static const char *value_text(const struct fw_setting *s, char *buf, size_t len)
{
	if (!s->has_current)
		return "(not stored)";
	if (s->current_text)
		snprintf(buf, len, "%s (0x%" PRIx64 ")%s", s->current_text, s->current, s->hidden == 1 ? ", hidden" : "");
	else
		snprintf(buf, len, "0x%" PRIx64 " (%" PRIu64 ")%s", s->current, s->current, s->hidden == 1 ? ", hidden" : "");
	return buf;
}

static const char *default_text(const struct fw_setting *s, char *buf, size_t len)
{
	for (uint32_t i = 0; i < s->ndefaults; i++)
		if (s->defaults[i].has_value && s->defaults[i].store_id == 0) {
			if (s->defaults[i].text)
				snprintf(buf, len, "%s (0x%" PRIx64 ")", s->defaults[i].text, s->defaults[i].value);
			else
				snprintf(buf, len, "0x%" PRIx64, s->defaults[i].value);
			return buf;
		}
	return "-";
}

static const char *where_text(const struct fw_setting *s, char *buf, size_t len)
{
	const char *vs = s->varstore_name ? s->varstore_name : "?";
	if (!s->q->varstore_id)
		return "-";
	if (s->q->bit_field)
		snprintf(buf, len, "%s bit 0x%x (%u bits)", vs, s->q->bit_offset, s->q->bit_width);
	else
		snprintf(buf, len, "%s@0x%x (%u byte%s)", vs, s->q->var_info, s->q->width, s->q->width == 1 ? "" : "s");
	return buf;
}

/* The SEV firmware as the kernel prints it ("1.55 build 21"), from the PSP's platform status the
 * snapshot probed, else from the ccp driver's log line; the SNP TCB versions as their fields. */
static void sev_firmware_line(FILE *f, const struct fw_host *h)
{
	char a[48], b[48], tc[128], tr[128];
	char *probe = fw_machine_read_text(h->machine, FW_SEV_PROBE_PATH);
	json_t *doc = probe ? json_loads(probe, 0, NULL) : NULL;
	free(probe);
	json_t *plat = json_object_get(doc, "platform");
	json_t *snp = json_object_get(plat, "snp"), *sev = json_object_get(plat, "sev");
	bool snp_read = json_is_true(json_object_get(snp, "read")), sev_read = json_is_true(json_object_get(sev, "read"));
	if (snp_read || sev_read) {
		json_t *s = snp_read ? snp : sev;
		struct fw_sev_fw v = {(unsigned)json_integer_value(json_object_get(s, "api_major")),
				      (unsigned)json_integer_value(json_object_get(s, "api_minor")),
				      (unsigned)json_integer_value(json_object_get(s, "build"))};
		fw_md_cellf(f, "- SEV firmware: %s (%s, %s)", fw_sev_fw_text(&v, a, sizeof(a)),
			    snp_read ? "SNP_PLATFORM_STATUS" : "SEV_PLATFORM_STATUS", FW_SEV_PROBE_PATH);
		if (snp_read && sev_read) {
			struct fw_sev_fw w = {(unsigned)json_integer_value(json_object_get(sev, "api_major")),
					      (unsigned)json_integer_value(json_object_get(sev, "api_minor")),
					      (unsigned)json_integer_value(json_object_get(sev, "build"))};
			if (memcmp(&v, &w, sizeof(v)) != 0)
				fw_md_cellf(f, "; SEV_PLATFORM_STATUS says %s", fw_sev_fw_text(&w, b, sizeof(b)));
		}
		const char *cur = json_string_value(json_object_get(snp, "current_tcb"));
		const char *rep = json_string_value(json_object_get(snp, "reported_tcb"));
		struct fw_cpu_gen cpu;
		fw_cpu_gen_read(h->machine, &cpu);
		if (snp_read && cur && rep) {
			uint64_t c = strtoull(cur, NULL, 16), r = strtoull(rep, NULL, 16);
			fw_snp_tcb_text(cpu.known ? cpu.family : 0, c, tc, sizeof(tc));
			fw_snp_tcb_text(cpu.known ? cpu.family : 0, r, tr, sizeof(tr));
			fputs("\n- SNP TCB: ", f);
			if (c == r)
				fw_md_cellf(f, "%s (current = reported, %s)", tc, cur);
			else
				fw_md_cellf(f, "current %s (%s), reported %s (%s)", tc, cur, tr, rep);
		}
		fputc('\n', f);
		json_decref(doc);
		return;
	}
	json_decref(doc);
	const char *ccp[2];
	size_t n = fw_host_log_lines(h, "SEV-SNP API", ccp, 1);
	if (!n)
		n = fw_host_log_lines(h, "SEV API", ccp, 1);
	struct fw_sev_fw v;
	bool is_snp;
	if (n && fw_sev_fw_from_log(ccp[0], &v, &is_snp)) {
		const char *api = strstr(ccp[0], "SEV");
		fw_md_cellf(f, "- SEV firmware: %s (kernel log: %.*s)", fw_sev_fw_text(&v, a, sizeof(a)), (int)strcspn(api, "\n"), api);
		fputc('\n', f);
	}
}

static void header(FILE *f, struct fw_source *src, const struct fw_notes_options *o)
{
	const struct fw_host *h = src->have_host ? &src->host : NULL;
	const char *who = h && h->product ? h->product : h && h->board ? h->board : "Host";
	/* every name below comes from the machine, the snapshot or the command line: escaped */
	fputs("# ", f);
	if (o->title) {
		fw_md_cell(f, o->title);
	} else if (h && h->bios_version) {
		fw_md_cell(f, who);
		fputs(" UEFI settings: BIOS ", f);
		fw_md_cell(f, h->bios_version);
		if (h->bios_date) {
			fputs(" (", f);
			fw_md_cell(f, h->bios_date);
			fputc(')', f);
		}
	} else {
		fputs("UEFI settings of ", f);
		fw_md_cell(f, src->image_name ? src->image_name : src->path);
	}
	fputs("\n\n", f);
	if (h) {
		fputs("- Board: ", f);
		fw_md_cellf(f, "%s%s%s / %s", h->vendor ? h->vendor : "", h->vendor ? " " : "", h->product ? h->product : "?",
			    h->board ? h->board : "?");
		fputs("\n- BIOS: ", f);
		fw_md_cellf(f, "%s%s%s%s%s", h->bios_vendor ? h->bios_vendor : "", h->bios_vendor ? " " : "",
			    h->bios_version ? h->bios_version : "?", h->bios_date ? ", " : "", h->bios_date ? h->bios_date : "");
		fputs("\n- Kernel: ", f);
		fw_md_cell(f, h->kernel_release ? h->kernel_release : "(not captured)");
		fputc('\n', f);
		sev_firmware_line(f, h);
	}
	const char *manifest = src->machine ? fw_machine_manifest_json(src->machine) : NULL;
	if (manifest) {
		json_t *m = json_loads(manifest, 0, NULL);
		fputs("- Captured: ", f);
		fw_md_cellf(f, "%s by %s (snapshot %s)", json_string_value(json_object_get(m, "created")),
			    json_string_value(json_object_get(m, "tool")), src->path);
		fputc('\n', f);
		json_decref(m);
	} else if (src->kind == FW_SOURCE_MACHINE) {
		fputs("- Read from: ", f);
		fw_md_cell(f, src->path);
		fputs(" (machine folder)\n", f);
	}
	const char *sha = src->have_hii ? fw_source_image_sha256(src) : NULL;
	if (sha) { /* the file, --image, or the image stored in the snapshot or named by it (its bytes or the cache) */
		fputs("- Image: ", f);
		fw_md_cell(f, src->image_name ? src->image_name : src->path);
		fprintf(f, ", %zu bytes, sha256 %s\n", src->image_len, sha);
	}
	fputc('\n', f);
}

static const char *verdict(const struct fw_doctor_report *r, char *buf, size_t len)
{
	if (r->fail)
		snprintf(buf, len, "not ready: %zu check%s failed", r->fail, r->fail == 1 ? "" : "s");
	else if (r->warn)
		snprintf(buf, len, "ready with %zu warning%s", r->warn, r->warn == 1 ? "" : "s");
	else if (r->pass)
		snprintf(buf, len, "ready");
	else
		snprintf(buf, len, "unknown (nothing to check)");
	return buf;
}

static void summary(FILE *f, struct fw_source *src, struct fw_doctor_report *all)
{
	static const struct {
		const char *what;
		unsigned profile;
	} uses[] = {
		{"SEV-SNP host", FW_PROFILE_SNP},
		{"vfio GPU passthrough", FW_PROFILE_VFIO},
		{"GPU peer-to-peer on the host", FW_PROFILE_P2P},
	};
	fputs("## Summary\n\n", f);
	for (size_t i = 0; i < sizeof(uses) / sizeof(uses[0]); i++) {
		struct fw_doctor_ctx ctx;
		fw_source_doctor_ctx(src, uses[i].profile, &ctx);
		struct fw_doctor_report r;
		fw_doctor_run(&ctx, &r);
		char v[128];
		fprintf(f, "- %s: %s", uses[i].what, verdict(&r, v, sizeof(v)));
		const char *sep = " (";
		for (size_t k = 0; k < r.count; k++)
			if (r.results[k].status == FW_CHECK_FAIL) {
				fprintf(f, "%s%s", sep, r.results[k].id);
				sep = ", ";
			}
		fputs(strcmp(sep, ", ") == 0 ? ")\n" : "\n", f);
		fw_doctor_report_free(&r);
	}
	fprintf(f, "- Doctor: %zu pass, %zu warn, %zu fail, %zu skip", all->pass, all->warn, all->fail, all->skip);
	/* the statuses of their own are named only when they occur, as doctor's own summary does */
	if (all->pending)
		fprintf(f, ", %zu pending", all->pending);
	if (all->accepted)
		fprintf(f, ", %zu accepted", all->accepted);
	fputs(" (`fwlens doctor`)\n\n", f);
}

static void settings_tables(FILE *f, struct fw_source *src)
{
	fputs("## Settings that matter\n\n", f);
	struct fw_settings *s = fw_source_settings(src);
	if (!s) {
		fputs("No BIOS forms were given, so the stored settings cannot be decoded: run again with `--image` and the "
		      "BIOS image of this machine, or capture the snapshot with `--image`.\n\n",
		      f);
		return;
	}
	if (!s->bound) {
		fputs("No current values: the source holds no setup variables; the tables show defaults only.\n\n", f);
	} else {
		fputs("Current values from ", f);
		fw_md_cell(f, fw_source_current_text(src));
		fputs(".\n\n", f);
	}
	const char *area = NULL;
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		const struct fw_setting *st = fw_source_setting(src, rows[i].prompt);
		if (!st)
			continue;
		if (!area || strcmp(area, rows[i].area) != 0) {
			area = rows[i].area;
			fprintf(f, "### %s\n\n| Prompt | Menu path | Current (raw) | Default | Needed for | Where |\n"
				   "|---|---|---|---|---|---|\n",
				area);
		}
		char b1[256], b2[256], b3[256];
		fputc('|', f);
		cell(f, st->prompt);
		cell(f, st->npaths ? st->paths[0] : "-");
		cell(f, value_text(st, b1, sizeof(b1)));
		cell(f, default_text(st, b2, sizeof(b2)));
		cell(f, rows[i].needs);
		cell(f, where_text(st, b3, sizeof(b3)));
		fputc('\n', f);
		/* the next row may open a new area */
		if (i + 1 < sizeof(rows) / sizeof(rows[0]) && strcmp(rows[i + 1].area, area) != 0)
			fputc('\n', f);
	}
	fputs("\nOffsets are into the variable's data (an efivarfs file has 4 attribute bytes before it). Change a "
	      "value in setup, or with a setup_var-style tool at the varstore and offset shown.\n\n",
	      f);
}

static const char *iommu_mode(const struct fw_host *h, char *buf, size_t len)
{
	const char *why;
	bool passthrough = fw_doctor_passthrough(h, &why);
	if (passthrough)
		snprintf(buf, len, "passthrough (%s): devices are not translated; SNP cannot be enabled", why);
	else
		snprintf(buf, len, "translated (the default: no iommu=pt on the command line)");
	struct fw_group_counts c;
	/* with passthrough the kernel made the groups identity at boot: nothing was switched */
	if (fw_doctor_group_types(h, &c) && c.identity && !passthrough) {
		/* an identity domain does not translate: say which groups were switched since boot */
		size_t used = strlen(buf);
		snprintf(buf + used, len - used, "; group%s %s identity now (switched after boot), not translated",
			 c.identity == 1 ? "" : "s", c.identity_ids);
	}
	return buf;
}

static void kernel_side(FILE *f, struct fw_source *src, struct fw_doctor_report *all)
{
	if (!src->have_host)
		return;
	const struct fw_host *h = &src->host;
	fputs("## Kernel and OS side\n\n", f);
	fputs("- Command line: ", f);
	if (h->cmdline)
		fw_md_code(f, h->cmdline);
	else
		fputs("(not captured)", f);
	fputs("\n", f);
	char buf[512];
	fputs("- IOMMU mode: ", f);
	fw_md_cell(f, iommu_mode(h, buf, sizeof(buf)));
	fputc('\n', f);
	bool present;
	const char *amd = fw_host_option(h, "amd_iommu", &present);
	if (present && amd && strstr(amd, "on"))
		fputs("- `amd_iommu=on` is not an option the AMD IOMMU driver knows (the kernel logs `AMD-Vi: Unknown "
		      "option - 'on'`); the IOMMU is on because IVRS exists, and translated because iommu=pt is absent.\n",
		      f);
	fputs("- kvm_amd: ", f);
	fw_md_cellf(f, "sev=%s, sev_es=%s, sev_snp=%s", h->kvm_sev ? h->kvm_sev : "?", h->kvm_sev_es ? h->kvm_sev_es : "?",
		    h->kvm_sev_snp ? h->kvm_sev_snp : "?");
	fputc('\n', f);
	size_t counts[5] = {0};
	static const char *const types[] = {"DMA", "DMA-FQ", "identity", "unmanaged", "other"};
	for (size_t i = 0; i < h->ngroups; i++) {
		size_t k = 4;
		for (size_t j = 0; j < 4; j++)
			if (h->groups[i].type && strcmp(h->groups[i].type, types[j]) == 0)
				k = j;
		counts[k]++;
	}
	fprintf(f, "- IOMMU groups: %zu (%zu DMA, %zu DMA-FQ, %zu identity, %zu unmanaged/vfio, %zu other)\n", h->ngroups,
		counts[0], counts[1], counts[2], counts[3], counts[4]);
	for (size_t i = 0; i < all->count; i++)
		if (strcmp(all->results[i].id, "acs-gpu-paths") == 0) {
			fputs("- ACS on the GPU paths: ", f);
			fw_md_cell(f, all->results[i].explanation);
			fputc('\n', f);
			size_t k;
			json_t *e;
			json_array_foreach(all->results[i].evidence, k, e)
			{
				fputs("  - ", f);
				fw_md_code(f, fw_evidence_text(e));
				fputc('\n', f);
			}
		}
	fputc('\n', f);
}

/* The ACPI root bridge whose bus range holds a device, or NULL. */
static const struct fw_topo_bridge *bridge_of(const struct fw_acpi_topo *t, const struct fw_pci_device *d)
{
	for (size_t i = 0; t && i < t->nbridges; i++) {
		const struct fw_topo_bridge *b = &t->bridges[i];
		if (b->present && b->bus_known && b->segment == d->segment && d->bus >= b->bus_first && d->bus <= b->bus_last)
			return b;
	}
	return NULL;
}

static void topology(FILE *f, struct fw_source *src, const char *picture)
{
	if (!src->have_host)
		return;
	const struct fw_host *h = &src->host;
	const struct fw_pci_device *gpus[64];
	size_t n = fw_host_gpus(h, gpus, 64);
	if (n > 64)
		n = 64;
	fputs("## Topology\n\n", f);
	if (picture)
		fprintf(f, "![Topology: NUMA domains, root bridges, IOMMUs, ports with ACS, GPUs](%s)\n\n", picture);
	if (!n) {
		fputs("No GPU was found among the PCI devices.\n\n", f);
		return;
	}
	/* root bridges, proximity domains and IOMMUs come from the machine's ACPI tables */
	struct fw_acpi_topo *topo = NULL;
	struct fw_acpi_set *set = fw_source_acpi(src);
	struct fw_topo_host th;
	if (set && fw_source_topo_host(src, &th)) {
		struct fw_topo_options to = {.host = &th};
		struct fw_error err;
		fw_error_clear(&err);
		if (!fw_acpi_topo_build(set, &to, &topo, &err))
			fw_source_warn(src, "topology without root bridges: %s", err.msg);
	}
	fputs("| GPU | Driver | Upstream ports | Root bridge | Proximity domain | IOMMU | NUMA node | IOMMU group |\n"
	      "|---|---|---|---|---|---|---|---|\n",
	      f);
	for (size_t i = 0; i < n; i++) {
		const struct fw_pci_device *g = gpus[i];
		char path[512] = "";
		for (const struct fw_pci_device *p = g->parent; p; p = p->parent) {
			char one[64];
			snprintf(one, sizeof(one), "%s%s (%s)", path[0] ? " < " : "", p->bdf,
				 p->have_config && p->cfg.has_pcie ? fw_pcie_port_type_name(p->cfg.pcie_port_type) : "bridge");
			strncat(path, one, sizeof(path) - strlen(path) - 1);
		}
		const struct fw_iommu_group *grp = fw_host_group(h, g->iommu_group);
		const struct fw_topo_bridge *b = bridge_of(topo, g);
		fputc('|', f);
		char name[320];
		cellf(f, "%s %s", g->bdf, fw_pci_device_name(g->cfg.vendor, g->cfg.device, name, sizeof(name)));
		cell(f, g->driver ? g->driver : "-");
		cell(f, path[0] ? path : "-");
		if (b)
			cellf(f, "%s (buses %02x-%02x)", b->dsl.path, b->bus_first, b->bus_last);
		else
			cell(f, g->root_bus ? g->root_bus : "-");
		if (b && b->pxm_known)
			cellf(f, "%u", b->pxm);
		else
			cell(f, "-");
		if (b && b->iommu)
			cellf(f, "%02x:%02x.%x", b->iommu->device_id >> 8, (b->iommu->device_id >> 3) & 0x1F,
			      b->iommu->device_id & 7);
		else
			cell(f, "-");
		if (g->numa_node >= 0)
			cellf(f, "%d", g->numa_node);
		else
			cell(f, "unknown");
		if (grp)
			cellf(f, "%d (%s)", grp->id, grp->type ? grp->type : "?");
		else
			cell(f, "-");
		fputc('\n', f);
	}
	fputc('\n', f);
	fw_acpi_topo_free(topo);
}

static void log_section(FILE *f, const struct fw_host *h, const char *title, const char *needle, size_t max)
{
	const char *lines[32];
	size_t n = fw_host_log_lines(h, needle, lines, max < 32 ? max : 32);
	if (!n)
		return;
	fprintf(f, "%s (%zu line%s):\n\n", title, n, n == 1 ? "" : "s");
	const char *shown[33];
	size_t k = 0;
	for (; k < n && k < max; k++)
		shown[k] = lines[k];
	char more[48];
	if (n > max) {
		snprintf(more, sizeof(more), "... %zu more", n - max);
		shown[k++] = more;
	}
	fw_md_code_block(f, shown, k); /* a log line cannot close the block */
	fputc('\n', f);
}

static void verification(FILE *f, struct fw_source *src)
{
	if (!src->have_host)
		return;
	const struct fw_host *h = &src->host;
	fputs("## Verification log\n\n", f);
	if (!h->dmesg) {
		fputs("The kernel log was not captured.\n\n", f);
		return;
	}
	log_section(f, h, "SEV-SNP", "SEV-SNP", 8);
	log_section(f, h, "AMD-Vi", "AMD-Vi:", 8);
	log_section(f, h, "ccp", "ccp ", 4);
	log_section(f, h, "kvm_amd", "kvm_amd:", 4);
	size_t faults = 0;
	for (size_t i = 0; i < h->nfaults; i++)
		faults += strcmp(h->faults[i].event, "IO_PAGE_FAULT") == 0;
	fprintf(f, "IO_PAGE_FAULT events: %zu\n\n", faults);
}

static void issues(FILE *f, struct fw_doctor_report *all)
{
	fputs("## Known issues and decisions\n\n", f);
	size_t n = 0;
	for (size_t i = 0; i < all->count; i++) {
		const struct fw_check_result *c = &all->results[i];
		if (c->status != FW_CHECK_FAIL && c->status != FW_CHECK_WARN)
			continue;
		n++;
		fprintf(f, "- **%s** (%s, `%s`): ", c->title, fw_check_status_name(c->status), c->id);
		fw_md_cell(f, c->explanation);
		if (c->fix) {
			fputs(" Decision/fix: ", f);
			fw_md_cell(f, c->fix);
		}
		fputc('\n', f);
	}
	if (!n)
		fputs("None found by the doctor.\n", f);
	fputs("\n## Open questions\n\n", f);
	n = 0;
	for (size_t i = 0; i < all->count; i++) {
		const struct fw_check_result *c = &all->results[i];
		if (c->status != FW_CHECK_SKIP || c->not_applicable)
			continue;
		n++;
		fprintf(f, "- %s (`%s`): ", c->title, c->id);
		fw_md_cell(f, c->explanation);
		fputc('\n', f);
	}
	if (!n)
		fputs("None: every check had its evidence.\n", f);
}

void fw_notes_write(FILE *f, struct fw_source *src, const struct fw_notes_options *o)
{
	struct fw_doctor_ctx ctx;
	fw_source_doctor_ctx(src, FW_PROFILE_ALL, &ctx);
	struct fw_doctor_report all;
	fw_doctor_run(&ctx, &all);
	header(f, src, o);
	summary(f, src, &all);
	settings_tables(f, src);
	kernel_side(f, src, &all);
	topology(f, src, o ? o->topology_picture : NULL);
	fw_notes_gpus(f, src);
	fw_notes_numa(f, src);
	verification(f, src);
	if (o->previous) {
		fputs("## Changes since ", f);
		fw_md_cell(f, o->previous->path);
		fputs("\n\n", f);
		if (o->render_changes)
			o->render_changes(f, o->previous, src, o->render_ctx);
	}
	issues(f, &all);
	fputc('\n', f);
	fw_notes_evidence(f, &all);
	fw_notes_user_blocks(f);
	fw_doctor_report_free(&all);
}
