/* The running kernel's log on a live root: /dev/kmsg read to its newest record, or the dmesg
 * program. The kmsg record format is the kernel's (Documentation/ABI/testing/dev-kmsg). */
#include "kernel-log.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "parsers/error.h"

extern char **environ;

/* The most a log may hold: the kernel's buffer is at most a few MiB, dmesg's output the same. */
#define KERNEL_LOG_CAP (64u << 20)

char *fw_kernel_log_from_kmsg(const char *records, size_t len, size_t *out_len)
{
	/* each record grows by at most "[" + 20 digits + "." + 6 + "] " and shrinks by its header */
	size_t lines = 1;
	for (size_t i = 0; i < len; i++)
		lines += records[i] == '\n';
	size_t cap = len + lines * 32 + 1, n = 0;
	char *out = fw_xmalloc(cap);
	for (size_t i = 0; i < len;) {
		const char *line = records + i;
		const char *nl = memchr(line, '\n', len - i);
		size_t ll = nl ? (size_t)(nl - line) : len - i;
		i += ll + (nl != NULL);
		if (ll == 0 || line[0] == ' ')
			continue; /* continuation line (" SUBSYSTEM=pci", " DEVICE=+pci:...") */
		const char *semi = memchr(line, ';', ll);
		unsigned prio;
		uint64_t seq, usec;
		char tail;
		if (semi && sscanf(line, "%u,%" SCNu64 ",%" SCNu64 ",%c", &prio, &seq, &usec, &tail) == 4) {
			const char *msg = semi + 1;
			size_t ml = ll - (size_t)(msg - line);
			n += (size_t)snprintf(out + n, cap - n, "[%5" PRIu64 ".%06" PRIu64 "] ", usec / 1000000, usec % 1000000);
			memcpy(out + n, msg, ml);
			n += ml;
		} else {
			memcpy(out + n, line, ll);
			n += ll;
		}
		out[n++] = '\n';
	}
	out[n] = '\0';
	*out_len = n;
	return out;
}

bool fw_kernel_log_kmsg(const char *path, uint8_t **data, size_t *len, char *why, size_t whylen)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0) {
		snprintf(why, whylen, "%s", strerror(errno));
		return false;
	}
	size_t size = 0, alloc = 65536;
	char *raw = fw_xmalloc(alloc);
	bool ok = true;
	for (;;) {
		if (alloc - size < 8192) {
			if (alloc >= KERNEL_LOG_CAP)
				break; /* keep what fits */
			alloc *= 2;
			raw = fw_xrealloc(raw, alloc);
		}
		/* one record per read on the device; a whole file (a copy of its records) in pieces */
		ssize_t r = read(fd, raw + size, alloc - size);
		if (r > 0) {
			size += (size_t)r;
			continue;
		}
		if (r == 0 || errno == EAGAIN)
			break; /* the newest record was read */
		if (errno == EINTR || errno == EPIPE)
			continue; /* EPIPE: the record was overwritten while reading; the next one follows */
		snprintf(why, whylen, "%s", strerror(errno));
		ok = false;
		break;
	}
	close(fd);
	if (ok && size == 0) {
		snprintf(why, whylen, "no records");
		ok = false;
	}
	if (!ok) {
		free(raw);
		return false;
	}
	*data = (uint8_t *)fw_kernel_log_from_kmsg(raw, size, len);
	free(raw);
	return true;
}

/* dmesg without a shell; a dmesg that stops writing is given 10 s, then what it wrote is kept. */
bool fw_kernel_log_dmesg(uint8_t **data, size_t *len, char *why, size_t whylen)
{
	int pipefd[2];
	if (pipe2(pipefd, O_CLOEXEC) != 0) {
		snprintf(why, whylen, "pipe: %s", strerror(errno));
		return false;
	}
	posix_spawn_file_actions_t fa;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, pipefd[1], STDOUT_FILENO);
	posix_spawn_file_actions_addopen(&fa, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
	char *argv[] = {"dmesg", NULL};
	pid_t pid;
	int rc = posix_spawnp(&pid, "dmesg", &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	close(pipefd[1]);
	if (rc != 0) {
		close(pipefd[0]);
		snprintf(why, whylen, "cannot run dmesg: %s", strerror(rc));
		return false;
	}
	size_t cap = KERNEL_LOG_CAP, size = 0, alloc = 65536;
	uint8_t *buf = fw_xmalloc(alloc);
	struct pollfd pfd = {pipefd[0], POLLIN, 0};
	for (;;) {
		int pr = poll(&pfd, 1, 10000);
		if (pr <= 0)
			break; /* a stuck dmesg: keep what was read */
		if (size == alloc) {
			if (alloc >= cap)
				break;
			alloc *= 2;
			buf = fw_xrealloc(buf, alloc);
		}
		ssize_t r = read(pipefd[0], buf + size, alloc - size);
		if (r <= 0) {
			if (r < 0 && errno == EINTR)
				continue;
			break;
		}
		size += (size_t)r;
	}
	close(pipefd[0]);
	int status = 0;
	kill(pid, SIGKILL); /* no-op when it already exited */
	waitpid(pid, &status, 0);
	if (size == 0) {
		free(buf);
		snprintf(why, whylen, "dmesg printed nothing (not permitted: kernel.dmesg_restrict?)");
		return false;
	}
	*data = buf;
	*len = size;
	return true;
}

