/* The firmware parser core: the project's own fixtures (tests/data/firmware, exact values), the
 * Debian EDK2 images against UEFIExtract's report, and the WRX90E capsule against UEFIExtract
 * A68's report in the corpus. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "capsule/detect.h"
#include "harness.h"
#include "parsers/hash.h"
#include "parsers/intel-descriptor.h"
#include "tools/cli/tree-json.h"
#include "tools/query/source.h"

static struct fw_node *find(struct fw_node *root, const char *guid, enum fw_node_kind kind)
{
	struct fw_guid g;
	if (!fw_guid_parse(guid, &g))
		return NULL;
	return fw_node_find_guid(root, &g, kind);
}

static const struct fw_node *child_at(const struct fw_node *n, unsigned i)
{
	const struct fw_node *c = n ? n->first_child : NULL;
	while (c && i--)
		c = c->next;
	return c;
}

static const char *field_str(const struct fw_node *n, const char *key)
{
	const struct fw_field_value *f = n ? fw_node_field_get(n, key) : NULL;
	return f && f->type == FW_VAL_STR ? f->v.s : NULL;
}

static uint64_t field_uint(const struct fw_node *n, const char *key)
{
	const struct fw_field_value *f = n ? fw_node_field_get(n, key) : NULL;
	return f && f->type == FW_VAL_UINT ? f->v.u : UINT64_MAX;
}

static bool has_diag(const struct fw_node *n, const char *needle)
{
	for (const struct fw_diag *d = n ? n->diags : NULL; d; d = d->next)
		if (strstr(d->msg, needle))
			return true;
	return false;
}

struct counts {
	size_t by_kind[FW_NODE_KIND_COUNT];
	size_t diags, hii;
};

static bool count_visit(struct fw_node *n, void *ctx)
{
	struct counts *c = ctx;
	c->by_kind[n->kind]++;
	for (const struct fw_diag *d = n->diags; d; d = d->next)
		c->diags++;
	if (n->flags & FW_NODE_F_HAS_HII)
		c->hii++;
	return true;
}

static struct counts count(struct fw_node *root)
{
	struct counts c;
	memset(&c, 0, sizeof(c));
	fw_node_walk(root, count_visit, &c);
	return c;
}

static bool open_data(const char *rel, struct fw_firmware *fw)
{
	const char *path = fw_test_data(rel);
	if (!path)
		return false;
	struct fw_error err;
	fw_error_clear(&err);
	return fw_source_open_firmware(path, NULL, fw, &err);
}

TEST(firmware_mini_volume_layout)
{
	struct fw_firmware fw;
	CHECK(open_data("firmware/mini.fv", &fw));
	struct fw_node *root = fw.tree->root;
	CHECK_EQ(fw.kind, FW_INPUT_VOLUME);
	CHECK_EQ(root->kind, FW_NODE_VOLUME);
	CHECK_STR(root->type, "FFSv2");
	CHECK_EQ(root->size, 0x2000);
	CHECK_EQ(root->header_size, 0x78);
	char g[FW_GUID_STR_LEN];
	CHECK_STR(fw_guid_format(&root->guid, g), "F1E2D3C4-000C-4F00-8000-00000000000C");
	CHECK_EQ(root->nchildren, 10); /* 9 files and the free space */
	struct counts c = count(root);
	CHECK_EQ(c.by_kind[FW_NODE_VOLUME], 3);
	CHECK_EQ(c.by_kind[FW_NODE_FILE], 10);
	CHECK_EQ(c.by_kind[FW_NODE_SECTION], 21);
	CHECK_EQ(c.by_kind[FW_NODE_FREE_SPACE], 3);
	CHECK_EQ(c.by_kind[FW_NODE_PADDING], 1);
	CHECK_EQ(c.diags, 0);
	CHECK_EQ(c.hii, 1);

	/* The DXE driver: named by its UI section; depex decoded; PE header summarised. */
	struct fw_node *dxe = find(root, "F1E2D3C4-0001-4F00-8000-000000000001", FW_NODE_FILE);
	CHECK(dxe != NULL);
	CHECK_STR(dxe->name, "FwlensSampleDxe");
	CHECK_STR(dxe->type, "DXE driver");
	CHECK_EQ(dxe->offset, 0x78);
	CHECK_EQ(dxe->size, 0x2BE);
	CHECK(fw_node_field_get(dxe, "DataChecksumValid")->v.b);
	CHECK_STR(field_str(dxe, "StateText"), "valid");
	const struct fw_node *depex = child_at(dxe, 0), *pe = child_at(dxe, 1), *ver = child_at(dxe, 3);
	CHECK_STR(depex->type, "DXE dependency");
	CHECK_STR(field_str(depex, "Expression"), "TRUE AND gPcdProtocolGuid");
	CHECK_STR(pe->type, "PE32 image");
	CHECK_EQ(pe->offset, 0xA8);
	CHECK_EQ(field_uint(pe, "Machine"), 0x8664);
	CHECK_STR(field_str(pe, "Machine name"), "X64");
	CHECK_STR(field_str(pe, "Format"), "PE32+");
	CHECK_EQ(field_uint(pe, "Subsystem"), 11);
	CHECK_STR(field_str(pe, "Subsystem name"), "EFI boot service driver");
	CHECK_EQ(field_uint(pe, "SizeOfImage"), 0x3000);
	CHECK_EQ(field_uint(pe, "AddressOfEntryPoint"), 0x1000);
	CHECK(pe->flags & FW_NODE_F_HAS_HII);
	CHECK_EQ(field_uint(ver, "BuildNumber"), 7);
	CHECK_STR(field_str(ver, "Version"), "1.0");

	/* LZMA section: children from decompressed data have no offset; the nested volume and its
	 * PEIM (TE image) are found. */
	struct fw_node *lz = find(root, "EE4E5898-3914-4259-9D6E-DC7BD79403CF", FW_NODE_SECTION);
	CHECK(lz != NULL);
	CHECK(lz->flags & FW_NODE_F_COMPRESSED);
	CHECK_STR(field_str(lz, "Algorithm"), "LZMA");
	CHECK_EQ(lz->offset, 0x350);
	CHECK_EQ(lz->header_size, 0x18);
	CHECK_EQ(child_at(lz, 0)->offset, FW_OFFSET_UNKNOWN);
	struct fw_node *peim = find(root, "F1E2D3C4-0009-4F00-8000-000000000009", FW_NODE_FILE);
	CHECK(peim != NULL);
	CHECK_STR(peim->name, "FwlensSamplePei");
	CHECK_EQ(peim->offset, FW_OFFSET_UNKNOWN);
	const struct fw_node *te = child_at(peim, 1);
	CHECK_STR(te->type, "TE image");
	CHECK_EQ(field_uint(te, "ImageBase"), 0xFFC00000);
	CHECK_EQ(field_uint(te, "StrippedSize"), 0x1C0);
	CHECK_STR(field_str(child_at(peim, 0), "Expression"), "TRUE");

	/* EFI 1.1 (compression type 1), Tiano, Brotli, AMD zlib: each inflated to its sections. */
	struct fw_node *efi = find(root, "F1E2D3C4-0003-4F00-8000-000000000003", FW_NODE_FILE);
	CHECK_STR(efi->name, "EfiCompressed");
	CHECK_STR(field_str(child_at(efi, 0), "Algorithm"), "EFI 1.1");
	CHECK_EQ(child_at(efi, 0)->nchildren, 2);
	struct fw_node *ti = find(root, "A31280AD-481E-41B6-95E8-127F4C984779", FW_NODE_SECTION);
	CHECK_STR(field_str(ti, "Algorithm"), "Tiano");
	CHECK_EQ(child_at(ti, 0)->size, 0x74);
	struct fw_node *br = find(root, "3D532050-5CDA-4FD0-879E-0F7F630D5AFB", FW_NODE_SECTION);
	CHECK_STR(field_str(br, "Algorithm"), "Brotli");
	CHECK_EQ(child_at(br, 0)->size, 0x7C);
	struct fw_node *zl = find(root, "CE3233F5-2CD6-4D87-9152-4A238BB6D1C4", FW_NODE_SECTION);
	CHECK_STR(field_str(zl, "Algorithm"), "AMD zlib");
	CHECK_EQ(child_at(zl, 0)->size, 0x8C);
	/* CRC32 sections are not compressed: their children keep file offsets. */
	struct fw_node *crc = find(root, "FC1BCDB0-7D31-49AA-936A-A4600D9DD083", FW_NODE_SECTION);
	CHECK(fw_node_field_get(crc, "Crc32Valid")->v.b);
	CHECK_EQ(child_at(crc, 0)->offset, 0x6CC);
	/* A raw file's body is scanned for volumes, the bytes before it become padding. */
	struct fw_node *raw = find(root, "F1E2D3C4-0008-4F00-8000-000000000008", FW_NODE_FILE);
	CHECK_STR(child_at(raw, 0)->type, "Empty (0x00)");
	CHECK_EQ(child_at(raw, 1)->kind, FW_NODE_VOLUME);
	CHECK_EQ(child_at(raw, 1)->offset, 0x708);
	fw_firmware_close(&fw);
}

