/* Doctor checks on the running kernel: command line, log, modules, IOMMU groups. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "doctor-checks.h"

bool fw_doctor_needs_host(const struct fw_doctor_ctx *ctx, struct fw_check_result *r)
{
	if (ctx->host)
		return true;
	fw_check_skip(r, "machine", "No machine was given (a snapshot or a root folder), only firmware.");
	return false;
}

bool fw_doctor_needs_log(const struct fw_doctor_ctx *ctx, struct fw_check_result *r)
{
	if (!fw_doctor_needs_host(ctx, r))
		return false;
	if (ctx->host->dmesg)
		return true;
	fw_check_skip(r, fw_doctor_log_from(ctx), "The kernel log was not captured (%s).",
		      ctx->host->dmesg_why[0] ? ctx->host->dmesg_why : "snapshot capture --dmesg FILE, or run as root");
	return false;
}

size_t fw_doctor_log_evidence(const struct fw_doctor_ctx *ctx, struct fw_check_result *r, const char *needle, size_t max)
{
	const char *lines[16];
	if (max > 16)
		max = 16;
	size_t n = fw_host_log_lines(ctx->host, needle, lines, max);
	for (size_t i = 0; i < n && i < max; i++) {
		size_t len = strcspn(lines[i], "\n");
		fw_check_evidence(r, FW_EVIDENCE_LOG, fw_doctor_log_from(ctx), "%.*s", (int)(len > 300 ? 300 : len), lines[i]);
	}
	if (n > max)
		fw_check_evidence(r, FW_EVIDENCE_LOG, fw_doctor_log_from(ctx), "(%zu more lines with \"%s\")", n - max, needle);
	return n;
}

static bool word_in(const char *list, const char *word)
{
	size_t n = strlen(word);
	for (const char *p = list; p && (p = strstr(p, word)); p += n)
		if ((p == list || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0'))
			return true;
	return false;
}

bool fw_doctor_has_flag(const struct fw_host *h, const char *flag)
{
	return h && h->cpu_flags && word_in(h->cpu_flags, flag);
}

/* SMEE stored as Enable in the variables the next boot reads (evidence added when so). */
static bool smee_stored_enable(const struct fw_doctor_ctx *ctx, struct fw_check_result *r)
{
	struct fw_doctor_setting s;
	if (!ctx->src.setting || !ctx->src.setting(ctx->src.setting_ctx, "SMEE", &s) || !s.has_current || !s.current_text ||
	    (strcmp(s.current_text, "Enable") != 0 && strcmp(s.current_text, "Enabled") != 0))
		return false;
	fw_check_evidence(r, FW_EVIDENCE_SETTING, s.value_from ? s.value_from : s.varstore, "SMEE = %s stored for the next boot",
			  s.current_text);
	return true;
}

void fw_check_cpu_flags(const struct fw_doctor_ctx *ctx, struct fw_check_result *r)
{
	if (!fw_doctor_needs_host(ctx, r))
		return;
	const char *flags = ctx->host->cpu_flags;
	if (!flags) {
		fw_check_skip(r, "proc/cpuinfo", "/proc/cpuinfo was not captured.");
		return;
	}
	static const char *const want[] = {"sme", "sev", "sev_es", "sev_snp"};
	char missing[128] = "", present[128] = "";
	for (size_t i = 0; i < 4; i++) {
		char *dst = word_in(flags, want[i]) ? present : missing;
		strncat(dst, dst[0] ? " " : "", sizeof(present) - strlen(dst) - 1);
		strncat(dst, want[i], sizeof(present) - strlen(dst) - 1);
	}
	fw_check_evidence(r, FW_EVIDENCE_FILE, "proc/cpuinfo", "cpu flags present: %s", present[0] ? present : "(none of sme sev sev_es sev_snp)");
	if (!missing[0])
		fw_check_set(r, FW_CHECK_PASS, "The kernel reports SME, SEV, SEV-ES and SEV-SNP.", NULL);
	else if (word_in(flags, "sev") && !word_in(flags, "sev_snp"))
		fw_check_setf(r, FW_CHECK_FAIL, "Fix the BIOS or IOMMU cause the other checks name.",
			      "Missing: %s. The kernel clears sev_snp when the RMP table or the IOMMU is not set up for SNP.",
			      missing);
	else if (smee_stored_enable(ctx, r))
		/* the running kernel lacks it, the BIOS has it stored: a change waiting for a boot */
		fw_check_setf(r, FW_CHECK_PENDING, "Power-cycle the machine, then run doctor again.",
			      "Missing now: %s. SMEE is stored as Enable for the next boot, so memory encryption takes effect "
			      "then; if the machine has already booted with it, the BIOS did not apply it.",
			      missing);
	else
		fw_check_setf(r, FW_CHECK_FAIL, "Set SMEE to Enable in the BIOS.",
			      "Missing: %s. Without sme/sev the BIOS did not enable memory encryption (SMEE).", missing);
}

