/* BERT, the Boot Error Record Table (ACPI 6.5 18.3.1): where the errors of the previous boot
 * were left. */
#include "acpi/fields.h"

static const struct fw_field bert_fields[] = {
	{"BootErrorRegionLength", FW_FT_U32, 36, 0, 0, NULL},
	{"BootErrorRegion", FW_FT_U64, 40, 0, FW_FF_HEX, NULL},
};
static const struct fw_layout bert = FW_LAYOUT("BERT", 48, bert_fields);
const struct fw_acpi_layout fw_acpi_bert_table = {.fixed = &bert, .start_field = -1, .count_field = -1};
