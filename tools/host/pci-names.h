/* Names of PCI devices from the PCI ID database (pci.ids) through libpci, for display beside the
 * ids: "NVIDIA Corporation GB202GL [RTX PRO 6000 Blackwell Server Edition] (10de:2bb5)". Only
 * the local file is read (no DNS lookups, no udev hwdb, so a name does not depend on the machine
 * that prints it but on the database; nor libpci's cache of DNS answers): $FWLENS_PCI_IDS (parsers/env.h), else libpci's default
 * (/usr/share/misc/pci.ids on Debian). An id the database lacks, or a database that cannot be
 * read, gives the ids alone ("10de:2bb5"). */
#ifndef FW_PCI_NAMES_H
#define FW_PCI_NAMES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* "VENDOR DEVICE (vvvv:dddd)" or "vvvv:dddd" into buf; returns buf. The names are the database's
 * text, cleaned of control characters; callers escape them for their output's language. */
const char *fw_pci_device_name(uint16_t vendor, uint16_t device, char *buf, size_t len);

/* Answers libpci gave before, kept by the caller (the cache of decoded firmware, tools/query/cache.h)
 * so that a run naming the same devices does not load the whole database (about 40,000 entries,
 * a tenth of a warm doctor). `db` names the database file libpci reads and its state:
 * "libpci 0xVERSION SIZE MTIME-NS INODE PATH"; an answer counts only for that same text. The
 * answer is the file's alone: libpci's per-user cache of DNS answers is never consulted. */
struct fw_pci_names_memo {
	/* the answer remembered for vendor:device with database `db` into name[0..len) ("" when the
	 * database lacks the id), or false when none is */
	bool (*recall)(void *ctx, const char *db, uint16_t vendor, uint16_t device, char *name, size_t len);
	void (*remember)(void *ctx, const char *db, uint16_t vendor, uint16_t device, const char *name);
	void *ctx;
};
/* Use `m` from now on (NULL: none); it must live until replaced. */
void fw_pci_names_memo(const struct fw_pci_names_memo *m);

#endif
