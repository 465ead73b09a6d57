/* Sections of the notes about the host's GPUs and memory, and the blocks a person writes into
 * the notes file that survive when fwlens rewrites it:
 *   ## GPUs      driver version, and per GPU its model, VBIOS, driver, IOMMU group and type, NUMA
 *                node and owner (VM, container or the host, from the Proxmox configurations);
 *   ## NUMA      nodes (SRAT), the SLIT distance matrix, proximity domain -> socket (SRAT
 *                processor entries joined with /proc/cpuinfo), the NPS setting;
 *   ## Evidence  what each doctor check read. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "acpi/slit.h"
#include "acpi/srat.h"
#include "doctor-checks.h"
#include "md-escape.h"
#include "notes.h"

#define MAX_GPUS 64

static const char *or_dash(const char *s) { return s && *s ? s : "-"; }

void fw_notes_gpus(FILE *f, struct fw_source *src)
{
	if (!src->have_host)
		return;
	const struct fw_host *h = &src->host;
	const struct fw_pci_device *gpus[MAX_GPUS];
	size_t n = fw_host_gpus(h, gpus, MAX_GPUS);
	if (n > MAX_GPUS)
		n = MAX_GPUS;
	fputs("## GPUs and who owns them\n\n", f);
	fputs("- GPU driver: ", f);
	fw_md_cell(f, h->nvidia_version ? h->nvidia_version : "not known (no /proc/driver/nvidia/version)");
	fputc('\n', f);
	if (!h->pve_captured)
		fputs("- Owners: no Proxmox configuration was captured; a GPU is the host's when a host driver holds it, "
		      "otherwise its owner is not known.\n",
		      f);
	fputc('\n', f);
	if (!n) {
		fputs("No GPU was found among the PCI devices.\n\n", f);
		return;
	}
	fputs("| GPU | Model | VBIOS | Driver | IOMMU group | NUMA node | Owner | Owner from |\n"
	      "|---|---|---|---|---|---|---|---|\n",
	      f);
	for (size_t i = 0; i < n; i++) {
		const struct fw_pci_device *g = gpus[i];
		const struct fw_iommu_group *grp = fw_host_group(h, g->iommu_group);
		char model[160], group[48], numa[16], owner[96];
		fw_doctor_gpu_model(h, g, model, sizeof(model));
		if (grp)
			snprintf(group, sizeof(group), "%d (%s)", grp->id, grp->type ? grp->type : "type not known");
		else
			snprintf(group, sizeof(group), "-");
		if (g->numa_node >= 0)
			snprintf(numa, sizeof(numa), "%d", g->numa_node);
		else
			snprintf(numa, sizeof(numa), "not known");
		snprintf(owner, sizeof(owner), "%s%s%s", g->owner ? g->owner : "not known", g->owner_snp ? " (SEV-SNP)" : "",
			 g->nclaims > 1 ? ", claimed twice" : "");
		const char *cells[] = {g->bdf, model, g->vbios ? g->vbios : "not known", or_dash(g->driver),
				       group, numa, owner, g->owner_from ? g->owner_from : "-"};
		fw_md_row(f, cells, sizeof(cells) / sizeof(cells[0]));
	}
	fputc('\n', f);
}

void fw_notes_numa(FILE *f, struct fw_source *src)
{
	struct fw_acpi_set *set = src->kind == FW_SOURCE_MACHINE ? fw_source_acpi(src) : NULL;
	const struct fw_acpi_table *srat_t = set ? fw_acpi_set_find(set, "SRAT", 0) : NULL;
	const struct fw_acpi_table *slit_t = set ? fw_acpi_set_find(set, "SLIT", 0) : NULL;
	const struct fw_srat *srat = srat_t ? srat_t->model : NULL;
	const struct fw_slit *slit = slit_t ? slit_t->model : NULL;
	const struct fw_setting *nps = fw_source_settings(src) ? fw_source_setting(src, "NUMA nodes per socket") : NULL;
	if (!srat && !slit && !nps)
		return;
	fputs("## NUMA\n\n", f);
	if (nps && nps->has_current) {
		fputs("- NPS setting: ", f);
		fw_md_cellf(f, "%s (%s@0x%x)", nps->current_text ? nps->current_text : "not one of its options",
			    or_dash(nps->varstore_name), nps->q->var_info);
		fputc('\n', f);
	} else if (nps) {
		fputs("- NPS setting: no current value stored\n", f);
	}
	if (srat) {
		fprintf(f, "- Nodes (SRAT proximity domains): %zu\n", srat->ndomains);
		/* proximity domain -> socket: SRAT gives each APIC id its domain, /proc/cpuinfo its socket */
		const char *cpuinfo = NULL;
		struct fw_blob b;
		char *text = NULL;
		if (src->have_host && fw_machine_read(src->host.machine, "proc/cpuinfo", &b, NULL)) {
			text = fw_xstrndup((const char *)b.data, b.len);
			cpuinfo = text;
		}
		for (size_t d = 0; d < srat->ndomains; d++) {
			int socket = -1;
			bool mixed = false;
			for (size_t e = 0; e < srat->nentries && cpuinfo; e++) {
				const struct fw_srat_entry *en = &srat->entries[e];
				if (!en->enabled || en->proximity_domain != srat->domains[d] || (en->type != 0 && en->type != 2))
					continue;
				/* the processor block whose apicid is this entry's id */
				char key[48];
				snprintf(key, sizeof(key), "\napicid\t\t: %u\n", en->id);
				const char *at = strstr(cpuinfo, key);
				if (!at)
					continue;
				const char *start = at;
				while (start > cpuinfo && !(start[-1] == '\n' && start[0] == '\n'))
					start--;
				const char *phys = strstr(start, "physical id\t: ");
				if (!phys || phys > at)
					continue;
				int s = atoi(phys + 14);
				if (socket >= 0 && socket != s)
					mixed = true;
				socket = s;
			}
			if (socket >= 0)
				fprintf(f, "  - PXM %u -> socket %d%s\n", srat->domains[d], socket, mixed ? " (and others)" : "");
			else
				fprintf(f, "  - PXM %u -> socket not known%s\n", srat->domains[d],
					cpuinfo ? " (no processor of it in /proc/cpuinfo)" : " (/proc/cpuinfo not captured)");
		}
		free(text);
	}
	if (slit && slit->n) {
		fputs("\nSLIT distances (row: from, column: to):\n\n|   |", f);
		for (size_t j = 0; j < slit->n; j++)
			fprintf(f, " %zu |", j);
		fputs("\n|---|", f);
		for (size_t j = 0; j < slit->n; j++)
			fputs("---|", f);
		fputc('\n', f);
		for (size_t i = 0; i < slit->n; i++) {
			fprintf(f, "| %zu |", i);
			for (size_t j = 0; j < slit->n; j++)
				fprintf(f, " %u |", slit->matrix[i * slit->n + j]);
			fputc('\n', f);
		}
	}
	fputc('\n', f);
}

