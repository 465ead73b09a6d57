/* PE32+ and TE images for the sample modules, encoded with the layouts of parsers/pe.h. The code
 * bytes are filler; the headers, section table, relocation block and the HII resource are what a
 * real GenFw image carries (reference/ifr.md 1.2). */
#include "encoders.h"

#include <string.h>

#include "parsers/pe.h"

#define PE_ALIGN 0x100
#define PE_LFANEW 0x80

void fake_code(struct sbuf *b, const char *label, size_t n)
{
	struct srng r;
	srng_init(&r, sample_printf("code %s", label));
	size_t off = sb_put(b, NULL, n);
	srng_bytes(&r, sb_at(b, off), n);
	/* a recognisable prologue (sub rsp, 0x28) and return */
	if (n >= 6) {
		static const uint8_t prologue[4] = {0x48, 0x83, 0xEC, 0x28};
		memcpy(sb_at(b, off), prologue, 4);
		sb_at(b, off)[n - 1] = 0xC3;
	}
}

struct pe_sec {
	const char *name;
	const uint8_t *data;
	size_t len;
	uint32_t flags;
	uint32_t rva;
};

/* The resource tree GenFw writes: root (one named entry "HII") -> id 1 -> language 0x409 -> data. */
static void put_hii_resource(struct sbuf *b, uint32_t section_rva, const void *hii, size_t hii_len)
{
	size_t base = b->len;
	size_t d0 = sb_layout(b, &fw_pe_resource_dir_layout);
	fw_layout_put(&fw_pe_resource_dir_layout, sb_at(b, d0), PE_RES_DIR_NAMED_ENTRIES, 1);
	size_t e0 = sb_layout(b, &fw_pe_resource_entry_layout);
	size_t d1 = sb_layout(b, &fw_pe_resource_dir_layout);
	fw_layout_put(&fw_pe_resource_dir_layout, sb_at(b, d1), PE_RES_DIR_ID_ENTRIES, 1);
	size_t e1 = sb_layout(b, &fw_pe_resource_entry_layout);
	size_t d2 = sb_layout(b, &fw_pe_resource_dir_layout);
	fw_layout_put(&fw_pe_resource_dir_layout, sb_at(b, d2), PE_RES_DIR_ID_ENTRIES, 1);
	size_t e2 = sb_layout(b, &fw_pe_resource_entry_layout);
	size_t data = sb_layout(b, &fw_pe_resource_data_layout);
	size_t name = sb_put16(b, 3);
	sb_put(b, "H\0I\0I\0", 6);
	sb_align(b, 8, 0);
	size_t list = sb_put(b, hii, hii_len);

	fw_layout_put(&fw_pe_resource_entry_layout, sb_at(b, e0), PE_RES_ENTRY_NAME_OR_ID,
		      FW_PE_RESOURCE_NAME_IS_STRING | (name - base));
	fw_layout_put(&fw_pe_resource_entry_layout, sb_at(b, e0), PE_RES_ENTRY_OFFSET,
		      FW_PE_RESOURCE_DATA_IS_DIRECTORY | (d1 - base));
	fw_layout_put(&fw_pe_resource_entry_layout, sb_at(b, e1), PE_RES_ENTRY_NAME_OR_ID, 1);
	fw_layout_put(&fw_pe_resource_entry_layout, sb_at(b, e1), PE_RES_ENTRY_OFFSET,
		      FW_PE_RESOURCE_DATA_IS_DIRECTORY | (d2 - base));
	fw_layout_put(&fw_pe_resource_entry_layout, sb_at(b, e2), PE_RES_ENTRY_NAME_OR_ID, 0x409);
	fw_layout_put(&fw_pe_resource_entry_layout, sb_at(b, e2), PE_RES_ENTRY_OFFSET, data - base);
	fw_layout_put(&fw_pe_resource_data_layout, sb_at(b, data), PE_RES_DATA_RVA, section_rva + (list - base));
	fw_layout_put(&fw_pe_resource_data_layout, sb_at(b, data), PE_RES_DATA_SIZE, hii_len);
}

