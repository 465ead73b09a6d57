/* The doctor's check table and its runner. */
#include "doctor.h"
#include "profile-names.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "doctor-checks.h"

const char *fw_check_status_name(enum fw_check_status s)
{
	switch (s) {
	case FW_CHECK_PASS: return "pass";
	case FW_CHECK_WARN: return "warn";
	case FW_CHECK_FAIL: return "fail";
	case FW_CHECK_SKIP: return "skip";
	case FW_CHECK_PENDING: return "pending";
	case FW_CHECK_ACCEPTED: return "accepted";
	}
	return "skip";
}

bool fw_doctor_profile_parse(const char *name, unsigned *mask)
{
	/* the names plan shares (profile-names.c); no name: every readiness check */
	if (!name) {
		*mask = FW_PROFILE_ALL;
		return true;
	}
	return fw_profile_mask(name, mask);
}

bool fw_doctor_role_parse(const char *name, enum fw_doctor_role *role)
{
	if (!name || strcmp(name, "auto") == 0)
		*role = FW_ROLE_AUTO;
	else if (strcmp(name, "host") == 0)
		*role = FW_ROLE_HOST;
	else if (strcmp(name, "guest") == 0)
		*role = FW_ROLE_GUEST;
	else
		return false;
	return true;
}

const char *fw_doctor_guest_why(const struct fw_doctor_ctx *ctx)
{
	if (!ctx->host || ctx->role == FW_ROLE_HOST)
		return NULL;
	if (ctx->role == FW_ROLE_GUEST)
		return ctx->host->guest_why ? ctx->host->guest_why : "judged as a guest (--role guest)";
	return ctx->host->guest_why;
}

const char *fw_doctor_log_from(const struct fw_doctor_ctx *ctx)
{
	return ctx->host && ctx->host->dmesg_from ? ctx->host->dmesg_from : FW_KERNEL_LOG_PATH;
}

#define SNP FW_PROFILE_SNP
#define VFIO FW_PROFILE_VFIO
#define P2P FW_PROFILE_P2P
#define SEC FW_PROFILE_SECURITY

/* Where a check applies: the host (its BIOS, firmware tables and kernel; skipped inside a VM
 * guest, which cannot see them), a guest only, or any machine. */
enum where { HOST, GUEST, ANY };

