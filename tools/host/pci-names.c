/* PCI device names from the PCI ID database (see pci-names.h).
 *
 * pci.ids is text, one entry a line: "vvvv  Vendor name" at the left margin, then that vendor's
 * devices "<TAB>dddd  Device name" (and their subsystems, two tabs in), '#' comments and blank
 * lines anywhere; after the vendors come the classes ("C cc  name"), which name no device. A
 * lookup reads the file only up to the device's line (or the end of its vendor's list): libpci's
 * pci_lookup_name parsed all 1.3 MB of Debian's list into a hash of 40,000 entries first, a tenth
 * of a warm doctor run for the one name it shows. The file may be gzip-compressed (zlib reads
 * either), as libpci allowed. Names already looked up are kept (a machine has few kinds). */
#include "pci-names.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <zlib.h>

#include "parsers/env.h"

#define DEFAULT_IDS "/usr/share/misc/pci.ids" /* Debian's package pci.ids, libpci's default */
#define LINE_MAX_BYTES 1024		      /* longer lines are cut (no entry is near it) */

static struct {
	uint16_t vendor, device;
	bool found;
	char name[256];
} seen[16];
static size_t nseen;
static bool unusable; /* the database could not be opened: ids from now on */

/* "hhhh" then two blanks at p: the id; false for anything else (a class line, a subsystem) */
static bool entry_id(const char *p, uint16_t *id, const char **name)
{
	unsigned v = 0;
	for (int i = 0; i < 4; i++) {
		char c = p[i];
		unsigned d = c >= '0' && c <= '9' ? (unsigned)(c - '0')
			     : c >= 'a' && c <= 'f' ? (unsigned)(c - 'a' + 10)
			     : c >= 'A' && c <= 'F' ? (unsigned)(c - 'A' + 10)
						    : 16u;
		if (d > 15)
			return false;
		v = v << 4 | d;
	}
	if (p[4] != ' ' && p[4] != '\t')
		return false;
	p += 4;
	while (*p == ' ' || *p == '\t')
		p++;
	if (!*p)
		return false;
	*id = (uint16_t)v;
	*name = p;
	return true;
}

/* The line without its line end and trailing blanks. */
static void trim(char *s)
{
	size_t n = strlen(s);
	while (n && (s[n - 1] == '\n' || s[n - 1] == '\r' || s[n - 1] == ' ' || s[n - 1] == '\t'))
		s[--n] = '\0';
}

/* "Vendor Device" into out, or false when the database lacks either. */
static bool lookup(gzFile f, uint16_t vendor, uint16_t device, char *out, size_t len)
{
	char line[LINE_MAX_BYTES], vname[LINE_MAX_BYTES];
	bool in_vendor = false, at_start = true;
	while (gzgets(f, line, (int)sizeof(line))) {
		size_t n = strlen(line);
		bool whole = n && line[n - 1] == '\n';
		bool starts = at_start;
		at_start = whole; /* the rest of a cut line is not a line of its own */
		if (!starts)
			continue;
		trim(line);
		if (!line[0] || line[0] == '#')
			continue;
		uint16_t id;
		const char *name;
		if (line[0] != '\t') {
			if (in_vendor)
				return false; /* the vendor's list ended without the device */
			if (entry_id(line, &id, &name) && id == vendor) {
				snprintf(vname, sizeof(vname), "%s", name);
				in_vendor = true;
			}
			continue;
		}
		if (in_vendor && line[1] != '\t' && entry_id(line + 1, &id, &name) && id == device) {
			snprintf(out, len, "%s %s", vname, name);
			return true;
		}
	}
	return false;
}

/* Control characters of the database text become spaces (the text is a file on the machine). */
static void clean(char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7F)
			*s = ' ';
}

static const char *known_name(uint16_t vendor, uint16_t device)
{
	for (size_t i = 0; i < nseen; i++)
		if (seen[i].vendor == vendor && seen[i].device == device)
			return seen[i].found ? seen[i].name : NULL;
	if (unusable)
		return NULL;
	const char *file = fw_env()->pci_ids ? fw_env()->pci_ids : DEFAULT_IDS;
	gzFile f = gzopen(file, "rb");
	if (!f) {
		unusable = true;
		return NULL;
	}
	char name[256];
	bool found = lookup(f, vendor, device, name, sizeof(name));
	gzclose(f);
	if (found)
		clean(name);
	if (nseen == sizeof(seen) / sizeof(seen[0]))
		nseen = 0; /* a machine with more kinds of devices: start over */
	seen[nseen].vendor = vendor;
	seen[nseen].device = device;
	seen[nseen].found = found;
	snprintf(seen[nseen].name, sizeof(seen[nseen].name), "%s", found ? name : "");
	return found ? seen[nseen++].name : (nseen++, NULL);
}

const char *fw_pci_device_name(uint16_t vendor, uint16_t device, char *buf, size_t len)
{
	const char *found = known_name(vendor, device);
	if (found)
		snprintf(buf, len, "%s (%04x:%04x)", found, vendor, device);
	else
		snprintf(buf, len, "%04x:%04x", vendor, device);
	return buf;
}
