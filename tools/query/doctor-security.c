/* The security profile: is the platform's firmware protected, in the manner of fwupd's Host
 * Security ID, for an EPYC host (pre-boot DMA protection, SMM lock, Secure Boot and its keys,
 * memory encryption, microcode against AMD's bulletins, BIOS write protection), with the checks
 * `snphost ok` runs that the readiness profiles lack (SNP alias check, TCB, /dev/sev access,
 * /dev/kvm, memlock, CPUID Fn8000_001F).
 *
 * Each check reads the machine's captured files (efivarfs, /proc/cpuinfo, the kernel log, the PSP
 * security attributes of the ccp driver) and the SEV probe taken at capture time
 * (fwlens/probes/sev.json); what was not captured is "skip", never a guess. The level
 * (fw_security_level) summarises the tiered checks. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "capsule/recognise.h"
#include "capsule/signature.h"
#include "capsule/version.h"
#include "cpu-gen.h"
#include "dbx-releases.h"
#include "doctor-checks.h"
#include "security-minimums.h"
#include "parsers/sigdb.h"
#include "parsers/node.h"
#include "tools/host/msr-smm.h"
#include "tools/host/sev-probe.h"

/* ---- the level's tiers ---------------------------------------------------------------------- */

/* Tier of each check: the level is the highest N whose checks, and those of every tier below,
 * all pass. Tier 0 checks (the `snphost ok` parity: access and limits for starting guests) do not
 * move the level; a failure there marks it with "!" as fwupd marks runtime problems. */
static const struct {
	const char *id;
	unsigned tier;
} tiers[] = {
	{"sec-smm-lock", 1},          {"sec-smm-tseg", 1},          {"sec-bios-write-protection", 1},
	{"sec-secure-boot", 1},       {"sec-pk-test-key", 1},       {"sec-microcode", 1},
	{"sec-dma-protection", 2},    {"sec-dbx", 2},               {"sec-memory-encryption", 3},
	{"sec-sev-firmware", 3},      {"sec-snp-alias-check", 3},   {"sec-snp-tcb", 3},
	{"sec-cpuid-sev", 0},         {"sec-dev-sev", 0},           {"sec-dev-kvm", 0},
	{"sec-memlock", 0},
};
#define TOP_TIER 3

static const char *const tier_names[] = {
	"runtime (snphost ok parity)",
	"critical: the firmware cannot be changed or subverted from the running OS",
	"important: devices cannot reach memory unchecked and revoked boot code cannot run",
	"confidential computing: memory is encrypted and the SNP platform is current",
};

static int tier_of(const char *id)
{
	for (size_t i = 0; i < sizeof(tiers) / sizeof(tiers[0]); i++)
		if (strcmp(tiers[i].id, id) == 0)
			return (int)tiers[i].tier;
	return -1;
}

json_t *fw_security_level_json(const struct fw_doctor_report *rep)
{
	int level = TOP_TIER;
	bool runtime_issue = false;
	const char *stopped_by = NULL;
	enum fw_check_status stopped_status = FW_CHECK_PASS;
	for (int tier = 1; tier <= TOP_TIER && !stopped_by; tier++)
		for (size_t i = 0; i < rep->count && !stopped_by; i++)
			if (tier_of(rep->results[i].id) == tier && rep->results[i].status != FW_CHECK_PASS) {
				level = tier - 1;
				stopped_by = rep->results[i].id;
				stopped_status = rep->results[i].status;
			}
	for (size_t i = 0; i < rep->count; i++)
		if (tier_of(rep->results[i].id) == 0 && rep->results[i].status == FW_CHECK_FAIL)
			runtime_issue = true;
	json_t *o = json_object();
	json_object_set_new(o, "level", json_integer(level));
	json_object_set_new(o, "of", json_integer(TOP_TIER));
	char text[16];
	snprintf(text, sizeof(text), "%d%s", level, runtime_issue ? "!" : "");
	json_object_set_new(o, "text", json_string(text));
	json_object_set_new(o, "runtime_issue", json_boolean(runtime_issue));
	/* when the evidence was taken: a snapshot's capture time; a folder's files are read as they are */
	json_object_set_new(o, "captured", rep->captured ? json_string(rep->captured) : json_null());
	if (stopped_by) {
		json_object_set_new(o, "stopped_by", json_string(stopped_by));
		json_object_set_new(o, "stopped_status", json_string(fw_check_status_name(stopped_status)));
		json_object_set_new(o, "next_tier", json_string(tier_names[level + 1]));
	} else {
		json_object_set_new(o, "stopped_by", json_null());
	}
	return o;
}

/* ---- inputs --------------------------------------------------------------------------------- */

#define EFI_GLOBAL "8be4df61-93ca-11d2-aa0d-00e098032b8c"
#define EFI_IMAGE_SECURITY "d719b2cb-3d3a-4596-a3bc-dad00e67656f"
#define EFIVARS "sys/firmware/efi/efivars/"

/* An efivarfs file's data after its 4-byte attributes; false when absent or too short. */
static bool efivar(const struct fw_host *h, const char *name, const char *guid, struct fw_view *out, char *from,
		   size_t fromlen)
{
	snprintf(from, fromlen, EFIVARS "%s-%s", name, guid);
	struct fw_blob b;
	if (!fw_machine_read(h->machine, from, &b, NULL) || b.len < 4)
		return false;
	*out = fw_view_make(b.data + 4, b.len - 4, 4);
	return true;
}

static bool efivarfs_captured(const struct fw_host *h)
{
	struct fw_strlist names;
	if (!fw_machine_list(h->machine, "sys/firmware/efi/efivars", &names))
		return false;
	fw_strlist_free(&names);
	return true;
}

static const char *str(const json_t *o, const char *k)
{
	const char *s = json_string_value(json_object_get(o, k));
	return s ? s : "?";
}

static bool is_read(const json_t *o) { return json_is_true(json_object_get(o, "read")); }

static uint64_t hexval(const json_t *o, const char *k)
{
	const char *s = json_string_value(json_object_get(o, k));
	return s ? strtoull(s, NULL, 16) : 0;
}

/* A "0x..." field of the probe, false unless it is one whole hex number. */
static bool hexfield(const json_t *o, const char *k, uint64_t *out)
{
	const char *s = json_string_value(json_object_get(o, k));
	char *end;
	if (!s || strncmp(s, "0x", 2) != 0 || !s[2])
		return false;
	*out = strtoull(s + 2, &end, 16);
	return *end == 0;
}

/* A part of the SEV probe ("hwcr", "platform/snp"): NULL with a skip saying why when the machine
 * was not probed, the probe predates that part, or the part records that it could not be read.
 * On success *probe holds the document (the caller releases it). */
static json_t *probed(const struct fw_doctor_ctx *ctx, struct fw_check_result *r, const char *part, const char *what,
		      json_t **probe)
{
	*probe = NULL;
	if (!fw_doctor_needs_host(ctx, r))
		return NULL;
	json_t *p = fw_doctor_sev_probe(ctx->host);
	if (!p) {
		fw_check_skip(r, FW_SEV_PROBE_PATH,
			      "The platform was not probed: `fwlens snapshot capture` run as root on the machine records it.");
		return NULL;
	}
	json_t *o = p;
	char key[32];
	for (const char *k = part; o && *k;) {
		size_t n = strcspn(k, "/");
		snprintf(key, sizeof(key), "%.*s", (int)n, k);
		o = json_object_get(o, key);
		k += n + (k[n] ? 1 : 0);
	}
	if (!json_is_object(o))
		fw_check_skip(r, FW_SEV_PROBE_PATH, "The probe holds no %s (captured by an older fwlens).", what);
	else if (!is_read(o))
		fw_check_skip(r, str(o, "source"), "%s not read: %s", what, str(o, "why"));
	else
		return *probe = p, o;
	json_decref(p);
	return NULL;
}

/* The BIOS setting behind a check, as evidence; the setting's text value or NULL when unknown. */
static const char *setting_evidence(const struct fw_doctor_ctx *ctx, struct fw_check_result *r, const char *prompt,
				    char *buf, size_t len)
{
	struct fw_doctor_setting s;
	memset(&s, 0, sizeof(s));
	if (!ctx->src.setting || !ctx->src.setting(ctx->src.setting_ctx, prompt, &s))
		return NULL;
	if (!s.has_current) {
		fw_check_evidence(r, FW_EVIDENCE_SETTING, s.varstore ? s.varstore : "", "BIOS %s: not stored", prompt);
		return NULL;
	}
	if (s.current_text)
		snprintf(buf, len, "%s", s.current_text);
	else
		snprintf(buf, len, "0x%" PRIx64, s.current);
	fw_check_evidence(r, FW_EVIDENCE_SETTING, s.value_from ? s.value_from : (s.varstore ? s.varstore : ""),
			  "BIOS %s = %s (%s+0x%x)", prompt, buf, s.varstore ? s.varstore : "?", s.offset);
	return buf;
}

