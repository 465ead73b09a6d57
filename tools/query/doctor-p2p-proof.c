/* Doctor check p2p-proof: does GPU peer-to-peer work, per GPU pair, judged from the outputs of
 * the tools that prove it (tools/host/p2p-proof.h): the files given with --p2p-evidence and what a
 * snapshot captured under fwlens/p2p. topo -p2p says whether the driver allows P2P for a pair;
 * p2pBandwidthLatencyTest whether enabling it is faster (a pair whose P2P goes up through the root
 * complex and the IOMMU is not, or faults); nccl-tests what a collective reaches and whether it
 * ran with P2P at all. Each verdict names its file and line. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "doctor-checks.h"
#include "tools/host/p2p-proof.h"

#define FILES_MAX 16
#define FASTER 1.05 /* enabled must beat disabled by this factor to count as faster */

struct proof_set {
	struct fw_p2p_proof *files[FILES_MAX]; /* each some 10 KiB: made only for the files there are */
	size_t n;
	const struct fw_p2p_proof *gpu_list; /* nvidia-smi's index -> address, for topo files */
};

static void load_all(const struct fw_doctor_ctx *ctx, struct fw_check_result *r, struct proof_set *s)
{
	struct fw_error err;
	for (size_t i = 0; i < ctx->src.np2p_evidence && s->n < FILES_MAX; i++) {
		fw_error_clear(&err);
		struct fw_p2p_proof *f = fw_xcalloc(1, sizeof(*f));
		if (fw_p2p_load(ctx->src.p2p_evidence[i], f, &err)) {
			s->files[s->n++] = f;
		} else {
			fw_check_evidence(r, FW_EVIDENCE_ABSENT, ctx->src.p2p_evidence[i], "not read: %s", err.msg);
			fw_p2p_free(f);
			free(f);
		}
	}
	struct fw_strlist names = {0};
	if (ctx->host && ctx->host->machine && fw_machine_list(ctx->host->machine, FW_P2P_CAPTURE_DIR, &names)) {
		for (size_t i = 0; i < names.count && s->n < FILES_MAX; i++) {
			char rel[256];
			snprintf(rel, sizeof(rel), "%s/%s", FW_P2P_CAPTURE_DIR, names.items[i]);
			struct fw_blob b;
			fw_error_clear(&err);
			if (!fw_machine_read(ctx->host->machine, rel, &b, &err))
				continue;
			char *text = fw_xmalloc(b.len + 1);
			memcpy(text, b.data, b.len);
			text[b.len] = '\0';
			struct fw_p2p_proof *f = fw_xcalloc(1, sizeof(*f));
			if (fw_p2p_parse(rel, text, b.len, f, &err)) {
				s->files[s->n++] = f;
			} else {
				fw_check_evidence(r, FW_EVIDENCE_ABSENT, rel, "not read: %s", err.msg);
				fw_p2p_free(f);
				free(f);
			}
			free(text);
		}
		fw_strlist_free(&names);
	}
	for (size_t i = 0; i < s->n && !s->gpu_list; i++)
		if (s->files[i]->kind == FW_P2P_GPU_LIST)
			s->gpu_list = s->files[i];
}

/* "GPU1 (0000:24:00.0)": the address the file gives, nvidia-smi's list for topo files, the host's
 * GPU on that bus for a bus number; or says it is not known. */
static const char *gpu_name(const struct fw_doctor_ctx *ctx, const struct proof_set *s, const struct fw_p2p_proof *f,
			    size_t i, char *buf, size_t len)
{
	const char *bdf = f->bdf[i][0] ? f->bdf[i] : NULL;
	const char *how = "";
	if (!bdf && (f->kind == FW_P2P_TOPO_MATRIX || f->kind == FW_P2P_TOPO_P2P) && s->gpu_list && s->gpu_list->bdf[i][0]) {
		bdf = s->gpu_list->bdf[i];
		how = ", by nvidia-smi's list";
	}
	if (bdf && f->bus_only[i]) {
		/* the bus alone: the host's one GPU on that bus, if there is exactly one */
		const char *found = NULL;
		size_t n = 0;
		for (size_t k = 0; ctx->host && k < ctx->host->npci; k++) {
			const struct fw_pci_device *d = &ctx->host->pci[k];
			if (fw_pci_is_gpu(d) && strncmp(d->bdf + 5, bdf + 5, 2) == 0)
				found = d->bdf, n++;
		}
		if (n == 1)
			snprintf(buf, len, "GPU%zu (%s, bus %.2s in the log)", i, found, bdf + 5);
		else
			snprintf(buf, len, "GPU%zu (bus %.2s)", i, bdf + 5);
		return buf;
	}
	if (bdf)
		snprintf(buf, len, "GPU%zu (%s%s)", i, bdf, how);
	else
		snprintf(buf, len, "GPU%zu", i);
	return buf;
}

