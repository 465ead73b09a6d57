/* Doctor checks on the BIOS settings stored on the machine (decoded through the image's forms). */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "doctor-checks.h"

enum lookup { FOUND, NO_SETTINGS, ABSENT, NO_VALUE };

static const char *value_text(const struct fw_doctor_setting *s, char *buf, size_t len)
{
	if (s->numeric)
		snprintf(buf, len, "%llu (0x%llx)", (unsigned long long)s->current, (unsigned long long)s->current);
	else if (s->current_text)
		snprintf(buf, len, "%s (0x%llx)", s->current_text, (unsigned long long)s->current);
	else
		snprintf(buf, len, "0x%llx (not one of its options)", (unsigned long long)s->current);
	return buf;
}

static const char *default_text(const struct fw_doctor_setting *s, char *buf, size_t len)
{
	if (s->default_text)
		snprintf(buf, len, "%s (0x%llx)", s->default_text, (unsigned long long)s->def);
	else if (s->has_default)
		snprintf(buf, len, "%llu (0x%llx)", (unsigned long long)s->def, (unsigned long long)s->def);
	else
		snprintf(buf, len, "none in the forms");
	return buf;
}

/* Look a setting up; add what was found as evidence, with where its value was read. */
static enum lookup lookup(const struct fw_doctor_ctx *ctx, struct fw_check_result *r, const char *prompt,
			  struct fw_doctor_setting *s)
{
	memset(s, 0, sizeof(*s));
	if (!ctx->src.setting)
		return NO_SETTINGS;
	if (!ctx->src.setting(ctx->src.setting_ctx, prompt, s))
		return ABSENT;
	char where[128], v[96], d[96];
	snprintf(where, sizeof(where), "%s@0x%x", s->varstore ? s->varstore : "(no varstore)", s->offset);
	if (!s->has_current) {
		fw_check_evidence(r, FW_EVIDENCE_ABSENT, where, "%s: no current value (no %s variable was read); default %s; menu %s",
				  s->prompt, s->varstore ? s->varstore : "setup", default_text(s, d, sizeof(d)),
				  s->path ? s->path : "");
		return NO_VALUE;
	}
	char from[512];
	snprintf(from, sizeof(from), "%s in %s", where, s->value_from ? s->value_from : "the variables given");
	fw_check_evidence(r, FW_EVIDENCE_SETTING, from, "%s = %s; default %s%s; menu %s", s->prompt,
			  value_text(s, v, sizeof(v)), default_text(s, d, sizeof(d)), s->hidden ? "; hidden in setup" : "",
			  s->path ? s->path : "");
	return FOUND;
}

/* "Set <menu path> > <prompt> to <value><tail>." with the path and prompt as the forms give them
 * (the setup browser's own words), into buf. */
static const char *set_to(const struct fw_doctor_setting *s, const char *value, const char *tail, char *buf, size_t len)
{
	bool path = s->path && *s->path;
	snprintf(buf, len, "Set %s%s%s to %s%s.", path ? s->path : "", path ? " > " : "", s->prompt, value, tail ? tail : "");
	return buf;
}

static void skip_for(struct fw_check_result *r, enum lookup l, const char *prompt, const struct fw_doctor_setting *s)
{
	switch (l) {
	case NO_SETTINGS:
		fw_check_skip(r, "BIOS forms",
			      "No BIOS settings are known for this host: give the BIOS image (--image, or a snapshot captured "
			      "with --image) so the stored variables can be decoded.");
		break;
	case ABSENT:
		fw_check_skip(r, "BIOS forms", "This BIOS has no setting named \"%s\".", prompt);
		break;
	case NO_VALUE:
		fw_check_setf(r, FW_CHECK_SKIP, NULL,
			      "The machine's variables do not hold \"%s\" (no %s variable captured), so its value is unknown.",
			      prompt, s->varstore ? s->varstore : "setup");
		break;
	case FOUND:
		break;
	}
}

