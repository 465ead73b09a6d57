/* Fuzz target: EDK2 NVRAM regions (VSS, VSS2, authenticated and $VSS stores, FTW blocks). */
#include "fuzz-nvram.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fw_tree *t = fw_tree_new(NULL);
	struct fw_view v = fw_view_make(data, size, 0);
	struct fw_error err;
	fw_vss_parse_store(t, NULL, &v, &err);
	fuzz_nvram_touch(t);
	fw_tree_free(t);
	return 0;
}
