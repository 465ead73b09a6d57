/* The recogniser: one table of input kinds and their probes; the kinds a caller takes decide
 * among probes that would all say yes. */
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "capsule/recognise.h"
#include "harness.h"
#include "parsers/fv.h"
#include "parsers/tar.h"
#include "tools/query/source.h"

#define ANY (~(uint64_t)0)

static enum fw_input_kind of(const char *text, const char *name, uint64_t accept)
{
	return fw_input_recognise_bytes((const uint8_t *)text, strlen(text), name, accept);
}

/* A tar of one member, written by the snapshot writer's tar code. */
static uint8_t *tar_of(const char *member, const char *data, size_t *len)
{
	char *buf = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&buf, &n);
	struct fw_tar_writer w;
	fw_tar_writer_init(&w, f, 0);
	fw_tar_write_file(&w, member, (const uint8_t *)data, strlen(data));
	fw_tar_finish(&w);
	fclose(f);
	*len = n;
	return (uint8_t *)buf;
}

TEST(recognise_every_kind_has_one_name)
{
	for (int k = 1; k < FW_INPUT_KIND_COUNT; k++) {
		const char *name = fw_input_kind_name((enum fw_input_kind)k);
		CHECK_MSG(strcmp(name, "unknown") != 0, "kind %d has no row", k);
		for (int j = 1; j < k; j++)
			CHECK_MSG(strcmp(name, fw_input_kind_name((enum fw_input_kind)j)) != 0, "kinds %d and %d share %s", j, k, name);
	}
	CHECK_STR(fw_input_kind_name(FW_INPUT_NVRAM), "nvram-store");
	CHECK_STR(fw_input_kind_name(FW_INPUT_REDFISH_BIOS), "redfish-bios");
}

TEST(recognise_text_inputs)
{
	CHECK_EQ(of("", NULL, ANY), FW_INPUT_EMPTY);
	CHECK_EQ(of("IVRS @ 0x0000000000000000\n    0000: 49 56 52 53 30 00 00 00  IVRS0...\n", NULL, ANY),
		 FW_INPUT_ACPIDUMP);
	CHECK_EQ(of("// Script File Name : a.txt\nHIICrc32= 4BD96F42\n", NULL, ANY), FW_INPUT_AMISCE);
	CHECK_EQ(of("{\"@odata.id\": \"/redfish/v1/Systems/1/Bios\", \"Attributes\": {\"SMTControl\": \"Auto\"}}", NULL, ANY),
		 FW_INPUT_REDFISH_BIOS);
	/* "Attributes" that is not an object, or broken JSON: not a Bios resource */
	CHECK(of("{\"Attributes\": 1}", NULL, ANY) != FW_INPUT_REDFISH_BIOS);
	CHECK(of("{\"Attributes\": {", NULL, ANY) != FW_INPUT_REDFISH_BIOS);
	/* a settings list is what its name says, whatever the bytes */
	CHECK_EQ(of("HIICrc32", "saved.json", ANY), FW_INPUT_SETTINGS_LIST);
	CHECK_EQ(of("HIICrc32", "saved.jsonl", ANY), FW_INPUT_SETTINGS_LIST);
	CHECK_EQ(of("[]", "-", ANY), FW_INPUT_SETTINGS_LIST);
	CHECK_EQ(of("MZ", "-", FW_ACCEPT_SOURCE), FW_INPUT_IMAGE);
}

TEST(recognise_tables_and_stores)
{
	static const uint8_t dsdt[36] = {'D', 'S', 'D', 'T', 36};
	CHECK_EQ(fw_input_recognise_bytes(dsdt, sizeof(dsdt), NULL, ANY), FW_INPUT_ACPI_TABLE);
	/* the same bytes for the firmware reader: no ACPI kinds there, so the image scan */
	CHECK_EQ(fw_input_recognise_bytes(dsdt, sizeof(dsdt), NULL, FW_ACCEPT_FIRMWARE), FW_INPUT_IMAGE);
	CHECK_EQ(of("RSD PTR \x01\x02", NULL, ANY), FW_INPUT_ACPI_TABLE);
	CHECK(of("dsdt\x24\0\0\0", NULL, ANY) != FW_INPUT_ACPI_TABLE);

	static const uint8_t nvar[16] = {'N', 'V', 'A', 'R', 16};
	static const uint8_t defaults[20] = {0x07, 0, 0, 0, 'N', 'V', 'A', 'R', 16};
	CHECK_EQ(fw_input_recognise_bytes(nvar, sizeof(nvar), NULL, FW_ACCEPT_FIRMWARE), FW_INPUT_NVRAM);
	CHECK_EQ(fw_input_recognise_bytes(defaults, sizeof(defaults), "StdDefaults.bin", FW_ACCEPT_VARS),
		 FW_INPUT_NVRAM_DEFAULTS);
	/* named like an efivarfs file, the attributes are the file's own: the firmware reader's efivar */
	const char *efivar = "StdDefaults-4599d26f-1a11-49b8-b91f-858745cff824";
	CHECK_EQ(fw_input_recognise_bytes(defaults, sizeof(defaults), efivar, FW_ACCEPT_VARS), FW_INPUT_EFIVAR);
	/* a bare NVAR store is not read on its own by nvram: the firmware reader takes it */
	CHECK_EQ(fw_input_recognise_bytes(nvar, sizeof(nvar), NULL, FW_ACCEPT_VARS), FW_INPUT_IMAGE);
	CHECK_EQ(of("$VSS\x40\0\0\0", NULL, ANY), FW_INPUT_VSS_STORE);
	CHECK_EQ(of("$VSS\x40\0\0\0", NULL, FW_ACCEPT_FIRMWARE), FW_INPUT_IMAGE);
}