/* A setting with its current value, or the check says skip and why. */
static bool get(const struct fw_doctor_ctx *ctx, struct fw_check_result *r, const char *prompt,
		struct fw_doctor_setting *s)
{
	enum lookup l = lookup(ctx, r, prompt, s);
	skip_for(r, l, prompt, s);
	return l == FOUND;
}

static bool text_is(const struct fw_doctor_setting *s, const char *a, const char *b)
{
	return s->current_text && (strcasecmp(s->current_text, a) == 0 || (b && strcasecmp(s->current_text, b) == 0));
}

void fw_check_bios_smee(const struct fw_doctor_ctx *ctx, struct fw_check_result *r)
{
	char fx[640];
	struct fw_doctor_setting s;
	if (!get(ctx, r, "SMEE", &s))
		return;
	const struct fw_host *h = ctx->host;
	bool on = text_is(&s, "Enable", "Enabled");
	bool sme_flag = fw_doctor_has_flag(h, "sme");
	if (on && fw_doctor_probed_syscfg(h, "mem_encrypt") == 0 && sme_flag) {
		/* the running state contradicts itself: no boot is pending, something is wrong now */
		fw_check_evidence(r, FW_EVIDENCE_FILE, "fwlens/probes/sev.json", "SYSCFG MemEncryptionModEn 0 (MSR 0xC0010010 bit 23)");
		fw_check_evidence(r, FW_EVIDENCE_FILE, "proc/cpuinfo", "sme flag present");
		fw_check_set(r, FW_CHECK_WARN,
			     "The stored value is Enable and the kernel reports the sme CPU flag, but SYSCFG MemEncryptionModEn "
			     "read 0: the running state disagrees with itself (see sev-platform).",
			     "Capture again as root with the msr module loaded; if SYSCFG still reads 0, report it to the "
			     "board vendor.");
		return;
	}
	if (on && fw_doctor_probed_syscfg(h, "mem_encrypt") == 0) {
		fw_check_evidence(r, FW_EVIDENCE_FILE, "fwlens/probes/sev.json", "SYSCFG MemEncryptionModEn 0 (MSR 0xC0010010 bit 23)");
		/* stored for the next boot against running now: the change waits for a boot */
		fw_check_set(r, FW_CHECK_PENDING,
			     "Stored for the next boot: Enable, right for SEV-SNP. Running now: SYSCFG MemEncryptionModEn 0, "
			     "memory encryption off. It takes effect at the next (cold) boot; if the machine has already booted "
			     "with this value, the BIOS did not apply it (see sev-platform).",
			     "Power-cycle the machine, then run doctor again: MemEncryptionModEn 1 and the sme CPU flag show it "
			     "applied.");
		return;
	}
	if (on && h && h->cpu_flags && !sme_flag && !h->guest_why) {
		/* SMEE sets SYSCFG[23]; the kernel shows the sme flag only when it is set */
		fw_check_evidence(r, FW_EVIDENCE_FILE, "proc/cpuinfo", "no sme flag");
		fw_check_set(r, FW_CHECK_PENDING,
			     "Stored for the next boot: Enable, right for SEV-SNP. Running now: no sme CPU flag (SYSCFG "
			     "MemEncryptionModEn 0). It takes effect at the next (cold) boot; if the machine has already booted "
			     "with this value, the BIOS did not apply it.",
			     "Power-cycle the machine, then run doctor again; check that mem_encrypt=off is not on the command "
			     "line.");
		return;
	}
	if (on)
		fw_check_set(r, FW_CHECK_PASS, "SMEE is explicitly enabled, so memory encryption is on and the SEV options are shown.",
			     NULL);
	else
		fw_check_setf(r, FW_CHECK_FAIL,
			      set_to(&s, "Enable", NULL, fx, sizeof(fx)),
			      "SMEE is %s. SEV-SNP needs SMEE=Enable: it sets SYSCFG[23], and Auto hides SEV Control, the ASID "
			      "limit and the RMP coverage options.",
			      s.current_text ? s.current_text : "not one of its options");
}

