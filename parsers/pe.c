/* PE/COFF and TE header layouts, the image summaries on section nodes, and the HII probe. */
#include "pe.h"

#include <string.h>

static const struct fw_field dos_fields[DOS__COUNT] = {
	[DOS_MAGIC] = {"e_magic", FW_FT_U16, 0x00, 0, FW_FF_HEX, NULL},
	[DOS_LFANEW] = {"e_lfanew", FW_FT_U32, 0x3C, 0, FW_FF_HEX, NULL},
};
const struct fw_layout fw_dos_header_layout = FW_LAYOUT("DOS header", FW_DOS_HEADER_SIZE, dos_fields);

static const struct fw_named_value machine_names[] = {
	{0x014C, "IA32"}, {0x0200, "IA64"}, {0x8664, "X64"}, {0x01C2, "ARM"}, {0xAA64, "AARCH64"},
	{0x5064, "RISCV64"}, {0x0EBC, "EBC"}, {0x01C4, "ARMNT"}, {0x5032, "RISCV32"}, {0x5128, "RISCV128"},
	{0x6232, "LOONGARCH32"}, {0x6264, "LOONGARCH64"}, {0, NULL},
};
static const struct fw_field pe_fields[PE__COUNT] = {
	[PE_SIGNATURE] = {"Signature", FW_FT_U32, 0, 0, FW_FF_HEX | FW_FF_HIDDEN, NULL},
	[PE_MACHINE] = {"Machine", FW_FT_U16, 4, 0, FW_FF_ENUM | FW_FF_HEX, machine_names},
	[PE_NUMBER_OF_SECTIONS] = {"NumberOfSections", FW_FT_U16, 6, 0, 0, NULL},
	[PE_TIME_DATE_STAMP] = {"TimeDateStamp", FW_FT_U32, 8, 0, FW_FF_HEX, NULL},
	[PE_SYMBOL_TABLE] = {"PointerToSymbolTable", FW_FT_U32, 12, 0, FW_FF_HEX | FW_FF_HIDDEN, NULL},
	[PE_NUMBER_OF_SYMBOLS] = {"NumberOfSymbols", FW_FT_U32, 16, 0, FW_FF_HIDDEN, NULL},
	[PE_SIZE_OF_OPTIONAL_HEADER] = {"SizeOfOptionalHeader", FW_FT_U16, 20, 0, FW_FF_HEX, NULL},
	[PE_CHARACTERISTICS] = {"Characteristics", FW_FT_U16, 22, 0, FW_FF_HEX, NULL},
};
const struct fw_layout fw_pe_header_layout = FW_LAYOUT("PE/COFF header", FW_PE_HEADER_SIZE, pe_fields);

