/* Saved outputs of the tools people run to prove GPU peer-to-peer works, read into one model:
 *
 *   nvidia-smi topo -m             the link type of each GPU pair (X, NV#, PIX, PXB, PHB, NODE, SYS)
 *   nvidia-smi topo -p2p r|w|n|a   P2P status of each pair (OK, CNS, GNS, TNS, NS, U)
 *   nvidia-smi --query-gpu=index,pci.bus_id --format=csv, or nvidia-smi -q
 *                                  which PCI address each nvidia-smi index is (topo prints none)
 *   p2pBandwidthLatencyTest        (CUDA samples) bandwidth per pair with P2P disabled and enabled;
 *                                  its "Device: N, ..., pciBusID: 23" lines give the addresses
 *   all_reduce_perf                (nccl-tests) bus bandwidth per size and the average; the
 *                                  rank lines give device and bus; with NCCL_DEBUG=INFO the
 *                                  transport per channel and NCCL_P2P_DISABLE from the environment
 *
 * One recogniser (fw_p2p_parse) tells them apart by their lines; the topology forms are read in
 * p2p-proof.c, the benchmarks in p2p-proof-bench.c. Line numbers are kept for evidence. Input is
 * text of at most FW_P2P_TEXT_MAX bytes; a malformed table is an error naming the file, line and
 * what is wrong. The index maps of each file are its own: CUDA and nvidia-smi may number GPUs
 * differently (CUDA_DEVICE_ORDER), so a pair is named by PCI address only where that file (or, for
 * nvidia-smi topo, an nvidia-smi query output) gives one.
 *
 * Snapshots keep what capture ran (nvidia-smi topo -m and -p2p r, when nvidia-smi is there) under
 * FW_P2P_CAPTURE_DIR. */
#ifndef FW_P2P_PROOF_H
#define FW_P2P_PROOF_H

#include <stdbool.h>
#include <stddef.h>

#include "parsers/error.h"

#define FW_P2P_MAX_GPUS 16
#define FW_P2P_TEXT_MAX ((size_t)4 << 20)
#define FW_P2P_CAPTURE_DIR "fwlens/p2p"

enum fw_p2p_kind { FW_P2P_TOPO_MATRIX, FW_P2P_TOPO_P2P, FW_P2P_GPU_LIST, FW_P2P_BANDWIDTH, FW_P2P_NCCL };
const char *fw_p2p_kind_name(enum fw_p2p_kind k); /* "nvidia-smi topo -m", ... */

struct fw_p2p_proof {
	char *name;               /* the file as given */
	enum fw_p2p_kind kind;
	size_t ngpus;
	/* index -> "0000:23:00.0" when the output gives it ("" otherwise); nccl-tests and old
	 * p2pBandwidthLatencyTest builds give the bus only: bus_only */
	char bdf[FW_P2P_MAX_GPUS][16];
	bool bus_only[FW_P2P_MAX_GPUS];
	/* topo -m / -p2p: the cell of each pair and the line of each row */
	char cell[FW_P2P_MAX_GPUS][FW_P2P_MAX_GPUS][8];
	unsigned row_line[FW_P2P_MAX_GPUS];
	/* p2pBandwidthLatencyTest: unidirectional GB/s, P2P disabled and enabled, and where */
	double bw_off[FW_P2P_MAX_GPUS][FW_P2P_MAX_GPUS], bw_on[FW_P2P_MAX_GPUS][FW_P2P_MAX_GPUS];
	bool have_off, have_on;
	/* "Device=0 CAN Access Peer Device=1": 1, CANNOT: 0, not said: -1 (the parser sets -1 first) */
	signed char access[FW_P2P_MAX_GPUS][FW_P2P_MAX_GPUS];
	unsigned access_line[FW_P2P_MAX_GPUS][FW_P2P_MAX_GPUS];
	unsigned off_line[FW_P2P_MAX_GPUS], on_line[FW_P2P_MAX_GPUS];
	/* all_reduce_perf */
	bool have_avg;
	double avg_busbw;          /* GB/s */
	unsigned avg_line;
	double last_size, last_busbw; /* the largest size's out-of-place bus bandwidth */
	unsigned last_line;
	int p2p_disabled;          /* NCCL_P2P_DISABLE in the log: 1 set to 1, 0 set to 0, -1 not said */
	unsigned p2p_disabled_line;
	int via_p2p;               /* channels logged "via P2P": 1, only other transports: 0, -1 not logged */
	unsigned via_line;
	char via_text[96];         /* "via SHM/direct/direct" */
};

/* Read one saved output; `text` is NUL-terminated. FW_E_INVALID names the file and line. */
bool fw_p2p_parse(const char *name, const char *text, size_t len, struct fw_p2p_proof *out, struct fw_error *err);
/* The same from a file on disk (at most FW_P2P_TEXT_MAX bytes). */
bool fw_p2p_load(const char *path, struct fw_p2p_proof *out, struct fw_error *err);
void fw_p2p_free(struct fw_p2p_proof *p);

/* The benchmarks (p2p-proof-bench.c), called by fw_p2p_parse on what it recognised. */
bool fw_p2p_parse_bandwidth(const char *text, struct fw_p2p_proof *p, struct fw_error *err);
bool fw_p2p_parse_nccl(const char *text, struct fw_p2p_proof *p, struct fw_error *err);
/* The address of a "Device: 0, ..., pciBusID: 23, pciDeviceID: 0, pciDomainID:0" line, or a
 * rank's "[0x23]" / "[0000:23:00]": set p->bdf[index]. */
void fw_p2p_set_address(struct fw_p2p_proof *p, size_t index, unsigned domain, unsigned bus, unsigned dev, bool bus_only);

#endif
