/* --cache-dir, --no-cache and --image-dir (see cache-options.h). */
#include "cache-options.h"

#include <stdlib.h>
#include <string.h>

static bool command_takes(const struct fw_command *cmd, const char *name)
{
	for (const struct fw_option *o = cmd->options; o && o->name; o++)
		if (strcmp(o->name, name) == 0)
			return true;
	return false;
}

void fw_cli_cache_setup(struct fw_cli *cli, struct fw_source_options *so)
{
	static struct fw_cache cache; /* one command per run: read the environment once */
	static bool done;
	so->image_dir = fw_cli_opt(cli, "image-dir");
	if (!command_takes(cli->cmd, "cache-dir"))
		return;
	if (!done) {
		done = true;
		if (!fw_cli_flag(cli, "no-cache"))
			cache.dir = fw_cache_dir_default(fw_cli_opt(cli, "cache-dir"), getenv("XDG_CACHE_HOME"),
							 getenv("HOME"));
	}
	so->cache = cache.dir ? &cache : NULL;
}
