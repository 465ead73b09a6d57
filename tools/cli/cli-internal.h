/* What the files of the command line share among themselves (not for commands: they use cli.h). */
#ifndef FW_CLI_INTERNAL_H
#define FW_CLI_INTERNAL_H

#include <stdbool.h>
#include <time.h>

#include "cli.h"

/* options.c: parse the command's arguments into cli (0 ok, -1 help was printed, else an exit
 * code after a usage error); name the nearest command to a mistyped one; colour decision for fd. */
int fw_cli_parse_args(struct fw_cli *cli, int argc, char **argv);
void fw_cli_suggest_command(const char *name);
bool fw_cli_color_wanted(const char *when, int fd);

/* progress.c: everything written to stderr goes between begin and end, so it never lands on the
 * progress line. */
void fw_cli_stderr_begin(void);
void fw_cli_stderr_end(void);
double fw_cli_seconds_since(const struct timespec *t0);

/* output-file.c: open standard output, the temporary beside -o FILE or the device it names; flush
 * and land it at exit (returns the final exit status). */
bool fw_cli_open_output(struct fw_cli *cli, struct fw_error *err);
int fw_cli_finish_output(struct fw_cli *cli, int rc);
/* SIGINT, SIGTERM, SIGHUP and SIGXFSZ remove the temporary output and any iasl child and its
 * folder, then end the process by the same signal (signals the caller ignores stay ignored). */
void fw_cli_catch_signals(void);

/* text-filter.c: text formats pass through the control-character filter (see fw_cli_out). */
bool fw_cli_text_format(const struct fw_cli *cli);
void fw_cli_open_text_filter(struct fw_cli *cli);

#endif