/* /proc/cpuinfo: family, model and stepping of the first CPU and every CPU's microcode level. */
static void read_cpus(const struct fw_host *h, struct fw_cpu_gen *c, uint32_t minimum)
{
	fw_cpu_read(h ? h->machine : NULL, minimum, c);
}

/* ---- tier 1 --------------------------------------------------------------------------------- */

#define HWCR_SMM_LOCK 1u

void fw_check_sec_smm_lock(const struct fw_doctor_ctx *ctx, struct fw_check_result *r)
{
	char buf[64];
	if (ctx->host)
		setting_evidence(ctx, r, "SMM Lock", buf, sizeof(buf));
	json_t *probe, *hw = probed(ctx, r, "hwcr", "HWCR (MSR C001_0015) of each CPU", &probe);
	if (!hw)
		return;
	json_t *cpus = json_object_get(hw, "cpus"), *c;
	size_t i, locked = 0, unlocked = 0;
	char first_unlocked[64] = "";
	json_array_foreach(cpus, i, c)
	{
		uint64_t v;
		if (!hexfield(c, "hwcr", &v))
			continue; /* not a value read */
		if (v & HWCR_SMM_LOCK) {
			locked++;
		} else {
			if (!unlocked++)
				snprintf(first_unlocked, sizeof(first_unlocked), "CPU %lld HWCR %s",
					 json_integer_value(json_object_get(c, "cpu")), str(c, "hwcr"));
		}
	}
	struct fw_cpu_gen cp;
	read_cpus(ctx->host, &cp, 0);
	fw_check_evidence(r, FW_EVIDENCE_FILE, FW_SEV_PROBE_PATH,
			  "HWCR SmmLock (bit 0) set on %zu of %zu CPUs read (%lld msr nodes listed, %zu CPUs in /proc/cpuinfo)",
			  locked, locked + unlocked, json_integer_value(json_object_get(hw, "cpus_listed")), cp.count);
	if (unlocked)
		fw_check_setf(r, FW_CHECK_FAIL,
			      "Set SMM Lock to Enabled in the BIOS (or update it): with SmmLock clear, ring-0 code can change "
			      "the SMM memory ranges and run code in SMM.",
			      "SmmLock is clear on %zu of the CPUs read (first: %s): SMRAM is not locked.", unlocked,
			      first_unlocked);
	else if (!locked)
		fw_check_skip(r, FW_SEV_PROBE_PATH, "No CPU's HWCR was read.");
	else if (cp.count && locked < cp.count)
		fw_check_setf(r, FW_CHECK_WARN, "Capture as root with the msr module loaded, so every CPU's HWCR is read.",
			      "SmmLock is set on every CPU read, but only %zu of the %zu CPUs were read.", locked, cp.count);
	else
		fw_check_setf(r, FW_CHECK_PASS, NULL, "SmmLock is set on all %zu CPUs read.", locked);
	json_decref(probe);
}

/* SMRAM's protection from SMM_ADDR and SMM_MASK of each CPU read (msr-smm.h): TValid set on every
 * CPU keeps the OS out of TSeg; TClose set while the OS runs lets SMM's own data accesses be
 * redirected (SinkClose, CVE-2023-31315); every CPU should describe the same TSeg. */
void fw_check_sec_smm_tseg(const struct fw_doctor_ctx *ctx, struct fw_check_result *r)
{
	json_t *probe,
		*smm = probed(ctx, r, "smm", "SMM_ADDR and SMM_MASK (MSR C001_0112, C001_0113) of each CPU", &probe);
	if (!smm)
		return;
	json_t *cpus = json_object_get(smm, "cpus"), *c;
	size_t i, read = 0, invalid = 0, closed = 0, differ = 0;
	char first_invalid[96] = "", first_closed[96] = "", first_differ[96] = "";
	struct fw_smm_ranges first;
	memset(&first, 0, sizeof(first));
	json_array_foreach(cpus, i, c)
	{
		uint64_t addr, mask;
		if (!hexfield(c, "smm_addr", &addr) || !hexfield(c, "smm_mask", &mask))
			continue; /* not a value read */
		struct fw_smm_ranges s;
		fw_smm_ranges_decode(addr, mask, &s);
		long long cpu = json_integer_value(json_object_get(c, "cpu"));
		if (!read++) {
			first = s;
			char range[96];
			if (s.tseg_defined)
				snprintf(range, sizeof(range), "TSeg base 0x%" PRIx64 " size %" PRIu64 " KiB (%s)", s.tseg_base,
					 s.tseg_size >> 10, fw_smm_memory_type(s.tm_type_dram));
			else
				snprintf(range, sizeof(range), "no TSeg range (TSegMask 0)");
			fw_check_evidence(r, FW_EVIDENCE_FILE, FW_SEV_PROBE_PATH,
					  "CPU %lld SMM_ADDR %s SMM_MASK %s: %s, TValid %d TClose %d, AValid %d AClose %d", cpu,
					  str(c, "smm_addr"), str(c, "smm_mask"), range, s.tvalid, s.tclose, s.avalid, s.aclose);
		}
		if (!s.tvalid && !invalid++)
			snprintf(first_invalid, sizeof(first_invalid), "CPU %lld SMM_MASK %s", cpu, str(c, "smm_mask"));
		if (s.tclose && !closed++)
			snprintf(first_closed, sizeof(first_closed), "CPU %lld SMM_MASK %s", cpu, str(c, "smm_mask"));
		if ((s.tseg_base != first.tseg_base || s.tseg_size != first.tseg_size) && !differ++)
			snprintf(first_differ, sizeof(first_differ), "CPU %lld SMM_ADDR %s SMM_MASK %s", cpu,
				 str(c, "smm_addr"), str(c, "smm_mask"));
	}
	struct fw_cpu_gen cp;
	read_cpus(ctx->host, &cp, 0);
	fw_check_evidence(r, FW_EVIDENCE_FILE, FW_SEV_PROBE_PATH,
			  "TValid set on %zu, TClose set on %zu of %zu CPUs read (%lld msr nodes listed, %zu CPUs in "
			  "/proc/cpuinfo)",
			  read - invalid, closed, read, json_integer_value(json_object_get(smm, "cpus_listed")), cp.count);
	if (read) {
		char b[24];
		r->data = json_object();
		snprintf(b, sizeof(b), "0x%" PRIx64, first.tseg_base);
		json_object_set_new(r->data, "tseg_base", json_string(b));
		json_object_set_new(r->data, "tseg_size",
				    first.tseg_defined ? json_integer((json_int_t)first.tseg_size) : json_null());
		json_object_set_new(r->data, "tseg_memory_type",
				    first.tseg_defined ? json_string(fw_smm_memory_type(first.tm_type_dram)) : json_null());
		json_object_set_new(r->data, "cpus_read", json_integer((json_int_t)read));
		json_object_set_new(r->data, "tvalid_clear", json_integer((json_int_t)invalid));
		json_object_set_new(r->data, "tclose_set", json_integer((json_int_t)closed));
		json_object_set_new(r->data, "tseg_differs", json_integer((json_int_t)differ));
	}
	if (!read)
		fw_check_skip(r, FW_SEV_PROBE_PATH, "No CPU's SMM_ADDR and SMM_MASK were read.");
	else if (invalid)
		fw_check_setf(r, FW_CHECK_FAIL,
			      "Update the BIOS: it must set TValid (SMM_MASK bit 1) on every core before it locks SMM.",
			      "TSeg protection (TValid) is off on %zu of the %zu CPUs read (first: %s): code outside SMM can "
			      "read and write SMRAM there.",
			      invalid, read, first_invalid);
	else if (closed)
		fw_check_setf(r, FW_CHECK_FAIL,
			      "Update the BIOS to one with AMD's SinkClose mitigation (AMD-SB-7014) and look for what set "
			      "TClose.",
			      "TClose (SMM_MASK bit 3) is set on %zu of the %zu CPUs read while the OS runs (first: %s): SMM's "
			      "data accesses to TSeg go to MMIO, the precondition of SinkClose (CVE-2023-31315).",
			      closed, read, first_closed);
	else if (differ)
		fw_check_setf(r, FW_CHECK_WARN, "Update the BIOS; report the CPUs to its vendor.",
			      "The CPUs describe different TSeg ranges (first differing: %s): SMRAM may be unprotected on "
			      "some of them.",
			      first_differ);
	else if (cp.count && read < cp.count)
		fw_check_setf(r, FW_CHECK_WARN, "Capture as root with the msr module loaded, so every CPU is read.",
			      "TSeg is protected on every CPU read, but only %zu of the %zu CPUs were read.", read, cp.count);
	else
		fw_check_setf(r, FW_CHECK_PASS, NULL,
			      "TSeg (0x%" PRIx64 ", %" PRIu64 " KiB) is protected (TValid set, TClose clear) on all %zu CPUs "
			      "read.",
			      first.tseg_base, first.tseg_size >> 10, read);
	json_decref(probe);
}

