/* RSDP, the root system description pointer (reference/acpi.md 1.2; ACPI 6.5 5.2.5.3).
 *
 * Not a standard table: an 8-byte signature "RSD PTR ", a checksum over the first 20 bytes
 * (ACPI 1.0) and, from revision 2, a Length and an extended checksum over all of it. acpidump
 * prints it as "RSD  @ 0x..." (older tools "RSD PTR @ 0x..."); it is listed as "RSDP".
 */
#ifndef FW_ACPI_RSDP_H
#define FW_ACPI_RSDP_H

#include "acpi/table.h"

#define FW_RSDP_SIGNATURE "RSD PTR "
#define FW_RSDP_V1_SIZE 20
#define FW_RSDP_V2_SIZE 36

enum {
	RSDP_SIGNATURE,
	RSDP_CHECKSUM,
	RSDP_OEM_ID,
	RSDP_REVISION,
	RSDP_RSDT_ADDRESS,
	RSDP_LENGTH,
	RSDP_XSDT_ADDRESS,
	RSDP_EXT_CHECKSUM,
	RSDP__COUNT
};
extern const struct fw_layout fw_acpi_rsdp_layout; /* the revision-2 structure, 36 bytes */

struct fw_acpi_rsdp {
	uint8_t revision;
	uint32_t rsdt_address;
	uint64_t xsdt_address; /* 0 for revision 0 */
	bool checksum_ok;      /* first 20 bytes */
	bool ext_checksum_ok;  /* all Length bytes (revision >= 2), true otherwise */
};

/* Called by fw_acpi_table_parse for bytes starting with "RSD PTR ". */
bool fw_acpi_rsdp_parse_header(struct fw_acpi_table *t, const struct fw_view *bytes, struct fw_arena *a,
			       struct fw_error *err);
void *fw_acpi_rsdp_decode(struct fw_acpi_table *t, struct fw_arena *a);

#endif
