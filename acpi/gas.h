/* The ACPI Generic Address Structure (ACPI 6.5 5.2.3.2), 12 bytes: register locations in FADT,
 * HPET and other tables. */
#ifndef FW_ACPI_GAS_H
#define FW_ACPI_GAS_H

#include "parsers/layout.h"

enum { GAS_SPACE_ID, GAS_BIT_WIDTH, GAS_BIT_OFFSET, GAS_ACCESS_WIDTH, GAS_ADDRESS, GAS__COUNT };
extern const struct fw_layout fw_gas_layout;
#define FW_GAS_SIZE 12

enum {
	FW_GAS_SYSTEM_MEMORY = 0,
	FW_GAS_SYSTEM_IO = 1,
	FW_GAS_PCI_CONFIG = 2,
	FW_GAS_EMBEDDED_CONTROLLER = 3,
	FW_GAS_SMBUS = 4,
	FW_GAS_FUNCTIONAL_FIXED_HW = 0x7F,
};
extern const struct fw_named_value fw_gas_space_names[];
/* Access width: 0 undefined, 1 byte, 2 word, 3 dword, 4 qword */

#endif
