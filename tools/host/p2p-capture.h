/* Running nvidia-smi read-only at capture (`nvidia-smi topo -m`, `nvidia-smi topo -p2p r`,
 * `nvidia-smi --query-gpu=index,pci.bus_id --format=csv`): snapshot.c stores the outputs under
 * FW_P2P_CAPTURE_DIR (p2p-proof.h), where the p2p-proof check reads them. */
#ifndef FW_P2P_CAPTURE_H
#define FW_P2P_CAPTURE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "parsers/error.h"

/* Run argv (argv[0] looked up on a fixed PATH) and return its standard output (malloc'd); false
 * with why when it cannot run, fails, prints nothing or overruns its limits. */
bool fw_p2p_run(char *const argv[], uint8_t **out, size_t *len, char *why, size_t whylen);

#endif
