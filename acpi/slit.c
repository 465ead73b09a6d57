/* SLIT layout. */
#include "slit.h"

static const struct fw_field slit_fields[SLIT__COUNT] = {
	[SLIT_LOCALITY_COUNT] = {"LocalityCount", FW_FT_U64, 36, 0, 0, NULL},
};
const struct fw_layout fw_slit_layout = FW_LAYOUT("SLIT header", FW_SLIT_HEADER_SIZE, slit_fields);
