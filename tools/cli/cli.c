/* Command dispatch, option parsing, output and logging shared by every command. */
#include "cli.h"

#include <errno.h>
#include <fcntl.h>
#include <libxml/tree.h>
#include <libxml/xmlsave.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

const struct fw_option fw_cli_common_options[] = {
	{"help", 'h', NULL, "show this help and exit", NULL},
	{"output", 'o', "FILE", "write the output to FILE (atomically: a failed run leaves no partial file)", NULL},
	{"format", 0, "FMT", "output format", NULL},
	{"quiet", 'q', NULL, "print no warnings", NULL},
	{"verbose", 'v', NULL, "log more to stderr (-vv: debug)", NULL},
	{"color", 0, "WHEN", "colour on stdout: auto (a terminal without NO_COLOR), always, never", "auto,always,never"},
	{0},
};
enum { COMMON_HELP, COMMON_OUTPUT, COMMON_FORMAT, COMMON_QUIET, COMMON_VERBOSE, COMMON_COLOR, COMMON_COUNT };

static size_t option_count(const struct fw_option *o)
{
	size_t n = 0;
	while (o && o[n].name)
		n++;
	return n;
}

/* Options are indexed: command options first, then the common ones. */
struct opt_ref {
	const struct fw_option *opt;
	size_t index;
};

static bool lookup_long(const struct fw_command *cmd, const char *name, size_t len, struct opt_ref *out)
{
	size_t n = option_count(cmd->options);
	for (size_t i = 0; i < n; i++)
		if (strlen(cmd->options[i].name) == len && strncmp(cmd->options[i].name, name, len) == 0) {
			*out = (struct opt_ref){&cmd->options[i], i};
			return true;
		}
	for (size_t i = 0; i < COMMON_COUNT; i++) {
		if (i == COMMON_FORMAT && !cmd->formats)
			continue;
		if (strlen(fw_cli_common_options[i].name) == len && strncmp(fw_cli_common_options[i].name, name, len) == 0) {
			*out = (struct opt_ref){&fw_cli_common_options[i], n + i};
			return true;
		}
	}
	return false;
}

static bool lookup_short(const struct fw_command *cmd, char c, struct opt_ref *out)
{
	size_t n = option_count(cmd->options);
	for (size_t i = 0; i < n; i++)
		if (cmd->options[i].short_name == c) {
			*out = (struct opt_ref){&cmd->options[i], i};
			return true;
		}
	for (size_t i = 0; i < COMMON_COUNT; i++)
		if (fw_cli_common_options[i].short_name == c) {
			*out = (struct opt_ref){&fw_cli_common_options[i], n + i};
			return true;
		}
	return false;
}

static size_t edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	if (la > 64 || lb > 64)
		return 99;
	size_t d[65][65];
	for (size_t i = 0; i <= la; i++)
		d[i][0] = i;
	for (size_t j = 0; j <= lb; j++)
		d[0][j] = j;
	for (size_t i = 1; i <= la; i++)
		for (size_t j = 1; j <= lb; j++) {
			size_t sub = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);
			size_t del = d[i - 1][j] + 1, ins = d[i][j - 1] + 1;
			d[i][j] = sub < del ? (sub < ins ? sub : ins) : (del < ins ? del : ins);
		}
	return d[la][lb];
}

static const char *closest_option(const struct fw_command *cmd, const char *name)
{
	const char *best = NULL;
	size_t best_d = 3;
	size_t n = option_count(cmd->options);
	for (size_t i = 0; i < n + COMMON_COUNT; i++) {
		const struct fw_option *o = i < n ? &cmd->options[i] : &fw_cli_common_options[i - n];
		size_t d = edit_distance(name, o->name);
		if (d < best_d || (strncmp(o->name, name, strlen(name)) == 0 && strlen(name) >= 3)) {
			best_d = d;
			best = o->name;
		}
	}
	return best;
}

const char *fw_cli_opt(const struct fw_cli *cli, const char *name)
{
	struct opt_ref r;
	if (!lookup_long(cli->cmd, name, strlen(name), &r))
		return NULL;
	return cli->values[r.index];
}

bool fw_cli_flag(const struct fw_cli *cli, const char *name)
{
	return fw_cli_count(cli, name) > 0;
}

int fw_cli_count(const struct fw_cli *cli, const char *name)
{
	struct opt_ref r;
	if (!lookup_long(cli->cmd, name, strlen(name), &r))
		return 0;
	return cli->counts[r.index];
}

