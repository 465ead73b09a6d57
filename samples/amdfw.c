/* The AMD region of the sample flash: the Embedded Firmware Structure at 0x20000, combo
 * directories pointing at level-1 PSP and BIOS directories, their level-2 directories, and the
 * blobs they list (reference/formats.md 2; layouts of capsule/amd-psp.h, amd-apcb.h,
 * amd-microcode.h). Blob bodies are filler; their headers, sizes, versions, the compressed BIOS
 * entry and every directory checksum (Fletcher-32) are what a decoder checks.
 *
 * Addresses are flash offsets (directory address mode 1), as PSPTool and fiano read them on a
 * 32 MiB part. */
#include <stdlib.h>
#include <string.h>

#include "build.h"
#include "capsule/amd-apcb.h"
#include "capsule/amd-microcode.h"
#include "capsule/amd-psp.h"
#include "encoders.h"
#include "parsers/hash.h"
#include "parsers/view.h"

#define EFS_OFFSET 0x20000u
#define COMBO_PSP 0x21000u
#define COMBO_BHD 0x22000u
#define PSP_L1 0x23000u
#define BHD_L1 0x24000u
#define PSP_L2 0x30000u
#define BHD_L2 0x31000u
#define BLOBS 0x40000u
#define REGION_END 0x1000000u
#define TURIN_PSP_ID 0xBC0D0300u /* PSPTool ZEN_GENERATION_IDS: Zen 4/5 "03 0D BC" */
#define ADDRESS_MODE_FLASH (1u << 29)

struct amd_region {
	uint8_t *image;
	uint32_t next; /* next free blob offset */
	struct srng r;
};

static uint32_t place(struct amd_region *a, const void *data, size_t n)
{
	uint32_t off = (uint32_t)align_up(a->next, 0x1000);
	if (off + n > REGION_END)
		sample_die("AMD region overflow");
	memcpy(a->image + off, data, n);
	a->next = (uint32_t)(off + n);
	return off;
}

/* A PSP firmware blob: 0x100-byte header, body, 512-byte signature (filler). */
static uint32_t psp_blob(struct amd_region *a, uint8_t fw_type, size_t body_len, const uint8_t version[4], const void *body,
			 uint32_t *size)
{
	struct sbuf b = {0};
	size_t h = sb_put(&b, NULL, FW_AMD_PSP_BLOB_HEADER_SIZE);
	if (body)
		sb_put(&b, body, body_len);
	else {
		size_t o = sb_put(&b, NULL, body_len);
		srng_bytes(&a->r, sb_at(&b, o), body_len);
	}
	size_t sig = sb_put(&b, NULL, 512);
	srng_bytes(&a->r, sb_at(&b, sig), 512);
	uint8_t *p = sb_at(&b, h);
	const struct fw_layout *l = &fw_amd_psp_blob_layout;
	srng_bytes(&a->r, p, 16); /* nonce */
	fw_layout_put_bytes(l, p, PSPHDR_MAGIC, "$PS1", 4);
	fw_layout_put(l, p, PSPHDR_SIZE_SIGNED, body_len);
	fw_layout_put(l, p, PSPHDR_SIG_OPT, 1);
	uint8_t key_id[16];
	srng_bytes(&a->r, key_id, sizeof(key_id));
	fw_layout_put_bytes(l, p, PSPHDR_SIG_ID, key_id, sizeof(key_id));
	fw_layout_put_bytes(l, p, PSPHDR_VERSION, version, 4);
	fw_layout_put(l, p, PSPHDR_SIZE_TOTAL, b.len);
	fw_layout_put(l, p, PSPHDR_FW_TYPE, fw_type);
	*size = (uint32_t)b.len;
	uint32_t off = place(a, b.p, b.len);
	sb_free(&b);
	return off;
}

