/* fwlens plan --gpu-recovery (plan-gpu-recovery-write.c). */
#ifndef FW_PLAN_GPU_RECOVERY_WRITE_H
#define FW_PLAN_GPU_RECOVERY_WRITE_H

#include "cli.h"
#include "tools/query/source.h"

/* Plan the recovery of the GPUs `spec` names ("failed" or BDF[,BDF...]) on SRC and write the script
 * (text, sh) or the steps (json); returns the exit status. */
int fw_plan_gpu_recovery_run(struct fw_cli *cli, struct fw_source *src, const char *spec);

#endif
