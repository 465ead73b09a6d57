/* PCI device names through libpci's pci_lookup_name (see pci-names.h). */
#include "pci-names.h"

#include <pci/pci.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>

#include "parsers/env.h"

static struct pci_access *names;
static bool unusable; /* the database could not be read: ids from now on */
static jmp_buf on_error;

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

const char *fw_pci_device_name(uint16_t vendor, uint16_t device, char *buf, size_t len)
{
	char name[256];
	const char *found = NULL;
	struct pci_access *a = access_names();
	if (a) {
		if (setjmp(on_error) == 0)
			found = pci_lookup_name(a, name, (int)sizeof(name),
						PCI_LOOKUP_VENDOR | PCI_LOOKUP_DEVICE | PCI_LOOKUP_NO_NUMBERS |
							PCI_LOOKUP_NO_HWDB,
						(unsigned)vendor, (unsigned)device);
		else
			unusable = true, found = NULL;
	}
	if (found) {
		clean(name);
		snprintf(buf, len, "%s (%04x:%04x)", name, vendor, device);
	} else {
		snprintf(buf, len, "%04x:%04x", vendor, device);
	}
	return buf;
}