bool fw_cli_format_is(const struct fw_cli *cli, const char *fmt)
{
	return cli->format && strcmp(cli->format, fmt) == 0;
}

static bool format_allowed(const char *formats, const char *fmt)
{
	size_t len = strlen(fmt);
	for (const char *p = formats; p && *p;) {
		const char *comma = strchr(p, ',');
		size_t n = comma ? (size_t)(comma - p) : strlen(p);
		if (n == len && strncmp(p, fmt, n) == 0)
			return true;
		p = comma ? comma + 1 : p + n;
	}
	return false;
}

static char *default_format(const char *formats)
{
	const char *comma = strchr(formats, ',');
	return fw_xstrndup(formats, comma ? (size_t)(comma - formats) : strlen(formats));
}

/* --- progress -------------------------------------------------------------------------------- */

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

static double seconds_since(const struct timespec *t0)
{
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	return (double)(now.tv_sec - t0->tv_sec) + (double)(now.tv_nsec - t0->tv_nsec) / 1e9;
}

/* With the lock held. */
static void progress_draw(void)
{
	double t = seconds_since(&progress.start);
	if (t < progress.delay)
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
	progress.last_draw = t;
}

/* With the lock held: clear the line so a log line can be printed. */
static void progress_clear(void)
{
	if (progress.shown) {
		fputs("\r\033[K", stderr);
		progress.shown = false;
	}
}

/* Everything else written to stderr goes between these, so it never lands on the progress line. */
static void stderr_begin(void)
{
	pthread_mutex_lock(&progress.mu);
	progress_clear();
}

static void stderr_end(void)
{
	pthread_mutex_unlock(&progress.mu);
}

/* --- logging --------------------------------------------------------------------------------- */

static void vlog(const struct fw_cli *cli, const char *prefix, const char *color, const char *fmt, va_list ap)
{
	bool c = cli && cli->err_color;
	stderr_begin();
	fprintf(stderr, "%sfwlens%s%s: %s%s", c ? color : "", cli && cli->cmd ? " " : "",
		cli && cli->cmd ? cli->cmd->name : "", prefix, c ? "\033[0m" : "");
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	stderr_end();
}

void fw_log_warn(const struct fw_cli *cli, const char *fmt, ...)
{
	if (cli && cli->quiet)
		return;
	va_list ap;
	va_start(ap, fmt);
	vlog(cli, "warning: ", "\033[33m", fmt, ap);
	va_end(ap);
}

void fw_log_info(const struct fw_cli *cli, const char *fmt, ...)
{
	if (!cli || cli->verbose < 1 || cli->quiet)
		return;
	va_list ap;
	va_start(ap, fmt);
	vlog(cli, "", "\033[2m", fmt, ap);
	va_end(ap);
}

void fw_log_debug(const struct fw_cli *cli, const char *fmt, ...)
{
	if (!cli || cli->verbose < 2 || cli->quiet)
		return;
	va_list ap;
	va_start(ap, fmt);
	vlog(cli, "debug: ", "\033[2m", fmt, ap);
	va_end(ap);
}

json_t *fw_cli_json_offset(uint64_t offset)
{
	return offset == UINT64_MAX ? json_null() : json_integer((json_int_t)offset);
}

int fw_cli_fail(struct fw_cli *cli, const struct fw_error *err)
{
	bool c = cli && cli->err_color;
	/* Messages are one line: flatten any embedded newline. */
	char msg[FW_ERROR_MSG_MAX];
	snprintf(msg, sizeof(msg), "%s", err->msg[0] ? err->msg : fw_error_code_name(err->code));
	for (char *p = msg; *p; p++)
		if (*p == '\n' || *p == '\r')
			*p = ' ';
	stderr_begin();
	fprintf(stderr, "%sfwlens%s%s: error:%s %s\n", c ? "\033[31m" : "", cli && cli->cmd ? " " : "",
		cli && cli->cmd ? cli->cmd->name : "", c ? "\033[0m" : "", msg);
	stderr_end();
	return fw_error_exit_code(err);
}

int fw_cli_usage_error(struct fw_cli *cli, const char *fmt, ...)
{
	char msg[FW_ERROR_MSG_MAX];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	stderr_begin();
	fprintf(stderr, "fwlens%s%s: %s\n", cli && cli->cmd ? " " : "", cli && cli->cmd ? cli->cmd->name : "", msg);
	if (cli && cli->cmd)
		fprintf(stderr, "usage: fwlens %s %s\n(see 'fwlens help %s')\n", cli->cmd->name, cli->cmd->synopsis,
			cli->cmd->name);
	stderr_end();
	return FW_EXIT_USAGE;
}

