/* The public dbx releases fwlens can recognise in a machine's dbx: per release, a few of the
 * SHA-256 Authenticode hashes (or one certificate's SHA-256) it added, as published in Microsoft's
 * secureboot_objects repository (the source of the UEFI Forum's revocation list files). A snapshot
 * as of FW_DBX_SNAPSHOT_DATE: releases after that date are not known. */
#ifndef FW_DBX_RELEASES_H
#define FW_DBX_RELEASES_H

#include <stdbool.h>
#include <stddef.h>

#define FW_DBX_SNAPSHOT_DATE "2026-07-15"
#define FW_DBX_MARKERS 3

struct fw_dbx_release {
	const char *date;    /* dateOfAddition in the source */
	const char *what;    /* what it revokes, as the source describes it */
	bool critical;       /* a widely exploited bypass: missing it is a fail, not a warn */
	unsigned x64_hashes; /* x64 SHA-256 entries in the source's list up to this release */
	const char *markers[FW_DBX_MARKERS]; /* lower-case hex; NULL ends a shorter list */
	const char *source;  /* URL of the file (at the commit read) */
	bool certificate;    /* the markers are SHA-256 of DER certificates, not image hashes */
};

extern const struct fw_dbx_release fw_dbx_releases[];
extern const size_t fw_dbx_release_count;

#endif