void fw_check_bios_sev_control(const struct fw_doctor_ctx *ctx, struct fw_check_result *r)
{
	char fx[640];
	struct fw_doctor_setting s;
	if (!get(ctx, r, "SEV Control", &s))
		return;
	if (text_is(&s, "Enable", "Enabled"))
		fw_check_set(r, FW_CHECK_PASS, "The PSP's SEV firmware is enabled.", NULL);
	else
		fw_check_setf(r, FW_CHECK_FAIL, set_to(&s, "Enable", " (then power-cycle)", fx, sizeof(fx)), "SEV Control is %s: the PSP "
			      "will not run SEV or SNP guests.", s.current_text ? s.current_text : "unknown");
}

void fw_check_bios_asid_limit(const struct fw_doctor_ctx *ctx, struct fw_check_result *r)
{
	char fx[640];
	struct fw_doctor_setting s;
	if (!get(ctx, r, "SEV-ES ASID Space Limit", &s))
		return;
	if (s.current > 1)
		fw_check_setf(r, FW_CHECK_PASS, NULL, "ASIDs 1 to %llu are left for SEV-ES and SNP guests.",
			      (unsigned long long)(s.current - 1));
	else
		fw_check_setf(r, FW_CHECK_FAIL, set_to(&s, "e.g. 100", " (AMD's guide uses 99)", fx, sizeof(fx)),
			      "The limit is %llu: SEV-ES and SNP guests get ASIDs 1 to limit-1, so none are left and kvm_amd "
			      "reports an empty SEV-SNP ASID range.",
			      (unsigned long long)s.current);
}

void fw_check_bios_rmp_coverage(const struct fw_doctor_ctx *ctx, struct fw_check_result *r)
{
	char fx[640];
	struct fw_doctor_setting s;
	if (!get(ctx, r, "SNP Memory (RMP Table) Coverage", &s))
		return;
	if (text_is(&s, "Enabled", "Enable"))
		fw_check_set(r, FW_CHECK_PASS, "The BIOS reserves the RMP table for all memory.", NULL);
	else if (text_is(&s, "Custom", NULL))
		fw_check_set(r, FW_CHECK_WARN,
			     "Custom coverage: if Amount of Memory to Cover is smaller than system RAM the kernel logs "
			     "\"Memory reserved for the RMP table does not cover full system RAM\".",
			     "Prefer Enabled.");
	else
		fw_check_setf(r, FW_CHECK_FAIL, set_to(&s, "Enabled", NULL, fx, sizeof(fx)),
			      "RMP coverage is %s: without a reserved RMP table the kernel logs \"SEV-SNP: Memory for the RMP "
			      "table has not been reserved by BIOS\" and SNP stays off. SEV-SNP Support alone is not enough.",
			      s.current_text ? s.current_text : "unknown");
}

void fw_check_bios_sev_snp_support(const struct fw_doctor_ctx *ctx, struct fw_check_result *r)
{
	char fx[640];
	struct fw_doctor_setting s;
	if (!get(ctx, r, "SEV-SNP Support", &s))
		return;
	if (text_is(&s, "Enable", "Enabled"))
		fw_check_set(r, FW_CHECK_PASS, "The IOMMU's SNP support is enabled.", NULL);
	else if (text_is(&s, "Auto", NULL))
		fw_check_set(r, FW_CHECK_WARN,
			     "SEV-SNP Support is Auto; on several builds Auto reads as off. Check the IVRS EFR SNP bit and "
			     "\"AMD-Vi: IOMMU SNP support enabled.\"",
			     set_to(&s, "Enable", NULL, fx, sizeof(fx)));
	else
		fw_check_set(r, FW_CHECK_FAIL,
			     "SEV-SNP Support is off: the kernel will log \"SNP: IOMMU SNP feature not enabled, SNP cannot be "
			     "supported.\"",
			     set_to(&s, "Enable", NULL, fx, sizeof(fx)));
}

