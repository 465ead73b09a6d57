/* MCFG, PCI Express memory-mapped configuration space (reference/acpi.md 6): 8 reserved bytes
 * after the header, then 16-byte allocations. The base address corresponds to bus 0 even when
 * the start bus is not 0. */
#ifndef FW_ACPI_MCFG_H
#define FW_ACPI_MCFG_H

#include "parsers/layout.h"

enum { MCFG_RESERVED, MCFG__COUNT };
extern const struct fw_layout fw_mcfg_layout;
#define FW_MCFG_HEADER_SIZE 44

enum { MCFG_ALLOC_BASE, MCFG_ALLOC_SEGMENT, MCFG_ALLOC_START_BUS, MCFG_ALLOC_END_BUS, MCFG_ALLOC__COUNT };
extern const struct fw_layout fw_mcfg_allocation_layout;
#define FW_MCFG_ALLOCATION_SIZE 16

#endif
