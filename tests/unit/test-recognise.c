/* The recogniser: one table of input kinds and their probes; the kinds a caller takes decide
 * among probes that would all say yes. */
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "capsule/recognise.h"
#include "harness.h"
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
