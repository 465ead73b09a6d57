/* AMD flash layout: images built here with an EFS, PSP and BIOS directories of both levels,
 * combo directories, the address modes, compressed entries, and the broken cases (bad checksum,
 * entries outside the image, loops, 32 MiB windows). */
#include <stdio.h>
#include <stdlib.h>
#include <zlib.h>

#include "capsule/amd-apcb.h"
#include "capsule/amd-flash.h"
#include "capsule/amd-microcode.h"
#include "capsule/amd-psp.h"
#include "capsule/detect.h"
#include "capsule/version.h"
#include "harness.h"
#include "parsers/hash.h"
#include "tools/query/source.h"

#define MIB ((size_t)1 << 20)

struct img {
	uint8_t *p;
	size_t len;
};

static struct img img_new(size_t len)
{
	struct img m = {malloc(len), len};
	memset(m.p, 0xFF, len);
	return m;
}

/* 4 GiB - len + off: how a <= 16 MiB flash appears to the x86 side */
static uint32_t phys(const struct img *m, size_t off)
{
	return (uint32_t)(((uint64_t)1 << 32) - m->len + off);
}

static void efs(struct img *m, size_t off, uint32_t psp, uint32_t bios3)
{
	memset(m->p + off, 0xFF, FW_AMD_EFS_SIZE);
	fw_layout_put(&fw_amd_efs_layout, m->p + off, EFS_SIGNATURE, FW_AMD_EFS_SIGNATURE);
	fw_layout_put(&fw_amd_efs_layout, m->p + off, EFS_NEW_PSP_DIRECTORY, psp);
	fw_layout_put(&fw_amd_efs_layout, m->p + off, EFS_BIOS3, bios3);
	fw_layout_put(&fw_amd_efs_layout, m->p + off, EFS_GEN, 0xFFFFFFFE); /* second generation */
}

struct ent {
	uint8_t type, sub;
	uint16_t flags;
	uint32_t size;
	uint64_t addr;
	uint64_t dest;
};

/* A PSP or BIOS directory with a correct Fletcher-32 checksum. */
static void dir(struct img *m, size_t off, uint32_t cookie, uint32_t info, const struct ent *e, size_t n)
{
	bool bios = cookie == FW_AMD_COOKIE_BHD || cookie == FW_AMD_COOKIE_BL2;
	size_t es = bios ? FW_AMD_BIOS_ENTRY_SIZE : FW_AMD_PSP_ENTRY_SIZE;
	uint8_t *d = m->p + off;
	fw_put_le32(d, cookie);
	fw_put_le32(d + 8, (uint32_t)n);
	fw_put_le32(d + 12, info);
	for (size_t i = 0; i < n; i++) {
		uint8_t *x = d + FW_AMD_DIR_HEADER_SIZE + i * es;
		x[0] = e[i].type;
		x[1] = e[i].sub;
		fw_put_le16(x + 2, e[i].flags);
		fw_put_le32(x + 4, e[i].size);
		fw_put_le64(x + 8, e[i].addr);
		if (bios)
			fw_put_le64(x + 16, e[i].dest);
	}
	size_t end = FW_AMD_DIR_HEADER_SIZE + n * es;
	fw_put_le32(d + 4, fw_fletcher32(d + 8, end - 8));
}

/* A blob with the 0x100-byte PSP firmware header: magic, version bytes (shown reversed). */
static void blob(struct img *m, size_t off, size_t size, const char *magic, const uint8_t ver[4])
{
	memset(m->p + off, 0x5A, size);
	memset(m->p + off, 0, FW_AMD_PSP_BLOB_HEADER_SIZE);
	memcpy(m->p + off + 0x10, magic, 4);
	fw_put_le32(m->p + off + 0x14, (uint32_t)size - 0x100);
	memcpy(m->p + off + 0x60, ver, 4);
	fw_put_le32(m->p + off + 0x6C, (uint32_t)size);
}

static struct fw_tree *parse(const struct img *m, struct fw_node **image)
{
	struct fw_tree *t = fw_tree_new(NULL);
	struct fw_view v = fw_view_make(m->p, m->len, 0);
	struct fw_error err;
	*image = fw_node_add(t, NULL, FW_NODE_IMAGE, "UEFI", &v, &err);
	t->input = m->p;
	t->input_len = m->len;
	fw_amd_flash_parse(t, *image, &v, &err);
	return t;
}

static struct fw_node *child(struct fw_node *n, unsigned i)
{
	struct fw_node *c = n ? n->first_child : NULL;
	while (c && i--)
		c = c->next;
	return c;
}

static bool has_diag(const struct fw_node *n, const char *text)
{
	for (const struct fw_diag *d = n ? n->diags : NULL; d; d = d->next)
		if (strstr(d->msg, text))
			return true;
	return false;
}

static const struct fw_amd_entry *entry_of(struct fw_node *n)
{
	return n && n->kind == FW_NODE_PSP_ENTRY ? n->ext : NULL;
}

/* The layout most tests share (1 MiB flash):
 *   0x20000 EFS -> $PSP 0x30000 (physical pointer), $BHD 0x60000
 *   $PSP (flash offsets): 0x01 boot loader 0x40000, 0x0B soft fuse, 0x39 SEV code 0x41000,
 *        0x40 -> $PL2 0x50000, 0x08 SMU outside the image
 *   $PL2 (directory relative, per-entry modes): 0x30 ABL0 compressed at +0x1000, 0x40 -> itself
 *   $BHD (flash offsets): 0x66 microcode 0x61000, 0x60 APCB 0x62000, 0x70 -> $BL2 0x70000
 *   $BL2: 0x70 -> $BHD (a loop back) and 0x62 reset image */
static uint8_t abl_plain[0x3000];

