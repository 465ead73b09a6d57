/* IVRS layouts. */
#include "ivrs.h"

const struct fw_named_value fw_ivinfo_names[] = {
	{FW_IVINFO_EFR_SUPPORTED, "EFRSup"}, {FW_IVINFO_DMA_REMAP, "DMARemap"}, {1u << 22, "HtAtsResv"}, {0, NULL},
};

static const struct fw_field ivrs_fields[IVRS__COUNT] = {
	[IVRS_IVINFO] = {"IVinfo", FW_FT_U32, 36, 0, FW_FF_HEX, NULL},
	[IVRS_RESERVED] = {"Reserved", FW_FT_U64, 40, 0, FW_FF_HIDDEN, NULL},
};
const struct fw_layout fw_ivrs_layout = FW_LAYOUT("IVRS header", FW_IVRS_HEADER_SIZE, ivrs_fields);

const struct fw_named_value fw_ivhd_flag_names[] = {
	{0x01, "HtTunEn"}, {0x02, "PassPW"}, {0x04, "ResPassPW"}, {0x08, "Isoc"}, {0x10, "IotlbSup"},
	{0x20, "Coherent"}, {0x40, "PreFSup"}, {0x80, "PPRSup"}, {0, NULL},
};

#define IVHD_COMMON_FIELDS                                                                                         \
	[IVHD_TYPE] = {"Type", FW_FT_U8, 0, 0, FW_FF_HEX, NULL},                                                   \
	[IVHD_FLAGS] = {"Flags", FW_FT_U8, 1, 0, FW_FF_FLAGS, fw_ivhd_flag_names},                                 \
	[IVHD_LENGTH] = {"Length", FW_FT_U16, 2, 0, FW_FF_HEX, NULL},                                              \
	[IVHD_DEVICE_ID] = {"DeviceId", FW_FT_U16, 4, 0, FW_FF_HEX, NULL},                                         \
	[IVHD_CAPABILITY_OFFSET] = {"CapabilityOffset", FW_FT_U16, 6, 0, FW_FF_HEX, NULL},                         \
	[IVHD_BASE_ADDRESS] = {"BaseAddress", FW_FT_U64, 8, 0, FW_FF_HEX, NULL},                                   \
	[IVHD_PCI_SEGMENT] = {"PciSegment", FW_FT_U16, 16, 0, 0, NULL},                                            \
	[IVHD_INFO] = {"Info", FW_FT_U16, 18, 0, FW_FF_HEX, NULL}

static const struct fw_field ivhd10_fields[IVHD__COUNT] = {
	IVHD_COMMON_FIELDS,
	[IVHD_FEATURES] = {"FeatureReporting", FW_FT_U32, 20, 0, FW_FF_HEX, NULL},
	[IVHD_EFR] = {"Efr", FW_FT_U64, 24, 0, FW_FF_HEX | FW_FF_HIDDEN, NULL},
	[IVHD_EFR2] = {"Efr2", FW_FT_U64, 32, 0, FW_FF_HEX | FW_FF_HIDDEN, NULL},
};
const struct fw_layout fw_ivhd10_layout = FW_LAYOUT("IVHD type 10h", FW_IVHD10_HEADER_SIZE, ivhd10_fields);

static const struct fw_field ivhd11_fields[IVHD__COUNT] = {
	IVHD_COMMON_FIELDS,
	[IVHD_FEATURES] = {"Attributes", FW_FT_U32, 20, 0, FW_FF_HEX, NULL},
	[IVHD_EFR] = {"Efr", FW_FT_U64, 24, 0, FW_FF_HEX, NULL},
	[IVHD_EFR2] = {"Efr2", FW_FT_U64, 32, 0, FW_FF_HEX, NULL},
};
const struct fw_layout fw_ivhd11_layout = FW_LAYOUT("IVHD type 11h/40h", FW_IVHD11_HEADER_SIZE, ivhd11_fields);

static const struct fw_field ivdev_fields[IVDEV__COUNT] = {
	[IVDEV_TYPE] = {"Type", FW_FT_U8, 0, 0, FW_FF_HEX, NULL},
	[IVDEV_DEVICE_ID] = {"DeviceId", FW_FT_U16, 1, 0, FW_FF_HEX, NULL},
	[IVDEV_SETTING] = {"Setting", FW_FT_U8, 3, 0, FW_FF_HEX, NULL},
};
const struct fw_layout fw_ivhd_device_layout = FW_LAYOUT("IVHD device entry", FW_IVHD_DEVICE_SIZE, ivdev_fields);

static const struct fw_field ivalias_fields[IVDEV8__COUNT] = {
	[IVDEV8_TYPE] = {"Type", FW_FT_U8, 0, 0, FW_FF_HEX, NULL},
	[IVDEV8_DEVICE_ID] = {"DeviceId", FW_FT_U16, 1, 0, FW_FF_HEX, NULL},
	[IVDEV8_SETTING] = {"Setting", FW_FT_U8, 3, 0, FW_FF_HEX, NULL},
	[IVDEV8_RESERVED] = {"Reserved", FW_FT_U8, 4, 0, FW_FF_HIDDEN, NULL},
	[IVDEV8_SOURCE_ID] = {"SourceDeviceId", FW_FT_U16, 5, 0, FW_FF_HEX, NULL},
	[IVDEV8_RESERVED2] = {"Reserved2", FW_FT_U8, 7, 0, FW_FF_HIDDEN, NULL},
};
const struct fw_layout fw_ivhd_alias_layout = FW_LAYOUT("IVHD alias entry", 8, ivalias_fields);

