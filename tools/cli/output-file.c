/* Command output: standard output, or -o FILE written to a temporary beside it and renamed over
 * FILE only when the run succeeds. */
#include "cli-internal.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

FILE *fw_cli_out(struct fw_cli *cli)
{
	if (cli->text)
		return cli->text;
	return cli->out ? cli->out : stdout;
}

FILE *fw_cli_out_bytes(struct fw_cli *cli)
{
	if (cli->text)
		fflush(cli->text);
	return cli->out ? cli->out : stdout;
}

int fw_cli_refuse_binary_terminal(struct fw_cli *cli)
{
	bool to_stdout = !cli->output_path || strcmp(cli->output_path, "-") == 0;
	if (to_stdout && isatty(STDOUT_FILENO))
		return fw_cli_usage_error(cli, "refusing to write binary data to a terminal; use -o FILE");
	return 0;
}

bool fw_cli_open_output(struct fw_cli *cli, struct fw_error *err)
{
	if (!cli->output_path || strcmp(cli->output_path, "-") == 0) {
		cli->out = stdout;
		return true;
	}
	cli->tmp_path = fw_xasprintf("%s.tmp-XXXXXX", cli->output_path);
	int fd = mkstemp(cli->tmp_path);
	if (fd < 0) {
		fw_error_errno(err, "%s: cannot create the output file", cli->output_path);
		free(cli->tmp_path);
		cli->tmp_path = NULL;
		return false;
	}
	fchmod(fd, 0644);
	cli->out = fdopen(fd, "w");
	if (!cli->out) {
		close(fd);
		unlink(cli->tmp_path);
		return fw_error_errno(err, "%s: cannot open the output file", cli->output_path);
	}
	return true;
}

/* Flush and land the output. Output of a failed run (exit >= 2) is discarded. */
int fw_cli_finish_output(struct fw_cli *cli, int rc)
{
	if (cli->text) {
		fclose(cli->text); /* flushes into cli->out, whose errors are checked below */
		cli->text = NULL;
	}
	if (cli->tmp_path) {
		bool write_ok = fflush(cli->out) == 0 && !ferror(cli->out) && fsync(fileno(cli->out)) == 0;
		int saved = errno;
		bool close_ok = fclose(cli->out) == 0;
		cli->out = NULL;
		if (rc >= 2 || !write_ok || !close_ok) {
			unlink(cli->tmp_path);
			if (rc < 2) {
				fprintf(stderr, "fwlens: error: writing %s failed: %s\n", cli->output_path, strerror(saved));
				rc = FW_EXIT_IO;
			}
		} else if (rename(cli->tmp_path, cli->output_path) != 0) {
			fprintf(stderr, "fwlens: error: cannot rename %s to %s: %s\n", cli->tmp_path, cli->output_path,
				strerror(errno));
			unlink(cli->tmp_path);
			rc = FW_EXIT_IO;
		}
		free(cli->tmp_path);
		cli->tmp_path = NULL;
		return rc;
	}
	if (fflush(stdout) != 0 || ferror(stdout)) {
		if (errno != EPIPE)
			fprintf(stderr, "fwlens: error: write failure on standard output: %s\n", strerror(errno));
		return rc >= 2 ? rc : FW_EXIT_IO;
	}
	return rc;
}
