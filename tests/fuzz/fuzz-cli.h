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

#include "tools/cli/tree-json.h"
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

static inline void fw_fuzz_fill(int fd, const uint8_t *data, size_t size)
{
	if (ftruncate(fd, 0) != 0)
		abort();
	for (size_t done = 0; done < size;) {
		ssize_t w = pwrite(fd, data + done, size - done, (off_t)done);
		if (w <= 0)
			abort();
		done += (size_t)w;
	}
}

static char fw_fuzz_link_dir[64];
static char fw_fuzz_link[96];
static inline void fw_fuzz_unlink(void)
{
	unlink(fw_fuzz_link);
	rmdir(fw_fuzz_link_dir);
}

/* Run `fwlens args[0] args[1] ...` (at most 14 arguments) with "@" standing for a memory file
 * holding `a`, "@2" for one holding `b` ("@2.json" for a link to it whose name says JSON: the
 * settings-list source is told by its extension), and standard input reading `a` too (for the
 * "-" source of find, query and diff); returns the exit code. */
static inline int fw_fuzz_command2(const uint8_t *a, size_t alen, const uint8_t *b, size_t blen,
				   const char *const *args, int nargs)
{
	static int fd[2] = {-1, -1};
	for (int i = 0; i < 2; i++)
		if (fd[i] < 0 && (fd[i] = memfd_create("fwlens-fuzz", 0)) < 0)
			abort();
	fw_fuzz_fill(fd[0], a, alen);
	fw_fuzz_fill(fd[1], b, blen);
	if (dup2(fd[0], STDIN_FILENO) < 0)
		abort();
	rewind(stdin);
	char path[2][64];
	for (int i = 0; i < 2; i++)
		snprintf(path[i], sizeof(path[i]), "/proc/self/fd/%d", fd[i]);
	if (!fw_fuzz_link[0]) {
		strcpy(fw_fuzz_link_dir, "/tmp/fwlens-fuzz-XXXXXX");
		if (!mkdtemp(fw_fuzz_link_dir))
			abort();
		snprintf(fw_fuzz_link, sizeof(fw_fuzz_link), "%s/second.json", fw_fuzz_link_dir);
		if (symlink(path[1], fw_fuzz_link) != 0)
			abort();
		atexit(fw_fuzz_unlink);
	}
	char *argv[16];
	int argc = 0;
	argv[argc++] = (char *)"fwlens";
	for (int i = 0; i < nargs && argc < 15; i++)
		argv[argc++] = strcmp(args[i], "@") == 0    ? path[0]
			       : strcmp(args[i], "@2") == 0 ? path[1]
			       : strcmp(args[i], "@2.json") == 0 ? fw_fuzz_link
								 : (char *)args[i];
	argv[argc] = NULL;
	fw_fuzz_sink();
	int rc = fw_cli_main(argc, argv);
	fflush(stdout);
	return rc;
}

static inline int fw_fuzz_command(const uint8_t *data, size_t size, const char *const *args, int nargs)
{
	return fw_fuzz_command2(data, size, data, size, args, nargs);
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
