/* iasl as a child process. */
#include "iasl.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "parsers/file.h"

extern char **environ;

#define IASL_LOG_MAX 8192
#define IASL_DSL_CAP ((size_t)512 << 20)

const char *fw_iasl_program(void)
{
	const char *p = getenv("FWLENS_IASL");
	return p && *p ? p : "iasl";
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
static bool wait_child(pid_t pid, unsigned timeout_s, int *status)
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
		if (elapsed_ms >= (int64_t)timeout_s * 1000) {
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

bool fw_iasl_disassemble(struct fw_iasl_job *jobs, size_t n, unsigned timeout_s, char **log, struct fw_error *err)
{
	if (log)
		*log = NULL;
	if (!n)
		return true;
	const char *tmp = getenv("TMPDIR");
	char dir[4096];
	snprintf(dir, sizeof(dir), "%s/fwlens-iasl.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(dir))
		return fw_error_errno(err, "cannot create a temporary folder for iasl");
	bool ok = true;
	char **argv = fw_xcalloc(n + 3, sizeof(char *));
	argv[0] = (char *)fw_iasl_program();
	argv[1] = "-d";
	for (size_t i = 0; i < n && ok; i++) {
		if (!valid_stem(jobs[i].name)) {
			ok = fw_error_set(err, FW_E_INTERNAL, "iasl job name '%s' is not a plain file stem", jobs[i].name);
			break;
		}
		argv[i + 2] = fw_xasprintf("%s/%s.dat", dir, jobs[i].name);
		ok = write_file(argv[i + 2], jobs[i].aml, jobs[i].len, err);
	}
	char logpath[4200];
	snprintf(logpath, sizeof(logpath), "%s/iasl.log", dir);
	pid_t pid = -1;
	if (ok) {
		posix_spawn_file_actions_t fa;
		posix_spawn_file_actions_init(&fa);
		posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
		posix_spawn_file_actions_addopen(&fa, 1, logpath, O_WRONLY | O_CREAT | O_TRUNC, 0600);
		posix_spawn_file_actions_adddup2(&fa, 1, 2);
		posix_spawnattr_t attr;
		posix_spawnattr_init(&attr);
		posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP);
		posix_spawnattr_setpgroup(&attr, 0);
		int rc = strchr(argv[0], '/') ? posix_spawn(&pid, argv[0], &fa, &attr, argv, environ)
					       : posix_spawnp(&pid, argv[0], &fa, &attr, argv, environ);
		posix_spawnattr_destroy(&attr);
		posix_spawn_file_actions_destroy(&fa);
		if (rc != 0) {
			errno = rc;
			if (rc == ENOENT)
				ok = fw_error_set(err, FW_E_DEPENDENCY,
						  "%s is not installed: reading the DSDT/SSDT needs ACPICA's iasl (Debian/Ubuntu: apt-get install acpica-tools)",
						  argv[0]);
			else
				ok = fw_error_errno(err, "cannot start %s", argv[0]);
		}
	}
	if (ok) {
		int status = 0;
		if (!wait_child(pid, timeout_s ? timeout_s : FW_IASL_TIMEOUT_DEFAULT, &status))
			ok = fw_error_set(err, FW_E_DEPENDENCY, "%s -d did not finish within %u s and was stopped", argv[0],
					  timeout_s ? timeout_s : FW_IASL_TIMEOUT_DEFAULT);
		else if (WIFSIGNALED(status))
			ok = fw_error_set(err, FW_E_DEPENDENCY, "%s -d was killed by signal %d", argv[0], WTERMSIG(status));
		/* iasl exits non-zero on namespace warnings while still writing every .dsl: judge by output. */
	}
	size_t produced = 0;
	for (size_t i = 0; i < n && ok; i++) {
		char path[4200];
		snprintf(path, sizeof(path), "%s/%s.dsl", dir, jobs[i].name);
		struct fw_file f;
		struct fw_error local;
		if (!fw_file_read(path, IASL_DSL_CAP, &f, &local))
			continue;
		jobs[i].dsl = fw_xmalloc(f.len + 1);
		memcpy(jobs[i].dsl, f.data, f.len);
		jobs[i].dsl[f.len] = '\0';
		jobs[i].dsl_len = f.len;
		fw_file_close(&f);
		produced++;
	}
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
	if (ok && !produced)
		ok = fw_error_set(err, FW_E_DEPENDENCY, "%s -d produced no disassembly for %zu table%s", argv[0], n, n == 1 ? "" : "s");
	for (size_t i = 0; i < n; i++)
		free(argv[i + 2]);
	free(argv);
	remove_tree(dir);
	return ok;
}

void fw_iasl_jobs_free(struct fw_iasl_job *jobs, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(jobs[i].dsl);
		jobs[i].dsl = NULL;
	}
}