TEST(recognise_tars_and_snapshots)
{
	size_t n;
	uint8_t *tar = tar_of("Boot0000-8be4df61-93ca-11d2-aa0d-00e098032b8c", "\x07\0\0\0\x01", &n);
	CHECK_EQ(fw_input_recognise_bytes(tar, n, "vars.tar", FW_ACCEPT_VARS), FW_INPUT_EFIVARFS_TAR);
	CHECK_EQ(fw_input_recognise_bytes(tar, n, "vars.tar", FW_ACCEPT_MACHINE), FW_INPUT_UNKNOWN);
	free(tar);
	tar = tar_of("manifest.json", "{\"format\": \"" FW_SNAPSHOT_FORMAT "\", \"version\": 1}", &n);
	CHECK_EQ(fw_input_recognise_bytes(tar, n, "m.fwsnap", ANY), FW_INPUT_SNAPSHOT);
	CHECK_EQ(fw_input_recognise_bytes(tar, n, "m.fwsnap", FW_ACCEPT_MACHINE), FW_INPUT_SNAPSHOT);
	free(tar);
	tar = tar_of("manifest.json", "{\"format\": \"something-else\"}", &n);
	CHECK_EQ(fw_input_recognise_bytes(tar, n, "m.fwsnap", FW_ACCEPT_MACHINE), FW_INPUT_UNKNOWN);
	free(tar);
}

/* Folders through the query layer's look at the file system. */
TEST(recognise_folders)
{
	char dir[] = "/tmp/fwlens-recognise-XXXXXX";
	CHECK(mkdtemp(dir));
	char sub[sizeof(dir) + 16];
	CHECK_EQ(fw_source_recognise(dir, FW_ACCEPT_SOURCE), FW_INPUT_FOLDER);
	CHECK_EQ(fw_source_recognise(dir, FW_ACCEPT_MACHINE), FW_INPUT_UNKNOWN);
	snprintf(sub, sizeof(sub), "%s/proc", dir);
	CHECK(mkdir(sub, 0700) == 0);
	CHECK_EQ(fw_source_recognise(dir, FW_ACCEPT_SOURCE), FW_INPUT_MACHINE_ROOT);
	CHECK_EQ(fw_source_recognise(dir, FW_ACCEPT_VARS), FW_INPUT_FOLDER);
	/* a missing path has no bytes: only what its name says, or the image scan (whose reader says why) */
	snprintf(sub, sizeof(sub), "%s/none.json", dir);
	CHECK_EQ(fw_source_recognise(sub, FW_ACCEPT_SOURCE), FW_INPUT_SETTINGS_LIST);
	snprintf(sub, sizeof(sub), "%s/none.bin", dir);
	CHECK_EQ(fw_source_recognise(sub, FW_ACCEPT_SOURCE), FW_INPUT_IMAGE);
	snprintf(sub, sizeof(sub), "%s/proc", dir);
	rmdir(sub);
	rmdir(dir);
}

/* What vendor downloads come in, by their first bytes; of their members, the one a flash tool
 * writes (here: bytes holding a firmware volume header, FFSv2, not at the start). */
