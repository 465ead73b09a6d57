/* Fuzz target: input detection and the volume/file/section parser, then the tree JSON writer
 * (every node, field and diagnostic is visited and serialised). */
#include <stdlib.h>

#include "capsule/detect.h"
#include "parsers/tree-json.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fw_firmware fw;
	if (!fw_firmware_parse_buffer(data, size, NULL, &fw, NULL))
		return 0;
	json_t *doc = fw_tree_to_json(fw.tree, fw_input_kind_name(fw.kind), FW_JSON_CRC32);
	char *text = json_dumps(doc, JSON_COMPACT | JSON_PRESERVE_ORDER);
	free(text);
	json_decref(doc);
	fw_firmware_close(&fw);
	return 0;
}
