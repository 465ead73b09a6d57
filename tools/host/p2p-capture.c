/* Capture of nvidia-smi's P2P view on the live machine (p2p-capture.h): the program run without a
 * shell, its standard input and error on /dev/null, a small fixed environment, at most
 * P2P_RUN_SECONDS in all and P2P_RUN_CAP bytes of output; a child that overruns is killed and
 * what it wrote is dropped. */
#include "p2p-capture.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define P2P_RUN_SECONDS 20
#define P2P_RUN_CAP ((size_t)1 << 20)

static long long now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

bool fw_p2p_run(char *const argv[], uint8_t **out, size_t *len, char *why, size_t whylen)
{
	int pipefd[2];
	if (pipe2(pipefd, O_CLOEXEC) != 0) {
		snprintf(why, whylen, "pipe: %s", strerror(errno));
		return false;
	}
	posix_spawn_file_actions_t fa;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_adddup2(&fa, pipefd[1], STDOUT_FILENO);
	posix_spawn_file_actions_addopen(&fa, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
	char *envp[] = {"PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin", "LC_ALL=C", NULL};
	pid_t pid;
	int rc = posix_spawnp(&pid, argv[0], &fa, NULL, argv, envp);
	posix_spawn_file_actions_destroy(&fa);
	close(pipefd[1]);
	if (rc != 0) {
		close(pipefd[0]);
		snprintf(why, whylen, "cannot run %s: %s", argv[0], strerror(rc));
		return false;
	}
	size_t size = 0;
	uint8_t *buf = fw_xmalloc(P2P_RUN_CAP);
	long long deadline = now_ms() + P2P_RUN_SECONDS * 1000LL;
	bool overran = false;
	struct pollfd pfd = {pipefd[0], POLLIN, 0};
	for (;;) {
		long long left = deadline - now_ms();
		if (left <= 0 || size == P2P_RUN_CAP) {
			overran = true;
			break;
		}
		int pr = poll(&pfd, 1, (int)left);
		if (pr < 0 && errno == EINTR)
			continue;
		if (pr <= 0) {
			overran = pr == 0;
			break;
		}
		ssize_t r = read(pipefd[0], buf + size, P2P_RUN_CAP - size);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		size += (size_t)r;
	}
	close(pipefd[0]);
	if (overran)
		kill(pid, SIGKILL);
	int status = 0;
	waitpid(pid, &status, 0);
	if (overran || !WIFEXITED(status) || WEXITSTATUS(status) != 0 || !size) {
		snprintf(why, whylen, "%s %s", argv[0],
			 overran ? "ran past its time or output limit" : !size ? "printed nothing" : "failed");
		free(buf);
		return false;
	}
	*out = buf;
	*len = size;
	return true;
}
