/* iasl as a child process. */
#include "iasl.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "parsers/cleanup.h"
#include "parsers/env.h"
#include "parsers/file.h"

extern char **environ;

#define IASL_LOG_MAX 8192
#define IASL_DSL_CAP ((size_t)512 << 20)

const char *fw_iasl_program(void)
{
	const char *p = fw_env()->iasl;
	return p ? p : "iasl";
}

/* The signals that end a run early (the CLI's handler undoes what parsers/cleanup.h holds) are
 * held off while a child or a folder comes into being and is registered, so neither can be left
 * behind by a signal that falls in between. */
static void hold_signals(sigset_t *old)
{
	sigset_t set;
	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGHUP);
	sigaddset(&set, SIGXFSZ);
	pthread_sigmask(SIG_BLOCK, &set, old);
}

static bool write_file(const char *path, const uint8_t *p, size_t n, struct fw_error *err)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd < 0)
		return fw_error_errno(err, "%s: cannot create", path);
	while (n) {
		ssize_t w = write(fd, p, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			close(fd);
			return fw_error_errno(err, "%s: write failed", path);
		}
		p += w;
		n -= (size_t)w;
	}
	if (close(fd) != 0)
		return fw_error_errno(err, "%s: write failed", path);
	return true;
}

static void remove_tree(const char *dir)
{
	DIR *d = opendir(dir);
	if (d) {
		struct dirent *e;
		while ((e = readdir(d))) {
			if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
				continue;
			char path[4096];
			snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
			unlink(path);
		}
		closedir(d);
	}
	rmdir(dir);
}

static bool valid_stem(const char *s)
{
	if (!*s || strlen(s) > 32)
		return false;
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9')))
			return false;
	return true;
}

/* Wait for the child; kill its process group when the deadline passes. False on timeout. */
static bool wait_child(pid_t pid, int64_t timeout_ms, int *status)
{
	struct timespec start, now, nap = {0, 5 * 1000 * 1000};
	clock_gettime(CLOCK_MONOTONIC, &start);
	for (;;) {
		pid_t r = waitpid(pid, status, WNOHANG);
		if (r == pid)
			return true;
		if (r < 0 && errno != EINTR) {
			*status = 0;
			return true;
		}
		clock_gettime(CLOCK_MONOTONIC, &now);
		int64_t elapsed_ms = (int64_t)(now.tv_sec - start.tv_sec) * 1000 + (now.tv_nsec - start.tv_nsec) / 1000000;
		if (elapsed_ms >= timeout_ms) {
			kill(-pid, SIGKILL); /* the child leads its own group: helpers it started go too */
			kill(pid, SIGKILL);
			while (waitpid(pid, status, 0) < 0 && errno == EINTR)
				;
			return false;
		}
		nanosleep(&nap, NULL);
		if (nap.tv_nsec < 50 * 1000 * 1000)
			nap.tv_nsec *= 2;
	}
}

enum run_result { RUN_DONE, RUN_SIGNALED, RUN_TIMEOUT, RUN_FAILED };

/* One iasl process over argv (argv[0] the program, NULL-terminated), its output appended to
 * logpath, given `budget_ms`. */
