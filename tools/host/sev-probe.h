/* The SEV platform state probed on the running machine at capture time (root only), stored in
 * the snapshot as fwlens/probes/sev.json; doctor compares it with the BIOS value and the kernel. */
#ifndef FW_SEV_PROBE_H
#define FW_SEV_PROBE_H

#include <stdbool.h>
#include <stdint.h>

#include "parsers/json-text.h"

/* Where the probe results live in a machine (snapshot member, or a file in a sample root). */
#define FW_SEV_PROBE_PATH "fwlens/probes/sev.json"

/* {"format", "platform": {"sev": {...}, "snp": {...}}, "msr": {...}}; each part has "read" and,
 * when false, "why". Never fails: what cannot be read says so. */
json_t *fw_sev_probe_live(void);

/* CPUID Fn8000_001F decoded (AMD APM vol. 3): EAX feature bits, EBX[5:0] C-bit position,
 * EBX[11:6] physical address reduction, EBX[15:12] number of VMPLs, ECX the number of encrypted
 * guests supported at once, EDX the minimum ASID of SEV (non-ES) guests. False when EAX is 0. */
struct fw_sev_cpuid {
	bool sme, sev, sev_es, snp, vmpl;
	unsigned c_bit, phys_addr_reduction, vmpls;
	uint32_t encrypted_guests, min_sev_asid;
};
bool fw_sev_cpuid_facts(uint32_t eax, uint32_t ebx, uint32_t ecx, uint32_t edx, struct fw_sev_cpuid *out);

/* An SNP TCB version split into its security version numbers. The layout depends on the CPU
 * family: 19h (Milan, Genoa) has boot loader, TEE, SNP and microcode at bytes 0, 1, 6, 7; 1Ah
 * (Turin) has FMC, boot loader, TEE, SNP at bytes 0-3 and microcode at 7 (SEV-SNP ABI, TCB_VERSION).
 * False for a family whose layout is not known: only `raw` is set. */
struct fw_snp_tcb {
	uint64_t raw;
	const char *layout;
	bool has_fmc;
	unsigned fmc, boot_loader, tee, snp, microcode;
};
bool fw_snp_tcb_decode(unsigned family, uint64_t tcb, struct fw_snp_tcb *out);

#endif