/* A zlib-compressed blob as compressed BIOS entries carry it: header with the sizes, stream at 0x100. */
static uint32_t compressed_blob(struct amd_region *a, uint8_t fw_type, size_t plain_len, const uint8_t version[4],
				uint32_t *size)
{
	uint8_t *plain = fw_xmalloc(plain_len);
	/* PHY firmware: tables with much repetition, so it compresses as real blobs do */
	for (size_t i = 0; i < plain_len; i++)
		plain[i] = (uint8_t)((i % 64) < 48 ? (i / 64) & 0x3F : srng_below(&a->r, 256));
	size_t zlen;
	uint8_t *z = zlib_compress(plain, plain_len, &zlen);
	struct sbuf b = {0};
	size_t h = sb_put(&b, NULL, FW_AMD_PSP_BLOB_HEADER_SIZE);
	sb_put(&b, z, zlen);
	uint8_t *p = sb_at(&b, h);
	const struct fw_layout *l = &fw_amd_psp_blob_layout;
	fw_layout_put_bytes(l, p, PSPHDR_MAGIC, "$PS1", 4);
	fw_layout_put(l, p, PSPHDR_SIZE_SIGNED, plain_len);
	fw_layout_put(l, p, PSPHDR_COMP_OPT, 1);
	fw_layout_put(l, p, PSPHDR_UNCOMP_SIZE, plain_len);
	fw_layout_put(l, p, PSPHDR_COMP_SIZE, zlen);
	fw_layout_put_bytes(l, p, PSPHDR_VERSION, version, 4);
	fw_layout_put(l, p, PSPHDR_SIZE_TOTAL, b.len);
	fw_layout_put(l, p, PSPHDR_FW_TYPE, fw_type);
	*size = (uint32_t)b.len;
	uint32_t off = place(a, b.p, b.len);
	sb_free(&b);
	free(z);
	free(plain);
	return off;
}

static uint32_t apcb_blob(struct amd_region *a, uint32_t instance, size_t len, uint32_t *size)
{
	uint8_t *p = fw_xcalloc(len, 1);
	const struct fw_layout *l = &fw_amd_apcb_layout;
	fw_layout_put_bytes(l, p, APCB_SIGNATURE, "APCB", 4);
	fw_layout_put(l, p, APCB_HEADER_SIZE, FW_AMD_APCB_V3_HEADER_SIZE);
	fw_layout_put(l, p, APCB_VERSION, FW_AMD_APCB_VERSION);
	fw_layout_put(l, p, APCB_SIZE, len);
	fw_layout_put(l, p, APCB_UNIQUE_INSTANCE, instance);
	fw_layout_put_bytes(l, p, APCB_V3_SIGNATURE, "ECB2", 4);
	fw_layout_put_bytes(l, p, APCB_V3_SIGNATURE_ENDING, "BCPA", 4);
	srng_bytes(&a->r, p + FW_AMD_APCB_V3_HEADER_SIZE, len - FW_AMD_APCB_V3_HEADER_SIZE);
	fw_layout_put(l, p, APCB_CHECKSUM, 0);
	fw_layout_put(l, p, APCB_CHECKSUM, (uint8_t)(0x100 - fw_sum8(p, len)));
	*size = (uint32_t)len;
	uint32_t off = place(a, p, len);
	free(p);
	return off;
}

static uint32_t microcode_blob(struct amd_region *a, uint32_t patch, uint16_t rev_id, uint32_t date, uint32_t *size)
{
	size_t len = 0x3800;
	uint8_t *p = fw_xcalloc(len, 1);
	const struct fw_layout *l = &fw_amd_microcode_layout;
	fw_layout_put(l, p, UCODE_DATE, date);
	fw_layout_put(l, p, UCODE_PATCH_ID, patch);
	fw_layout_put(l, p, UCODE_DATA_ID, 0x8005);
	fw_layout_put(l, p, UCODE_PROCESSOR_REV_ID, rev_id);
	fw_layout_put(l, p, UCODE_BIOS_API_REV, 0);
	srng_bytes(&a->r, p + FW_AMD_MICROCODE_HEADER_SIZE, len - FW_AMD_MICROCODE_HEADER_SIZE);
	*size = (uint32_t)len;
	uint32_t off = place(a, p, len);
	free(p);
	return off;
}

