/* XSDT and RSDT: the header followed by 64-bit (XSDT) or 32-bit (RSDT) physical addresses of
 * the other tables (ACPI 6.5 5.2.7-5.2.8). XSDT entries start at 36 and are not 8-byte aligned. */
#ifndef FW_ACPI_XSDT_H
#define FW_ACPI_XSDT_H

#include "acpi/table.h"

struct fw_acpi_xsdt {
	bool is_xsdt;       /* 64-bit entries */
	uint64_t *addresses;
	size_t n;
	const struct fw_acpi_table **targets; /* filled when the set follows the pointers; NULL entries unresolved */
};

void *fw_acpi_xsdt_decode(struct fw_acpi_table *t, struct fw_arena *a);

#endif
