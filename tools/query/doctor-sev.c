/* Doctor check on the SEV platform: the BIOS value, the hardware state (SYSCFG and RMP MSRs, the
 * PSP's platform status, probed at capture time as root) and the kernel's view side by side, and
 * where they disagree. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "doctor-checks.h"
#include "tools/host/sev-probe.h"

static const char *bios_value(const struct fw_doctor_ctx *ctx, const char *prompt, char *buf, size_t len)
{
	struct fw_doctor_setting s;
	memset(&s, 0, sizeof(s));
	if (!ctx->src.setting)
		snprintf(buf, len, "not known (no BIOS forms)");
	else if (!ctx->src.setting(ctx->src.setting_ctx, prompt, &s))
		snprintf(buf, len, "not a setting of this BIOS");
	else if (!s.has_current)
		snprintf(buf, len, "not stored");
	else if (s.current_text)
		snprintf(buf, len, "%s", s.current_text);
	else
		snprintf(buf, len, "0x%llx", (unsigned long long)s.current);
	return buf;
}

static bool is_true(json_t *o, const char *k) { return json_is_true(json_object_get(o, k)); }
static const char *str(json_t *o, const char *k)
{
	const char *s = json_string_value(json_object_get(o, k));
	return s ? s : "?";
}

/* The "[0x... - 0x...]" range of the kernel's "RMP table physical range" line. */
static bool logged_rmp(const struct fw_host *h, uint64_t *lo, uint64_t *hi)
{
	const char *line;
	if (!h->dmesg || !fw_host_log_lines(h, "RMP table physical range", &line, 1))
		return false;
	const char *p = strstr(line, "range [");
	p = p ? p + 6 : NULL;
	unsigned long long a, b;
	if (!p || sscanf(p, "[%llx - %llx]", &a, &b) != 2)
		return false;
	*lo = a, *hi = b;
	return true;
}

json_t *fw_doctor_sev_probe(const struct fw_host *h)
{
	struct fw_blob b;
	if (!h || !fw_machine_read(h->machine, FW_SEV_PROBE_PATH, &b, NULL))
		return NULL;
	json_t *probe = json_loadb((const char *)b.data, b.len, 0, NULL);
	if (probe && !json_is_object(probe)) {
		json_decref(probe);
		return NULL;
	}
	return probe;
}

int fw_doctor_probed_syscfg(const struct fw_host *h, const char *bit)
{
	json_t *probe = fw_doctor_sev_probe(h);
	if (!probe)
		return -1;
	json_t *msr = json_object_get(probe, "msr");
	json_t *v = json_object_get(msr, bit);
	int out = json_is_true(json_object_get(msr, "read")) && json_is_boolean(v) ? json_is_true(v) : -1;
	json_decref(probe);
	return out;
}

/* The /proc/iomem range that holds the RMP table (the deepest one containing its base). */
static void iomem_evidence(struct fw_check_result *r, const struct fw_host *h, uint64_t base)
{
	char *iomem = fw_machine_read_text(h->machine, "proc/iomem");
	if (!iomem) {
		fw_check_evidence(r, FW_EVIDENCE_ABSENT, "proc/iomem", "/proc/iomem was not captured");
		return;
	}
	char best[256] = "";
	bool nonzero = false;
	for (const char *l = iomem; *l; l += strcspn(l, "\n") + (l[strcspn(l, "\n")] ? 1 : 0)) {
		unsigned long long a, z;
		if (sscanf(l, " %llx-%llx", &a, &z) != 2)
			continue;
		nonzero |= a || z;
		if (base && a <= base && base <= z)
			snprintf(best, sizeof(best), "%.*s", (int)strcspn(l, "\n"), l);
	}
	if (!nonzero)
		fw_check_evidence(r, FW_EVIDENCE_ABSENT, "proc/iomem", "addresses read as 0 (captured without root)");
	else if (best[0])
		fw_check_evidence(r, FW_EVIDENCE_FILE, "proc/iomem", "RMP table inside: %s", best);
	else
		fw_check_evidence(r, FW_EVIDENCE_FILE, "proc/iomem", "no range holds RMP_BASE 0x%llx", (unsigned long long)base);
	free(iomem);
}

