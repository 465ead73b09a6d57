/* The minimum levels AMD's security bulletins name per CPU family and model: microcode patch
 * levels, SEV firmware builds and AGESA PI versions, one table with the bulletin and the place it
 * was read per row. A CPU no row names is "not known" to the checks, never "fine". */
#ifndef FW_SECURITY_MINIMUMS_H
#define FW_SECURITY_MINIMUMS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum fw_sec_min_kind {
	FW_SEC_MIN_MICROCODE, /* value: the patch level /proc/cpuinfo shows */
	FW_SEC_MIN_SEV_FW,    /* value: FW_SEV_FW_VERSION(api major, api minor, build) */
	FW_SEC_MIN_AGESA_PI,  /* pi: "MilanPI 1.0.0.D", compared with the image's AGESA string */
};

#define FW_SEV_FW_VERSION(major, minor, build) ((uint32_t)(major) << 16 | (uint32_t)(minor) << 8 | (uint32_t)(build))

struct fw_sec_minimum {
	enum fw_sec_min_kind kind;
	unsigned family, model_lo, model_hi;
	int stepping; /* -1: every stepping */
	const char *codename;
	uint32_t value;
	const char *pi;
	const char *bulletin; /* "AMD-SB-3015 (CVE-2024-21944)" */
	const char *source;   /* where the row was read */
};

extern const struct fw_sec_minimum fw_sec_minimums[];
extern const size_t fw_sec_minimum_count;

/* The next row of KIND for the CPU after *i (start with *i = 0); NULL when none is left. */
const struct fw_sec_minimum *fw_sec_minimum_next(enum fw_sec_min_kind kind, unsigned family, unsigned model,
						 unsigned stepping, size_t *i);

/* Compares AGESA PI versions "1.0.0.D" and "1.0.0.10" component by component (digits below
 * letters, as AMD counts 0-9 then A-Z); the text after the last space of "TurinPI-SP5 1.0.0.4".
 * False when either is not such a version; *cmp <0, 0, >0. */
bool fw_agesa_pi_compare(const char *a, const char *b, int *cmp);
/* Whether an image's AGESA string ("TurinPI-SP5 1.0.0.4") is of the row's line ("TurinPI 1.0.0.6"). */
bool fw_agesa_pi_same_line(const char *agesa, const char *row_pi);

#endif