TEST(firmware_broken_volume_diagnostics)
{
	struct fw_firmware fw;
	CHECK(open_data("firmware/broken.fv", &fw));
	struct fw_node *root = fw.tree->root;
	CHECK_EQ(root->kind, FW_NODE_VOLUME);
	CHECK(root->flags & FW_NODE_F_CHECKSUM_BAD);
	CHECK(has_diag(root, "volume at 0x0: header checksum is invalid"));
	struct fw_node *f2 = find(root, "B0000000-0000-4000-8000-000000000002", FW_NODE_FILE);
	CHECK(has_diag(f2, "FFS file at 0x98: header checksum is invalid, should be 0x66"));
	struct fw_node *f3 = find(root, "B0000000-0000-4000-8000-000000000003", FW_NODE_FILE);
	CHECK(has_diag(f3, "data checksum 0xa0 is invalid, should be 0xfa"));
	struct fw_node *f4 = find(root, "B0000000-0000-4000-8000-000000000004", FW_NODE_FILE);
	CHECK_STR(field_str(f4, "StateText"), "deleted");
	struct fw_node *f5 = find(root, "B0000000-0000-4000-8000-000000000005", FW_NODE_FILE);
	CHECK_EQ(child_at(f5, 0)->kind, FW_NODE_PADDING);
	CHECK(has_diag(child_at(f5, 0), "section header at 0x128"));
	struct fw_node *unk = find(root, "B0000000-0000-4000-8000-0000000000FF", FW_NODE_SECTION);
	CHECK(unk->flags & FW_NODE_F_OPAQUE);
	CHECK(has_diag(unk, "needs processing"));
	struct fw_node *lz = find(root, "EE4E5898-3914-4259-9D6E-DC7BD79403CF", FW_NODE_SECTION);
	CHECK(lz->flags & FW_NODE_F_OPAQUE);
	CHECK(has_diag(lz, "LZMA stream: corrupt compressed data"));
	/* Parsing went on past every broken file. */
	struct fw_node *after = find(root, "B0000000-0000-4000-8000-000000000008", FW_NODE_FILE);
	CHECK(after != NULL);
	CHECK_EQ(child_at(after, 0)->size, 9);
	const struct fw_node *last = fw_node_last_child(fw.tree, root);
	CHECK_STR(last->type, "Non-UEFI data");
	CHECK_EQ(last->offset, 0x240);
	CHECK_EQ(last->size, 0x5C0);
	fw_firmware_close(&fw);
}