void fw_check_sev_platform(const struct fw_doctor_ctx *ctx, struct fw_check_result *r)
{
	if (!fw_doctor_needs_host(ctx, r))
		return;
	const struct fw_host *h = ctx->host;
	json_t *probe = fw_doctor_sev_probe(h);
	if (!probe) {
		fw_check_skip(r, FW_SEV_PROBE_PATH,
			      "The SEV platform was not probed (snapshot capture run as root on the machine itself records "
			      "SYSCFG, the RMP MSRs and the PSP's platform status).");
		return;
	}
	json_t *sev = json_object_get(json_object_get(probe, "platform"), "sev");
	json_t *snp = json_object_get(json_object_get(probe, "platform"), "snp");
	json_t *msr = json_object_get(probe, "msr");
	size_t read = 0, disagree = 0, stored = 0; /* stored: BIOS value for the next boot against the running state */
	char problems[1024] = "", bv[96], bv2[96];
	const char *P = FW_SEV_PROBE_PATH;
#define STORED(...)                                                                                                    \
	do {                                                                                                           \
		PROBLEM(__VA_ARGS__);                                                                                  \
		stored++;                                                                                              \
	} while (0)
#define PROBLEM(...)                                                                                                   \
	do {                                                                                                           \
		size_t used_ = strlen(problems);                                                                       \
		snprintf(problems + used_, sizeof(problems) - used_, __VA_ARGS__);                                     \
		disagree++;                                                                                            \
	} while (0)
	/* memory encryption: SMEE, SYSCFG[23], the kernel */
	bool sme_flag = h->cpu_flags && (strstr(h->cpu_flags, " sme ") || strncmp(h->cpu_flags, "sme ", 4) == 0);
	bool log_sev = h->dmesg && fw_host_log_lines(h, "Memory Encryption Features active", NULL, 0);
	if (is_true(msr, "read")) {
		read++;
		bool me = is_true(msr, "mem_encrypt"), snpen = is_true(msr, "snp_en");
		fw_check_evidence(r, FW_EVIDENCE_FILE, P, "memory encryption: BIOS SMEE %s | SYSCFG %s MemEncryptionModEn %d | "
							   "kernel %s",
				  bios_value(ctx, "SMEE", bv, sizeof(bv)), str(msr, "syscfg"), me,
				  sme_flag ? "sme flag" : log_sev ? "memory encryption active (log)" : "no sme flag");
		if (strcmp(bv, "Enable") == 0 && !me)
			STORED("SMEE is Enable in the BIOS but SYSCFG MemEncryptionModEn is 0. ");
		if (!me && sme_flag)
			PROBLEM("SYSCFG MemEncryptionModEn is 0 but the kernel reports the sme CPU flag. ");
		if (me && h->cpu_flags && !sme_flag && !log_sev)
			PROBLEM("SYSCFG MemEncryptionModEn is 1 but the kernel shows no memory encryption (mem_encrypt=off?). ");
		uint64_t base = strtoull(str(msr, "rmp_base"), NULL, 16), end = strtoull(str(msr, "rmp_end"), NULL, 16);
		uint64_t lo = 0, hi = 0;
		bool logged = logged_rmp(h, &lo, &hi);
		fw_check_evidence(r, FW_EVIDENCE_FILE, P,
				  "SNP: BIOS SEV-SNP Support %s, RMP coverage %s | SYSCFG SNPEn %d, RMP_BASE %s RMP_END %s | kernel "
				  "%s",
				  bios_value(ctx, "SEV-SNP Support", bv, sizeof(bv)),
				  bios_value(ctx, "SNP Memory (RMP Table) Coverage", bv2, sizeof(bv2)), snpen, str(msr, "rmp_base"),
				  str(msr, "rmp_end"), logged ? "logged the RMP table range" : "logged no RMP table range");
		iomem_evidence(r, h, base);
		if (strcmp(bv2, "Enabled") == 0 && !base && !end)
			STORED("RMP coverage is Enabled in the BIOS but RMP_BASE and RMP_END are 0 (no RMP table reserved). ");
		if (logged && base && (base != lo || (end && end != hi)))
			PROBLEM("The RMP MSRs (0x%" PRIx64 "-0x%" PRIx64 ") differ from the range the kernel logged (0x%" PRIx64
				"-0x%" PRIx64 "). ",
				base, end, lo, hi);
		if (snpen && h->kvm_sev_snp && strcmp(h->kvm_sev_snp, "N") == 0)
			PROBLEM("SYSCFG SNPEn is 1 but kvm_amd has sev_snp=N. ");
	} else {
		fw_check_evidence(r, FW_EVIDENCE_ABSENT, str(msr, "source"), "MSRs not read: %s", str(msr, "why"));
	}
	if (is_true(sev, "read")) {
		read++;
		fw_check_evidence(r, FW_EVIDENCE_FILE, P, "SEV platform status: API %lld.%lld build %lld, state %lld, guests %lld",
				  json_integer_value(json_object_get(sev, "api_major")),
				  json_integer_value(json_object_get(sev, "api_minor")),
				  json_integer_value(json_object_get(sev, "build")), json_integer_value(json_object_get(sev, "state")),
				  json_integer_value(json_object_get(sev, "guest_count")));
	} else {
		fw_check_evidence(r, FW_EVIDENCE_ABSENT, str(sev, "source"), "SEV platform status not read: %s", str(sev, "why"));
	}
	if (is_true(snp, "read")) {
		read++;
		bool rmp = is_true(snp, "rmp_initialized");
		fw_check_evidence(r, FW_EVIDENCE_FILE, P,
				  "SNP platform status: API %lld.%lld build %lld, state %lld, RMP initialised %s, guests %lld, TCB "
				  "current %s reported %s",
				  json_integer_value(json_object_get(snp, "api_major")),
				  json_integer_value(json_object_get(snp, "api_minor")),
				  json_integer_value(json_object_get(snp, "build")), json_integer_value(json_object_get(snp, "state")),
				  rmp ? "yes" : "no", json_integer_value(json_object_get(snp, "guest_count")), str(snp, "current_tcb"),
				  str(snp, "reported_tcb"));
		if (!rmp && h->kvm_sev_snp && strcmp(h->kvm_sev_snp, "Y") == 0)
			PROBLEM("kvm_amd has sev_snp=Y but the PSP reports the RMP not initialised. ");
		if (strcmp(str(snp, "current_tcb"), str(snp, "reported_tcb")) != 0)
			PROBLEM("The current TCB differs from the reported TCB: attestation reports carry the older one until "
				"the new one is committed (SNP_COMMIT). ");
	} else {
		fw_check_evidence(r, FW_EVIDENCE_ABSENT, str(snp, "source"), "SNP platform status not read: %s", str(snp, "why"));
	}
#undef PROBLEM
#undef STORED
	if (!read) {
		fw_check_set(r, FW_CHECK_SKIP,
			     "No SEV platform probe could be read on this machine (see the evidence for why: capture as root, "
			     "with the ccp and msr modules loaded).",
			     NULL);
	} else if (disagree && disagree == stored) {
		/* only the stored BIOS values differ from the running state: a change waiting for a boot */
		fw_check_setf(r, FW_CHECK_PENDING,
			      "Power-cycle the machine, then run doctor again; if the running state still differs, the BIOS "
			      "does not apply the stored value.",
			      "The BIOS values stored for the next boot differ from the running state: %sThey take effect at "
			      "the next (cold) boot; the hardware and the kernel agree with each other now.",
			      problems);
	} else if (disagree) {
		fw_check_setf(r, FW_CHECK_FAIL,
			      "Find which side is stale: a BIOS change waits for a cold boot, and kernel options can switch "
			      "features off that the BIOS and hardware have on.",
			      "BIOS value, hardware state and kernel view disagree: %s", problems);
	} else {
		fw_check_setf(r, FW_CHECK_PASS, NULL,
			      "BIOS value, hardware state and kernel view agree (%zu of 3 probes read).", read);
	}
	json_decref(probe);
}
