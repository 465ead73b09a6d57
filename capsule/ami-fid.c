/* AMI $FID layout. */
#include "ami-fid.h"

static const struct fw_field fid_fields[FID__COUNT] = {
	[FID_SIGNATURE] = {"Signature", FW_FT_CHARS, 0, 4, 0, NULL},
	[FID_STRUCT_VERSION] = {"StructVersion", FW_FT_U8, 4, 0, 0, NULL},
	[FID_SIZE] = {"Size", FW_FT_U16, 5, 0, FW_FF_HEX, NULL},
	[FID_BIOS_TAG] = {"BiosTag", FW_FT_CHARS, 7, 9, 0, NULL},
	[FID_FIRMWARE_GUID] = {"FirmwareGuid", FW_FT_GUID, 16, 0, 0, NULL},
	[FID_CORE_MAJOR] = {"CoreMajorVersion", FW_FT_CHARS, 32, 3, 0, NULL},
	[FID_CORE_MINOR] = {"CoreMinorVersion", FW_FT_CHARS, 35, 3, 0, NULL},
	[FID_PROJECT_MAJOR] = {"ProjectMajorVersion", FW_FT_CHARS, 38, 3, 0, NULL},
	[FID_PROJECT_MINOR] = {"ProjectMinorVersion", FW_FT_CHARS, 41, 3, 0, NULL},
	[FID_YEAR] = {"Year", FW_FT_U16, 44, 0, 0, NULL},
	[FID_MONTH] = {"Month", FW_FT_U8, 46, 0, 0, NULL},
	[FID_DAY] = {"Day", FW_FT_U8, 47, 0, 0, NULL},
	[FID_HOUR] = {"Hour", FW_FT_U8, 48, 0, 0, NULL},
	[FID_MINUTE] = {"Minute", FW_FT_U8, 49, 0, 0, NULL},
	[FID_SECOND] = {"Second", FW_FT_U8, 50, 0, 0, NULL},
	[FID_SIGN_ON_STRING] = {"SignOnStringId", FW_FT_U16, 51, 0, FW_FF_HEX | FW_FF_HIDDEN, NULL},
	[FID_OEM_ID] = {"OemId", FW_FT_CHARS, 53, 6, 0, NULL},
	[FID_OEM_TABLE_ID] = {"OemTableId", FW_FT_CHARS, 59, 8, 0, NULL},
};
const struct fw_layout fw_ami_fid_layout = FW_LAYOUT("AMI $FID", FW_AMI_FID_SIZE, fid_fields);