/* BIOS setup items that keep the flash from being written by the OS (as AMI and AMD CBS name them). */
static const char *const write_protect_prompts[] = {
	"BIOS Write Protect", "BIOS Lock", "SPI Write Protect", "Flash Write Protection", "SPI ROM Protection",
	"ROM Armor", "BIOS Flash Protection", NULL,
};

/* The PSP security attributes the ccp driver exports (Documentation/ABI/testing/sysfs-driver-ccp). */
static bool psp_attribute(const struct fw_host *h, const char *name, int *value, char *from, size_t fromlen)
{
	for (size_t i = 0; i < h->npci; i++) {
		snprintf(from, fromlen, "sys/bus/pci/devices/%s/%s", h->pci[i].bdf, name);
		char *t = fw_machine_read_text(h->machine, from);
		if (t) {
			*value = atoi(t);
			free(t);
			return true;
		}
	}
	return false;
}

/* The signature of the image given with --image or stored in the snapshot, as `fwlens verify`
 * checks it: 1 valid, 0 invalid, -1 not checked (why says so). */
static int image_signature(const struct fw_doctor_ctx *ctx, char *why, size_t len)
{
	if (!ctx->src.image) {
		if (ctx->src.image_name)
			snprintf(why, len, "the forms of %s came from the cache, its bytes were not read (--no-cache, or "
				 "`fwlens verify`)", ctx->src.image_name);
		else
			snprintf(why, len, "no BIOS image given");
		return -1;
	}
	if (fw_input_recognise_bytes(ctx->src.image, ctx->src.image_len, NULL, FW_INPUT_BIT(FW_INPUT_CAPSULE)) !=
	    FW_INPUT_CAPSULE) {
		snprintf(why, len, "%s is not a signed capsule at offset 0 (`fwlens verify` finds an embedded header)",
			 ctx->src.image_name ? ctx->src.image_name : "the image");
		return -1;
	}
	struct fw_error err;
	fw_error_clear(&err);
	struct fw_view v = fw_view_make(ctx->src.image, ctx->src.image_len, 0), payload;
	struct fw_tree *t = fw_tree_new(NULL);
	struct fw_node *n = fw_capsule_parse(t, NULL, &v, &payload, &err);
	struct fw_verify_report rep;
	memset(&rep, 0, sizeof(rep));
	int out = -1;
	if (n && fw_capsule_verify(fw_capsule_of(n), NULL, &rep, &err)) {
		out = rep.valid;
		snprintf(why, len, "%s", rep.valid ? "every signature verifies" : "a signature does not verify");
		for (size_t i = 0; i < rep.nsigs && !rep.valid; i++)
			if (!rep.sigs[i].valid) {
				snprintf(why, len, "the %s signature does not verify: %s", rep.sigs[i].role, rep.sigs[i].detail);
				break;
			}
	} else {
		snprintf(why, len, "%s", err.msg);
	}
	fw_verify_report_free(&rep);
	fw_tree_free(t);
	return out;
}

void fw_check_sec_bios_write_protection(const struct fw_doctor_ctx *ctx, struct fw_check_result *r)
{
	size_t good = 0, bad = 0;
	char buf[64], bad_what[256] = "";
	for (size_t i = 0; write_protect_prompts[i]; i++) {
		const char *v = setting_evidence(ctx, r, write_protect_prompts[i], buf, sizeof(buf));
		if (!v)
			continue;
		if (strncasecmp(v, "Enable", 6) == 0)
			good++;
		else if (strncasecmp(v, "Disable", 7) == 0 && !bad++)
			snprintf(bad_what, sizeof(bad_what), "BIOS %s is %s", write_protect_prompts[i], v);
	}
	if (ctx->host) {
		static const char *const attrs[] = {"rom_armor_enforced", "rpmc_production_enabled"};
		for (size_t i = 0; i < 2; i++) {
			char from[512];
			int v;
			if (!psp_attribute(ctx->host, attrs[i], &v, from, sizeof(from)))
				continue;
			fw_check_evidence(r, FW_EVIDENCE_FILE, from, "%s = %d", attrs[i], v);
			if (v)
				good++;
			else if (i == 0 && !bad++)
				snprintf(bad_what, sizeof(bad_what), "the PSP reports ROM Armor not enforced");
		}
	}
	size_t protections = good; /* signs of write protection, apart from the image's signature */
	char why[600];
	int sig = image_signature(ctx, why, sizeof(why));
	if (sig >= 0) {
		fw_check_evidence(r, "image", ctx->src.image_name ? ctx->src.image_name : "image", "capsule signature: %s", why);
		if (!sig && !bad++)
			snprintf(bad_what, sizeof(bad_what), "the BIOS image's signature does not verify (%s)", why);
	} else {
		fw_check_evidence(r, FW_EVIDENCE_ABSENT, "image", "capsule signature not checked: %s", why);
	}
	if (bad)
		fw_check_setf(r, FW_CHECK_FAIL, "Enable the flash protection in the BIOS; flash only images whose signature verifies.",
			      "Write protection is off or the image is not authentic: %s.", bad_what);
	else if (protections)
		fw_check_setf(r, FW_CHECK_PASS, NULL, "%zu sign%s of write protection%s, none against it.", protections,
			      protections == 1 ? "" : "s", sig == 1 ? " and a capsule whose signature verifies" : "");
	else
		fw_check_setf(r, FW_CHECK_SKIP, NULL,
			      "Write protection is not known: the BIOS forms expose no flash write-protection setting and the "
			      "ccp driver no PSP security attributes%s.",
			      sig == 1 ? " (the image's signature verifies, which says the image is authentic, not that the "
					 "flash is protected)"
				       : "");
}

/* An efivar holding one byte (SecureBoot, SetupMode): its value, or -1 when absent. */
static int efivar_u8(const struct fw_host *h, const char *name, struct fw_check_result *r)
{
	struct fw_view v;
	char from[256];
	uint8_t b;
	if (!efivar(h, name, EFI_GLOBAL, &v, from, sizeof(from)) || !fw_rd_u8(&v, 0, &b, NULL)) {
		fw_check_evidence(r, FW_EVIDENCE_ABSENT, from, "%s not present", name);
		return -1;
	}
	fw_check_evidence(r, FW_EVIDENCE_FILE, from, "%s = %u", name, b);
	return b;
}

/* A signature database variable: whether present, its decoded lists (caller frees), and why not. */
static bool sigdb(const struct fw_host *h, const char *name, const char *guid, struct fw_sigdb *db, char *from,
		  size_t fromlen, char *why, size_t whylen)
{
	memset(db, 0, sizeof(*db));
	struct fw_view v;
	if (!efivar(h, name, guid, &v, from, fromlen)) {
		snprintf(why, whylen, "not present");
		return false;
	}
	struct fw_error err;
	fw_error_clear(&err);
	if (!fw_sigdb_parse(&v, db, &err)) {
		snprintf(why, whylen, "%s", err.msg);
		return false;
	}
	return true;
}

