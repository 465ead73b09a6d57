/* The IFR layouts are the one description of each opcode's bytes: the opcode table's minimum
 * lengths come from them and must equal the reference's (reference/ifr.md 2.2, the smallest
 * encodings UefiInternalFormRepresentation.h allows); every field sits where the reference puts
 * it; question opcodes begin with the question header. */
#include <string.h>

#include "harness.h"
#include "ifr/ifr-opcodes.h"

TEST(ifr_opcode_min_lengths_come_from_the_layouts)
{
	static const struct {
		uint8_t op;
		unsigned len;
	} want[] = {
		{0x01, 6},  {0x02, 7},  {0x03, 8},  {0x04, 4},  {0x05, 17}, {0x06, 14}, {0x07, 17}, {0x08, 17},
		{0x09, 6},  {0x0A, 2},  {0x0B, 2},  {0x0C, 13}, {0x0D, 8},  {0x0E, 23}, {0x0F, 13}, {0x10, 4},
		{0x11, 4},  {0x12, 6},  {0x13, 6},  {0x14, 6},  {0x15, 2},  {0x18, 3},  {0x1A, 14}, {0x1B, 14},
		{0x1C, 16}, {0x1D, 3},  {0x1F, 4},  {0x23, 15}, {0x24, 23}, {0x25, 20}, {0x26, 24}, {0x27, 4},
		{0x29, 2},  {0x2B, 7},  {0x2C, 7},  {0x3F, 3},  {0x40, 4},  {0x42, 3},  {0x43, 4},  {0x44, 6},
		{0x45, 10}, {0x49, 3},  {0x4C, 3},  {0x4E, 4},  {0x51, 2},  {0x59, 3},  {0x5B, 5},  {0x5C, 6},
		{0x5D, 4},  {0x5F, 18}, {0x60, 18}, {0x62, 18}, {0x63, 5},  {0x64, 18},
	};
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		const struct fw_ifr_opcode_info *info = fw_ifr_opcode_info(want[i].op);
		CHECK_MSG(info, "opcode 0x%02X has no row", want[i].op);
		CHECK_MSG(fw_ifr_opcode_min_length(info) == want[i].len, "%s: minimum %u, reference %u", info->name,
			  fw_ifr_opcode_min_length(info), want[i].len);
	}
}

/* Fields where reference/ifr.md 2.1-2.2 puts them. */
TEST(ifr_layout_fields_at_reference_offsets)
{
	CHECK_EQ(fw_ifr_question_layout.fields[IFR_Q_QUESTION_ID].offset, 6);
	CHECK_EQ(fw_ifr_question_layout.fields[IFR_Q_VARSTORE_INFO].offset, 10);
	CHECK_EQ(fw_ifr_question_layout.fields[IFR_Q_FLAGS].offset, 12);
	CHECK_EQ(fw_ifr_ref_layout.fields[IFR_REF_FORMSET_ID].offset, 17);
	CHECK_EQ(fw_ifr_ref_layout.fields[IFR_REF_DEVICE_PATH].offset, 33);
	CHECK_EQ(fw_ifr_varstore_efi_layout.fields[IFR_VARSTORE_EFI_ATTRIBUTES].offset, 20);
	CHECK_EQ(fw_ifr_numeric_layouts[3].fields[IFR_NUM_STEP].offset, 30);
	CHECK_EQ(fw_ifr_warning_if_layout.fields[0].offset, 4); /* Timeout, printed first */
	CHECK_EQ(fw_ifr_uint_layouts[2].fields[IFR_UINT_VALUE].type, FW_FT_U32);
	/* every question opcode's layout starts with the 13-byte question header */
	for (unsigned op = 1; op <= FW_IFR_OPCODE_MAX; op++) {
		const struct fw_ifr_opcode_info *info = fw_ifr_opcode_info((uint8_t)op);
		if (!info || !info->question || op == FW_IFR_ONE_OF || op == FW_IFR_NUMERIC)
			continue;
		const struct fw_field *first = &info->layout->fields[0];
		CHECK_MSG(first->type == FW_FT_STRUCT && first->offset == 0 && first->len == FW_IFR_QUESTION_SIZE, "%s",
			  info->name);
	}
	/* no field of a fixed-size opcode lies past what its longest form holds */
	for (unsigned op = 1; op <= FW_IFR_OPCODE_MAX; op++) {
		const struct fw_ifr_opcode_info *info = fw_ifr_opcode_info((uint8_t)op);
		if (!info || !info->layout)
			continue;
		for (size_t k = 0; k < info->layout->nfields; k++)
			CHECK_MSG(info->layout->fields[k].offset >= 2 || info->layout->fields[k].type == FW_FT_STRUCT,
				  "%s field %s overlaps the opcode header", info->name, info->layout->fields[k].name);
	}
}
