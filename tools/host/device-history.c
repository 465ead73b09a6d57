/* Per-device events from the kernel log (device-history.h). The messages are the kernel's own:
 * the PCI core's enumeration line, the IOMMU core's group lines, pci_enable_device's "enabling
 * device", the driver core's failed-probe lines, NVIDIA's NVRM lines and the IOMMU drivers' fault
 * reports; anything else is not an event. */
#include "device-history.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parsers/error.h"

/* "0000:23:00.0" exactly at p. */
static bool bdf_at(const char *p, char out[16])
{
	static const char shape[] = "xxxx:xx:xx.";
	for (size_t i = 0; i < sizeof(shape) - 1; i++) {
		if (!p[i])
			return false;
		if (shape[i] == 'x' ? !isxdigit((unsigned char)p[i]) : p[i] != shape[i])
			return false;
	}
	if (p[11] < '0' || p[11] > '7' || isxdigit((unsigned char)p[12]))
		return false;
	snprintf(out, 16, "%.12s", p);
	for (char *c = out; *c; c++)
		*c = (char)tolower((unsigned char)*c);
	return true;
}

/* "41:00.0" (segment 0) or a full address at p, ended by end_chars. */
static bool short_bdf_at(const char *p, char out[16])
{
	if (bdf_at(p, out))
		return true;
	unsigned b, d, f;
	int used = 0;
	if (sscanf(p, "%2x:%2x.%1u%n", &b, &d, &f, &used) == 3 && used == 7 && f < 8) {
		snprintf(out, 16, "0000:%02x:%02x.%u", b, d, f);
		return true;
	}
	return false;
}

/* After a journal's stamp: "HOST kernel: msg". NULL when the line is not the kernel's. */
static const char *after_host(const char *p, const char *end)
{
	const char *sp = memchr(p, ' ', (size_t)(end - p));
	if (!sp || end - sp < 9 || memcmp(sp + 1, "kernel: ", 8) != 0)
		return NULL;
	return sp + 9;
}

/* Strip the line's time stamp, filling e->seconds and e->when; the message, or NULL for a line
 * that is not a kernel message. */
static const char *strip_stamp(const char *line, const char *end, struct fw_dev_event *e)
{
	e->seconds = -1;
	e->when[0] = '\0';
	const char *p = line;
	if (*p == '[') {
		const char *close = memchr(p, ']', (size_t)(end - p) < 64 ? (size_t)(end - p) : 64);
		if (!close)
			return p;
		char in[64];
		snprintf(in, sizeof(in), "%.*s", (int)(close - p - 1), p + 1);
		char *num_end;
		double s = strtod(in, &num_end);
		while (*num_end == ' ')
			num_end++;
		if (num_end != in && !*num_end && s >= 0) {
			e->seconds = s;
			snprintf(e->when, sizeof(e->when), "%.6f s", s);
		} else {
			snprintf(e->when, sizeof(e->when), "%s", in);
		}
		p = close + 1;
		while (p < end && *p == ' ')
			p++;
		/* journalctl -o short-monotonic: "[ 7701.123456] HOST kernel: msg" */
		const char *k = after_host(p, end);
		return k ? k : p;
	}
	unsigned prio;
	unsigned long long seq, usec;
	int used = 0;
	if (isdigit((unsigned char)*p) && sscanf(p, "%u,%llu,%llu,%n", &prio, &seq, &usec, &used) == 3 && used) {
		const char *semi = memchr(p, ';', (size_t)(end - p));
		if (semi) {
			e->seconds = (double)usec / 1e6;
			snprintf(e->when, sizeof(e->when), "%.6f s", e->seconds);
			return semi + 1;
		}
	}
	/* journalctl -o short-iso: "2026-12-05T06:19:32+0000 HOST kernel: msg" */
	if (end - p > 20 && isdigit((unsigned char)p[0]) && p[4] == '-' && p[7] == '-' && p[10] == 'T') {
		size_t n = strcspn(p, " ");
		snprintf(e->when, sizeof(e->when), "%.*s", (int)(n < 39 ? n : 39), p);
		return p + n < end ? after_host(p + n + 1, end) : NULL;
	}
	/* journalctl -k, syslog: "Dec 05 06:19:32 HOST kernel: msg" */
	if (end - p > 16 && isalpha((unsigned char)p[0]) && p[3] == ' ' && p[6] == ' ' && p[9] == ':' && p[12] == ':' &&
	    p[15] == ' ') {
		snprintf(e->when, sizeof(e->when), "%.15s", p);
		return after_host(p + 16, end);
	}
	return p;
}

/* NVRM's error code: "RmInitAdapter failed! (0x62:0xffff:2142)" -> "0x62:0xffff:2142". */
static void paren_code(const char *s, char *out, size_t len)
{
	const char *o = strchr(s, '(');
	out[0] = '\0';
	if (o)
		snprintf(out, len, "%.*s", (int)strcspn(o + 1, ")"), o + 1);
}

