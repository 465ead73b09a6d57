/* AMD microcode patch header (64 bytes), the content of BIOS directory entry 0x66; the same
 * header Linux reads (arch/x86/kernel/cpu/microcode/amd.c `struct microcode_header_amd`).
 *
 * Also the patch files themselves: one patch as a file, or Linux's container
 * (amd-ucode/microcode_amd_fam19h.bin): the magic "DMA\0", then sections of u32 type and u32
 * size: type 0 is the equivalence table (16-byte entries: u32 installed CPUID signature, u32
 * errata mask, u32 errata compare, u16 equivalent processor revision ID, u16 reserved; a zero
 * entry ends it), type 1 one patch each. */
#ifndef FW_AMD_MICROCODE_H
#define FW_AMD_MICROCODE_H

#include <stdbool.h>

#include "parsers/layout.h"
#include "parsers/node.h"

enum { UCODE_DATE, UCODE_PATCH_ID, UCODE_DATA_ID, UCODE_DATA_LEN, UCODE_INIT_FLAG, UCODE_DATA_CHECKSUM,
       UCODE_NB_DEV_ID, UCODE_SB_DEV_ID, UCODE_PROCESSOR_REV_ID, UCODE_NB_REV_ID, UCODE_SB_REV_ID,
       UCODE_BIOS_API_REV, UCODE__COUNT };
extern const struct fw_layout fw_amd_microcode_layout;
#define FW_AMD_MICROCODE_HEADER_SIZE 64

#define FW_AMD_UCODE_CONTAINER_MAGIC 0x00414D44u /* "DMA\0" */
#define FW_AMD_UCODE_SECTION_EQUIV_TABLE 0
#define FW_AMD_UCODE_SECTION_PATCH 1
#define FW_AMD_UCODE_EQUIV_ENTRY_SIZE 16
/* Largest patch file taken as one (patches are 1.8 to 14 KiB today) */
#define FW_AMD_MICROCODE_MAX_FILE 0x10000

/* Node types of a patch (standalone or in a container), read by the version collector. */
#define FW_AMD_UCODE_PATCH_TYPE "AMD microcode patch"

/* Does a patch header start at `off`? A BCD date, and a patch ID whose family byte is the family
 * nibble of the processor revision ID (0x0A101148 for 0xA101): random bytes rarely agree. */
bool fw_amd_microcode_plausible(const struct fw_view *v, size_t off);
/* PatchId, ProcessorRevId, DataCode (and Date when it reads as one) of the patch at d. */
void fw_amd_microcode_fields(struct fw_tree *t, struct fw_node *n, const struct fw_view *d);

/* A whole input that is a patch file (at most FW_AMD_MICROCODE_MAX_FILE bytes) or a Linux
 * microcode container (the magic, then a whole equivalence table). */
bool fw_amd_microcode_probe(const struct fw_view *v);
/* Parse it as the tree's root; problems inside a container become diagnostics on the nodes. */
struct fw_node *fw_amd_microcode_parse(struct fw_tree *t, const struct fw_view *v, struct fw_error *err);

#endif
