/* AMD APCB (AGESA PSP Configuration Block) header, the content of BIOS directory entries 0x60
 * and 0x68 (oxidecomputer/amd-apcb `APCB_V2_HEADER`; reference/formats.md 2.3). Version 3 blocks
 * declare a 128-byte header: the V2 fields, then an extension that starts with "ECB2" and ends
 * with the signature "BCPA". The checksum byte makes the byte sum of the whole block 0. */
#ifndef FW_AMD_APCB_H
#define FW_AMD_APCB_H

#include <stdbool.h>

#include "parsers/layout.h"
#include "parsers/node.h"

enum { APCB_SIGNATURE, APCB_HEADER_SIZE, APCB_VERSION, APCB_SIZE, APCB_UNIQUE_INSTANCE, APCB_CHECKSUM,
       APCB_V3_SIGNATURE, APCB_V3_SIGNATURE_ENDING, APCB__COUNT };
extern const struct fw_layout fw_amd_apcb_layout;
#define FW_AMD_APCB_V2_HEADER_SIZE 32
#define FW_AMD_APCB_V3_HEADER_SIZE 128
#define FW_AMD_APCB_VERSION 0x30

/* ApcbVersion, ApcbSize, and whether the byte sum of the block is 0 (a warning when not). */
void fw_amd_apcb_fields(struct fw_tree *t, struct fw_node *n, const struct fw_view *d);
/* A whole input that is one APCB block: the signature, a header size of 32 or 128 bytes, a
 * version of 0x20 or 0x30, and a block size that fits the input. */
bool fw_amd_apcb_probe(const struct fw_view *v);

#endif
