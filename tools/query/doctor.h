/* fwlens doctor: is this host set up right for an SEV-SNP host, vfio passthrough and GPU P2P?
 *
 * Checks are a table (doctor.c): id, title, the profiles it belongs to and a function that fills
 * a result from the evidence at hand. Evidence comes from three optional sources: the machine
 * (struct fw_host), the BIOS settings with their current values, and the decoded ACPI tables; a
 * check whose evidence is missing says "skip" and why, never guesses.
 *
 * To add a check: write `static void check_xxx(const struct fw_doctor_ctx *, struct fw_check_result *)`
 * in doctor-*.c, add its row to the table in doctor.c, and a test in tests/unit/test-doctor.c. */
#ifndef FW_DOCTOR_H
#define FW_DOCTOR_H

#include "parsers/json-text.h"
#include <stdbool.h>
#include <stdint.h>

#include "tools/host/host.h"

/* pending: the stored configuration (for the next boot) differs from the running one, and the
 * verdict changes when the machine boots with it; accepted: an admin accepted the check's warn,
 * fail or pending verdict with a reason (doctor-accept.c), for evidence of the kinds it has now. */
enum fw_check_status { FW_CHECK_PASS, FW_CHECK_WARN, FW_CHECK_FAIL, FW_CHECK_SKIP, FW_CHECK_PENDING, FW_CHECK_ACCEPTED };
const char *fw_check_status_name(enum fw_check_status s);

/* Profiles a check belongs to (a check may serve several). */
#define FW_PROFILE_SNP 0x01  /* sev-snp-host */
#define FW_PROFILE_VFIO 0x02 /* vfio */
#define FW_PROFILE_P2P 0x04  /* p2p */
#define FW_PROFILE_ALL 0x07  /* the readiness profiles; security is asked for by name */
#define FW_PROFILE_SECURITY 0x08 /* security: the platform's firmware protections (doctor-security.c) */
bool fw_doctor_profile_parse(const char *name, unsigned *mask);

/* What the machine is judged as: what its CPU flags and DMI say (auto), or as asked: a VM with an
 * IOMMU of its own judged as the host under test (host), or a machine judged as a guest (guest). */
enum fw_doctor_role { FW_ROLE_AUTO, FW_ROLE_HOST, FW_ROLE_GUEST };
bool fw_doctor_role_parse(const char *name, enum fw_doctor_role *role);

/* A BIOS setting as the checks need it, supplied by the settings layer. */
struct fw_doctor_setting {
	const char *prompt;
	const char *path;     /* menu path */
	const char *varstore; /* name */
	uint32_t offset, width;
	bool has_current;
	uint64_t current;
	const char *current_text; /* option text of the current value, or NULL */
	bool has_default;
	uint64_t def;
	const char *default_text;
	bool hidden;          /* suppressed in the setup UI with the current values */
	bool numeric;         /* a number, not a choice among options */
	const char *value_from; /* where the current value was read ("efivarfs variable AmdSetupBRH-...") or NULL */
};

struct fw_doctor_sources {
	/* Find a setting by its prompt (case and spacing ignored); false when absent. NULL when no
	 * BIOS settings are known for this host. */
	bool (*setting)(void *ctx, const char *prompt, struct fw_doctor_setting *out);
	void *setting_ctx;
	/* ACPI facts: number of IOMMUs in IVRS and whether every EFR image has SNPSup; NULL when no
	 * ACPI tables are known. Returns false when there is no IVRS. */
	bool (*ivrs)(void *ctx, unsigned *iommus, bool *efr_known, bool *snp_all, char *note, size_t notelen);
	/* IVRS IVinfo (u32 at offset 36); false when there is no IVRS. Same context as ivrs. */
	bool (*ivinfo)(void *ctx, uint32_t *ivinfo);
	void *acpi_ctx;
	/* The BIOS image given or stored in the snapshot (its signature is checked), or NULL. */
	const uint8_t *image;
	size_t image_len;
	const char *image_name;
	/* saved P2P test outputs named on the command line (read by the p2p-proof check) */
	const char *const *p2p_evidence;
	size_t np2p_evidence;
	/* The image's AGESA version strings ("TurinPI-SP5 1.0.0.4", "; " between several) from its
	 * decode or the cache, for the security profile; NULL when not known. */
	const char *agesa;
};