/* One base-relocation block with two padding entries, as an image without fixups still carries. */
static void put_reloc(struct sbuf *b, uint32_t page)
{
	sb_put32(b, page);
	sb_put32(b, 12);
	sb_put16(b, 0);
	sb_put16(b, 0);
}

uint8_t *pe_build(uint16_t subsystem, const void *text, size_t text_len, const void *data, size_t data_len,
		  const void *hii, size_t hii_len, size_t *out_len)
{
	struct pe_sec secs[4];
	size_t nsec = 0;
	secs[nsec++] = (struct pe_sec){".text", text, text_len,
				       FW_PE_SCN_CODE | FW_PE_SCN_MEM_EXECUTE | FW_PE_SCN_MEM_READ, 0};
	secs[nsec++] = (struct pe_sec){".data", data, data_len,
				       FW_PE_SCN_INITIALIZED_DATA | FW_PE_SCN_MEM_READ | FW_PE_SCN_MEM_WRITE, 0};
	size_t rsrc_index = 0, reloc_index;
	if (hii) {
		rsrc_index = nsec;
		secs[nsec++] = (struct pe_sec){".rsrc", NULL, 0, FW_PE_SCN_INITIALIZED_DATA | FW_PE_SCN_MEM_READ, 0};
	}
	reloc_index = nsec;
	secs[nsec++] = (struct pe_sec){".reloc", NULL, 12,
				       FW_PE_SCN_INITIALIZED_DATA | FW_PE_SCN_DISCARDABLE | FW_PE_SCN_MEM_READ, 0};

	size_t opt_size = FW_PE64_OPTIONAL_FIXED + FW_PE_DIR_COUNT * FW_PE_DATA_DIR_SIZE;
	size_t headers = align_up(PE_LFANEW + FW_PE_HEADER_SIZE + opt_size + nsec * FW_PE_SECTION_SIZE, PE_ALIGN);

	struct sbuf b = {0};
	sb_put(&b, NULL, headers);
	uint8_t *p = b.p;
	fw_layout_put(&fw_dos_header_layout, p, DOS_MAGIC, FW_DOS_MAGIC);
	fw_layout_put(&fw_dos_header_layout, p, DOS_LFANEW, PE_LFANEW);

	/* section bodies; RVA == file offset */
	struct sbuf rsrc = {0};
	for (size_t i = 0; i < nsec; i++) {
		sb_align(&b, PE_ALIGN, 0);
		secs[i].rva = (uint32_t)b.len;
		if (hii && i == rsrc_index) {
			put_hii_resource(&rsrc, secs[i].rva, hii, hii_len);
			secs[i].data = rsrc.p;
			secs[i].len = rsrc.len;
			sb_put(&b, rsrc.p, rsrc.len);
		} else if (i == reloc_index) {
			put_reloc(&b, secs[0].rva);
		} else {
			sb_put(&b, secs[i].data, secs[i].len);
		}
	}
	sb_align(&b, PE_ALIGN, 0);
	size_t image_size = b.len;
	p = b.p;

	uint8_t *nt = p + PE_LFANEW;
	fw_layout_put(&fw_pe_header_layout, nt, PE_SIGNATURE, FW_PE_SIGNATURE);
	fw_layout_put(&fw_pe_header_layout, nt, PE_MACHINE, FW_PE_MACHINE_X64);
	fw_layout_put(&fw_pe_header_layout, nt, PE_NUMBER_OF_SECTIONS, nsec);
	fw_layout_put(&fw_pe_header_layout, nt, PE_SIZE_OF_OPTIONAL_HEADER, opt_size);
	fw_layout_put(&fw_pe_header_layout, nt, PE_CHARACTERISTICS,
		      FW_PE_CHAR_EXECUTABLE | FW_PE_CHAR_LARGE_ADDRESS_AWARE | FW_PE_CHAR_DLL);

	uint8_t *o = nt + FW_PE_HEADER_SIZE;
	const struct fw_layout *ol = &fw_pe64_optional_layout;
	fw_layout_put(ol, o, PE64_MAGIC, FW_PE64_MAGIC);
	fw_layout_put(ol, o, PE64_LINKER_MAJOR, 14);
	fw_layout_put(ol, o, PE64_SIZE_OF_CODE, align_up(text_len, PE_ALIGN));
	fw_layout_put(ol, o, PE64_SIZE_OF_INITIALIZED_DATA, image_size - headers - align_up(text_len, PE_ALIGN));
	fw_layout_put(ol, o, PE64_ENTRY_POINT, secs[0].rva + (text_len > 16 ? 16 : 0));
	fw_layout_put(ol, o, PE64_BASE_OF_CODE, secs[0].rva);
	fw_layout_put(ol, o, PE64_SECTION_ALIGNMENT, PE_ALIGN);
	fw_layout_put(ol, o, PE64_FILE_ALIGNMENT, PE_ALIGN);
	fw_layout_put(ol, o, PE64_SIZE_OF_IMAGE, image_size);
	fw_layout_put(ol, o, PE64_SIZE_OF_HEADERS, headers);
	fw_layout_put(ol, o, PE64_SUBSYSTEM, subsystem);
	fw_layout_put(ol, o, PE64_NUMBER_OF_RVA_AND_SIZES, FW_PE_DIR_COUNT);
	uint8_t *dirs = o + FW_PE64_OPTIONAL_FIXED;
	if (hii) {
		uint8_t *d = dirs + FW_PE_DIR_RESOURCE * FW_PE_DATA_DIR_SIZE;
		fw_layout_put(&fw_pe_data_dir_layout, d, PE_DIR_RVA, secs[rsrc_index].rva);
		fw_layout_put(&fw_pe_data_dir_layout, d, PE_DIR_SIZE, secs[rsrc_index].len);
	}
	uint8_t *d = dirs + FW_PE_DIR_BASERELOC * FW_PE_DATA_DIR_SIZE;
	fw_layout_put(&fw_pe_data_dir_layout, d, PE_DIR_RVA, secs[reloc_index].rva);
	fw_layout_put(&fw_pe_data_dir_layout, d, PE_DIR_SIZE, secs[reloc_index].len);

	uint8_t *sh = o + opt_size;
	for (size_t i = 0; i < nsec; i++, sh += FW_PE_SECTION_SIZE) {
		fw_layout_put_bytes(&fw_pe_section_layout, sh, PE_SEC_NAME, secs[i].name, strlen(secs[i].name));
		fw_layout_put(&fw_pe_section_layout, sh, PE_SEC_VIRTUAL_SIZE, secs[i].len);
		fw_layout_put(&fw_pe_section_layout, sh, PE_SEC_VIRTUAL_ADDRESS, secs[i].rva);
		fw_layout_put(&fw_pe_section_layout, sh, PE_SEC_RAW_SIZE, align_up(secs[i].len, PE_ALIGN));
		fw_layout_put(&fw_pe_section_layout, sh, PE_SEC_RAW_POINTER, secs[i].rva);
		fw_layout_put(&fw_pe_section_layout, sh, PE_SEC_CHARACTERISTICS, secs[i].flags);
	}
	sb_free(&rsrc);
	return sb_take(&b, out_len);
}