static const struct fw_named_value subsystem_names[] = {
	{10, "EFI application"}, {11, "EFI boot service driver"}, {12, "EFI runtime driver"}, {13, "EFI ROM"}, {0, NULL},
};
static const struct fw_field pe64_fields[PE64__COUNT] = {
	[PE64_MAGIC] = {"Magic", FW_FT_U16, 0, 0, FW_FF_HEX, NULL},
	[PE64_LINKER_MAJOR] = {"MajorLinkerVersion", FW_FT_U8, 2, 0, FW_FF_HIDDEN, NULL},
	[PE64_LINKER_MINOR] = {"MinorLinkerVersion", FW_FT_U8, 3, 0, FW_FF_HIDDEN, NULL},
	[PE64_SIZE_OF_CODE] = {"SizeOfCode", FW_FT_U32, 4, 0, FW_FF_HEX, NULL},
	[PE64_SIZE_OF_INITIALIZED_DATA] = {"SizeOfInitializedData", FW_FT_U32, 8, 0, FW_FF_HEX, NULL},
	[PE64_SIZE_OF_UNINITIALIZED_DATA] = {"SizeOfUninitializedData", FW_FT_U32, 12, 0, FW_FF_HEX, NULL},
	[PE64_ENTRY_POINT] = {"AddressOfEntryPoint", FW_FT_U32, 16, 0, FW_FF_HEX, NULL},
	[PE64_BASE_OF_CODE] = {"BaseOfCode", FW_FT_U32, 20, 0, FW_FF_HEX, NULL},
	[PE64_IMAGE_BASE] = {"ImageBase", FW_FT_U64, 24, 0, FW_FF_HEX, NULL},
	[PE64_SECTION_ALIGNMENT] = {"SectionAlignment", FW_FT_U32, 32, 0, FW_FF_HEX, NULL},
	[PE64_FILE_ALIGNMENT] = {"FileAlignment", FW_FT_U32, 36, 0, FW_FF_HEX, NULL},
	[PE64_OS_MAJOR] = {"MajorOperatingSystemVersion", FW_FT_U16, 40, 0, FW_FF_HIDDEN, NULL},
	[PE64_OS_MINOR] = {"MinorOperatingSystemVersion", FW_FT_U16, 42, 0, FW_FF_HIDDEN, NULL},
	[PE64_IMAGE_MAJOR] = {"MajorImageVersion", FW_FT_U16, 44, 0, FW_FF_HIDDEN, NULL},
	[PE64_IMAGE_MINOR] = {"MinorImageVersion", FW_FT_U16, 46, 0, FW_FF_HIDDEN, NULL},
	[PE64_SUBSYSTEM_MAJOR] = {"MajorSubsystemVersion", FW_FT_U16, 48, 0, FW_FF_HIDDEN, NULL},
	[PE64_SUBSYSTEM_MINOR] = {"MinorSubsystemVersion", FW_FT_U16, 50, 0, FW_FF_HIDDEN, NULL},
	[PE64_WIN32_VERSION] = {"Win32VersionValue", FW_FT_U32, 52, 0, FW_FF_HIDDEN, NULL},
	[PE64_SIZE_OF_IMAGE] = {"SizeOfImage", FW_FT_U32, 56, 0, FW_FF_HEX, NULL},
	[PE64_SIZE_OF_HEADERS] = {"SizeOfHeaders", FW_FT_U32, 60, 0, FW_FF_HEX, NULL},
	[PE64_CHECKSUM] = {"CheckSum", FW_FT_U32, 64, 0, FW_FF_HEX, NULL},
	[PE64_SUBSYSTEM] = {"Subsystem", FW_FT_U16, 68, 0, FW_FF_ENUM, subsystem_names},
	[PE64_DLL_CHARACTERISTICS] = {"DllCharacteristics", FW_FT_U16, 70, 0, FW_FF_HEX, NULL},
	[PE64_STACK_RESERVE] = {"SizeOfStackReserve", FW_FT_U64, 72, 0, FW_FF_HEX | FW_FF_HIDDEN, NULL},
	[PE64_STACK_COMMIT] = {"SizeOfStackCommit", FW_FT_U64, 80, 0, FW_FF_HEX | FW_FF_HIDDEN, NULL},
	[PE64_HEAP_RESERVE] = {"SizeOfHeapReserve", FW_FT_U64, 88, 0, FW_FF_HEX | FW_FF_HIDDEN, NULL},
	[PE64_HEAP_COMMIT] = {"SizeOfHeapCommit", FW_FT_U64, 96, 0, FW_FF_HEX | FW_FF_HIDDEN, NULL},
	[PE64_LOADER_FLAGS] = {"LoaderFlags", FW_FT_U32, 104, 0, FW_FF_HIDDEN, NULL},
	[PE64_NUMBER_OF_RVA_AND_SIZES] = {"NumberOfRvaAndSizes", FW_FT_U32, 108, 0, 0, NULL},
};
const struct fw_layout fw_pe64_optional_layout = FW_LAYOUT("PE32+ optional header", FW_PE64_OPTIONAL_FIXED, pe64_fields);