TEST(firmware_more_section_kinds)
{
	struct fw_firmware fw;
	CHECK(open_data("firmware/more.fv", &fw));
	struct fw_node *root = fw.tree->root;
	/* LZMA F86: the x86 BCJ filter is undone, the output equals the generated code. */
	struct fw_node *f86 = find(root, "D42AE6BD-1352-4BFB-909A-CA72A6EAE889", FW_NODE_SECTION);
	CHECK_STR(field_str(f86, "Algorithm"), "LZMA F86");
	const struct fw_node *code = child_at(f86, 0);
	CHECK_EQ(code->size, 0x204);
	size_t n;
	uint8_t *want = fw_test_read_file(fw_test_data("compress/code.bin"), &n);
	CHECK(want != NULL);
	CHECK(memcmp(code->body.p, want, 512) == 0);
	free(want);
	struct fw_node *gz = find(root, "1D301FE9-BE79-4353-91C2-D23BC959AE0C", FW_NODE_SECTION);
	CHECK_STR(field_str(gz, "Algorithm"), "GZip");
	CHECK_EQ(child_at(gz, 0)->body.len, 12);
	/* Signed sections: the certificate is header, the signed data parses with file offsets. */
	struct fw_node *sig = find(root, "0F9D89E8-9259-4F76-A5AF-0C89E34023DF", FW_NODE_SECTION);
	CHECK_EQ(field_uint(sig, "CertificateLength"), 88);
	CHECK_EQ(sig->header_size, 0x18 + 88);
	CHECK_EQ(child_at(sig, 0)->offset, 0x2A0);
	struct fw_node *rsa = find(root, "A7717414-C616-4977-9420-844712A735BF", FW_NODE_SECTION);
	CHECK_EQ(rsa->header_size, 0x18 + 528);
	CHECK_EQ(child_at(rsa, 0)->offset, 0x4F8);
	/* Compression type 0 stores its sections; type 1 holding Tiano data decodes as Tiano. */
	struct fw_node *stored = find(root, "D0000000-0000-4000-8000-000000000005", FW_NODE_FILE);
	CHECK_STR(stored->name, "Stored");
	CHECK_STR(field_str(child_at(stored, 0), "Algorithm"), "none");
	CHECK_EQ(child_at(child_at(stored, 0), 0)->offset, 0x529);
	struct fw_node *t1 = find(root, "D0000000-0000-4000-8000-000000000006", FW_NODE_FILE);
	CHECK_STR(field_str(child_at(t1, 0), "Algorithm"), "Tiano");
	CHECK_EQ(child_at(child_at(t1, 0), 0)->size, 0xB0);
	struct fw_node *misc = find(root, "D0000000-0000-4000-8000-000000000007", FW_NODE_FILE);
	CHECK_STR(child_at(misc, 0)->type, "Disposable");
	CHECK_EQ(child_at(misc, 0)->nchildren, 1);
	CHECK_EQ(field_uint(child_at(misc, 1), "Postcode"), 0x1234);
	CHECK_STR(child_at(misc, 2)->type, "16-bit image");
	/* Apriori list and dependency expressions by name. */
	struct fw_node *apr = find(root, "1B45CC0A-156A-428A-AF62-49864DA0E6E6", FW_NODE_FILE);
	CHECK_STR(field_str(child_at(apr, 0), "Apriori"), "PeiCore, D0000000-0000-4000-8000-000000000008");
	struct fw_node *mm = find(root, "D0000000-0000-4000-8000-000000000008", FW_NODE_FILE);
	CHECK_STR(mm->type, "SMM module");
	CHECK_STR(field_str(child_at(mm, 0), "Expression"), "SOR NOT (gPcdProtocolGuid OR PeiCore)");
	CHECK_STR(field_str(child_at(mm, 1), "Expression"), "gPcdProtocolGuid");
	CHECK(has_diag(child_at(mm, 1), "no END opcode"));
	fw_firmware_close(&fw);
}

