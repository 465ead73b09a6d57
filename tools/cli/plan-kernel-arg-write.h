/* fwlens plan --kernel-arg / --remove-kernel-arg and the verification of such a plan
 * (plan-kernel-arg-write.c). */
#ifndef FW_PLAN_KERNEL_ARG_WRITE_H
#define FW_PLAN_KERNEL_ARG_WRITE_H

#include "cli.h"
#include "tools/query/source.h"

/* Plan the options on SRC's boot loader and write the script (text, sh) or the plan (json);
 * returns the exit status. */
int fw_plan_karg_run(struct fw_cli *cli, struct fw_source *src, const char *const *add, size_t nadd,
		     const char *const *rm, size_t nrm);
/* Compare a saved kernel option plan with SRC's running command line: 0 when all are in effect,
 * 1 otherwise (also before the reboot). */
int fw_plan_karg_verify(struct fw_cli *cli, struct fw_source *src, const char *path, const json_t *plan);

#endif