void fw_check_sec_secure_boot(const struct fw_doctor_ctx *ctx, struct fw_check_result *r)
{
	if (!fw_doctor_needs_host(ctx, r))
		return;
	const struct fw_host *h = ctx->host;
	if (!efivarfs_captured(h)) {
		fw_check_skip(r, EFIVARS, "The EFI variables were not captured (no efivarfs on the machine).");
		return;
	}
	int sb = efivar_u8(h, "SecureBoot", r), setup = efivar_u8(h, "SetupMode", r);
	static const struct {
		const char *name, *guid;
	} dbs[] = {{"PK", EFI_GLOBAL}, {"KEK", EFI_GLOBAL}, {"db", EFI_IMAGE_SECURITY}};
	char missing[64] = "";
	for (size_t i = 0; i < 3; i++) {
		struct fw_sigdb db;
		char from[256], why[256];
		if (sigdb(h, dbs[i].name, dbs[i].guid, &db, from, sizeof(from), why, sizeof(why)) && db.count) {
			fw_check_evidence(r, FW_EVIDENCE_FILE, from, "%s: %zu entr%s in %u list%s", dbs[i].name, db.count,
					  db.count == 1 ? "y" : "ies", db.lists, db.lists == 1 ? "" : "s");
		} else {
			fw_check_evidence(r, FW_EVIDENCE_ABSENT, from, "%s: %s", dbs[i].name, db.lists ? "empty" : why);
			size_t u = strlen(missing);
			snprintf(missing + u, sizeof(missing) - u, "%s%s", u ? ", " : "", dbs[i].name);
		}
		fw_sigdb_free(&db);
	}
	if (sb < 0)
		fw_check_set(r, FW_CHECK_SKIP, "Not known: the SecureBoot variable was not captured.", NULL);
	else if (sb != 1)
		fw_check_setf(r, FW_CHECK_FAIL, "Enroll PK, KEK and db (your own or the vendor's) and enable Secure Boot in the BIOS.",
			      "Secure Boot is off (SecureBoot = %d)%s%s.", sb, missing[0] ? "; missing: " : "", missing);
	else if (setup > 0)
		fw_check_setf(r, FW_CHECK_FAIL, "Enroll a platform key: the firmware then leaves setup mode.",
			      "The firmware is in setup mode (SetupMode = %d): anyone can enroll keys.", setup);
	else if (missing[0])
		fw_check_setf(r, FW_CHECK_FAIL, "Enroll the missing databases.", "Secure Boot is on but %s %s missing or empty.",
			      missing, strchr(missing, ',') ? "are" : "is");
	else
		fw_check_set(r, FW_CHECK_PASS, "Secure Boot is on, the firmware is in user mode, and PK, KEK and db are enrolled.",
			     NULL);
}

/* Test platform keys shipped in production firmware (PKfail, CVE-2024-8105): AMI's reference
 * code's "DO NOT TRUST - AMI Test PK" and other vendors' "DO NOT SHIP" keys. */
static const char *const test_key_marks[] = {"DO NOT TRUST", "DO NOT SHIP", NULL};

void fw_check_sec_pk_test_key(const struct fw_doctor_ctx *ctx, struct fw_check_result *r)
{
	if (!fw_doctor_needs_host(ctx, r))
		return;
	struct fw_sigdb db;
	char from[256], why[256];
	if (!efivarfs_captured(ctx->host)) {
		fw_check_skip(r, EFIVARS, "The EFI variables were not captured (no efivarfs on the machine).");
		return;
	}
	if (!sigdb(ctx->host, "PK", EFI_GLOBAL, &db, from, sizeof(from), why, sizeof(why))) {
		fw_check_skip(r, from, "No platform key to judge (PK %s).", why);
		return;
	}
	size_t certs = 0;
	const struct fw_sigdb_entry *test = NULL;
	for (size_t i = 0; i < db.count; i++) {
		const struct fw_sigdb_entry *e = &db.items[i];
		if (!e->x509)
			continue;
		certs++;
		fw_check_evidence(r, FW_EVIDENCE_FILE, from, "PK certificate: subject %s, issuer %s, SHA-256 %s",
				  e->subject ? e->subject : "?", e->issuer ? e->issuer : "?", e->sha256);
		for (size_t k = 0; test_key_marks[k] && !test; k++)
			if ((e->subject && strcasestr(e->subject, test_key_marks[k])) ||
			    (e->issuer && strcasestr(e->issuer, test_key_marks[k])))
				test = e;
	}
	if (test)
		fw_check_setf(r, FW_CHECK_FAIL,
			      "Enroll your own platform key (or a BIOS update with the vendor's): the test key's private half "
			      "is public, so anyone can sign KEK and db updates and boot code of their choice.",
			      "The platform key is a test key (PKfail, CVE-2024-8105): subject %s.", test->subject);
	else if (!certs)
		fw_check_skip(r, from, "The PK holds no X.509 certificate that could be read (%zu entries).", db.count);
	else
		fw_check_setf(r, FW_CHECK_PASS, NULL, "The platform key is not a known test key (%zu certificate%s).", certs,
			      certs == 1 ? "" : "s");
	fw_sigdb_free(&db);
}

void fw_check_sec_microcode(const struct fw_doctor_ctx *ctx, struct fw_check_result *r)
{
	if (!fw_doctor_needs_host(ctx, r))
		return;
	struct fw_cpu_gen c;
	read_cpus(ctx->host, &c, 0);
	if (!c.known || !c.microcode_lowest) {
		fw_check_skip(r, "proc/cpuinfo", "/proc/cpuinfo with the CPU family and microcode level was not captured.");
		return;
	}
	size_t i = 0;
	const struct fw_sec_minimum *row = fw_sec_minimum_next(FW_SEC_MIN_MICROCODE, c.family, c.model, c.stepping, &i);
	read_cpus(ctx->host, &c, row ? row->value : 0);
	fw_check_evidence(r, FW_EVIDENCE_FILE, "proc/cpuinfo",
			  "family %02Xh model %02Xh stepping %u (%s), %zu CPUs, microcode 0x%08x%s", c.family, c.model,
			  c.stepping, c.model_name, c.count, c.microcode_lowest, c.microcode_lowest == c.microcode_highest ? " on every CPU" : " lowest");
	if (!row) {
		fw_check_setf(r, FW_CHECK_SKIP, NULL,
			      "Not known: fwlens has no bulletin minimum for family %02Xh model %02Xh stepping %u.", c.family,
			      c.model, c.stepping);
		return;
	}
	fw_check_evidence(r, "bulletin", row->source, "%s: minimum microcode 0x%08x (%s)", row->codename, row->value,
			  row->bulletin);
	if (c.below)
		fw_check_setf(r, FW_CHECK_FAIL,
			      "Update the BIOS to one whose AGESA carries the fixed microcode (a late load from the OS does "
			      "not fix the signature check, which runs before it).",
			      "%zu CPUs run microcode 0x%08x, below the 0x%08x %s names for %s.", c.below, c.microcode_lowest, row->value,
			      row->bulletin, row->codename);
	else
		fw_check_setf(r, FW_CHECK_PASS, NULL, "Microcode 0x%08x is at or above the 0x%08x %s names for %s.", c.microcode_lowest,
			      row->value, row->bulletin, row->codename);
}

/* ---- tier 2 --------------------------------------------------------------------------------- */

#define IVINFO_DMA_REMAP 0x2u

void fw_check_sec_dma_protection(const struct fw_doctor_ctx *ctx, struct fw_check_result *r)
{
	if (!fw_doctor_needs_host(ctx, r))
		return;
	const struct fw_host *h = ctx->host;
	char buf[64];
	setting_evidence(ctx, r, "Pre-boot DMA Protection", buf, sizeof(buf));
	setting_evidence(ctx, r, "Kernel DMA Protection Indicator", buf, sizeof(buf));
	uint32_t ivinfo;
	if (!ctx->src.ivinfo || !ctx->src.ivinfo(ctx->src.acpi_ctx, &ivinfo)) {
		fw_check_skip(r, "IVRS", "No IVRS table was captured: the firmware's DMA remapping flag is not known.");
		return;
	}
	bool remap = ivinfo & IVINFO_DMA_REMAP;
	fw_check_evidence(r, FW_EVIDENCE_TABLE, "IVRS IVinfo", "IVinfo 0x%08x: DMA remap support (bit 1) %s", ivinfo,
			  remap ? "set" : "clear");
	const char *why = NULL;
	bool pt = fw_doctor_passthrough(h, &why);
	struct fw_group_counts gc;
	size_t groups = fw_doctor_group_types(h, &gc);
	fw_check_evidence(r, FW_EVIDENCE_FILE, "sys/class/iommu, sys/kernel/iommu_groups",
			  "%zu IOMMU units, %zu groups (%zu DMA, %zu DMA-FQ, %zu identity)%s%s", h->niommus, groups, gc.dma,
			  gc.dma_fq, gc.identity, pt ? "; command line " : "", pt ? why : "");
	if (!remap)
		fw_check_set(r, FW_CHECK_FAIL,
			     "The firmware does not report pre-boot DMA protection (IVinfo DMA remap clear): devices can DMA into "
			     "memory before and while the OS takes over the IOMMU.",
			     "Set Pre-boot DMA Protection and Kernel DMA Protection Indicator to Enabled (NBIO > IOMMU/Security).");
	else if (!h->niommus && !groups)
		fw_check_set(r, FW_CHECK_WARN,
			     "The firmware protects DMA before boot, but the kernel shows no IOMMU (no sys/class/iommu entries or "
			     "IOMMU groups were captured, or the IOMMU is off).",
			     "Keep the IOMMU on (no amd_iommu=off) and capture sys/class/iommu.");
	else if (pt)
		fw_check_setf(r, FW_CHECK_WARN, "Remove it: keep the default translated mode.",
			      "The firmware protects DMA before boot, but %s lets devices reach all memory after it.", why);
	else
		fw_check_set(r, FW_CHECK_PASS,
			     "The firmware reports DMA remapping and the kernel keeps the IOMMU in translated mode.", NULL);
}

