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

#endif
