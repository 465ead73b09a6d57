/* AMD microcode patch header layout. */
#include "amd-microcode.h"

static const struct fw_field ucode_fields[UCODE__COUNT] = {
	[UCODE_DATE] = {"DataCode", FW_FT_U32, 0, 0, FW_FF_HEX, NULL},
	[UCODE_PATCH_ID] = {"PatchId", FW_FT_U32, 4, 0, FW_FF_HEX, NULL},
	[UCODE_DATA_ID] = {"PatchDataId", FW_FT_U16, 8, 0, FW_FF_HEX, NULL},
	[UCODE_DATA_LEN] = {"PatchDataLength", FW_FT_U8, 10, 0, 0, NULL},
	[UCODE_INIT_FLAG] = {"InitFlag", FW_FT_U8, 11, 0, FW_FF_HEX, NULL},
	[UCODE_DATA_CHECKSUM] = {"PatchDataChecksum", FW_FT_U32, 12, 0, FW_FF_HEX, NULL},
	[UCODE_NB_DEV_ID] = {"NbDevId", FW_FT_U32, 16, 0, FW_FF_HEX, NULL},
	[UCODE_SB_DEV_ID] = {"SbDevId", FW_FT_U32, 20, 0, FW_FF_HEX, NULL},
	[UCODE_PROCESSOR_REV_ID] = {"ProcessorRevId", FW_FT_U16, 24, 0, FW_FF_HEX, NULL},
	[UCODE_NB_REV_ID] = {"NbRevId", FW_FT_U8, 26, 0, FW_FF_HEX, NULL},
	[UCODE_SB_REV_ID] = {"SbRevId", FW_FT_U8, 27, 0, FW_FF_HEX, NULL},
	[UCODE_BIOS_API_REV] = {"BiosApiRev", FW_FT_U8, 28, 0, FW_FF_HEX, NULL},
};
const struct fw_layout fw_amd_microcode_layout = FW_LAYOUT("AMD microcode patch header", FW_AMD_MICROCODE_HEADER_SIZE, ucode_fields);