bool fw_doctor_passthrough(const struct fw_host *h, const char **why)
{
	bool present;
	const char *v = fw_host_option(h, "iommu", &present);
	bool pt = false;
	*why = NULL;
	if (present && v && strcmp(v, "pt") == 0)
		pt = true, *why = "iommu=pt";
	if (present && v && strcmp(v, "nopt") == 0)
		pt = false, *why = NULL;
	v = fw_host_option(h, "iommu.passthrough", &present);
	if (present && v && (strcmp(v, "1") == 0 || strcmp(v, "y") == 0 || strcmp(v, "Y") == 0 || strcmp(v, "on") == 0))
		pt = true, *why = "iommu.passthrough=1";
	return pt;
}

size_t fw_doctor_group_types(const struct fw_host *h, struct fw_group_counts *c)
{
	memset(c, 0, sizeof(*c));
	for (size_t i = 0; i < h->ngroups; i++) {
		const char *t = h->groups[i].type ? h->groups[i].type : "";
		if (strcmp(t, "DMA") == 0)
			c->dma++;
		else if (strcmp(t, "DMA-FQ") == 0)
			c->dma_fq++;
		else if (strcmp(t, "unmanaged") == 0)
			c->unmanaged++;
		else if (strcmp(t, "blocked") == 0)
			c->blocked++;
		else if (strcmp(t, "identity") == 0) {
			char one[32];
			snprintf(one, sizeof(one), "%s%d", c->identity ? ", " : "", h->groups[i].id);
			strncat(c->identity_ids, one, sizeof(c->identity_ids) - strlen(c->identity_ids) - 1);
			c->identity++;
		} else
			c->other++;
	}
	return h->ngroups;
}

/* The kernel's boot-time default domain type from its log ("iommu: Default domain type: Translated"). */
static const char *default_domain_logged(const struct fw_doctor_ctx *ctx, struct fw_check_result *r)
{
	const char *line;
	if (!ctx->host->dmesg || !fw_host_log_lines(ctx->host, "Default domain type:", &line, 1))
		return NULL;
	fw_doctor_log_evidence(ctx, r, "Default domain type:", 1);
	const char *p = strstr(line, "Default domain type:") + strlen("Default domain type:");
	while (*p == ' ')
		p++;
	return strncmp(p, "Passthrough", 11) == 0 ? "Passthrough" : strncmp(p, "Translated", 10) == 0 ? "Translated" : "other";
}

