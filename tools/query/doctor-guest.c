/* Doctor checks inside a virtual machine: is it an SEV-SNP guest, and does it see its GPUs. On a
 * guest the host checks (BIOS, ACPI, host kernel) say skip: the guest cannot see them. */
#include <stdio.h>
#include <string.h>

#include "doctor-checks.h"

#define MAX_GPUS 64

const char *fw_doctor_guest_source(const struct fw_host *h)
{
	return !h->guest_why || strstr(h->guest_why, "cpuinfo") ? "proc/cpuinfo" : "sys/class/dmi/id";
}

/* Asked for by name: doctor --profile sev-snp-host (or vfio) rather than all. A plain VM, with no
 * sign of SEV and no GPU, is judged by what it is unless the profile asks for more. */
static bool asked_for(const struct fw_doctor_ctx *ctx, unsigned profile)
{
	return ctx->profiles == profile;
}

static bool needs_guest(const struct fw_doctor_ctx *ctx, struct fw_check_result *r)
{
	if (!fw_doctor_needs_host(ctx, r))
		return false;
	if (fw_doctor_guest_why(ctx))
		return true;
	if (ctx->role == FW_ROLE_HOST) {
		fw_check_evidence(r, FW_EVIDENCE_FILE, fw_doctor_guest_source(ctx->host), "judged as the host under test (--role host)%s%s",
				  ctx->host->guest_why ? ", though a guest: " : "", ctx->host->guest_why ? ctx->host->guest_why : "");
		fw_check_set(r, FW_CHECK_SKIP, "Judged as the host under test (--role host): this check applies inside a guest.", NULL);
		r->not_applicable = true;
		return false;
	}
	if (!ctx->host->cpu_flags && !ctx->host->vendor && !ctx->host->product) {
		fw_check_skip(r, "proc/cpuinfo", "Neither /proc/cpuinfo nor DMI was captured, so whether this is a guest is not known.");
		return false;
	}
	fw_check_evidence(r, FW_EVIDENCE_FILE, ctx->host->cpu_flags ? "proc/cpuinfo" : "sys/class/dmi/id",
			  "no hypervisor CPU flag, no hypervisor DMI name (system vendor %s, product %s)",
			  ctx->host->vendor ? ctx->host->vendor : "not captured",
			  ctx->host->product ? ctx->host->product : "not captured");
	fw_check_set(r, FW_CHECK_SKIP, "Not a virtual machine guest: this check applies inside one.", NULL);
	r->not_applicable = true;
	return false;
}

void fw_check_guest_snp(const struct fw_doctor_ctx *ctx, struct fw_check_result *r)
{
	if (!needs_guest(ctx, r))
		return;
	const struct fw_host *h = ctx->host;
	fw_check_evidence(r, FW_EVIDENCE_FILE, fw_doctor_guest_source(h), "a guest: %s", fw_doctor_guest_why(ctx));
	fw_check_evidence(r, h->dev_sev_guest ? FW_EVIDENCE_FILE : FW_EVIDENCE_ABSENT, "dev/sev-guest", "dev/sev-guest: %s",
			  h->dev_sev_guest ? "present" : "absent");
	if (!h->dmesg) {
		fw_check_skip(r, fw_doctor_log_from(ctx), "The guest's kernel log was not captured (%s), so its memory encryption is not known.",
			      h->dmesg_why[0] ? h->dmesg_why : "no var/log/dmesg");
		return;
	}
	const char *line = NULL;
	size_t n = fw_host_log_lines(h, "Memory Encryption Features active:", &line, 1);
	if (n)
		fw_doctor_log_evidence(ctx, r, "Memory Encryption Features active:", 1);
	else
		fw_check_evidence(r, FW_EVIDENCE_LOG, fw_doctor_log_from(ctx), "no \"Memory Encryption Features active\" line");
	char text[256] = "";
	if (line)
		snprintf(text, sizeof(text), "%.*s", (int)strcspn(line, "\n"), line);
	bool snp = strstr(text, "SEV-SNP") != NULL;
	if (!n && !h->dev_sev_guest && !asked_for(ctx, FW_PROFILE_SNP))
		fw_check_set(r, FW_CHECK_SKIP,
			     "A plain VM: no memory encryption is active and there is no /dev/sev-guest, so nothing says it "
			     "was meant to be an SEV guest (doctor --profile sev-snp-host requires SEV-SNP).",
			     NULL);
	else if (!n)
		fw_check_set(r, FW_CHECK_FAIL,
			     "The guest kernel reports no memory encryption: this is not an SEV guest (or its kernel lacks "
			     "SEV guest support).",
			     "Start the VM as an SNP guest (Proxmox: amd-sev: type=snp in its qemu-server config; QEMU: "
			     "-object sev-snp-guest) with OVMF built for SEV, and a guest kernel with CONFIG_AMD_MEM_ENCRYPT.");
	else if (!snp)
		fw_check_set(r, FW_CHECK_FAIL, "The guest runs with SEV or SEV-ES memory encryption, not SEV-SNP.",
			     "Start it with amd-sev: type=snp (Proxmox) or a sev-snp-guest object (QEMU).");
	else if (!h->dev_sev_guest)
		fw_check_set(r, FW_CHECK_WARN,
			     "SEV-SNP is active, but /dev/sev-guest is absent: the sev-guest driver is not loaded, so the guest "
			     "cannot ask the PSP for attestation reports.",
			     "modprobe sev-guest.");
	else
		fw_check_set(r, FW_CHECK_PASS,
			     "SEV-SNP is active in this guest and /dev/sev-guest offers attestation reports.", NULL);
}

