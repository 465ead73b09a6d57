/* P2P proof: the recogniser, nvidia-smi topo -m / -p2p and nvidia-smi's GPU lists (p2p-proof.h). */
#include "p2p-proof.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parsers/file.h"

#define TOKENS_MAX 64

const char *fw_p2p_kind_name(enum fw_p2p_kind k)
{
	switch (k) {
	case FW_P2P_TOPO_MATRIX: return "nvidia-smi topo -m";
	case FW_P2P_TOPO_P2P: return "nvidia-smi topo -p2p";
	case FW_P2P_GPU_LIST: return "nvidia-smi GPU list";
	case FW_P2P_BANDWIDTH: return "p2pBandwidthLatencyTest";
	case FW_P2P_NCCL: return "all_reduce_perf";
	}
	return "?";
}

void fw_p2p_set_address(struct fw_p2p_proof *p, size_t index, unsigned domain, unsigned bus, unsigned dev, bool bus_only)
{
	if (index >= FW_P2P_MAX_GPUS)
		return;
	snprintf(p->bdf[index], sizeof(p->bdf[index]), "%04x:%02x:%02x.0", domain & 0xFFFF, bus & 0xFF, dev & 0x1F);
	p->bus_only[index] = bus_only;
}

/* One line's words, escape sequences (nvidia-smi underlines its header on a terminal) left out. */
struct line_words {
	char buf[1024];
	char *w[TOKENS_MAX];
	size_t n;
};

static void words(const char *line, size_t len, struct line_words *lw)
{
	size_t k = 0;
	for (size_t i = 0; i < len && k + 1 < sizeof(lw->buf); i++) {
		if (line[i] == 0x1B && i + 1 < len && line[i + 1] == '[') {
			i += 2;
			while (i < len && !((line[i] >= 'A' && line[i] <= 'Z') || (line[i] >= 'a' && line[i] <= 'z')))
				i++;
			lw->buf[k++] = ' ';
			continue;
		}
		lw->buf[k++] = line[i];
	}
	lw->buf[k] = '\0';
	lw->n = 0;
	for (char *save = NULL, *t = strtok_r(lw->buf, " \t\r", &save); t && lw->n < TOKENS_MAX; t = strtok_r(NULL, " \t\r", &save))
		lw->w[lw->n++] = t;
}

static bool gpu_token(const char *t, unsigned *i)
{
	char extra;
	return sscanf(t, "GPU%u%c", i, &extra) == 1;
}

/* Walks the lines: calls fn(line, len, number, ctx) until it returns false. */
static void each_line(const char *text, bool (*fn)(const char *, size_t, unsigned, void *), void *ctx)
{
	unsigned no = 0;
	for (const char *p = text; *p;) {
		const char *eol = strchr(p, '\n');
		size_t len = eol ? (size_t)(eol - p) : strlen(p);
		if (!fn(p, len, ++no, ctx))
			return;
		p += len + (eol ? 1 : 0);
	}
}

struct topo_state {
	struct fw_p2p_proof *p;
	struct fw_error *err;
	bool header, legend, failed, p2p_cells;
};

static bool topo_line(const char *line, size_t len, unsigned no, void *ctx)
{
	struct topo_state *s = ctx;
	struct line_words lw;
	words(line, len, &lw);
	if (!lw.n)
		return true;
	if (strcmp(lw.w[0], "Legend:") == 0) {
		s->legend = true;
		return true;
	}
	if (s->legend) {
		if (lw.n >= 3 && strcmp(lw.w[0], "OK") == 0 && strcmp(lw.w[1], "=") == 0)
			s->p2p_cells = true;
		return true;
	}
	unsigned i;
	if (!s->header) {
		if (!gpu_token(lw.w[0], &i) || i != 0)
			return true;
		size_t n = 0;
		while (n < lw.n && gpu_token(lw.w[n], &i) && i == n)
			n++;
		if (n > FW_P2P_MAX_GPUS) {
			fw_error_set(s->err, FW_E_INVALID, "%s line %u: %zu GPUs in the header, fwlens reads at most %d", s->p->name,
				     no, n, FW_P2P_MAX_GPUS);
			s->failed = true;
			return false;
		}
		s->p->ngpus = n;
		s->header = true;
		return true;
	}
	if (!gpu_token(lw.w[0], &i))
		return true; /* NIC rows, notes */
	if (i >= s->p->ngpus || lw.n < s->p->ngpus + 1 || s->p->row_line[i]) {
		fw_error_set(s->err, FW_E_INVALID, "%s line %u: row %s %s", s->p->name, no, lw.w[0],
			     i >= s->p->ngpus ? "is not a GPU of the header" : s->p->row_line[i] ? "appears twice"
											 : "has fewer cells than the header has GPUs");
		s->failed = true;
		return false;
	}
	s->p->row_line[i] = no;
	for (size_t k = 0; k < s->p->ngpus; k++) {
		const char *c = lw.w[k + 1];
		if (strlen(c) >= sizeof(s->p->cell[i][k])) {
			fw_error_set(s->err, FW_E_INVALID, "%s line %u: cell %zu of row %s is not a link or status (%.16s)", s->p->name,
				     no, k + 1, lw.w[0], c);
			s->failed = true;
			return false;
		}
		snprintf(s->p->cell[i][k], sizeof(s->p->cell[i][k]), "%s", c);
		if (!strcmp(c, "OK") || !strcmp(c, "CNS") || !strcmp(c, "GNS") || !strcmp(c, "TNS") || !strcmp(c, "NS") ||
		    !strcmp(c, "U"))
			s->p2p_cells = true;
	}
	return true;
}