void fw_check_kernel_iommu_mode(const struct fw_doctor_ctx *ctx, struct fw_check_result *r)
{
	if (!fw_doctor_needs_host(ctx, r))
		return;
	const struct fw_host *h = ctx->host;
	if (!h->cmdline) {
		fw_check_skip(r, "proc/cmdline", "/proc/cmdline was not captured.");
		return;
	}
	fw_check_evidence(r, FW_EVIDENCE_FILE, "proc/cmdline", "%s", h->cmdline);
	const char *amd = fw_host_option(h, "amd_iommu", NULL);
	const char *iommu = fw_host_option(h, "iommu", NULL);
	const char *why;
	if ((amd && strstr(amd, "off")) || (iommu && strcmp(iommu, "off") == 0)) {
		fw_check_set(r, FW_CHECK_FAIL,
			     "The IOMMU driver is switched off on the command line: no DMA remapping, no interrupt remapping, "
			     "no vfio, no SNP.",
			     "Remove amd_iommu=off / iommu=off.");
		return;
	}
	if (amd && strstr(amd, "pgtbl_v2")) {
		fw_check_set(r, FW_CHECK_FAIL,
			     "amd_iommu=pgtbl_v2 uses guest-format page tables for the DMA API; SNP requires v1 tables "
			     "(\"SNP: IOMMU is configured with V2 page table mode, SNP cannot be supported\").",
			     "Remove amd_iommu=pgtbl_v2.");
		return;
	}
	bool pt = fw_doctor_passthrough(h, &why);
	if (pt && !(ctx->profiles & FW_PROFILE_SNP)) {
		fw_check_setf(r, FW_CHECK_WARN, NULL,
			      "%s makes default domains passthrough: P2P is not translated (no faults), but devices are not "
			      "isolated from each other and an SEV-SNP host is impossible.",
			      why);
		return;
	}
	if (pt) {
		fw_check_setf(r, FW_CHECK_FAIL,
			      "Remove it: keep the default translated mode, and deal with P2P through ACS or NCCL settings.",
			      "%s makes default domains passthrough (identity). With SNP the kernel then prints \"SNP: IOMMU "
			      "disabled or configured in passthrough mode, SNP cannot be supported.\" and turns host SNP off.",
			      why);
		return;
	}
	/* the command line asks for nothing; what the kernel did shows in its log and in the groups */
	const char *logged = default_domain_logged(ctx, r);
	if (logged && strcmp(logged, "Passthrough") == 0) {
		fw_check_set(r, FW_CHECK_FAIL,
			     "No passthrough option on the command line, yet the kernel made passthrough its default domain "
			     "type (a kernel built with CONFIG_IOMMU_DEFAULT_PASSTHROUGH): identity domains do not translate, and "
			     "SNP needs translation.",
			     "Boot with iommu.passthrough=0 (or a kernel whose default is DMA/DMA-FQ).");
		return;
	}
	if (!h->groups_captured && !logged) {
		fw_check_skip(r, "sys/kernel/iommu_groups",
			      "The command line has no passthrough option, but neither the IOMMU groups nor the kernel log "
			      "were captured, so nothing shows the domain type in effect.");
		return;
	}
	struct fw_group_counts c;
	fw_doctor_group_types(h, &c);
	if (h->groups_captured)
		fw_check_evidence(r, FW_EVIDENCE_FILE, "sys/kernel/iommu_groups/*/type",
				  "%zu groups: %zu DMA, %zu DMA-FQ, %zu identity, %zu unmanaged (vfio)", h->ngroups, c.dma,
				  c.dma_fq, c.identity, c.unmanaged);
	if (h->groups_captured && !h->ngroups) {
		fw_check_set(r, FW_CHECK_FAIL,
			     "No passthrough option on the command line, but there are no IOMMU groups: no device is behind "
			     "a translating IOMMU (the IOMMU is off in the BIOS or not used by the kernel).",
			     "Enable the IOMMU in the BIOS (IVRS must exist) and do not pass amd_iommu=off.");
		return;
	}
	if (c.identity) {
		fw_check_setf(r, FW_CHECK_WARN, "See iommu-group-types for the groups and how to return them to DMA-FQ.",
			      "The default domain type is translated (no passthrough option on the command line%s), but "
			      "group%s %s %s identity now: identity domains do not translate, so those devices bypass the "
			      "IOMMU. They were switched after boot (echo identity > /sys/kernel/iommu_groups/N/type).",
			      logged ? "; the kernel logged Translated" : "", c.identity == 1 ? "" : "s", c.identity_ids,
			      c.identity == 1 ? "is" : "are");
		return;
	}
	if (h->groups_captured && !c.dma && !c.dma_fq) {
		fw_check_set(r, FW_CHECK_WARN,
			     "No group uses a DMA or DMA-FQ domain, so nothing shows translation in effect.", NULL);
		return;
	}
	fw_check_setf(r, FW_CHECK_PASS, NULL,
		      "No passthrough on the command line and %s: default domains are translated (DMA/DMA-FQ), as SNP "
		      "requires.",
		      h->groups_captured ? "every host group translates" : "the kernel logged its default type Translated");
}

