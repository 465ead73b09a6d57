/* SLIT, the System Locality Distance Information Table (reference/acpi.md 6; ACPI 6.5 5.2.17):
 * a locality count N (u64 @36) and an N x N matrix of relative distances (u8) from 44.
 * 10 means local, 255 unreachable, 0-9 are reserved. */
#ifndef FW_ACPI_SLIT_H
#define FW_ACPI_SLIT_H

#include "acpi/table.h"
#include "parsers/layout.h"

enum { SLIT_LOCALITY_COUNT, SLIT__COUNT };
extern const struct fw_layout fw_slit_layout;
#define FW_SLIT_HEADER_SIZE 44
#define FW_SLIT_LOCAL_DISTANCE 10


struct fw_slit {
	uint64_t localities;    /* as stored */
	size_t n;               /* rows decoded (0 when the matrix does not fit) */
	const uint8_t *matrix;  /* n x n, row-major, points into the table bytes */
};

void *fw_acpi_slit_decode(struct fw_acpi_table *t, struct fw_arena *a);
/* The checks on an n x n distance matrix at table offset `start` (SLIT, AMD's CDIT): 10 to
 * itself, nothing below 10 elsewhere, and (info) where i->j and j->i differ; `what` names a row
 * ("locality", "domain"). */
void fw_acpi_distance_checks(struct fw_acpi_table *t, struct fw_arena *a, const uint8_t *m, size_t n, size_t start,
			     const char *what);

#endif