void fw_notes_evidence(FILE *f, const struct fw_doctor_report *all)
{
	fputs("## Evidence of the checks\n\n", f);
	/* whose readiness each failure touches: a host-GPU failure leaves the SNP guest ready */
	char *ready = fw_doctor_readiness_line(all);
	fputs("Readiness by role: ", f);
	fw_md_cell(f, ready);
	fputs("\n\n", f);
	free(ready);
	for (size_t i = 0; i < all->count; i++) {
		const struct fw_check_result *c = &all->results[i];
		if (c->not_applicable)
			continue;
		fprintf(f, "- `%s` (%s):\n", c->id, fw_check_status_name(c->status));
		size_t k;
		json_t *e;
		json_array_foreach(c->evidence, k, e)
		{
			if (k == 12) {
				fprintf(f, "  - (%zu more: `fwlens doctor --format json`)\n", json_array_size(c->evidence) - 12);
				break;
			}
			fputs("  - ", f);
			fw_md_cell(f, fw_evidence_from(e));
			fputs(": ", f);
			fw_md_code(f, fw_evidence_text(e));
			fputc('\n', f);
		}
	}
	fputc('\n', f);
}

/* ---- blocks the user writes ---- */

#define KEEP_OPEN "<!-- fwlens:keep "
#define KEEP_CLOSE "<!-- fwlens:end "

