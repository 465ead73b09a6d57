/* PE/COFF and TE image headers (Microsoft PE/COFF specification; MdePkg/Include/IndustryStandard/
 * PeImage.h; reference/formats.md 3.3), and the resource directory where GenFw puts HII packages
 * (a resource of type name L"HII"; reference/ifr.md 1.2). Offsets of the NT headers count from
 * e_lfanew, of the optional header from its start (NT headers + 24). */
#ifndef FW_PE_H
#define FW_PE_H

#include "layout.h"

/* DOS header: only e_magic and e_lfanew matter */
enum { DOS_MAGIC, DOS_LFANEW, DOS__COUNT };
extern const struct fw_layout fw_dos_header_layout; /* 64 bytes */
#define FW_DOS_MAGIC 0x5A4D /* "MZ" */
#define FW_DOS_HEADER_SIZE 64

/* PE signature and COFF file header */
enum { PE_SIGNATURE, PE_MACHINE, PE_NUMBER_OF_SECTIONS, PE_TIME_DATE_STAMP, PE_SYMBOL_TABLE, PE_NUMBER_OF_SYMBOLS,
       PE_SIZE_OF_OPTIONAL_HEADER, PE_CHARACTERISTICS, PE__COUNT };
extern const struct fw_layout fw_pe_header_layout; /* 24 bytes */
#define FW_PE_SIGNATURE 0x00004550u /* "PE\0\0" */
#define FW_PE_HEADER_SIZE 24
#define FW_PE_MACHINE_I386 0x014C
#define FW_PE_MACHINE_X64 0x8664
#define FW_PE_MACHINE_AARCH64 0xAA64
#define FW_PE_CHAR_EXECUTABLE 0x0002
#define FW_PE_CHAR_LARGE_ADDRESS_AWARE 0x0020
#define FW_PE_CHAR_DLL 0x2000

/* PE32+ optional header (0x20B), 112 bytes before the data directories */
enum {
	PE64_MAGIC,
	PE64_LINKER_MAJOR,
	PE64_LINKER_MINOR,
	PE64_SIZE_OF_CODE,
	PE64_SIZE_OF_INITIALIZED_DATA,
	PE64_SIZE_OF_UNINITIALIZED_DATA,
	PE64_ENTRY_POINT,
	PE64_BASE_OF_CODE,
	PE64_IMAGE_BASE,
	PE64_SECTION_ALIGNMENT,
	PE64_FILE_ALIGNMENT,
	PE64_OS_MAJOR,
	PE64_OS_MINOR,
	PE64_IMAGE_MAJOR,
	PE64_IMAGE_MINOR,
	PE64_SUBSYSTEM_MAJOR,
	PE64_SUBSYSTEM_MINOR,
	PE64_WIN32_VERSION,
	PE64_SIZE_OF_IMAGE,
	PE64_SIZE_OF_HEADERS,
	PE64_CHECKSUM,
	PE64_SUBSYSTEM,
	PE64_DLL_CHARACTERISTICS,
	PE64_STACK_RESERVE,
	PE64_STACK_COMMIT,
	PE64_HEAP_RESERVE,
	PE64_HEAP_COMMIT,
	PE64_LOADER_FLAGS,
	PE64_NUMBER_OF_RVA_AND_SIZES,
	PE64__COUNT
};
extern const struct fw_layout fw_pe64_optional_layout;
#define FW_PE64_OPTIONAL_FIXED 112 /* data directories follow */
/* PE32 optional header (0x10B): the fields the image summary shows; ImageBase is 32 bits at 28 */
enum { PE32_MAGIC, PE32_ENTRY_POINT, PE32_BASE_OF_CODE, PE32_IMAGE_BASE, PE32_SECTION_ALIGNMENT, PE32_SIZE_OF_IMAGE,
       PE32_SIZE_OF_HEADERS, PE32_SUBSYSTEM, PE32__COUNT };
extern const struct fw_layout fw_pe32_optional_layout;
#define FW_PE32_OPTIONAL_SUMMARY 72 /* through DllCharacteristics */
#define FW_PE32_MAGIC 0x010B
#define FW_PE64_MAGIC 0x020B
#define FW_PE_SUBSYSTEM_EFI_APPLICATION 10
#define FW_PE_SUBSYSTEM_EFI_BOOT_SERVICE_DRIVER 11
#define FW_PE_SUBSYSTEM_EFI_RUNTIME_DRIVER 12

/* Data directory entry (8 bytes) and the indexes firmware uses */
enum { PE_DIR_RVA, PE_DIR_SIZE, PE_DIR__COUNT };
extern const struct fw_layout fw_pe_data_dir_layout;
#define FW_PE_DATA_DIR_SIZE 8
enum { FW_PE_DIR_EXPORT = 0, FW_PE_DIR_IMPORT = 1, FW_PE_DIR_RESOURCE = 2, FW_PE_DIR_EXCEPTION = 3,
       FW_PE_DIR_SECURITY = 4, FW_PE_DIR_BASERELOC = 5, FW_PE_DIR_DEBUG = 6, FW_PE_DIR_COUNT = 16 };

