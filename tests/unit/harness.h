/* A small unit-test harness: TEST(name) registers itself; CHECK* stop the test on the first
 * failed assertion; SKIP says why a test could not run (missing corpus or oracle).
 * The runner (tests/unit/main.c) prints one line per test and a summary for tests/run.sh. */
#ifndef FW_TEST_HARNESS_H
#define FW_TEST_HARNESS_H

#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

typedef void (*fw_test_fn)(void);
void fw_test_register(const char *name, const char *file, fw_test_fn fn);
void fw_test_fail(const char *file, int line, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void fw_test_skip(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
bool fw_test_failed(void);

/* Paths: corpus files (../shared/corpus or $FWLENS_CORPUS), project test data (tests/data),
 * build outputs ($FWLENS_BUILD, default build/). Return NULL when the file does not exist. */
const char *fw_test_corpus(const char *rel);
const char *fw_test_data(const char *rel);
const char *fw_test_build(const char *rel);
const char *fw_test_srcdir(void);
/* Read a whole file (malloc'd); NULL if missing. */
uint8_t *fw_test_read_file(const char *path, size_t *len);

#define TEST(name)                                                                                                 \
	static void test_##name(void);                                                                             \
	__attribute__((constructor)) static void register_##name(void) { fw_test_register(#name, __FILE__, test_##name); } \
	static void test_##name(void)

#define CHECK(cond)                                                                                                \
	do {                                                                                                       \
		if (!(cond)) {                                                                                     \
			fw_test_fail(__FILE__, __LINE__, "CHECK(%s)", #cond);                                       \
			return;                                                                                    \
		}                                                                                                  \
	} while (0)

#define CHECK_MSG(cond, ...)                                                                                       \
	do {                                                                                                       \
		if (!(cond)) {                                                                                     \
			fw_test_fail(__FILE__, __LINE__, __VA_ARGS__);                                              \
			return;                                                                                    \
		}                                                                                                  \
	} while (0)

#define CHECK_EQ(a, b)                                                                                             \
	do {                                                                                                       \
		uint64_t check_a_ = (uint64_t)(a), check_b_ = (uint64_t)(b);                                       \
		if (check_a_ != check_b_) {                                                                        \
			fw_test_fail(__FILE__, __LINE__, "%s == %s: 0x%" PRIx64 " (%" PRIu64 ") != 0x%" PRIx64 " (%" PRIu64 ")", \
				     #a, #b, check_a_, check_a_, check_b_, check_b_);                              \
			return;                                                                                    \
		}                                                                                                  \
	} while (0)

#define CHECK_STR(a, b)                                                                                            \
	do {                                                                                                       \
		const char *check_a_ = (a), *check_b_ = (b);                                                       \
		if (!check_a_ || !check_b_ || strcmp(check_a_, check_b_) != 0) {                                   \
			fw_test_fail(__FILE__, __LINE__, "%s == %s: \"%s\" != \"%s\"", #a, #b,                     \
				     check_a_ ? check_a_ : "(null)", check_b_ ? check_b_ : "(null)");              \
			return;                                                                                    \
		}                                                                                                  \
	} while (0)

#define SKIP(...)                                                                                                  \
	do {                                                                                                       \
		fw_test_skip(__VA_ARGS__);                                                                         \
		return;                                                                                            \
	} while (0)

#endif
