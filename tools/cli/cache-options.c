/* --cache-dir, --cache-max, --no-cache and --image-dir (see cache-options.h). */
#include "cache-options.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tools/query/say-once.h"
#include "tools/query/topics.h"

static bool command_takes(const struct fw_command *cmd, const char *name)
{
	for (const struct fw_option *o = cmd->options; o && o->name; o++)
		if (strcmp(o->name, name) == 0)
			return true;
	return false;
}

static void say_once(char ***items, size_t *n, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void say_once(char ***items, size_t *n, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fw_say_once(items, n, fmt, ap);
	va_end(ap);
}

/* A folder or file of the cache that is not used, said once per run on one line (a path given with
 * control characters shows them as '?'). */
static void cache_warn(void *ctx, const char *msg)
{
	static char **said;
	static size_t nsaid;
	size_t before = nsaid;
	char line[1024];
	snprintf(line, sizeof(line), "%s", msg);
	for (char *p = line; *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			*p = '?';
	say_once(&said, &nsaid, "%s", line);
	if (nsaid > before)
		fw_log_warn(ctx, "%s", line);
}

int fw_cli_cache_setup(struct fw_cli *cli, struct fw_source_options *so)
{
	static struct fw_cache cache; /* one command per run: read the environment once */
	static bool done;
	so->image_dir = fw_cli_opt(cli, "image-dir");
	if (!command_takes(cli->cmd, "cache-dir"))
		return 0;
	if (!done) {
		done = true;
		const char *max = fw_cli_opt(cli, "cache-max");
		const char *from = "--cache-max";
		if (!max) {
			max = getenv("FWLENS_CACHE_MAX");
			from = "FWLENS_CACHE_MAX";
		}
		if (max && *max && !fw_cache_parse_size(max, &cache.max_bytes))
			return fw_cli_usage_error(cli, "%s takes a size of at least 1M (bytes, or a number with K, M or G), not '%s'",
						  from, max);
		/* the key names the rules in use: --rules, else $FWLENS_RULES, else the built-in ones */
		cache.rules = command_takes(cli->cmd, "rules") ? fw_cli_opt(cli, "rules") : NULL;
		struct fw_error err;
		fw_error_clear(&err);
		bool rules_known = fw_topics_rules_sha256(cache.rules, cache.rules_sha256, &err);
		if (!rules_known)
			fw_log_warn(cli, "no cache: the topic rules cannot be read: %s", err.msg);
		char *dir = rules_known && !fw_cli_flag(cli, "no-cache")
				    ? fw_cache_dir_default(fw_cli_opt(cli, "cache-dir"), getenv("XDG_CACHE_HOME"), getenv("HOME"))
				    : NULL;
		cache.dir = dir;
		cache.warn = cache_warn;
		cache.warn_ctx = cli;
		/* a folder that is not the user's own: the command goes on as with --no-cache */
		if (dir && !fw_cache_trusted(&cache)) {
			cache.dir = NULL;
			free(dir);
		}
		/* PCI names found before are recalled from the cache, not from the whole database */
		static struct fw_cache_names names;
		fw_cache_names_use(&names, &cache);
	}
	so->cache = cache.dir ? &cache : NULL;
	return 0;
}
