/* One path from a command's result to the output: every command that prints a document
 * describes it once (how to build the JSON document, how to write text, and markdown or JSON
 * lines where it has them, and writers of formats only it has) and fw_cli_emit picks by --format.
 * A command's own writer for a format comes first; then json prints the document, xml renders
 * the same document (both written item by item when the command describes it as a stream), jsonl and markdown use their writers, and text is the text writer. Which
 * formats a command takes is its `.formats` (anything else is a usage error, exit 2, naming them).
 *
 * To add an output format: its name in the commands' `.formats`, and either a writer in the
 * command's `writers` (one command) or a member here and its branch in fw_cli_emit (emit.c) when
 * several commands write it. */
#ifndef FW_CLI_EMIT_H
#define FW_CLI_EMIT_H

#include "parsers/json-text.h"

#include "cli.h"

/* A format one command writes its own way (ifrextractor, sce, prometheus, dot, ...), or its own
 * json/xml when it streams them instead of building a document. */
struct fw_emit_writer {
	const char *format;
	int (*write)(struct fw_cli *cli, const void *ctx); /* 0, or the exit code of a failure it reported */
};

/* A document too large to build whole, for json and xml: its head (every member, the list
 * among them as an empty array) and the list's items one at a time (fw_json_stream). The
 * output is byte for byte that of the whole document. */
struct fw_emit_stream {
	json_t *(*head)(const void *ctx);
	const char *list;
	json_t *(*next)(const void *ctx, size_t *pos); /* NULL at the end; *pos starts at 0 */
	const char *sublist;                           /* optional: a list in each item, also streamed */
	json_t *(*sub_next)(const void *ctx, size_t item, size_t *pos);
};

struct fw_emit {
	const char *root;                                    /* XML root element */
	json_t *(*document)(const void *ctx);                /* the JSON document (json, xml) */
	void (*text)(struct fw_cli *cli, const void *ctx);   /* text */
	void (*markdown)(struct fw_cli *cli, const void *ctx); /* NULL: markdown is not offered */
	void (*jsonl)(struct fw_cli *cli, const void *ctx);  /* NULL: jsonl is not offered */
	const void *ctx;
	const struct fw_emit_writer *writers;                /* ends with {NULL}; NULL: none */
};

/* Write the result in the format the command line asked for; 0, or the exit code of a writer
 * that failed. */
int fw_cli_emit(struct fw_cli *cli, const struct fw_emit *e);
/* The same, json and xml written from `stream` as they are built (e->document is not used). */
int fw_cli_emit_stream(struct fw_cli *cli, const struct fw_emit *e, const struct fw_emit_stream *stream);

#endif
