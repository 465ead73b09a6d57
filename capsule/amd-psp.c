/* AMD flash layout tables and entry names. */
#include "amd-psp.h"

static const struct fw_field efs_fields[EFS__COUNT] = {
	[EFS_SIGNATURE] = {"Signature", FW_FT_U32, 0x00, 0, FW_FF_HEX, NULL},
	[EFS_IMC] = {"ImcFirmware", FW_FT_U32, 0x04, 0, FW_FF_HEX, NULL},
	[EFS_GEC] = {"GecFirmware", FW_FT_U32, 0x08, 0, FW_FF_HEX, NULL},
	[EFS_XHCI] = {"XhciFirmware", FW_FT_U32, 0x0C, 0, FW_FF_HEX, NULL},
	[EFS_PSP_DIRECTORY] = {"PspDirectory", FW_FT_U32, 0x10, 0, FW_FF_HEX, NULL},
	[EFS_NEW_PSP_DIRECTORY] = {"NewPspDirectory", FW_FT_U32, 0x14, 0, FW_FF_HEX, NULL},
	[EFS_BIOS0] = {"BiosDirectory0", FW_FT_U32, 0x18, 0, FW_FF_HEX, NULL},
	[EFS_BIOS1] = {"BiosDirectory1", FW_FT_U32, 0x1C, 0, FW_FF_HEX, NULL},
	[EFS_BIOS2] = {"BiosDirectory2", FW_FT_U32, 0x20, 0, FW_FF_HEX, NULL},
	[EFS_GEN] = {"EfsGeneration", FW_FT_U32, 0x24, 0, FW_FF_HEX, NULL},
	[EFS_BIOS3] = {"BiosDirectory3", FW_FT_U32, 0x28, 0, FW_FF_HEX, NULL},
	[EFS_PSP_BACKUP] = {"PspBackupDirectory", FW_FT_U32, 0x2C, 0, FW_FF_HEX, NULL},
	[EFS_PROMONTORY] = {"PromontoryFirmware", FW_FT_U32, 0x30, 0, FW_FF_HEX, NULL},
	[EFS_LP_PROMONTORY] = {"LpPromontoryFirmware", FW_FT_U32, 0x34, 0, FW_FF_HEX, NULL},
};
const struct fw_layout fw_amd_efs_layout = FW_LAYOUT("AMD embedded firmware structure", FW_AMD_EFS_SIZE, efs_fields);

static const struct fw_field dir_fields[DIR__COUNT] = {
	[DIR_COOKIE] = {"Cookie", FW_FT_CHARS, 0x00, 4, 0, NULL},
	[DIR_CHECKSUM] = {"Checksum", FW_FT_U32, 0x04, 0, FW_FF_HEX, NULL},
	[DIR_NUM_ENTRIES] = {"NumEntries", FW_FT_U32, 0x08, 0, 0, NULL},
	[DIR_ADDITIONAL_INFO] = {"AdditionalInfo", FW_FT_U32, 0x0C, 0, FW_FF_HEX, NULL},
};
const struct fw_layout fw_amd_dir_layout = FW_LAYOUT("AMD directory header", FW_AMD_DIR_HEADER_SIZE, dir_fields);

static const struct fw_field psp_entry_fields[PSP_ENTRY__COUNT] = {
	[PSP_ENTRY_TYPE] = {"Type", FW_FT_U8, 0x00, 0, FW_FF_HEX, NULL},
	[PSP_ENTRY_SUBPROG] = {"SubProgram", FW_FT_U8, 0x01, 0, 0, NULL},
	[PSP_ENTRY_FLAGS] = {"Flags", FW_FT_U16, 0x02, 0, FW_FF_HEX, NULL},
	[PSP_ENTRY_SIZE] = {"Size", FW_FT_U32, 0x04, 0, FW_FF_HEX, NULL},
	[PSP_ENTRY_ADDRESS] = {"Location", FW_FT_U64, 0x08, 0, FW_FF_HEX, NULL},
};
const struct fw_layout fw_amd_psp_entry_layout = FW_LAYOUT("PSP directory entry", FW_AMD_PSP_ENTRY_SIZE, psp_entry_fields);