static struct img sample(void)
{
	struct img m = img_new(MIB);
	efs(&m, 0x20000, phys(&m, 0x30000), 0x60000);
	const uint32_t offsets = (uint32_t)FW_AMD_ADDR_FLASH_OFFSET << 29;
	struct ent psp[] = {
		{0x01, 0, 0, 0x200, 0x40000, 0},
		{0x0B, 0, 0, 0xFFFFFFFF, 1, 0},
		{0x39, 0, 0, 0x300, 0x41000, 0},
		{0x40, 0, 0, 0x400, 0x50000, 0},
		{0x08, 0, 0, 0x1000, 0x200000, 0},
	};
	dir(&m, 0x30000, FW_AMD_COOKIE_PSP, offsets, psp, 5);
	blob(&m, 0x40000, 0x200, "$PS1", (const uint8_t[]){0x11, 0x00, 0x24, 0x00});
	blob(&m, 0x41000, 0x300, "$PS1", (const uint8_t[]){0x15, 0x37, 0x01, 0x00});
	/* ABL0: zlib after the header, flagged by the compression option */
	for (size_t i = 0; i < sizeof(abl_plain); i++)
		abl_plain[i] = (uint8_t)(i / 7);
	/* a zlib stream of one stored block: the same bytes whatever zlib builds it */
	uint8_t z[0x4000];
	size_t zlen = 0;
	z[zlen++] = 0x78;
	z[zlen++] = 0x01;
	z[zlen++] = 0x01; /* final block, stored */
	fw_put_le16(z + zlen, sizeof(abl_plain));
	fw_put_le16(z + zlen + 2, (uint16_t)~sizeof(abl_plain));
	zlen += 4;
	memcpy(z + zlen, abl_plain, sizeof(abl_plain));
	zlen += sizeof(abl_plain);
	uint32_t adler = (uint32_t)adler32(1, abl_plain, sizeof(abl_plain));
	z[zlen++] = (uint8_t)(adler >> 24);
	z[zlen++] = (uint8_t)(adler >> 16);
	z[zlen++] = (uint8_t)(adler >> 8);
	z[zlen++] = (uint8_t)adler;
	size_t abl = 0x51000;
	blob(&m, abl, 0x100 + zlen, "$PS1", (const uint8_t[]){0x08, 0x00, 0x00, 0x00});
	fw_put_le32(m.p + abl + 0x48, 1);
	fw_put_le32(m.p + abl + 0x50, sizeof(abl_plain));
	fw_put_le32(m.p + abl + 0x54, (uint32_t)zlen);
	memcpy(m.p + abl + 0x100, z, zlen);
	struct ent pl2[] = {
		{0x30, 0, 0, (uint32_t)(0x100 + zlen), ((uint64_t)FW_AMD_ADDR_DIR_RELATIVE << 62) | 0x1000, 0},
		{0x40, 0, 0, 0x100, ((uint64_t)FW_AMD_ADDR_FLASH_OFFSET << 62) | 0x50000, 0},
	};
	dir(&m, 0x50000, FW_AMD_COOKIE_PL2, (uint32_t)FW_AMD_ADDR_DIR_RELATIVE << 29, pl2, 2);
	struct ent bhd[] = {
		{0x66, 0, 0, 0x100, 0x61000, UINT64_MAX},
		{0x60, 0, 0, 0x80, 0x62000, UINT64_MAX},
		{0x70, 0, 0, 0x400, 0x70000, UINT64_MAX},
	};
	dir(&m, 0x60000, FW_AMD_COOKIE_BHD, offsets, bhd, 3);
	uint8_t *uc = m.p + 0x61000;
	memset(uc, 0, 0x100);
	fw_put_le32(uc, 0x08152023);
	fw_put_le32(uc + 4, 0x0A101148);
	fw_put_le16(uc + 24, 0xA101);
	uint8_t *apcb = m.p + 0x62000;
	memset(apcb, 0, 0x80);
	memcpy(apcb, "APCB", 4);
	fw_put_le16(apcb + 4, 0x80);
	fw_put_le16(apcb + 6, 0x30);
	fw_put_le32(apcb + 8, 0x80);
	apcb[16] = (uint8_t)(0 - fw_sum8(apcb, 0x80));
	struct ent bl2[] = {
		{0x70, 0, 0, 0x400, 0x60000, UINT64_MAX},
		{0x62, 0, FW_AMD_BIOS_FLAG_RESET | FW_AMD_BIOS_FLAG_COPY, 0x10000, 0x80000, 0x76000000},
	};
	dir(&m, 0x70000, FW_AMD_COOKIE_BL2, offsets, bl2, 2);
	/* a stray EFS signature that points nowhere is not an EFS */
	fw_put_le32(m.p + 0xA0000, FW_AMD_EFS_SIGNATURE);
	return m;
}

/* A compressed entry whose zlib stream is damaged (its Adler-32) or cut short: the error names the
 * entry's offset and what is wrong, and nothing is kept. */
TEST(amd_compressed_entry_damaged_or_truncated)
{
	struct img m = sample();
	size_t abl = 0x51000;
	uint32_t zlen = fw_le32(m.p + abl + 0x54);
	m.p[abl + 0x100 + zlen - 1] ^= 0xFF; /* the last byte of the Adler-32 */
	struct fw_node *image;
	struct fw_tree *t = parse(&m, &image);
	struct fw_node *l2 = child(child(child(image, 0), 0), 3)->first_child;
	struct fw_node *e = child(l2, 0);
	CHECK_EQ(e->offset, abl);
	struct fw_view out;
	struct fw_error err;
	CHECK(!fw_amd_entry_inflate(t, e, &out, &err));
	CHECK_EQ(err.code, FW_E_INVALID);
	CHECK_MSG(strcmp(err.msg, "compressed entry at 0x51000: zlib stream: corrupt compressed data (incorrect data check "
				  "after 0x300b of 0x300b input bytes)") == 0,
		  "%s", err.msg);
	CHECK(!entry_of(e)->inflated.p);
	/* asked again: the same answer, kept from the first attempt */
	struct fw_error again;
	CHECK(!fw_amd_entry_inflate(t, e, &out, &again));
	CHECK_STR(again.msg, err.msg);
	CHECK(entry_of(e)->inflate_error != NULL);
	fw_tree_free(t);

	/* what is left of the total limit caps the stream, and the message names the total */
	m.p[abl + 0x100 + zlen - 1] ^= 0xFF;
	t = parse(&m, &image);
	e = child(child(child(child(image, 0), 0), 3)->first_child, 0);
	t->limits.max_decompressed_total = 0x1000;
	CHECK(!fw_amd_entry_inflate(t, e, &out, &err));
	CHECK_EQ(err.code, FW_E_LIMIT);
	CHECK_MSG(strcmp(err.msg, "compressed entry at 0x51000: inflating it would pass the limit of 0x1000 decompressed "
				  "bytes in total (0x0 inflated before it)") == 0,
		  "%s", err.msg);
	CHECK_EQ(t->decompressed_total, 0);
	fw_tree_free(t);
	m.p[abl + 0x100 + zlen - 1] ^= 0xFF;
	/* the stream's declared compressed size stops 8 bytes short */
	m.p[abl + 0x100 + zlen - 1] ^= 0xFF;
	fw_put_le32(m.p + abl + 0x54, zlen - 8);
	t = parse(&m, &image);
	e = child(child(child(child(image, 0), 0), 3)->first_child, 0);
	CHECK(!fw_amd_entry_inflate(t, e, &out, &err));
	CHECK_EQ(err.code, FW_E_TRUNCATED);
	CHECK_MSG(strstr(err.msg, "compressed entry at 0x51000: zlib stream: corrupt compressed data (input ends"), "%s",
		  err.msg);
	fw_tree_free(t);
	free(m.p);
}

