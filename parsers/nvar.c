/* AMI NVAR stores: entry layout and the GUIDs that carry them. */
#include "nvar.h"

const struct fw_named_value fw_nvar_attribute_names[] = {
	{0x01, "RUNTIME"}, {0x02, "ASCII_NAME"}, {0x04, "GUID"}, {0x08, "DATA_ONLY"}, {0x10, "EXT_HEADER"},
	{0x20, "HW_ERROR_RECORD"}, {0x40, "AUTH_WRITE"}, {0x80, "VALID"}, {0, NULL},
};

static const struct fw_field nvar_fields[NVAR__COUNT] = {
	[NVAR_SIGNATURE] = {"Signature", FW_FT_U32, 0, 0, FW_FF_HEX | FW_FF_HIDDEN, NULL},
	[NVAR_SIZE] = {"Size", FW_FT_U16, 4, 0, FW_FF_HEX, NULL},
	[NVAR_NEXT] = {"Next", FW_FT_U24, 6, 0, FW_FF_HEX, NULL},
	[NVAR_ATTRIBUTES] = {"Attributes", FW_FT_U8, 9, 0, FW_FF_FLAGS, fw_nvar_attribute_names},
};
const struct fw_layout fw_nvar_layout = FW_LAYOUT("NVAR entry header", FW_NVAR_HEADER_SIZE, nvar_fields);

const struct fw_guid fw_guid_ami_defaults = FW_GUID_INIT(0x4599D26F, 0x1A11, 0x49B8, 0xB9, 0x1F, 0x85, 0x87, 0x45, 0xCF, 0xF8, 0x24);
const struct fw_guid fw_guid_ami_nvar_store = FW_GUID_INIT(0xCEF5B9A3, 0x476D, 0x497F, 0x9F, 0xDC, 0xE9, 0x81, 0x43, 0xE0, 0x42, 0x2C);
const struct fw_guid fw_guid_ami_nvram_main = FW_GUID_INIT(0xFA4974FC, 0xAF1D, 0x4E5D, 0xBD, 0xC5, 0xDA, 0xCD, 0x6D, 0x27, 0xBA, 0xEC);
const struct fw_guid fw_guid_ami_nvram_backup = FW_GUID_INIT(0xA7EDEBD8, 0xA8D7, 0x48F8, 0x81, 0xFB, 0x83, 0x76, 0x56, 0xB8, 0x20, 0x77);
const struct fw_guid fw_guid_ami_nvram_dxe_defaults =
	FW_GUID_INIT(0x9221315B, 0x30BB, 0x46B5, 0x81, 0x3E, 0x1B, 0x1B, 0xF4, 0x71, 0x2B, 0xD3);
const struct fw_guid fw_guid_ami_nvram_pei_defaults =
	FW_GUID_INIT(0x77D3DC50, 0xD42B, 0x4916, 0xAC, 0x80, 0x8F, 0x46, 0x90, 0x35, 0xD1, 0x50);
const struct fw_guid fw_guid_ami_nvram_bb_defaults =
	FW_GUID_INIT(0xAF516361, 0xB4C5, 0x436E, 0xA7, 0xE3, 0xA1, 0x49, 0xA3, 0x1B, 0x14, 0x61);
