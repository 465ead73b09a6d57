/* The fwlens command line: a command registry, one option table per command, shared options,
 * output writers and logging. Only tools/cli prints.
 *
 * To add a command: create tools/cli/cmd-NAME.c with a run function and an
 *     FW_COMMAND(NAME, .synopsis = ..., .summary = ..., .run = ...);
 * line (at the start of a line: the Makefile generates the command table from those). Help,
 * man pages and shell completion come from the same definition.
 *
 * Files: cli.c dispatches, logs and prints documents; options.c parses options and suggests
 * near names; output-file.c opens standard output or -o FILE and lands it; text-filter.c keeps
 * control characters out of text output (term-escape.c: the escaping it and stderr use) and
 * hands out colours; progress.c draws the progress line. What they share
 * among themselves is in cli-internal.h.
 */
#ifndef FW_CLI_H
#define FW_CLI_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "parsers/json-text.h"

#include "parsers/error.h"

struct fw_option {
	const char *name;  /* long name without "--" */
	char short_name;   /* 0 if none */
	const char *arg;   /* argument placeholder ("FILE"), NULL for a flag */
	const char *help;
	const char *values; /* comma-separated choices for completion ("pe32,te,raw"), "@topics" for the
			     * topic names of the rules, or NULL */
};

struct fw_cli;

struct fw_command {
	const char *name;
	const char *synopsis;    /* after "fwlens NAME " */
	const char *summary;     /* one line */
	const char *description; /* paragraphs, wrapped by the help printer */
	const char *formats;     /* comma-separated --format values, first is the default; NULL: no --format */
	const struct fw_option *options; /* terminated by {0}; shared options are added automatically */
	const char *examples;    /* lines "fwlens ...  # what it does" */
	const char *subcommands; /* comma-separated, for completion ("capture,show") */
	int min_args, max_args;  /* positional arguments; max -1 = unlimited */
	int (*run)(struct fw_cli *cli);
	int order;               /* position in `fwlens help` */
};

#define FW_COMMAND(id, ...) const struct fw_command fw_command_##id = {.name = #id, __VA_ARGS__}

struct fw_cli {
	const struct fw_command *cmd;
	int argc;         /* positional arguments */
	char **argv;
	const char *format;
	const char *output_path; /* -o/--output; NULL = stdout */
	int verbose;
	bool quiet;
	bool color;       /* stdout is a terminal and colour is allowed */
	bool err_color;
	const char **values; /* per option of cmd->options */
	struct {
		size_t index;
		const char *value;
	} *given;            /* every option value in command-line order */
	size_t ngiven;
	int *counts;
	FILE *out;        /* stdout or the temporary output file */
	FILE *text;       /* text formats: a filter in front of out that keeps control characters out */
	char *tmp_path;   /* -o naming a regular file or a new name: the temporary renamed over it */
	int tmp_slot;     /* its registration for removal on a signal */
	bool out_in_place; /* -o naming a device, FIFO or socket: written where it is */
	bool show_progress;
};

/* Registry */
const struct fw_command *fw_cli_find(const char *name);
size_t fw_cli_command_count(void);
const struct fw_command *fw_cli_command_at(size_t i); /* in help order */
/* Shared options every command accepts. */
extern const struct fw_option fw_cli_common_options[];

/* Options of the running command */
const char *fw_cli_opt(const struct fw_cli *cli, const char *name);
bool fw_cli_flag(const struct fw_cli *cli, const char *name);
/* Every value of a repeated option, in order; returns how many (at most max). */
size_t fw_cli_opt_all(const struct fw_cli *cli, const char *name, const char **out, size_t max);
int fw_cli_count(const struct fw_cli *cli, const char *name);
bool fw_cli_format_is(const struct fw_cli *cli, const char *fmt);

/* Output: all command output goes to cli->out; with -o it lands atomically at exit. Text formats
 * (all but json, jsonl and xml) pass through a filter: control characters that firmware strings
 * may carry (escape sequences, BEL, C1 controls raw or in UTF-8, bidi overrides, bytes that are not
 * UTF-8; carriage returns but in formats that copy another tool's bytes) are shown as visible
 * escapes ("\x1b", "\u009b": term-escape.h), so a hostile image cannot drive the terminal; only
 * fwlens's own colour codes (fw_cli_color) pass, and only when colour is on. */
FILE *fw_cli_out(struct fw_cli *cli);
/* The unfiltered output, for commands that write bytes (snapshot capture). */
FILE *fw_cli_out_bytes(struct fw_cli *cli);
/* For commands that write binary data: a usage error (and its exit code) when the output is
 * standard output on a terminal (no -o, or -o -); 0 otherwise. */
int fw_cli_refuse_binary_terminal(struct fw_cli *cli);
/* The output holds secrets (EFI variables, keys, the kernel log): a file -o creates or replaces
 * gets mode 0600 whatever the umask or the mode of the file it replaces. */
void fw_cli_output_private(struct fw_cli *cli);
/* Print a JSON document (pretty, key order preserved) and a newline. Steals the reference. */
void fw_cli_print_json(struct fw_cli *cli, json_t *doc);
/* One JSON value per line (jsonl). Steals the reference. */
void fw_cli_print_jsonl(struct fw_cli *cli, json_t *value);
/* XML rendering of a JSON document with libxml2 (objects -> elements, arrays -> repeated
 * elements named `item_name` or the singular of the key). Steals the reference. */
void fw_cli_print_json_as_xml(struct fw_cli *cli, json_t *doc, const char *root_name);
/* The same two, for a document written while it is built (json-text.h's fw_json_stream): the
 * bytes of the whole document, memory that of its head and one item. */
void fw_cli_print_json_stream(struct fw_cli *cli, const struct fw_json_stream *s);
void fw_cli_print_json_stream_as_xml(struct fw_cli *cli, const struct fw_json_stream *s, const char *root_name);

/* An absolute offset for JSON: the number, or null when it is unknown (inside decompressed data). */
json_t *fw_cli_json_offset(uint64_t offset);

/* Report an error as one line on stderr and return the exit code for it. */
int fw_cli_fail(struct fw_cli *cli, const struct fw_error *err);
int fw_cli_usage_error(struct fw_cli *cli, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Logging to stderr: -q silences warnings, -v/-vv show info/debug. */
void fw_log_warn(const struct fw_cli *cli, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void fw_log_info(const struct fw_cli *cli, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void fw_log_debug(const struct fw_cli *cli, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Colour for stdout ("" when colour is off): "bold", "dim", "red", "green", "yellow", "blue",
 * "cyan", "reset". Text formats get a token the text filter turns into the escape sequence (a
 * firmware string cannot forge one); write it only to fw_cli_out. */
const char *fw_cli_color(const struct fw_cli *cli, const char *what);

/* Progress line on stderr (only on a terminal, only after the work has taken a second, or
 * $FWLENS_PROGRESS_DELAY seconds); total 0 when unknown. Call fw_cli_progress_done when the long
 * work ends, before printing the result (it is also called after every command). */
void fw_cli_progress(struct fw_cli *cli, const char *what, unsigned long done, unsigned long total);
void fw_cli_progress_done(struct fw_cli *cli);

/* Entry point used by main(). */
int fw_cli_main(int argc, char **argv);

/* Help rendering (cmd-help.c) */
void fw_cli_print_command_help(FILE *f, const struct fw_command *cmd, bool color);
void fw_cli_print_usage(FILE *f);

#endif