void fw_check_kernel_options(const struct fw_doctor_ctx *ctx, struct fw_check_result *r)
{
	if (!fw_doctor_needs_host(ctx, r))
		return;
	const struct fw_host *h = ctx->host;
	if (!h->cmdline) {
		fw_check_skip(r, "proc/cmdline", "/proc/cmdline was not captured.");
		return;
	}
	fw_check_evidence(r, FW_EVIDENCE_FILE, "proc/cmdline", "%s", h->cmdline);
	/* amd_iommu= takes a comma list of these (drivers/iommu/amd/init.c parse_amd_iommu_options) */
	static const char *const amd_known[] = {"fullflush", "force_enable", "off", "force_isolation", "pgtbl_v1",
						"pgtbl_v2", "irtcachedis", "nohugepages", "v2_pgsizes_only", NULL};
	size_t unknown = 0;
	char drop[512] = ""; /* the words to remove, as --remove-kernel-arg takes them */
	bool drop_plain = true; /* each word is plain text a shell takes as it is */
	for (size_t i = 0; i < h->noptions; i++) {
		const struct fw_kernel_option *o = &h->options[i];
		size_t before = unknown;
		if (strcmp(o->key, "amd_iommu") == 0) {
			char *copy = fw_xstrdup(o->value ? o->value : ""), *save = NULL;
			for (char *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
				bool ok = false;
				for (size_t k = 0; amd_known[k] && !ok; k++)
					ok = strcmp(tok, amd_known[k]) == 0;
				if (!ok) {
					unknown++;
					fw_check_evidence(r, FW_EVIDENCE_FILE, "proc/cmdline", "amd_iommu=%s: Linux logs \"AMD-Vi: Unknown option - '%s'\" and ignores it",
							  o->value ? o->value : "", tok);
				}
			}
			free(copy);
		} else if (strcmp(o->key, "intel_iommu") == 0) {
			unknown++;
			fw_check_evidence(r, FW_EVIDENCE_FILE, "proc/cmdline", "intel_iommu=%s applies to Intel VT-d only; on AMD it does nothing",
					  o->value ? o->value : "");
		} else if (strcmp(o->key, "pcie_acs_override") == 0) {
			unknown++;
			fw_check_evidence(r, FW_EVIDENCE_FILE, "proc/cmdline", "pcie_acs_override=%s is an out-of-tree patch: it pretends isolation and allows "
					     "peer DMA the IOMMU does not see",
					  o->value ? o->value : "");
		}
		if (unknown > before) {
			size_t len = strlen(drop);
			snprintf(drop + len, sizeof(drop) - len, " --remove-kernel-arg %s%s%s", o->key, o->value ? "=" : "",
				 o->value ? o->value : "");
			for (const char *c = o->key; *c; c++)
				drop_plain &= strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-", *c) != NULL;
			for (const char *c = o->value ? o->value : ""; *c; c++)
				drop_plain &= strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.,:=-", *c) != NULL;
		}
	}
	if (unknown) {
		char fix[768];
		/* the plan command only for words a shell reads as they are: machine text is not pasted blind */
		if (drop_plain && strlen(drop) < sizeof(drop) - 1)
			snprintf(fix, sizeof(fix),
				 "Drop the options named in the evidence; they change nothing and mislead whoever reads the command "
				 "line next. `fwlens plan SRC%s -o drop.sh` writes the change for this machine's boot loader.",
				 drop);
		else
			snprintf(fix, sizeof(fix), "Drop the options named in the evidence; they change nothing and mislead "
						   "whoever reads the command line next.");
		size_t n = fw_host_log_lines(h, "Unknown option", NULL, 0);
		if (n)
			fw_doctor_log_evidence(ctx, r, "Unknown option", 3);
		fw_check_set(r, FW_CHECK_WARN,
			     "Some IOMMU options on the command line do nothing on this machine. amd_iommu=on in particular "
			     "is not an AMD option: the IOMMU is on by default when IVRS exists, and translated mode comes "
			     "from not passing iommu=pt.",
			     fix);
	} else {
		fw_check_set(r, FW_CHECK_PASS, "Every IOMMU option on the command line is one Linux knows.", NULL);
	}
}

