/* Writers shared by `fwlens find`, `query` and `diff` (tools/cli/query-writers.c): opening SRC,
 * one setting as JSON, text and markdown, and topic facts. */
#ifndef FW_QUERY_WRITERS_H
#define FW_QUERY_WRITERS_H

#include "parsers/json-text.h"
#include <stdio.h>

#include "cli.h"
#include "output-text.h"
#include "tools/query/facts.h"
#include "tools/query/search.h"
#include "tools/query/source.h"

/* Open SRC with --image, --lang; log the source's warnings. Returns 0 or the exit code. */
int fw_query_cli_open(struct fw_cli *cli, const char *path, const char *image, struct fw_source *src);
/* The source's settings, restricted to --module when given; NULL with a logged reason. */
struct fw_setlist *fw_query_cli_settings(struct fw_cli *cli, struct fw_source *src, const char *module,
					 struct fw_error *err);
void fw_query_cli_warnings(struct fw_cli *cli, struct fw_source *src, const char *label);

/* Where current values came from: {"kind", "path", "offset", "offset_hex", "text"}. */
json_t *fw_cli_json_current_source(const struct fw_current_source *c, const char *text);

/* A setting as JSON: prompt, path, module, varstore, offset, width, options, default, current,
 * condition (the match contract of find/query, also used by diff). */
json_t *fw_query_json_setting(struct fw_setlist *l, const struct fw_setlist_item *it);
/* A hit: the setting plus "topics", "reason" and "reasons". */
json_t *fw_query_json_hit(struct fw_setlist *l, const struct fw_hit *h);
json_t *fw_query_json_fact(const struct fw_fact_answer *a);

/* A markdown row: | Setting | Path | Module | Where | Default | Current | Condition | last | */
#define FW_QUERY_MD_HEADER "| Setting | Path | Module | Where | Default | Current | Condition | %s |\n|---|---|---|---|---|---|---|---|\n"
void fw_query_md_row(FILE *f, struct fw_setlist *l, const struct fw_setlist_item *it, const char *last);
/* Which module a setting is in ("CbsSetupDxeSHP", else its FFS GUID, else "?"), and whether the
 * hits span several modules: find, query and diff then list them module by module, each group
 * under a line naming its module (two AMD CBS modules, one per CPU generation, share menu paths). */
const char *fw_query_module_of(const struct fw_setlist_item *it);
bool fw_query_hits_span_modules(const struct fw_hits *hits);
/* The line that opens a module group in text: "  module CbsSetupDxeSHP (B6488E5A-...)". */
void fw_query_text_module(struct fw_cli *cli, const struct fw_setlist_item *it);
/* "AmdSetupSHP+0x36/1" or "Setup bit 12:1" into buf. */
const char *fw_query_where(const struct fw_setlist_item *it, char *buf, size_t len);
/* A setting in text: prompt and value on the first line, path, storage, options and condition
 * indented below; `why` (may be NULL) last. */
void fw_query_text_setting(struct fw_cli *cli, struct fw_setlist *l, const struct fw_setlist_item *it,
			   const char *why);

#endif
