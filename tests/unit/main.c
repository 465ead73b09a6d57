/* Runner for the unit tests: `unit [SUBSTRING...]` runs the tests whose name or file matches. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "harness.h"
#include "parsers/env.h"
#include "parsers/error.h"

struct test_entry {
	const char *name;
	const char *file;
	fw_test_fn fn;
};

static struct test_entry *tests;
static size_t ntests, cap;
static int current_failed, current_skipped;
static char fail_msg[2048], skip_msg[1024];

void fw_test_register(const char *name, const char *file, fw_test_fn fn)
{
	if (ntests == cap) {
		cap = cap ? cap * 2 : 64;
		tests = fw_xrealloc(tests, cap * sizeof(*tests));
	}
	tests[ntests++] = (struct test_entry){name, file, fn};
}

void fw_test_fail(const char *file, int line, const char *fmt, ...)
{
	char msg[1800];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	snprintf(fail_msg, sizeof(fail_msg), "%s:%d: %s", file, line, msg);
	current_failed = 1;
}

void fw_test_skip(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(skip_msg, sizeof(skip_msg), fmt, ap);
	va_end(ap);
	current_skipped = 1;
}

bool fw_test_failed(void)
{
	return current_failed;
}

const char *fw_test_srcdir(void)
{
	const char *s = getenv("FWLENS_SRCDIR");
	return s && *s ? s : ".";
}

static const char *existing(char *buf)
{
	struct stat st;
	return stat(buf, &st) == 0 ? buf : NULL;
}

const char *fw_test_corpus(const char *rel)
{
	static char bufs[8][4096];
	static int next;
	char *buf = bufs[next++ % 8];
	const char *root = getenv("FWLENS_CORPUS");
	if (root && *root)
		snprintf(buf, 4096, "%s/%s", root, rel);
	else
		snprintf(buf, 4096, "%s/../shared/corpus/%s", fw_test_srcdir(), rel);
	return existing(buf);
}

const char *fw_test_data(const char *rel)
{
	static char bufs[8][4096];
	static int next;
	char *buf = bufs[next++ % 8];
	snprintf(buf, 4096, "%s/tests/data/%s", fw_test_srcdir(), rel);
	return existing(buf);
}

const char *fw_test_build(const char *rel)
{
	static char bufs[8][4096];
	static int next;
	char *buf = bufs[next++ % 8];
	const char *b = getenv("FWLENS_BUILD");
	snprintf(buf, 4096, "%s/%s", b && *b ? b : "build", rel);
	return existing(buf);
}

uint8_t *fw_test_read_file(const char *path, size_t *len)
{
	if (!path)
		return NULL;
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	size_t n = 0, c = 65536;
	uint8_t *buf = fw_xmalloc(c);
	size_t r;
	while ((r = fread(buf + n, 1, c - n, f)) > 0) {
		n += r;
		if (n == c) {
			c *= 2;
			buf = fw_xrealloc(buf, c);
		}
	}
	fclose(f);
	*len = n;
	return buf;
}

static int cmp_tests(const void *a, const void *b)
{
	const struct test_entry *x = a, *y = b;
	int c = strcmp(x->file, y->file);
	return c ? c : strcmp(x->name, y->name);
}

static int matches(const struct test_entry *t, int argc, char **argv)
{
	if (argc <= 1)
		return 1;
	for (int i = 1; i < argc; i++)
		if (strstr(t->name, argv[i]) || strstr(t->file, argv[i]))
			return 1;
	return 0;
}

int main(int argc, char **argv)
{
	size_t passed = 0, failed = 0, skipped = 0;
	/* the libraries see the environment only as a program hands it down (parsers/env.h) */
	struct fw_env env = {getenv("FWLENS_THREADS"), getenv("FWLENS_IASL"), getenv("TMPDIR"), getenv("SOURCE_DATE_EPOCH"),
			     getenv("FWLENS_RULES"), NULL,
			     /* PCI names from the tests' fixed list (run from the source folder) */
			     "tests/data/pci/pci.ids"};
	fw_env_set(&env);
	qsort(tests, ntests, sizeof(*tests), cmp_tests);
	setvbuf(stdout, NULL, _IOLBF, 0);
	for (size_t i = 0; i < ntests; i++) {
		if (!matches(&tests[i], argc, argv))
			continue;
		current_failed = current_skipped = 0;
		fail_msg[0] = skip_msg[0] = '\0';
		tests[i].fn();
		if (current_failed) {
			printf("FAIL unit/%s: %s\n", tests[i].name, fail_msg);
			failed++;
		} else if (current_skipped) {
			printf("skip unit/%s: %s\n", tests[i].name, skip_msg);
			skipped++;
		} else {
			printf("ok unit/%s\n", tests[i].name);
			passed++;
		}
	}
	printf("# unit: %zu passed, %zu failed, %zu skipped\n", passed, failed, skipped);
	free(tests);
	return failed ? 1 : 0;
}
