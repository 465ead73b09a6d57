/* EDK2 variable stores (VSS, authenticated VSS2) and the fault-tolerant-write block
 * (VariableFormat.h, SystemNvDataGuid.h; reference/formats.md 5.3). */
#ifndef FW_VSS_H
#define FW_VSS_H

#include "layout.h"

/* VARIABLE_STORE_HEADER, 28 bytes */
enum { VSS_STORE_SIGNATURE, VSS_STORE_SIZE, VSS_STORE_FORMAT, VSS_STORE_STATE, VSS_STORE__COUNT };
extern const struct fw_layout fw_vss_store_layout;
#define FW_VSS_STORE_HEADER_SIZE 28
/* Older and vendor stores put a 4-byte signature ($VSS, Apple $SVS/$NSS) in place of the GUID:
 * {u32 Signature, u32 Size, u8 Format, u8 State, u16, u32}, 16 bytes. */
enum { VSS_SHORT_SIGNATURE, VSS_SHORT_SIZE, VSS_SHORT_FORMAT, VSS_SHORT_STATE, VSS_SHORT__COUNT };
extern const struct fw_layout fw_vss_short_store_layout;
#define FW_VSS_SHORT_STORE_HEADER_SIZE 16
#define FW_VSS_STORE_FORMATTED 0x5A
#define FW_VSS_STORE_HEALTHY 0xFE

/* VARIABLE_HEADER, 32 bytes */
enum { VSS_VAR_START_ID, VSS_VAR_STATE, VSS_VAR_ATTRIBUTES, VSS_VAR_NAME_SIZE, VSS_VAR_DATA_SIZE, VSS_VAR_GUID, VSS_VAR__COUNT };
extern const struct fw_layout fw_vss_var_layout;
#define FW_VSS_VAR_HEADER_SIZE 32

/* AUTHENTICATED_VARIABLE_HEADER, 60 bytes */
enum {
	VSS_AUTH_START_ID,
	VSS_AUTH_STATE,
	VSS_AUTH_ATTRIBUTES,
	VSS_AUTH_MONOTONIC_COUNT,
	VSS_AUTH_TIMESTAMP,
	VSS_AUTH_PUBKEY_INDEX,
	VSS_AUTH_NAME_SIZE,
	VSS_AUTH_DATA_SIZE,
	VSS_AUTH_GUID,
	VSS_AUTH__COUNT
};
extern const struct fw_layout fw_vss_auth_var_layout;
#define FW_VSS_AUTH_VAR_HEADER_SIZE 60
#define FW_VSS_START_ID 0x55AA

/* Variable states */
#define FW_VAR_IN_DELETED_TRANSITION 0xFE
#define FW_VAR_DELETED 0xFD
#define FW_VAR_HEADER_VALID_ONLY 0x7F
#define FW_VAR_ADDED 0x3F

/* EFI variable attributes (UefiMultiPhase.h) */
#define FW_EFI_VARIABLE_NON_VOLATILE 0x01
#define FW_EFI_VARIABLE_BOOTSERVICE_ACCESS 0x02
#define FW_EFI_VARIABLE_RUNTIME_ACCESS 0x04
#define FW_EFI_VARIABLE_HARDWARE_ERROR_RECORD 0x08
#define FW_EFI_VARIABLE_AUTHENTICATED_WRITE_ACCESS 0x10
#define FW_EFI_VARIABLE_TIME_BASED_AUTHENTICATED_WRITE_ACCESS 0x20
#define FW_EFI_VARIABLE_APPEND_WRITE 0x40
/* "NV+BS+RT" style text for attributes */
char *fw_efi_attributes_str(uint32_t attributes, char *buf, size_t len);

/* EFI_FAULT_TOLERANT_WORKING_BLOCK_HEADER */
enum { FTW_SIGNATURE, FTW_CRC, FTW_STATE, FTW_WRITE_QUEUE_SIZE, FTW__COUNT };
extern const struct fw_layout fw_ftw_layout;    /* 32 bytes (64-bit WriteQueueSize) */
extern const struct fw_layout fw_ftw32_layout;  /* 28 bytes (32-bit WriteQueueSize, older images) */

extern const struct fw_guid fw_guid_vss_store, fw_guid_vss_auth_store, fw_guid_ftw_working_block,
	fw_guid_ftw_working_block_old;
#define FW_VSS_SIGNATURE_DOLLAR 0x53535624u /* "$VSS" */
#define FW_VSS_SIGNATURE_APPLE_SVS 0x53565324u /* "$SVS" */
#define FW_VSS_SIGNATURE_APPLE_NSS 0x53534E24u /* "$NSS" */

/* EFI_TIME (16 bytes) as "2024-01-31T12:00:00"; false when the fields are out of range. */
bool fw_efi_time_str(const uint8_t *p, char *buf, size_t len);

#endif
