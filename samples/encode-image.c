/* The 32 MiB flash image and its ROM area map (layout after corpus/firmware/WRX90E-REBUILT.md):
 *
 *   0x0000000  AMD region: EFS at 0x20000, PSP and BIOS directories, blobs (amdfw.c)
 *   0x1000000  main volume (FFSv3) with the LZMA-compressed DXE volume
 *   0x1B40000  padding with the ASUS backup/recovery markers
 *   0x1BC0000  NVRAM backup area (erased)
 *   0x1BE0000  NVRAM volume
 *   0x1C00000  PEI volume, copy A (the BIOS directory's reset image)
 *   0x1E00000  PEI volume, copy B, ending at the 4 GiB boundary
 */
#include <stdlib.h>
#include <string.h>

#include "build.h"
#include "capsule/aptio.h"

#define IMAGE_SIZE 0x2000000u
#define MAIN_FV 0x1000000u
#define MAIN_FV_SIZE 0xB40000u
#define ASUS_PAD 0x1B40000u
#define NVRAM_BACKUP 0x1BC0000u
#define NVRAM_FV 0x1BE0000u
#define NVRAM_SIZE 0x20000u
#define PEI_A 0x1C00000u
#define PEI_B 0x1E00000u
#define PEI_SIZE 0x200000u
#define FLASH_BASE (0x100000000ull - IMAGE_SIZE)

void rom_map_add(struct rom_map *m, uint32_t offset, uint32_t size, uint32_t type, uint32_t attributes)
{
	SAMPLE_ASSERT(m->n < ARRAY_LEN(m->a));
	m->a[m->n++] = (struct rom_area){offset, size, type, attributes};
}

static void put(uint8_t *image, uint32_t offset, const uint8_t *data, size_t len, size_t room)
{
	SAMPLE_ASSERT(len == room && offset + len <= IMAGE_SIZE);
	memcpy(image + offset, data, len);
}

static int by_offset_desc(const void *a, const void *b)
{
	const struct rom_area *x = a, *y = b;
	return x->offset < y->offset ? 1 : x->offset > y->offset ? -1 : 0;
}

uint8_t *build_flash_image(struct variant *v, const struct sample_key *root, size_t *len, struct rom_map *map)
{
	uint8_t *image = fw_xmalloc(IMAGE_SIZE);
	memset(image, 0xFF, IMAGE_SIZE);
	memset(map, 0, sizeof(*map));
	size_t n;

	uint8_t *fv = build_main_volume(v, MAIN_FV_SIZE, &n);
	put(image, MAIN_FV, fv, n, MAIN_FV_SIZE);
	free(fv);
	rom_map_add(map, MAIN_FV, MAIN_FV_SIZE, FW_ROM_AREA_TYPE_FV, FW_ROM_AREA_FV_SIGNED | 0x008 /* FV_DXE */);

	/* ASUS keeps recovery and capsule-update markers in the padding above the main volume */
	memcpy(image + ASUS_PAD + 0x30000, "ASUSSCP$", 8);
	memcpy(image + ASUS_PAD + 0x34000, "ASUSBKP$", 8);
	rom_map_add(map, ASUS_PAD, 0x30000, FW_ROM_AREA_TYPE_RAW, 0);
	rom_map_add(map, ASUS_PAD + 0x30000, 0x10000, FW_ROM_AREA_TYPE_RAW, 0);
	rom_map_add(map, ASUS_PAD + 0x40000, 0x40000, FW_ROM_AREA_TYPE_RAW, 0);

	rom_map_add(map, NVRAM_BACKUP, NVRAM_SIZE, FW_ROM_AREA_TYPE_RAW, 0x6000);
	fv = build_nvram_volume(v, NVRAM_SIZE, &n);
	put(image, NVRAM_FV, fv, n, NVRAM_SIZE);
	free(fv);
	rom_map_add(map, NVRAM_FV, NVRAM_SIZE, FW_ROM_AREA_TYPE_FV, 0x6000); /* NVRAM: not signed */

	size_t fid, fid_size;
	for (uint32_t base = PEI_A; base <= PEI_B; base += PEI_SIZE) {
		/* each copy is linked at its own address in the 4 GiB-mapped flash */
		fv = build_pei_volume(v, root, FLASH_BASE + base, PEI_SIZE, &n, &fid, &fid_size);
		put(image, base, fv, n, PEI_SIZE);
		free(fv);
		/* the tail of $FID is left out of the signature (a field the flash tool may write) */
		rom_map_add(map, base, (uint32_t)fid, FW_ROM_AREA_TYPE_FV, 0x660A);
		rom_map_add(map, base + (uint32_t)fid, (uint32_t)fid_size, FW_ROM_AREA_TYPE_FV, 0x640A);
		rom_map_add(map, base + (uint32_t)(fid + fid_size), PEI_SIZE - (uint32_t)(fid + fid_size), FW_ROM_AREA_TYPE_FV,
			    0x660A);
	}

	build_amd_region(v, image, IMAGE_SIZE, PEI_A, PEI_SIZE, map);
	qsort(map->a, map->n, sizeof(map->a[0]), by_offset_desc);
	*len = IMAGE_SIZE;
	return image;
}
