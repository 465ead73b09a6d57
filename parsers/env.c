/* The environment as the command line handed it down (see env.h). */
#include "env.h"

#include <stddef.h>

static struct fw_env current;

static const char *value(const char *s)
{
	return s && *s ? s : NULL;
}

void fw_env_set(const struct fw_env *e)
{
	current.threads = value(e->threads);
	current.iasl = value(e->iasl);
	current.tmpdir = value(e->tmpdir);
	current.source_date_epoch = value(e->source_date_epoch);
	current.rules = value(e->rules);
}

const struct fw_env *fw_env(void)
{
	return &current;
}
