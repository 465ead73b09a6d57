/* fwlens tree: the whole node tree of a firmware input. */
#include "cli.h"
#include "emit.h"
#include "tools/cli/tree-json.h"
#include "tree-writers.h"

#include <stdlib.h>

static const struct fw_option tree_options[] = {
	{"crc", 0, NULL, "add the CRC32 of every node (as UEFIExtract's report has it)", NULL},
	{"max-depth", 0, "N", "text: show nodes down to depth N only", NULL},
	{"layout-only", 0, NULL, "do not decompress compressed sections", NULL},
	{"no-search", 0, NULL, "do not scan raw areas (raw files and sections, pad files) for nested volumes", NULL},
	{0},
};

/* The tree, streamed: JSON and XML are written node by node, not built as one document. */
struct shown_tree {
	const struct fw_firmware *fw;
	const struct fw_tree_text_opts *o;
};

static int tree_json(struct fw_cli *cli, const void *ctx)
{
	const struct shown_tree *s = ctx;
	fw_tree_write_json(fw_cli_out(cli), s->fw->tree, fw_input_kind_name(s->fw->kind), s->o->crc ? FW_JSON_CRC32 : 0);
	return 0;
}

static int tree_xml(struct fw_cli *cli, const void *ctx)
{
	const struct shown_tree *s = ctx;
	if (fw_tree_write_xml(fw_cli_out(cli), s->fw->tree, fw_input_kind_name(s->fw->kind), s->o->crc))
		return 0;
	struct fw_error err;
	fw_error_set(&err, FW_E_IO, "writing XML failed");
	return fw_cli_fail(cli, &err);
}

static void tree_text(struct fw_cli *cli, const void *ctx)
{
	const struct shown_tree *s = ctx;
	fw_tree_write_text(fw_cli_out(cli), s->fw->tree, s->o);
	fw_cli_report_diagnostics(cli, s->fw->tree, 20);
}

static const struct fw_emit_writer tree_writers[] = {{"json", tree_json}, {"xml", tree_xml}, {NULL, NULL}};

static int run_tree(struct fw_cli *cli)
{
	unsigned flags = (fw_cli_flag(cli, "layout-only") ? FW_OPEN_LAYOUT_ONLY : 0) |
			 (fw_cli_flag(cli, "no-search") ? FW_OPEN_NO_SEARCH : 0);
	struct fw_tree_text_opts o = {fw_cli_flag(cli, "crc"), -1};
	const char *md = fw_cli_opt(cli, "max-depth");
	if (md) {
		char *end;
		long d = strtol(md, &end, 10);
		if (*md == '\0' || *end || d < 0 || d > 1000)
			return fw_cli_usage_error(cli, "--max-depth takes a number from 0 to 1000, not '%s'", md);
		o.max_depth = (int)d;
	}
	struct fw_firmware fw;
	int rc;
	if (!fw_cli_open_firmware(cli, cli->argv[0], flags, &fw, &rc))
		return rc;
	/* the memory the tree keeps (README "Limits": bytes a node) */
	size_t kept = fw.tree->arena.used_total, count = fw.tree->node_count;
	fw_log_debug(cli, "tree: %zu nodes in %zu bytes of arena (%zu a node)", count, kept, count ? kept / count : 0);
	struct shown_tree shown = {&fw, &o};
	rc = fw_cli_emit(cli, &(struct fw_emit){"tree", NULL, tree_text, NULL, NULL, &shown, tree_writers});
	fw_firmware_close(&fw);
	return rc;
}

FW_COMMAND(tree,
	.synopsis = "FILE [--crc] [--max-depth N] [--format text|json|xml]",
	.summary = "Show every capsule, volume, file and section of a firmware input as a tree",
	.description =
		"Parses FILE (an ASUS/AMI .CAP capsule, a flash image, a firmware volume, an FFS file, a "
		"section, a PE image or an NVRAM store) and prints its node tree. Compressed sections "
		"(LZMA, LZMA F86, EFI 1.1/Tiano, Brotli, AMD zlib, GZip) are inflated and their contents "
		"shown beneath them; inside decompressed data the Base column reads N/A.\n\n"
		"The text table has the columns of `UEFIExtract FILE report` (Type, Subtype, Base, Size, "
		"CRC32 with --crc, Name with one dash per level), so the two can be read side by side. "
		"Sizes count header and body. Problems found on the way (bad checksums, data that is not "
		"what its header says) are printed as warnings on stderr and kept on their nodes in the "
		"JSON and XML output.\n\n"
		"JSON: {\"input\": {path, size, sha256, kind}, \"root\": NODE} where NODE is {kind, type, "
		"offset (null inside decompressed data), offset_hex, size, header_size, guid?, name?, text?, "
		"flags?, crc32?, fields, diagnostics, children}. XML follows tools/cli/tree.xsd.",
	.formats = "text,json,xml",
	.options = tree_options,
	.examples = "fwlens tree BIOS.CAP  # the tree as a table\n"
		    "fwlens tree OVMF_CODE.fd --crc  # with CRC32s, to compare with UEFIExtract\n"
		    "fwlens tree BIOS.CAP --format json | jq '.root.children[0].type'",
	.min_args = 1, .max_args = 1, .run = run_tree, .order = 10);
