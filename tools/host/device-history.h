/* A PCI device's history in the kernel log: its events in log order (enumerated, added to an
 * IOMMU group, enabled by a driver's probe, driver errors, failed probes, removed, faults), each
 * with the time the log gives. Checks judge a device by its latest state: errors before its latest
 * (re-)enumeration or probe are history, errors after it are current.
 *
 * Log forms read: dmesg "[ 7701.123456] msg", dmesg -T "[Sat Dec  5 06:19:32 2026] msg",
 * /dev/kmsg records "6,1234,7701123456,-;msg", journalctl -k "Dec 05 06:19:32 host kernel: msg",
 * its -o short-iso and short-monotonic forms. A journal's "-- Boot ID --" / "-- Reboot --" line or
 * the kernel's "Linux version" banner after other lines starts a new boot: only the last boot's
 * events are kept (the machine as it is now). */
#ifndef FW_DEVICE_HISTORY_H
#define FW_DEVICE_HISTORY_H

#include <stdbool.h>
#include <stddef.h>

enum fw_dev_event_kind {
	FW_DEV_ENUMERATED,   /* "pci 0000:23:00.0: [10de:2bb5] type 00 class 0x030200" */
	FW_DEV_GROUP,        /* "pci 0000:23:00.0: Adding to iommu group 13" */
	FW_DEV_ENABLED,      /* "nvidia 0000:23:00.0: enabling device (0000 -> 0002)": a driver's probe */
	FW_DEV_DRIVER_ERROR, /* NVRM RmInitAdapter failed, FSP boot error, Xid */
	FW_DEV_PROBE_FAILED, /* "nvidia: probe of 0000:23:00.0 failed with error -1", "probe with driver X failed" */
	FW_DEV_REMOVED,      /* "pci 0000:23:00.0: Removing from iommu group 13" (sysfs remove, hot unplug) */
	FW_DEV_FAULT,        /* AMD-Vi "Event logged [IO_PAGE_FAULT ...]", Intel DMAR fault */
};

struct fw_dev_event {
	enum fw_dev_event_kind kind;
	char bdf[16];     /* "0000:23:00.0" */
	double seconds;   /* since boot, or -1 when the line gives a wall-clock time or none */
	char when[40];    /* "7701.123456 s", the wall-clock stamp as logged, or "" */
	int group;        /* GROUP, REMOVED: the group number; else -1 */
	char driver[24];  /* the driver that logged it ("nvidia", "vfio-pci"), or "" */
	char what[64];    /* "RmInitAdapter failed (0x62:0xffff:2142)", "FSP error 0x177", "Xid 79",
			   * "probe error -1", "IO_PAGE_FAULT", "[10de:2bb5]" */
	const char *line; /* the message in the log, up to its newline */
	size_t len;
};

struct fw_dev_history {
	struct fw_dev_event *events;
	size_t count;
	size_t earlier_boots; /* boots the log held before the last one (their events are dropped) */
};

/* Parse a kernel log (NUL-terminated; the events point into it, so it must outlive them). */
void fw_dev_history_parse(const char *log, struct fw_dev_history *out);
void fw_dev_history_free(struct fw_dev_history *h);

/* One device judged by its latest state. */
struct fw_dev_state {
	size_t events;
	size_t errors, errors_current;      /* driver errors and failed probes: all, after the latest start */
	size_t faults, faults_current;      /* IOMMU faults: all, after the latest start */
	const struct fw_dev_event *start;   /* latest enumeration or probe start (enabled), or NULL */
	const struct fw_dev_event *reenumerated; /* an enumeration after an earlier one or a removal, the latest, or NULL */
	const struct fw_dev_event *first_error, *last_error;
	const struct fw_dev_event *removed; /* a removal with no enumeration after it, or NULL */
	bool recovered;                     /* errors, all of them before the latest start */
};
void fw_dev_state(const struct fw_dev_history *h, const char *bdf, struct fw_dev_state *st);
/* The event's time for people: "7701.123456 s" or the logged stamp, "time not logged" otherwise. */
const char *fw_dev_event_when(const struct fw_dev_event *e);

#endif