/* ---- directories ---- */

struct dir {
	uint32_t cookie, offset;
	size_t n;
	uint8_t entries[32][24];
};

static void psp_entry(struct dir *d, uint8_t type, uint8_t subprog, uint16_t flags, uint32_t size, uint64_t addr)
{
	SAMPLE_ASSERT(d->n < ARRAY_LEN(d->entries));
	uint8_t *e = d->entries[d->n++];
	const struct fw_layout *l = &fw_amd_psp_entry_layout;
	fw_layout_put(l, e, PSP_ENTRY_TYPE, type);
	fw_layout_put(l, e, PSP_ENTRY_SUBPROG, subprog);
	fw_layout_put(l, e, PSP_ENTRY_FLAGS, flags);
	fw_layout_put(l, e, PSP_ENTRY_SIZE, size);
	fw_layout_put(l, e, PSP_ENTRY_ADDRESS, addr);
}

static void bios_entry(struct dir *d, uint8_t type, uint8_t region, uint16_t flags, uint32_t size, uint64_t source,
		       uint64_t destination)
{
	SAMPLE_ASSERT(d->n < ARRAY_LEN(d->entries));
	uint8_t *e = d->entries[d->n++];
	const struct fw_layout *l = &fw_amd_bios_entry_layout;
	fw_layout_put(l, e, BIOS_ENTRY_TYPE, type);
	fw_layout_put(l, e, BIOS_ENTRY_REGION_TYPE, region);
	fw_layout_put(l, e, BIOS_ENTRY_FLAGS, flags);
	fw_layout_put(l, e, BIOS_ENTRY_SIZE, size);
	fw_layout_put(l, e, BIOS_ENTRY_SOURCE, source);
	fw_layout_put(l, e, BIOS_ENTRY_DESTINATION, destination);
}

/* Cookies are declared as 4 characters; the constants hold them as little-endian words. */
static void put_cookie(const struct fw_layout *l, uint8_t *p, unsigned idx, uint32_t cookie)
{
	uint8_t b[4];
	fw_put_le32(b, cookie);
	fw_layout_put_bytes(l, p, idx, b, 4);
}

static void write_dir(uint8_t *image, const struct dir *d, size_t entry_size)
{
	uint8_t *p = image + d->offset;
	const struct fw_layout *l = &fw_amd_dir_layout;
	memset(p, 0, FW_AMD_DIR_HEADER_SIZE + d->n * entry_size);
	put_cookie(l, p, DIR_COOKIE, d->cookie);
	fw_layout_put(l, p, DIR_NUM_ENTRIES, d->n);
	/* dir_size in 4 KiB units (bits 0-9), SPI block 64 KiB (bits 10-13), base address (bits 14-28) */
	uint32_t info = 1u | (4u << 10) | (((d->offset >> 12) & 0x7FFFu) << 14) | ADDRESS_MODE_FLASH;
	fw_layout_put(l, p, DIR_ADDITIONAL_INFO, info);
	for (size_t i = 0; i < d->n; i++)
		memcpy(p + FW_AMD_DIR_HEADER_SIZE + i * entry_size, d->entries[i], entry_size);
	size_t end = FW_AMD_DIR_HEADER_SIZE + d->n * entry_size;
	fw_layout_put(l, p, DIR_CHECKSUM, fw_fletcher32(p + FW_AMD_DIR_CHECKSUM_START, end - FW_AMD_DIR_CHECKSUM_START));
}

