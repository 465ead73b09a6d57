/* Generic Address Structure layout. */
#include "gas.h"

const struct fw_named_value fw_gas_space_names[] = {
	{0, "SystemMemory"}, {1, "SystemIO"}, {2, "PCIConfig"}, {3, "EmbeddedController"}, {4, "SMBus"},
	{0x7F, "FunctionalFixedHW"}, {0, NULL},
};
static const struct fw_field gas_fields[GAS__COUNT] = {
	[GAS_SPACE_ID] = {"SpaceId", FW_FT_U8, 0, 0, FW_FF_ENUM, fw_gas_space_names},
	[GAS_BIT_WIDTH] = {"BitWidth", FW_FT_U8, 1, 0, 0, NULL},
	[GAS_BIT_OFFSET] = {"BitOffset", FW_FT_U8, 2, 0, 0, NULL},
	[GAS_ACCESS_WIDTH] = {"AccessWidth", FW_FT_U8, 3, 0, 0, NULL},
	[GAS_ADDRESS] = {"Address", FW_FT_U64, 4, 0, FW_FF_HEX, NULL},
};
const struct fw_layout fw_gas_layout = FW_LAYOUT("generic address", FW_GAS_SIZE, gas_fields);
