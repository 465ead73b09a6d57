/* Doctor results as Prometheus / OpenMetrics text (see doctor-metrics.h). */
#include "doctor-metrics.h"

#include <stdlib.h>
#include <string.h>

#include "term-escape.h"

void fw_metrics_label_value(FILE *f, const char *value)
{
	/* what a terminal would not show (controls, C1, bidi, bytes that are not UTF-8) first becomes
	 * visible text ("\x1b"), so the value is valid UTF-8 and the text filter has nothing to change */
	char *shown = fw_term_escape_string(value ? value : "", FW_TERM_KEEP_LF);
	fputc('"', f);
	for (const char *p = shown; *p; p++) {
		if (*p == '\\')
			fputs("\\\\", f);
		else if (*p == '"')
			fputs("\\\"", f);
		else if (*p == '\n')
			fputs("\\n", f);
		else
			fputc(*p, f);
	}
	fputc('"', f);
	free(shown);
}

static void put_label(FILE *f, const char *name, const char *value, bool first)
{
	fprintf(f, "%s%s=", first ? "" : ",", name);
	fw_metrics_label_value(f, value);
}

static void family(FILE *f, const char *name, const char *type, const char *unit, const char *help)
{
	fprintf(f, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, type);
	if (unit)
		fprintf(f, "# UNIT %s %s\n", name, unit);
}

/* "2026-05-01T12:00:00Z" (the manifest's form) as seconds since the epoch; false if not that form. */
static bool parse_utc(const char *s, time_t *out)
{
	struct tm tm;
	memset(&tm, 0, sizeof(tm));
	const char *end = s ? strptime(s, "%Y-%m-%dT%H:%M:%SZ", &tm) : NULL;
	if (!end || *end)
		return false;
	*out = timegm(&tm);
	return true;
}

static void info(FILE *f, const struct fw_doctor_metrics *m, const char *host, const char *metric, const char *key,
		 const char *help)
{
	const struct fw_version_fact *v = m->inventory ? fw_inventory_version(m->inventory, key) : NULL;
	if (!v || !v->value || !*v->value)
		return; /* not known: no sample rather than a made-up one */
	char name[96];
	/* OpenMetrics names the family without the _info suffix its sample carries */
	snprintf(name, sizeof(name), m->openmetrics ? "fwlens_%s" : "fwlens_%s_info", metric);
	family(f, name, m->openmetrics ? "info" : "gauge", NULL, help);
	fprintf(f, "fwlens_%s_info{", metric);
	put_label(f, "host", host, true);
	put_label(f, "version", v->value, false);
	put_label(f, "source", v->source, false);
	fputs("} 1\n", f);
}

void fw_doctor_write_metrics(FILE *f, const struct fw_doctor_metrics *m)
{
	const struct fw_doctor_report *r = m->report;
	const char *host = m->key->host ? m->key->host : m->key->source;
	static const enum fw_check_status all[] = {FW_CHECK_PASS, FW_CHECK_WARN,    FW_CHECK_FAIL,
						   FW_CHECK_SKIP, FW_CHECK_PENDING, FW_CHECK_ACCEPTED};
	const size_t nall = sizeof(all) / sizeof(all[0]);

	family(f, "fwlens_doctor_check_status", m->openmetrics ? "stateset" : "gauge", NULL,
	       "Status of each doctor check: 1 for the status it has (pass, warn, fail, skip, pending: waits for "
	       "the next boot, accepted: by an admin), 0 for the others.");
	for (size_t i = 0; i < r->count; i++)
		for (size_t s = 0; s < nall; s++) {
			fputs("fwlens_doctor_check_status{", f);
			put_label(f, "host", host, true);
			put_label(f, "check", r->results[i].id, false);
			/* an OpenMetrics state set names the state with a label of the family's own name */
			put_label(f, m->openmetrics ? "fwlens_doctor_check_status" : "status", fw_check_status_name(all[s]),
				  false);
			fprintf(f, "} %d\n", r->results[i].status == all[s]);
		}

	family(f, "fwlens_doctor_checks", "gauge", NULL, "Number of doctor checks with each status.");
	const size_t counts[] = {r->pass, r->warn, r->fail, r->skip, r->pending, r->accepted};
	for (size_t s = 0; s < nall; s++) {
		fputs("fwlens_doctor_checks{", f);
		put_label(f, "host", host, true);
		put_label(f, "status", fw_check_status_name(all[s]), false);
		fprintf(f, "} %zu\n", counts[s]);
	}

	time_t when = m->now;
	if (m->key->captured && !parse_utc(m->key->captured, &when))
		when = m->now;
	family(f, "fwlens_snapshot_captured_timestamp_seconds", "gauge", m->openmetrics ? "seconds" : NULL,
	       "When the machine was read: the snapshot's capture time, or this run's for a live folder.");
	fputs("fwlens_snapshot_captured_timestamp_seconds{", f);
	put_label(f, "host", host, true);
	fprintf(f, "} %lld\n", (long long)when);

	info(f, m, host, "bios", "bios_version", "BIOS version the machine reports, and where it was read.");
	info(f, m, host, "agesa", "agesa", "AGESA version of the BIOS image.");
	info(f, m, host, "sev_firmware", "sev_firmware", "SEV firmware version the machine runs, and where it was read.");
	if (m->openmetrics)
		fputs("# EOF\n", f);
}
