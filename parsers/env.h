/* What the environment says, read once by the command line (tools/cli/main.c) and handed down:
 * the libraries never call getenv, so a test or another program sets exactly what they see.
 * Unset or empty values are NULL. */
#ifndef FW_ENV_H
#define FW_ENV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct fw_env {
	const char *threads;           /* FWLENS_THREADS: decompression threads (parsers/prefetch.c) */
	const char *iasl;              /* FWLENS_IASL: the iasl program (acpi/iasl.c) */
	const char *tmpdir;            /* TMPDIR: where iasl's private folder goes */
	const char *source_date_epoch; /* SOURCE_DATE_EPOCH: capture time of reproducible snapshots */
	const char *rules;             /* FWLENS_RULES: a topics file instead of the built-in one */
	const char *limits;            /* FWLENS_LIMITS: "NAME=N,..." lowering limits (fw_env_limit) */
	const char *pci_ids;           /* FWLENS_PCI_IDS: the PCI ID database (tools/host/pci-names.c) */
};

/* Replace the settings (the strings must outlive their use; the command line passes getenv's). */
void fw_env_set(const struct fw_env *e);
const struct fw_env *fw_env(void);

/* FWLENS_LIMITS lowers, never raises, a limit that takes gigabytes to reach, so it can be met
 * on a small machine and in tests through the same code: "inflate-total=N" (bytes all
 * compressed sections of one input inflate to, and what extract --all writes),
 * "snapshot-members=N", "snapshot-bytes=N" (all members) and "snapshot-member=N" (one member,
 * the manifest too). N is a count or bytes, with an optional K, M or G (binary) suffix. */
/* The limit `name` has here: the smaller of `dflt` and what FWLENS_LIMITS sets. */
uint64_t fw_env_limit(const char *name, uint64_t dflt);
/* Whether FWLENS_LIMITS (or NULL: unset) is well formed; false with the reason in why. */
bool fw_env_limits_valid(const char *spec, char *why, size_t whylen);

#endif