/* Whether db trusts a Microsoft certificate: the published revocations are of code Microsoft's
 * CAs signed, so they matter only then. 1 yes, 0 no (db read, no such certificate), -1 not known. */
static int db_trusts_microsoft(const struct fw_host *h, struct fw_check_result *r)
{
	struct fw_sigdb db;
	char from[256], why[256];
	if (!sigdb(h, "db", EFI_IMAGE_SECURITY, &db, from, sizeof(from), why, sizeof(why))) {
		fw_check_evidence(r, FW_EVIDENCE_ABSENT, from, "db: %s", why);
		return -1;
	}
	const char *subject = NULL;
	size_t certs = 0;
	for (size_t i = 0; i < db.count; i++)
		if (db.items[i].x509 && db.items[i].subject) {
			certs++;
			if (!subject && strstr(db.items[i].subject, "Microsoft"))
				subject = db.items[i].subject;
		}
	if (subject)
		fw_check_evidence(r, FW_EVIDENCE_FILE, from, "db trusts %s", subject);
	else
		fw_check_evidence(r, FW_EVIDENCE_FILE, from, "db: no Microsoft certificate among %zu certificate%s", certs,
				  certs == 1 ? "" : "s");
	int out = subject ? 1 : db.count ? 0 : -1;
	fw_sigdb_free(&db);
	return out;
}

/* How many of a release's markers the dbx holds. */
static size_t dbx_markers_held(const struct fw_sigdb *db, const struct fw_dbx_release *rel, size_t *markers)
{
	size_t held = 0;
	*markers = 0;
	for (size_t m = 0; m < FW_DBX_MARKERS && rel->markers[m]; m++) {
		(*markers)++;
		for (size_t i = 0; i < db->count; i++) {
			const struct fw_sigdb_entry *e = &db->items[i];
			char hex[2 * 32 + 1];
			const char *have = NULL;
			if (rel->certificate && e->x509)
				have = e->sha256;
			else if (!rel->certificate && e->type_name && strcmp(e->type_name, "SHA256") == 0 && e->size == 32)
				have = fw_hex(e->data, 32, hex);
			if (have && strcasecmp(have, rel->markers[m]) == 0) {
				held++;
				break;
			}
		}
	}
	return held;
}

/* Appends "DATE (WHAT)" or "DATE" to a list of releases. */
static void release_list_add(char *list, size_t len, const struct fw_dbx_release *rel, const char *note, bool what)
{
	size_t u = strlen(list);
	snprintf(list + u, len - u, "%s%s%s%s%s%s", u ? "; " : "", rel->date, what ? " (" : "", what ? rel->what : "",
		 what ? ")" : "", note);
}

void fw_check_sec_dbx(const struct fw_doctor_ctx *ctx, struct fw_check_result *r)
{
	if (!fw_doctor_needs_host(ctx, r))
		return;
	if (!efivarfs_captured(ctx->host)) {
		fw_check_skip(r, EFIVARS, "The EFI variables were not captured (no efivarfs on the machine).");
		return;
	}
	struct fw_sigdb db;
	char from[256], why[256];
	bool ok = sigdb(ctx->host, "dbx", EFI_IMAGE_SECURITY, &db, from, sizeof(from), why, sizeof(why));
	size_t hashes = 0, certs = 0;
	for (size_t i = 0; ok && i < db.count; i++) {
		if (db.items[i].x509)
			certs++;
		else if (db.items[i].type_name && strncmp(db.items[i].type_name, "SHA", 3) == 0)
			hashes++;
	}
	if (!ok) {
		fw_check_evidence(r, FW_EVIDENCE_ABSENT, from, "dbx: %s", why);
		fw_check_set(r, FW_CHECK_FAIL,
			     "There is no revocation list: boot loaders with known holes (BootHole, BlackLotus) still boot.",
			     "Apply the UEFI revocation list (fwupd's dbx updates, or the BIOS vendor's).");
		fw_sigdb_free(&db);
		return;
	}
	fw_check_evidence(r, FW_EVIDENCE_FILE, from, "dbx: %zu entries in %u lists (%zu hashes, %zu certificates)", db.count,
			  db.lists, hashes, certs);
	if (!db.count) {
		fw_check_set(r, FW_CHECK_FAIL, "The revocation list is empty: no revoked boot loader is refused.",
			     "Apply the UEFI revocation list (fwupd's dbx updates, or the BIOS vendor's).");
		fw_sigdb_free(&db);
		return;
	}
	/* each known release: held (every marker), partly, or not at all */
	char held[1024] = "", lacking[2048] = "";
	size_t nheld = 0, nlacking = 0;
	const struct fw_dbx_release *critical_lacking = NULL;
	json_t *rows = json_array();
	for (size_t i = 0; i < fw_dbx_release_count; i++) {
		const struct fw_dbx_release *rel = &fw_dbx_releases[i];
		size_t markers, n = dbx_markers_held(&db, rel, &markers);
		const char *state = n == markers ? "held" : n ? "partly held" : "not held";
		fw_check_evidence(r, "dbx-release", rel->source, "%s release %s (%s; %u x64 hashes published by then): %zu of %zu marker %s in dbx",
				  rel->certificate ? "certificate" : "hash", rel->date, rel->what, rel->x64_hashes, n, markers,
				  rel->certificate ? "certificate" : "hashes");
		json_t *o = json_object();
		json_object_set_new(o, "date", json_string(rel->date));
		json_object_set_new(o, "what", json_string(rel->what));
		json_object_set_new(o, "critical", json_boolean(rel->critical));
		json_object_set_new(o, "x64_hashes", json_integer(rel->x64_hashes));
		json_object_set_new(o, "markers", json_integer((json_int_t)markers));
		json_object_set_new(o, "markers_held", json_integer((json_int_t)n));
		json_object_set_new(o, "state", json_string(state));
		json_object_set_new(o, "source", json_string(rel->source));
		json_array_append_new(rows, o);
		if (n == markers) {
			nheld++;
			release_list_add(held, sizeof(held), rel, "", false);
		} else {
			nlacking++;
			char note[48] = "";
			if (n)
				snprintf(note, sizeof(note), ", %zu of %zu markers", n, markers);
			release_list_add(lacking, sizeof(lacking), rel, note, true);
			if (rel->critical && !critical_lacking)
				critical_lacking = rel;
		}
	}
	int microsoft = db_trusts_microsoft(ctx->host, r);
	r->data = json_object();
	json_object_set_new(r->data, "snapshot", json_string(FW_DBX_SNAPSHOT_DATE));
	json_object_set_new(r->data, "dbx_sha256_hashes", json_integer((json_int_t)hashes));
	json_object_set_new(r->data, "db_trusts_microsoft", microsoft < 0 ? json_null() : json_boolean(microsoft));
	json_object_set_new(r->data, "releases", rows);
	char known[160];
	snprintf(known, sizeof(known),
		 "fwlens knows %zu releases, a snapshot of Microsoft's published list as of %s: later releases are not known",
		 fw_dbx_release_count, FW_DBX_SNAPSHOT_DATE);
	if (!nlacking)
		fw_check_setf(r, FW_CHECK_PASS, NULL, "dbx holds the revocations of every release fwlens knows (%s); %s.", held,
			      known);
	else if (microsoft == 0)
		fw_check_setf(r, FW_CHECK_PASS, NULL,
			      "db trusts no Microsoft certificate, so the published revocations (of code Microsoft's CAs signed) "
			      "do not apply: %zu of %zu releases are not in dbx, which holds %zu revocations; %s.",
			      nlacking, fw_dbx_release_count, db.count, known);
	else if (critical_lacking)
		fw_check_setf(r, FW_CHECK_FAIL,
			      "Apply the current UEFI revocation list (fwupd's dbx update, or the BIOS vendor's); it adds "
			      "every release, older ones included.",
			      "dbx lacks the %s revocations (%s): that revoked boot code still boots%s. Holds: %s. Lacks: %s. %s.",
			      critical_lacking->date, critical_lacking->what,
			      microsoft < 0 ? " (whether db trusts Microsoft's CAs is not known)" : "", nheld ? held : "none",
			      lacking, known);
	else
		fw_check_setf(r, FW_CHECK_WARN, "Apply the current UEFI revocation list (fwupd's dbx update, or the BIOS vendor's).",
			      "dbx holds the BootHole and BlackLotus revocations but lacks later or smaller releases. Holds: %s. "
			      "Lacks: %s. %s.",
			      held, lacking, known);
	fw_sigdb_free(&db);
}

