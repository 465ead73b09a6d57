/* The SMM memory ranges of AMD CPUs: SMM_ADDR (MSR C001_0112) holds the TSeg base, SMM_MASK
 * (MSR C001_0113) the TSeg mask and the ASeg/TSeg control bits (AMD BKDG/PPR for families 10h-1Ah;
 * the bit layout is unchanged since family 0Fh):
 *   bit 0 AValid, 1 TValid (non-SMM accesses to the range go to MMIO, i.e. SMRAM is protected),
 *   bit 2 AClose, 3 TClose (SMM data accesses to the range go to MMIO; firmware sets them only
 *   briefly inside SMM, so set while the OS runs is the SinkClose precondition, CVE-2023-31315),
 *   bit 4 AMTypeIoWc, 5 TMTypeIoWc, bits 10:8 AMTypeDram, 14:12 TMTypeDram, bits 47:17 TSegMask.
 * Read per CPU through /dev/cpu/N/msr at capture time, stored in the SEV probe as "smm". */
#ifndef FW_MSR_SMM_H
#define FW_MSR_SMM_H

#include <stdbool.h>
#include <stdint.h>

#include "parsers/json-text.h"

#define FW_MSR_SMM_ADDR 0xC0010112u
#define FW_MSR_SMM_MASK 0xC0010113u

struct fw_smm_ranges {
	uint64_t tseg_base, tseg_size;
	bool tseg_defined; /* TSegMask is not 0 (an all-zero mask, as QEMU reads, defines no range) */
	bool avalid, tvalid, aclose, tclose;
	unsigned am_type_dram, tm_type_dram; /* MTRR memory types: 0 UC, 1 WC, 4 WT, 5 WP, 6 WB */
};

void fw_smm_ranges_decode(uint64_t smm_addr, uint64_t smm_mask, struct fw_smm_ranges *out);
/* "UC", "WC", "WT", "WP", "WB", or "reserved" */
const char *fw_smm_memory_type(unsigned type);

/* {"read", "source", "cpus_listed", "cpus": [{"cpu", "smm_addr", "smm_mask"}]} or {"read": false,
 * "why"}; only reads. */
json_t *fw_smm_ranges_probe(void);

#endif