const char *fw_cli_color(const struct fw_cli *cli, const char *what)
{
	if (!cli || !cli->color)
		return "";
	static const struct {
		const char *name, *esc;
	} colors[] = {
		{"bold", "\033[1m"}, {"dim", "\033[2m"},    {"red", "\033[31m"},  {"green", "\033[32m"},
		{"yellow", "\033[33m"}, {"blue", "\033[34m"}, {"cyan", "\033[36m"}, {"reset", "\033[0m"},
	};
	for (size_t i = 0; i < sizeof(colors) / sizeof(colors[0]); i++)
		if (strcmp(colors[i].name, what) == 0)
			return colors[i].esc;
	return "";
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
		progress.active = pthread_create(&progress.ticker, NULL, progress_ticker, NULL) == 0;
	}
	/* fast callers redraw at most ten times a second; the ticker covers long steps */
	if (seconds_since(&progress.start) - progress.last_draw >= 0.1)
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

/* --- output ---------------------------------------------------------------------------------- */

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

/* --- the text filter ------------------------------------------------------------------------- */

/* Output of text formats passes through this filter (see fw_cli_out). */

/* The escape sequences fw_cli_color and the help printer emit: the only ones let through. */
static const char *const own_sgr[] = {"\033[0m", "\033[1m", "\033[2m", "\033[31m", "\033[32m",
				      "\033[33m", "\033[34m", "\033[36m"};

struct text_filter {
	FILE *to;
	bool color;
	bool keep_cr; /* formats that reproduce another tool's bytes (ifrextractor, sce) keep CR */
	unsigned char pend[8]; /* an escape sequence (or a UTF-8 lead byte 0xC2) not yet decided */
	size_t npend;
};

static void filter_put(struct text_filter *t, unsigned char c);

/* The pending bytes were not ours: the lead byte becomes '?' (ESC) or stays (0xC2), the rest is
 * text again. */
static void filter_release(struct text_filter *t)
{
	unsigned char p[sizeof(t->pend)];
	size_t n = t->npend;
	memcpy(p, t->pend, n);
	t->npend = 0;
	putc(p[0] == 0x1B ? '?' : p[0], t->to);
	for (size_t k = 1; k < n; k++)
		filter_put(t, p[k]);
}

static void filter_put(struct text_filter *t, unsigned char c)
{
	if (t->npend) {
		t->pend[t->npend++] = c;
		if (t->pend[0] == 0xC2) {
			if (c >= 0x80 && c <= 0x9F) { /* a C1 control (U+0080..U+009F, CSI among them) */
				putc('?', t->to);
				t->npend = 0;
			} else {
				filter_release(t);
			}
			return;
		}
		bool prefix = false;
		for (size_t i = 0; i < sizeof(own_sgr) / sizeof(own_sgr[0]); i++) {
			size_t len = strlen(own_sgr[i]);
			if (t->npend <= len && memcmp(own_sgr[i], t->pend, t->npend) == 0) {
				if (t->npend == len) {
					fwrite(t->pend, 1, t->npend, t->to);
					t->npend = 0;
					return;
				}
				prefix = true;
			}
		}
		if (!prefix || t->npend == sizeof(t->pend))
			filter_release(t);
		return;
	}
	if (c == 0x1B && t->color) {
		t->pend[t->npend++] = c;
		return;
	}
	if (c == 0xC2) {
		t->pend[t->npend++] = c;
		return;
	}
	if ((c < 0x20 && c != '\n' && c != '\t' && !(c == '\r' && t->keep_cr)) || c == 0x7F)
		c = '?';
	putc(c, t->to);
}

static ssize_t filter_write(void *cookie, const char *buf, size_t size)
{
	struct text_filter *t = cookie;
	size_t run = 0; /* bytes that need no look pass in runs */
	for (size_t i = 0; i < size; i++) {
		unsigned char c = (unsigned char)buf[i];
		bool plain = !t->npend && ((c >= 0x20 && c != 0x7F && c != 0xC2) || c == '\n' || c == '\t');
		if (plain) {
			run++;
			continue;
		}
		if (run)
			fwrite(buf + i - run, 1, run, t->to);
		run = 0;
		filter_put(t, c);
	}
	if (run)
		fwrite(buf + size - run, 1, run, t->to);
	return (ssize_t)size;
}

