/* The AMI firmware version structure "$FID" (reference/formats.md 1.3 `VerifyFwCapsule.c`), found
 * by its signature in a freeform-subtype-GUID section 2EBE0275-6458-4AF9-91ED-D3F4EDB100AA. The
 * offsets after the version fields follow the ASUS WRX90E 1203 image in the corpus (time stamp,
 * sign-on string id, OEM id and OEM table id as the DSDT carries them); locate by signature and
 * honour Size. */
#ifndef FW_AMI_FID_H
#define FW_AMI_FID_H

#include "parsers/layout.h"

enum {
	FID_SIGNATURE,
	FID_STRUCT_VERSION,
	FID_SIZE,
	FID_BIOS_TAG,
	FID_FIRMWARE_GUID,
	FID_CORE_MAJOR,
	FID_CORE_MINOR,
	FID_PROJECT_MAJOR,
	FID_PROJECT_MINOR,
	FID_YEAR,
	FID_MONTH,
	FID_DAY,
	FID_HOUR,
	FID_MINUTE,
	FID_SECOND,
	FID_SIGN_ON_STRING,
	FID_OEM_ID,
	FID_OEM_TABLE_ID,
	FID__COUNT
};
extern const struct fw_layout fw_ami_fid_layout;
#define FW_AMI_FID_SIZE 67 /* the fields above; Size covers more */
#define FW_AMI_FID_SIGNATURE "$FID"

#endif