static const struct fw_field bios_entry_fields[BIOS_ENTRY__COUNT] = {
	[BIOS_ENTRY_TYPE] = {"Type", FW_FT_U8, 0x00, 0, FW_FF_HEX, NULL},
	[BIOS_ENTRY_REGION_TYPE] = {"RegionType", FW_FT_U8, 0x01, 0, FW_FF_HEX, NULL},
	[BIOS_ENTRY_FLAGS] = {"Flags", FW_FT_U16, 0x02, 0, FW_FF_HEX, NULL},
	[BIOS_ENTRY_SIZE] = {"Size", FW_FT_U32, 0x04, 0, FW_FF_HEX, NULL},
	[BIOS_ENTRY_SOURCE] = {"Source", FW_FT_U64, 0x08, 0, FW_FF_HEX, NULL},
	[BIOS_ENTRY_DESTINATION] = {"Destination", FW_FT_U64, 0x10, 0, FW_FF_HEX, NULL},
};
const struct fw_layout fw_amd_bios_entry_layout = FW_LAYOUT("BIOS directory entry", FW_AMD_BIOS_ENTRY_SIZE, bios_entry_fields);

static const struct fw_field combo_fields[COMBO__COUNT] = {
	[COMBO_COOKIE] = {"Cookie", FW_FT_CHARS, 0x00, 4, 0, NULL},
	[COMBO_CHECKSUM] = {"Checksum", FW_FT_U32, 0x04, 0, FW_FF_HEX, NULL},
	[COMBO_NUM_ENTRIES] = {"NumEntries", FW_FT_U32, 0x08, 0, 0, NULL},
	[COMBO_LOOKUP] = {"LookUpMode", FW_FT_U32, 0x0C, 0, 0, NULL},
};
const struct fw_layout fw_amd_combo_layout = FW_LAYOUT("AMD combo directory header", FW_AMD_COMBO_HEADER_SIZE, combo_fields);

static const struct fw_field combo_entry_fields[COMBO_ENTRY__COUNT] = {
	[COMBO_ENTRY_ID_SEL] = {"IdSelect", FW_FT_U32, 0x00, 0, 0, NULL},
	[COMBO_ENTRY_ID] = {"Id", FW_FT_U32, 0x04, 0, FW_FF_HEX, NULL},
	[COMBO_ENTRY_L2_ADDRESS] = {"DirectoryAddress", FW_FT_U64, 0x08, 0, FW_FF_HEX, NULL},
};
const struct fw_layout fw_amd_combo_entry_layout = FW_LAYOUT("AMD combo directory entry", FW_AMD_COMBO_ENTRY_SIZE, combo_entry_fields);

static const struct fw_field psp_blob_fields[PSPHDR__COUNT] = {
	[PSPHDR_MAGIC] = {"Magic", FW_FT_CHARS, 0x10, 4, 0, NULL},
	[PSPHDR_SIZE_SIGNED] = {"SizeSigned", FW_FT_U32, 0x14, 0, FW_FF_HEX, NULL},
	[PSPHDR_SIG_OPT] = {"SignatureOption", FW_FT_U32, 0x30, 0, FW_FF_HEX, NULL},
	[PSPHDR_SIG_ID] = {"SignatureKeyId", FW_FT_BYTES, 0x34, 16, 0, NULL},
	[PSPHDR_COMP_OPT] = {"CompressionOption", FW_FT_U32, 0x48, 0, FW_FF_HEX, NULL},
	[PSPHDR_UNCOMP_SIZE] = {"UncompressedSize", FW_FT_U32, 0x50, 0, FW_FF_HEX, NULL},
	[PSPHDR_COMP_SIZE] = {"CompressedSize", FW_FT_U32, 0x54, 0, FW_FF_HEX, NULL},
	[PSPHDR_VERSION] = {"Version", FW_FT_BYTES, 0x60, 4, 0, NULL},
	[PSPHDR_SIZE_TOTAL] = {"RomSize", FW_FT_U32, 0x6C, 0, FW_FF_HEX, NULL},
	[PSPHDR_FW_TYPE] = {"FirmwareType", FW_FT_U8, 0x7C, 0, FW_FF_HEX, NULL},
};
const struct fw_layout fw_amd_psp_blob_layout = FW_LAYOUT("PSP firmware header", FW_AMD_PSP_BLOB_HEADER_SIZE, psp_blob_fields);

