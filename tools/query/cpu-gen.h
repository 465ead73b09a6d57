/* The machine's CPU: family and model of its first processor from proc/cpuinfo, and the Zen
 * generation they belong to, for choosing among BIOS modules made per generation (CBS modules
 * such as CbsSetupDxeSTP for Zen 4 and CbsSetupDxeSHP for Zen 5) and for the SNP TCB layout. */
#ifndef FW_CPU_GEN_H
#define FW_CPU_GEN_H

#include <stdbool.h>

#include "tools/host/machine.h"

struct fw_cpu_gen {
	bool known;          /* proc/cpuinfo gave a family */
	unsigned family, model;
	const char *gen;     /* "Zen 4", "Zen 5", ... or NULL when the family/model is not in the table */
	char model_name[96]; /* "AMD EPYC 9575F 64-Core Processor" */
};

/* From the machine's proc/cpuinfo; false (out->known false) when it holds no "cpu family". */
bool fw_cpu_gen_read(struct fw_machine *m, struct fw_cpu_gen *out);
/* The generation of an AMD family/model (AMD's family 17h/19h/1Ah model ranges), or NULL. */
const char *fw_cpu_gen_name(unsigned family, unsigned model);

#endif
