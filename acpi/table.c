/* ACPI table header layout. */
#include "table.h"

#include "parsers/hash.h"

static const struct fw_field header_fields[SDT__COUNT] = {
	[SDT_SIGNATURE] = {"Signature", FW_FT_CHARS, 0, 4, 0, NULL},
	[SDT_LENGTH] = {"Length", FW_FT_U32, 4, 0, FW_FF_HEX, NULL},
	[SDT_REVISION] = {"Revision", FW_FT_U8, 8, 0, 0, NULL},
	[SDT_CHECKSUM] = {"Checksum", FW_FT_U8, 9, 0, FW_FF_HEX, NULL},
	[SDT_OEM_ID] = {"OemId", FW_FT_CHARS, 10, 6, 0, NULL},
	[SDT_OEM_TABLE_ID] = {"OemTableId", FW_FT_CHARS, 16, 8, 0, NULL},
	[SDT_OEM_REVISION] = {"OemRevision", FW_FT_U32, 24, 0, FW_FF_HEX, NULL},
	[SDT_CREATOR_ID] = {"AslCompilerId", FW_FT_CHARS, 28, 4, 0, NULL},
	[SDT_CREATOR_REVISION] = {"AslCompilerRevision", FW_FT_U32, 32, 0, FW_FF_HEX, NULL},
};
const struct fw_layout fw_acpi_header_layout = FW_LAYOUT("ACPI table header", FW_ACPI_HEADER_SIZE, header_fields);

void fw_acpi_set_checksum(uint8_t *table, size_t len)
{
	if (len < FW_ACPI_HEADER_SIZE)
		return;
	table[9] = 0;
	table[9] = (uint8_t)(0x100 - fw_sum8(table, len));
}