TEST(amd_efs_psp_bios_and_level2)
{
	struct img m = sample();
	struct fw_node *image;
	struct fw_tree *t = parse(&m, &image);
	CHECK_EQ(image->nchildren, 1); /* the stray signature is not an EFS */
	struct fw_node *e = child(image, 0);
	CHECK_EQ(e->kind, FW_NODE_REGION);
	CHECK_STR(e->type, "AMD EFS");
	CHECK_EQ(e->offset, 0x20000);
	CHECK_STR(fw_node_field_get(e, "Generation")->v.s, "second");

	struct fw_node *psp = child(e, 0), *bhd = child(e, 1);
	CHECK_EQ(psp->kind, FW_NODE_PSP_DIRECTORY);
	CHECK_STR(psp->type, "$PSP");
	CHECK_EQ(psp->offset, 0x30000);
	CHECK_EQ(psp->size, 16 + 5 * 16);
	CHECK(fw_node_field_get(psp, "Checksum valid")->v.b);
	CHECK_STR(fw_node_field_get(psp, "AddressMode")->v.s, "flash offset");
	CHECK_EQ(psp->nchildren, 5);

	const struct fw_amd_entry *bl = entry_of(child(psp, 0));
	CHECK(bl && bl->located);
	CHECK_STR(bl->name, "PSP boot loader");
	CHECK_EQ(child(psp, 0)->offset, 0x40000);
	CHECK_EQ(child(psp, 0)->size, 0x200);
	CHECK_STR(bl->version, "0.24.0.11");
	CHECK_STR(fw_node_field_get(child(psp, 0), "HeaderMagic")->v.s, "$PS1");
	CHECK_EQ(fw_node_field_get(child(psp, 0), "TableOffset")->v.u, 0x30010);

	const struct fw_amd_entry *fuse = entry_of(child(psp, 1));
	CHECK(fuse->inline_value && !fuse->located);
	CHECK_EQ(fw_node_field_get(child(psp, 1), "Value")->v.u, 1);

	const struct fw_amd_entry *sev = entry_of(child(psp, 2));
	CHECK(sev);
	CHECK_STR(sev->version, "0.1.37.15");
	CHECK_STR(child(psp, 2)->type, "SEV code (SEV/SEV-SNP firmware)");

	/* level 2: directory-relative addresses, a compressed ABL, a self link */
	struct fw_node *l2 = child(psp, 3)->first_child;
	CHECK(l2 && l2->kind == FW_NODE_PSP_DIRECTORY);
	CHECK_STR(l2->type, "$PL2");
	CHECK_EQ(l2->offset, 0x50000);
	CHECK_STR(fw_node_field_get(l2, "AddressMode")->v.s, "directory relative");
	struct fw_node *abl = child(l2, 0);
	CHECK_EQ(abl->offset, 0x51000);
	CHECK(entry_of(abl)->compressed);
	CHECK_EQ(entry_of(abl)->uncompressed_size, sizeof(abl_plain));
	struct fw_view plain;
	struct fw_error err;
	CHECK(fw_amd_entry_inflate(t, abl, &plain, &err));
	CHECK_EQ(plain.len, sizeof(abl_plain));
	CHECK(memcmp(plain.p, abl_plain, sizeof(abl_plain)) == 0);
	struct fw_view again;
	CHECK(fw_amd_entry_inflate(t, abl, &again, &err) && again.p == plain.p); /* once */
	CHECK(has_diag(child(l2, 1), "a loop"));

	/* an entry whose data lies past the end of the flash */
	struct fw_node *smu = child(psp, 4);
	CHECK(!entry_of(smu)->located);
	CHECK(has_diag(smu, "lie outside the 0x100000-byte image"));

	/* BIOS directory: microcode, APCB, level 2 with a loop back and a reset image */
	CHECK_STR(bhd->type, "$BHD");
	CHECK_EQ(fw_node_field_get(child(bhd, 0), "PatchId")->v.u, 0x0A101148);
	CHECK_EQ(fw_node_field_get(child(bhd, 0), "ProcessorRevId")->v.u, 0xA101);
	CHECK(fw_node_field_get(child(bhd, 1), "ApcbChecksum valid")->v.b);
	struct fw_node *bl2 = child(bhd, 2)->first_child;
	CHECK_STR(bl2->type, "$BL2");
	CHECK(has_diag(child(bl2, 0), "a loop"));
	const struct fw_amd_entry *reset = entry_of(child(bl2, 1));
	CHECK(reset->reset && reset->copy && !reset->compressed);
	CHECK_EQ(reset->destination, 0x76000000);
	CHECK_STR(fw_node_field_get(child(bl2, 1), "Flags text")->v.s, "reset copy");

	struct fw_versions vv;
	fw_versions_collect(t, &vv);
	CHECK_STR(vv.sev, "0.1.37.15");
	CHECK_EQ(vv.nucode, 1);
	char s[96];
	CHECK_STR(fw_microcode_str(&vv.ucode[0], s, sizeof(s)), "0x0A101148 for processor revision 0xA101, 2023-08-15");
	fw_tree_free(t);
	free(m.p);
}

