/* Fuzz target: AMI NVAR stores (links, GUID store, extended headers, nested defaults stores). */
#include "fuzz-nvram.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fw_tree *t = fw_tree_new(NULL);
	struct fw_view v = fw_view_make(data, size, 0);
	struct fw_error err;
	fw_nvar_parse_store(t, NULL, &v, &err);
	fuzz_nvram_touch(t);
	fw_tree_free(t);
	return 0;
}
