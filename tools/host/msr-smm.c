/* SMM_ADDR and SMM_MASK of every CPU (see msr-smm.h). Kept apart from sev-probe.c: it is a
 * firmware-protection fact, not an SEV one, and only the probe's document is shared. */
#include "msr-smm.h"

#include <string.h>

#include "msr-cpus.h"

#define TSEG_FIELD 0x0000FFFFFFFE0000ull /* bits 47:17 of both MSRs */

void fw_smm_ranges_decode(uint64_t smm_addr, uint64_t smm_mask, struct fw_smm_ranges *out)
{
	memset(out, 0, sizeof(*out));
	out->tseg_base = smm_addr & TSEG_FIELD;
	/* the mask's set bits are the address bits that must match the base: the range is the
	 * complement of the mask within bits 47:17, plus the 128 KiB granule */
	out->tseg_size = (~smm_mask & TSEG_FIELD) + 0x20000ull;
	out->tseg_defined = (smm_mask & TSEG_FIELD) != 0;
	out->avalid = smm_mask & 1;
	out->tvalid = smm_mask >> 1 & 1;
	out->aclose = smm_mask >> 2 & 1;
	out->tclose = smm_mask >> 3 & 1;
	out->am_type_dram = (unsigned)(smm_mask >> 8 & 7);
	out->tm_type_dram = (unsigned)(smm_mask >> 12 & 7);
}

const char *fw_smm_memory_type(unsigned type)
{
	static const char *const names[8] = {"UC", "WC", "reserved", "reserved", "WT", "WP", "WB", "reserved"};
	return names[type & 7];
}

json_t *fw_smm_ranges_probe(void)
{
	static const struct fw_msr_reg regs[] = {{"smm_addr", FW_MSR_SMM_ADDR}, {"smm_mask", FW_MSR_SMM_MASK}};
	return fw_msr_per_cpu("/dev/cpu/N/msr MSR C001_0112 (SMM_ADDR), C001_0113 (SMM_MASK)", regs, 2);
}