void fw_check_guest_gpus(const struct fw_doctor_ctx *ctx, struct fw_check_result *r)
{
	if (!needs_guest(ctx, r))
		return;
	const struct fw_host *h = ctx->host;
	fw_check_evidence(r, FW_EVIDENCE_FILE, fw_doctor_guest_source(h), "a guest: %s", fw_doctor_guest_why(ctx));
	if (!h->npci) {
		fw_check_skip(r, "sys/bus/pci/devices", "The guest's PCI devices were not captured.");
		return;
	}
	const struct fw_pci_device *gpus[MAX_GPUS];
	size_t n = fw_host_gpus(h, gpus, MAX_GPUS), unbound = 0;
	if (n > MAX_GPUS)
		n = MAX_GPUS;
	for (size_t i = 0; i < n; i++) {
		char model[128];
		fw_check_evidence(r, FW_EVIDENCE_FILE, "sys/bus/pci/devices", "%s %s: driver %s", gpus[i]->bdf,
				  fw_doctor_gpu_model(h, gpus[i], model, sizeof(model)),
				  gpus[i]->driver ? gpus[i]->driver : "none");
		unbound += !gpus[i]->driver;
	}
	if (!n && !asked_for(ctx, FW_PROFILE_VFIO)) {
		fw_check_evidence(r, FW_EVIDENCE_FILE, "sys/bus/pci/devices", "%zu PCI devices, no GPU among them", h->npci);
		fw_check_set(r, FW_CHECK_SKIP,
			     "A plain VM: no GPU was passed through to it, and nothing says one should have been (doctor "
			     "--profile vfio requires one).",
			     NULL);
	} else if (!n) {
		fw_check_evidence(r, FW_EVIDENCE_FILE, "sys/bus/pci/devices", "%zu PCI devices, no GPU among them", h->npci);
		fw_check_set(r, FW_CHECK_FAIL, "The guest sees no GPU: none was passed through to it.",
			     "On the host, give the VM its GPUs (Proxmox: hostpciN: BDF,pcie=1 in /etc/pve/qemu-server/VMID.conf) "
			     "with the GPUs bound to vfio-pci.");
	} else if (unbound) {
		fw_check_setf(r, FW_CHECK_WARN, "Install and load the GPU driver in the guest.",
			      "%zu of %zu passed-through GPUs have no driver bound in the guest.", unbound, n);
	} else {
		fw_check_setf(r, FW_CHECK_PASS, NULL, "The guest sees %zu GPU%s, each with its driver bound.", n, n == 1 ? "" : "s");
	}
}
