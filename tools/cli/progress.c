/* Progress on stderr, and the lock that keeps every other stderr line off the progress line. */
#include "cli-internal.h"

#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "parsers/cleanup.h"

/* One progress line on stderr, only when stderr is a terminal and the work has taken longer than
 * the delay (1 s, or $FWLENS_PROGRESS_DELAY seconds). A ticker thread redraws it every quarter
 * second, so a long single step (parsing two images) still shows it is alive; log lines clear it
 * first, so the two never share a line. */
static struct {
	pthread_mutex_t mu;
	pthread_cond_t cv;
	pthread_t ticker;
	bool active, stop, shown;
	struct timespec start;
	double delay;
	double last_draw;
	char what[128];
	unsigned long done, total;
} progress = {.mu = PTHREAD_MUTEX_INITIALIZER, .cv = PTHREAD_COND_INITIALIZER};

/* Whether a progress line stands on the terminal, for the signal handler and the out-of-memory
 * exit, which cannot take the lock: they clear it (fw_cleanup hook) before they end the run, so
 * the shell's prompt or the error starts a line of its own. */
static volatile sig_atomic_t line_on_screen, ending;

static void clear_line_at_exit(void)
{
	ending = 1; /* no thread draws it again */
	if (line_on_screen) {
		static const char clear[] = "\r\033[K";
		ssize_t w = write(STDERR_FILENO, clear, sizeof(clear) - 1);
		(void)w;
		line_on_screen = 0;
	}
}

double fw_cli_seconds_since(const struct timespec *t0)
{
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	return (double)(now.tv_sec - t0->tv_sec) + (double)(now.tv_nsec - t0->tv_nsec) / 1e9;
}

/* With the lock held. */
static void progress_draw(void)
{
	double t = fw_cli_seconds_since(&progress.start);
	if (t < progress.delay || ending)
		return;
	fprintf(stderr, "\r\033[K%s", progress.what);
	if (progress.total)
		fprintf(stderr, ": %lu/%lu (%lu%%)", progress.done, progress.total, progress.done * 100 / progress.total);
	else if (progress.done)
		fprintf(stderr, ": %lu", progress.done);
	if (t >= 1)
		fprintf(stderr, ", %.0f s", t);
	fflush(stderr);
	progress.shown = true;
	line_on_screen = 1;
	progress.last_draw = t;
}

/* With the lock held: clear the line so a log line can be printed. */
static void progress_clear(void)
{
	if (progress.shown) {
		fputs("\r\033[K", stderr);
		progress.shown = false;
		line_on_screen = 0;
	}
}

/* Everything else written to stderr goes between these, so it never lands on the progress line. */
void fw_cli_stderr_begin(void)
{
	pthread_mutex_lock(&progress.mu);
	progress_clear();
}

void fw_cli_stderr_end(void)
{
	pthread_mutex_unlock(&progress.mu);
}

static void *progress_ticker(void *unused)
{
	(void)unused;
	pthread_mutex_lock(&progress.mu);
	while (!progress.stop) {
		struct timespec until;
		clock_gettime(CLOCK_REALTIME, &until);
		until.tv_nsec += 250 * 1000 * 1000;
		if (until.tv_nsec >= 1000 * 1000 * 1000) {
			until.tv_sec++;
			until.tv_nsec -= 1000 * 1000 * 1000;
		}
		pthread_cond_timedwait(&progress.cv, &progress.mu, &until);
		if (!progress.stop)
			progress_draw();
	}
	pthread_mutex_unlock(&progress.mu);
	return NULL;
}

void fw_cli_progress(struct fw_cli *cli, const char *what, unsigned long done, unsigned long total)
{
	if (!cli || !cli->show_progress)
		return;
	pthread_mutex_lock(&progress.mu);
	snprintf(progress.what, sizeof(progress.what), "%s", what);
	progress.done = done;
	progress.total = total;
	if (!progress.active) {
		clock_gettime(CLOCK_MONOTONIC, &progress.start);
		const char *d = getenv("FWLENS_PROGRESS_DELAY");
		char *end;
		double v = d && *d ? strtod(d, &end) : 1.0;
		progress.delay = d && *d && *end == '\0' && v >= 0 ? v : 1.0;
		progress.stop = false;
		progress.last_draw = -1;
		fw_cleanup_set_hook(clear_line_at_exit);
		progress.active = pthread_create(&progress.ticker, NULL, progress_ticker, NULL) == 0;
	}
	/* fast callers redraw at most ten times a second; the ticker covers long steps */
	if (fw_cli_seconds_since(&progress.start) - progress.last_draw >= 0.1)
		progress_draw();
	pthread_mutex_unlock(&progress.mu);
}

void fw_cli_progress_done(struct fw_cli *cli)
{
	(void)cli;
	pthread_mutex_lock(&progress.mu);
	bool active = progress.active;
	progress.stop = true;
	pthread_cond_signal(&progress.cv);
	pthread_mutex_unlock(&progress.mu);
	if (active)
		pthread_join(progress.ticker, NULL);
	pthread_mutex_lock(&progress.mu);
	progress_clear();
	progress.active = false;
	pthread_mutex_unlock(&progress.mu);
}
