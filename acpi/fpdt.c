/* FPDT, the Firmware Performance Data Table (ACPI 6.5 5.2.24): pointers to the boot and S3
 * performance records, which live in memory outside the table. */
#include "acpi/fields.h"

static const struct fw_layout fpdt = {"FPDT", 36, NULL, 0};

/* Both records: a performance record header, 4 reserved bytes, the address of their table. */
#define POINTER_RECORD(name)                                                                                    \
	{"Type", FW_FT_U16, 0, 0, 0, NULL}, {"Length", FW_FT_U8, 2, 0, 0, NULL}, {"Revision", FW_FT_U8, 3, 0, 0, NULL}, \
		{name, FW_FT_U64, 8, 0, FW_FF_HEX, NULL}
static const struct fw_field boot_fields[] = {POINTER_RECORD("BootPerformanceTable")};
static const struct fw_layout boot = FW_LAYOUT("firmware basic boot performance pointer", 16, boot_fields);
static const struct fw_field s3_fields[] = {POINTER_RECORD("S3PerformanceTable")};
static const struct fw_layout s3 = FW_LAYOUT("S3 performance table pointer", 16, s3_fields);
static const struct fw_acpi_subtype types[] = {{0, &boot, -1, NULL}, {1, &s3, -1, NULL}};

const struct fw_acpi_layout fw_acpi_fpdt_table = {
	.fixed = &fpdt, .rest = FW_ACPI_REST_RECORDS, .start_field = -1, .count_field = -1,
	.records = {"performance record", 2, 2, 1}, .types = types, .ntypes = 2,
};