/* Section header (40 bytes) */
enum { PE_SEC_NAME, PE_SEC_VIRTUAL_SIZE, PE_SEC_VIRTUAL_ADDRESS, PE_SEC_RAW_SIZE, PE_SEC_RAW_POINTER,
       PE_SEC_RELOC_POINTER, PE_SEC_LINENUMBER_POINTER, PE_SEC_RELOC_COUNT, PE_SEC_LINENUMBER_COUNT,
       PE_SEC_CHARACTERISTICS, PE_SEC__COUNT };
extern const struct fw_layout fw_pe_section_layout;
#define FW_PE_SECTION_SIZE 40
#define FW_PE_SCN_CODE 0x00000020u
#define FW_PE_SCN_INITIALIZED_DATA 0x00000040u
#define FW_PE_SCN_DISCARDABLE 0x02000000u
#define FW_PE_SCN_MEM_EXECUTE 0x20000000u
#define FW_PE_SCN_MEM_READ 0x40000000u
#define FW_PE_SCN_MEM_WRITE 0x80000000u

/* Resource directory table (16 bytes), entries (8 bytes), data entries (16 bytes). A name entry
 * has bit 31 set in NameOrId (offset of a u16-length UCS-2 name); a subdirectory has bit 31 set in
 * OffsetToData. Offsets count from the start of the resource section; data entries hold RVAs. */
enum { PE_RES_DIR_CHARACTERISTICS, PE_RES_DIR_TIME_DATE_STAMP, PE_RES_DIR_MAJOR, PE_RES_DIR_MINOR,
       PE_RES_DIR_NAMED_ENTRIES, PE_RES_DIR_ID_ENTRIES, PE_RES_DIR__COUNT };
extern const struct fw_layout fw_pe_resource_dir_layout;
#define FW_PE_RESOURCE_DIR_SIZE 16
enum { PE_RES_ENTRY_NAME_OR_ID, PE_RES_ENTRY_OFFSET, PE_RES_ENTRY__COUNT };
extern const struct fw_layout fw_pe_resource_entry_layout;
#define FW_PE_RESOURCE_ENTRY_SIZE 8
#define FW_PE_RESOURCE_NAME_IS_STRING 0x80000000u
#define FW_PE_RESOURCE_DATA_IS_DIRECTORY 0x80000000u
enum { PE_RES_DATA_RVA, PE_RES_DATA_SIZE, PE_RES_DATA_CODEPAGE, PE_RES_DATA_RESERVED, PE_RES_DATA__COUNT };
extern const struct fw_layout fw_pe_resource_data_layout;
#define FW_PE_RESOURCE_DATA_SIZE 16

/* TE header (40 bytes): the PE headers reduced for PEI (PiFirmwareFile.h EFI_TE_IMAGE_HEADER).
 * Section headers follow it; image offsets in the file are RVA - StrippedSize + 40. */
enum { TE_SIGNATURE, TE_MACHINE, TE_NUMBER_OF_SECTIONS, TE_SUBSYSTEM, TE_STRIPPED_SIZE, TE_ENTRY_POINT,
       TE_BASE_OF_CODE, TE_IMAGE_BASE, TE_RELOC_RVA, TE_RELOC_SIZE, TE_DEBUG_RVA, TE_DEBUG_SIZE, TE__COUNT };
extern const struct fw_layout fw_te_header_layout;
#define FW_TE_HEADER_SIZE 40
#define FW_TE_SIGNATURE 0x5A56 /* "VZ" */

/* --- image summaries on section nodes --- */
/* Add the header fields to an image section node (body = the image); a malformed header becomes
 * a diagnostic. Sets FW_NODE_F_HAS_HII when the image carries an HII form package. */
void fw_pe_summarize(struct fw_tree *t, struct fw_node *n, const struct fw_view *body);
void fw_te_summarize(struct fw_tree *t, struct fw_node *n, const struct fw_view *body);
/* A PE ("MZ" + "PE\0\0") or TE ("VZ") image starts at b. */
bool fw_pe_probe(const uint8_t *b, size_t n);
bool fw_te_probe(const uint8_t *b, size_t n);
/* True when b holds the header of an HII form package (EFI_HII_PACKAGE_FORMS) directly followed
 * by a FormSet opcode: how Setup-like modules carry their forms. A cheap probe for `fwlens info`
 * and the FW_NODE_F_HAS_HII flag; ifr/ finds and decodes the packages properly. */
bool fw_hii_forms_present(const uint8_t *b, size_t n);

#endif
