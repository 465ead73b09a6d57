/* `acpi --format json`'s walk (tools/cli/acpi-json.c) through the emitter (parsers/json-text.h):
 * the bytes written as the parts are walked equal those of the tree the same walk builds, over
 * every table of the sample machines and of the acpidump corpus (when present). */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "acpi/set.h"
#include "parsers/json-text.h"
#include "tools/cli/acpi-write.h"

/* One table set both ways: the walk written (as `acpi --format json` writes each table) and
 * built as a tree then written; false at the first difference. A key given twice in an object
 * would differ here (the tree keeps one). */
static bool acpi_both_ways(const struct fw_acpi_set *s, const char *what, unsigned *tables)
{
	for (size_t i = 0; i < s->ntables; i++) {
		const struct fw_acpi_table *t = s->tables[i];
		json_t *tree = fw_acpi_json_table(t);
		char *want = tree ? fw_json_dumps(tree, JSON_INDENT(2) | JSON_PRESERVE_ORDER) : NULL;
		json_decref(tree);
		char *got = NULL;
		size_t len = 0;
		FILE *f = open_memstream(&got, &len);
		struct fw_json_writer w;
		fw_json_writer_init(&w, f, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
		struct fw_json_emit e;
		fw_json_emit_init(&e, &w, 0);
		fw_acpi_emit_table(&e, t);
		bool failed = e.failed;
		fw_json_writer_end(&w);
		fclose(f);
		bool same = want && !failed && strcmp(want, got) == 0;
		if (!same) {
			size_t k = 0;
			while (want && got[k] && got[k] == want[k])
				k++;
			fw_test_fail(__FILE__, __LINE__, "%s: table %s: written and built differ at byte %zu:\n%.200s\n--\n%.200s", what,
				     t->signature, k, want ? want + (k > 80 ? k - 80 : 0) : "(none)", got + (k > 80 ? k - 80 : 0));
		}
		free(want);
		free(got);
		if (!same)
			return false;
		(*tables)++;
	}
	return true;
}

static bool acpi_file_both_ways(const char *path, unsigned *tables)
{
	size_t n;
	uint8_t *p = fw_test_read_file(path, &n);
	if (!p)
		return true;
	struct fw_acpi_set *s = fw_acpi_set_new();
	struct fw_error err;
	fw_error_clear(&err);
	bool ok = true;
	if (fw_acpi_set_add_buffer(s, p, n, path, &err)) {
		fw_acpi_set_finish(s);
		ok = acpi_both_ways(s, path, tables);
	}
	fw_acpi_set_free(s);
	free(p);
	return ok;
}

TEST(acpi_json_written_as_walked_equals_the_tree)
{
	unsigned tables = 0, files = 0;
	static const char *const roots[] = {"samples/sysroot-1104", "samples/sysroot-1201", "samples/sysroot-hostile"};
	for (size_t r = 0; r < sizeof(roots) / sizeof(roots[0]); r++) {
		char dir[256];
		snprintf(dir, sizeof(dir), "%s/sys/firmware/acpi/tables", roots[r]);
		const char *d = fw_test_build(dir);
		DIR *h = d ? opendir(d) : NULL;
		if (!h) {
			printf("# acpi json: %s not built (make samples)\n", dir);
			continue;
		}
		char base[512];
		snprintf(base, sizeof(base), "%s", d);
		for (struct dirent *de; (de = readdir(h));) {
			char path[800];
			if (de->d_name[0] == '.' || de->d_type == DT_DIR)
				continue;
			snprintf(path, sizeof(path), "%s/%s", base, de->d_name);
			if (!acpi_file_both_ways(path, &tables)) {
				closedir(h);
				return;
			}
			files++;
		}
		closedir(h);
	}
	/* the acpidump corpus when present: tables of real machines */
	static const char *const dumps[] = {
		"acpi/asrock-970m-pro3.acpidump.txt", "acpi/asrock-x370-killer-sli-coreboot.acpidump.txt",
		"acpi/asus-minipc-pn51.acpidump.txt", "acpi/asus-prime-x399-a.acpidump.txt",
		"acpi/asus-rog-strix-x670e-f.acpidump.txt", "acpi/asus-rog-zenith-ii-extreme-alpha.acpidump.txt",
		"acpi/dell-poweredge-r820.acpidump.txt", "acpi/gmktec-nucbox-k6.acpidump.txt",
		"acpi/supermicro-h8dgu.acpidump.txt", "acpi/supermicro-x8dtt.acpidump.txt",
	};
	unsigned corpus = 0;
	for (size_t i = 0; i < sizeof(dumps) / sizeof(dumps[0]); i++) {
		const char *path = fw_test_corpus(dumps[i]);
		if (!path)
			continue;
		char copy[800];
		snprintf(copy, sizeof(copy), "%s", path);
		if (!acpi_file_both_ways(copy, &tables))
			return;
		corpus++;
	}
	if (!files && !corpus) {
		fw_test_skip("no sample tables (make samples) and no corpus");
		return;
	}
	printf("# acpi json: %u tables of %u sample files and %u corpus dumps, written and built alike\n", tables, files,
	       corpus);
	CHECK(files == 0 || files >= 27);
	CHECK(tables >= files + 10 * corpus);
}
