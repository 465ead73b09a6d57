/* Fuzz target: input detection and the volume/file/section parser (capsules, flash images,
 * volumes, files, sections, PE/TE, NVRAM stores, AMD directories as the input reaches them),
 * then every writer of the tree: text, JSON and XML. */
#include "capsule/detect.h"
#include "fuzz-cli.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fw_firmware fw;
	if (!fw_firmware_parse_buffer(data, size, NULL, &fw, NULL))
		return 0;
	fw_fuzz_tree_writers(fw.tree, fw_input_kind_name(fw.kind));
	fw_firmware_close(&fw);
	return 0;
}