/* Names from reference/formats.md 2.4 and coreboot's psp_directory.h (the types its fw.cfg files
 * place for Genoa and later parts). */
const char *fw_amd_psp_entry_name(uint8_t type)
{
	switch (type) {
	case 0x00: return "AMD public key";
	case 0x01: return "PSP boot loader";
	case 0x02: return "PSP trusted OS";
	case 0x03: return "PSP recovery boot loader";
	case 0x04: return "PSP NV data";
	case 0x08: return "SMU firmware";
	case 0x09: return "AMD secure debug key";
	case 0x0A: return "OEM signing key";
	case 0x0B: return "Soft fuse chain";
	case 0x0C: return "PSP trustlet binaries";
	case 0x0D: return "PSP trustlet key";
	case 0x12: return "SMU firmware 2";
	case 0x13: return "PSP early secure unlock debug";
	case 0x20: return "HW IP configuration";
	case 0x21: return "Wrapped iKEK";
	case 0x22: return "PSP token unlock data";
	case 0x24: return "Security gasket";
	case 0x25: return "MP2 firmware";
	case 0x28: return "System driver";
	case 0x29: return "KVM engine";
	case 0x2A: return "MP5 firmware";
	case 0x2D: return "S0i3 driver";
	case 0x30: return "ABL0 (AGESA boot loader)";
	case 0x31: return "ABL1";
	case 0x32: return "ABL2";
	case 0x33: return "ABL3";
	case 0x34: return "ABL4";
	case 0x35: return "ABL5";
	case 0x36: return "ABL6";
	case 0x37: return "ABL7";
	case 0x38: return "SEV data";
	case 0x39: return "SEV code (SEV/SEV-SNP firmware)";
	case 0x3A: return "Processor serial number whitelist";
	case 0x3C: return "VBIOS pre-load";
	case 0x40: return "PSP level 2 directory";
	case 0x42: return "DXIO PHY firmware";
	case 0x44: return "USB PHY firmware";
	case 0x45: return "Security policy (TOS)";
	case 0x47: return "DRTM trusted application";
	case 0x48: return "PSP level 2 A directory";
	case 0x49: return "BIOS level 2 directory";
	case 0x4A: return "PSP level 2 B directory";
	case 0x50: return "Key database";
	case 0x51: return "Key database (TOS)";
	case 0x54: return "PSP NVRAM";
	case 0x52: return "PSP verstage";
	case 0x53: return "PSP verstage signature";
	case 0x55: return "SPL table";
	case 0x58: return "DMCU ERAM";
	case 0x59: return "DMCU interrupt vectors";
	case 0x5A: return "MSMU firmware";
	case 0x5C: return "SPI ROM configuration";
	case 0x5D: return "MPIO firmware";
	case 0x64: return "TEE RAS";
	case 0x65: return "TEE SPDM";
	case 0x73: return "PSP boot loader (A/B)";
	case 0x71: return "DMCUB firmware";
	case 0x76: return "RIB";
	case 0x8C: return "MPDMA TF firmware";
	case 0x8D: return "TA iKEK";
	case 0x90: return "MPCCX firmware";
	case 0x91: return "GMI3 PHY firmware";
	case 0x92: return "MPDMA PM firmware";
	case 0x94: return "LSDMA firmware";
	case 0x95: return "C20 MP firmware";
	case 0x98: return "FCFG table";
	}
	return NULL;
}

const char *fw_amd_bios_entry_name(uint8_t type)
{
	switch (type) {
	case 0x05: return "RTM public key";
	case 0x07: return "BIOS signature";
	case 0x60: return "APCB";
	case 0x61: return "APOB";
	case 0x62: return "BIOS reset image";
	case 0x63: return "APOB NV";
	case 0x64: return "PMU code";
	case 0x65: return "PMU data";
	case 0x66: return "Microcode patch";
	case 0x67: return "Core machine exception data";
	case 0x68: return "APCB backup";
	case 0x69: return "Early VGA image";
	case 0x6A: return "MP2 firmware configuration";
	case 0x6D: return "ROM Armor NV";
	case 0x70: return "BIOS level 2 directory";
	}
	return NULL;
}