void fw_check_bios_sme_mk(const struct fw_doctor_ctx *ctx, struct fw_check_result *r)
{
	char fx[640];
	struct fw_doctor_setting s;
	if (!get(ctx, r, "SME-MK", &s))
		return;
	if (s.current == 0)
		fw_check_set(r, FW_CHECK_PASS, "Multi-key SME is off, as SMEE requires.", NULL);
	else
		fw_check_set(r, FW_CHECK_FAIL, "SME-MK is on: enabling both SMEE and SME-MK is not supported (#GP).",
			     set_to(&s, "Disabled", NULL, fx, sizeof(fx)));
}

void fw_check_bios_iommu(const struct fw_doctor_ctx *ctx, struct fw_check_result *r)
{
	char fx[640];
	struct fw_doctor_setting s;
	if (!get(ctx, r, "IOMMU", &s))
		return;
	const struct fw_host *h = ctx->host;
	if (!text_is(&s, "Disabled", "Disable") && h && h->groups_captured && !h->ngroups) {
		/* the stored choice and the running machine disagree */
		fw_check_evidence(r, FW_EVIDENCE_FILE, "sys/kernel/iommu_groups", "no IOMMU groups on the running machine");
		fw_check_setf(r, FW_CHECK_WARN,
			      "Check that the machine booted with these variables (a change pending until the next boot?) and "
			      "that the kernel was not given amd_iommu=off.",
			      "The stored value is %s, but the running machine has no IOMMU groups: the BIOS value and the "
			      "kernel view disagree.",
			      s.current_text ? s.current_text : "not Disabled");
		return;
	}
	if (text_is(&s, "Enabled", "Enable"))
		fw_check_set(r, FW_CHECK_PASS, "The IOMMU is enabled.", NULL);
	else if (text_is(&s, "Auto", NULL))
		fw_check_set(r, FW_CHECK_PASS, "IOMMU is Auto, which follows the platform default (enabled on servers); "
					       "the IVRS check confirms it.",
			     NULL);
	else
		fw_check_set(r, FW_CHECK_FAIL,
			     "The IOMMU is disabled: no IVRS, no vfio, no SNP. Disabling it removes P2P translation faults but "
			     "also everything else that needs isolation.",
			     set_to(&s, "Enabled", NULL, fx, sizeof(fx)));
}

void fw_check_bios_svm(const struct fw_doctor_ctx *ctx, struct fw_check_result *r)
{
	char fx[640];
	struct fw_doctor_setting s;
	if (!get(ctx, r, "SVM Mode", &s))
		return;
	if (s.current)
		fw_check_set(r, FW_CHECK_PASS, "AMD-V is enabled.", NULL);
	else
		fw_check_set(r, FW_CHECK_FAIL, "SVM Mode is disabled: KVM cannot run guests.", set_to(&s, "Enabled", NULL, fx, sizeof(fx)));
}

void fw_check_bios_acs(const struct fw_doctor_ctx *ctx, struct fw_check_result *r)
{
	struct fw_doctor_setting s;
	if (!get(ctx, r, "ACS Enable", &s))
		return;
	if (text_is(&s, "Disable", "Disabled"))
		fw_check_set(r, FW_CHECK_WARN,
			     "ACS is off on the root ports: devices under different ports may share an IOMMU group, so vfio "
			     "cannot hand one GPU to a guest while its neighbour stays on the host. It does not stop Linux "
			     "from setting redirect bits on switch ports.",
			     "Keep ACS Enable at Auto or Enable for per-root-port groups.");
	else
		fw_check_setf(r, FW_CHECK_PASS, NULL,
			      "ACS Enable is %s: root ports isolate their devices into separate IOMMU groups.",
			      s.current_text ? s.current_text : "set");
}

