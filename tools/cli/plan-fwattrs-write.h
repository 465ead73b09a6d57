/* fwlens plan on a firmware-attributes host (plan-fwattrs-write.c). */
#ifndef FW_PLAN_FWATTRS_WRITE_H
#define FW_PLAN_FWATTRS_WRITE_H

#include "cli.h"
#include "tools/query/source.h"

/* Plan --set SETTING=VALUE over the machine's firmware-attributes and write it as --format says
 * (text, json, fwupdmgr, sysfs); returns the exit status. */
int fw_plan_fwattrs_run(struct fw_cli *cli, struct fw_source *src, const char *const *sets, size_t nsets,
			const char *module);

#endif
