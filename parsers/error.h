/* Errors are values: a code plus a message that gains context as it travels up.
 *
 * Every fallible function returns bool (or a pointer) and takes `struct fw_error *err` last.
 * Callers add context with fw_error_prefix(err, "FV @0x%llx: ") so the final one-line message
 * names the offset and the structure. The code decides the process exit status in one place
 * (fw_error_exit_code), see README.md "Exit codes".
 */
#ifndef FW_ERROR_H
#define FW_ERROR_H

#include <stdbool.h>
#include <stddef.h>

enum fw_error_code {
	FW_OK = 0,
	FW_E_INVALID,     /* the input violates its format */
	FW_E_TRUNCATED,   /* the input ends inside a structure */
	FW_E_UNSUPPORTED, /* a valid input we do not handle */
	FW_E_LIMIT,       /* a hard limit (depth, nodes, bytes) was reached */
	FW_E_NOT_FOUND,   /* the thing asked for is not in the input */
	FW_E_USAGE,       /* bad command line */
	FW_E_IO,          /* reading or writing a file failed */
	FW_E_DEPENDENCY,  /* a helper program (iasl, ...) is missing or failed */
	FW_E_INTERNAL,    /* a bug or an allocation failure */
	FW_E_UNWRITABLE,  /* the output format cannot carry a value faithfully (a line feed in an AMISCE field) */
};

#define FW_ERROR_MSG_MAX 1024

struct fw_error {
	enum fw_error_code code;
	char msg[FW_ERROR_MSG_MAX];
};

/* Exit codes of the fwlens command (README.md "Exit codes"). */
enum fw_exit {
	FW_EXIT_OK = 0,
	FW_EXIT_DIFFERENT = 1, /* diff found differences, doctor/verify checks failed */
	FW_EXIT_USAGE = 2,
	FW_EXIT_BAD_INPUT = 3,
	FW_EXIT_IO = 4,
	FW_EXIT_UNWRITABLE = 5, /* the chosen output format cannot carry the result faithfully */
	FW_EXIT_PENDING = 6,    /* plan --verify: the planned values are stored, not yet in effect (no boot since) */
};

void fw_error_clear(struct fw_error *err);
/* Set code and message; a NULL err is allowed (speculative parse, result ignored). Returns false. */
bool fw_error_set(struct fw_error *err, enum fw_error_code code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Put context in front of the existing message. */
void fw_error_prefix(struct fw_error *err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Set FW_E_IO with strerror(errno) appended. */
bool fw_error_errno(struct fw_error *err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
const char *fw_error_code_name(enum fw_error_code code);
int fw_error_exit_code(const struct fw_error *err);

/* Allocation that never returns NULL: out of memory ends the process with exit 4 and one line
 * naming what was being read (limits keep every allocation bounded, so this means the machine or
 * `ulimit -v` is out of memory); what fw_cleanup registered is undone first. */
void *fw_xmalloc(size_t n);
void *fw_xcalloc(size_t n, size_t size);
void *fw_xrealloc(void *p, size_t n);
char *fw_xstrdup(const char *s);
char *fw_xstrndup(const char *s, size_t n);
char *fw_xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* The name the out-of-memory line starts with ("fwlens settings"). */
void fw_error_set_program(const char *name);

#endif
