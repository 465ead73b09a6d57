/* Running `iasl -d` (ACPICA's disassembler) as a child process to turn DSDT/SSDT AML into DSL.
 *
 * The tables are written to a private temporary folder (mkdtemp, mode 0700), iasl is started
 * with posix_spawn (no shell; $FWLENS_IASL overrides the program, default "iasl" on PATH) with
 * every table on one command line, given a time limit (for the whole call) and killed when it
 * runs over; the .dsl files are read back and the folder is removed. iasl keeps one namespace
 * for all the files of a run, so a table that clashes with an earlier one comes back empty, and
 * a crash ends the run: every table left without a disassembly is run again alone, and only a
 * table that fails alone stays without one. A missing iasl is an FW_E_DEPENDENCY error
 * that names the package to install (exit 4).
 */
#ifndef FW_ACPI_IASL_H
#define FW_ACPI_IASL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "parsers/error.h"

#define FW_IASL_TIMEOUT_DEFAULT 120 /* seconds */

struct fw_iasl_job {
	const char *name;   /* file stem: "dsdt", "ssdt3" (lower-case letters and digits) */
	const uint8_t *aml; /* the whole table */
	size_t len;
	char *dsl;          /* out: malloc'd DSL text, NULL when iasl produced none */
	size_t dsl_len;
	int signal;         /* out: the signal that stopped iasl on this table alone, or 0 */
};

/* The program that will run: $FWLENS_IASL or "iasl". */
const char *fw_iasl_program(void);

/* Disassemble every job. Fails when iasl cannot be started, times out, or produced no DSL at
 * all; a job without output is left with dsl == NULL (its messages are in *log; `signal` set
 * when iasl crashed on it). `timeout_s` bounds the whole call. `log`
 * (may be NULL) receives iasl's output, malloc'd and truncated to 8 KiB. */
bool fw_iasl_disassemble(struct fw_iasl_job *jobs, size_t n, unsigned timeout_s, char **log, struct fw_error *err);
void fw_iasl_jobs_free(struct fw_iasl_job *jobs, size_t n);

#endif
