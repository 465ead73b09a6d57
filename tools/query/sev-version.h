/* SEV firmware versions as the kernel prints them, and SNP TCB versions as their security version
 * numbers, from each place fwlens finds them: the PSP header of the SEV code entry of an image
 * (bytes build, minor, major: "0.1.37.15" is 1.55 build 21), the PSP's platform status
 * (SEV_PLATFORM_STATUS / SNP_PLATFORM_STATUS api_major, api_minor, build: fwlens/probes/sev.json)
 * and the ccp driver's "SEV API:1.55 build:21" / "SEV-SNP API:1.55 build:21" kernel log lines. */
#ifndef FW_SEV_VERSION_H
#define FW_SEV_VERSION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct fw_sev_fw {
	unsigned major, minor, build;
};

/* "1.55 build 21" (the kernel's "SEV API:%d.%d build:%d", in words). */
const char *fw_sev_fw_text(const struct fw_sev_fw *v, char *buf, size_t len);
/* From the PSP header version string of the SEV code entry ("0.1.37.15": hex bytes 3..0). */
bool fw_sev_fw_from_header(const char *version, struct fw_sev_fw *out);
/* From a kernel log line holding "SEV API:x.y build:z" or "SEV-SNP API:x.y build:z"; *snp says which. */
bool fw_sev_fw_from_log(const char *line, struct fw_sev_fw *out, bool *snp);
/* An SNP TCB version as its fields: "boot loader 4, TEE 0, SNP 27, microcode 0" (with FMC first
 * on family 1Ah), or the raw value and "layout of family XXh not known" (fw_snp_tcb_decode). */
const char *fw_snp_tcb_text(unsigned family, uint64_t tcb, char *buf, size_t len);

#endif
