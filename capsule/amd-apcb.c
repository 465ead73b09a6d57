/* APCB header layout. */
#include "amd-apcb.h"

static const struct fw_field apcb_fields[APCB__COUNT] = {
	[APCB_SIGNATURE] = {"Signature", FW_FT_CHARS, 0, 4, 0, NULL},
	[APCB_HEADER_SIZE] = {"HeaderSize", FW_FT_U16, 4, 0, FW_FF_HEX, NULL},
	[APCB_VERSION] = {"Version", FW_FT_U16, 6, 0, FW_FF_HEX, NULL},
	[APCB_SIZE] = {"ApcbSize", FW_FT_U32, 8, 0, FW_FF_HEX, NULL},
	[APCB_UNIQUE_INSTANCE] = {"UniqueApcbInstance", FW_FT_U32, 12, 0, FW_FF_HEX, NULL},
	[APCB_CHECKSUM] = {"ChecksumByte", FW_FT_U8, 16, 0, FW_FF_HEX, NULL},
	[APCB_V3_SIGNATURE] = {"V3Signature", FW_FT_CHARS, 32, 4, 0, NULL},
	[APCB_V3_SIGNATURE_ENDING] = {"V3SignatureEnding", FW_FT_CHARS, 124, 4, 0, NULL},
};
const struct fw_layout fw_amd_apcb_layout = FW_LAYOUT("AMD APCB header", FW_AMD_APCB_V3_HEADER_SIZE, apcb_fields);