static const struct fw_field pe32_fields[PE32__COUNT] = {
	[PE32_MAGIC] = {"Magic", FW_FT_U16, 0, 0, FW_FF_HEX, NULL},
	[PE32_ENTRY_POINT] = {"AddressOfEntryPoint", FW_FT_U32, 16, 0, FW_FF_HEX, NULL},
	[PE32_BASE_OF_CODE] = {"BaseOfCode", FW_FT_U32, 20, 0, FW_FF_HEX, NULL},
	[PE32_IMAGE_BASE] = {"ImageBase", FW_FT_U32, 28, 0, FW_FF_HEX, NULL},
	[PE32_SECTION_ALIGNMENT] = {"SectionAlignment", FW_FT_U32, 32, 0, FW_FF_HEX, NULL},
	[PE32_SIZE_OF_IMAGE] = {"SizeOfImage", FW_FT_U32, 56, 0, FW_FF_HEX, NULL},
	[PE32_SIZE_OF_HEADERS] = {"SizeOfHeaders", FW_FT_U32, 60, 0, FW_FF_HEX, NULL},
	[PE32_SUBSYSTEM] = {"Subsystem", FW_FT_U16, 68, 0, FW_FF_ENUM, subsystem_names},
};
const struct fw_layout fw_pe32_optional_layout = FW_LAYOUT("PE32 optional header", FW_PE32_OPTIONAL_SUMMARY, pe32_fields);

static const struct fw_field dir_fields[PE_DIR__COUNT] = {
	[PE_DIR_RVA] = {"VirtualAddress", FW_FT_U32, 0, 0, FW_FF_HEX, NULL},
	[PE_DIR_SIZE] = {"Size", FW_FT_U32, 4, 0, FW_FF_HEX, NULL},
};
const struct fw_layout fw_pe_data_dir_layout = FW_LAYOUT("PE data directory", FW_PE_DATA_DIR_SIZE, dir_fields);

static const struct fw_field section_fields[PE_SEC__COUNT] = {
	[PE_SEC_NAME] = {"Name", FW_FT_CHARS, 0, 8, 0, NULL},
	[PE_SEC_VIRTUAL_SIZE] = {"VirtualSize", FW_FT_U32, 8, 0, FW_FF_HEX, NULL},
	[PE_SEC_VIRTUAL_ADDRESS] = {"VirtualAddress", FW_FT_U32, 12, 0, FW_FF_HEX, NULL},
	[PE_SEC_RAW_SIZE] = {"SizeOfRawData", FW_FT_U32, 16, 0, FW_FF_HEX, NULL},
	[PE_SEC_RAW_POINTER] = {"PointerToRawData", FW_FT_U32, 20, 0, FW_FF_HEX, NULL},
	[PE_SEC_RELOC_POINTER] = {"PointerToRelocations", FW_FT_U32, 24, 0, FW_FF_HIDDEN, NULL},
	[PE_SEC_LINENUMBER_POINTER] = {"PointerToLinenumbers", FW_FT_U32, 28, 0, FW_FF_HIDDEN, NULL},
	[PE_SEC_RELOC_COUNT] = {"NumberOfRelocations", FW_FT_U16, 32, 0, FW_FF_HIDDEN, NULL},
	[PE_SEC_LINENUMBER_COUNT] = {"NumberOfLinenumbers", FW_FT_U16, 34, 0, FW_FF_HIDDEN, NULL},
	[PE_SEC_CHARACTERISTICS] = {"Characteristics", FW_FT_U32, 36, 0, FW_FF_HEX, NULL},
};
const struct fw_layout fw_pe_section_layout = FW_LAYOUT("PE section header", FW_PE_SECTION_SIZE, section_fields);

static const struct fw_field res_dir_fields[PE_RES_DIR__COUNT] = {
	[PE_RES_DIR_CHARACTERISTICS] = {"Characteristics", FW_FT_U32, 0, 0, FW_FF_HIDDEN, NULL},
	[PE_RES_DIR_TIME_DATE_STAMP] = {"TimeDateStamp", FW_FT_U32, 4, 0, FW_FF_HEX | FW_FF_HIDDEN, NULL},
	[PE_RES_DIR_MAJOR] = {"MajorVersion", FW_FT_U16, 8, 0, FW_FF_HIDDEN, NULL},
	[PE_RES_DIR_MINOR] = {"MinorVersion", FW_FT_U16, 10, 0, FW_FF_HIDDEN, NULL},
	[PE_RES_DIR_NAMED_ENTRIES] = {"NumberOfNamedEntries", FW_FT_U16, 12, 0, 0, NULL},
	[PE_RES_DIR_ID_ENTRIES] = {"NumberOfIdEntries", FW_FT_U16, 14, 0, 0, NULL},
};
const struct fw_layout fw_pe_resource_dir_layout = FW_LAYOUT("PE resource directory", FW_PE_RESOURCE_DIR_SIZE, res_dir_fields);

