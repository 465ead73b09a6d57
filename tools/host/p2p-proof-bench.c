/* P2P proof: the benchmarks, CUDA samples' p2pBandwidthLatencyTest and nccl-tests'
 * all_reduce_perf (p2p-proof.h). */
#include "p2p-proof.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NUMS_MAX 32

/* The numbers of a line after its first word, up to max; how many. */
static size_t numbers(const char *line, double *out, size_t max, char *first, size_t firstlen)
{
	char buf[1024];
	snprintf(buf, sizeof(buf), "%s", line);
	size_t n = 0;
	char *save = NULL, *t = strtok_r(buf, " \t\r", &save);
	snprintf(first, firstlen, "%s", t ? t : "");
	for (t = strtok_r(NULL, " \t\r", &save); t && n < max; t = strtok_r(NULL, " \t\r", &save)) {
		char *end;
		double v = strtod(t, &end);
		if (end == t || *end)
			break;
		out[n++] = v;
	}
	return n;
}

/* The next line of text into line (cut to its size), l moved past it; false at the end. */
static bool next_line(const char **l, char *line, size_t size)
{
	if (!**l)
		return false;
	const char *eol = strchr(*l, '\n');
	size_t len = eol ? (size_t)(eol - *l) : strlen(*l);
	snprintf(line, size, "%.*s", (int)(len < size - 1 ? len : size - 1), *l);
	*l += len + (eol ? 1 : 0);
	return true;
}

/* The word at column col (from 0) of a line split at blanks, copied into out; false past the last. */
static bool word_at(const char *line, int col, char *out, size_t size)
{
	char buf[1024];
	snprintf(buf, sizeof(buf), "%s", line);
	char *save = NULL, *t = strtok_r(buf, " \t\r", &save);
	for (int c = 0; t && c < col; c++)
		t = strtok_r(NULL, " \t\r", &save);
	if (t)
		snprintf(out, size, "%s", t);
	return t != NULL;
}

/* The column (from 0) of word in a line split at blanks, or -1. */
static int column_of(const char *line, const char *word)
{
	char w[64];
	for (int col = 0; word_at(line, col, w, sizeof(w)); col++)
		if (strcmp(w, word) == 0)
			return col;
	return -1;
}

enum section { NONE, OFF, ON };

bool fw_p2p_parse_bandwidth(const char *text, struct fw_p2p_proof *p, struct fw_error *err)
{
	p->kind = FW_P2P_BANDWIDTH;
	memset(p->access, -1, sizeof(p->access));
	enum section sec = NONE;
	size_t cols = 0;
	unsigned no = 0;
	char line[1024];
	for (const char *l = text; next_line(&l, line, sizeof(line));) {
		no++;
		unsigned idx, bus, dev, dom;
		const char *d = strstr(line, "pciBusID:");
		if (strncmp(line, "Device: ", 8) == 0 && d && sscanf(line, "Device: %u", &idx) == 1 &&
		    sscanf(d, "pciBusID: %x, pciDeviceID: %x, pciDomainID:%x", &bus, &dev, &dom) == 3) {
			fw_p2p_set_address(p, idx, dom, bus, dev, false);
			continue;
		}
		unsigned from, to;
		char word[8];
		if (sscanf(line, "Device=%u %7s Access Peer Device=%u", &from, word, &to) == 3 && from < FW_P2P_MAX_GPUS &&
		    to < FW_P2P_MAX_GPUS && (!strcmp(word, "CAN") || !strcmp(word, "CANNOT"))) {
			p->access[from][to] = strcmp(word, "CAN") == 0;
			p->access_line[from][to] = no;
			continue;
		}
		if (strstr(line, "Matrix")) {
			/* unidirectional bandwidth only: bidirectional and latency tables are not compared */
			bool uni = strncmp(line, "Unidirectional", 14) == 0 && strstr(line, "Bandwidth");
			sec = !uni ? NONE : strstr(line, "P2P=Enabled") ? ON : strstr(line, "P2P=Disabled") ? OFF : NONE;
			cols = 0;
			continue;
		}
		if (sec == NONE)
			continue;
		double v[NUMS_MAX];
		char first[32];
		size_t n = numbers(line, v, NUMS_MAX, first, sizeof(first));
		if (strcmp(first, "D\\D") == 0) {
			cols = n;
			if (cols > FW_P2P_MAX_GPUS)
				return fw_error_set(err, FW_E_INVALID, "%s line %u: %zu GPUs, fwlens reads at most %d", p->name, no, cols,
						    FW_P2P_MAX_GPUS);
			if (cols > p->ngpus)
				p->ngpus = cols;
			continue;
		}
		char *end;
		long row = strtol(first, &end, 10);
		if (!cols || end == first || *end)
			continue;
		if (row < 0 || (size_t)row >= cols || n != cols)
			return fw_error_set(err, FW_E_INVALID, "%s line %u: row %ld of a %zu-GPU %s matrix has %zu values", p->name,
					    no, row, cols, sec == ON ? "P2P=Enabled" : "P2P=Disabled", n);
		for (size_t k = 0; k < cols; k++)
			(sec == ON ? p->bw_on : p->bw_off)[row][k] = v[k];
		(sec == ON ? p->on_line : p->off_line)[row] = no;
		if (sec == ON)
			p->have_on = true;
		else
			p->have_off = true;
	}
	if (!p->have_on || !p->have_off)
		return fw_error_set(err, FW_E_INVALID, "%s: p2pBandwidthLatencyTest output without a unidirectional P2P=%s "
				    "bandwidth matrix", p->name, p->have_on ? "Disabled" : "Enabled");
	return true;
}

