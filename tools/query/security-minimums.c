/* The bulletin minimums (see security-minimums.h). Microcode rows: AMD-SB-7033 (CVE-2024-36347,
 * "EntrySign", microcode signature verification), its table of minimum patch levels as quoted on
 * tech@openbsd.org on 2025-10-26. SEV firmware and AGESA PI rows: the "unaffected" versions AMD,
 * as the CVE numbering authority, published in the CVE records of its bulletins (cvelistV5); their
 * "Milan PI 1.0.0.D" and "Genoa 1.0.0.E" are written as the line name the image's AGESA string
 * carries ("MilanPI-SP3 1.0.0.D", "GenoaPI-SP5 1.0.0.E"). */
#include "security-minimums.h"

#include <ctype.h>
#include <string.h>

#define CVE(year, dir, id) "https://github.com/CVEProject/cvelistV5/blob/main/cves/" #year "/" dir "/" id ".json"
#define OPENBSD_7033 "AMD-SB-7033 table as quoted on tech@openbsd.org, 2025-10-26"
#define SB3015 "AMD-SB-3015 (CVE-2024-21944)"
#define SB3019 "AMD-SB-3019 (CVE-2024-56161)"
#define SB3020 "AMD-SB-3020 (CVE-2025-0033)"

const struct fw_sec_minimum fw_sec_minimums[] = {
	/* kind, family, models, stepping, codename, value, AGESA PI, bulletin, source */
	{FW_SEC_MIN_MICROCODE, 0x19, 0x01, 0x01, 1, "Milan B1", 0x0a0011d9, NULL, "AMD-SB-7033", OPENBSD_7033},
	{FW_SEC_MIN_MICROCODE, 0x19, 0x01, 0x01, 2, "Milan-X B2", 0x0a001242, NULL, "AMD-SB-7033", OPENBSD_7033},
	{FW_SEC_MIN_MICROCODE, 0x19, 0x11, 0x11, 1, "Genoa B1", 0x0a101153, NULL, "AMD-SB-7033", OPENBSD_7033},
	{FW_SEC_MIN_MICROCODE, 0x19, 0x11, 0x11, 2, "Genoa-X B2", 0x0a10124e, NULL, "AMD-SB-7033", OPENBSD_7033},
	{FW_SEC_MIN_MICROCODE, 0x19, 0xa0, 0xa0, 2, "Bergamo A2", 0x0aa00218, NULL, "AMD-SB-7033", OPENBSD_7033},
	{FW_SEC_MIN_MICROCODE, 0x1a, 0x02, 0x02, 1, "Turin", 0x0b002140, NULL, "AMD-SB-7033", OPENBSD_7033},
	{FW_SEC_MIN_MICROCODE, 0x1a, 0x11, 0x11, 0, "Turin Dense", 0x0b101040, NULL, "AMD-SB-7033", OPENBSD_7033},
	/* "AMD EPYC 7003 Series": SEV FW 1.55.22 (hex 1.37.16); "AMD EPYC 9004 Series": 1.55.38 (1.37.26) */
	{FW_SEC_MIN_SEV_FW, 0x19, 0x00, 0x0f, -1, "Milan (EPYC 7003)", FW_SEV_FW_VERSION(1, 55, 22), NULL, SB3015,
	 CVE(2024, "21xxx", "CVE-2024-21944")},
	{FW_SEC_MIN_SEV_FW, 0x19, 0x10, 0x1f, -1, "Genoa (EPYC 9004)", FW_SEV_FW_VERSION(1, 55, 38), NULL, SB3015,
	 CVE(2024, "21xxx", "CVE-2024-21944")},
	{FW_SEC_MIN_AGESA_PI, 0x19, 0x00, 0x0f, -1, "Milan (EPYC 7003)", 0, "MilanPI 1.0.0.D", SB3015,
	 CVE(2024, "21xxx", "CVE-2024-21944")},
	{FW_SEC_MIN_AGESA_PI, 0x19, 0x10, 0x1f, -1, "Genoa (EPYC 9004)", 0, "GenoaPI 1.0.0.D", SB3015,
	 CVE(2024, "21xxx", "CVE-2024-21944")},
	{FW_SEC_MIN_AGESA_PI, 0x19, 0x00, 0x0f, -1, "Milan (EPYC 7003)", 0, "MilanPI 1.0.0.F", SB3019,
	 CVE(2024, "56xxx", "CVE-2024-56161")},
	{FW_SEC_MIN_AGESA_PI, 0x19, 0x10, 0x1f, -1, "Genoa (EPYC 9004)", 0, "GenoaPI 1.0.0.E", SB3019,
	 CVE(2024, "56xxx", "CVE-2024-56161")},
	{FW_SEC_MIN_AGESA_PI, 0x19, 0x00, 0x0f, -1, "Milan (EPYC 7003)", 0, "MilanPI 1.0.0.H", SB3020,
	 CVE(2025, "0xxx", "CVE-2025-0033")},
	{FW_SEC_MIN_AGESA_PI, 0x1a, 0x00, 0x1f, -1, "Turin (EPYC 9005)", 0, "TurinPI 1.0.0.6", SB3020,
	 CVE(2025, "0xxx", "CVE-2025-0033")},
};

const size_t fw_sec_minimum_count = sizeof(fw_sec_minimums) / sizeof(fw_sec_minimums[0]);

const struct fw_sec_minimum *fw_sec_minimum_next(enum fw_sec_min_kind kind, unsigned family, unsigned model,
						 unsigned stepping, size_t *i)
{
	for (; *i < fw_sec_minimum_count; (*i)++) {
		const struct fw_sec_minimum *m = &fw_sec_minimums[*i];
		if (m->kind == kind && m->family == family && model >= m->model_lo && model <= m->model_hi &&
		    (m->stepping < 0 || (unsigned)m->stepping == stepping)) {
			(*i)++;
			return m;
		}
	}
	return NULL;
}

/* The version after the last space. */
static const char *pi_version(const char *s)
{
	const char *sp = strrchr(s, ' ');
	return sp ? sp + 1 : s;
}

/* One component: its rank (digits 0-9, then letters A-Z as 10-35, then multi-digit numbers) and
 * where it ends; false when it is empty or not alphanumeric. */
static bool component(const char **p, unsigned long *rank)
{
	const char *s = *p;
	size_t n = strcspn(s, ".");
	if (!n || n > 4)
		return false;
	unsigned long r = 0;
	if (n == 1 && isalpha((unsigned char)s[0])) {
		r = 10 + (unsigned long)(toupper((unsigned char)s[0]) - 'A');
	} else {
		for (size_t i = 0; i < n; i++) {
			if (!isdigit((unsigned char)s[i]))
				return false;
			r = r * 10 + (unsigned long)(s[i] - '0');
		}
		if (r >= 10)
			r += 26; /* "1.0.0.10" after "1.0.0.Z" */
	}
	*rank = r;
	*p = s + n + (s[n] == '.');
	return true;
}

bool fw_agesa_pi_compare(const char *a, const char *b, int *cmp)
{
	const char *p = pi_version(a), *q = pi_version(b);
	*cmp = 0;
	while (*p || *q) {
		unsigned long x, y;
		if (!*p || !*q || !component(&p, &x) || !component(&q, &y))
			return false;
		if (x != y && !*cmp)
			*cmp = x < y ? -1 : 1;
	}
	return true;
}

bool fw_agesa_pi_same_line(const char *agesa, const char *row_pi)
{
	size_t n = strcspn(row_pi, " "); /* "TurinPI" */
	return strncmp(agesa, row_pi, n) == 0 && (agesa[n] == '-' || agesa[n] == ' ');
}
