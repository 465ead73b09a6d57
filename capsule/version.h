/* Version facts of a firmware tree: the AGESA version strings, the AMI $FID (BIOS tag, project
 * and core versions, build date), the SEV/SEV-SNP firmware version (PSP entry 0x39) and the
 * microcode patch levels (BIOS directory entries 0x66).
 *
 * Strings are searched in the input and in every decompressed section body, so versions inside
 * compressed volumes are found; PSP facts come from the psp-entry nodes. */
#ifndef FW_VERSION_H
#define FW_VERSION_H

#include "parsers/node.h"

#define FW_VERSIONS_MAX_AGESA 4
#define FW_VERSIONS_MAX_MICROCODE 32

struct fw_microcode_patch {
	uint32_t patch_id;
	uint16_t processor_rev;
	uint32_t date;    /* DataCode as written (BCD month, day, year: 0x07182025) */
	uint64_t offset;  /* in the input */
};

struct fw_versions {
	char agesa[FW_VERSIONS_MAX_AGESA][96]; /* "GenoaPI-SP5 1.0.0.8" */
	size_t nagesa;
	bool has_fid;
	char bios_tag[16];       /* $FID BiosTag */
	char project_version[8]; /* "12.03": ASUS BIOS 1203 */
	char core_version[8];    /* AMI core "5.37" */
	char build_date[24];     /* "2025-07-18T14:01:29" */
	uint64_t fid_offset;     /* or FW_OFFSET_UNKNOWN inside decompressed data */
	char sev[32];            /* SEV firmware version, "" when absent */
	struct fw_microcode_patch ucode[FW_VERSIONS_MAX_MICROCODE];
	size_t nucode;
};

void fw_versions_collect(const struct fw_tree *t, struct fw_versions *out);
/* The patch date "2023-08-15" from a DataCode (BCD 0xMMDDYYYY); false when it is not one. */
bool fw_microcode_date(uint32_t data_code, char out[11]);
/* "0x0A101148 for processor revision 0xA101, 2023-08-15" into buf (the raw data code when it is
 * not a date). */
char *fw_microcode_str(const struct fw_microcode_patch *p, char *buf, size_t len);

#endif
