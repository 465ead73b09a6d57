/* Names of PCI devices from the PCI ID database (pci.ids) through libpci, for display beside the
 * ids: "NVIDIA Corporation GB202GL [RTX PRO 6000 Blackwell Server Edition] (10de:2bb5)". Only
 * the local file is read (no DNS lookups, no udev hwdb, so a name does not depend on the machine
 * that prints it but on the database): $FWLENS_PCI_IDS (parsers/env.h), else libpci's default
 * (/usr/share/misc/pci.ids on Debian). An id the database lacks, or a database that cannot be
 * read, gives the ids alone ("10de:2bb5"). */
#ifndef FW_PCI_NAMES_H
#define FW_PCI_NAMES_H

#include <stddef.h>
#include <stdint.h>

/* "VENDOR DEVICE (vvvv:dddd)" or "vvvv:dddd" into buf; returns buf. The names are the database's
 * text, cleaned of control characters; callers escape them for their output's language. */
const char *fw_pci_device_name(uint16_t vendor, uint16_t device, char *buf, size_t len);

#endif