/* ---- tier 3 --------------------------------------------------------------------------------- */

void fw_check_sec_memory_encryption(const struct fw_doctor_ctx *ctx, struct fw_check_result *r)
{
	if (!fw_doctor_needs_host(ctx, r))
		return;
	const struct fw_host *h = ctx->host;
	char smee[64], tsme[64], snp[64];
	const char *bios_smee = setting_evidence(ctx, r, "SMEE", smee, sizeof(smee));
	const char *bios_tsme = setting_evidence(ctx, r, "TSME", tsme, sizeof(tsme));
	setting_evidence(ctx, r, "SEV-SNP Support", snp, sizeof(snp));
	int syscfg_me = fw_doctor_probed_syscfg(h, "mem_encrypt"), syscfg_snp = fw_doctor_probed_syscfg(h, "snp_en");
	if (syscfg_me >= 0)
		fw_check_evidence(r, FW_EVIDENCE_FILE, FW_SEV_PROBE_PATH, "SYSCFG MemEncryptionModEn %d, SNPEn %d", syscfg_me,
				  syscfg_snp);
	else
		fw_check_evidence(r, FW_EVIDENCE_ABSENT, FW_SEV_PROBE_PATH, "SYSCFG not read");
	char from[512];
	int tsme_status = -1;
	if (psp_attribute(h, "tsme_status", &tsme_status, from, sizeof(from)))
		fw_check_evidence(r, FW_EVIDENCE_FILE, from, "tsme_status = %d", tsme_status);
	const char *line = NULL;
	bool sme_active = false;
	if (h->dmesg && fw_host_log_lines(h, "Memory Encryption Features active", &line, 1)) {
		fw_check_evidence(r, FW_EVIDENCE_LOG, FW_KERNEL_LOG_PATH, "%.*s", (int)strcspn(line, "\n"), line);
		const char *colon = strstr(line, "active:");
		size_t n = strcspn(line, "\n");
		for (const char *p = colon; p && p < line + n; p++)
			if (strncmp(p, " SME", 4) == 0 && (p[4] == ' ' || p[4] == '\n' || p + 4 == line + n || p[4] == 0))
				sme_active = true;
	} else if (!h->dmesg) {
		fw_check_evidence(r, FW_EVIDENCE_ABSENT, FW_KERNEL_LOG_PATH, "kernel log not captured");
	}
	bool tsme_on = tsme_status == 1 || (tsme_status < 0 && bios_tsme && strncasecmp(bios_tsme, "Enable", 6) == 0 &&
					    syscfg_me == 1);
	if (sme_active || tsme_on)
		fw_check_setf(r, FW_CHECK_PASS, NULL, "Host memory is encrypted: %s%s%s.", sme_active ? "the kernel runs SME" : "",
			      sme_active && tsme_on ? " and " : "",
			      tsme_on ? (tsme_status == 1 ? "the PSP reports TSME on" : "TSME is Enabled in the BIOS with SYSCFG "
											  "MemEncryptionModEn set")
				      : "");
	else if (syscfg_me == 0 || (bios_smee && strncasecmp(bios_smee, "Disable", 7) == 0))
		fw_check_set(r, FW_CHECK_FAIL,
			     "Memory encryption is off in the BIOS (SMEE or SYSCFG MemEncryptionModEn): neither the host nor SEV "
			     "guests can encrypt memory.",
			     "Set SMEE to Enable; for the host's own memory also TSME, or mem_encrypt=on on the kernel command line.");
	else if (syscfg_me == 1)
		fw_check_setf(r, FW_CHECK_WARN, "Turn on TSME in the BIOS, or boot with mem_encrypt=on.",
			      "Memory encryption is available (SYSCFG MemEncryptionModEn set%s) but the host's own memory is not "
			      "shown encrypted: no TSME and the kernel does not run SME.",
			      syscfg_snp == 1 ? ", SNP on for guests" : "");
	else
		fw_check_set(r, FW_CHECK_SKIP,
			     "Not known: SYSCFG was not read, and neither the kernel log nor the PSP shows memory encryption.", NULL);
}

static void tcb_text(unsigned family, uint64_t v, char *buf, size_t len, json_t **data)
{
	struct fw_snp_tcb t;
	if (!fw_snp_tcb_decode(family, v, &t)) {
		snprintf(buf, len, "0x%016" PRIx64 " (layout of family %02Xh not known)", v, family);
		*data = json_null();
		return;
	}
	if (t.has_fmc)
		snprintf(buf, len, "0x%016" PRIx64 " = FMC %u, boot loader %u, TEE %u, SNP %u, microcode %u", v, t.fmc,
			 t.boot_loader, t.tee, t.snp, t.microcode);
	else
		snprintf(buf, len, "0x%016" PRIx64 " = boot loader %u, TEE %u, SNP %u, microcode %u", v, t.boot_loader, t.tee,
			 t.snp, t.microcode);
	json_t *o = json_object();
	char raw[24];
	snprintf(raw, sizeof(raw), "0x%016" PRIx64, v);
	json_object_set_new(o, "raw", json_string(raw));
	json_object_set_new(o, "layout", json_string(t.layout));
	if (t.has_fmc)
		json_object_set_new(o, "fmc", json_integer(t.fmc));
	json_object_set_new(o, "boot_loader", json_integer(t.boot_loader));
	json_object_set_new(o, "tee", json_integer(t.tee));
	json_object_set_new(o, "snp", json_integer(t.snp));
	json_object_set_new(o, "microcode", json_integer(t.microcode));
	*data = o;
}

/* The SNP firmware the PSP runs, against the floor SNP hosts need (SNP API 1.51, the one the
 * kernel and `snphost ok` apply) and the minimums AMD's bulletins name for the CPU
 * (security-minimums.c): the SEV firmware build the PSP reports, and the AGESA PI version of the
 * BIOS image (the bundle that carries the SEV firmware) where a bulletin names only that. */
#define SNP_API_MIN_MAJOR 1
#define SNP_API_MIN_MINOR 51

/* The AGESA version strings of the image given, from its decode or the cache (the inventory's
 * "agesa" fact, "; " between several); none when not known (why says so). */
struct agesa_list {
	char items[FW_VERSIONS_MAX_AGESA][96];
	size_t n;
};

static void image_agesa(const struct fw_doctor_ctx *ctx, struct agesa_list *v, char *why, size_t len)
{
	memset(v, 0, sizeof(*v));
	if (!ctx->src.image_name) {
		snprintf(why, len, "no BIOS image given (--image)");
		return;
	}
	for (const char *p = ctx->src.agesa; p && *p && v->n < FW_VERSIONS_MAX_AGESA;) {
		size_t n = strcspn(p, ";");
		snprintf(v->items[v->n++], sizeof(v->items[0]), "%.*s", (int)n, p);
		p += n + strspn(p + n, "; ");
	}
	if (!v->n)
		snprintf(why, len, "no AGESA version string in %s", ctx->src.image_name);
}