TEST(amd_bad_checksum_and_truncated_directory)
{
	struct img m = sample();
	m.p[0x30000 + 16 + 4] ^= 1; /* an entry size changes: the checksum no longer matches */
	fw_put_le32(m.p + 0x60000 + 8, 100000); /* $BHD claims more entries than the image holds */
	struct fw_node *image;
	struct fw_tree *t = parse(&m, &image);
	struct fw_node *psp = child(child(image, 0), 0), *bhd = child(child(image, 0), 1);
	CHECK(!fw_node_field_get(psp, "Checksum valid")->v.b);
	CHECK(psp->flags & FW_NODE_F_CHECKSUM_BAD);
	CHECK(has_diag(psp, "checksum is 0x"));
	CHECK(has_diag(bhd, "100000 entries do not fit the limit of 1024 entries per directory (1024 do)"));
	CHECK(!fw_node_field_get(bhd, "Checksum valid"));
	CHECK_EQ(bhd->nchildren, FW_AMD_MAX_DIR_ENTRIES);
	fw_tree_free(t);
	free(m.p);
}

/* NumEntries set to all-ones: the entries decoded stop at the directory size AdditionalInfo
 * gives (bits 0-9, 4 KiB units), at the image end, or at the limit; never 53,000 nodes of
 * garbage from a 1 MiB image (the mutation test found that). */
TEST(amd_entry_count_bounded_by_directory_size)
{
	struct img m = sample();
	/* $PSP: 1 x 4 KiB leaves room for (4096 - 16) / 16 = 255 entries */
	fw_put_le32(m.p + 0x30000 + 12, (fw_le32(m.p + 0x30000 + 12) & ~0x3FFu) | 1);
	fw_put_le32(m.p + 0x30000 + 8, 0xFFFFFFFF);
	/* $BHD has no size: the limit; the last 0x300 bytes of the image hold 32 entries */
	fw_put_le32(m.p + 0x60000 + 8, 0xFFFF);
	struct fw_node *image;
	struct fw_tree *t = parse(&m, &image);
	struct fw_node *psp = child(child(image, 0), 0), *bhd = child(child(image, 0), 1);
	CHECK_EQ(psp->nchildren, 255);
	CHECK(!has_diag(bhd, "do not fit the image"));
	CHECK(has_diag(psp, "4294967295 entries do not fit the directory size AdditionalInfo gives (255 do)"));
	CHECK_EQ(bhd->nchildren, FW_AMD_MAX_DIR_ENTRIES);
	fw_tree_free(t);
	free(m.p);
	m = sample();
	memmove(m.p + MIB - 0x1000, m.p + 0x60000, 0x1000); /* $BHD moved to the last 4 KiB */
	fw_put_le32(m.p + MIB - 0x1000 + 8, 0xFFFF);
	fw_layout_put(&fw_amd_efs_layout, m.p + 0x20000, EFS_BIOS3, MIB - 0x1000);
	t = parse(&m, &image);
	bhd = child(child(image, 0), 1);
	CHECK_EQ(bhd->nchildren, (0x1000 - 16) / 24);
	CHECK(has_diag(bhd, "65535 entries do not fit the image (170 do)"));
	fw_tree_free(t);
	free(m.p);
	/* the limit itself: 1024 entries decode without a word, 1025 are cut to 1024 */
	for (uint32_t want = FW_AMD_MAX_DIR_ENTRIES; want <= FW_AMD_MAX_DIR_ENTRIES + 1; want++) {
		m = sample();
		fw_put_le32(m.p + 0x60000 + 8, want);
		t = parse(&m, &image);
		bhd = child(child(image, 0), 1);
		CHECK_EQ(bhd->nchildren, FW_AMD_MAX_DIR_ENTRIES);
		CHECK_EQ(has_diag(bhd, "1025 entries do not fit the limit of 1024 entries per directory (1024 do)"),
			 want > FW_AMD_MAX_DIR_ENTRIES);
		CHECK(!has_diag(bhd, "1024 entries do not fit"));
		fw_tree_free(t);
		free(m.p);
	}
}

TEST(amd_combo_directories_and_shared_targets)
{
	struct img m = img_new(MIB);
	efs(&m, 0x20000, 0x30000, 0xFFFFFFFF);
	/* 2PSP with two entries for two PSP ids, both pointing at the same $PSP */
	uint8_t *c = m.p + 0x30000;
	memset(c, 0, 32 + 2 * 16);
	fw_put_le32(c, FW_AMD_COOKIE_2PSP);
	fw_put_le32(c + 8, 2);
	for (int i = 0; i < 2; i++) {
		uint8_t *e = c + 32 + 16 * i;
		fw_put_le32(e, 0);
		fw_put_le32(e + 4, 0xBC0D0400u + (uint32_t)i);
		fw_put_le64(e + 8, phys(&m, 0x40000));
	}
	fw_put_le32(c + 4, fw_fletcher32(c + 8, 32 + 32 - 8));
	struct ent e[] = {{0x01, 0, 0, 0x100, 0x41000, 0}};
	dir(&m, 0x40000, FW_AMD_COOKIE_PSP, (uint32_t)FW_AMD_ADDR_FLASH_OFFSET << 29, e, 1);
	struct fw_node *image;
	struct fw_tree *t = parse(&m, &image);
	struct fw_node *combo = child(child(image, 0), 0);
	CHECK_STR(combo->type, "2PSP");
	CHECK(fw_node_field_get(combo, "Checksum valid")->v.b);
	CHECK_EQ(combo->nchildren, 2);
	struct fw_node *a = child(combo, 0), *b = child(combo, 1);
	CHECK_EQ(fw_node_field_get(a, "Id")->v.u, 0xBC0D0400);
	CHECK_STR(a->first_child->type, "$PSP");
	CHECK_EQ(a->first_child->nchildren, 1);
	CHECK(b->first_child == NULL); /* decoded once */
	CHECK_EQ(fw_node_field_get(b, "SameAs")->v.u, 0x40000);
	fw_tree_free(t);
	free(m.p);
}