static const struct fw_field res_entry_fields[PE_RES_ENTRY__COUNT] = {
	[PE_RES_ENTRY_NAME_OR_ID] = {"NameOrId", FW_FT_U32, 0, 0, FW_FF_HEX, NULL},
	[PE_RES_ENTRY_OFFSET] = {"OffsetToData", FW_FT_U32, 4, 0, FW_FF_HEX, NULL},
};
const struct fw_layout fw_pe_resource_entry_layout =
	FW_LAYOUT("PE resource directory entry", FW_PE_RESOURCE_ENTRY_SIZE, res_entry_fields);

static const struct fw_field res_data_fields[PE_RES_DATA__COUNT] = {
	[PE_RES_DATA_RVA] = {"OffsetToData", FW_FT_U32, 0, 0, FW_FF_HEX, NULL},
	[PE_RES_DATA_SIZE] = {"Size", FW_FT_U32, 4, 0, FW_FF_HEX, NULL},
	[PE_RES_DATA_CODEPAGE] = {"CodePage", FW_FT_U32, 8, 0, FW_FF_HIDDEN, NULL},
	[PE_RES_DATA_RESERVED] = {"Reserved", FW_FT_U32, 12, 0, FW_FF_HIDDEN, NULL},
};
const struct fw_layout fw_pe_resource_data_layout =
	FW_LAYOUT("PE resource data entry", FW_PE_RESOURCE_DATA_SIZE, res_data_fields);

static const struct fw_field te_fields[TE__COUNT] = {
	[TE_SIGNATURE] = {"Signature", FW_FT_U16, 0, 0, FW_FF_HEX | FW_FF_HIDDEN, NULL},
	[TE_MACHINE] = {"Machine", FW_FT_U16, 2, 0, FW_FF_ENUM | FW_FF_HEX, machine_names},
	[TE_NUMBER_OF_SECTIONS] = {"NumberOfSections", FW_FT_U8, 4, 0, 0, NULL},
	[TE_SUBSYSTEM] = {"Subsystem", FW_FT_U8, 5, 0, FW_FF_ENUM, subsystem_names},
	[TE_STRIPPED_SIZE] = {"StrippedSize", FW_FT_U16, 6, 0, FW_FF_HEX, NULL},
	[TE_ENTRY_POINT] = {"AddressOfEntryPoint", FW_FT_U32, 8, 0, FW_FF_HEX, NULL},
	[TE_BASE_OF_CODE] = {"BaseOfCode", FW_FT_U32, 12, 0, FW_FF_HEX, NULL},
	[TE_IMAGE_BASE] = {"ImageBase", FW_FT_U64, 16, 0, FW_FF_HEX, NULL},
	[TE_RELOC_RVA] = {"RelocationsRva", FW_FT_U32, 24, 0, FW_FF_HEX, NULL},
	[TE_RELOC_SIZE] = {"RelocationsSize", FW_FT_U32, 28, 0, FW_FF_HEX, NULL},
	[TE_DEBUG_RVA] = {"DebugRva", FW_FT_U32, 32, 0, FW_FF_HEX, NULL},
	[TE_DEBUG_SIZE] = {"DebugSize", FW_FT_U32, 36, 0, FW_FF_HEX, NULL},
};
const struct fw_layout fw_te_header_layout = FW_LAYOUT("TE header", FW_TE_HEADER_SIZE, te_fields);

/* --- image summaries ------------------------------------------------------------------------- */

#define HII_PACKAGE_FORMS 0x02
#define IFR_FORM_SET_OP 0x0E
#define IFR_FORM_SET_MIN 0x17 /* header 2, GUID 16, title 2, help 2, flags 1 */