TEST(recognise_vendor_archives_and_the_image_member)
{
	static const struct {
		const char *bytes;
		size_t len;
		bool archive;
	} starts[] = {
		{"PK\x03\x04", 4, true},          {"PK\x05\x06", 4, true},
		{"7z\xBC\xAF\x27\x1C", 6, true},  {"\x1F\x8B\x08\x00", 4, true},
		{"\xFD" "7zXZ\x00", 6, true},     {"\x28\xB5\x2F\xFD", 4, true},
		{"BZh9\x31\x41\x59\x26\x53\x59", 10, true},
		{"BZh9\x17\x72\x45\x38\x50\x90", 10, false}, /* an empty bzip2 stream holds no block */
		{"BZh0\x31\x41\x59\x26\x53\x59", 10, false}, {"PK\x01\x02", 4, false},
		{"\x1F\x8B\x07", 3, false},       {"PK\x03", 3, false},
	};
	for (size_t i = 0; i < sizeof(starts) / sizeof(starts[0]); i++)
		CHECK_MSG(fw_input_archive_probe((const uint8_t *)starts[i].bytes, starts[i].len) == starts[i].archive,
			  "start %zu", i);
	size_t n;
	uint8_t *tar = tar_of("BIOS.CAP", "x", &n);
	CHECK(fw_input_archive_probe(tar, n));
	CHECK(!fw_input_firmware_member(tar, n));
	free(tar);

	static uint8_t image[0x200];
	memset(image, 0xFF, sizeof(image));
	uint8_t *fvh = image + 0x80;
	fw_layout_put_guid(&fw_fvh_layout, fvh, FVH_FILE_SYSTEM_GUID, &fw_guid_ffs2);
	fw_layout_put(&fw_fvh_layout, fvh, FVH_LENGTH, 0x80000);
	fw_layout_put(&fw_fvh_layout, fvh, FVH_SIGNATURE, FW_FVH_SIGNATURE);
	fw_layout_put(&fw_fvh_layout, fvh, FVH_HEADER_LENGTH, 0x48);
	fw_layout_put(&fw_fvh_layout, fvh, FVH_REVISION, 2);
	CHECK(fw_input_firmware_member(image, sizeof(image)));
	CHECK(!fw_input_archive_probe(image, sizeof(image)));
	/* the volume header must fit: cut inside it, the bytes are no image */
	CHECK(!fw_input_firmware_member(image, 0x80 + 0x40));
	CHECK(!fw_input_firmware_member((const uint8_t *)"Flash it with AFUEFI64 _FVH", 27));
}

/* Which files of a folder of ACPI tables are tables (the others are skipped with a note). */
TEST(recognise_acpi_table_files)
{
	static const uint8_t dsdt[36] = {'D', 'S', 'D', 'T', 36};
	static const uint8_t short_len[36] = {'S', 'S', 'D', 'T', 35};
	static const uint8_t facs[64] = {'F', 'A', 'C', 'S', 64};
	static const uint8_t facs_short[64] = {'F', 'A', 'C', 'S', 63};
	CHECK(fw_acpi_table_file_probe(dsdt, sizeof(dsdt)));
	CHECK(!fw_acpi_table_file_probe(short_len, sizeof(short_len)));
	CHECK(fw_acpi_table_file_probe(facs, sizeof(facs)));
	CHECK(!fw_acpi_table_file_probe(facs_short, sizeof(facs_short)));
	CHECK(fw_acpi_table_file_probe((const uint8_t *)"RSD PTR ", 8));
	CHECK(!fw_acpi_table_file_probe((const uint8_t *)"dsdt\x24\0\0\0", 8));
	CHECK(!fw_acpi_table_file_probe((const uint8_t *)"DSDT", 4));
	CHECK(!fw_acpi_table_file_probe((const uint8_t *)"# acpidump text\n", 16));
}

/* A file is opened once: the bytes the recogniser read are the ones the reader parses (the file
 * is gone before the reader runs), and nothing is kept of a folder. */
TEST(recognise_keeps_the_bytes_it_read)
{
	char dir[] = "/tmp/fwlens-recognise-XXXXXX";
	CHECK(mkdtemp(dir));
	char path[sizeof(dir) + 16];
	snprintf(path, sizeof(path), "%s/DSDT", dir);
	uint8_t dsdt[36] = {'D', 'S', 'D', 'T', 36, 0, 0, 0, 2};
	uint8_t sum = 0;
	for (size_t i = 0; i < sizeof(dsdt); i++)
		sum = (uint8_t)(sum + dsdt[i]);
	dsdt[9] = (uint8_t)(0x100 - sum);
	FILE *f = fopen(path, "wb");
	CHECK(f && fwrite(dsdt, 1, sizeof(dsdt), f) == sizeof(dsdt));
	fclose(f);
	struct fw_file kept;
	enum fw_input_kind kind = fw_source_recognise_keep(path, FW_ACCEPT_ACPI, &kept);
	CHECK_EQ(kind, FW_INPUT_ACPI_TABLE);
	CHECK(kept.path && kept.len == sizeof(dsdt) && memcmp(kept.data, dsdt, sizeof(dsdt)) == 0);
	unlink(path);
	struct fw_acpi_set *s = NULL;
	struct fw_error err;
	bool opened = fw_source_acpi_open_kind(path, kind, &kept, &s, &err);
	CHECK_MSG(opened, "%s", err.msg);
	CHECK(kept.path == NULL); /* taken */
	CHECK(s->ntables == 1 && memcmp(s->tables[0]->signature, "DSDT", 4) == 0 && s->tables[0]->length == 36);
	fw_acpi_set_free(s);
	/* once more with the file gone and nothing kept: the reader's own error */
	CHECK(!fw_source_acpi_open_kind(path, kind, &kept, &s, &err));
	CHECK(strstr(err.msg, "cannot open") != NULL);
	CHECK_EQ(fw_source_recognise_keep(dir, FW_ACCEPT_ACPI, &kept), FW_INPUT_FOLDER);
	CHECK(kept.path == NULL && kept.data == NULL);
	rmdir(dir);
}
