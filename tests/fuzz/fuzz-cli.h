/* Shared by the fuzz targets that run writers and whole commands on what a parser built.
 *
 * fw_fuzz_cli() is a command-line context whose output goes to /dev/null, for the writers that
 * print through struct fw_cli; fw_fuzz_command() stores the input in a memory file and runs
 * `fwlens ARGS...` on it in-process, "@" in ARGS standing for that file's path, so a command's
 * whole pipeline (open, parse, model, query, writer, exit code) runs as a user would start it.
 * Standard output is sent to /dev/null once; fuzz.sh closes standard error (-close_fd_mask=2). */
#ifndef FW_FUZZ_CLI_H
#define FW_FUZZ_CLI_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "parsers/tree-json.h"
#include "tools/cli/cli.h"
#include "tools/cli/tree-writers.h"

static inline FILE *fw_fuzz_sink(void)
{
	static FILE *sink;
	if (!sink) {
		sink = fopen("/dev/null", "w");
		if (!sink || !freopen("/dev/null", "w", stdout))
			abort();
	}
	return sink;
}

static inline struct fw_cli *fw_fuzz_cli(const char *format)
{
	static struct fw_cli cli;
	memset(&cli, 0, sizeof(cli));
	cli.format = format;
	cli.out = fw_fuzz_sink();
	cli.quiet = true;
	return &cli;
}

/* Run `fwlens args[0] args[1] ...` (at most 14 arguments) on the input; returns the exit code. */
static inline int fw_fuzz_command(const uint8_t *data, size_t size, const char *const *args, int nargs)
{
	static int fd = -1;
	if (fd < 0 && (fd = memfd_create("fwlens-fuzz", 0)) < 0)
		abort();
	if (ftruncate(fd, 0) != 0)
		abort();
	for (size_t done = 0; done < size;) {
		ssize_t w = pwrite(fd, data + done, size - done, (off_t)done);
		if (w <= 0)
			abort();
		done += (size_t)w;
	}
	char path[64];
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	char *argv[16];
	int argc = 0;
	argv[argc++] = (char *)"fwlens";
	for (int i = 0; i < nargs && argc < 15; i++)
		argv[argc++] = strcmp(args[i], "@") == 0 ? path : (char *)args[i];
	argv[argc] = NULL;
	fw_fuzz_sink();
	int rc = fw_cli_main(argc, argv);
	fflush(stdout);
	return rc;
}

/* Every writer of a node tree: the UEFIExtract-style table (with CRC32s, all depths and one
 * level), JSON and XML. */
static inline void fw_fuzz_tree_writers(const struct fw_tree *t, const char *kind)
{
	FILE *f = fw_fuzz_sink();
	fw_tree_write_text(f, t, &(struct fw_tree_text_opts){.crc = true, .max_depth = -1});
	fw_tree_write_text(f, t, &(struct fw_tree_text_opts){.crc = false, .max_depth = 1});
	json_t *doc = fw_tree_to_json(t, kind, FW_JSON_CRC32);
	char *text = json_dumps(doc, JSON_COMPACT | JSON_PRESERVE_ORDER);
	free(text);
	json_decref(doc);
	fw_tree_write_xml(f, t, kind, true);
}

#endif
