/* ACPI system description table header and checksum (reference/acpi.md 1). */
#ifndef FW_ACPI_TABLE_H
#define FW_ACPI_TABLE_H

#include "parsers/layout.h"

enum {
	SDT_SIGNATURE,
	SDT_LENGTH,
	SDT_REVISION,
	SDT_CHECKSUM,
	SDT_OEM_ID,
	SDT_OEM_TABLE_ID,
	SDT_OEM_REVISION,
	SDT_CREATOR_ID,
	SDT_CREATOR_REVISION,
	SDT__COUNT
};
extern const struct fw_layout fw_acpi_header_layout;
#define FW_ACPI_HEADER_SIZE 36

/* Set the checksum byte so the table sums to 0 (encoders). */
void fw_acpi_set_checksum(uint8_t *table, size_t len);

#endif