static int filter_close(void *cookie)
{
	struct text_filter *t = cookie;
	if (t->npend)
		filter_release(t);
	free(t);
	return 0;
}

static void open_text_filter(struct fw_cli *cli)
{
	struct text_filter *t = fw_xcalloc(1, sizeof(*t));
	t->to = cli->out ? cli->out : stdout;
	t->color = cli->color;
	t->keep_cr = strcmp(cli->format, "text") != 0 && strcmp(cli->format, "markdown") != 0;
	cookie_io_functions_t io = {.write = filter_write, .close = filter_close};
	cli->text = fopencookie(t, "w", io);
	if (!cli->text) {
		free(t);
		return;
	}
	/* a terminal sees each line as it is written, as stdout would show it */
	setvbuf(cli->text, NULL, isatty(fileno(t->to)) ? _IOLBF : _IOFBF, 0);
}

static bool text_format(const struct fw_cli *cli)
{
	return cli->cmd->formats && cli->format && strcmp(cli->format, "json") != 0 && strcmp(cli->format, "jsonl") != 0 &&
	       strcmp(cli->format, "xml") != 0;
}

int fw_cli_refuse_binary_terminal(struct fw_cli *cli)
{
	bool to_stdout = !cli->output_path || strcmp(cli->output_path, "-") == 0;
	if (to_stdout && isatty(STDOUT_FILENO))
		return fw_cli_usage_error(cli, "refusing to write binary data to a terminal; use -o FILE");
	return 0;
}

