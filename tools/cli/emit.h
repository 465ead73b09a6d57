/* One path from a command's result to the output: the command describes its document once
 * (how to build the JSON document, how to write text, and markdown or JSON lines where it has
 * them) and fw_cli_emit picks by --format. json prints the document, xml renders the same
 * document, jsonl and markdown use their writers, everything else is text.
 *
 * To add an output format: its name in the commands' `.formats`, its branch in fw_cli_emit
 * (tools/cli/emit.c), and a writer member here when the format needs one per command. */
#ifndef FW_CLI_EMIT_H
#define FW_CLI_EMIT_H

#include <jansson.h>

#include "cli.h"

struct fw_emit {
	const char *root;                                    /* XML root element */
	json_t *(*document)(const void *ctx);                /* the JSON document (json, xml) */
	void (*text)(struct fw_cli *cli, const void *ctx);   /* text */
	void (*markdown)(struct fw_cli *cli, const void *ctx); /* NULL: markdown is not offered */
	void (*jsonl)(struct fw_cli *cli, const void *ctx);  /* NULL: jsonl is not offered */
	const void *ctx;
};

/* Write the result in the format the command line asked for. */
void fw_cli_emit(struct fw_cli *cli, const struct fw_emit *e);

#endif