static bool parse_topo(const char *text, struct fw_p2p_proof *p, struct fw_error *err)
{
	struct topo_state s = {p, err, false, false, false, false};
	each_line(text, topo_line, &s);
	if (s.failed)
		return false;
	for (size_t i = 0; i < p->ngpus; i++)
		if (!p->row_line[i])
			return fw_error_set(err, FW_E_INVALID, "%s: the header names GPU%zu and no row follows for it", p->name, i);
	p->kind = s.p2p_cells ? FW_P2P_TOPO_P2P : FW_P2P_TOPO_MATRIX;
	return true;
}

/* "index, pci.bus_id" CSV rows ("0, 00000000:23:00.0"), or nvidia-smi -q's "GPU 00000000:23:00.0" sections. */
static bool parse_gpu_list(const char *text, struct fw_p2p_proof *p, struct fw_error *err)
{
	p->kind = FW_P2P_GPU_LIST;
	bool csv = strstr(text, "pci.bus_id") != NULL;
	unsigned no = 0;
	for (const char *l = text; *l;) {
		const char *eol = strchr(l, '\n');
		size_t len = eol ? (size_t)(eol - l) : strlen(l);
		char line[256];
		snprintf(line, sizeof(line), "%.*s", (int)(len < 255 ? len : 255), l);
		no++;
		unsigned idx, dom, bus, dev, fn;
		if (csv && no > 1 && line[0]) {
			if (sscanf(line, "%u , %x:%x:%x.%x", &idx, &dom, &bus, &dev, &fn) != 5 || idx >= FW_P2P_MAX_GPUS)
				return fw_error_set(err, FW_E_INVALID, "%s line %u: not \"index, pci.bus_id\" (%.40s)", p->name, no, line);
			fw_p2p_set_address(p, idx, dom, bus, dev, false);
			if (idx + 1 > p->ngpus)
				p->ngpus = idx + 1;
		} else if (!csv && sscanf(line, "GPU %x:%x:%x.%x", &dom, &bus, &dev, &fn) == 4) {
			if (p->ngpus == FW_P2P_MAX_GPUS)
				return fw_error_set(err, FW_E_INVALID, "%s line %u: more than %d GPUs", p->name, no, FW_P2P_MAX_GPUS);
			fw_p2p_set_address(p, p->ngpus++, dom, bus, dev, false);
		}
		l += len + (eol ? 1 : 0);
	}
	if (!p->ngpus)
		return fw_error_set(err, FW_E_INVALID, "%s: an nvidia-smi GPU list without a GPU", p->name);
	return true;
}

static bool has_header_gpu0(const char *text)
{
	for (const char *l = text; *l;) {
		const char *eol = strchr(l, '\n');
		size_t len = eol ? (size_t)(eol - l) : strlen(l);
		struct line_words lw;
		words(l, len, &lw);
		unsigned i;
		if (lw.n >= 2 && gpu_token(lw.w[0], &i) && i == 0 && gpu_token(lw.w[1], &i) && i == 1)
			return true;
		l += len + (eol ? 1 : 0);
	}
	return false;
}

bool fw_p2p_parse(const char *name, const char *text, size_t len, struct fw_p2p_proof *out, struct fw_error *err)
{
	memset(out, 0, sizeof(*out));
	out->name = fw_xstrdup(name);
	out->p2p_disabled = -1;
	out->via_p2p = -1;
	if (len > FW_P2P_TEXT_MAX)
		return fw_error_set(err, FW_E_LIMIT, "%s: larger than %zu bytes", name, FW_P2P_TEXT_MAX);
	if (strlen(text) != len)
		return fw_error_set(err, FW_E_INVALID, "%s: a NUL byte at offset %zu: not a text output", name, strlen(text));
	if (strstr(text, "P2P=Enabled") || strstr(text, "P2P=Disabled"))
		return fw_p2p_parse_bandwidth(text, out, err);
	if (strstr(text, "# nThread") || strstr(text, "Avg bus bandwidth"))
		return fw_p2p_parse_nccl(text, out, err);
	if (strstr(text, "pci.bus_id") || strstr(text, "NVSMI LOG"))
		return parse_gpu_list(text, out, err);
	if (has_header_gpu0(text))
		return parse_topo(text, out, err);
	return fw_error_set(err, FW_E_INVALID, "%s: not an output fwlens reads (nvidia-smi topo -m or -p2p, nvidia-smi "
			    "--query-gpu=index,pci.bus_id --format=csv or -q, p2pBandwidthLatencyTest, all_reduce_perf)", name);
}

bool fw_p2p_load(const char *path, struct fw_p2p_proof *out, struct fw_error *err)
{
	struct fw_file f;
	if (!fw_file_read(path, FW_P2P_TEXT_MAX, &f, err)) {
		memset(out, 0, sizeof(*out));
		return false;
	}
	/* a NUL inside stays visible to the parser as a length that differs */
	char *text = fw_xmalloc(f.len + 1);
	memcpy(text, f.data, f.len);
	text[f.len] = '\0';
	bool ok = fw_p2p_parse(path, text, f.len, out, err);
	free(text);
	fw_file_close(&f);
	return ok;
}

void fw_p2p_free(struct fw_p2p_proof *p)
{
	free(p->name);
	memset(p, 0, sizeof(*p));
}
