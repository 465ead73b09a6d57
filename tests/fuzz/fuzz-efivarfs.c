/* Fuzz target: efivarfs files (with nested NVAR defaults), tar archives of them, and the Secure
 * Boot signature lists in variable data. */
#include "fuzz-nvram.h"
#include "parsers/sigdb.h"
#include "parsers/tar.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fw_view v = fw_view_make(data, size, 0);
	struct fw_error err;
	struct fw_tree *t = fw_tree_new(NULL);
	fw_efivarfs_parse_file(t, NULL, "StdDefaults-4599d26f-1a11-49b8-b91f-858745cff824", &v, &err);
	if (fw_tar_probe(&v)) {
		struct fw_tar_reader r;
		struct fw_tar_entry e;
		fw_tar_reader_init(&r, &v, NULL);
		while (fw_tar_next(&r, &e, &err))
			if (e.type == '0' && fw_efivarfs_name_ok(e.name)) {
				fw_tree_own(t, fw_tar_take_data(&r), e.data.len);
				fw_efivarfs_parse_file(t, t->root, e.name, &e.data, &err);
			}
		fw_tar_reader_free(&r);
	}
	fuzz_nvram_touch(t);
	fw_tree_free(t);

	struct fw_sigdb db;
	if (size > 4) {
		struct fw_view sv = fw_view_make(data + 4, size - 4, 4);
		if (fw_sigdb_parse(&sv, &db, &err))
			fw_sigdb_free(&db);
	}
	return 0;
}
