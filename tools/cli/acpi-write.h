/* Writers for `fwlens acpi`: the table set as JSON (README.md "JSON contracts", also rendered as
 * XML) and as text notes. A filter limits the decoded sections to some signatures. */
#ifndef FW_CLI_ACPI_WRITE_H
#define FW_CLI_ACPI_WRITE_H

#include "parsers/json-text.h"
#include <stdbool.h>
#include <stdio.h>

#include "acpi/set.h"
#include "acpi/topo.h"
#include "cli.h"

struct fw_acpi_filter {
	char (*sigs)[5]; /* NULL: every table */
	size_t n;
};
bool fw_acpi_filter_match(const struct fw_acpi_filter *f, const struct fw_acpi_table *t);

json_t *fw_acpi_json_set(const struct fw_acpi_set *s, const struct fw_acpi_filter *f);
/* The same document in two parts, for writing it as it is built: every member but the tables
 * (an empty "tables" in its place), then the tables the filter keeps, one a call from *pos on
 * (NULL after the last). */
json_t *fw_acpi_json_set_head(const struct fw_acpi_set *s);
json_t *fw_acpi_json_set_next(const struct fw_acpi_set *s, const struct fw_acpi_filter *f, size_t *pos);
json_t *fw_acpi_json_table(const struct fw_acpi_table *t);
/* The same table given to an emitter: `--format json` writes it as it walks the parts, without
 * a json_t per value (fw_acpi_json_table is this into a tree). */
void fw_acpi_emit_table(struct fw_json_emit *e, const struct fw_acpi_table *t);
void fw_acpi_text_set(struct fw_cli *cli, const struct fw_acpi_set *s, const struct fw_acpi_filter *f);

json_t *fw_acpi_json_topo(const struct fw_acpi_topo *topo);
void fw_acpi_text_topo(struct fw_cli *cli, const struct fw_acpi_topo *topo);

/* Shared JSON helpers */
json_t *fw_json_hex(uint64_t v);
json_t *fw_json_flag_names(const struct fw_bitfields *names, uint64_t value);
json_t *fw_json_diags(const struct fw_diag *d, bool offsets_relative);

#endif
