/* Writers of `fwlens diff` (tools/cli/diff-writers.c), also used for the "Changes since" section
 * of `fwlens notes`. */
#ifndef FW_DIFF_WRITERS_H
#define FW_DIFF_WRITERS_H

#include "parsers/json-text.h"
#include <stdio.h>

#include "cli.h"
#include "tools/query/diff.h"

/* {"settings": {"added", "removed", "moved", "changed"}, "values", "varstores", "modules",
 * "versions", "variables", "acpi", "kernel", "summary"}. la/lb are the compared lists (may be NULL). */
json_t *fw_diff_json(const struct fw_diff *d, struct fw_setlist *la, struct fw_setlist *lb);
void fw_diff_text(struct fw_cli *cli, const struct fw_diff *d, const char *a_name, const char *b_name);
/* Markdown sections starting at heading level `level` ("###" for 3). */
void fw_diff_markdown(FILE *f, const struct fw_diff *d, int level);

#endif