/* The checks, in the order a person would go through them: BIOS, firmware tables, kernel, devices. */
static const struct fw_check_def {
	const char *id;
	const char *title;
	unsigned profiles;
	enum where where;
	fw_check_fn fn;
} checks[] = {
	{"bios-smee", "SMEE is Enable in the BIOS", SNP, HOST, fw_check_bios_smee},
	{"bios-sev-control", "SEV Control is Enable", SNP, HOST, fw_check_bios_sev_control},
	{"bios-sev-asid-limit", "SEV-ES ASID Space Limit leaves ASIDs for SNP guests", SNP, HOST, fw_check_bios_asid_limit},
	{"bios-snp-rmp-coverage", "SNP Memory (RMP Table) Coverage is Enabled", SNP, HOST, fw_check_bios_rmp_coverage},
	{"bios-sev-snp-support", "SEV-SNP Support is Enable (not Auto)", SNP, HOST, fw_check_bios_sev_snp_support},
	{"bios-sme-mk", "SME-MK is Disabled", SNP, HOST, fw_check_bios_sme_mk},
	{"bios-iommu", "IOMMU is enabled in the BIOS", SNP | VFIO | P2P, HOST, fw_check_bios_iommu},
	{"bios-svm", "SVM (AMD-V) is enabled", SNP | VFIO, HOST, fw_check_bios_svm},
	{"bios-acs", "ACS Enable lets root ports isolate IOMMU groups", VFIO | P2P, HOST, fw_check_bios_acs},
	{"bios-large-bars", "Above 4G Decoding and Resize BAR for large GPU BARs", VFIO | P2P, HOST, fw_check_bios_large_bars},
	{"acpi-ivrs", "IVRS lists the IOMMUs with SNP support", SNP | VFIO | P2P, HOST, fw_check_acpi_ivrs},
	{"cpu-flags", "The CPU and kernel report SME/SEV/SNP", SNP, HOST, fw_check_cpu_flags},
	{"kernel-iommu-mode", "IOMMU in translated mode (SNP needs it)", SNP | P2P, HOST, fw_check_kernel_iommu_mode},
	{"kernel-options", "Kernel IOMMU options are ones Linux knows", SNP | VFIO | P2P, HOST, fw_check_kernel_options},
	{"boot-pending", "The running kernel uses the stored command line and module options", SNP | VFIO | P2P, HOST,
	 fw_check_boot_pending},
	{"kernel-snp-log", "The kernel initialised SEV-SNP", SNP, HOST, fw_check_kernel_snp_log},
	{"kernel-iommu-snp", "The IOMMU driver enabled SNP support", SNP, HOST, fw_check_kernel_iommu_snp},
	{"ccp-firmware", "The PSP runs SEV/SNP firmware", SNP, HOST, fw_check_ccp_firmware},
	{"kvm-amd-sev", "kvm_amd runs SEV, SEV-ES and SEV-SNP guests", SNP, HOST, fw_check_kvm_amd},
	{"dev-sev", "/dev/sev is present", SNP, HOST, fw_check_dev_sev},
	{"sev-platform", "BIOS, hardware and kernel agree on SEV and SNP", SNP, HOST, fw_check_sev_platform},
	{"iommu-group-types", "IOMMU groups use translated domains", SNP | VFIO | P2P, HOST, fw_check_iommu_group_types},
	{"gpu-identity-domains", "No Blackwell GPU sits in an identity domain", SNP | VFIO | P2P, HOST,
	 fw_check_gpu_identity_domains},
	{"gpu-driver-init", "The GPU driver initialised every GPU", SNP | VFIO | P2P, ANY, fw_check_gpu_driver_init},
	{"gpu-assignment", "Each GPU belongs to one VM, container or the host", VFIO | P2P, HOST, fw_check_gpu_assignment},
	{"vfio-isolation", "Passthrough devices sit in groups of their own", VFIO, HOST, fw_check_vfio_isolation},
	{"acs-gpu-paths", "ACS redirect on the bridges between host GPUs", P2P | VFIO, HOST, fw_check_acs_gpu_paths},
	{"p2p-io-page-faults", "No IOMMU faults between GPUs", P2P, HOST, fw_check_p2p_faults},
	{"p2p-proof", "P2P works per GPU pair where measured", P2P, ANY, fw_check_p2p_proof},
	{"gpu-links", "GPU links run at their full speed and width", P2P, ANY, fw_check_gpu_links},
	{"gpu-numa", "Every GPU has a NUMA node", P2P | VFIO, ANY, fw_check_gpu_numa},
	{"gpu-bars", "GPU BARs map the whole VRAM", P2P | VFIO, ANY, fw_check_gpu_bars},
	{"guest-snp", "Inside a guest: SEV-SNP is active", SNP, GUEST, fw_check_guest_snp},
	{"guest-gpus", "Inside a guest: the passed-through GPUs are visible", VFIO, GUEST, fw_check_guest_gpus},
	/* the security profile (doctor-security.c: tiers and the level) */
	{"sec-smm-lock", "SMM is locked on every CPU (HWCR SmmLock)", SEC, HOST, fw_check_sec_smm_lock},
	{"sec-smm-tseg", "SMRAM (TSeg) is protected on every CPU (SMM_ADDR, SMM_MASK)", SEC, HOST,
	 fw_check_sec_smm_tseg},
	{"sec-bios-write-protection", "The BIOS flash is write-protected and the image is authentic", SEC, ANY,
	 fw_check_sec_bios_write_protection},
	{"sec-secure-boot", "Secure Boot is on, in user mode, with PK, KEK and db", SEC, HOST, fw_check_sec_secure_boot},
	{"sec-pk-test-key", "The platform key is not a known test key (PKfail)", SEC, HOST, fw_check_sec_pk_test_key},
	{"sec-microcode", "Microcode is at the level AMD's bulletins name", SEC, HOST, fw_check_sec_microcode},
	{"sec-dma-protection", "Pre-boot DMA protection and the kernel's IOMMU", SEC, HOST, fw_check_sec_dma_protection},
	{"sec-dbx", "The Secure Boot revocation list (dbx) holds the published releases", SEC, HOST, fw_check_sec_dbx},
	{"sec-memory-encryption", "Memory is encrypted (TSME or SME)", SEC, HOST, fw_check_sec_memory_encryption},
	{"sec-sev-firmware", "The SEV firmware runs SNP hosts", SEC, HOST, fw_check_sec_sev_firmware},
	{"sec-snp-alias-check", "The SNP memory alias check completed (CVE-2024-21944)", SEC, HOST,
	 fw_check_sec_snp_alias_check},
	{"sec-snp-tcb", "The SNP TCB is committed (current = reported)", SEC, HOST, fw_check_sec_snp_tcb},
	{"sec-cpuid-sev", "CPUID Fn8000_001F reports SEV, SEV-ES and SNP", SEC, HOST, fw_check_sec_cpuid_sev},
	{"sec-dev-sev", "/dev/sev opens for reading and writing", SEC, HOST, fw_check_sec_dev_sev},
	{"sec-dev-kvm", "/dev/kvm opens", SEC, HOST, fw_check_sec_dev_kvm},
	{"sec-memlock", "Guests may lock their memory (RLIMIT_MEMLOCK)", SEC, HOST, fw_check_sec_memlock},
};

