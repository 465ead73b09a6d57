/* Model-specific registers of every CPU, read through the msr module's /dev/cpu/N/msr nodes (an
 * 8-byte pread at the register's number), and the small documents the probes record them in.
 * One reader for every per-CPU register a capture takes (HWCR for SmmLock, SMM_ADDR/SMM_MASK for
 * the TSeg), so each reports an unreadable CPU in the same words. */
#ifndef FW_MSR_CPUS_H
#define FW_MSR_CPUS_H

#include <stddef.h>
#include <stdint.h>

#include "parsers/json-text.h"

struct fw_msr_reg {
	const char *name; /* the member each CPU's value is stored under, e.g. "hwcr" */
	uint32_t msr;
};

/* {"read": true, "source", "cpus_listed", "cpus": [{"cpu": N, NAME: "0x..."...}]}, one entry per CPU
 * whose node gave every register; {"read": false, "source", "why"} when none did (the last error,
 * with the hint that the msr module is not loaded where the node is missing). Only reads. */
json_t *fw_msr_per_cpu(const char *source, const struct fw_msr_reg *regs, size_t n);

/* The node opened read-only, or -1 with why naming it and the error (and that the msr module is not
 * loaded, where the node is missing). */
int fw_msr_open(const char *dev, char *why, size_t why_size);

/* {"read": false, "source", "why"}: a probe's record of something it could not read. */
json_t *fw_probe_not_read(const char *source, const char *why);
/* "0x..." in lower case: registers are recorded as text, as JSON numbers lose bits past 2^53. */
json_t *fw_probe_hex(uint64_t v);

#endif
