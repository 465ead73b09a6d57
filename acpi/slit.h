/* SLIT, the System Locality Information Table (reference/acpi.md 6): u64 locality count, then an
 * N x N matrix of u8 distances (10 = local, 0xFF = unreachable). */
#ifndef FW_ACPI_SLIT_H
#define FW_ACPI_SLIT_H

#include "parsers/layout.h"

enum { SLIT_LOCALITY_COUNT, SLIT__COUNT };
extern const struct fw_layout fw_slit_layout;
#define FW_SLIT_HEADER_SIZE 44
#define FW_SLIT_LOCAL_DISTANCE 10

#endif