void fw_check_sec_sev_firmware(const struct fw_doctor_ctx *ctx, struct fw_check_result *r)
{
	json_t *probe, *snp = probed(ctx, r, "platform/snp", "SNP platform status", &probe);
	if (!snp)
		return;
	long long major = json_integer_value(json_object_get(snp, "api_major")),
		  minor = json_integer_value(json_object_get(snp, "api_minor")),
		  build = json_integer_value(json_object_get(snp, "build"));
	fw_check_evidence(r, FW_EVIDENCE_FILE, FW_SEV_PROBE_PATH, "SNP firmware API %lld.%lld build %lld", major, minor, build);
	if (major < SNP_API_MIN_MAJOR || (major == SNP_API_MIN_MAJOR && minor < SNP_API_MIN_MINOR)) {
		fw_check_setf(r, FW_CHECK_FAIL, "Update the BIOS (the SEV firmware comes with AGESA) or load a newer SEV firmware.",
			      "SNP firmware API %lld.%lld is below %d.%d, the oldest that runs SNP hosts.", major, minor,
			      SNP_API_MIN_MAJOR, SNP_API_MIN_MINOR);
		json_decref(probe);
		return;
	}
	struct fw_cpu_gen c;
	read_cpus(ctx->host, &c, 0);
	uint32_t running = FW_SEV_FW_VERSION(major & 0xff, minor & 0xff, build & 0xff);
	char below[512] = "", met[512] = "", unknown[256] = "";
	size_t rows = 0;
	const struct fw_sec_minimum *m;
	size_t i = 0;
	while (c.known && (m = fw_sec_minimum_next(FW_SEC_MIN_SEV_FW, c.family, c.model, c.stepping, &i))) {
		rows++;
		unsigned mj = m->value >> 16, mn = m->value >> 8 & 0xff, mb = m->value & 0xff;
		fw_check_evidence(r, "bulletin", m->source, "%s: minimum SEV firmware %u.%u build %u (%s)", m->codename, mj, mn,
				  mb, m->bulletin);
		char *to = running < m->value ? below : met;
		size_t u = strlen(to);
		snprintf(to + u, sizeof(below) - u, "%sSEV firmware %u.%u build %u (%s)", u ? "; " : "", mj, mn, mb, m->bulletin);
	}
	struct agesa_list v;
	char why[256] = "";
	bool agesa_read = false;
	i = 0;
	while (c.known && (m = fw_sec_minimum_next(FW_SEC_MIN_AGESA_PI, c.family, c.model, c.stepping, &i))) {
		rows++;
		fw_check_evidence(r, "bulletin", m->source, "%s: minimum AGESA %s (%s)", m->codename, m->pi, m->bulletin);
		if (!agesa_read) {
			image_agesa(ctx, &v, why, sizeof(why));
			agesa_read = true;
			for (size_t k = 0; k < v.n; k++)
				fw_check_evidence(r, "image", ctx->src.image_name,
						  "AGESA %s (of the BIOS image given: what the flash holds if it is that image)",
						  v.items[k]);
			if (why[0])
				fw_check_evidence(r, FW_EVIDENCE_ABSENT, "image", "AGESA version not known: %s", why);
		}
		const char *agesa = NULL;
		for (size_t k = 0; k < v.n && !agesa; k++)
			if (fw_agesa_pi_same_line(v.items[k], m->pi))
				agesa = v.items[k];
		int cmp;
		char *to = !agesa || !fw_agesa_pi_compare(agesa, m->pi, &cmp) ? unknown : cmp < 0 ? below : met;
		size_t u = strlen(to), room = (to == unknown ? sizeof(unknown) : sizeof(below)) - u;
		snprintf(to + u, room, "%sAGESA %s (%s)", u ? "; " : "", m->pi, m->bulletin);
	}
	char cpu[64];
	snprintf(cpu, sizeof(cpu), "family %02Xh model %02Xh", c.family, c.model);
	if (below[0])
		fw_check_setf(r, FW_CHECK_FAIL,
			      "Update the BIOS to one with the AGESA the bulletins name (it brings the SEV firmware), or load "
			      "the SEV firmware AMD publishes for this CPU (linux-firmware amd/amd_sev_fam*.sbin).",
			      "Below what AMD's bulletins name for %s: %s. The PSP runs SNP firmware %lld.%lld build %lld.", cpu,
			      below, major, minor, build);
	else if (!c.known)
		fw_check_setf(r, FW_CHECK_SKIP, NULL,
			      "SNP firmware %lld.%lld build %lld runs SNP hosts; the CPU family is not known (/proc/cpuinfo not "
			      "captured), so no bulletin minimum applies.",
			      major, minor, build);
	else if (!rows)
		fw_check_setf(r, FW_CHECK_SKIP, NULL,
			      "Not known: SNP firmware %lld.%lld build %lld runs SNP hosts, but fwlens has no bulletin minimum "
			      "for %s.",
			      major, minor, build, cpu);
	else if (unknown[0])
		fw_check_setf(r, FW_CHECK_SKIP, "Give the BIOS image with --image (or capture the snapshot with it).",
			      "Not known in full for %s: %s%s%snot known: %s, as %s.", cpu, met[0] ? "at or above " : "", met,
			      met[0] ? "; " : "", unknown, why[0] ? why : "the image's AGESA is of another line");
	else
		fw_check_setf(r, FW_CHECK_PASS, NULL,
			      "SNP firmware %lld.%lld build %lld; at or above what AMD's bulletins name for %s: %s.", major, minor,
			      build, cpu, met);
	json_decref(probe);
}

void fw_check_sec_snp_alias_check(const struct fw_doctor_ctx *ctx, struct fw_check_result *r)
{
	json_t *probe, *snp = probed(ctx, r, "platform/snp", "SNP platform status", &probe);
	if (!snp)
		return;
	json_t *alias = json_object_get(snp, "alias_check_complete");
	if (!json_is_boolean(alias))
		fw_check_skip(r, FW_SEV_PROBE_PATH, "The probe holds no alias-check bit (captured by an older fwlens).");
	else if (json_is_true(alias)) {
		fw_check_evidence(r, FW_EVIDENCE_FILE, FW_SEV_PROBE_PATH, "SNP_PLATFORM_STATUS flags %s: ALIAS_CHECK_COMPLETE 1",
				  str(snp, "status_flags"));
		fw_check_set(r, FW_CHECK_PASS,
			     "The firmware's memory alias check ran since the last reset and found no aliased addresses "
			     "(CVE-2024-21944, BadRAM).",
			     NULL);
	} else {
		fw_check_evidence(r, FW_EVIDENCE_FILE, FW_SEV_PROBE_PATH, "SNP_PLATFORM_STATUS flags %s: ALIAS_CHECK_COMPLETE 0",
				  str(snp, "status_flags"));
		fw_check_set(r, FW_CHECK_FAIL,
			     "The SNP firmware reports no completed memory alias check (CVE-2024-21944, BadRAM): DIMMs whose SPD "
			     "lies about their size can alias SNP-protected memory.",
			     "Update the BIOS to one with the AMD-SB-3015 mitigation (the check runs at SNP_INIT), then reboot.");
	}
	json_decref(probe);
}

/* The SNP feature bits of SNP_PLATFORM_STATUS (psp-sev.h, word at offset 8). */
static const char *const snp_feature_names[] = {
	"mask_chip_id", "mask_chip_key", "vlek_en", "feature_info", "rapl_dis", "ciphertext_hiding_cap",
	"ciphertext_hiding_en",
};