void fw_notes_user_blocks(FILE *f)
{
	fputs("## Decisions and benchmarks\n\n"
	      KEEP_OPEN "decisions -->\n"
	      "Decisions taken and why (this block is yours: `fwlens notes -o` keeps it when it rewrites the file).\n"
	      KEEP_CLOSE "decisions -->\n\n"
	      KEEP_OPEN "benchmarks -->\n"
	      "Benchmarks (NCCL busbw, inference throughput) with the settings above.\n"
	      KEEP_CLOSE "benchmarks -->\n",
	      f);
}

/* The block named `name` in text: from after its opening marker line to its closing marker. */
static bool find_block(const char *text, size_t len, const char *name, size_t *from, size_t *to)
{
	char open[160], close[160];
	snprintf(open, sizeof(open), KEEP_OPEN "%s -->\n", name);
	snprintf(close, sizeof(close), KEEP_CLOSE "%s -->", name);
	const char *o = memmem(text, len, open, strlen(open));
	if (!o)
		return false;
	size_t start = (size_t)(o - text) + strlen(open);
	const char *c = memmem(text + start, len - start, close, strlen(close));
	if (!c)
		return false;
	*from = start;
	*to = (size_t)(c - text);
	return true;
}

struct grow {
	char *p;
	size_t n, cap;
};

static void put(struct grow *g, const char *s, size_t len)
{
	if (g->n + len + 1 > g->cap) {
		g->cap = (g->n + len + 1) * 2;
		g->p = fw_xrealloc(g->p, g->cap);
	}
	memcpy(g->p + g->n, s, len);
	g->n += len;
	g->p[g->n] = '\0';
}

static bool block_name(const char *at, const char *end, char nm[64])
{
	const char *name = at + strlen(KEEP_OPEN);
	size_t nl = 0;
	while (name + nl < end && name[nl] != ' ' && name[nl] != '\n')
		nl++;
	if (nl == 0 || nl >= 64)
		return false;
	snprintf(nm, 64, "%.*s", (int)nl, name);
	return true;
}

char *fw_notes_keep_user_blocks(const char *old, size_t oldlen, const char *fresh, size_t freshlen, size_t *outlen)
{
	struct grow g = {0};
	put(&g, "", 0);
	char placed[64][64];
	size_t nplaced = 0, pos = 0;
	/* each block of the fresh text takes the old file's content of the same name */
	for (;;) {
		const char *o = memmem(fresh + pos, freshlen - pos, KEEP_OPEN, strlen(KEEP_OPEN));
		char nm[64];
		size_t ff, ft, of, ot;
		if (!o || !block_name(o, fresh + freshlen, nm) || !find_block(fresh + pos, freshlen - pos, nm, &ff, &ft))
			break;
		ff += pos, ft += pos;
		put(&g, fresh + pos, ff - pos);
		if (old && find_block(old, oldlen, nm, &of, &ot))
			put(&g, old + of, ot - of);
		else
			put(&g, fresh + ff, ft - ff);
		if (nplaced < 64)
			snprintf(placed[nplaced++], sizeof(placed[0]), "%s", nm);
		pos = ft;
	}
	put(&g, fresh + pos, freshlen - pos);
	/* blocks of the old file the fresh text has no place for are kept at the end, not dropped */
	for (const char *p = old; p && (p = memmem(p, oldlen - (size_t)(p - old), KEEP_OPEN, strlen(KEEP_OPEN)));
	     p += strlen(KEEP_OPEN)) {
		char nm[64];
		size_t of, ot;
		if (!block_name(p, old + oldlen, nm))
			continue;
		bool done = false;
		for (size_t k = 0; k < nplaced && !done; k++)
			done = strcmp(placed[k], nm) == 0;
		if (done || !find_block(old, oldlen, nm, &of, &ot))
			continue;
		char mark[160];
		int ml = snprintf(mark, sizeof(mark), "\n" KEEP_OPEN "%s -->\n", nm);
		put(&g, mark, (size_t)ml);
		put(&g, old + of, ot - of);
		ml = snprintf(mark, sizeof(mark), KEEP_CLOSE "%s -->\n", nm);
		put(&g, mark, (size_t)ml);
		if (nplaced < 64)
			snprintf(placed[nplaced++], sizeof(placed[0]), "%s", nm);
	}
	*outlen = g.n;
	return g.p;
}