uint8_t *te_build(const void *text, size_t text_len, const void *data, size_t data_len, uint64_t image_base,
		  size_t *out_len)
{
	/* The stripped PE headers: DOS header, NT headers and a PE32+ optional header. */
	const size_t nsec = 3;
	size_t opt_size = FW_PE64_OPTIONAL_FIXED + FW_PE_DIR_COUNT * FW_PE_DATA_DIR_SIZE;
	size_t stripped = PE_LFANEW + FW_PE_HEADER_SIZE + opt_size;
	size_t te_headers = FW_TE_HEADER_SIZE + nsec * FW_PE_SECTION_SIZE;
	/* file offset = RVA - stripped + 40, so RVAs start at least at stripped - 40 + te_headers */
	size_t rva_text = align_up(stripped - FW_TE_HEADER_SIZE + te_headers, 0x20);
	size_t off_text = rva_text - stripped + FW_TE_HEADER_SIZE;
	size_t rva_data = align_up(rva_text + text_len, 0x20);
	size_t rva_reloc = align_up(rva_data + data_len, 0x20);

	struct sbuf b = {0};
	sb_put(&b, NULL, off_text);
	uint8_t *t = b.p;
	fw_layout_put(&fw_te_header_layout, t, TE_SIGNATURE, FW_TE_SIGNATURE);
	fw_layout_put(&fw_te_header_layout, t, TE_MACHINE, FW_PE_MACHINE_X64);
	fw_layout_put(&fw_te_header_layout, t, TE_NUMBER_OF_SECTIONS, nsec);
	fw_layout_put(&fw_te_header_layout, t, TE_SUBSYSTEM, FW_PE_SUBSYSTEM_EFI_BOOT_SERVICE_DRIVER);
	fw_layout_put(&fw_te_header_layout, t, TE_STRIPPED_SIZE, stripped);
	fw_layout_put(&fw_te_header_layout, t, TE_ENTRY_POINT, rva_text);
	fw_layout_put(&fw_te_header_layout, t, TE_BASE_OF_CODE, rva_text);
	fw_layout_put(&fw_te_header_layout, t, TE_IMAGE_BASE, image_base);
	fw_layout_put(&fw_te_header_layout, t, TE_RELOC_RVA, rva_reloc);
	fw_layout_put(&fw_te_header_layout, t, TE_RELOC_SIZE, 12);

	struct { const char *name; size_t rva, len; uint32_t flags; } secs[3] = {
		{".text", rva_text, text_len, FW_PE_SCN_CODE | FW_PE_SCN_MEM_EXECUTE | FW_PE_SCN_MEM_READ},
		{".data", rva_data, data_len, FW_PE_SCN_INITIALIZED_DATA | FW_PE_SCN_MEM_READ | FW_PE_SCN_MEM_WRITE},
		{".reloc", rva_reloc, 12, FW_PE_SCN_INITIALIZED_DATA | FW_PE_SCN_DISCARDABLE | FW_PE_SCN_MEM_READ},
	};
	for (size_t i = 0; i < nsec; i++) {
		uint8_t *sh = b.p + FW_TE_HEADER_SIZE + i * FW_PE_SECTION_SIZE;
		size_t file_off = secs[i].rva - stripped + FW_TE_HEADER_SIZE;
		fw_layout_put_bytes(&fw_pe_section_layout, sh, PE_SEC_NAME, secs[i].name, strlen(secs[i].name));
		fw_layout_put(&fw_pe_section_layout, sh, PE_SEC_VIRTUAL_SIZE, secs[i].len);
		fw_layout_put(&fw_pe_section_layout, sh, PE_SEC_VIRTUAL_ADDRESS, secs[i].rva);
		fw_layout_put(&fw_pe_section_layout, sh, PE_SEC_RAW_SIZE, secs[i].len);
		fw_layout_put(&fw_pe_section_layout, sh, PE_SEC_RAW_POINTER, file_off);
		fw_layout_put(&fw_pe_section_layout, sh, PE_SEC_CHARACTERISTICS, secs[i].flags);
	}
	sb_put(&b, text, text_len);
	sb_fill(&b, 0, rva_data - rva_text - text_len);
	sb_put(&b, data, data_len);
	sb_fill(&b, 0, rva_reloc - rva_data - data_len);
	put_reloc(&b, (uint32_t)rva_text);
	return sb_take(&b, out_len);
}
