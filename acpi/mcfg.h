/* MCFG, PCI Express memory-mapped configuration space (reference/acpi.md 6; PCI Firmware
 * specification): 8 reserved bytes at 36, then 16-byte allocations from 44. The base address of
 * an allocation corresponds to bus 0 even when its start bus is not 0. */
#ifndef FW_ACPI_MCFG_H
#define FW_ACPI_MCFG_H

#include "acpi/table.h"
#include "parsers/layout.h"

enum { MCFG_RESERVED, MCFG__COUNT };
extern const struct fw_layout fw_mcfg_layout;
#define FW_MCFG_HEADER_SIZE 44

enum { MCFG_ALLOC_BASE, MCFG_ALLOC_SEGMENT, MCFG_ALLOC_START_BUS, MCFG_ALLOC_END_BUS, MCFG_ALLOC__COUNT };
extern const struct fw_layout fw_mcfg_allocation_layout;
#define FW_MCFG_ALLOCATION_SIZE 16


struct fw_mcfg_allocation {
	uint32_t offset;
	uint64_t base;
	uint16_t segment;
	uint8_t start_bus, end_bus;
};

struct fw_mcfg {
	struct fw_mcfg_allocation *allocations;
	size_t n;
};

void *fw_acpi_mcfg_decode(struct fw_acpi_table *t, struct fw_arena *a);

#endif
