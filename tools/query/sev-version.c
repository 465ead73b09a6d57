/* SEV firmware and SNP TCB versions in the words the kernel and AMD's ABI use. */
#include "sev-version.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tools/host/sev-probe.h"

const char *fw_sev_fw_text(const struct fw_sev_fw *v, char *buf, size_t len)
{
	snprintf(buf, len, "%u.%u build %u", v->major, v->minor, v->build);
	return buf;
}

bool fw_sev_fw_from_header(const char *version, struct fw_sev_fw *out)
{
	unsigned b[4];
	int used = 0;
	if (!version || sscanf(version, "%x.%x.%x.%x%n", &b[3], &b[2], &b[1], &b[0], &used) != 4 || version[used] ||
	    b[3] > 0xFF || b[2] > 0xFF || b[1] > 0xFF || b[0] > 0xFF)
		return false;
	*out = (struct fw_sev_fw){b[2], b[1], b[0]};
	return true;
}

bool fw_sev_fw_from_log(const char *line, struct fw_sev_fw *out, bool *snp)
{
	for (int k = 0; k < 2; k++) {
		const char *tag = k ? "SEV API:" : "SEV-SNP API:";
		const char *p = line ? strstr(line, tag) : NULL;
		unsigned a, b, c;
		if (p && sscanf(p + strlen(tag), "%u.%u build:%u", &a, &b, &c) == 3) {
			*out = (struct fw_sev_fw){a, b, c};
			*snp = k == 0;
			return true;
		}
	}
	return false;
}

const char *fw_snp_tcb_text(unsigned family, uint64_t tcb, char *buf, size_t len)
{
	struct fw_snp_tcb t;
	if (!fw_snp_tcb_decode(family, tcb, &t))
		snprintf(buf, len, "0x%016" PRIx64 " (layout of family %02Xh not known)", tcb, family);
	else if (t.has_fmc)
		snprintf(buf, len, "FMC %u, boot loader %u, TEE %u, SNP %u, microcode %u", t.fmc, t.boot_loader, t.tee, t.snp,
			 t.microcode);
	else
		snprintf(buf, len, "boot loader %u, TEE %u, SNP %u, microcode %u", t.boot_loader, t.tee, t.snp, t.microcode);
	return buf;
}