void fw_check_kernel_snp_log(const struct fw_doctor_ctx *ctx, struct fw_check_result *r)
{
	if (!fw_doctor_needs_log(ctx, r))
		return;
	const struct fw_host *h = ctx->host;
	size_t n = fw_doctor_log_evidence(ctx, r, "SEV-SNP", 6);
	n += fw_doctor_log_evidence(ctx, r, "SNP:", 3);
	static const struct {
		const char *needle, *why, *fix;
	} failures[] = {
		{"Memory for the RMP table has not been reserved by BIOS", "the BIOS reserved no RMP table",
		 "Set SNP Memory (RMP Table) Coverage to Enabled."},
		{"does not cover full system RAM", "the RMP table covers less than all memory",
		 "Set SNP Memory (RMP Table) Coverage to Enabled (not Custom)."},
		{"IOMMU disabled or configured in passthrough mode", "the IOMMU is off or in passthrough mode",
		 "Remove iommu=pt / iommu.passthrough=1 and keep the IOMMU enabled."},
		{"IOMMU SNP feature not enabled", "the IOMMU does not report SNP support",
		 "Set SEV-SNP Support to Enable in the BIOS."},
		{"V2 page table mode", "the IOMMU uses v2 page tables", "Remove amd_iommu=pgtbl_v2."},
		{"failed to INIT", "the PSP failed SNP initialisation",
		 "Check PSP firmware and BIOS version; one report needed Memory interleaving Disabled for error 0x3."},
	};
	for (size_t i = 0; i < sizeof(failures) / sizeof(failures[0]); i++)
		if (fw_host_log_lines(h, failures[i].needle, NULL, 0)) {
			fw_check_setf(r, FW_CHECK_FAIL, failures[i].fix, "The kernel did not enable SEV-SNP: %s.", failures[i].why);
			return;
		}
	if (fw_host_log_lines(h, "RMP table physical range", NULL, 0) || fw_host_log_lines(h, "Segmented RMP", NULL, 0))
		fw_check_set(r, FW_CHECK_PASS, "The kernel found the RMP table the BIOS reserved and set SNP up.", NULL);
	else if (n)
		fw_check_set(r, FW_CHECK_WARN, "SEV-SNP lines are present but none reports the RMP table.", NULL);
	else {
		fw_check_evidence(r, FW_EVIDENCE_LOG, fw_doctor_log_from(ctx), "no line with SEV-SNP or SNP: in %zu lines",
				  fw_host_log_lines(h, "", NULL, 0));
		fw_check_set(r, FW_CHECK_FAIL,
			     "The kernel log has no SEV-SNP line at all: either the kernel lacks SNP host support (6.11+ with "
			     "CONFIG_KVM_AMD_SEV) or memory encryption is off in the BIOS.",
			     "Check SMEE and the kernel version.");
	}
}

void fw_check_kernel_iommu_snp(const struct fw_doctor_ctx *ctx, struct fw_check_result *r)
{
	if (!fw_doctor_needs_log(ctx, r))
		return;
	const struct fw_host *h = ctx->host;
	fw_doctor_log_evidence(ctx, r, "Extended features", 2);
	if (fw_doctor_log_evidence(ctx, r, "IOMMU SNP support enabled", 1))
		fw_check_set(r, FW_CHECK_PASS, "AMD-Vi enabled the IOMMU's SNP support.", NULL);
	else if (fw_doctor_log_evidence(ctx, r, "AMD-Vi", 3))
		fw_check_set(r, FW_CHECK_FAIL,
			     "AMD-Vi is running but never printed \"IOMMU SNP support enabled.\": SNP is off on the IOMMU side.",
			     "Set SEV-SNP Support to Enable, keep the IOMMU in translated mode.");
	else {
		fw_check_evidence(r, FW_EVIDENCE_LOG, fw_doctor_log_from(ctx), "no AMD-Vi line in %zu lines",
				  fw_host_log_lines(h, "", NULL, 0));
		fw_check_set(r, FW_CHECK_FAIL, "No AMD-Vi line in the kernel log: the AMD IOMMU driver is not running.",
			     "Enable the IOMMU in the BIOS and do not pass amd_iommu=off.");
	}
}

void fw_check_ccp_firmware(const struct fw_doctor_ctx *ctx, struct fw_check_result *r)
{
	if (!fw_doctor_needs_log(ctx, r))
		return;
	size_t snp = fw_doctor_log_evidence(ctx, r, "SEV-SNP API", 2);
	size_t sev = fw_doctor_log_evidence(ctx, r, "SEV API", 2);
	if (snp)
		fw_check_set(r, FW_CHECK_PASS, "The PSP reports an SEV-SNP firmware API (SNP hosts need 1.51 or newer).", NULL);
	else if (sev)
		fw_check_set(r, FW_CHECK_WARN, "The PSP runs SEV firmware but reports no SEV-SNP API.", NULL);
	else {
		fw_check_evidence(r, FW_EVIDENCE_LOG, fw_doctor_log_from(ctx), "no \"SEV API\" line in %zu lines",
				  fw_host_log_lines(ctx->host, "", NULL, 0));
		fw_check_set(r, FW_CHECK_FAIL, "No ccp SEV firmware line: the PSP driver did not start SEV.",
			     "Check SMEE, SEV Control and that the ccp module is loaded.");
	}
}

