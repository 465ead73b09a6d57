/* The doctor's check functions (one group per file: doctor-bios.c, doctor-host.c, doctor-p2p.c). */
#ifndef FW_DOCTOR_CHECKS_H
#define FW_DOCTOR_CHECKS_H

#include "doctor.h"

typedef void (*fw_check_fn)(const struct fw_doctor_ctx *ctx, struct fw_check_result *r);

/* doctor-bios.c: stored BIOS choices */
void fw_check_bios_smee(const struct fw_doctor_ctx *ctx, struct fw_check_result *r);
void fw_check_bios_sev_control(const struct fw_doctor_ctx *ctx, struct fw_check_result *r);
void fw_check_bios_asid_limit(const struct fw_doctor_ctx *ctx, struct fw_check_result *r);
void fw_check_bios_rmp_coverage(const struct fw_doctor_ctx *ctx, struct fw_check_result *r);
void fw_check_bios_sev_snp_support(const struct fw_doctor_ctx *ctx, struct fw_check_result *r);
void fw_check_bios_sme_mk(const struct fw_doctor_ctx *ctx, struct fw_check_result *r);
void fw_check_bios_iommu(const struct fw_doctor_ctx *ctx, struct fw_check_result *r);
void fw_check_bios_svm(const struct fw_doctor_ctx *ctx, struct fw_check_result *r);
void fw_check_bios_acs(const struct fw_doctor_ctx *ctx, struct fw_check_result *r);
void fw_check_bios_large_bars(const struct fw_doctor_ctx *ctx, struct fw_check_result *r);
void fw_check_acpi_ivrs(const struct fw_doctor_ctx *ctx, struct fw_check_result *r);

/* doctor-host.c: the kernel and its log */
void fw_check_cpu_flags(const struct fw_doctor_ctx *ctx, struct fw_check_result *r);
void fw_check_kernel_iommu_mode(const struct fw_doctor_ctx *ctx, struct fw_check_result *r);
void fw_check_kernel_options(const struct fw_doctor_ctx *ctx, struct fw_check_result *r);
void fw_check_kernel_snp_log(const struct fw_doctor_ctx *ctx, struct fw_check_result *r);
void fw_check_kernel_iommu_snp(const struct fw_doctor_ctx *ctx, struct fw_check_result *r);
void fw_check_ccp_firmware(const struct fw_doctor_ctx *ctx, struct fw_check_result *r);
void fw_check_kvm_amd(const struct fw_doctor_ctx *ctx, struct fw_check_result *r);
void fw_check_dev_sev(const struct fw_doctor_ctx *ctx, struct fw_check_result *r);
void fw_check_iommu_group_types(const struct fw_doctor_ctx *ctx, struct fw_check_result *r);
void fw_check_vfio_isolation(const struct fw_doctor_ctx *ctx, struct fw_check_result *r);
/* pcie_acs_override on the command line: 1 when this kernel fakes the groups with it (its log, or a
 * patched kernel by its release string), -1 when that is not known, 0 without the option. Adds the
 * evidence and says why in `why`. */
int fw_doctor_acs_override(const struct fw_doctor_ctx *ctx, struct fw_check_result *r, char *why, size_t len);

/* doctor-boot.c: stored configuration for the next boot against the running one */
void fw_check_boot_pending(const struct fw_doctor_ctx *ctx, struct fw_check_result *r);

/* doctor-p2p.c: GPUs, their paths, links, NUMA nodes, BARs and the faults between them */
void fw_check_acs_gpu_paths(const struct fw_doctor_ctx *ctx, struct fw_check_result *r);
void fw_check_p2p_faults(const struct fw_doctor_ctx *ctx, struct fw_check_result *r);
void fw_check_gpu_links(const struct fw_doctor_ctx *ctx, struct fw_check_result *r);
void fw_check_gpu_numa(const struct fw_doctor_ctx *ctx, struct fw_check_result *r);
void fw_check_gpu_bars(const struct fw_doctor_ctx *ctx, struct fw_check_result *r);
/* doctor-p2p-proof.c: P2P per GPU pair from the outputs of the tools that prove it */
void fw_check_p2p_proof(const struct fw_doctor_ctx *ctx, struct fw_check_result *r);