void fw_check_bios_large_bars(const struct fw_doctor_ctx *ctx, struct fw_check_result *r)
{
	char fx[640];
	struct fw_doctor_setting a4g, rebar;
	enum lookup l4g = lookup(ctx, r, "Above 4G Decoding", &a4g);
	enum lookup lrb = lookup(ctx, r, "Resize BAR Support", &rebar);
	if (l4g != FOUND && lrb != FOUND) {
		skip_for(r, l4g, "Above 4G Decoding", &a4g);
		return;
	}
	if (l4g == FOUND && a4g.current == 0)
		fw_check_set(r, FW_CHECK_FAIL, "Above 4G Decoding is off: eight GPUs cannot map their 64-bit BARs.",
			     set_to(&a4g, "Enabled", NULL, fx, sizeof(fx)));
	else if (lrb == FOUND && rebar.current == 0)
		fw_check_set(r, FW_CHECK_WARN,
			     "Resize BAR is off: GPUs expose a small BAR1, so peers and guests map only part of the VRAM.",
			     "Enable Resize BAR Support; for vfio guests also give the VM enough 64-bit MMIO space.");
	else if (lrb != FOUND)
		fw_check_setf(r, FW_CHECK_PASS, NULL,
			      "Above 4G Decoding is enabled; Resize BAR Support is %s, so the GPU BAR sizes (gpu-bars) tell "
			      "whether BAR1 is full-size.",
			      lrb == ABSENT ? "not a setting of this BIOS" : "not known");
	else if (l4g != FOUND)
		fw_check_setf(r, FW_CHECK_PASS, NULL, "Resize BAR Support is enabled; Above 4G Decoding is %s.",
			      l4g == ABSENT ? "not a setting of this BIOS" : "not known");
	else
		fw_check_set(r, FW_CHECK_PASS, "64-bit BARs above 4 GiB and full-size BARs are enabled.", NULL);
}

void fw_check_acpi_ivrs(const struct fw_doctor_ctx *ctx, struct fw_check_result *r)
{
	if (!ctx->src.ivrs) {
		fw_check_skip(r, "sys/firmware/acpi/tables/IVRS",
			      ctx->host ? "The machine's ACPI tables were not captured."
					: "No running machine was given: the IVRS table is built by the firmware at boot, so only "
					  "a machine's tables (sys/firmware/acpi/tables) show it.");
		return;
	}
	unsigned n = 0;
	bool efr_known = false, snp = false;
	char note[512] = "";
	if (!ctx->src.ivrs(ctx->src.acpi_ctx, &n, &efr_known, &snp, note, sizeof(note))) {
		fw_check_evidence(r, FW_EVIDENCE_ABSENT, "sys/firmware/acpi/tables/IVRS",
				  "the machine's ACPI tables hold no IVRS");
		fw_check_set(r, FW_CHECK_FAIL,
			     "There is no IVRS table: the BIOS did not describe any IOMMU, so Linux runs without one (no vfio, "
			     "no SNP).",
			     "Enable IOMMU in the BIOS.");
		return;
	}
	fw_check_evidence(r, FW_EVIDENCE_TABLE, "IVRS (sys/firmware/acpi/tables/IVRS)", "IVRS: %u IOMMU%s%s%s", n, n == 1 ? "" : "s", note[0] ? "; " : "", note);
	if ((ctx->profiles & FW_PROFILE_SNP) && efr_known && !snp)
		fw_check_set(r, FW_CHECK_FAIL,
			     "The IOMMUs' EFR images lack SNPSup (bit 63): Linux will say \"SNP: IOMMU SNP feature not "
			     "enabled\".",
			     "Set SEV-SNP Support to Enable.");
	else if (!efr_known)
		fw_check_set(r, FW_CHECK_WARN, "IVRS has only type 10h blocks, which carry no EFR image to check SNP with.",
			     NULL);
	else
		fw_check_set(r, FW_CHECK_PASS, "Every IOMMU reports SNP support in its EFR image.", NULL);
}