static enum run_result run_iasl(char **argv, const char *logpath, int64_t budget_ms, int *signo, struct fw_error *err)
{
	posix_spawn_file_actions_t fa;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_addopen(&fa, 1, logpath, O_WRONLY | O_CREAT | O_APPEND, 0600);
	posix_spawn_file_actions_adddup2(&fa, 1, 2);
	posix_spawnattr_t attr;
	posix_spawnattr_init(&attr);
	sigset_t old;
	hold_signals(&old);
	posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK);
	posix_spawnattr_setpgroup(&attr, 0);
	posix_spawnattr_setsigmask(&attr, &old);
	pid_t pid = -1;
	int rc = strchr(argv[0], '/') ? posix_spawn(&pid, argv[0], &fa, &attr, argv, environ)
				       : posix_spawnp(&pid, argv[0], &fa, &attr, argv, environ);
	/* its own process group, so a terminal's ^C does not reach it: a signal that ends fwlens kills it */
	int slot = rc == 0 ? fw_cleanup_add_child(pid) : -1;
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	posix_spawnattr_destroy(&attr);
	posix_spawn_file_actions_destroy(&fa);
	if (rc != 0) {
		errno = rc;
		if (rc == ENOENT)
			fw_error_set(err, FW_E_DEPENDENCY,
				     "%s is not installed: reading the DSDT/SSDT needs ACPICA's iasl (Debian/Ubuntu: apt-get install acpica-tools)",
				     argv[0]);
		else
			fw_error_errno(err, "cannot start %s", argv[0]);
		return RUN_FAILED;
	}
	int status = 0;
	bool finished = wait_child(pid, budget_ms, &status);
	fw_cleanup_forget(slot);
	if (!finished)
		return RUN_TIMEOUT;
	if (WIFSIGNALED(status)) {
		*signo = WTERMSIG(status);
		return RUN_SIGNALED;
	}
	/* iasl exits non-zero on namespace warnings while still writing every .dsl: judge by output. */
	return RUN_DONE;
}

