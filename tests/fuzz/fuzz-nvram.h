/* Shared by the NVRAM fuzz targets: read every byte of every variable the parser produced, so
 * a data pointer outside the input shows up under AddressSanitizer, then run the tree writers. */
#ifndef FW_FUZZ_NVRAM_H
#define FW_FUZZ_NVRAM_H

#include "fuzz-cli.h"
#include "parsers/nvram.h"

static inline void fuzz_nvram_touch(struct fw_tree *t)
{
	struct fw_varlist l = {0};
	fw_nvram_collect(t->root, true, &l);
	volatile uint8_t sink = 0;
	for (size_t i = 0; i < l.count; i++)
		for (size_t k = 0; k < l.items[i]->size; k++)
			sink ^= l.items[i]->data[k];
	(void)sink;
	fw_varlist_free(&l);
	if (t->root)
		fw_fuzz_tree_writers(t, "nvram-store");
}

#endif
