/* fwlens plan over an AMISCE export on its own (plan-amisce.c). */
#ifndef FW_PLAN_AMISCE_H
#define FW_PLAN_AMISCE_H

#include "cli.h"
#include "tools/query/source.h"

/* Plan --set SETTING=VALUE over the questions of the export SRC is and write it as --format says:
 * sce (the export itself, only the planned "*" marks and Value numbers moved), text or json;
 * returns the exit status. */
int fw_plan_amisce_run(struct fw_cli *cli, struct fw_source *src, const char *const *sets, size_t nsets);

#endif
