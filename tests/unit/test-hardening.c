/* Hardening: the documented limits (README "Limits") hold at their values and one past them,
 * and the streaming tree JSON writer gives the bytes of the document writer. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capsule/detect.h"
#include "harness.h"
#include "parsers/tree-json.h"

/* The streamed document of `fw` equals json_dumpf of the built one, byte for byte. */
static bool stream_matches(const struct fw_firmware *fw, unsigned flags)
{
	char *a = NULL, *b = NULL;
	size_t alen = 0, blen = 0;
	FILE *fa = open_memstream(&a, &alen), *fb = open_memstream(&b, &blen);
	json_t *doc = fw_tree_to_json(fw->tree, fw_input_kind_name(fw->kind), flags);
	json_dumpf(doc, fa, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	fputc('\n', fa);
	json_decref(doc);
	bool ok = fw_tree_write_json(fb, fw->tree, fw_input_kind_name(fw->kind), flags);
	fclose(fa);
	fclose(fb);
	ok = ok && alen == blen && memcmp(a, b, alen) == 0;
	if (!ok)
		for (size_t i = 0; i < alen && i < blen; i++)
			if (a[i] != b[i]) {
				fprintf(stderr, "streamed JSON differs at byte %zu: \"%.40s\" vs \"%.40s\"\n", i, a + i, b + i);
				break;
			}
	free(a);
	free(b);
	return ok;
}

TEST(tree_json_stream_equals_document)
{
	static const char *const fixtures[] = {"firmware/mini.fv",  "firmware/mini.cap", "firmware/broken.fv",
					       "firmware/ffs3.fv",  "firmware/evil.fv",  "firmware/dxe.ffs",
					       "firmware/pe32.sct", "amd/psp-layout.bin"};
	for (size_t i = 0; i < sizeof(fixtures) / sizeof(fixtures[0]); i++) {
		const char *path = fw_test_data(fixtures[i]);
		CHECK_MSG(path, "%s is missing", fixtures[i]);
		struct fw_firmware fw;
		struct fw_error err;
		CHECK_MSG(fw_firmware_open(path, NULL, &fw, &err), "%s: %s", fixtures[i], err.msg);
		CHECK_MSG(stream_matches(&fw, 0), "%s", fixtures[i]);
		CHECK_MSG(stream_matches(&fw, FW_JSON_CRC32), "%s with CRC32", fixtures[i]);
		fw_firmware_close(&fw);
	}
	/* a tree of one node without children */
	const uint8_t section[] = {0x08, 0x00, 0x00, 0x19, 'r', 'a', 'w', '!'};
	struct fw_firmware fw;
	CHECK(fw_firmware_parse_buffer(section, sizeof(section), NULL, &fw, NULL));
	CHECK(stream_matches(&fw, 0));
	fw_firmware_close(&fw);
}