bool fw_p2p_parse_nccl(const char *text, struct fw_p2p_proof *p, struct fw_error *err)
{
	p->kind = FW_P2P_NCCL;
	int busbw_col = -1;
	unsigned no = 0;
	size_t rows = 0;
	char line[1024];
	for (const char *l = text; next_line(&l, line, sizeof(line));) {
		no++;
		const char *m;
		unsigned rank, devno, dom, bus, dev;
		if ((m = strstr(line, "NCCL_P2P_DISABLE set by environment to "))) {
			p->p2p_disabled = atoi(m + 39) != 0;
			p->p2p_disabled_line = no;
		}
		/* the transport per channel: one "via P2P" says P2P ran; only SHM or NET says it did not */
		if ((m = strstr(line, " via ")) && strstr(line, "NCCL INFO Channel")) {
			bool p2p = strncmp(m + 5, "P2P", 3) == 0;
			if (p2p ? p->via_p2p != 1 : p->via_p2p < 0) {
				p->via_p2p = p2p;
				p->via_line = no;
				snprintf(p->via_text, sizeof(p->via_text), "%.90s", m + 1);
			}
		}
		if ((m = strstr(line, "Avg bus bandwidth")) && (m = strchr(m, ':'))) {
			p->avg_busbw = strtod(m + 1, NULL);
			p->have_avg = true;
			p->avg_line = no;
		}
		if (line[0] == '#') {
			if (sscanf(line, "# Rank %u", &rank) == 1 && (m = strstr(line, " device ")) && rank < FW_P2P_MAX_GPUS) {
				if (sscanf(m, " device %u [%x:%x:%x]", &devno, &dom, &bus, &dev) == 4)
					fw_p2p_set_address(p, rank, dom, bus, dev, false);
				else if (sscanf(m, " device %u [0x%x]", &devno, &bus) == 2)
					fw_p2p_set_address(p, rank, 0, bus, 0, true);
				if (rank + 1 > p->ngpus)
					p->ngpus = rank + 1;
			}
			if (strstr(line, "busbw") && strstr(line, "size"))
				busbw_col = column_of(line + 1, "busbw");
			continue;
		}
		if (busbw_col < 0)
			continue;
		double v[NUMS_MAX];
		char first[32];
		size_t n = numbers(line, v, NUMS_MAX, first, sizeof(first));
		char *end;
		double size = strtod(first, &end);
		if (end == first || *end || !n)
			continue;
		/* the columns after size hold words (type, redop): take them as they are */
		char word[64];
		if (!word_at(line, busbw_col, word, sizeof(word)))
			return fw_error_set(err, FW_E_INVALID, "%s line %u: a result row without a busbw column", p->name, no);
		double busbw = strtod(word, &end);
		if (end == word || *end || busbw < 0)
			return fw_error_set(err, FW_E_INVALID, "%s line %u: busbw column %d is not a number (%.16s)", p->name, no,
					    busbw_col + 1, word);
		if (size >= p->last_size) {
			p->last_size = size;
			p->last_busbw = busbw;
			p->last_line = no;
		}
		rows++;
	}
	if (!rows && !p->have_avg)
		return fw_error_set(err, FW_E_INVALID, "%s: all_reduce_perf output without result rows or an average", p->name);
	return true;
}