bool fw_pe_probe(const uint8_t *b, size_t n)
{
	if (n < FW_DOS_HEADER_SIZE || fw_le16(b) != FW_DOS_MAGIC)
		return false;
	uint32_t lfanew = fw_le32(b + 0x3C);
	return lfanew <= n && n - lfanew >= FW_PE_HEADER_SIZE && fw_le32(b + lfanew) == FW_PE_SIGNATURE;
}

bool fw_te_probe(const uint8_t *b, size_t n)
{
	return n >= FW_TE_HEADER_SIZE && fw_le16(b) == FW_TE_SIGNATURE && b[4] != 0 && b[4] <= 96;
}

bool fw_hii_forms_present(const uint8_t *b, size_t n)
{
	/* EFI_HII_PACKAGE_HEADER {u24 Length, u8 Type = 2} then EFI_IFR_FORM_SET {u8 0x0E, u8 Length:7
	 * Scope:1, GUID, ...}; the FormSet length is 0x17 plus 16 per class GUID. */
	for (size_t i = 4; i + 2 <= n;) {
		const uint8_t *hit = memchr(b + i, IFR_FORM_SET_OP, n - i - 1);
		if (!hit)
			return false;
		i = (size_t)(hit - b);
		uint8_t len = b[i + 1] & 0x7F;
		if (b[i - 1] == HII_PACKAGE_FORMS && (b[i + 1] & 0x80) && len >= IFR_FORM_SET_MIN &&
		    (len - IFR_FORM_SET_MIN) % 16 == 0) {
			uint32_t pkg_len = fw_le24(b + i - 4);
			if (pkg_len >= 4u + len && pkg_len <= n - (i - 4))
				return true;
		}
		i++;
	}
	return false;
}

void fw_pe_summarize(struct fw_tree *t, struct fw_node *n, const struct fw_view *body)
{
	char at[48];
	fw_offset_str(body->base, at, sizeof(at));
	if (!fw_pe_probe(body->p, body->len)) {
		fw_node_diag(t, n, FW_DIAG_WARN, body->base, "PE image at %s: no MZ/PE header", at);
		return;
	}
	size_t pe = fw_le32(body->p + 0x3C);
	fw_layout_emit(t, n, &fw_pe_header_layout, body, pe);
	size_t opt = pe + FW_PE_HEADER_SIZE;
	uint16_t opt_size = (uint16_t)fw_layout_get(&fw_pe_header_layout, body, pe, PE_SIZE_OF_OPTIONAL_HEADER);
	uint16_t magic;
	if (opt_size < FW_PE32_OPTIONAL_SUMMARY || !fw_rd_u16(body, opt, &magic, NULL) ||
	    (magic != FW_PE32_MAGIC && magic != FW_PE64_MAGIC)) {
		fw_node_diag(t, n, FW_DIAG_WARN, body->base, "PE image at %s: no PE32/PE32+ optional header", at);
		return;
	}
	const struct fw_layout *l = magic == FW_PE32_MAGIC ? &fw_pe32_optional_layout : &fw_pe64_optional_layout;
	if (!fw_layout_check(l, body, opt, NULL)) {
		fw_node_diag(t, n, FW_DIAG_WARN, body->base, "PE image at %s: %s is truncated", at, l->name);
		return;
	}
	fw_node_field_str(t, n, "Format", magic == FW_PE32_MAGIC ? "PE32" : "PE32+");
	fw_layout_emit(t, n, l, body, opt);
	if (fw_hii_forms_present(body->p, body->len))
		n->flags |= FW_NODE_F_HAS_HII;
}

void fw_te_summarize(struct fw_tree *t, struct fw_node *n, const struct fw_view *body)
{
	char at[48];
	fw_offset_str(body->base, at, sizeof(at));
	if (!fw_te_probe(body->p, body->len)) {
		fw_node_diag(t, n, FW_DIAG_WARN, body->base, "TE image at %s: no VZ header", at);
		return;
	}
	fw_node_field_str(t, n, "Format", "TE");
	fw_layout_emit(t, n, &fw_te_header_layout, body, 0);
	if (fw_hii_forms_present(body->p, body->len))
		n->flags |= FW_NODE_F_HAS_HII;
}
