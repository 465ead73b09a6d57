/* Opening SRC arguments. */
#include "source.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

void fw_source_warn(struct fw_source *src, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	src->warnings = fw_xrealloc(src->warnings, (src->nwarnings + 1) * sizeof(char *));
	src->warnings[src->nwarnings++] = fw_xstrdup(buf);
}

bool fw_source_open(const char *path, const struct fw_source_options *o, struct fw_source *src, struct fw_error *err)
{
	(void)o;
	memset(src, 0, sizeof(*src));
	src->path = fw_xstrdup(path);
	struct stat st;
	if (stat(path, &st) != 0) {
		fw_error_errno(err, "%s: cannot open", path);
		fw_source_close(src);
		return false;
	}
	if (fw_machine_looks_like_root(path)) {
		src->kind = FW_SOURCE_MACHINE;
		if (!fw_machine_open(path, &src->machine, err)) {
			fw_source_close(src);
			return false;
		}
		src->have_host = fw_host_load(src->machine, &src->host, err);
		if (!src->have_host) {
			fw_source_close(src);
			return false;
		}
		return true;
	}
	fw_error_set(err, FW_E_UNSUPPORTED, "%s: not a machine (a snapshot, or a folder laid out like a Linux root)", path);
	fw_source_close(src);
	return false;
}

void fw_source_close(struct fw_source *src)
{
	if (src->have_host)
		fw_host_free(&src->host);
	fw_machine_close(src->machine);
	for (size_t i = 0; i < src->nwarnings; i++)
		free(src->warnings[i]);
	free(src->warnings);
	free(src->path);
	memset(src, 0, sizeof(*src));
}

void fw_source_doctor_ctx(struct fw_source *src, unsigned profiles, struct fw_doctor_ctx *ctx)
{
	memset(ctx, 0, sizeof(*ctx));
	ctx->host = src->have_host ? &src->host : NULL;
	ctx->profiles = profiles;
}