void fw_check_kvm_amd(const struct fw_doctor_ctx *ctx, struct fw_check_result *r)
{
	if (!fw_doctor_needs_host(ctx, r))
		return;
	const struct fw_host *h = ctx->host;
	if (!h->kvm_sev && !h->kvm_sev_snp && !h->kvm_sev_es) {
		fw_check_skip(r, "sys/module/kvm_amd/parameters", "kvm_amd's parameters were not captured (module not loaded?).");
		return;
	}
	const char *names[3] = {"sev", "sev_es", "sev_snp"};
	const char *vals[3] = {h->kvm_sev, h->kvm_sev_es, h->kvm_sev_snp};
	bool all = true;
	for (int i = 0; i < 3; i++) {
		bool on = vals[i] && (strcmp(vals[i], "Y") == 0 || strcmp(vals[i], "1") == 0);
		all = all && on;
		char from[64];
		snprintf(from, sizeof(from), "sys/module/kvm_amd/parameters/%s", names[i]);
		fw_check_evidence(r, vals[i] ? FW_EVIDENCE_FILE : FW_EVIDENCE_ABSENT, from, "kvm_amd %s = %s", names[i],
				  vals[i] ? vals[i] : "(absent)");
	}
	fw_doctor_log_evidence(ctx, r, "kvm_amd: SEV", 3);
	if (h->dmesg) {
		const char *line;
		if (fw_host_log_lines(h, "SEV-SNP enabled (ASIDs", &line, 1)) {
			unsigned lo = 0, hi = 0;
			const char *p = strstr(line, "(ASIDs");
			if (p && sscanf(p, "(ASIDs %u - %u)", &lo, &hi) == 2 && hi < lo) {
				fw_check_set(r, FW_CHECK_FAIL,
					     "kvm_amd enabled SEV-SNP with an empty ASID range: no SNP guest can start.",
					     "Raise SEV-ES ASID Space Limit in the BIOS.");
				return;
			}
		}
	}
	if (all)
		fw_check_set(r, FW_CHECK_PASS, "kvm_amd has SEV, SEV-ES and SEV-SNP enabled.", NULL);
	else
		fw_check_set(r, FW_CHECK_FAIL,
			     "kvm_amd does not have all of sev, sev_es and sev_snp enabled; SNP guests need sev_snp=Y "
			     "(kernel 6.11+, CONFIG_KVM_AMD_SEV).",
			     "Fix the BIOS/IOMMU causes named by the other checks; load kvm_amd with sev_snp=1.");
}

void fw_check_dev_sev(const struct fw_doctor_ctx *ctx, struct fw_check_result *r)
{
	if (!fw_doctor_needs_host(ctx, r))
		return;
	bool have_dev = fw_machine_exists(ctx->host->machine, "dev");
	fw_check_evidence(r, ctx->host->dev_sev ? FW_EVIDENCE_FILE : FW_EVIDENCE_ABSENT, "dev/sev", "dev/sev: %s",
			  ctx->host->dev_sev ? "present" : have_dev ? "absent" : "dev/ was not captured");
	/* the driver's own word that it set SEV up: then only the node is missing */
	const char *line = NULL;
	size_t sev_lines = ctx->host->dev_sev || !have_dev ? 0 : fw_host_log_lines(ctx->host, ": sev enabled", &line, 1);
	if (sev_lines && line && strncmp(strchr(line, ']') ? strchr(line, ']') + 2 : line, "ccp ", 4) != 0)
		sev_lines = 0;
	if (ctx->host->dev_sev)
		fw_check_set(r, FW_CHECK_PASS, "/dev/sev exists: the ccp driver bound the PSP.", NULL);
	else if (sev_lines) {
		fw_doctor_log_evidence(ctx, r, ": sev enabled", 1);
		fw_check_set(r, FW_CHECK_WARN,
			     "/dev/sev is absent although the ccp driver logged \"sev enabled\" this boot: the driver is "
			     "loaded and set SEV up, only the device node is missing (a container that was not given it, or "
			     "udev that did not create it).",
			     "In a container, pass the node through (lxc.cgroup2.devices.allow and a bind mount of /dev/sev); "
			     "on the host, udevadm trigger --subsystem-match=misc recreates it. Do not reload ccp.");
	} else if (have_dev)
		fw_check_set(r, FW_CHECK_WARN, "/dev/sev is absent: the ccp driver has not bound the PSP function.",
			     "Load ccp and check SEV in the BIOS.");
	else
		fw_check_set(r, FW_CHECK_SKIP, "The machine has no dev/ to look at.", NULL);
}