/* A check an admin accepted: from --accept CHECK=REASON, or a line "CHECK [sha=FINGERPRINT] REASON"
 * of etc/fwlens/accept in the machine's root (doctor-accept.c). */
struct fw_doctor_accept {
	char *check;
	char *reason;
	char *sha;  /* the evidence fingerprint it was accepted for, or NULL: any evidence */
	char *from; /* "--accept" or "etc/fwlens/accept:3" */
};

struct fw_doctor_ctx {
	const struct fw_host *host; /* may be NULL (image only) */
	struct fw_doctor_sources src;
	unsigned profiles;
	enum fw_doctor_role role;
	const struct fw_doctor_accept *accepts;
	size_t naccepts;
};
/* Why the machine is judged a guest ("the hypervisor flag in /proc/cpuinfo", "--role guest"), or
 * NULL when it is judged a host. */
const char *fw_doctor_guest_why(const struct fw_doctor_ctx *ctx);

struct fw_check_result {
	const char *id;
	const char *title;
	unsigned profiles;
	enum fw_check_status status;
	json_t *evidence; /* array of {"kind", "from", "text"} objects */
	bool not_applicable; /* a skip because the check is for the other kind of machine (host or guest) */
	char *explanation;
	char *fix;
	json_t *data; /* decoded facts a script reads (TCB SVNs, CPUID fields), or NULL */
	unsigned affects;            /* FW_AFFECTS_*: whose readiness a warn or fail touches (0: from the profiles) */
	enum fw_check_status judged; /* the verdict before an acceptance (== status when not accepted) */
	char *accepted;              /* the reason it was accepted, or NULL */
	char fingerprint[13];        /* of the evidence's kinds (fw_doctor_fingerprint) */
};

struct fw_doctor_report {
	struct fw_check_result *results;
	size_t count;
	size_t pass, warn, fail, skip, pending, accepted;
	unsigned profiles; /* the profiles run */
	const char *captured; /* when the machine's snapshot was captured (its manifest), or NULL */
	bool guest;           /* judged as a VM guest: readiness is the guest's own, not the host's roles */
};

void fw_doctor_run(const struct fw_doctor_ctx *ctx, struct fw_doctor_report *out);
bool fw_doctor_check_known(const char *id);
void fw_doctor_report_free(struct fw_doctor_report *r);
json_t *fw_doctor_report_json(const struct fw_doctor_report *r);
/* The security profile's HSI-like level: {"level", "of", "text" ("2", "1!"), "runtime_issue",
 * "stopped_by" (the first check below the next level, or null), ...} (doctor-security.c). */
json_t *fw_security_level_json(const struct fw_doctor_report *r);

/* Roles a failure affects (doctor-roles.c): the SNP host itself (firmware, kernel, PSP), the GPUs
 * the host drives (its own work, containers: P2P, NCCL), the GPUs given to VMs (the SNP guest's). A
 * failure of the host GPUs does not make the SNP guest not ready. */
#define FW_AFFECTS_SNP_HOST 0x1
#define FW_AFFECTS_HOST_GPUS 0x2
#define FW_AFFECTS_VM_GPUS 0x4
/* The role of a GPU's failure by its owner: a VM's, or the host's (host driver, container, none). */
unsigned fw_doctor_gpu_affects(const struct fw_pci_device *d);
/* Fill r->affects from the check's profiles when the check did not say. */
void fw_doctor_default_affects(struct fw_check_result *r);
/* Readiness by role: [{"role", "title", "status" (ready, warnings, not ready, pending), "checks"}]. */
json_t *fw_doctor_readiness_json(const struct fw_doctor_report *r);
/* One line: "SNP host: ready; GPUs given to VMs (the SNP guest's): ready; host GPUs: not ready
 * (gpu-driver-init)" (malloc'd). */