static const struct fw_field ivext_fields[IVDEVX__COUNT] = {
	[IVDEVX_TYPE] = {"Type", FW_FT_U8, 0, 0, FW_FF_HEX, NULL},
	[IVDEVX_DEVICE_ID] = {"DeviceId", FW_FT_U16, 1, 0, FW_FF_HEX, NULL},
	[IVDEVX_SETTING] = {"Setting", FW_FT_U8, 3, 0, FW_FF_HEX, NULL},
	[IVDEVX_EXT_SETTING] = {"ExtendedSetting", FW_FT_U32, 4, 0, FW_FF_HEX, NULL},
};
const struct fw_layout fw_ivhd_ext_layout = FW_LAYOUT("IVHD extended entry", 8, ivext_fields);

static const struct fw_named_value variety_names[] = {{1, "IOAPIC"}, {2, "HPET"}, {0, NULL}};
static const struct fw_field ivspecial_fields[IVSPECIAL__COUNT] = {
	[IVSPECIAL_TYPE] = {"Type", FW_FT_U8, 0, 0, FW_FF_HEX, NULL},
	[IVSPECIAL_DEVICE_ID] = {"DeviceId", FW_FT_U16, 1, 0, FW_FF_HEX, NULL},
	[IVSPECIAL_SETTING] = {"Setting", FW_FT_U8, 3, 0, FW_FF_HEX, NULL},
	[IVSPECIAL_HANDLE] = {"Handle", FW_FT_U8, 4, 0, 0, NULL},
	[IVSPECIAL_SOURCE_ID] = {"SourceDeviceId", FW_FT_U16, 5, 0, FW_FF_HEX, NULL},
	[IVSPECIAL_VARIETY] = {"Variety", FW_FT_U8, 7, 0, FW_FF_ENUM, variety_names},
};
const struct fw_layout fw_ivhd_special_layout = FW_LAYOUT("IVHD special device entry", 8, ivspecial_fields);

static const struct fw_named_value uid_format_names[] = {{0, "None"}, {1, "Integer"}, {2, "String"}, {0, NULL}};
static const struct fw_field ivhid_fields[IVHID__COUNT] = {
	[IVHID_TYPE] = {"Type", FW_FT_U8, 0, 0, FW_FF_HEX, NULL},
	[IVHID_DEVICE_ID] = {"DeviceId", FW_FT_U16, 1, 0, FW_FF_HEX, NULL},
	[IVHID_SETTING] = {"Setting", FW_FT_U8, 3, 0, FW_FF_HEX, NULL},
	[IVHID_HID] = {"Hid", FW_FT_CHARS, 4, 8, 0, NULL},
	[IVHID_CID] = {"Cid", FW_FT_CHARS, 12, 8, 0, NULL},
	[IVHID_UID_FORMAT] = {"UidFormat", FW_FT_U8, 20, 0, FW_FF_ENUM, uid_format_names},
	[IVHID_UID_LENGTH] = {"UidLength", FW_FT_U8, 21, 0, 0, NULL},
};
const struct fw_layout fw_ivhd_hid_layout = FW_LAYOUT("IVHD ACPI HID entry", FW_IVHD_HID_SIZE, ivhid_fields);

static const struct fw_named_value ivmd_flag_names[] = {
	{0x01, "Unity"}, {0x02, "Read"}, {0x04, "Write"}, {0x08, "ExclusionRange"}, {0, NULL},
};
static const struct fw_field ivmd_fields[IVMD__COUNT] = {
	[IVMD_TYPE] = {"Type", FW_FT_U8, 0, 0, FW_FF_HEX, NULL},
	[IVMD_FLAGS] = {"Flags", FW_FT_U8, 1, 0, FW_FF_FLAGS, ivmd_flag_names},
	[IVMD_LENGTH] = {"Length", FW_FT_U16, 2, 0, FW_FF_HEX, NULL},
	[IVMD_DEVICE_ID] = {"DeviceId", FW_FT_U16, 4, 0, FW_FF_HEX, NULL},
	[IVMD_AUX_DATA] = {"AuxData", FW_FT_U16, 6, 0, FW_FF_HEX, NULL},
	[IVMD_PCI_SEGMENT] = {"PciSegment", FW_FT_U16, 8, 0, 0, NULL},
	[IVMD_START] = {"StartAddress", FW_FT_U64, 16, 0, FW_FF_HEX, NULL},
	[IVMD_SIZE] = {"MemoryLength", FW_FT_U64, 24, 0, FW_FF_HEX, NULL},
};
const struct fw_layout fw_ivmd_layout = FW_LAYOUT("IVMD block", FW_IVMD_SIZE, ivmd_fields);