TEST(amd_32mib_flash_windows_and_ish)
{
	/* A 32 MiB flash: the EFS of the second 16 MiB window maps 0xFFxxxxxx into that window. */
	struct img m = img_new(32 * MIB);
	size_t w = 16 * MIB;
	efs(&m, w + 0x20000, 0xFF030000u, 0xFFFFFFFF);
	struct ent psp[] = {{0x48, 0, 0, 0x20, w + 0x31000, 0}};
	dir(&m, w + 0x30000, FW_AMD_COOKIE_PSP, (uint32_t)FW_AMD_ADDR_FLASH_OFFSET << 29, psp, 1);
	/* the A/B entry points at an ISH header whose PL2 location is the directory */
	memset(m.p + w + 0x31000, 0, 32);
	fw_put_le32(m.p + w + 0x31000 + 16, (uint32_t)(w + 0x40000));
	struct ent pl2[] = {{0x01, 0, 0, 0x100, w + 0x41000, 0}};
	dir(&m, w + 0x40000, FW_AMD_COOKIE_PL2, (uint32_t)FW_AMD_ADDR_FLASH_OFFSET << 29, pl2, 1);
	struct fw_node *image;
	struct fw_tree *t = parse(&m, &image);
	struct fw_node *e = child(image, 0);
	CHECK(e && e->offset == w + 0x20000);
	struct fw_node *psp_dir = child(e, 0);
	CHECK(psp_dir && psp_dir->offset == w + 0x30000);
	struct fw_node *ab = child(psp_dir, 0);
	CHECK_STR(ab->type, "PSP level 2 A directory");
	CHECK_EQ(fw_node_field_get(ab, "IshPl2Location")->v.u, w + 0x40000);
	CHECK_STR(ab->first_child->type, "$PL2");
	CHECK_EQ(ab->first_child->first_child->offset, w + 0x41000);
	fw_tree_free(t);
	free(m.p);
}

TEST(amd_flash_offset_entries_carry_mode_bits)
{
	/* amdfwtool writes the address-mode bits into every entry, also when the directory's own
	 * mode (flash offset) is the one that holds: the address is the low 62 bits. */
	struct img m = img_new(MIB);
	efs(&m, 0x20000, 0x30000, 0x60000);
	const uint64_t fo = (uint64_t)FW_AMD_ADDR_FLASH_OFFSET << 62;
	const uint32_t offsets = (uint32_t)FW_AMD_ADDR_FLASH_OFFSET << 29;
	struct ent psp[] = {
		{0x01, 0, 0, 0x200, fo | 0x40000, 0},
		{0x0B, 0, 0, 0, fo | 1, 0},
		{0x8C, 0, 0, 0x100, fo | 0x41000, 0},
		{0x40, 0, 0, 0x400, fo | 0x50000, 0},
	};
	dir(&m, 0x30000, FW_AMD_COOKIE_PSP, offsets, psp, 4);
	blob(&m, 0x40000, 0x200, "$PS1", (const uint8_t[]){0x7D, 0x00, 0x29, 0x00});
	blob(&m, 0x41000, 0x100, "$PS1", (const uint8_t[]){0, 0, 0, 0});
	struct ent pl2[] = {{0x92, 0, 0, 0x100, fo | 0x41000, 0}};
	dir(&m, 0x50000, FW_AMD_COOKIE_PL2, offsets, pl2, 1);
	struct ent bhd[] = {{0x62, 0, FW_AMD_BIOS_FLAG_RESET | FW_AMD_BIOS_FLAG_COPY, 0x10000, fo | 0x80000, 0x76000000}};
	dir(&m, 0x60000, FW_AMD_COOKIE_BHD, offsets, bhd, 1);
	struct fw_node *image;
	struct fw_tree *t = parse(&m, &image);
	struct fw_node *e = child(image, 0), *psp_dir = child(e, 0), *bhd_dir = child(e, 1);
	CHECK_EQ(psp_dir->offset, 0x30000);
	const struct fw_amd_entry *bl = entry_of(child(psp_dir, 0));
	CHECK(bl && bl->located);
	CHECK_EQ(bl->address, 0x40000);
	CHECK_EQ(child(psp_dir, 0)->offset, 0x40000);
	CHECK_STR(bl->version, "0.29.0.7D");
	/* the soft-fuse value is inline: all 64 bits are the value */
	CHECK_EQ(fw_node_field_get(child(psp_dir, 1), "Value")->v.u, fo | 1);
	CHECK_STR(child(psp_dir, 2)->type, "MPDMA TF firmware");
	CHECK_EQ(child(psp_dir, 2)->offset, 0x41000);
	struct fw_node *l2 = child(psp_dir, 3)->first_child;
	CHECK(l2 && l2->kind == FW_NODE_PSP_DIRECTORY);
	CHECK_EQ(l2->offset, 0x50000);
	CHECK_STR(child(l2, 0)->type, "MPDMA PM firmware");
	CHECK(entry_of(child(l2, 0))->located);
	const struct fw_amd_entry *reset = entry_of(child(bhd_dir, 0));
	CHECK(reset && reset->located);
	CHECK_EQ(child(bhd_dir, 0)->offset, 0x80000);
	CHECK_EQ(reset->destination, 0x76000000);
	for (struct fw_node *n = psp_dir->first_child; n; n = n->next)
		CHECK(!has_diag(n, "outside"));
	fw_tree_free(t);
	free(m.p);
}

TEST(amd_pointers_to_nowhere)
{
	struct img m = img_new(MIB);
	efs(&m, 0x20000, phys(&m, 0x30000), 0x60000);
	struct ent psp[] = {{0x40, 0, 0, 0x100, 0x90000, 0}, {0x40, 0, 0, 0x100, 0x7FFFFFFF, 0}};
	dir(&m, 0x30000, FW_AMD_COOKIE_PSP, (uint32_t)FW_AMD_ADDR_FLASH_OFFSET << 29, psp, 2);
	struct fw_node *image;
	struct fw_tree *t = parse(&m, &image);
	struct fw_node *e = child(image, 0), *psp_dir = child(e, 0);
	CHECK(has_diag(e, "BIOS directory pointer 0x60000 lands on \"....\""));
	CHECK(has_diag(child(psp_dir, 0), "not on a directory cookie"));
	CHECK(has_diag(child(psp_dir, 1), "points outside the 0x100000-byte image"));
	fw_tree_free(t);
	free(m.p);
	/* no EFS at all */
	m = img_new(MIB);
	t = parse(&m, &image);
	CHECK_EQ(image->nchildren, 0);
	fw_tree_free(t);
	free(m.p);
}