static void evidence_va(struct fw_check_result *r, const char *kind, const char *from, const char *fmt, va_list ap)
{
	char buf[1024];
	vsnprintf(buf, sizeof(buf), fmt, ap);
	/* evidence lines are kept short and single-line */
	for (char *p = buf; *p; p++)
		if (*p == '\n' || *p == '\r')
			*p = ' ';
	json_t *o = json_object();
	json_object_set_new(o, "kind", json_string(kind));
	json_object_set_new(o, "from", json_string(from ? from : ""));
	json_object_set_new(o, "text", json_string(buf));
	json_array_append_new(r->evidence, o);
}

void fw_check_evidence(struct fw_check_result *r, const char *kind, const char *from, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	evidence_va(r, kind, from, fmt, ap);
	va_end(ap);
}

void fw_check_skip(struct fw_check_result *r, const char *from, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	fw_check_evidence(r, FW_EVIDENCE_ABSENT, from, "%s", buf);
	fw_check_set(r, FW_CHECK_SKIP, buf, NULL);
}

static const char *evidence_field(const json_t *e, const char *key)
{
	const char *v = json_string_value(json_object_get(e, key));
	return v ? v : "";
}

const char *fw_evidence_text(const json_t *e) { return evidence_field(e, "text"); }
const char *fw_evidence_from(const json_t *e) { return evidence_field(e, "from"); }
const char *fw_evidence_kind(const json_t *e) { return evidence_field(e, "kind"); }

void fw_check_set(struct fw_check_result *r, enum fw_check_status s, const char *explanation, const char *fix)
{
	r->status = s;
	free(r->explanation);
	free(r->fix);
	r->explanation = fw_xstrdup(explanation ? explanation : "");
	r->fix = fix ? fw_xstrdup(fix) : NULL;
}

void fw_check_setf(struct fw_check_result *r, enum fw_check_status s, const char *fix, const char *fmt, ...)
{
	char buf[4096];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	fw_check_set(r, s, buf, fix);
}

/* Checks on what a container cannot see: the host's firmware (BIOS variables, ACPI tables,
 * security state read from them) and its boot configuration under /etc. The kernel's own view
 * (/proc, /sys, the log) is the host's and is judged. */
static bool container_blind(const char *id)
{
	return strncmp(id, "bios-", 5) == 0 || strncmp(id, "acpi-", 5) == 0 || strcmp(id, "boot-pending") == 0 ||
	       strcmp(id, "sec-secure-boot") == 0 || strcmp(id, "sec-pk-test-key") == 0 || strcmp(id, "sec-dbx") == 0 ||
	       strcmp(id, "sec-bios-write-protection") == 0;
}

bool fw_doctor_check_known(const char *id)
{
	for (size_t i = 0; i < sizeof(checks) / sizeof(checks[0]); i++)
		if (strcmp(checks[i].id, id) == 0)
			return true;
	return false;
}

