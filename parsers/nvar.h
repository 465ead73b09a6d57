/* AMI Aptio NVAR variable stores (reference/formats.md 5.1-5.2). */
#ifndef FW_NVAR_H
#define FW_NVAR_H

#include "layout.h"

/* NVAR entry header, 10 bytes; then [GUID index u8 | GUID 16 B] [name] data [ext trailer] */
enum { NVAR_SIGNATURE, NVAR_SIZE, NVAR_NEXT, NVAR_ATTRIBUTES, NVAR__COUNT };
extern const struct fw_layout fw_nvar_layout;
#define FW_NVAR_HEADER_SIZE 10
#define FW_NVAR_SIGNATURE 0x5241564Eu /* "NVAR" */
#define FW_NVAR_NEXT_NONE 0xFFFFFFu

#define FW_NVAR_ATTR_RUNTIME 0x01
#define FW_NVAR_ATTR_ASCII_NAME 0x02
#define FW_NVAR_ATTR_GUID 0x04
#define FW_NVAR_ATTR_DATA_ONLY 0x08
#define FW_NVAR_ATTR_EXT_HEADER 0x10
#define FW_NVAR_ATTR_HW_ERROR_RECORD 0x20
#define FW_NVAR_ATTR_AUTH_WRITE 0x40
#define FW_NVAR_ATTR_VALID 0x80
extern const struct fw_bitfields fw_nvar_attribute_names;

/* Extended header (trailer) flags */
#define FW_NVAR_EXT_CHECKSUM 0x01
#define FW_NVAR_EXT_AUTH_WRITE 0x10
#define FW_NVAR_EXT_TIME_BASED 0x20

extern const struct fw_guid fw_guid_ami_defaults;    /* StdDefaults / MfgDefaults */
extern const struct fw_guid fw_guid_ami_nvar_store;  /* FFS file CEF5B9A3 */
extern const struct fw_guid fw_guid_ami_nvram_main;  /* FV FA4974FC */
extern const struct fw_guid fw_guid_ami_nvram_backup;
extern const struct fw_guid fw_guid_ami_nvram_dxe_defaults, fw_guid_ami_nvram_pei_defaults, fw_guid_ami_nvram_bb_defaults;

#endif
