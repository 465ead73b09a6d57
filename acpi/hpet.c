/* HPET layout. */
#include "hpet.h"

static const struct fw_field hpet_fields[HPET__COUNT] = {
	[HPET_BLOCK_ID] = {"EventTimerBlockId", FW_FT_U32, 36, 0, FW_FF_HEX, NULL},
	[HPET_ADDRESS] = {"Address", FW_FT_BYTES, 40, 12, 0, NULL},
	[HPET_NUMBER] = {"HpetNumber", FW_FT_U8, 52, 0, 0, NULL},
	[HPET_MINIMUM_TICK] = {"MinimumTick", FW_FT_U16, 53, 0, 0, NULL},
	[HPET_PAGE_PROTECTION] = {"PageProtection", FW_FT_U8, 55, 0, FW_FF_HEX, NULL},
};
const struct fw_layout fw_hpet_layout = FW_LAYOUT("HPET table", FW_HPET_SIZE, hpet_fields);
