/* Fuzz AMISCE exports (settings lists and --vars): the parser, the list built from it, and find
 * over that list. */
#include <stdint.h>

#include "tools/query/amisce.h"
#include "tools/query/search.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fw_amisce a = {0}; /* freed even when the probe refuses the input before parsing */
	if (!fw_amisce_probe((const char *)data, size) || !fw_amisce_parse((const char *)data, size, "fuzz.txt", &a, NULL)) {
		fw_amisce_free(&a);
		return 0;
	}
	struct fw_setlist l;
	fw_amisce_to_setlist(&a, &l);
	struct fw_hits hits;
	if (fw_find(&l, "e|S", FW_FIND_ALL, &hits, NULL))
		fw_hits_free(&hits);
	for (size_t i = 0; i < a.n; i++) {
		uint64_t v;
		fw_amisce_current(&a.q[i], &v);
	}
	fw_setlist_free(&l);
	fw_amisce_free(&a);
	return 0;
}