void fw_check_iommu_group_types(const struct fw_doctor_ctx *ctx, struct fw_check_result *r)
{
	if (!fw_doctor_needs_host(ctx, r))
		return;
	const struct fw_host *h = ctx->host;
	if (!h->groups_captured) {
		fw_check_skip(r, "sys/kernel/iommu_groups", "The IOMMU groups (sys/kernel/iommu_groups) were not captured.");
		return;
	}
	if (!h->ngroups) {
		fw_check_evidence(r, FW_EVIDENCE_FILE, "sys/kernel/iommu_groups", "no groups");
		fw_check_set(r, FW_CHECK_FAIL, "There are no IOMMU groups: the IOMMU is off or not used by the kernel.",
			     "Enable the IOMMU in the BIOS; do not pass amd_iommu=off.");
		return;
	}
	struct fw_group_counts c;
	fw_doctor_group_types(h, &c);
	fw_check_evidence(r, FW_EVIDENCE_FILE, "sys/kernel/iommu_groups/*/type",
			  "%zu groups: %zu DMA, %zu DMA-FQ, %zu identity, %zu unmanaged (vfio), %zu blocked, %zu other",
			  h->ngroups, c.dma, c.dma_fq, c.identity, c.unmanaged, c.blocked, c.other);
	if (c.identity)
		fw_check_evidence(r, FW_EVIDENCE_FILE, "sys/kernel/iommu_groups/*/type", "identity groups: %s", c.identity_ids);
	/* whose: the SNP host (it needs translation everywhere) and the owners of the GPUs in those groups */
	r->affects = FW_AFFECTS_SNP_HOST;
	for (size_t i = 0; i < h->npci; i++) {
		const struct fw_iommu_group *g = fw_host_group(h, h->pci[i].iommu_group);
		if (fw_pci_is_gpu(&h->pci[i]) && g && g->type && strcmp(g->type, "identity") == 0)
			r->affects |= fw_doctor_gpu_affects(&h->pci[i]);
	}
	if (c.identity && (ctx->profiles & FW_PROFILE_SNP)) {
		fw_check_set(r, FW_CHECK_FAIL,
			     "Some groups use identity domains, which do not translate. With SNP the IOMMU must translate "
			     "(DTE mode 0 is not supported with SNP); on this class of host identity domains also kept the GPUs' "
			     "firmware from booting (see gpu-identity-domains).",
			     "Return those groups to DMA-FQ: with the group's devices unbound, echo DMA-FQ > "
			     "/sys/kernel/iommu_groups/N/type. For NVIDIA GPUs that already failed to initialise, follow the "
			     "recovery in gpu-identity-domains instead.");
	} else if (c.identity) {
		fw_check_set(r, FW_CHECK_WARN,
			     "Some groups use identity domains, which do not translate: their devices are not isolated.", NULL);
	} else {
		fw_check_set(r, FW_CHECK_PASS, "Every group translates DMA (DMA or DMA-FQ), or belongs to vfio.", NULL);
	}
}

/* Kernels that carry the ACS override patch, told by their release string. */
static const char *acs_override_kernel(const char *release)
{
	static const char *const with[][2] = {{"-pve", "Proxmox"}, {"-zen", "zen"},     {"xanmod", "XanMod"},
					      {"liquorix", "Liquorix"}, {"cachyos", "CachyOS"}, {"-vfio", "vfio"}};
	for (size_t i = 0; release && i < sizeof(with) / sizeof(with[0]); i++)
		if (strstr(release, with[i][0]))
			return with[i][1];
	return NULL;
}