void fw_doctor_run(const struct fw_doctor_ctx *ctx, struct fw_doctor_report *out)
{
	memset(out, 0, sizeof(*out));
	out->profiles = ctx->profiles;
	out->captured = ctx->host ? fw_machine_created(ctx->host->machine) : NULL;
	out->guest = fw_doctor_guest_why(ctx) != NULL;
	size_t n = sizeof(checks) / sizeof(checks[0]);
	out->results = fw_xcalloc(n, sizeof(*out->results));
	for (size_t i = 0; i < n; i++) {
		if (!(checks[i].profiles & ctx->profiles))
			continue;
		struct fw_check_result *r = &out->results[out->count++];
		r->id = checks[i].id;
		r->title = checks[i].title;
		r->profiles = checks[i].profiles;
		r->status = FW_CHECK_SKIP;
		r->evidence = json_array();
		const char *guest = fw_doctor_guest_why(ctx);
		const char *container = ctx->host && ctx->role != FW_ROLE_HOST ? ctx->host->container_why : NULL;
		if (checks[i].where == HOST && !guest && container && container_blind(checks[i].id)) {
			fw_check_evidence(r, FW_EVIDENCE_FILE, container, "a container: %s", container);
			fw_check_set(r, FW_CHECK_SKIP,
				     "This machine is a container: it shares the host's kernel but not its firmware variables, "
				     "ACPI tables or boot configuration, so this check does not apply here (run doctor on the "
				     "host).",
				     NULL);
			r->not_applicable = true;
		} else if (checks[i].where == HOST && guest) {
			fw_check_evidence(r, FW_EVIDENCE_FILE, fw_doctor_guest_source(ctx->host), "a guest: %s", guest);
			fw_check_set(r, FW_CHECK_SKIP,
				     "This machine is a virtual machine guest: the host's BIOS settings, firmware tables and "
				     "kernel are not visible inside it, so this host check does not apply (run doctor on the "
				     "host).",
				     NULL);
			r->not_applicable = true;
		} else {
			/* a VM judged as the host under test: the verdicts are on its own firmware and kernel */
			if (checks[i].where == HOST && ctx->host && ctx->host->guest_why && ctx->role == FW_ROLE_HOST)
				fw_check_evidence(r, FW_EVIDENCE_FILE, fw_doctor_guest_source(ctx->host),
						  "judged as the host under test (--role host), though a guest: %s",
						  ctx->host->guest_why);
			checks[i].fn(ctx, r);
		}
		if (!r->explanation)
			r->explanation = fw_xstrdup("");
		fw_doctor_default_affects(r);
		fw_doctor_apply_accepts(ctx, r);
		switch (r->status) {
		case FW_CHECK_PASS: out->pass++; break;
		case FW_CHECK_WARN: out->warn++; break;
		case FW_CHECK_FAIL: out->fail++; break;
		case FW_CHECK_SKIP: out->skip++; break;
		case FW_CHECK_PENDING: out->pending++; break;
		case FW_CHECK_ACCEPTED: out->accepted++; break;
		}
	}
}

void fw_doctor_report_free(struct fw_doctor_report *r)
{
	for (size_t i = 0; i < r->count; i++) {
		json_decref(r->results[i].evidence);
		json_decref(r->results[i].data);
		free(r->results[i].explanation);
		free(r->results[i].fix);
		free(r->results[i].accepted);
	}
	free(r->results);
	memset(r, 0, sizeof(*r));
}

json_t *fw_doctor_report_json(const struct fw_doctor_report *r)
{
	json_t *doc = json_object();
	json_t *summary = json_object();
	json_object_set_new(summary, "pass", json_integer((json_int_t)r->pass));
	json_object_set_new(summary, "warn", json_integer((json_int_t)r->warn));
	json_object_set_new(summary, "fail", json_integer((json_int_t)r->fail));
	json_object_set_new(summary, "skip", json_integer((json_int_t)r->skip));
	json_object_set_new(summary, "pending", json_integer((json_int_t)r->pending));
	json_object_set_new(summary, "accepted", json_integer((json_int_t)r->accepted));
	json_object_set_new(doc, "summary", summary);
	json_t *arr = json_array();
	for (size_t i = 0; i < r->count; i++) {
		const struct fw_check_result *c = &r->results[i];
		json_t *o = json_object();
		json_object_set_new(o, "id", json_string(c->id));
		json_object_set_new(o, "status", json_string(fw_check_status_name(c->status)));
		json_object_set_new(o, "title", json_string(c->title));
		json_object_set(o, "evidence", c->evidence);
		json_object_set_new(o, "explanation", json_string(c->explanation));
		json_object_set_new(o, "fix", c->fix ? json_string(c->fix) : json_null());
		if (c->accepted) {
			/* what it would say without the acceptance, and why it was accepted */
			json_object_set_new(o, "judged", json_string(fw_check_status_name(c->judged)));
			json_object_set_new(o, "accepted", json_string(c->accepted));
		}
		json_object_set_new(o, "fingerprint", json_string(c->fingerprint));
		if (c->data)
			json_object_set(o, "data", c->data);
		json_array_append_new(arr, o);
	}
	json_object_set_new(doc, "checks", arr);
	json_object_set_new(doc, "readiness", fw_doctor_readiness_json(r));
	if (r->profiles & FW_PROFILE_SECURITY)
		json_object_set_new(doc, "security_level", fw_security_level_json(r));
	return doc;
}