static const char *status_meaning(const char *c)
{
	return !strcmp(c, "CNS") ? "chipset not supported" : !strcmp(c, "GNS") ? "GPU not supported"
	       : !strcmp(c, "TNS") ? "topology not supported" : !strcmp(c, "NS") ? "not supported"
	       : !strcmp(c, "U")   ? "unknown"
				   : "?";
}

/* s after buf, "; " between items when sep */
static void cat(char *buf, size_t len, const char *s, bool sep)
{
	size_t used = strlen(buf);
	if (used + 1 < len)
		snprintf(buf + used, len - used, "%s%s", sep && used ? "; " : "", s);
}

void fw_check_p2p_proof(const struct fw_doctor_ctx *ctx, struct fw_check_result *r)
{
	struct proof_set *s = fw_xcalloc(1, sizeof(*s));
	load_all(ctx, r, s);
	size_t faster = 0, topo_ok = 0;
	char not_ok[1024] = "", slow[1024] = "", no_access[1024] = "", nccl[1024] = "", addr_note[256] = "";
	bool nccl_no_p2p = false, nccl_p2p = false;
	for (size_t fi = 0; fi < s->n; fi++) {
		const struct fw_p2p_proof *f = s->files[fi];
		char from[300], a[96], b[96];
		if (f->kind == FW_P2P_TOPO_P2P || f->kind == FW_P2P_TOPO_MATRIX) {
			if (!s->gpu_list && !f->bdf[0][0])
				snprintf(addr_note, sizeof(addr_note), "nvidia-smi topo prints no PCI addresses: give the output of "
					 "nvidia-smi --query-gpu=index,pci.bus_id --format=csv to name the GPUs");
			for (size_t i = 0; i < f->ngpus; i++) {
				snprintf(from, sizeof(from), "%s:%u", f->name, f->row_line[i]);
				char row[160] = "";
				for (size_t j = 0; j < f->ngpus; j++)
					{
					cat(row, sizeof(row), j ? " " : "", false);
					cat(row, sizeof(row), f->cell[i][j], false);
				}
				fw_check_evidence(r, FW_EVIDENCE_FILE, from, "%s: %s %s", fw_p2p_kind_name(f->kind),
						  gpu_name(ctx, s, f, i, a, sizeof(a)), row);
				for (size_t j = i + 1; j < f->ngpus && f->kind == FW_P2P_TOPO_P2P; j++) {
					topo_ok += strcmp(f->cell[i][j], "OK") == 0;
					if (strcmp(f->cell[i][j], "OK") != 0) {
						char one[256];
						snprintf(one, sizeof(one), "%s-%s %s (%s, %s)", gpu_name(ctx, s, f, i, a, sizeof(a)),
							 gpu_name(ctx, s, f, j, b, sizeof(b)), f->cell[i][j], status_meaning(f->cell[i][j]), from);
						cat(not_ok, sizeof(not_ok), one, true);
					}
				}
			}
		} else if (f->kind == FW_P2P_BANDWIDTH) {
			for (size_t i = 0; i < f->ngpus; i++)
				for (size_t j = 0; j < f->ngpus; j++) {
					if (i == j)
						continue;
					double on = f->bw_on[i][j], off = f->bw_off[i][j];
					char one[320];
					if (f->access[i][j] == 0) {
						/* no peer access: the copy falls back to staging through the host */
						snprintf(one, sizeof(one), "%s->%s (%s:%u)", gpu_name(ctx, s, f, i, a, sizeof(a)),
							 gpu_name(ctx, s, f, j, b, sizeof(b)), f->name, f->access_line[i][j]);
						cat(no_access, sizeof(no_access), one, true);
						continue;
					}
					if (on > off * FASTER) {
						faster++;
						continue;
					}
					snprintf(one, sizeof(one), "%s->%s %.2f GB/s enabled vs %.2f disabled (%s:%u, %u)",
						 gpu_name(ctx, s, f, i, a, sizeof(a)), gpu_name(ctx, s, f, j, b, sizeof(b)), on, off, f->name,
						 f->on_line[i], f->off_line[i]);
					cat(slow, sizeof(slow), one, true);
				}
			snprintf(from, sizeof(from), "%s", f->name);
			fw_check_evidence(r, FW_EVIDENCE_FILE, from, "p2pBandwidthLatencyTest: %zu GPUs, unidirectional bandwidth "
					  "with P2P disabled (rows at lines %u-%u) and enabled (lines %u-%u)",
					  f->ngpus, f->off_line[0], f->off_line[f->ngpus ? f->ngpus - 1 : 0], f->on_line[0],
					  f->on_line[f->ngpus ? f->ngpus - 1 : 0]);
		} else if (f->kind == FW_P2P_NCCL) {
			char one[400];
			snprintf(one, sizeof(one), "%s: busbw %.2f GB/s at %.0f bytes (line %u)", f->name, f->last_busbw, f->last_size,
				 f->last_line);
			if (f->have_avg)
				snprintf(one + strlen(one), sizeof(one) - strlen(one), ", average %.2f GB/s (line %u)", f->avg_busbw,
					 f->avg_line);
			if (f->p2p_disabled == 1) {
				snprintf(one + strlen(one), sizeof(one) - strlen(one), ", run with NCCL_P2P_DISABLE=1 (line %u): "
					 "it measures the fallback, not P2P", f->p2p_disabled_line);
				nccl_no_p2p = true;
			} else if (f->via_p2p == 1) {
				nccl_p2p = true;
				snprintf(one + strlen(one), sizeof(one) - strlen(one), ", channels %s (line %u)", f->via_text, f->via_line);
			} else if (f->via_p2p == 0) {
				snprintf(one + strlen(one), sizeof(one) - strlen(one), ", no channel via P2P: %s (line %u)", f->via_text,
					 f->via_line);
				nccl_no_p2p = true;
			} else {
				snprintf(one + strlen(one), sizeof(one) - strlen(one), ", transport not logged (run with "
					 "NCCL_DEBUG=INFO): whether it used P2P is not known");
			}
			fw_check_evidence(r, FW_EVIDENCE_FILE, f->name, "all_reduce_perf: %s", one);
			cat(nccl, sizeof(nccl), one, true);
		} else if (f->kind == FW_P2P_GPU_LIST) {
			for (size_t i = 0; i < f->ngpus; i++)
				if (f->bdf[i][0])
					fw_check_evidence(r, FW_EVIDENCE_FILE, f->name, "nvidia-smi index %zu is %s", i, f->bdf[i]);
		}
	}
	if (addr_note[0])
		fw_check_evidence(r, FW_EVIDENCE_ABSENT, "nvidia-smi topo", "%s", addr_note);
	size_t files = s->n;
	for (size_t i = 0; i < s->n; i++) {
		fw_p2p_free(s->files[i]);
		free(s->files[i]);
	}
	free(s);
	if (!files) {
		fw_check_skip(r, FW_P2P_CAPTURE_DIR, "No P2P evidence: give --p2p-evidence FILE (saved output of nvidia-smi "
			      "topo -p2p r or -m, p2pBandwidthLatencyTest, all_reduce_perf), or capture a snapshot on a host where "
			      "nvidia-smi runs.");
		return;
	}
	char expl[6144];
	snprintf(expl, sizeof(expl), "%s%s%s%s%s%s%s%s%s%s%s%s", slow[0] ? "Enabling P2P is not faster for: " : "", slow,
		 slow[0] ? ". " : "", not_ok[0] ? "The driver does not allow P2P for: " : "", not_ok, not_ok[0] ? ". " : "",
		 no_access[0] ? "No peer access (CANNOT Access Peer), so copies go through the host: " : "", no_access,
		 no_access[0] ? ". " : "", nccl[0] ? "NCCL: " : "", nccl, nccl[0] ? ". " : "");
	bool proven = topo_ok || faster || nccl_p2p;
	if (!slow[0] && !not_ok[0] && !no_access[0] && !nccl_no_p2p) {
		size_t used = strlen(expl);
		if (!proven) {
			snprintf(expl + used, sizeof(expl) - used, "The files hold no P2P result (nvidia-smi topo -m shows links, a "
				 "GPU list only addresses): P2P is not known.");
			fw_check_set(r, FW_CHECK_SKIP, expl, NULL);
			return;
		}
		snprintf(expl + used, sizeof(expl) - used, "P2P works where measured: %zu pairs OK in topo -p2p, %zu directions "
			 "faster with P2P enabled%s.", topo_ok, faster, nccl_p2p ? ", NCCL channels via P2P" : "");
		fw_check_set(r, FW_CHECK_PASS, expl, NULL);
		return;
	}
	const char *fix = "Look at acs-gpu-paths and p2p-io-page-faults for the route the transfers take; fwlens plan SRC "
			  "--profile p2p-host writes the ACS kernel option for same-switch pairs; until P2P is proven, keep "
			  "NCCL_P2P_DISABLE=1 for the pairs named. Rerun p2pBandwidthLatencyTest and all_reduce_perf (with "
			  "NCCL_DEBUG=INFO) after each change.";
	fw_check_set(r, slow[0] ? FW_CHECK_FAIL : FW_CHECK_WARN, expl, fix);
}
