/* GPU recovery as a plan: for each GPU whose driver failed, the steps that brought such GPUs
 * back on the reference host (../shared/reference/host-and-actions.md): nobody holds its device
 * nodes, its IOMMU group translated again, the device removed, a secondary bus reset through its
 * upstream bridge, a rescan, and the kernel log read for the driver's result. A cold power cycle
 * is the fallback.
 *
 * Everything named comes from the machine: the slot's functions, the group and its type, the
 * bridge, the device minor (proc/driver/nvidia/gpus/BDF/information, or the driver's "device
 * minor number N" log line). A GPU the plan cannot aim at safely is an error: not a GPU of the
 * machine, no failure logged for it while its driver is bound (it works), no upstream bridge, or
 * a bridge whose reset would also hit devices other than the GPU's own functions. */
#ifndef FW_PLAN_GPU_RECOVERY_H
#define FW_PLAN_GPU_RECOVERY_H

#include <stdbool.h>
#include <stddef.h>

#include "parsers/error.h"
#include "parsers/json-text.h"
#include "tools/host/host.h"

#define FW_GPU_RECOVERY_MAX 16
#define FW_GPU_RECOVERY_FNS 8

struct fw_gpu_recovery {
	const struct fw_pci_device *gpu;
	const struct fw_pci_device *fns[FW_GPU_RECOVERY_FNS]; /* the slot's functions, the GPU first */
	size_t nfns;
	const struct fw_pci_device *bridge;
	int group;              /* -1 when not known */
	const char *group_type; /* now, or NULL */
	const char *translated; /* the type the script sets when the group is identity: "DMA-FQ" or "DMA" */
	char *translated_why;
	int minor;              /* /dev/nvidiaN, -1 when not known */
	char *minor_from;
	char *failure;          /* the kernel log line that says the driver failed, or NULL */
	char *why;              /* why it is in the plan */
};

struct fw_gpu_recovery_plan {
	struct fw_gpu_recovery items[FW_GPU_RECOVERY_MAX];
	size_t n;
	const char *log_from;   /* where the kernel log was read */
};

/* `spec` is "failed" (every GPU whose driver failed per the kernel log) or BDF[,BDF...].
 * FW_E_USAGE for a BDF that is not a GPU of h, or one the plan refuses (see above);
 * FW_E_NOT_FOUND for "failed" without a kernel log or with no failed GPU in it. */
bool fw_gpu_recovery_make(const struct fw_host *h, const char *spec, struct fw_gpu_recovery_plan *out,
			  struct fw_error *err);
void fw_gpu_recovery_free(struct fw_gpu_recovery_plan *p);

/* The steps for one GPU in order, as {"step", "command", "why"} objects. */
json_t *fw_gpu_recovery_steps_json(const struct fw_gpu_recovery *g);
json_t *fw_gpu_recovery_json(const struct fw_gpu_recovery_plan *p, const char *source, json_t *made);

#endif
