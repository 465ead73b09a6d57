/* Fuzz settings lists read from JSON (the "-" source of find, query and diff) and everything
 * that runs on them: find, the topic rules, and a diff of the list against itself and against
 * its second half. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tools/query/diff.h"
#include "tools/query/search.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fw_setlist l;
	if (!fw_setlist_from_json((const char *)data, size, "fuzz.json", &l, NULL))
		return 0;
	struct fw_hits hits;
	if (fw_find(&l, "e|S", FW_FIND_ALL, &hits, NULL))
		fw_hits_free(&hits);
	struct fw_topics t;
	if (fw_topics_load(NULL, &t, NULL)) {
		const struct fw_topic **sel;
		size_t n;
		if (fw_topics_select(&t, "all", &sel, &n, NULL)) {
			fw_query(&l, sel, n, &hits);
			fw_hits_free(&hits);
			free(sel);
		}
		fw_topics_free(&t);
	}
	for (size_t i = 0; i < l.n; i++)
		fw_setlist_condition(&l, &l.items[i]);
	struct fw_diff d;
	memset(&d, 0, sizeof(d));
	fw_arena_init(&d.arena);
	fw_diff_settings(&l, &l, &d);
	fw_diff_free(&d);
	if (l.n) {
		struct fw_setlist half = l;
		half.items += l.n / 2;
		half.n -= l.n / 2;
		memset(&d, 0, sizeof(d));
		fw_arena_init(&d.arena);
		fw_diff_settings(&l, &half, &d);
		fw_diff_free(&d);
	}
	fw_setlist_free(&l);
	return 0;
}
