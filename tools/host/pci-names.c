/* PCI device names through libpci's pci_lookup_name (see pci-names.h). */
#include "pci-names.h"

#include <errno.h>
#include <pci/pci.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "parsers/env.h"

static struct pci_access *names;
static bool unusable; /* the database could not be read: ids from now on */
static jmp_buf on_error;
static const struct fw_pci_names_memo *memo;

void fw_pci_names_memo(const struct fw_pci_names_memo *m)
{
	memo = m;
}

/* libpci's error callback must not return (its default exits the program): a database it cannot
 * parse ends the lookup here instead, and no further lookup is tried. */
static void PCI_NONRET names_error(char *msg, ...)
{
	(void)msg;
	longjmp(on_error, 1);
}

static void names_quiet(char *msg, ...)
{
	(void)msg;
}

static struct pci_access *access_names(void)
{
	if (unusable)
		return NULL;
	if (names)
		return names;
	names = pci_alloc();
	if (!names) {
		unusable = true;
		return NULL;
	}
	names->error = names_error;
	names->warning = names_quiet;
	names->debug = names_quiet;
	/* the database file alone: not libpci's per-user cache of DNS answers (~/.pciids-cache), which it
	 * consults by default for an id the file lacks */
	names->id_lookup_mode &= ~(unsigned)PCI_LOOKUP_CACHE;
	const char *file = fw_env()->pci_ids;
	if (file)
		pci_set_name_list_path(names, (char *)file, 0);
	return names;
}

/* Control characters of the database text become spaces (the text is a file on the machine). */
static void clean(char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7F)
			*s = ' ';
}

/* The database file libpci reads for `a` and its state, for the memo (false: not known, or a path
 * the memo's lines cannot hold). */
static bool database_state(struct pci_access *a, char *out, size_t len)
{
	struct stat st;
	const char *path = a->id_file_name;
	size_t n = path ? strlen(path) : 0;
	/* libpci opens NAME.gz, else NAME (and from then on names NAME): the same here, first */
	if (n > 3 && strcmp(path + n - 3, ".gz") == 0 && stat(path, &st) != 0 && errno == ENOENT) {
		char *plain = strndup(path, n - 3);
		if (!plain)
			return false;
		pci_set_name_list_path(a, plain, 1);
		path = a->id_file_name;
	}
	if (!path || strpbrk(path, "\t\n") || stat(path, &st) != 0 || !S_ISREG(st.st_mode))
		return false;
	int w = snprintf(out, len, "libpci 0x%06x %llu %llu %llu %s", (unsigned)PCI_LIB_VERSION,
			 (unsigned long long)st.st_size,
			 (unsigned long long)st.st_mtim.tv_sec * 1000000000ull + (unsigned long long)st.st_mtim.tv_nsec,
			 (unsigned long long)st.st_ino, path);
	return w > 0 && (size_t)w < len;
}

const char *fw_pci_device_name(uint16_t vendor, uint16_t device, char *buf, size_t len)
{
	char name[256], db[4200];
	const char *found = NULL;
	struct pci_access *a = access_names();
	bool memo_db = a && memo && database_state(a, db, sizeof(db));
	if (memo_db && memo->recall(memo->ctx, db, vendor, device, name, sizeof(name))) {
		found = *name ? name : NULL;
	} else if (a) {
		if (setjmp(on_error) == 0)
			found = pci_lookup_name(a, name, (int)sizeof(name),
						PCI_LOOKUP_VENDOR | PCI_LOOKUP_DEVICE | PCI_LOOKUP_NO_NUMBERS |
							PCI_LOOKUP_NO_HWDB,
						(unsigned)vendor, (unsigned)device);
		else
			unusable = true, found = NULL;
		/* an answer of the database file itself (not of a load that failed) */
		if (memo_db && !unusable && !a->id_load_failed) {
			if (found)
				clean(name);
			memo->remember(memo->ctx, db, vendor, device, found ? name : "");
		}
	}
	if (found) {
		clean(name);
		snprintf(buf, len, "%s (%04x:%04x)", name, vendor, device);
	} else {
		snprintf(buf, len, "%04x:%04x", vendor, device);
	}
	return buf;
}