static int64_t now_ms(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (int64_t)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

/* -1: no file; 0: an empty file (iasl gave up on the table); 1: job->dsl holds the text. */
static int read_dsl(struct fw_iasl_job *job, const char *dir)
{
	char path[4200];
	snprintf(path, sizeof(path), "%s/%s.dsl", dir, job->name);
	free(job->dsl);
	job->dsl = NULL;
	job->dsl_len = 0;
	struct fw_file f;
	struct fw_error local;
	if (!fw_file_read(path, IASL_DSL_CAP, &f, &local))
		return access(path, F_OK) == 0 ? 0 : -1;
	if (!f.len) {
		fw_file_close(&f);
		return 0;
	}
	job->dsl = fw_xmalloc(f.len + 1);
	memcpy(job->dsl, f.data, f.len);
	job->dsl[f.len] = '\0';
	job->dsl_len = f.len;
	fw_file_close(&f);
	return 1;
}

static void drop_dsl(struct fw_iasl_job *job, const char *dir)
{
	char path[4200];
	snprintf(path, sizeof(path), "%s/%s.dsl", dir, job->name);
	unlink(path);
	free(job->dsl);
	job->dsl = NULL;
	job->dsl_len = 0;
}

/* Runs iasl over jobs[first..first+count) and reads what it wrote; *made is one past the last
 * job whose .dsl file exists (first when none). */
static enum run_result run_jobs(struct fw_iasl_job *jobs, char **argv, char **paths, size_t first, size_t count,
				const char *dir, const char *logpath, int64_t deadline, int *signo, size_t *made,
				struct fw_error *err)
{
	for (size_t i = 0; i < count; i++)
		argv[i + 2] = paths[first + i];
	argv[count + 2] = NULL;
	int64_t left = deadline - now_ms();
	enum run_result r = left > 0 ? run_iasl(argv, logpath, left, signo, err) : RUN_TIMEOUT;
	*made = first;
	if (r == RUN_DONE || r == RUN_SIGNALED)
		for (size_t i = first; i < first + count; i++)
			if (read_dsl(&jobs[i], dir) >= 0)
				*made = i + 1;
	return r;
}

bool fw_iasl_disassemble(struct fw_iasl_job *jobs, size_t n, unsigned timeout_s, char **log, struct fw_error *err)
{
	if (log)
		*log = NULL;
	if (!n)
		return true;
	unsigned limit_s = timeout_s ? timeout_s : FW_IASL_TIMEOUT_DEFAULT;
	int64_t deadline = now_ms() + (int64_t)limit_s * 1000;
	const char *tmp = fw_env()->tmpdir;
	char dir[4096];
	snprintf(dir, sizeof(dir), "%s/fwlens-iasl.XXXXXX", tmp ? tmp : "/tmp");
	sigset_t old;
	hold_signals(&old);
	if (!mkdtemp(dir)) {
		pthread_sigmask(SIG_SETMASK, &old, NULL);
		return fw_error_errno(err, "cannot create a temporary folder for iasl");
	}
	int dir_slot = fw_cleanup_add_folder(dir);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	bool ok = true;
	char **paths = fw_xcalloc(n, sizeof(char *));
	char **argv = fw_xcalloc(n + 3, sizeof(char *));
	argv[0] = (char *)fw_iasl_program();
	argv[1] = "-d";
	for (size_t i = 0; i < n; i++) {
		jobs[i].signal = 0;
		if (!valid_stem(jobs[i].name)) {
			ok = fw_error_set(err, FW_E_INTERNAL, "iasl job name '%s' is not a plain file stem", jobs[i].name);
			break;
		}
		paths[i] = fw_xasprintf("%s/%s.dat", dir, jobs[i].name);
		ok = write_file(paths[i], jobs[i].aml, jobs[i].len, err);
		if (!ok)
			break;
	}
	char logpath[4200];
	snprintf(logpath, sizeof(logpath), "%s/iasl.log", dir);
	/* One process for every table first. iasl keeps one namespace across the files of a run: a
	 * table that redefines an object of an earlier one is refused (an empty .dsl), and a crash
	 * ends the run (the .dsl files come in command-line order, the last one may be partial).
	 * Every table left without a disassembly then runs alone, so a conflict or a crash costs
	 * only the table that causes it. */
	enum run_result r = RUN_FAILED;
	if (ok) {
		int signo = 0;
		size_t made = 0;
		r = run_jobs(jobs, argv, paths, 0, n, dir, logpath, deadline, &signo, &made, err);
		if (r == RUN_SIGNALED && made)
			drop_dsl(&jobs[made - 1], dir);
		if (r == RUN_SIGNALED && n == 1)
			jobs[0].signal = signo;
	}
	for (size_t i = 0; n > 1 && (r == RUN_DONE || r == RUN_SIGNALED) && i < n; i++) {
		if (jobs[i].dsl)
			continue;
		drop_dsl(&jobs[i], dir);
		int signo = 0;
		size_t made = 0;
		enum run_result one = run_jobs(jobs, argv, paths, i, 1, dir, logpath, deadline, &signo, &made, err);
		if (one == RUN_SIGNALED) {
			drop_dsl(&jobs[i], dir); /* whatever it wrote is partial */
			jobs[i].signal = signo;
		} else if (one != RUN_DONE) {
			r = one;
		}
	}
	if (r == RUN_FAILED)
		ok = false;
	else if (r == RUN_TIMEOUT)
		ok = fw_error_set(err, FW_E_DEPENDENCY, "%s -d did not finish within %u s and was stopped", argv[0], limit_s);
	size_t produced = 0;
	for (size_t i = 0; i < n; i++)
		produced += jobs[i].dsl != NULL;
	if (log) {
		struct fw_file f;
		struct fw_error local;
		if (fw_file_read(logpath, IASL_LOG_MAX * 64, &f, &local)) {
			size_t len = f.len < IASL_LOG_MAX ? f.len : IASL_LOG_MAX;
			*log = fw_xmalloc(len + 1);
			memcpy(*log, f.data, len);
			(*log)[len] = '\0';
			fw_file_close(&f);
		}
	}
	if (ok && !produced) {
		size_t crashed = 0;
		int signo = 0;
		for (size_t i = 0; i < n; i++)
			if (jobs[i].signal)
				crashed++, signo = jobs[i].signal;
		if (crashed == n)
			ok = fw_error_set(err, FW_E_DEPENDENCY, "%s -d was killed by signal %d on every table", argv[0], signo);
		else
			ok = fw_error_set(err, FW_E_DEPENDENCY, "%s -d produced no disassembly for %zu table%s", argv[0], n,
					  n == 1 ? "" : "s");
	}
	for (size_t i = 0; i < n; i++)
		free(paths[i]);
	free(paths);
	free(argv);
	remove_tree(dir);
	fw_cleanup_forget(dir_slot);
	return ok;
}

void fw_iasl_jobs_free(struct fw_iasl_job *jobs, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(jobs[i].dsl);
		jobs[i].dsl = NULL;
	}
}