static void write_combo(uint8_t *image, uint32_t offset, uint32_t cookie, uint32_t target)
{
	uint8_t *p = image + offset;
	memset(p, 0, FW_AMD_COMBO_HEADER_SIZE + FW_AMD_COMBO_ENTRY_SIZE);
	const struct fw_layout *l = &fw_amd_combo_layout;
	put_cookie(l, p, COMBO_COOKIE, cookie);
	fw_layout_put(l, p, COMBO_NUM_ENTRIES, 1);
	fw_layout_put(l, p, COMBO_LOOKUP, 0);
	uint8_t *e = p + FW_AMD_COMBO_HEADER_SIZE;
	fw_layout_put(&fw_amd_combo_entry_layout, e, COMBO_ENTRY_ID_SEL, 0);
	fw_layout_put(&fw_amd_combo_entry_layout, e, COMBO_ENTRY_ID, TURIN_PSP_ID);
	fw_layout_put(&fw_amd_combo_entry_layout, e, COMBO_ENTRY_L2_ADDRESS, target);
	size_t end = FW_AMD_COMBO_HEADER_SIZE + FW_AMD_COMBO_ENTRY_SIZE;
	fw_layout_put(l, p, COMBO_CHECKSUM, fw_fletcher32(p + FW_AMD_DIR_CHECKSUM_START, end - FW_AMD_DIR_CHECKSUM_START));
}