TEST(amd_versions_from_strings)
{
	struct img m = img_new(MIB);
	const char agesa[] = "AGESA!V9\0GenoaPI-SP5 1.0.0.8\0";
	memcpy(m.p + 0x1234, agesa, sizeof(agesa));
	memcpy(m.p + 0x5678, agesa, sizeof(agesa)); /* a second copy is not listed twice */
	const char other[] = "AGESA!V9\0TurinPI-SP5 1.0.0.4\0";
	memcpy(m.p + 0x9000, other, sizeof(other));
	memcpy(m.p + 0xA000, "AGESA!", 6); /* no string after it */
	struct fw_node *image;
	struct fw_tree *t = parse(&m, &image);
	struct fw_versions v;
	fw_versions_collect(t, &v);
	CHECK_EQ(v.nagesa, 2);
	CHECK_STR(v.agesa[0], "GenoaPI-SP5 1.0.0.8");
	CHECK_STR(v.agesa[1], "TurinPI-SP5 1.0.0.4");
	CHECK(!v.has_fid);
	fw_tree_free(t);
	free(m.p);
}

TEST(amd_versions_fid_of_the_wrx90e)
{
	const char *path = fw_test_corpus("firmware/asus-wrx90e-sage-se-1203_rebuilt.cap");
	if (!path)
		SKIP("corpus firmware/asus-wrx90e-sage-se-1203_rebuilt.cap not present");
	struct fw_firmware fw;
	struct fw_error err;
	CHECK(fw_source_open_firmware(path, NULL, &fw, &err));
	struct fw_versions v;
	fw_versions_collect(fw.tree, &v);
	/* the AGESA string lies in the LZMA-compressed DXE volume (UEFIExtract's dump shows it there) */
	CHECK_EQ(v.nagesa, 1);
	CHECK_STR(v.agesa[0], "ComboSP6PI 1.0.0.1a Patch A");
	CHECK(v.has_fid);
	CHECK_STR(v.bios_tag, "A5496");
	CHECK_STR(v.project_version, "12.03");
	CHECK_STR(v.core_version, "5.37");
	CHECK_STR(v.build_date, "2025-07-18T14:01:29");
	CHECK_EQ(v.fid_offset, 0x1C01434);
	CHECK(!v.sev[0] && v.nucode == 0); /* the PSP region is lost */
	fw_firmware_close(&fw);
}

/* tests/data/amd/psp-layout.bin is sample() as bytes, for the CLI tests of fwlens psp;
 * FWLENS_UPDATE_GOLDEN=1 rewrites it after a change to the builder above. */
TEST(amd_fixture_is_the_builder_output)
{
	struct img m = sample();
	const char *update = getenv("FWLENS_UPDATE_GOLDEN");
	if (update && strcmp(update, "1") == 0) {
		char path[4096];
		snprintf(path, sizeof(path), "%s/tests/data/amd/psp-layout.bin", fw_test_srcdir());
		FILE *f = fopen(path, "wb");
		CHECK(f && fwrite(m.p, 1, m.len, f) == m.len);
		fclose(f);
	}
	const char *path = fw_test_data("amd/psp-layout.bin");
	CHECK_MSG(path, "tests/data/amd/psp-layout.bin is missing");
	size_t len;
	uint8_t *p = fw_test_read_file(path, &len);
	CHECK(p && len == m.len && memcmp(p, m.p, len) == 0);
	free(p);
	free(m.p);
}

static void combo(struct img *m, size_t off, uint32_t cookie, const uint64_t *targets, size_t n)
{
	uint8_t *c = m->p + off;
	memset(c, 0, 32 + 16 * n);
	fw_put_le32(c, cookie);
	fw_put_le32(c + 8, (uint32_t)n);
	for (size_t i = 0; i < n; i++) {
		fw_put_le32(c + 32 + 16 * i + 4, 0xBC0D0300u + (uint32_t)i);
		fw_put_le64(c + 32 + 16 * i + 8, targets[i]);
	}
	fw_put_le32(c + 4, fw_fletcher32(c + 8, 32 + 16 * n - 8));
}

TEST(amd_nested_combo_directories)
{
	/* 2PSP -> (2PSP -> $PSP, $PSP); 2BHD -> 2BHD -> itself (a loop) */
	struct img m = img_new(MIB);
	efs(&m, 0x20000, 0x30000, 0x38000);
	uint64_t outer[] = {0x31000, 0x40000};
	combo(&m, 0x30000, FW_AMD_COOKIE_2PSP, outer, 2);
	uint64_t inner[] = {0x40000};
	combo(&m, 0x31000, FW_AMD_COOKIE_2PSP, inner, 1);
	struct ent e[] = {{0x01, 0, 0, 0x100, 0x41000, 0}};
	dir(&m, 0x40000, FW_AMD_COOKIE_PSP, (uint32_t)FW_AMD_ADDR_FLASH_OFFSET << 29, e, 1);
	uint64_t self[] = {0x38000};
	combo(&m, 0x38000, FW_AMD_COOKIE_2BHD, self, 1);
	struct fw_node *image;
	struct fw_tree *t = parse(&m, &image);
	struct fw_node *outer_dir = child(child(image, 0), 0);
	CHECK_STR(outer_dir->type, "2PSP");
	struct fw_node *inner_dir = child(outer_dir, 0)->first_child;
	CHECK(inner_dir && strcmp(inner_dir->type, "2PSP") == 0);
	CHECK(fw_node_field_get(inner_dir, "Checksum valid")->v.b);
	struct fw_node *psp = child(inner_dir, 0)->first_child;
	CHECK(psp && strcmp(psp->type, "$PSP") == 0 && psp->depth == inner_dir->depth + 2);
	CHECK_EQ(fw_node_field_get(child(outer_dir, 1), "SameAs")->v.u, 0x40000);
	struct fw_node *bhd = child(child(image, 0), 1);
	CHECK_STR(bhd->type, "2BHD");
	CHECK(has_diag(child(bhd, 0), "a loop"));
	fw_tree_free(t);
	free(m.p);
}

/* ---- AMD blobs as whole inputs: microcode patch files, Linux containers, APCB blocks ---------- */

/* A 0x200-byte patch: the 64-byte header, then filler. */
static size_t put_patch(uint8_t *p, uint32_t patch_id, uint16_t rev, uint32_t date)
{
	memset(p, 0, 0x200);
	fw_put_le32(p, date);
	fw_put_le32(p + 4, patch_id);
	fw_put_le16(p + 8, 0x8005);
	fw_put_le16(p + 24, rev);
	for (size_t i = 64; i < 0x200; i++)
		p[i] = (uint8_t)(i * 7);
	return 0x200;
}

