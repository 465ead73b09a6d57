/* HPET description table (IA-PC HPET specification 1.0a, 3.2.4). */
#ifndef FW_ACPI_HPET_H
#define FW_ACPI_HPET_H

#include "parsers/layout.h"

enum { HPET_BLOCK_ID, HPET_ADDRESS, HPET_NUMBER, HPET_MINIMUM_TICK, HPET_PAGE_PROTECTION, HPET__COUNT };
extern const struct fw_layout fw_hpet_layout; /* 56 bytes; HPET_ADDRESS is a generic address (fw_gas_layout) */
#define FW_HPET_SIZE 56

#endif
