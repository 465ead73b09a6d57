/* Fuzz the topic rules loader (XML, schema validation, regex compilation) and rule matching. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tools/query/topics.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fw_topics t;
	if (!fw_topics_load_buffer((const char *)data, size, "fuzz.xml", &t, NULL))
		return 0;
	static const char *const options[] = {"Disabled", "Enabled", "Auto"};
	struct fw_topic_subject s = {"SMEE", "Enables memory encryption", "AMD CBS > CPU Common Options", "AmdSetupSHP",
				     options, 3};
	for (size_t i = 0; i < t.count; i++)
		fw_topic_match(&t.topics[i], &s);
	const struct fw_topic **sel;
	size_t n;
	if (fw_topics_select(&t, t.count ? t.topics[0].name : "x", &sel, &n, NULL))
		free(sel);
	fw_topics_free(&t);
	return 0;
}