/* Classify one message; false when it is no device event. */
static bool classify(const char *msg, struct fw_dev_event *e)
{
	e->group = -1;
	e->driver[0] = e->what[0] = e->bdf[0] = '\0';
	/* "DRIVER BDF: rest" */
	size_t tok = strcspn(msg, " ");
	if (msg[tok] == ' ' && bdf_at(msg + tok + 1, e->bdf) && msg[tok + 13] == ':') {
		const char *rest = msg + tok + 14;
		while (*rest == ' ')
			rest++;
		snprintf(e->driver, sizeof(e->driver), "%.*s", (int)(tok < 23 ? tok : 23), msg);
		bool core = strcmp(e->driver, "pci") == 0;
		unsigned v, d;
		if (core && sscanf(rest, "[%4x:%4x] type", &v, &d) == 2) {
			e->kind = FW_DEV_ENUMERATED;
			snprintf(e->what, sizeof(e->what), "[%04x:%04x]", v, d);
			e->driver[0] = '\0';
			return true;
		}
		if (sscanf(rest, "Adding to iommu group %d", &e->group) == 1) {
			e->kind = FW_DEV_GROUP;
			e->driver[0] = '\0';
			return true;
		}
		if (sscanf(rest, "Removing from iommu group %d", &e->group) == 1) {
			e->kind = FW_DEV_REMOVED;
			e->driver[0] = '\0';
			return true;
		}
		if (!core && strncmp(rest, "enabling device", 15) == 0) {
			e->kind = FW_DEV_ENABLED;
			return true;
		}
		const char *ev = strstr(rest, "Event logged [");
		if (ev) {
			e->kind = FW_DEV_FAULT;
			ev += 14;
			snprintf(e->what, sizeof(e->what), "%.*s", (int)strcspn(ev, " ]"), ev);
			return true;
		}
		const char *pw = strstr(rest, "probe with driver ");
		int err;
		if (pw) {
			char drv[24];
			if (sscanf(pw, "probe with driver %23s failed with error %d", drv, &err) == 2) {
				e->kind = FW_DEV_PROBE_FAILED;
				snprintf(e->driver, sizeof(e->driver), "%s", drv);
				snprintf(e->what, sizeof(e->what), "probe error %d", err);
				return true;
			}
		}
		return false;
	}
	/* "nvidia: probe of 0000:23:00.0 failed with error -1" */
	const char *po = strstr(msg, ": probe of ");
	if (po && bdf_at(po + 11, e->bdf) && strstr(po, " failed")) {
		snprintf(e->driver, sizeof(e->driver), "%.*s", (int)((po - msg) < 23 ? (po - msg) : 23), msg);
		e->kind = FW_DEV_PROBE_FAILED;
		const char *er = strstr(po, "error ");
		int err;
		if (er && sscanf(er + 6, "%d", &err) == 1)
			snprintf(e->what, sizeof(e->what), "probe error %d", err);
		else
			snprintf(e->what, sizeof(e->what), "probe failed");
		return true;
	}
	if (strncmp(msg, "NVRM: ", 6) == 0) {
		snprintf(e->driver, sizeof(e->driver), "nvidia");
		/* "NVRM: GPU 0000:23:00.0: ..." or "NVRM: Xid (PCI:0000:23:00): 79, ..." */
		const char *x = strstr(msg, "Xid (PCI:");
		if (x) {
			unsigned s, b, d, xid;
			if (sscanf(x, "Xid (PCI:%4x:%2x:%2x): %u", &s, &b, &d, &xid) != 4)
				return false;
			snprintf(e->bdf, sizeof(e->bdf), "%04x:%02x:%02x.0", s, b, d);
			snprintf(e->what, sizeof(e->what), "Xid %u", xid);
			e->kind = FW_DEV_DRIVER_ERROR;
			return true;
		}
		const char *g = strstr(msg, "GPU ");
		if (!g || !bdf_at(g + 4, e->bdf))
			return false;
		char code[40];
		if (strstr(msg, "RmInitAdapter failed")) {
			paren_code(strstr(msg, "RmInitAdapter failed"), code, sizeof(code));
			snprintf(e->what, sizeof(e->what), "RmInitAdapter failed%s%s%s", code[0] ? " (" : "", code,
				 code[0] ? ")" : "");
		} else if ((strstr(msg, "kfsp") || strstr(msg, "FSP")) && strstr(msg, "rror")) {
			unsigned v = 0;
			for (const char *h = strstr(msg, "rror"); h && (h = strstr(h, "0x")); h += 2)
				if (sscanf(h, "0x%x", &v) == 1 && v > 0xFF)
					break;
			if (v > 0xFF)
				snprintf(e->what, sizeof(e->what), "FSP error 0x%x", v);
			else
				snprintf(e->what, sizeof(e->what), "FSP boot error");
		} else {
			return false;
		}
		e->kind = FW_DEV_DRIVER_ERROR;
		return true;
	}
	/* the older AMD-Vi form "AMD-Vi: Event logged [IO_PAGE_FAULT device=41:00.0 domain=...]" */
	const char *ev = strstr(msg, "Event logged [");
	const char *dv = ev ? strstr(ev, "device=") : NULL;
	if (dv && short_bdf_at(dv + 7, e->bdf)) {
		ev += 14;
		snprintf(e->what, sizeof(e->what), "%.*s", (int)strcspn(ev, " ]"), ev);
		e->kind = FW_DEV_FAULT;
		return true;
	}
	/* Intel: "DMAR: [DMA Read NO_PASID] Request device [41:00.0] fault addr 0x..." */
	const char *rd = strstr(msg, "Request device [");
	if (strncmp(msg, "DMAR: ", 6) == 0 && rd && short_bdf_at(rd + 16, e->bdf) && strstr(rd, "fault addr")) {
		snprintf(e->what, sizeof(e->what), "DMAR fault");
		e->kind = FW_DEV_FAULT;
		return true;
	}
	return false;
}

