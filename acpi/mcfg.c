/* MCFG layouts. */
#include "mcfg.h"

static const struct fw_field mcfg_fields[MCFG__COUNT] = {
	[MCFG_RESERVED] = {"Reserved", FW_FT_U64, 36, 0, FW_FF_HIDDEN, NULL},
};
const struct fw_layout fw_mcfg_layout = FW_LAYOUT("MCFG header", FW_MCFG_HEADER_SIZE, mcfg_fields);

static const struct fw_field alloc_fields[MCFG_ALLOC__COUNT] = {
	[MCFG_ALLOC_BASE] = {"BaseAddress", FW_FT_U64, 0, 0, FW_FF_HEX, NULL},
	[MCFG_ALLOC_SEGMENT] = {"PciSegment", FW_FT_U16, 8, 0, 0, NULL},
	[MCFG_ALLOC_START_BUS] = {"StartBus", FW_FT_U8, 10, 0, FW_FF_HEX, NULL},
	[MCFG_ALLOC_END_BUS] = {"EndBus", FW_FT_U8, 11, 0, FW_FF_HEX, NULL},
};
const struct fw_layout fw_mcfg_allocation_layout = FW_LAYOUT("MCFG allocation", FW_MCFG_ALLOCATION_SIZE, alloc_fields);
