/* --p2p-evidence FILE (doctor, notes): saved outputs of nvidia-smi topo, p2pBandwidthLatencyTest
 * and all_reduce_perf for the p2p-proof check (tools/host/p2p-proof.h). */
#ifndef FW_P2P_EVIDENCE_OPTION_H
#define FW_P2P_EVIDENCE_OPTION_H

#include "cli.h"

#define FW_P2P_EVIDENCE_OPTION                                                                               \
	{"p2p-evidence", 0, "FILE", "saved output of nvidia-smi topo -m or -p2p r|w|n|a, nvidia-smi "               \
				    "--query-gpu=index,pci.bus_id --format=csv or -q, p2pBandwidthLatencyTest or "  \
				    "all_reduce_perf, for the p2p-proof check; repeat for more", NULL}

struct fw_source_options;
/* Read the files given (each must be one of the outputs: else a one-line error and exit 3) and
 * put them in the source options the checks read; 0 or the exit status. */
int fw_cli_p2p_evidence(struct fw_cli *cli, struct fw_source_options *so);

#endif