/* doctor-gpu.c: GPU driver bring-up and the domains its firmware needs */
void fw_check_gpu_driver_init(const struct fw_doctor_ctx *ctx, struct fw_check_result *r);
void fw_check_gpu_identity_domains(const struct fw_doctor_ctx *ctx, struct fw_check_result *r);
void fw_check_gpu_assignment(const struct fw_doctor_ctx *ctx, struct fw_check_result *r);
/* NVIDIA GPUs whose firmware boots through an FSP that needs translated DMA (Blackwell). */
bool fw_doctor_gpu_needs_translation(const struct fw_pci_device *d);
/* Model name: the driver's (proc/driver/nvidia/gpus/BDF/information), a known id, or vendor:device. */
const char *fw_doctor_gpu_model(const struct fw_host *h, const struct fw_pci_device *d, char *buf, size_t len);
/* The recovery procedure for a GPU that failed under an identity domain, as commands (malloc'd). */
char *fw_doctor_gpu_recovery(const struct fw_host *h, const struct fw_pci_device *gpu);
/* The recovery offered for GPUs whose driver failed: each with its group and upstream bridge, the
 * plan command that writes the steps as a script, and the steps for the first (malloc'd). */
char *fw_doctor_gpu_recovery_all(const struct fw_host *h, const struct fw_pci_device *const *gpus, size_t n);

/* doctor-sev.c: BIOS value, hardware state and kernel view of the SEV platform */
void fw_check_sev_platform(const struct fw_doctor_ctx *ctx, struct fw_check_result *r);
/* A SYSCFG bit ("mem_encrypt", "snp_en") as probed at capture time: 1, 0, or -1 when not read. */
int fw_doctor_probed_syscfg(const struct fw_host *h, const char *bit);

/* The SEV probe taken at capture time (fwlens/probes/sev.json), parsed; NULL when absent. */
json_t *fw_doctor_sev_probe(const struct fw_host *h);

/* doctor-security.c: the security profile (tiers and level in that file) */
void fw_check_sec_smm_lock(const struct fw_doctor_ctx *ctx, struct fw_check_result *r);
void fw_check_sec_smm_tseg(const struct fw_doctor_ctx *ctx, struct fw_check_result *r);
void fw_check_sec_bios_write_protection(const struct fw_doctor_ctx *ctx, struct fw_check_result *r);
void fw_check_sec_secure_boot(const struct fw_doctor_ctx *ctx, struct fw_check_result *r);
void fw_check_sec_pk_test_key(const struct fw_doctor_ctx *ctx, struct fw_check_result *r);
void fw_check_sec_microcode(const struct fw_doctor_ctx *ctx, struct fw_check_result *r);
void fw_check_sec_dma_protection(const struct fw_doctor_ctx *ctx, struct fw_check_result *r);
void fw_check_sec_dbx(const struct fw_doctor_ctx *ctx, struct fw_check_result *r);
void fw_check_sec_memory_encryption(const struct fw_doctor_ctx *ctx, struct fw_check_result *r);
void fw_check_sec_sev_firmware(const struct fw_doctor_ctx *ctx, struct fw_check_result *r);
void fw_check_sec_snp_alias_check(const struct fw_doctor_ctx *ctx, struct fw_check_result *r);
void fw_check_sec_snp_tcb(const struct fw_doctor_ctx *ctx, struct fw_check_result *r);
void fw_check_sec_cpuid_sev(const struct fw_doctor_ctx *ctx, struct fw_check_result *r);
void fw_check_sec_dev_sev(const struct fw_doctor_ctx *ctx, struct fw_check_result *r);
void fw_check_sec_dev_kvm(const struct fw_doctor_ctx *ctx, struct fw_check_result *r);
void fw_check_sec_memlock(const struct fw_doctor_ctx *ctx, struct fw_check_result *r);

/* doctor-guest.c: inside a virtual machine */
void fw_check_guest_snp(const struct fw_doctor_ctx *ctx, struct fw_check_result *r);
void fw_check_guest_gpus(const struct fw_doctor_ctx *ctx, struct fw_check_result *r);
/* The file that shows the machine is a guest ("proc/cpuinfo" or "sys/class/dmi/id"). */
const char *fw_doctor_guest_source(const struct fw_host *h);

/* Shared helpers */
struct fw_group_counts {
	size_t dma, dma_fq, identity, unmanaged, blocked, other;
	char identity_ids[256]; /* "13, 15" */
};
size_t fw_doctor_group_types(const struct fw_host *h, struct fw_group_counts *c);
bool fw_doctor_needs_host(const struct fw_doctor_ctx *ctx, struct fw_check_result *r);
/* The first CPU's flags hold this word (not a prefix of another: sme, not sme_coherent). */
bool fw_doctor_has_flag(const struct fw_host *h, const char *flag);
bool fw_doctor_needs_log(const struct fw_doctor_ctx *ctx, struct fw_check_result *r);
/* Add up to `max` kernel-log lines containing needle as evidence; returns the total count. */
size_t fw_doctor_log_evidence(const struct fw_doctor_ctx *ctx, struct fw_check_result *r, const char *needle, size_t max);

#endif