TEST(firmware_input_kinds)
{
	struct fw_firmware fw;
	CHECK(open_data("firmware/mini.cap", &fw));
	CHECK_EQ(fw.kind, FW_INPUT_CAPSULE);
	CHECK_EQ(fw.tree->root->kind, FW_NODE_CAPSULE);
	const struct fw_node *img = child_at(fw.tree->root, 0);
	CHECK_EQ(img->kind, FW_NODE_IMAGE);
	CHECK_STR(img->type, "UEFI");
	CHECK_EQ(img->offset, 0x100);
	CHECK_EQ(child_at(img, 0)->kind, FW_NODE_VOLUME);
	CHECK_EQ(child_at(img, 0)->offset, 0x100);
	fw_firmware_close(&fw);

	CHECK(open_data("firmware/dxe.ffs", &fw));
	CHECK_EQ(fw.kind, FW_INPUT_FFS_FILE);
	CHECK_STR(fw.tree->root->name, "FwlensSampleDxe");
	CHECK_EQ(fw.tree->root->nchildren, 4);
	fw_firmware_close(&fw);

	CHECK(open_data("firmware/pe32.sct", &fw));
	CHECK_EQ(fw.kind, FW_INPUT_SECTION);
	CHECK_STR(fw.tree->root->type, "PE32 image");
	CHECK_STR(field_str(fw.tree->root, "Machine name"), "X64");
	fw_firmware_close(&fw);

	CHECK(open_data("firmware/ffs3.fv", &fw));
	CHECK_STR(fw.tree->root->type, "FFSv3");
	const struct fw_node *large = child_at(fw.tree->root, 0);
	CHECK_EQ(large->header_size, 32);
	CHECK_EQ(large->size, 0x60);
	CHECK_EQ(child_at(large, 0)->header_size, 8);
	CHECK_EQ(field_uint(child_at(large, 0), "ExtendedSize"), 0x40);
	fw_firmware_close(&fw);

	/* Not firmware at all: one clear error. */
	static const uint8_t junk[64] = "this is a text file, not firmware; nothing to see here at all";
	struct fw_error err;
	fw_error_clear(&err);
	CHECK(!fw_firmware_parse_buffer(junk, sizeof(junk), NULL, &fw, &err));
	CHECK_EQ(err.code, FW_E_INVALID);
	CHECK(strstr(err.msg, "not a firmware file") != NULL);
	fw_error_clear(&err);
	CHECK(!fw_firmware_parse_buffer(junk, 0, NULL, &fw, &err));
}

/* An FMP capsule as edk2's GenerateCapsule writes one: an embedded driver, then two payload items,
 * each an EFI_FIRMWARE_MANAGEMENT_CAPSULE_IMAGE_HEADER (version 3), FmpDevicePkg's "MSS1" payload
 * header and a volume (mini.fv). Every payload is decoded, not only the first. */
TEST(firmware_fmp_capsule_every_payload)
{
	const char *path = fw_test_data("firmware/mini.fv");
	if (!path)
		SKIP("tests/data/firmware/mini.fv not present");
	FILE *f = fopen(path, "rb");
	CHECK(f);
	static uint8_t fv[0x2000];
	CHECK_EQ(fread(fv, 1, sizeof(fv), f), sizeof(fv));
	fclose(f);
	enum { HDR = 0x20, BODY = 8 + 3 * 8, DRV = 0x40, ITEM0 = 0x100, ITEM_HDR = 0x30 };
	const size_t item_len = ITEM_HDR + 16 + sizeof(fv);
	const size_t item1 = ITEM0 + item_len, total = HDR + item1 + item_len;
	uint8_t *c = calloc(1, total);
	CHECK(c);
	fw_put_le32(c, 0x6DCBD5ED); /* EFI_FIRMWARE_MANAGEMENT_CAPSULE_ID_GUID */
	fw_put_le16(c + 4, 0xE82D);
	fw_put_le16(c + 6, 0x4C44);
	memcpy(c + 8, (const uint8_t[]){0xBD, 0xA1, 0x71, 0x94, 0x19, 0x9A, 0xD9, 0x2A}, 8);
	fw_put_le32(c + 16, HDR);
	fw_put_le32(c + 20, 0x10000); /* PersistAcrossReset */
	fw_put_le32(c + 24, (uint32_t)total);
	uint8_t *body = c + HDR;
	fw_put_le32(body, 1);
	fw_put_le16(body + 4, 1); /* one embedded driver */
	fw_put_le16(body + 6, 2); /* two payloads */
	fw_put_le64(body + 8, DRV);
	fw_put_le64(body + 16, ITEM0);
	fw_put_le64(body + 24, item1);
	memcpy(body + DRV, "MZ", 2);
	for (int i = 0; i < 2; i++) {
		uint8_t *it = body + (i ? item1 : ITEM0);
		fw_put_le32(it, 3);
		memset(it + 4, 0x11 * (i + 1), 16); /* UpdateImageTypeId */
		it[0x14] = (uint8_t)(i + 1);
		fw_put_le32(it + 0x18, (uint32_t)(16 + sizeof(fv)));
		uint8_t *mss = it + ITEM_HDR;
		memcpy(mss, "MSS1", 4);
		fw_put_le32(mss + 4, 16);
		fw_put_le32(mss + 8, 0x10002u + (uint32_t)i);
		fw_put_le32(mss + 12, 0x10000);
		memcpy(mss + 16, fv, sizeof(fv));
	}
	struct fw_firmware fw;
	struct fw_error err;
	fw_error_clear(&err);
	CHECK(fw_firmware_parse_buffer(c, total, NULL, &fw, &err));
	struct fw_node *cap = fw.tree->root;
	CHECK_EQ(cap->kind, FW_NODE_CAPSULE);
	CHECK_STR(cap->type, "FMP");
	CHECK_EQ(cap->nchildren, 2);
	for (unsigned i = 0; i < 2; i++) {
		const struct fw_node *img = child_at(cap, i);
		size_t fv_off = HDR + (i ? item1 : ITEM0) + ITEM_HDR + 16;
		CHECK_EQ(img->kind, FW_NODE_IMAGE);
		CHECK_EQ(img->offset, fv_off); /* the payload header is not part of the image */
		CHECK_EQ(img->size, sizeof(fv));
		CHECK_EQ(child_at(img, 0)->kind, FW_NODE_VOLUME);
		CHECK_EQ(child_at(img, 0)->offset, fv_off);
		CHECK_EQ(count((struct fw_node *)child_at(img, 0)).by_kind[FW_NODE_FILE], 10);
	}
	CHECK_STR(field_str(cap, "Payload[0] payload header"), "MSS1, FwVersion 0x10002, LowestSupportedVersion 0x10000");
	CHECK_STR(field_str(cap, "Payload[1] payload header"), "MSS1, FwVersion 0x10003, LowestSupportedVersion 0x10000");
	CHECK_STR(field_str(cap, "Driver[0]"), "offset 0x40");
	fw_firmware_close(&fw);
	free(c);
}