char *fw_doctor_readiness_line(const struct fw_doctor_report *r);

/* Accepting (doctor-accept.c). The fingerprint is the first 12 hex digits of the SHA-256 of the
 * check's evidence kinds: each evidence item's source and text with counts, times and addresses
 * masked (decimal numbers, hex numbers of more than 4 digits), sorted, duplicates dropped. A new
 * fault pair, error code or device changes it; more of the same faults, or later times, do not. */
void fw_doctor_fingerprint(const struct fw_check_result *r, char out[13]);
/* Parse etc/fwlens/accept text (lines "CHECK [sha=HEX] REASON", '#' comments, blank lines) and
 * append to *list; false with the line number and why in `err` for a malformed line. */
bool fw_doctor_accept_parse(const char *text, const char *from, struct fw_doctor_accept **list, size_t *n, char *err,
			    size_t errlen);
/* --accept CHECK=REASON */
bool fw_doctor_accept_arg(const char *arg, struct fw_doctor_accept **list, size_t *n, char *err, size_t errlen);
void fw_doctor_accepts_free(struct fw_doctor_accept *list, size_t n);
/* Apply the acceptances to a result just judged (fw_doctor_run calls it). */
void fw_doctor_apply_accepts(const struct fw_doctor_ctx *ctx, struct fw_check_result *r);
/* The line to put in etc/fwlens/accept for a check as judged now: "CHECK sha=HEX REASON". */
char *fw_doctor_accept_line(const struct fw_check_result *r);
#define FW_ACCEPT_PATH "etc/fwlens/accept"
#define FW_EVIDENCE_ACCEPTED "accepted"

/* Evidence: what a check read, each item {"kind", "from", "text"}. `from` names where it was read:
 * a machine file ("proc/cmdline"), the kernel log ("var/log/dmesg"), a setting's variable with its
 * offset and where the variable came from, an ACPI table and field. A check that lacks its input
 * records what it looked for as kind "absent" and says skip. */
#define FW_EVIDENCE_SETTING "setting"
#define FW_EVIDENCE_LOG "kernel-log"
#define FW_EVIDENCE_FILE "file"
#define FW_EVIDENCE_TABLE "acpi-table"
#define FW_EVIDENCE_ABSENT "absent"
#define FW_KERNEL_LOG_PATH "var/log/dmesg"
/* Where the kernel log was read: var/log/dmesg, or on a live root /dev/kmsg or dmesg. */
const char *fw_doctor_log_from(const struct fw_doctor_ctx *ctx);

/* For the check functions (doctor-*.c) */
void fw_check_evidence(struct fw_check_result *r, const char *kind, const char *from, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/* Skip: record what was looked for (`from`) as absent and say why. */
void fw_check_skip(struct fw_check_result *r, const char *from, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* The parts of an evidence item (never NULL). */
const char *fw_evidence_text(const json_t *e);
const char *fw_evidence_from(const json_t *e);
const char *fw_evidence_kind(const json_t *e);
void fw_check_set(struct fw_check_result *r, enum fw_check_status s, const char *explanation, const char *fix);
void fw_check_setf(struct fw_check_result *r, enum fw_check_status s, const char *fix, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* Whether the IOMMU default domains are passthrough per the command line, with the reason. */
bool fw_doctor_passthrough(const struct fw_host *h, const char **why);
/* GPUs of the host: display/3D controllers and NVIDIA/AMD accelerators (vendor GPUs behind
 * passthrough stay GPUs). Returns the count; fills at most max pointers. */
size_t fw_host_gpus(const struct fw_host *h, const struct fw_pci_device **out, size_t max);
/* The bridges between two devices (each device's upstream ports up to the common ancestor). */
size_t fw_host_path_bridges(const struct fw_host *h, const struct fw_pci_device *a, const struct fw_pci_device *b,
			    const struct fw_pci_device **out, size_t max, const struct fw_pci_device **common);

#endif
