/* AMD microcode patch header (64 bytes), the content of BIOS directory entry 0x66; the same
 * header Linux reads (arch/x86/kernel/cpu/microcode/amd.c `struct microcode_header_amd`). */
#ifndef FW_AMD_MICROCODE_H
#define FW_AMD_MICROCODE_H

#include "parsers/layout.h"

enum { UCODE_DATE, UCODE_PATCH_ID, UCODE_DATA_ID, UCODE_DATA_LEN, UCODE_INIT_FLAG, UCODE_DATA_CHECKSUM,
       UCODE_NB_DEV_ID, UCODE_SB_DEV_ID, UCODE_PROCESSOR_REV_ID, UCODE_NB_REV_ID, UCODE_SB_REV_ID,
       UCODE_BIOS_API_REV, UCODE__COUNT };
extern const struct fw_layout fw_amd_microcode_layout;
#define FW_AMD_MICROCODE_HEADER_SIZE 64

#endif