/* An Intel flash descriptor image: descriptor, ME and BIOS regions from the FLREG entries, an
 * unused entry, one past the end of the image and one overlapping another; volumes are found in
 * the BIOS region only. */
TEST(firmware_intel_descriptor_regions)
{
	const char *path = fw_test_data("firmware/mini.fv");
	if (!path)
		SKIP("tests/data/firmware/mini.fv not present");
	enum { LEN = 0x10000, FRBA = 0x40 };
	uint8_t *m = malloc(LEN);
	CHECK(m);
	memset(m, 0xFF, LEN);
	FILE *f = fopen(path, "rb");
	CHECK(f);
	CHECK_EQ(fread(m + 0xC000, 1, 0x2000, f), 0x2000);
	fclose(f);
	memset(m + 0x1000, 0x5A, 0x100); /* something in the ME region */
	fw_put_le32(m + FW_IFD_SIGNATURE_OFFSET, FW_IFD_SIGNATURE);
	fw_put_le32(m + 0x14, (FRBA >> 4) << 16 | 0x03);   /* FLMAP0: FRBA 0x40, FCBA 0x30 */
	fw_put_le32(m + 0x18, 0x00100008);                 /* FLMAP1: FMBA 0x80, FPSBA 0x100 */
	fw_put_le32(m + FRBA + 0, 0x00000000);             /* Descriptor 0x0-0xFFF */
	fw_put_le32(m + FRBA + 4, 0x000F0008);             /* BIOS 0x8000-0xFFFF */
	fw_put_le32(m + FRBA + 8, 0x00070001);             /* ME 0x1000-0x7FFF */
	fw_put_le32(m + FRBA + 12, 0x00007FFF);            /* GbE: not in use */
	fw_put_le32(m + FRBA + 16, 0x001F0010);            /* PDR 0x10000-0x1FFFF: past the image */
	fw_put_le32(m + FRBA + 20, 0x00020002);            /* DevExp1 0x2000-0x2FFF: inside ME */
	struct fw_view v = fw_view_make(m, LEN, 0);
	CHECK(fw_ifd_probe(&v));
	struct fw_firmware fw;
	struct fw_error err;
	fw_error_clear(&err);
	CHECK(fw_firmware_parse_buffer(m, LEN, NULL, &fw, &err));
	struct fw_node *img = fw.tree->root;
	CHECK_EQ(img->kind, FW_NODE_IMAGE);
	CHECK_STR(img->type, "Intel");
	CHECK_EQ(img->nchildren, 3);
	const char *types[] = {"Descriptor", "ME", "BIOS"};
	const uint64_t offs[] = {0, 0x1000, 0x8000}, sizes[] = {0x1000, 0x7000, 0x8000};
	for (unsigned i = 0; i < 3; i++) {
		const struct fw_node *r = child_at(img, i);
		CHECK_EQ(r->kind, FW_NODE_REGION);
		CHECK_STR(r->type, types[i]);
		CHECK_EQ(r->offset, offs[i]);
		CHECK_EQ(r->size, sizes[i]);
	}
	CHECK_EQ(child_at(img, 1)->nchildren, 0); /* no volume search outside BIOS */
	const struct fw_node *bios = child_at(img, 2);
	CHECK_EQ(child_at(bios, 0)->kind, FW_NODE_PADDING);
	CHECK_EQ(child_at(bios, 1)->kind, FW_NODE_VOLUME);
	CHECK_EQ(child_at(bios, 1)->offset, 0xC000);
	CHECK_EQ(count(img).by_kind[FW_NODE_FILE], 10);
	CHECK_STR(field_str(img, "FLREG2"), "ME 0x1000-0x7FFF");
	CHECK(fw_node_field_get(img, "FLREG3") == NULL);
	CHECK(has_diag(img, "PDR region at 0x10000 starts past the 0x10000-byte image"));
	CHECK(has_diag(img, "DevExp1 region at 0x2000 overlaps the region before it"));
	fw_firmware_close(&fw);
	/* a region section on top of the map itself is not a descriptor */
	fw_put_le32(m + 0x14, 0x00010003);
	CHECK(!fw_ifd_probe(&v));
	free(m);
}