/* "DMA\0", the equivalence table (two CPUs and the zero entry), two patches. */
static size_t container(uint8_t *c)
{
	size_t off = 0;
	fw_put_le32(c, FW_AMD_UCODE_CONTAINER_MAGIC);
	fw_put_le32(c + 4, FW_AMD_UCODE_SECTION_EQUIV_TABLE);
	fw_put_le32(c + 8, 3 * FW_AMD_UCODE_EQUIV_ENTRY_SIZE);
	off = 12;
	memset(c + off, 0, 3 * FW_AMD_UCODE_EQUIV_ENTRY_SIZE);
	fw_put_le32(c + off, 0x00A10F11);
	fw_put_le16(c + off + 12, 0xA111);
	fw_put_le32(c + off + 16, 0x00A10F10);
	fw_put_le16(c + off + 28, 0xA101);
	off += 3 * FW_AMD_UCODE_EQUIV_ENTRY_SIZE;
	const uint32_t ids[2] = {0x0A101148, 0x0A10114C};
	const uint16_t revs[2] = {0xA101, 0xA111};
	for (int i = 0; i < 2; i++) {
		fw_put_le32(c + off, FW_AMD_UCODE_SECTION_PATCH);
		fw_put_le32(c + off + 4, 0x200);
		off += 8 + put_patch(c + off + 8, ids[i], revs[i], 0x07182025);
	}
	return off;
}

/* Parse a whole input that must be of `kind` (named `name`); its root, or NULL after a failed check. */
static struct fw_node *parse_whole(const uint8_t *p, size_t len, enum fw_input_kind kind, const char *name,
				   struct fw_firmware *fw)
{
	struct fw_error err;
	if (!fw_firmware_parse_buffer(p, len, NULL, fw, &err)) {
		fw_test_fail(__FILE__, __LINE__, "%s", err.msg);
		return NULL;
	}
	if (fw->kind != kind || strcmp(fw_input_kind_name(fw->kind), name) != 0) {
		fw_test_fail(__FILE__, __LINE__, "input kind %s, expected %s", fw_input_kind_name(fw->kind), name);
		fw_firmware_close(fw);
		return NULL;
	}
	return fw->tree->root;
}

TEST(amd_microcode_container_and_patch_file)
{
	static uint8_t c[4096];
	size_t len = container(c);
	struct fw_firmware fw;
	struct fw_error err;
	struct fw_node *root = parse_whole(c, len, FW_INPUT_AMD_MICROCODE, "amd-microcode", &fw);
	CHECK(root);
	CHECK_STR(root->type, "AMD ucode container");
	CHECK_EQ(root->nchildren, 3);
	CHECK_EQ(fw_node_field_get(root, "Patches")->v.u, 2);
	struct fw_node *eq = child(root, 0);
	CHECK_STR(eq->type, "Equivalence table");
	CHECK_EQ(eq->offset, 4);
	CHECK_EQ(fw_node_field_get(eq, "Entries")->v.u, 2);
	CHECK_STR(fw_node_field_get(eq, "Processors")->v.s, "0x00A10F11=0xA111, 0x00A10F10=0xA101");
	struct fw_node *p2 = child(root, 2);
	CHECK_STR(p2->type, FW_AMD_UCODE_PATCH_TYPE);
	CHECK_EQ(p2->offset, 12 + 48 + 8 + 0x200 + 8);
	CHECK_EQ(p2->size, 0x200);
	CHECK_EQ(fw_node_field_get(p2, "PatchId")->v.u, 0x0A10114C);
	CHECK_EQ(fw_node_field_get(p2, "ProcessorRevId")->v.u, 0xA111);
	CHECK_STR(fw_node_field_get(p2, "Date")->v.s, "2025-07-18");
	CHECK_EQ(fw.tree->diag_count, 0);
	struct fw_versions vv;
	fw_versions_collect(fw.tree, &vv);
	CHECK_EQ(vv.nucode, 2);
	CHECK_EQ(vv.ucode[0].patch_id, 0x0A101148);
	CHECK_EQ(vv.ucode[1].processor_rev, 0xA111);
	CHECK_EQ(vv.ucode[1].offset, p2->offset);
	fw_firmware_close(&fw);

	/* cut 0x10 bytes short: the second patch is reported, not read past the end */
	CHECK(fw_firmware_parse_buffer(c, len - 0x10, NULL, &fw, &err));
	CHECK_EQ(fw.tree->root->nchildren, 2);
	CHECK(has_diag(fw.tree->root, "section at 0x244: 0x200 bytes declared, 0x1f0 left in the container"));
	fw_firmware_close(&fw);

	/* two containers back to back (Linux's early-load file): both read, the levels once each */
	static uint8_t two[8192];
	memcpy(two, c, len);
	memcpy(two + len, c, len);
	CHECK(fw_firmware_parse_buffer(two, 2 * len, NULL, &fw, &err));
	CHECK_EQ(fw.tree->root->nchildren, 6);
	CHECK_EQ(fw_node_field_get(fw.tree->root, "Containers")->v.u, 2);
	CHECK_EQ(fw_node_field_get(fw.tree->root, "Patches")->v.u, 4);
	CHECK_EQ(child(fw.tree->root, 3)->offset, len + 4);
	CHECK_EQ(fw.tree->diag_count, 0);
	fw_versions_collect(fw.tree, &vv);
	CHECK_EQ(vv.nucode, 2);
	fw_firmware_close(&fw);

	/* a section that is neither: the walk stops there and says so */
	fw_put_le32(c + 0x244, 2);
	CHECK(fw_firmware_parse_buffer(c, len, NULL, &fw, &err));
	CHECK_EQ(fw.tree->root->nchildren, 2);
	CHECK(has_diag(fw.tree->root, "section at 0x244: type 0x2 where a patch (type 1) belongs"));
	fw_firmware_close(&fw);
	fw_put_le32(c + 0x244, FW_AMD_UCODE_SECTION_PATCH);

	/* a patch section of 0x30 bytes: a node that says it is short, and no patch level */
	fw_put_le32(c + 0x244 + 4, 0x30);
	CHECK(fw_firmware_parse_buffer(c, 0x244 + 8 + 0x30, NULL, &fw, &err));
	struct fw_node *short_patch = child(fw.tree->root, 2);
	CHECK_EQ(short_patch->header_size, 0x30);
	CHECK(has_diag(short_patch, "0x30 bytes, shorter than the 64-byte patch header"));
	fw_versions_collect(fw.tree, &vv);
	CHECK_EQ(vv.nucode, 1);
	fw_firmware_close(&fw);
	fw_put_le32(c + 0x244 + 4, 0x200);

	/* an equivalence table without its zero entry */
	fw_put_le32(c + 12 + 32, 0x00A00F10);
	CHECK(fw_firmware_parse_buffer(c, len, NULL, &fw, &err));
	CHECK_EQ(fw_node_field_get(child(fw.tree->root, 0), "Entries")->v.u, 3);
	CHECK(has_diag(child(fw.tree->root, 0), "the equivalence table has no zero entry to end it"));
	fw_firmware_close(&fw);
	fw_put_le32(c + 12 + 32, 0);

	/* the magic without an equivalence table after it is not a container */
	fw_put_le32(c + 4, FW_AMD_UCODE_SECTION_PATCH);
	CHECK(!fw_firmware_parse_buffer(c, len, NULL, &fw, &err));
	CHECK_EQ(err.code, FW_E_INVALID);
	fw_put_le32(c + 4, FW_AMD_UCODE_SECTION_EQUIV_TABLE);

	/* a patch header at the start of a 1 MiB flash image does not make it a patch file */
	struct img m = sample();
	put_patch(m.p, 0x0A101148, 0xA101, 0x07182025);
	CHECK(fw_firmware_parse_buffer(m.p, m.len, NULL, &fw, &err));
	CHECK_EQ(fw.kind, FW_INPUT_IMAGE);
	fw_firmware_close(&fw);
	free(m.p);

	/* one patch as a file */
	uint8_t one[0x200];
	put_patch(one, 0x0B002141, 0xB002, 0x11042024);
	CHECK(fw_firmware_parse_buffer(one, sizeof(one), NULL, &fw, &err));
	CHECK_EQ(fw.kind, FW_INPUT_AMD_MICROCODE);
	CHECK_EQ(fw.tree->root->kind, FW_NODE_IMAGE);
	CHECK_EQ(fw_node_field_get(fw.tree->root, "PatchId")->v.u, 0x0B002141);
	CHECK_STR(fw_node_field_get(fw.tree->root, "Date")->v.s, "2024-11-04");
	fw_firmware_close(&fw);

	/* the patch ID's family (0x0A) is not the revision's (0xB): not a patch, not anything */
	put_patch(one, 0x0A002141, 0xB002, 0x11042024);
	CHECK(!fw_firmware_parse_buffer(one, sizeof(one), NULL, &fw, &err));
	CHECK_EQ(err.code, FW_E_INVALID);
	CHECK(strstr(err.msg, "not a firmware file fwlens knows"));
	/* no BCD date either (day 0x40) */
	put_patch(one, 0x0B002141, 0xB002, 0x11402024);
	CHECK(!fw_firmware_parse_buffer(one, sizeof(one), NULL, &fw, &err));
	CHECK_EQ(err.code, FW_E_INVALID);
}

