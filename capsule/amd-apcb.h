/* AMD APCB (AGESA PSP Configuration Block) header, the content of BIOS directory entries 0x60
 * and 0x68 (oxidecomputer/amd-apcb `APCB_V2_HEADER`; reference/formats.md 2.3). Version 3 blocks
 * declare a 128-byte header: the V2 fields, then an extension that starts with "ECB2" and ends
 * with the signature "BCPA". The checksum byte makes the byte sum of the whole block 0. */
#ifndef FW_AMD_APCB_H
#define FW_AMD_APCB_H

#include "parsers/layout.h"

enum { APCB_SIGNATURE, APCB_HEADER_SIZE, APCB_VERSION, APCB_SIZE, APCB_UNIQUE_INSTANCE, APCB_CHECKSUM,
       APCB_V3_SIGNATURE, APCB_V3_SIGNATURE_ENDING, APCB__COUNT };
extern const struct fw_layout fw_amd_apcb_layout;
#define FW_AMD_APCB_V3_HEADER_SIZE 128
#define FW_AMD_APCB_VERSION 0x30

#endif