void fw_cli_print_json(struct fw_cli *cli, json_t *doc)
{
	FILE *f = fw_cli_out(cli);
	json_dumpf(doc, f, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	fputc('\n', f);
	json_decref(doc);
}

void fw_cli_print_jsonl(struct fw_cli *cli, json_t *value)
{
	FILE *f = fw_cli_out(cli);
	json_dumpf(value, f, JSON_COMPACT | JSON_PRESERVE_ORDER);
	fputc('\n', f);
	json_decref(value);
}

static void xml_name(const char *key, char *out, size_t len)
{
	size_t k = 0;
	for (const char *p = key; *p && k + 1 < len; p++) {
		unsigned char c = (unsigned char)*p;
		bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' ||
			  (k > 0 && ((c >= '0' && c <= '9') || c == '-' || c == '.'));
		out[k++] = ok ? (char)c : '_';
	}
	if (k == 0)
		out[k++] = '_';
	out[k] = '\0';
}

static void singular(const char *key, char *out, size_t len)
{
	size_t n = strlen(key);
	if (n > 3 && strcmp(key + n - 3, "ies") == 0)
		snprintf(out, len, "%.*sy", (int)(n - 3), key);
	else if (n > 6 && strcmp(key + n - 6, "ndices") == 0)
		snprintf(out, len, "%.*sndex", (int)(n - 6), key);
	else if (n > 4 && (strcmp(key + n - 4, "sses") == 0 || strcmp(key + n - 4, "ches") == 0))
		snprintf(out, len, "%.*s", (int)(n - 2), key);
	else if (n > 1 && key[n - 1] == 's' && key[n - 2] != 's')
		snprintf(out, len, "%.*s", (int)(n - 1), key);
	else if (strcmp(key, "children") == 0)
		snprintf(out, len, "node");
	else
		snprintf(out, len, "item");
}

static void json_to_xml(xmlNodePtr parent, const char *key, json_t *v)
{
	char name[128];
	xml_name(key, name, sizeof(name));
	if (json_is_array(v)) {
		char item[128];
		singular(name, item, sizeof(item));
		xmlNodePtr list = xmlNewChild(parent, NULL, BAD_CAST name, NULL);
		size_t i;
		json_t *e;
		json_array_foreach(v, i, e) json_to_xml(list, item, e);
		return;
	}
	if (json_is_object(v)) {
		xmlNodePtr el = xmlNewChild(parent, NULL, BAD_CAST name, NULL);
		if (strcmp(name, key) != 0)
			xmlNewProp(el, BAD_CAST "key", BAD_CAST key);
		const char *k;
		json_t *e;
		json_object_foreach(v, k, e) json_to_xml(el, k, e);
		return;
	}
	char buf[64];
	const char *text = NULL;
	if (json_is_string(v))
		text = json_string_value(v);
	else if (json_is_integer(v)) {
		snprintf(buf, sizeof(buf), "%lld", (long long)json_integer_value(v));
		text = buf;
	} else if (json_is_real(v)) {
		snprintf(buf, sizeof(buf), "%g", json_real_value(v));
		text = buf;
	} else if (json_is_true(v))
		text = "true";
	else if (json_is_false(v))
		text = "false";
	xmlNodePtr el = xmlNewTextChild(parent, NULL, BAD_CAST name, text ? BAD_CAST text : NULL);
	if (strcmp(name, key) != 0)
		xmlNewProp(el, BAD_CAST "key", BAD_CAST key);
	if (json_is_null(v))
		xmlNewProp(el, BAD_CAST "null", BAD_CAST "true");
}

void fw_cli_print_json_as_xml(struct fw_cli *cli, json_t *doc, const char *root_name)
{
	xmlDocPtr x = xmlNewDoc(BAD_CAST "1.0");
	xmlNodePtr root = xmlNewNode(NULL, BAD_CAST root_name);
	xmlDocSetRootElement(x, root);
	if (json_is_object(doc)) {
		const char *k;
		json_t *e;
		json_object_foreach(doc, k, e) json_to_xml(root, k, e);
	} else {
		json_to_xml(root, "value", doc);
	}
	xmlChar *mem = NULL;
	int size = 0;
	xmlDocDumpFormatMemoryEnc(x, &mem, &size, "UTF-8", 1);
	fwrite(mem, 1, (size_t)size, fw_cli_out(cli));
	xmlFree(mem);
	xmlFreeDoc(x);
	json_decref(doc);
}

static bool open_output(struct fw_cli *cli, struct fw_error *err)
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
static int finish_output(struct fw_cli *cli, int rc)
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

/* --- dispatch -------------------------------------------------------------------------------- */

static void suggest_command(const char *name)
{
	const char *best = NULL;
	size_t best_d = 3;
	for (size_t i = 0; i < fw_cli_command_count(); i++) {
		const struct fw_command *c = fw_cli_command_at(i);
		size_t d = edit_distance(name, c->name);
		if (d < best_d || (strncmp(c->name, name, strlen(name)) == 0 && strlen(name) >= 2 && !best)) {
			best_d = d;
			best = c->name;
		}
	}
	if (best)
		fprintf(stderr, "\nThe most similar command is\n\t%s\n", best);
}

static bool color_wanted(const char *when, int fd)
{
	if (when && strcmp(when, "always") == 0)
		return true;
	if (when && strcmp(when, "never") == 0)
		return false;
	const char *no = getenv("NO_COLOR");
	if (no && *no)
		return false;
	const char *term = getenv("TERM");
	if (term && strcmp(term, "dumb") == 0)
		return false;
	return isatty(fd);
}

static int parse_args(struct fw_cli *cli, int argc, char **argv)
{
	const struct fw_command *cmd = cli->cmd;
	size_t nopts = option_count(cmd->options) + COMMON_COUNT;
	cli->values = fw_xcalloc(nopts, sizeof(*cli->values));
	cli->counts = fw_xcalloc(nopts, sizeof(*cli->counts));
	cli->argv = fw_xcalloc((size_t)argc + 1, sizeof(char *));
	cli->argc = 0;
	bool options_done = false;
	for (int i = 0; i < argc; i++) {
		char *a = argv[i];
		if (options_done || a[0] != '-' || strcmp(a, "-") == 0) {
			cli->argv[cli->argc++] = a;
			continue;
		}
		if (strcmp(a, "--") == 0) {
			options_done = true;
			continue;
		}
		struct opt_ref r;
		if (a[1] == '-') {
			const char *name = a + 2;
			const char *eq = strchr(name, '=');
			size_t len = eq ? (size_t)(eq - name) : strlen(name);
			if (!lookup_long(cmd, name, len, &r)) {
				char bad[128];
				snprintf(bad, sizeof(bad), "%.*s", (int)(len < 100 ? len : 100), name);
				const char *near = closest_option(cmd, bad);
				if (near)
					return fw_cli_usage_error(cli, "unknown option '--%s'; did you mean '--%s'?", bad, near);
				return fw_cli_usage_error(cli, "unknown option '--%s'", bad);
			}
			if (r.opt->arg) {
				const char *val = eq ? eq + 1 : NULL;
				if (!val) {
					if (i + 1 >= argc)
						return fw_cli_usage_error(cli, "option '--%s' needs a value (%s)", r.opt->name,
									  r.opt->arg);
					val = argv[++i];
				}
				cli->values[r.index] = val;
			} else if (eq) {
				return fw_cli_usage_error(cli, "option '--%s' takes no value", r.opt->name);
			}
			cli->counts[r.index]++;
			continue;
		}
		for (const char *p = a + 1; *p; p++) {
			if (!lookup_short(cmd, *p, &r))
				return fw_cli_usage_error(cli, "unknown option '-%c'", *p);
			cli->counts[r.index]++;
			if (r.opt->arg) {
				if (p[1]) {
					cli->values[r.index] = p + 1;
				} else {
					if (i + 1 >= argc)
						return fw_cli_usage_error(cli, "option '-%c' needs a value (%s)", *p, r.opt->arg);
					cli->values[r.index] = argv[++i];
				}
				break;
			}
		}
	}
	size_t base = option_count(cmd->options);
	if (cli->counts[base + COMMON_HELP]) {
		fw_cli_print_command_help(stdout, cmd, color_wanted(NULL, STDOUT_FILENO));
		return -1;
	}
	cli->output_path = cli->values[base + COMMON_OUTPUT];
	cli->quiet = cli->counts[base + COMMON_QUIET] > 0;
	cli->verbose = cli->counts[base + COMMON_VERBOSE];
	const char *when = cli->values[base + COMMON_COLOR];
	if (when && strcmp(when, "auto") && strcmp(when, "always") && strcmp(when, "never"))
		return fw_cli_usage_error(cli, "--color takes auto, always or never, not '%s'", when);
	cli->color = color_wanted(when, STDOUT_FILENO) && !cli->output_path;
	cli->err_color = color_wanted(when, STDERR_FILENO);
	cli->show_progress = !cli->quiet && isatty(STDERR_FILENO);
	if (cmd->formats) {
		const char *fmt = cli->values[base + COMMON_FORMAT];
		if (fmt && !format_allowed(cmd->formats, fmt))
			return fw_cli_usage_error(cli, "--format takes one of %s, not '%s'", cmd->formats, fmt);
		cli->format = fmt ? fmt : NULL;
		if (!cli->format) {
			static char *def;
			free(def);
			def = default_format(cmd->formats);
			cli->format = def;
		}
	}
	if (cli->argc < cmd->min_args)
		return fw_cli_usage_error(cli, "missing argument");
	if (cmd->max_args >= 0 && cli->argc > cmd->max_args)
		return fw_cli_usage_error(cli, "too many arguments ('%s')", cli->argv[cmd->max_args]);
	return 0;
}

static void print_version(void)
{
	printf("fwlens %s\n", FWLENS_VERSION);
}

int fw_cli_main(int argc, char **argv)
{
	struct fw_cli cli;
	memset(&cli, 0, sizeof(cli));
	cli.err_color = color_wanted(NULL, STDERR_FILENO);
	if (argc < 2) {
		fw_cli_print_usage(stderr);
		return FW_EXIT_USAGE;
	}
	const char *name = argv[1];
	if (strcmp(name, "--help") == 0 || strcmp(name, "-h") == 0) {
		fw_cli_print_usage(stdout);
		return FW_EXIT_OK;
	}
	if (strcmp(name, "--version") == 0 || strcmp(name, "-V") == 0)
		name = "version";
	cli.cmd = fw_cli_find(name);
	if (!cli.cmd) {
		fprintf(stderr, "fwlens: '%s' is not a fwlens command. See 'fwlens help'.\n", name);
		suggest_command(name);
		return FW_EXIT_USAGE;
	}
	int rc = parse_args(&cli, argc - 2, argv + 2);
	if (rc != 0) {
		rc = rc < 0 ? finish_output(&cli, FW_EXIT_OK) : rc;
		goto out;
	}
	struct fw_error err;
	fw_error_clear(&err);
	if (!open_output(&cli, &err)) {
		rc = fw_cli_fail(&cli, &err);
		goto out;
	}
	if (text_format(&cli))
		open_text_filter(&cli);
	fw_log_debug(&cli, "format %s, output %s, colour %s, progress %s", cli.format ? cli.format : "-",
		     cli.output_path ? cli.output_path : "standard output", cli.color ? "on" : "off",
		     cli.show_progress ? "on a terminal" : "off");
	struct timespec t0;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	rc = cli.cmd->run(&cli);
	fw_cli_progress_done(&cli);
	rc = finish_output(&cli, rc);
	fw_log_info(&cli, "done in %.2f s, exit status %d", seconds_since(&t0), rc);
out:
	free(cli.values);
	free(cli.counts);
	free(cli.argv);
	(void)print_version;
	return rc;
}