TEST(amd_apcb_block_as_input)
{
	uint8_t b[256];
	memset(b, 0, sizeof(b));
	memcpy(b, "APCB", 4);
	fw_put_le16(b + 4, FW_AMD_APCB_V3_HEADER_SIZE);
	fw_put_le16(b + 6, FW_AMD_APCB_VERSION);
	fw_put_le32(b + 8, sizeof(b));
	memcpy(b + 32, "ECB2", 4);
	memcpy(b + 124, "BCPA", 4);
	for (size_t i = 128; i < sizeof(b); i++)
		b[i] = (uint8_t)i;
	b[16] = (uint8_t)(0 - fw_sum8(b, sizeof(b)));
	struct fw_firmware fw;
	struct fw_error err;
	struct fw_node *n = parse_whole(b, sizeof(b), FW_INPUT_AMD_APCB, "amd-apcb", &fw);
	CHECK(n);
	CHECK_STR(n->type, "AMD APCB");
	CHECK_EQ(n->header_size, 128);
	CHECK_EQ(fw_node_field_get(n, "ApcbVersion")->v.u, 0x30);
	CHECK_EQ(fw_node_field_get(n, "ApcbSize")->v.u, 256);
	CHECK(fw_node_field_get(n, "ApcbChecksum valid")->v.b);
	fw_firmware_close(&fw);
	b[200] ^= 1;
	CHECK(fw_firmware_parse_buffer(b, sizeof(b), NULL, &fw, &err));
	CHECK(!fw_node_field_get(fw.tree->root, "ApcbChecksum valid")->v.b);
	CHECK(has_diag(fw.tree->root, "APCB checksum does not sum to zero"));
	fw_firmware_close(&fw);
	/* a block size past the input: not an APCB */
	fw_put_le32(b + 8, sizeof(b) + 1);
	CHECK(!fw_firmware_parse_buffer(b, sizeof(b), NULL, &fw, &err));

	/* version 2 (a 32-byte header) of 0x60 bytes, then erased flash up to the input's end */
	uint8_t v2[0x100];
	memset(v2, 0xFF, sizeof(v2));
	memset(v2, 0, 0x60);
	memcpy(v2, "APCB", 4);
	fw_put_le16(v2 + 4, FW_AMD_APCB_V2_HEADER_SIZE);
	fw_put_le16(v2 + 6, 0x20);
	fw_put_le32(v2 + 8, 0x60);
	v2[16] = (uint8_t)(0 - fw_sum8(v2, 0x60));
	CHECK(fw_firmware_parse_buffer(v2, sizeof(v2), NULL, &fw, &err));
	CHECK_EQ(fw.kind, FW_INPUT_AMD_APCB);
	CHECK_EQ(fw.tree->root->header_size, 32);
	CHECK_EQ(fw_node_field_get(fw.tree->root, "ApcbVersion")->v.u, 0x20);
	CHECK_EQ(fw_node_field_get(fw.tree->root, "PaddingAfter")->v.u, 0xA0);
	CHECK(fw_node_field_get(fw.tree->root, "ApcbChecksum valid")->v.b);
	fw_firmware_close(&fw);
	/* something other than erased flash after the block: a bigger input, not an APCB */
	v2[0xF0] = 0;
	CHECK(!fw_firmware_parse_buffer(v2, sizeof(v2), NULL, &fw, &err));
}
