/* Command output: standard output, or -o FILE. A regular FILE (or a new name) is written to a
 * temporary beside it and renamed over it only when the run succeeds; a device, FIFO or socket is
 * written in place, as the shell's '>' would; a folder is refused before the command runs. A
 * signal that ends the run removes the temporary (fw_cli_catch_signals). */
#include "cli-internal.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "parsers/cleanup.h"

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

void fw_cli_output_private(struct fw_cli *cli)
{
	if (cli->tmp_path && cli->out)
		fchmod(fileno(cli->out), 0600);
}

static mode_t current_umask(void)
{
	mode_t m = umask(0); /* the only way to read it; put back at once, before any thread starts */
	umask(m);
	return m;
}

/* Output to a file or pipe is written in pieces of 64 KiB: a JSON document of 60 MB is some 900
 * system calls, not 7,000 (the C library's own buffer is a page, and it takes no other size
 * unless given the memory). Standard output has one for the process; the file -o names, one for
 * the stream a command opens and closes. */
#define OUTPUT_BUFFER (64 << 10)
static char stdout_buffer[OUTPUT_BUFFER], file_buffer[OUTPUT_BUFFER];

/* A device, FIFO or socket named by -o: opened and written where it is. */
static bool open_in_place(struct fw_cli *cli, struct fw_error *err)
{
	int fd = open(cli->output_path, O_WRONLY | O_TRUNC | O_NOCTTY | O_CLOEXEC);
	if (fd < 0)
		return fw_error_errno(err, "%s: cannot open the output", cli->output_path);
	cli->out = fdopen(fd, "w");
	if (!cli->out) {
		close(fd);
		return fw_error_errno(err, "%s: cannot open the output", cli->output_path);
	}
	cli->out_in_place = true;
	return true;
}

bool fw_cli_open_output(struct fw_cli *cli, struct fw_error *err)
{
	cli->tmp_slot = -1;
	if (!cli->output_path || strcmp(cli->output_path, "-") == 0) {
		cli->out = stdout;
		static bool given;
		if (!given && !isatty(STDOUT_FILENO)) /* before its first write; a terminal keeps its lines */
			setvbuf(stdout, stdout_buffer, _IOFBF, sizeof(stdout_buffer));
		given = true;
		return true;
	}
	struct stat st;
	mode_t mode = 0666 & ~current_umask();
	bool replacing = stat(cli->output_path, &st) == 0;
	if (replacing && S_ISDIR(st.st_mode))
		return fw_error_set(err, FW_E_IO, "%s: is a folder; -o names the file to write", cli->output_path);
	if (replacing && !S_ISREG(st.st_mode))
		return open_in_place(cli, err);
	if (replacing)
		mode = st.st_mode & 07777;
	cli->tmp_path = fw_xasprintf("%s.tmp-XXXXXX", cli->output_path);
	int fd = mkstemp(cli->tmp_path);
	if (fd < 0) {
		fw_error_errno(err, "%s: cannot create the output file", cli->output_path);
		free(cli->tmp_path);
		cli->tmp_path = NULL;
		return false;
	}
	cli->tmp_slot = fw_cleanup_add_file(cli->tmp_path);
	fchmod(fd, mode);
	if (replacing && (st.st_uid != geteuid() || st.st_gid != getegid()) && fchown(fd, st.st_uid, st.st_gid) != 0)
		fchmod(fd, mode & 0700); /* not ours to give away: group and others lose access rather than gain it */
	cli->out = fdopen(fd, "w");
	if (cli->out)
		setvbuf(cli->out, file_buffer, _IOFBF, sizeof(file_buffer));
	if (!cli->out) {
		close(fd);
		unlink(cli->tmp_path);
		fw_cleanup_forget(cli->tmp_slot);
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
	if (cli->out_in_place) {
		bool write_ok = fflush(cli->out) == 0 && !ferror(cli->out);
		int saved = errno;
		bool close_ok = fclose(cli->out) == 0;
		if (!close_ok && write_ok)
			saved = errno;
		cli->out = NULL;
		cli->out_in_place = false;
		if ((!write_ok || !close_ok) && rc < 2) {
			fprintf(stderr, "fwlens: error: writing %s failed: %s\n", cli->output_path, strerror(saved));
			rc = FW_EXIT_IO;
		}
		return rc;
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
		fw_cleanup_forget(cli->tmp_slot);
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

/* --- signals --------------------------------------------------------------------------------- */

static const int caught_signals[] = {SIGINT, SIGTERM, SIGHUP, SIGXFSZ};

/* Undo what is registered (the temporary output, an iasl child and its folder), then die of the
 * same signal with its default action, so the parent sees the conventional status (128 + signo). */
static void on_fatal_signal(int signo)
{
	fw_cleanup_run();
	signal(signo, SIG_DFL);
	raise(signo);
	sigset_t set;
	sigemptyset(&set);
	sigaddset(&set, signo);
	sigprocmask(SIG_UNBLOCK, &set, NULL);
}

void fw_cli_catch_signals(void)
{
	for (size_t i = 0; i < sizeof(caught_signals) / sizeof(caught_signals[0]); i++) {
		struct sigaction old, sa;
		/* a signal the caller ignores stays ignored (nohup, a background job of sh, trap '' XFSZ) */
		if (sigaction(caught_signals[i], NULL, &old) == 0 && old.sa_handler == SIG_IGN)
			continue;
		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = on_fatal_signal;
		sigfillset(&sa.sa_mask); /* one cleanup at a time */
		sigaction(caught_signals[i], &sa, NULL);
	}
}
