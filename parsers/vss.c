/* EDK2 variable store and FTW layouts, and EFI variable attribute names. */
#include "vss.h"

#include <stdio.h>
#include <string.h>

static const struct fw_field vss_store_fields[VSS_STORE__COUNT] = {
	[VSS_STORE_SIGNATURE] = {"Signature", FW_FT_GUID, 0, 0, 0, NULL},
	[VSS_STORE_SIZE] = {"Size", FW_FT_U32, 16, 0, FW_FF_HEX, NULL},
	[VSS_STORE_FORMAT] = {"Format", FW_FT_U8, 20, 0, FW_FF_HEX, NULL},
	[VSS_STORE_STATE] = {"State", FW_FT_U8, 21, 0, FW_FF_HEX, NULL},
};
const struct fw_layout fw_vss_store_layout = FW_LAYOUT("variable store header", FW_VSS_STORE_HEADER_SIZE, vss_store_fields);

static const struct fw_field vss_var_fields[VSS_VAR__COUNT] = {
	[VSS_VAR_START_ID] = {"StartId", FW_FT_U16, 0, 0, FW_FF_HEX | FW_FF_HIDDEN, NULL},
	[VSS_VAR_STATE] = {"State", FW_FT_U8, 2, 0, FW_FF_HEX, NULL},
	[VSS_VAR_ATTRIBUTES] = {"Attributes", FW_FT_U32, 4, 0, FW_FF_HEX, NULL},
	[VSS_VAR_NAME_SIZE] = {"NameSize", FW_FT_U32, 8, 0, FW_FF_HEX, NULL},
	[VSS_VAR_DATA_SIZE] = {"DataSize", FW_FT_U32, 12, 0, FW_FF_HEX, NULL},
	[VSS_VAR_GUID] = {"VendorGuid", FW_FT_GUID, 16, 0, 0, NULL},
};
const struct fw_layout fw_vss_var_layout = FW_LAYOUT("variable header", FW_VSS_VAR_HEADER_SIZE, vss_var_fields);

static const struct fw_field vss_auth_fields[VSS_AUTH__COUNT] = {
	[VSS_AUTH_START_ID] = {"StartId", FW_FT_U16, 0, 0, FW_FF_HEX | FW_FF_HIDDEN, NULL},
	[VSS_AUTH_STATE] = {"State", FW_FT_U8, 2, 0, FW_FF_HEX, NULL},
	[VSS_AUTH_ATTRIBUTES] = {"Attributes", FW_FT_U32, 4, 0, FW_FF_HEX, NULL},
	[VSS_AUTH_MONOTONIC_COUNT] = {"MonotonicCount", FW_FT_U64, 8, 0, 0, NULL},
	[VSS_AUTH_TIMESTAMP] = {"TimeStamp", FW_FT_BYTES, 16, 16, 0, NULL},
	[VSS_AUTH_PUBKEY_INDEX] = {"PubKeyIndex", FW_FT_U32, 32, 0, 0, NULL},
	[VSS_AUTH_NAME_SIZE] = {"NameSize", FW_FT_U32, 36, 0, FW_FF_HEX, NULL},
	[VSS_AUTH_DATA_SIZE] = {"DataSize", FW_FT_U32, 40, 0, FW_FF_HEX, NULL},
	[VSS_AUTH_GUID] = {"VendorGuid", FW_FT_GUID, 44, 0, 0, NULL},
};
const struct fw_layout fw_vss_auth_var_layout =
	FW_LAYOUT("authenticated variable header", FW_VSS_AUTH_VAR_HEADER_SIZE, vss_auth_fields);

static const struct fw_field ftw_fields[FTW__COUNT] = {
	[FTW_SIGNATURE] = {"Signature", FW_FT_GUID, 0, 0, 0, NULL},
	[FTW_CRC] = {"Crc", FW_FT_U32, 16, 0, FW_FF_HEX, NULL},
	[FTW_STATE] = {"WorkingBlockValid", FW_FT_U8, 20, 0, FW_FF_HEX, NULL},
	[FTW_WRITE_QUEUE_SIZE] = {"WriteQueueSize", FW_FT_U64, 24, 0, FW_FF_HEX, NULL},
};
const struct fw_layout fw_ftw_layout = FW_LAYOUT("fault-tolerant working block header", 32, ftw_fields);

char *fw_efi_attributes_str(uint32_t a, char *buf, size_t len)
{
	static const struct {
		uint32_t bit;
		const char *name;
	} names[] = {
		{0x01, "NV"}, {0x02, "BS"}, {0x04, "RT"}, {0x08, "HR"}, {0x10, "AW"}, {0x20, "AT"}, {0x40, "AP"},
	};
	size_t used = 0;
	buf[0] = '\0';
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (a & names[i].bit) {
			int w = snprintf(buf + used, len - used, "%s%s", used ? "+" : "", names[i].name);
			if (w < 0 || (size_t)w >= len - used)
				break;
			used += (size_t)w;
		}
	if (a & ~0x7Fu)
		snprintf(buf + used, len - used, "%s0x%x", used ? "+" : "", a & ~0x7Fu);
	return buf;
}

const struct fw_guid fw_guid_vss_store = FW_GUID_INIT(0xDDCF3616, 0x3275, 0x4164, 0x98, 0xB6, 0xFE, 0x85, 0x70, 0x7F, 0xFE, 0x7D);
const struct fw_guid fw_guid_vss_auth_store = FW_GUID_INIT(0xAAF32C78, 0x947B, 0x439A, 0xA1, 0x80, 0x2E, 0x14, 0x4E, 0xC3, 0x77, 0x92);
const struct fw_guid fw_guid_ftw_working_block =
	FW_GUID_INIT(0x9E58292B, 0x7C68, 0x497D, 0xA0, 0xCE, 0x65, 0x00, 0xFD, 0x9F, 0x1B, 0x95);
