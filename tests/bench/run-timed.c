/* One timed run for `make bench`: runs a command with its output discarded and prints
 * "WALL_S CPU_S MAXRSS_KB EXIT" from the monotonic clock and wait4's rusage (user + system CPU to
 * the microsecond; time(1) prints hundredths, too coarse for a run of 0.1 s).
 *
 *   run-timed COMMAND [ARG...]
 *
 * Built by `make bench` (tools/bench.sh, tools/bench-formats.sh); independent of libfwlens. */
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: run-timed COMMAND [ARG...]\n");
		return 2;
	}
	/* stdout and stderr to /dev/null: the figures are about the work, not a terminal */
	posix_spawn_file_actions_t fa;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
	posix_spawn_file_actions_adddup2(&fa, 1, 2);
	struct timespec t0, t1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	pid_t pid;
	int rc = posix_spawnp(&pid, argv[1], &fa, NULL, argv + 1, environ);
	posix_spawn_file_actions_destroy(&fa);
	if (rc != 0) {
		fprintf(stderr, "run-timed: cannot run %s\n", argv[1]);
		return 2;
	}
	int status;
	struct rusage ru;
	if (wait4(pid, &status, 0, &ru) < 0) {
		perror("run-timed: wait4");
		return 2;
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	double wall = (double)(t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9;
	double cpu = (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) + (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
	printf("%.4f %.6f %ld %d\n", wall, cpu, ru.ru_maxrss, WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status));
	return 0;
}