int fw_doctor_acs_override(const struct fw_doctor_ctx *ctx, struct fw_check_result *r, char *why, size_t len)
{
	const struct fw_host *h = ctx->host;
	bool present = false;
	const char *value = fw_host_option(h, "pcie_acs_override", &present);
	if (!present)
		return 0;
	fw_check_evidence(r, FW_EVIDENCE_FILE, "proc/cmdline", "pcie_acs_override=%s", value ? value : "");
	size_t logged = fw_host_log_lines(h, "PCIe ACS overrides enabled", NULL, 0);
	if (logged)
		fw_doctor_log_evidence(ctx, r, "PCIe ACS overrides enabled", 1);
	const char *release = h->kernel_release ? h->kernel_release : h->kernel_version;
	const char *from = h->kernel_release ? "proc/sys/kernel/osrelease" : "proc/version";
	const char *kind = acs_override_kernel(release);
	if (release)
		fw_check_evidence(r, FW_EVIDENCE_FILE, from, "%.*s", (int)strcspn(release, "\n"), release);
	if (logged || kind) {
		if (logged)
			snprintf(why, len, "pcie_acs_override=%s is on the command line and the kernel logged that it "
					   "applies it: the IOMMU groups are faked.",
				 value ? value : "");
		else
			snprintf(why, len, "pcie_acs_override=%s is on the command line and this %s kernel (by its release "
					   "string) implements it: the IOMMU groups are faked.",
				 value ? value : "", kind);
		return 1;
	}
	snprintf(why, len,
		 "pcie_acs_override=%s is on the command line; whether this kernel (%s) implements it is not known: "
		 "upstream Linux ignores it, patched kernels (Proxmox, zen, XanMod) fake the groups with it.",
		 value ? value : "", release ? "its release string names no patched kernel" : "its release is not known");
	return -1;
}

void fw_check_vfio_isolation(const struct fw_doctor_ctx *ctx, struct fw_check_result *r)
{
	if (!fw_doctor_needs_host(ctx, r))
		return;
	const struct fw_host *h = ctx->host;
	size_t vfio = 0, bad = 0;
	r->affects = FW_AFFECTS_VM_GPUS; /* isolation is what passthrough needs */
	for (size_t i = 0; i < h->npci; i++) {
		const struct fw_pci_device *d = &h->pci[i];
		if (!d->driver || strcmp(d->driver, "vfio-pci") != 0)
			continue;
		vfio++;
		const struct fw_iommu_group *g = fw_host_group(h, d->iommu_group);
		if (!g) {
			bad++;
			fw_check_evidence(r, FW_EVIDENCE_FILE, "sys/bus/pci/devices/*/iommu_group",
					  "%s is bound to vfio-pci but has no IOMMU group", d->bdf);
			continue;
		}
		for (size_t k = 0; k < g->ndevices; k++) {
			const struct fw_pci_device *o = fw_host_pci(h, g->devices[k]);
			if (!o || o == d || (o->driver && strcmp(o->driver, "vfio-pci") == 0) || (o->have_config && o->cfg.bridge))
				continue;
			bad++;
			fw_check_evidence(r, FW_EVIDENCE_FILE, "sys/kernel/iommu_groups/*/devices",
					  "group %d holds %s (vfio-pci) and %s (%s)", g->id, d->bdf, o->bdf,
					  o->driver ? o->driver : "no driver");
		}
		fw_check_evidence(r, FW_EVIDENCE_FILE, "sys/kernel/iommu_groups/*/type", "%s vfio-pci in group %d (%s)", d->bdf, g->id, g->type ? g->type : "?");
	}
	/* pcie_acs_override fakes the groups: isolation cannot be read from them */
	char override[512];
	int faked = vfio ? fw_doctor_acs_override(ctx, r, override, sizeof(override)) : 0;
	if (!vfio)
		fw_check_skip(r, "sys/bus/pci/drivers/vfio-pci", "No device is bound to vfio-pci.");
	else if (faked > 0)
		fw_check_setf(r, FW_CHECK_FAIL,
			      "Drop pcie_acs_override and put the passthrough GPUs in slots whose ports have ACS (ACS Enable "
			      "in the BIOS), so the groups are the hardware's.",
			      "%s The groups split devices the hardware does not isolate, so a passthrough device may still "
			      "reach its neighbours by peer-to-peer DMA that the IOMMU never sees: isolation is not shown by "
			      "these groups.",
			      override);
	else if (faked < 0)
		fw_check_setf(r, FW_CHECK_WARN,
			      "Tell whether the kernel implements pcie_acs_override (its log says \"PCIe ACS overrides "
			      "enabled\" when it does), or drop the option.",
			      "%s Whether the groups are the hardware's is not known.", override);
	else if (bad)
		fw_check_set(r, FW_CHECK_FAIL,
			     "A passthrough device shares its IOMMU group with a device the host still drives: vfio refuses "
			     "to open such a group.",
			     "Bind every device of the group to vfio-pci, or move the GPU to a slot whose root port has ACS "
			     "(ACS Enable in the BIOS).");
	else
		fw_check_setf(r, FW_CHECK_PASS, NULL, "All %zu vfio-pci devices sit in groups with no host-driven device.", vfio);
}
