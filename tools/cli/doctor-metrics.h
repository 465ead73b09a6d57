/* `fwlens doctor --format prometheus|openmetrics`: the checks of one machine as metrics, every
 * sample labelled by host:
 *
 *   fwlens_doctor_check_status{host, check, status}  1 for the status the check has, 0 for the
 *                                                     other three (a state set: alert on
 *                                                     status="fail" == 1)
 *   fwlens_doctor_checks{host, status}               how many checks have each status
 *   fwlens_snapshot_captured_timestamp_seconds{host} when the machine was read (the snapshot's
 *                                                     manifest; the time of this run for a folder)
 *   fwlens_bios_info{host, version, source}          \
 *   fwlens_agesa_info{host, version, source}          } the versions and where they were read;
 *   fwlens_sev_firmware_info{host, version, source}  /  absent when the machine does not say
 *
 * "prometheus" is the text exposition format 0.0.4 (info metrics are gauges of value 1), the form
 * node_exporter's textfile collector reads; "openmetrics" is OpenMetrics 1.0 text (stateset and
 * info types, units, "# EOF") for a scrape that asks for it: the textfile collector does not read
 * it. Label values come from the machine (hostname, DMI and version strings): see
 * fw_metrics_label_value. */
#ifndef FW_DOCTOR_METRICS_H
#define FW_DOCTOR_METRICS_H

#include <stdbool.h>
#include <stdio.h>
#include <time.h>

#include "record-key.h"
#include "tools/query/doctor.h"
#include "tools/query/inventory.h"

struct fw_doctor_metrics {
	const struct fw_record_key *key;     /* host (else source) and capture time */
	const struct fw_doctor_report *report;
	const struct fw_inventory *inventory; /* version facts; may be NULL */
	time_t now;                          /* the capture time of a folder read live */
	bool openmetrics;
};

void fw_doctor_write_metrics(FILE *f, const struct fw_doctor_metrics *m);
/* A label value in double quotes, as both formats want it: backslash, double quote and line feed
 * escaped (\\, \", \n), and what a terminal would not show (other controls, C1, bytes that are
 * not UTF-8) first written as visible text ("\x1b", "\xff"), so the value is valid UTF-8. */
void fw_metrics_label_value(FILE *f, const char *value);

#endif
