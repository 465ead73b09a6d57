/* What the environment says, read once by the command line (tools/cli/main.c) and handed down:
 * the libraries never call getenv, so a test or another program sets exactly what they see.
 * Unset or empty values are NULL. */
#ifndef FW_ENV_H
#define FW_ENV_H

struct fw_env {
	const char *threads;           /* FWLENS_THREADS: decompression threads (parsers/prefetch.c) */
	const char *iasl;              /* FWLENS_IASL: the iasl program (acpi/iasl.c) */
	const char *tmpdir;            /* TMPDIR: where iasl's private folder goes */
	const char *source_date_epoch; /* SOURCE_DATE_EPOCH: capture time of reproducible snapshots */
	const char *rules;             /* FWLENS_RULES: a topics file instead of the built-in one */
};

/* Replace the settings (the strings must outlive their use; the command line passes getenv's). */
void fw_env_set(const struct fw_env *e);
const struct fw_env *fw_env(void);

#endif
