/* BGRT, the Boot Graphics Resource Table (ACPI 6.5 5.2.23): the logo the firmware drew. */
#include "acpi/fields.h"

static const struct fw_bitfield status_bits[] = {{"Displayed", 0, 1, NULL}, {"Orientation", 1, 2, "0, 90, 180, 270 degrees"}};
static const struct fw_bitfields status = FW_BITFIELDS(status_bits);
static const struct fw_named_value image_types[] = {{0, "Bitmap"}, {0, NULL}};
static const struct fw_field bgrt_fields[] = {
	{"Version", FW_FT_U16, 36, 0, 0, NULL},
	{"Status", FW_FT_U8, 38, 0, FW_FF_BITS, .names = &status},
	{"ImageType", FW_FT_U8, 39, 0, FW_FF_ENUM, image_types},
	{"ImageAddress", FW_FT_U64, 40, 0, FW_FF_HEX, NULL},
	{"ImageOffsetX", FW_FT_U32, 48, 0, 0, NULL},
	{"ImageOffsetY", FW_FT_U32, 52, 0, 0, NULL},
};
static const struct fw_layout bgrt = FW_LAYOUT("BGRT", 56, bgrt_fields);
const struct fw_acpi_layout fw_acpi_bgrt_table = {.fixed = &bgrt, .start_field = -1, .count_field = -1};