static bool boot_marker(const char *msg, const char *end, size_t events_so_far)
{
	size_t n = (size_t)(end - msg);
	if (n >= 8 && memcmp(msg, "-- Boot ", 8) == 0)
		return true;
	if (n >= 12 && memcmp(msg, "-- Reboot --", 12) == 0)
		return true;
	/* the kernel's banner, the first line of every boot, in a log that spans several */
	return events_so_far && n >= 14 && memcmp(msg, "Linux version ", 14) == 0;
}

void fw_dev_history_parse(const char *log, struct fw_dev_history *out)
{
	memset(out, 0, sizeof(*out));
	if (!log)
		return;
	size_t cap = 0, lines_this_boot = 0;
	for (const char *line = log; *line;) {
		const char *eol = strchr(line, '\n');
		const char *end = eol ? eol : line + strlen(line);
		struct fw_dev_event e;
		memset(&e, 0, sizeof(e));
		const char *msg = strip_stamp(line, end, &e);
		bool marker = msg && boot_marker(msg, end, lines_this_boot);
		if (marker) {
			if (lines_this_boot)
				out->earlier_boots++;
			out->count = 0;
		}
		/* a journal's marker line and the banner after it start the same boot */
		lines_this_boot = marker ? 0 : lines_this_boot + (msg != NULL && strncmp(msg, "-- ", 3) != 0);
		if (msg && end - msg < 1024) {
			char buf[1024];
			snprintf(buf, sizeof(buf), "%.*s", (int)(end - msg), msg);
			if (classify(buf, &e)) {
				e.line = msg;
				e.len = (size_t)(end - msg);
				if (out->count == cap) {
					cap = cap ? cap * 2 : 64;
					out->events = fw_xrealloc(out->events, cap * sizeof(*out->events));
				}
				out->events[out->count++] = e;
			}
		}
		line = eol ? eol + 1 : end;
	}
}

void fw_dev_history_free(struct fw_dev_history *h)
{
	free(h->events);
	memset(h, 0, sizeof(*h));
}

void fw_dev_state(const struct fw_dev_history *h, const char *bdf, struct fw_dev_state *st)
{
	memset(st, 0, sizeof(*st));
	bool seen_enum = false, seen_removal = false;
	for (size_t i = 0; i < h->count; i++) {
		const struct fw_dev_event *e = &h->events[i];
		if (strcmp(e->bdf, bdf) != 0)
			continue;
		st->events++;
		switch (e->kind) {
		case FW_DEV_ENUMERATED:
			if (seen_enum || seen_removal)
				st->reenumerated = e;
			seen_enum = true;
			st->start = e;
			st->errors_current = st->faults_current = 0;
			st->removed = NULL;
			break;
		case FW_DEV_ENABLED:
			st->start = e;
			st->errors_current = st->faults_current = 0;
			break;
		case FW_DEV_DRIVER_ERROR:
		case FW_DEV_PROBE_FAILED:
			st->errors++;
			st->errors_current++;
			if (!st->first_error)
				st->first_error = e;
			st->last_error = e;
			break;
		case FW_DEV_FAULT:
			st->faults++;
			st->faults_current++;
			break;
		case FW_DEV_REMOVED:
			seen_removal = true;
			st->removed = e;
			break;
		case FW_DEV_GROUP:
			break;
		}
	}
	st->recovered = st->errors && !st->errors_current;
}

const char *fw_dev_event_when(const struct fw_dev_event *e)
{
	return e->when[0] ? e->when : "time not logged";
}
