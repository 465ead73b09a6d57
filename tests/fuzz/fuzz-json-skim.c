/* Fuzz the JSON skim (parsers/json-skim.h) against jansson: a text the skim calls certain must be
 * one jansson reads, with the same values under the keys the skim looked for. Any disagreement
 * aborts: the snapshot loader would otherwise read a manifest differently from before. */
#include <jansson.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "parsers/json-skim.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const keys[] = {"format", "links", "nodes", "created"};
	struct fw_json_span sp[4];
	const char *text = (const char *)data;
	if (!fw_json_skim_object(text, size, keys, 4, sp))
		return 0;
	json_t *doc = json_loadb(text, size, 0, NULL);
	if (!doc || !json_is_object(doc))
		abort();
	for (int k = 0; k < 4; k++) {
		json_t *want = json_object_get(doc, keys[k]);
		json_t *got = sp[k].value_len ? json_loadb(text + sp[k].value, sp[k].value_len, JSON_DECODE_ANY, NULL) : NULL;
		if ((want || got) && !json_equal(want, got))
			abort();
		json_decref(got);
	}
	json_decref(doc);
	return 0;
}