void build_amd_region(struct variant *v, uint8_t *image, size_t image_size, uint32_t bios_image_offset,
		      uint32_t bios_image_size, struct rom_map *map)
{
	SAMPLE_ASSERT(image_size >= REGION_END);
	struct amd_region a = {image, BLOBS, {{0}, 0, {0}, 0}};
	srng_init(&a.r, sample_printf("amd region %d", v->version));

	/* versions of the firmware the PSP loads; the SEV firmware version is what ccp reports */
	const uint8_t ver_psp[4] = {(uint8_t)(v->version >= 1201 ? 0x2A : 0x23), 0x00, 0x1C, 0x00};
	const uint8_t ver_smu[4] = {0x00, (uint8_t)(v->version >= 1201 ? 0x52 : 0x4E), 0x60, 0x00};
	const uint8_t ver_sev[4] = {v->sev_build, v->sev_api_minor, v->sev_api_major, 0x00};
	const uint8_t ver_abl[4] = {(uint8_t)(v->version >= 1201 ? 0x06 : 0x04), 0x00, 0x00, 0x01};
	uint32_t size;

	uint32_t pubkey = psp_blob(&a, 0x00, 0x240 - 0x100 - 512 + 0x200, ver_psp, NULL, &size);
	uint32_t pubkey_size = size;
	uint32_t bl = psp_blob(&a, 0x01, 0xC000, ver_psp, NULL, &size);
	uint32_t bl_size = size;
	uint32_t rbl = psp_blob(&a, 0x03, 0xB000, ver_psp, NULL, &size);
	uint32_t rbl_size = size;
	uint32_t tos = psp_blob(&a, 0x02, 0x30000, ver_psp, NULL, &size);
	uint32_t tos_size = size;
	uint32_t smu = psp_blob(&a, 0x08, 0x40000, ver_smu, NULL, &size);
	uint32_t smu_size = size;
	uint32_t smu2 = psp_blob(&a, 0x12, 0x20000, ver_smu, NULL, &size);
	uint32_t smu2_size = size;
	struct sbuf abl_body = {0};
	sb_fill(&abl_body, 0, 0x100);
	sb_put(&abl_body, "AGESA!V9", 9);
	sb_put_ascii(&abl_body, v->agesa);
	sb_fill(&abl_body, 0, 0x8000 - abl_body.len);
	uint32_t abl0 = psp_blob(&a, 0x30, abl_body.len, ver_abl, abl_body.p, &size);
	uint32_t abl0_size = size;
	sb_free(&abl_body);
	uint32_t abl1 = psp_blob(&a, 0x31, 0x18000, ver_abl, NULL, &size);
	uint32_t abl1_size = size;
	uint32_t sev_data = psp_blob(&a, 0x38, 0x2000, ver_sev, NULL, &size);
	uint32_t sev_data_size = size;
	uint32_t sev_code = psp_blob(&a, 0x39, 0x3C000, ver_sev, NULL, &size);
	uint32_t sev_code_size = size;
	uint32_t dxio = psp_blob(&a, 0x42, 0x10000, ver_psp, NULL, &size);
	uint32_t dxio_size = size;
	uint32_t mpio = psp_blob(&a, 0x5D, 0x28000, ver_psp, NULL, &size);
	uint32_t mpio_size = size;
	uint32_t spl = psp_blob(&a, 0x55, 0x300, ver_psp, NULL, &size);
	uint32_t spl_size = size;

	uint32_t apcb0 = apcb_blob(&a, 0, 0x2000, &size);
	uint32_t apcb_size = size;
	uint32_t apcb1 = apcb_blob(&a, 1, 0x2000, &size);
	uint32_t apcb_bk = apcb_blob(&a, 0x10, 0x2000, &size);
	uint32_t pmu_code = compressed_blob(&a, 0x64, 0x10000, ver_abl, &size);
	uint32_t pmu_code_size = size;
	uint32_t pmu_data = psp_blob(&a, 0x65, 0x4000, ver_abl, NULL, &size);
	uint32_t pmu_data_size = size;
	uint32_t ucode_b0 = microcode_blob(&a, v->ucode_patch, 0xB021, v->version >= 1201 ? 0x20250709 : 0x20250214, &size);
	uint32_t ucode_size = size;
	uint32_t ucode_c1 = microcode_blob(&a, v->ucode_patch + 0x100, 0xB022, v->version >= 1201 ? 0x20250709 : 0x20250214,
					   &size);
	/* APOB NV: an erased 64 KiB block the ABL writes at boot */
	uint8_t *erased = fw_xmalloc(0x10000);
	memset(erased, 0xFF, 0x10000);
	uint32_t apob_nv = place(&a, erased, 0x10000);
	free(erased);

	/* EFS */
	uint8_t *efs = image + EFS_OFFSET;
	memset(efs, 0xFF, FW_AMD_EFS_SIZE);
	const struct fw_layout *l = &fw_amd_efs_layout;
	fw_layout_put(l, efs, EFS_SIGNATURE, FW_AMD_EFS_SIGNATURE);
	fw_layout_put(l, efs, EFS_IMC, 0);
	fw_layout_put(l, efs, EFS_GEC, 0);
	fw_layout_put(l, efs, EFS_XHCI, 0);
	fw_layout_put(l, efs, EFS_NEW_PSP_DIRECTORY, COMBO_PSP);
	fw_layout_put(l, efs, EFS_GEN, 0xFFFFFFFEu); /* bit 0 clear: second-generation EFS */
	fw_layout_put(l, efs, EFS_BIOS3, COMBO_BHD);

	write_combo(image, COMBO_PSP, FW_AMD_COOKIE_2PSP, PSP_L1);
	write_combo(image, COMBO_BHD, FW_AMD_COOKIE_2BHD, BHD_L1);

	struct dir psp1 = {FW_AMD_COOKIE_PSP, PSP_L1, 0, {{0}}};
	psp_entry(&psp1, 0x00, 0, 0, pubkey_size, pubkey);
	psp_entry(&psp1, 0x01, 0, 0, bl_size, bl);
	psp_entry(&psp1, 0x03, 0, 0, rbl_size, rbl);
	psp_entry(&psp1, 0x0B, 0, 0, 0xFFFFFFFFu, 0x1); /* soft fuse chain: value inline */
	psp_entry(&psp1, 0x40, 0, 0, 0x1000, PSP_L2);
	write_dir(image, &psp1, FW_AMD_PSP_ENTRY_SIZE);

	struct dir psp2 = {FW_AMD_COOKIE_PL2, PSP_L2, 0, {{0}}};
	psp_entry(&psp2, 0x00, 0, 0, pubkey_size, pubkey);
	psp_entry(&psp2, 0x01, 0, 0, bl_size, bl);
	psp_entry(&psp2, 0x02, 0, 0, tos_size, tos);
	psp_entry(&psp2, 0x08, 0, 0, smu_size, smu);
	psp_entry(&psp2, 0x12, 0, 0, smu2_size, smu2);
	psp_entry(&psp2, 0x30, 0, 0, abl0_size, abl0);
	psp_entry(&psp2, 0x31, 0, 0, abl1_size, abl1);
	psp_entry(&psp2, 0x38, 0, 0, sev_data_size, sev_data);
	psp_entry(&psp2, 0x39, 0, 0, sev_code_size, sev_code);
	psp_entry(&psp2, 0x42, 0, 0, dxio_size, dxio);
	psp_entry(&psp2, 0x55, 0, 0, spl_size, spl);
	psp_entry(&psp2, 0x5D, 0, 0, mpio_size, mpio);
	psp_entry(&psp2, 0x0B, 0, 0, 0xFFFFFFFFu, 0x1);
	write_dir(image, &psp2, FW_AMD_PSP_ENTRY_SIZE);

	/* BIOS directories: the reset image is the PEI volume at the top of the flash, copied to DRAM */
	const uint64_t bios_dest = 0x76C00000u, apob_dest = 0x75000000u;
	uint16_t reset_copy = FW_AMD_BIOS_FLAG_RESET | FW_AMD_BIOS_FLAG_COPY;
	struct dir bhd1 = {FW_AMD_COOKIE_BHD, BHD_L1, 0, {{0}}};
	bios_entry(&bhd1, 0x60, 0, 0, apcb_size, apcb0, 0xFFFFFFFFFFFFFFFFull);
	bios_entry(&bhd1, 0x68, 0, 0, apcb_size, apcb_bk, 0xFFFFFFFFFFFFFFFFull);
	bios_entry(&bhd1, 0x61, 0, 0, 0, 0, apob_dest);
	bios_entry(&bhd1, 0x62, 0, reset_copy, bios_image_size, bios_image_offset, bios_dest);
	bios_entry(&bhd1, 0x70, 0, 0, 0x1000, BHD_L2, 0xFFFFFFFFFFFFFFFFull);
	write_dir(image, &bhd1, FW_AMD_BIOS_ENTRY_SIZE);

	struct dir bhd2 = {FW_AMD_COOKIE_BL2, BHD_L2, 0, {{0}}};
	bios_entry(&bhd2, 0x60, 0, 0, apcb_size, apcb0, 0xFFFFFFFFFFFFFFFFull);
	bios_entry(&bhd2, 0x60, 0, 1u << 4, apcb_size, apcb1, 0xFFFFFFFFFFFFFFFFull); /* instance 1 */
	bios_entry(&bhd2, 0x68, 0, 0, apcb_size, apcb_bk, 0xFFFFFFFFFFFFFFFFull);
	bios_entry(&bhd2, 0x61, 0, 0, 0, 0, apob_dest);
	bios_entry(&bhd2, 0x62, 0, reset_copy, bios_image_size, bios_image_offset, bios_dest);
	bios_entry(&bhd2, 0x63, 0, 0, 0x10000, apob_nv, 0xFFFFFFFFFFFFFFFFull);
	bios_entry(&bhd2, 0x64, 0, FW_AMD_BIOS_FLAG_COMPRESSED | (1u << 4), pmu_code_size, pmu_code, 0xFFFFFFFFFFFFFFFFull);
	bios_entry(&bhd2, 0x65, 0, 1u << 4, pmu_data_size, pmu_data, 0xFFFFFFFFFFFFFFFFull);
	bios_entry(&bhd2, 0x66, 0, 0, ucode_size, ucode_b0, 0xFFFFFFFFFFFFFFFFull);
	bios_entry(&bhd2, 0x66, 0, 1u << 4, ucode_size, ucode_c1, 0xFFFFFFFFFFFFFFFFull);
	write_dir(image, &bhd2, FW_AMD_BIOS_ENTRY_SIZE);

	/* ROM areas: the first 128 KiB and the EFS block unsigned, the rest of the AMD region signed */
	rom_map_add(map, 0, EFS_OFFSET, 1, 0);
	rom_map_add(map, EFS_OFFSET, 0x1000, 1, 0);
	rom_map_add(map, EFS_OFFSET + 0x1000, REGION_END - EFS_OFFSET - 0x1000, 1, 0x6200);
}