void fw_check_sec_snp_tcb(const struct fw_doctor_ctx *ctx, struct fw_check_result *r)
{
	json_t *probe, *snp = probed(ctx, r, "platform/snp", "SNP platform status", &probe);
	if (!snp)
		return;
	struct fw_cpu_gen c;
	read_cpus(ctx->host, &c, 0);
	uint64_t cur, rep;
	if (!hexfield(snp, "current_tcb", &cur) || !hexfield(snp, "reported_tcb", &rep)) {
		fw_check_skip(r, FW_SEV_PROBE_PATH, "The probe holds no TCB versions.");
		json_decref(probe);
		return;
	}
	char a[160], b[160];
	json_t *ja, *jb;
	tcb_text(c.known ? c.family : 0, cur, a, sizeof(a), &ja);
	tcb_text(c.known ? c.family : 0, rep, b, sizeof(b), &jb);
	fw_check_evidence(r, FW_EVIDENCE_FILE, FW_SEV_PROBE_PATH, "current TCB %s", a);
	fw_check_evidence(r, FW_EVIDENCE_FILE, FW_SEV_PROBE_PATH, "reported TCB %s", b);
	r->data = json_object();
	json_object_set_new(r->data, "current_tcb", ja);
	json_object_set_new(r->data, "reported_tcb", jb);
	if (json_is_string(json_object_get(snp, "features"))) {
		uint64_t f = hexval(snp, "features");
		char names[256] = "";
		json_t *feat = json_object();
		for (size_t i = 0; i < sizeof(snp_feature_names) / sizeof(snp_feature_names[0]); i++) {
			json_object_set_new(feat, snp_feature_names[i], json_boolean(f >> i & 1));
			if (f >> i & 1) {
				size_t u = strlen(names);
				snprintf(names + u, sizeof(names) - u, "%s%s", u ? " " : "", snp_feature_names[i]);
			}
		}
		json_object_set_new(r->data, "features", feat);
		fw_check_evidence(r, FW_EVIDENCE_FILE, FW_SEV_PROBE_PATH, "SNP feature word %s: %s", str(snp, "features"),
				  names[0] ? names : "none set");
	}
	if (cur != rep)
		fw_check_set(r, FW_CHECK_FAIL,
			     "The current TCB differs from the reported TCB: attestation reports carry the older one, and "
			     "guests' keys derive from it, until the new one is committed.",
			     "Commit the current TCB (snphost commit, SNP_COMMIT) once the new firmware is known good.");
	else
		fw_check_set(r, FW_CHECK_PASS, "The current and reported TCB are the same.", NULL);
	json_decref(probe);
}

/* ---- snphost ok parity (tier 0) ------------------------------------------------------------- */

void fw_check_sec_cpuid_sev(const struct fw_doctor_ctx *ctx, struct fw_check_result *r)
{
	json_t *probe, *o = probed(ctx, r, "cpuid_8000001f", "CPUID Fn8000_001F", &probe);
	if (!o)
		return;
	uint64_t reg[4];
	static const char *const names[] = {"eax", "ebx", "ecx", "edx"};
	for (size_t i = 0; i < 4; i++)
		if (!hexfield(o, names[i], &reg[i])) {
			fw_check_skip(r, FW_SEV_PROBE_PATH, "CPUID Fn8000_001F %s was not recorded as a number.", names[i]);
			json_decref(probe);
			return;
		}
	struct fw_sev_cpuid f;
	bool any = fw_sev_cpuid_facts((uint32_t)reg[0], (uint32_t)reg[1], (uint32_t)reg[2], (uint32_t)reg[3], &f);
	fw_check_evidence(r, FW_EVIDENCE_FILE, FW_SEV_PROBE_PATH,
			  "CPUID Fn8000_001F EAX %s: SME %d SEV %d SEV-ES %d SNP %d VMPL %d; C-bit %u, physical address "
			  "reduction %u, %u VMPLs, %u encrypted guests, minimum SEV ASID %u",
			  str(o, "eax"), f.sme, f.sev, f.sev_es, f.snp, f.vmpl, f.c_bit, f.phys_addr_reduction, f.vmpls,
			  f.encrypted_guests, f.min_sev_asid);
	r->data = json_object();
	json_object_set_new(r->data, "c_bit", json_integer(f.c_bit));
	json_object_set_new(r->data, "phys_addr_reduction", json_integer(f.phys_addr_reduction));
	json_object_set_new(r->data, "vmpls", json_integer(f.vmpls));
	json_object_set_new(r->data, "encrypted_guests", json_integer(f.encrypted_guests));
	json_object_set_new(r->data, "min_sev_asid", json_integer(f.min_sev_asid));
	if (!any || !f.sev || !f.sev_es || !f.snp)
		fw_check_set(r, FW_CHECK_FAIL, "The CPU does not report SEV, SEV-ES and SEV-SNP in CPUID Fn8000_001F.", NULL);
	else if (f.min_sev_asid <= 1)
		fw_check_set(r, FW_CHECK_WARN,
			     "The minimum SEV ASID is 1: every ASID goes to plain SEV guests and none to SEV-ES or SNP guests.",
			     "Raise SEV-ES ASID Space Limit in the BIOS (e.g. 100).");
	else
		fw_check_setf(r, FW_CHECK_PASS, NULL, "The CPU reports SEV, SEV-ES and SNP; ASIDs 1 to %u go to SEV-ES and SNP guests.",
			      f.min_sev_asid - 1);
	json_decref(probe);
}

static void access_check(const struct fw_doctor_ctx *ctx, struct fw_check_result *r, const char *const *keys,
			 size_t nkeys, const char *what, const char *fix)
{
	json_t *probe, *a = probed(ctx, r, "access", "device access and limits", &probe);
	if (!a)
		return;
	char problems[512] = "";
	for (size_t i = 0; i < nkeys; i++) {
		json_t *v = json_object_get(a, keys[i]);
		if (json_is_true(v)) {
			fw_check_evidence(r, FW_EVIDENCE_FILE, FW_SEV_PROBE_PATH, "%s: opened", keys[i]);
		} else {
			const char *why = json_is_string(v) ? json_string_value(v) : "not tried";
			fw_check_evidence(r, FW_EVIDENCE_FILE, FW_SEV_PROBE_PATH, "%s: %s", keys[i], why);
			size_t u = strlen(problems);
			snprintf(problems + u, sizeof(problems) - u, "%s%s: %s", u ? "; " : "", keys[i], why);
		}
	}
	if (problems[0])
		fw_check_setf(r, FW_CHECK_FAIL, fix, "%s failed for uid %lld: %s.", what,
			      json_integer_value(json_object_get(a, "uid")), problems);
	else
		fw_check_setf(r, FW_CHECK_PASS, NULL, "%s succeeded for uid %lld.", what,
			      json_integer_value(json_object_get(a, "uid")));
	json_decref(probe);
}

void fw_check_sec_dev_sev(const struct fw_doctor_ctx *ctx, struct fw_check_result *r)
{
	static const char *const keys[] = {"dev_sev_read", "dev_sev_write"};
	access_check(ctx, r, keys, 2, "Opening /dev/sev for reading and for writing",
		     "Load ccp with the PSP bound (bare metal), and capture as the user that starts guests (or root).");
}

void fw_check_sec_dev_kvm(const struct fw_doctor_ctx *ctx, struct fw_check_result *r)
{
	static const char *const keys[] = {"dev_kvm"};
	access_check(ctx, r, keys, 1, "Opening /dev/kvm", "Enable SVM in the BIOS and load kvm_amd.");
}

void fw_check_sec_memlock(const struct fw_doctor_ctx *ctx, struct fw_check_result *r)
{
	json_t *probe, *a = probed(ctx, r, "access", "device access and limits", &probe);
	if (!a)
		return;
	json_t *soft = json_object_get(a, "memlock_soft"), *hard = json_object_get(a, "memlock_hard");
	long long uid = json_integer_value(json_object_get(a, "uid"));
	if (!json_is_integer(soft) && !(json_is_string(soft) && strcmp(json_string_value(soft), "unlimited") == 0)) {
		fw_check_skip(r, FW_SEV_PROBE_PATH, "The memlock limit was not read.");
	} else if (json_is_string(soft)) {
		fw_check_evidence(r, FW_EVIDENCE_FILE, FW_SEV_PROBE_PATH, "RLIMIT_MEMLOCK of uid %lld: soft %s, hard %s", uid,
				  str(a, "memlock_soft"), json_is_string(hard) ? str(a, "memlock_hard") : "?");
		fw_check_setf(r, FW_CHECK_PASS, NULL, "The memlock limit of uid %lld is %s: guests can pin their memory.", uid,
			      str(a, "memlock_soft"));
	} else {
		long long s = json_integer_value(soft);
		fw_check_evidence(r, FW_EVIDENCE_FILE, FW_SEV_PROBE_PATH, "RLIMIT_MEMLOCK of uid %lld: soft %lld bytes, hard %lld",
				  uid, s, json_integer_value(hard));
		if (s == 0)
			fw_check_setf(r, FW_CHECK_FAIL, "Set memlock unlimited for that user (limits.conf or LimitMEMLOCK=infinity).",
				      "uid %lld may lock no memory: an SEV guest cannot pin its pages and will not start.", uid);
		else
			fw_check_setf(r, FW_CHECK_WARN, "Set memlock unlimited for that user (limits.conf or LimitMEMLOCK=infinity).",
				      "uid %lld may lock %lld bytes: an SEV guest whose memory is larger cannot pin it.", uid, s);
	}
	json_decref(probe);
}
