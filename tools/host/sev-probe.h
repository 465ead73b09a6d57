/* The SEV platform state probed on the running machine at capture time (root only), stored in
 * the snapshot as fwlens/probes/sev.json; doctor compares it with the BIOS value and the kernel. */
#ifndef FW_SEV_PROBE_H
#define FW_SEV_PROBE_H

#include "parsers/json-text.h"

/* Where the probe results live in a machine (snapshot member, or a file in a sample root). */
#define FW_SEV_PROBE_PATH "fwlens/probes/sev.json"

/* {"format", "platform": {"sev": {...}, "snp": {...}}, "msr": {...}}; each part has "read" and,
 * when false, "why". Never fails: what cannot be read says so. */
json_t *fw_sev_probe_live(void);

#endif