TEST(firmware_limits_hold)
{
	const char *path = fw_test_data("firmware/mini.fv");
	CHECK(path != NULL);
	size_t n;
	uint8_t *b = fw_test_read_file(path, &n);
	struct fw_limits l = fw_limits_default();
	l.max_nodes = 10;
	struct fw_open_options o = {0, &l};
	struct fw_firmware fw;
	struct fw_error err;
	fw_error_clear(&err);
	CHECK(!fw_firmware_parse_buffer(b, n, &o, &fw, &err));
	CHECK_EQ(err.code, FW_E_LIMIT);
	/* A decompression cap below the LZMA output keeps that section opaque, the rest parses. */
	l = fw_limits_default();
	l.max_decompressed_one = 0x100;
	CHECK(fw_firmware_parse_buffer(b, n, &o, &fw, &err));
	struct fw_node *lz = find(fw.tree->root, "EE4E5898-3914-4259-9D6E-DC7BD79403CF", FW_NODE_SECTION);
	CHECK(lz->flags & FW_NODE_F_OPAQUE);
	CHECK(has_diag(lz, "over the limit"));
	CHECK(find(fw.tree->root, "F1E2D3C4-0008-4F00-8000-000000000008", FW_NODE_FILE) != NULL);
	fw_firmware_close(&fw);
	/* Layout only: nothing is inflated. */
	o.limits = NULL;
	o.flags = FW_OPEN_LAYOUT_ONLY;
	CHECK(fw_firmware_parse_buffer(b, n, &o, &fw, &err));
	CHECK_EQ(fw.tree->decompressed_total, 0);
	CHECK(find(fw.tree->root, "F1E2D3C4-0009-4F00-8000-000000000009", FW_NODE_FILE) == NULL);
	fw_firmware_close(&fw);
	free(b);
}

/* Random byte flips and truncations of every fixture parse without crashing; under ASan/UBSan
 * this checks every read is bounded. */
TEST(firmware_mutations_do_not_crash)
{
	static const char *const fixtures[] = {"firmware/mini.fv", "firmware/broken.fv", "firmware/mini.cap",
					       "firmware/dxe.ffs", "firmware/ffs3.fv", "firmware/more.fv"};
	uint32_t seed = 0xC0FFEE;
	for (size_t i = 0; i < sizeof(fixtures) / sizeof(fixtures[0]); i++) {
		const char *path = fw_test_data(fixtures[i]);
		CHECK(path != NULL);
		size_t n;
		uint8_t *orig = fw_test_read_file(path, &n);
		uint8_t *b = malloc(n);
		for (int round = 0; round < 150; round++) {
			memcpy(b, orig, n);
			int flips = 1 + round % 4;
			for (int k = 0; k < flips; k++) {
				seed = seed * 1664525u + 1013904223u;
				b[(seed >> 8) % n] = (uint8_t)(seed >> 24);
			}
			size_t len = round % 5 == 4 ? (seed >> 4) % n : n;
			struct fw_firmware fw;
			if (fw_firmware_parse_buffer(b, len, NULL, &fw, NULL)) {
				json_decref(fw_tree_to_json(fw.tree, "image", FW_JSON_CRC32));
				fw_firmware_close(&fw);
			}
		}
		free(b);
		free(orig);
	}
}

/* The corpus's single modules, sections and stores are recognised for what SOURCES.md says they are. */
TEST(firmware_corpus_inputs_detected)
{
	static const struct {
		const char *rel;
		enum fw_input_kind kind;
		const char *type;
		bool hii;
	} cases[] = {
		{"firmware/asrock-bc250-p4.00G_Setup_pe32-section.sct", FW_INPUT_SECTION, "PE32 image", true},
		{"firmware/asrock-bc250-p4.00G_CbsSetupDxe_pe32-section.sct", FW_INPUT_SECTION, "PE32 image", true},
		{"firmware/asrock-bc250-p4.00G_AMITSE_pe32-section.sct", FW_INPUT_SECTION, "PE32 image", false},
		{"firmware/asus-rog-strix-b550f-gaming_AMITSE_pe32-section.sct", FW_INPUT_SECTION, "PE32 image", false},
		{"firmware/hp-victus-15l-amd_Setup_pe32-body.efi", FW_INPUT_PE, "PE32 image", true},
		{"firmware/ami-aptio5-secureflash_FwCapsuleHdr-template.ffs", FW_INPUT_FFS_FILE, "Freeform", false},
		{"firmware/asus-wrx90e-sage-se-1203_nvram-volume-1.bin", FW_INPUT_VOLUME, "FFSv2", false},
		{"firmware/yadro-purley-server_ami-nvram-volume.bin", FW_INPUT_VOLUME, "FFSv2", false},
		{"firmware/asus-t100ta-aptio4_efivar_StdDefaults-nvar.bin", FW_INPUT_NVRAM, "NVAR", false},
	};
	size_t tested = 0;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const char *path = fw_test_corpus(cases[i].rel);
		if (!path)
			continue;
		struct fw_firmware fw;
		struct fw_error err;
		fw_error_clear(&err);
		CHECK_MSG(fw_source_open_firmware(path, NULL, &fw, &err), "%s: %s", cases[i].rel, err.msg);
		CHECK_MSG(fw.kind == cases[i].kind, "%s: kind %s", cases[i].rel, fw_input_kind_name(fw.kind));
		CHECK_STR(fw.tree->root->type, cases[i].type);
		struct counts c = count(fw.tree->root);
		CHECK_MSG((c.hii > 0) == cases[i].hii, "%s: HII flag %zu", cases[i].rel, c.hii);
		CHECK_MSG(c.diags == 0 || fw.kind == FW_INPUT_VOLUME, "%s: %zu diagnostics", cases[i].rel, c.diags);
		if (fw.kind == FW_INPUT_PE || fw.kind == FW_INPUT_SECTION)
			CHECK_STR(field_str(fw.tree->root, "Machine name"), "X64");
		fw_firmware_close(&fw);
		tested++;
	}
	if (!tested)
		SKIP("corpus firmware/ not present");
}

