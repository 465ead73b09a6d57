/* `fwlens diff --format jsonl`: one line per difference, keyed by the new side (the machine or
 * image being audited) and naming the baseline, so the drift of a fleet from one reference can be
 * concatenated and grouped with jq. */
#ifndef FW_DIFF_JSONL_H
#define FW_DIFF_JSONL_H

#include "parsers/json-text.h"

#include "cli.h"
#include "record-key.h"

/* Print the differences of a diff document (fw_diff_json's shape) as JSON lines: every line is
 * {"source", "host"?, "captured"? (of NEW), "baseline" (OLD as given), "baseline_host"?, "section"
 * (settings, values, varstores, modules, versions, variables, acpi, kernel), "change" (added,
 * removed, moved, changed), "kind"? (kernel: release, cmdline, iommu-groups), "name"? (versions),
 * then the fields of the difference}. Does not take the reference. */
void fw_diff_print_jsonl(struct fw_cli *cli, json_t *doc, const struct fw_record_key *old_key,
			 const struct fw_record_key *new_key);

#endif
