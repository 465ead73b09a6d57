/* Fuzz target: AMD flash layout (EFS, PSP/BIOS/combo directories, entries, links between levels)
 * over the input as a flash image, then the version search, inflating compressed entries and the
 * tree writers. */
#include <stddef.h>
#include <stdint.h>

#include "capsule/amd-flash.h"
#include "capsule/version.h"
#include "fuzz-cli.h"

static bool inflate_all(struct fw_node *n, void *ctx)
{
	struct fw_tree *t = ctx;
	const struct fw_amd_entry *e = n->kind == FW_NODE_PSP_ENTRY ? n->ext : NULL;
	struct fw_view out;
	struct fw_error err;
	if (e && e->compressed && e->located)
		fw_amd_entry_inflate(t, n, &out, &err);
	return true;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fw_tree *t = fw_tree_new(NULL);
	struct fw_view v = fw_view_make(data, size, 0);
	struct fw_error err;
	t->input = data;
	t->input_len = size;
	struct fw_node *image = fw_node_add(t, NULL, FW_NODE_IMAGE, "UEFI", &v, &err);
	if (image) {
		fw_amd_flash_parse(t, image, &v, &err);
		fw_node_walk(image, inflate_all, t);
		struct fw_versions ver;
		fw_versions_collect(t, &ver);
		fw_fuzz_tree_writers(t, "image");
	}
	fw_tree_free(t);
	return 0;
}
