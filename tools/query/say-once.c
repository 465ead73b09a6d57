/* Messages said once. */
#include "say-once.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parsers/error.h"

void fw_say_once(char ***items, size_t *n, const char *fmt, va_list ap)
{
	char buf[1024];
	vsnprintf(buf, sizeof(buf), fmt, ap);
	for (size_t i = 0; i < *n; i++)
		if (strcmp((*items)[i], buf) == 0)
			return;
	*items = fw_xrealloc(*items, (*n + 1) * sizeof(**items));
	(*items)[(*n)++] = fw_xstrdup(buf);
}

void fw_say_once_free(char **items, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(items[i]);
	free(items);
}