/* --- oracles --------------------------------------------------------------------------------- */

struct keys {
	char **v;
	size_t n, cap;
	size_t volumes;
};

static void keys_add(struct keys *k, const char *s)
{
	if (k->n == k->cap) {
		k->cap = k->cap ? k->cap * 2 : 256;
		k->v = realloc(k->v, k->cap * sizeof(*k->v));
	}
	k->v[k->n++] = strdup(s);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void keys_free(struct keys *k)
{
	for (size_t i = 0; i < k->n; i++)
		free(k->v[i]);
	free(k->v);
}

/* File rows "GUID:SIZE" (pad files "PAD:SIZE") and the Volume row count of a UEFIExtract report. */
static bool report_keys(const char *path, struct keys *k)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return false;
	char line[1024];
	while (fgets(line, sizeof(line), f)) {
		char *col[8] = {0};
		int nc = 0;
		for (char *p = line, *s = line; nc < 8; p++) {
			if (*p == '|' || *p == '\0' || *p == '\n') {
				bool end = *p != '|';
				*p = '\0';
				col[nc++] = s;
				s = p + 1;
				if (end)
					break;
			}
		}
		if (nc < 6)
			continue;
		if (strncmp(col[0], " Volume ", 8) == 0)
			k->volumes++;
		if (strncmp(col[0], " File ", 6) != 0)
			continue;
		unsigned long size = strtoul(col[3], NULL, 16);
		char *name = col[5];
		while (*name == ' ' || *name == '-')
			name++;
		char key[80];
		if (strstr(col[1], "Pad"))
			snprintf(key, sizeof(key), "PAD:%lX", size);
		else
			snprintf(key, sizeof(key), "%.36s:%lX", name, size);
		keys_add(k, key);
	}
	fclose(f);
	return true;
}

static bool tree_keys_visit(struct fw_node *n, void *ctx)
{
	struct keys *k = ctx;
	if (n->kind == FW_NODE_VOLUME)
		k->volumes++;
	if (n->kind != FW_NODE_FILE)
		return true;
	char key[80], g[FW_GUID_STR_LEN];
	if (strcmp(n->type, "Pad") == 0)
		snprintf(key, sizeof(key), "PAD:%llX", (unsigned long long)n->size);
	else
		snprintf(key, sizeof(key), "%s:%llX", fw_guid_format(&n->guid, g), (unsigned long long)n->size);
	keys_add(k, key);
	return true;
}

/* Compare two sorted key lists; describes the first differences in why. */
static bool same_keys(struct keys *a, struct keys *b, char *why, size_t len)
{
	if (a->n)
		qsort(a->v, a->n, sizeof(char *), cmp_str);
	if (b->n)
		qsort(b->v, b->n, sizeof(char *), cmp_str);
	size_t i = 0, j = 0, used = 0;
	why[0] = '\0';
	while ((i < a->n || j < b->n) && used < len - 100) {
		int c = i == a->n ? 1 : j == b->n ? -1 : strcmp(a->v[i], b->v[j]);
		if (c == 0) {
			i++, j++;
			continue;
		}
		used += (size_t)snprintf(why + used, len - used, "%s %s; ", c < 0 ? "only in report" : "only in fwlens",
					 c < 0 ? a->v[i] : b->v[j]);
		if (c < 0)
			i++;
		else
			j++;
	}
	if (a->volumes != b->volumes)
		snprintf(why + used, len - used, "volumes: report %zu, fwlens %zu", a->volumes, b->volumes);
	return why[0] == '\0';
}

static const char *find_in_path(const char *prog)
{
	static char buf[1024];
	const char *path = getenv("PATH");
	if (!path)
		return NULL;
	for (const char *p = path; *p;) {
		const char *colon = strchr(p, ':');
		size_t len = colon ? (size_t)(colon - p) : strlen(p);
		snprintf(buf, sizeof(buf), "%.*s/%s", (int)len, p, prog);
		if (access(buf, X_OK) == 0)
			return buf;
		p = colon ? colon + 1 : p + len;
	}
	return NULL;
}

