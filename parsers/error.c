#include "error.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cleanup.h"
#include "file.h"

void fw_error_clear(struct fw_error *err)
{
	if (err) {
		err->code = FW_OK;
		err->msg[0] = '\0';
	}
}

bool fw_error_set(struct fw_error *err, enum fw_error_code code, const char *fmt, ...)
{
	if (!err)
		return false;
	va_list ap;
	va_start(ap, fmt);
	err->code = code;
	vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	va_end(ap);
	return false;
}

void fw_error_prefix(struct fw_error *err, const char *fmt, ...)
{
	if (!err)
		return;
	char prefix[FW_ERROR_MSG_MAX];
	char old[FW_ERROR_MSG_MAX];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(prefix, sizeof(prefix), fmt, ap);
	va_end(ap);
	memcpy(old, err->msg, sizeof(old));
	snprintf(err->msg, sizeof(err->msg), "%s%s", prefix, old);
}

bool fw_error_errno(struct fw_error *err, const char *fmt, ...)
{
	int saved = errno;
	if (!err)
		return false;
	char what[FW_ERROR_MSG_MAX / 2];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	err->code = FW_E_IO;
	snprintf(err->msg, sizeof(err->msg), "%s: %s", what, strerror(saved));
	errno = saved; /* callers that keep an errno (machine files) see the failing call's */
	return false;
}

const char *fw_error_code_name(enum fw_error_code code)
{
	switch (code) {
	case FW_OK: return "ok";
	case FW_E_INVALID: return "invalid data";
	case FW_E_TRUNCATED: return "truncated";
	case FW_E_UNSUPPORTED: return "unsupported";
	case FW_E_LIMIT: return "limit reached";
	case FW_E_NOT_FOUND: return "not found";
	case FW_E_USAGE: return "usage";
	case FW_E_IO: return "I/O error";
	case FW_E_DEPENDENCY: return "missing dependency";
	case FW_E_INTERNAL: return "internal error";
	case FW_E_UNWRITABLE: return "cannot be written in this format";
	}
	return "error";
}

int fw_error_exit_code(const struct fw_error *err)
{
	if (!err)
		return FW_EXIT_OK;
	switch (err->code) {
	case FW_OK: return FW_EXIT_OK;
	case FW_E_USAGE: return FW_EXIT_USAGE;
	case FW_E_IO:
	case FW_E_DEPENDENCY:
	case FW_E_INTERNAL: return FW_EXIT_IO;
	case FW_E_INVALID:
	case FW_E_TRUNCATED:
	case FW_E_UNSUPPORTED:
	case FW_E_LIMIT:
	case FW_E_NOT_FOUND: return FW_EXIT_BAD_INPUT;
	case FW_E_UNWRITABLE: return FW_EXIT_UNWRITABLE;
	}
	return FW_EXIT_IO;
}

static char oom_program[64] = "fwlens";

void fw_error_set_program(const char *name)
{
	snprintf(oom_program, sizeof(oom_program), "%s", name);
}

/* No way to go on and no memory to unwind with: undo what is registered (the temporary output, an
 * iasl child), say what was being read, and end with the I/O exit status rather than abort. */
static void out_of_memory(size_t n)
{
	fw_cleanup_run();
	const char *what = fw_file_reading();
	fprintf(stderr, "%s: error: out of memory (allocating %zu bytes)%s%s\n", oom_program, n, *what ? " while reading " : "",
		what);
	fflush(stderr);
	_exit(FW_EXIT_IO);
}

void *fw_xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);
	if (!p)
		out_of_memory(n);
	return p;
}

void *fw_xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);
	if (!p)
		out_of_memory(n * size);
	return p;
}

void *fw_xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n ? n : 1);
	if (!q)
		out_of_memory(n);
	return q;
}

char *fw_xstrdup(const char *s)
{
	return fw_xstrndup(s, strlen(s));
}

char *fw_xstrndup(const char *s, size_t n)
{
	size_t len = strnlen(s, n);
	char *p = fw_xmalloc(len + 1);
	memcpy(p, s, len);
	p[len] = '\0';
	return p;
}

char *fw_xasprintf(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		n = 0;
	char *p = fw_xmalloc((size_t)n + 1);
	va_start(ap, fmt);
	vsnprintf(p, (size_t)n + 1, fmt, ap);
	va_end(ap);
	return p;
}
