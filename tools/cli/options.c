/* Options: the shared option table, parsing a command's arguments, and suggestions for mistyped
 * options and commands. */
#include "cli-internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "parsers/archive.h"
#include "parsers/nearest.h"

const struct fw_option fw_cli_common_options[] = {
	{"help", 'h', NULL, "show this help and exit", NULL},
	{"output", 'o', "FILE", "write the output to FILE (atomically: a failed run leaves no partial file)", NULL},
	{"format", 0, "FMT", "output format", NULL},
	{"quiet", 'q', NULL, "print no warnings", NULL},
	{"verbose", 'v', NULL, "log more to stderr (-vv: debug)", NULL},
	{"color", 0, "WHEN", "colour on stdout: auto (a terminal without NO_COLOR), always, never", "auto,always,never"},
	{"member", 0, "NAME", "the image to take from an archive (zip, 7z, tar, gz) that holds several", NULL},
	{0},
};
enum { COMMON_HELP, COMMON_OUTPUT, COMMON_FORMAT, COMMON_QUIET, COMMON_VERBOSE, COMMON_COLOR, COMMON_MEMBER, COMMON_COUNT };

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

static const char *closest_option(const struct fw_command *cmd, const char *name)
{
	const char *best = NULL;
	size_t best_d = 3;
	size_t n = option_count(cmd->options);
	for (size_t i = 0; i < n + COMMON_COUNT; i++) {
		const struct fw_option *o = i < n ? &cmd->options[i] : &fw_cli_common_options[i - n];
		size_t d = fw_edit_distance(name, o->name);
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

void fw_cli_suggest_command(const char *name)
{
	const char *best = NULL;
	size_t best_d = 3;
	for (size_t i = 0; i < fw_cli_command_count(); i++) {
		const struct fw_command *c = fw_cli_command_at(i);
		size_t d = fw_edit_distance(name, c->name);
		if (d < best_d || (strncmp(c->name, name, strlen(name)) == 0 && strlen(name) >= 2 && !best)) {
			best_d = d;
			best = c->name;
		}
	}
	if (best)
		fprintf(stderr, "\nThe most similar command is\n\t%s\n", best);
}

bool fw_cli_color_wanted(const char *when, int fd)
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

/* Every value of an option given more than once (--set A=1 --set B=2), in order. */
static void note_value(struct fw_cli *cli, size_t index, const char *val)
{
	cli->given = fw_xrealloc(cli->given, (cli->ngiven + 1) * sizeof(*cli->given));
	cli->given[cli->ngiven].index = index;
	cli->given[cli->ngiven++].value = val;
}

size_t fw_cli_opt_all(const struct fw_cli *cli, const char *name, const char **out, size_t max)
{
	struct opt_ref r;
	size_t n = 0;
	if (!lookup_long(cli->cmd, name, strlen(name), &r))
		return 0;
	for (size_t i = 0; i < cli->ngiven; i++)
		if (cli->given[i].index == r.index && n < max)
			out[n++] = cli->given[i].value;
	return n;
}

int fw_cli_parse_args(struct fw_cli *cli, int argc, char **argv)
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
				note_value(cli, r.index, val);
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
				note_value(cli, r.index, cli->values[r.index]);
				break;
			}
		}
	}
	size_t base = option_count(cmd->options);
	if (cli->counts[base + COMMON_HELP]) {
		fw_cli_print_command_help(stdout, cmd, fw_cli_color_wanted(NULL, STDOUT_FILENO));
		return -1;
	}
	cli->output_path = cli->values[base + COMMON_OUTPUT];
	cli->quiet = cli->counts[base + COMMON_QUIET] > 0;
	cli->verbose = cli->counts[base + COMMON_VERBOSE];
	fw_archive_choose_member(cli->values[base + COMMON_MEMBER]);
	char hint[160];
	const char *when = cli->values[base + COMMON_COLOR];
	if (when && strcmp(when, "auto") && strcmp(when, "always") && strcmp(when, "never"))
		return fw_cli_usage_error(cli, "--color takes auto, always or never, not '%s'%s", when,
					  fw_nearest_hint(when, "auto,always,never", hint, sizeof(hint)));
	cli->color = fw_cli_color_wanted(when, STDOUT_FILENO) && !cli->output_path;
	cli->err_color = fw_cli_color_wanted(when, STDERR_FILENO);
	cli->show_progress = !cli->quiet && isatty(STDERR_FILENO);
	if (cmd->formats) {
		const char *fmt = cli->values[base + COMMON_FORMAT];
		if (fmt && !format_allowed(cmd->formats, fmt))
			return fw_cli_usage_error(cli, "--format takes one of %s, not '%s'%s", cmd->formats, fmt,
						  fw_nearest_hint(fmt, cmd->formats, hint, sizeof(hint)));
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