/* UEFIExtract writes next to its input, so the image is copied into a temporary folder first. */
static bool run_uefiextract(const char *image, char *report, size_t len, char *dir, size_t dirlen)
{
	snprintf(dir, dirlen, "%s/fwlens-oracle.XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (!mkdtemp(dir))
		return false;
	size_t n;
	uint8_t *b = fw_test_read_file(image, &n);
	if (!b)
		return false;
	char copy[1200];
	snprintf(copy, sizeof(copy), "%s/image.bin", dir);
	FILE *f = fopen(copy, "wb");
	bool ok = f && fwrite(b, 1, n, f) == n;
	if (f)
		ok = fclose(f) == 0 && ok;
	free(b);
	if (!ok)
		return false;
	pid_t pid = fork();
	if (pid == 0) {
		if (!freopen("/dev/null", "w", stdout) || !freopen("/dev/null", "w", stderr) || chdir(dir) != 0)
			_exit(127);
		execlp("UEFIExtract", "UEFIExtract", "image.bin", "report", (char *)NULL);
		_exit(127);
	}
	int status;
	if (pid < 0 || waitpid(pid, &status, 0) != pid)
		return false;
	snprintf(report, len, "%s/image.bin.report.txt", dir);
	return access(report, R_OK) == 0;
}

static void remove_dir(const char *dir)
{
	char p[1200];
	snprintf(p, sizeof(p), "%s/image.bin", dir);
	unlink(p);
	snprintf(p, sizeof(p), "%s/image.bin.report.txt", dir);
	unlink(p);
	rmdir(dir);
}

static const char *const debian_images[] = {
	"/usr/share/OVMF/OVMF_CODE_4M.fd",     "/usr/share/OVMF/OVMF_VARS_4M.ms.fd",
	"/usr/share/OVMF/OVMF_CODE.fd",        "/usr/share/OVMF/OVMF_VARS.fd",
	"/usr/share/OVMF/OVMF32_CODE_4M.secboot.fd", "/usr/share/ovmf/OVMF.fd",
	"/usr/share/AAVMF/AAVMF_CODE.fd",      "/usr/share/AAVMF/AAVMF_VARS.fd",
	"/usr/share/qemu-efi-aarch64/QEMU_EFI.fd",
};

TEST(firmware_debian_images_match_uefiextract)
{
	if (!find_in_path("UEFIExtract"))
		SKIP("UEFIExtract is not installed (Debian package uefitool-cli)");
	size_t tested = 0;
	char missing[512] = "";
	for (size_t i = 0; i < sizeof(debian_images) / sizeof(debian_images[0]); i++) {
		const char *img = debian_images[i];
		if (access(img, R_OK) != 0) {
			size_t l = strlen(missing);
			snprintf(missing + l, sizeof(missing) - l, " %s", img);
			continue;
		}
		char report[1200], dir[1024], why[4096];
		CHECK_MSG(run_uefiextract(img, report, sizeof(report), dir, sizeof(dir)), "UEFIExtract failed on %s", img);
		struct keys want = {0}, got = {0};
		CHECK(report_keys(report, &want));
		remove_dir(dir);
		struct fw_firmware fw;
		struct fw_error err;
		fw_error_clear(&err);
		CHECK_MSG(fw_source_open_firmware(img, NULL, &fw, &err), "%s: %s", img, err.msg);
		fw_node_walk(fw.tree->root, tree_keys_visit, &got);
		fw_firmware_close(&fw);
		bool same = same_keys(&want, &got, why, sizeof(why));
		size_t nfiles = want.n;
		keys_free(&want);
		keys_free(&got);
		CHECK_MSG(same, "%s differs from UEFIExtract: %s", img, why);
		CHECK_MSG(nfiles > 0 || strstr(img, "VARS"), "%s: the report lists no files", img);
		tested++;
	}
	if (!tested)
		SKIP("no Debian EDK2 image installed (ovmf, qemu-efi-aarch64):%s", missing);
}

static bool zlib_file_visit(struct fw_node *n, void *ctx)
{
	struct fw_guid zg;
	fw_guid_parse("CE3233F5-2CD6-4D87-9152-4A238BB6D1C4", &zg);
	if (n->kind != FW_NODE_FILE)
		return true;
	for (struct fw_node *up = n->parent; up; up = up->parent)
		if (up->kind == FW_NODE_SECTION && up->has_guid && fw_guid_eq(&up->guid, &zg) &&
		    (up->flags & FW_NODE_F_COMPRESSED)) {
			(*(size_t *)ctx)++;
			break;
		}
	return true;
}

TEST(firmware_wrx90e_capsule_matches_a68_report)
{
	const char *cap = fw_test_corpus("firmware/asus-wrx90e-sage-se-1203_rebuilt.cap");
	if (!cap)
		SKIP("corpus firmware/asus-wrx90e-sage-se-1203_rebuilt.cap not present");
	char cap_path[1024];
	snprintf(cap_path, sizeof(cap_path), "%s", cap);
	const char *report = fw_test_corpus("firmware/asus-wrx90e-sage-se-1203_uefiextract-A68.report.txt");
	CHECK(report != NULL);
	struct keys want = {0}, got = {0};
	CHECK(report_keys(report, &want));
	CHECK_EQ(want.n, 846);
	struct fw_firmware fw;
	struct fw_error err;
	fw_error_clear(&err);
	CHECK_MSG(fw_source_open_firmware(cap_path, NULL, &fw, &err), "%s", err.msg);
	CHECK_EQ(fw.kind, FW_INPUT_CAPSULE);
	CHECK_EQ(fw.tree->root->kind, FW_NODE_CAPSULE);
	CHECK_STR(fw.tree->root->type, "Aptio signed");
	CHECK_EQ(fw.tree->root->header_size, 0x1000);
	fw_node_walk(fw.tree->root, tree_keys_visit, &got);
	/* The 294 files inside the two AMD zlib sections are among them. */
	size_t in_zlib = 0;
	fw_node_walk(fw.tree->root, zlib_file_visit, &in_zlib);
	CHECK_EQ(in_zlib, 294);
	fw_firmware_close(&fw);
	char why[4096];
	bool same = same_keys(&want, &got, why, sizeof(why));
	size_t vols = got.volumes;
	keys_free(&want);
	keys_free(&got);
	CHECK_MSG(same, "differs from the A68 report: %s", why);
	CHECK_EQ(vols, 12);
}
