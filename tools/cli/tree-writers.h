/* Shared by info, tree and extract: opening a firmware input with the command's options, node
 * labels as UEFIExtract's report shows them, and the text and XML tree writers. */
#ifndef FW_CLI_TREE_WRITERS_H
#define FW_CLI_TREE_WRITERS_H

#include "capsule/detect.h"
#include "cli.h"

/* Open and parse cli->argv[0]; on failure prints the one-line error and returns false with *rc
 * set to the exit code. */
bool fw_cli_open_firmware(struct fw_cli *cli, const char *path, unsigned flags, struct fw_firmware *fw, int *rc);

/* "Volume", "File", "NVRAM store", ... (UEFIExtract's Type column). */
const char *fw_node_kind_title(enum fw_node_kind k);
/* The report's Name column without the depth dashes: the GUID, or "Padding", "Volume free
 * space", "PE32 image section", ... */
const char *fw_node_label(const struct fw_node *n, char *buf, size_t len);

struct fw_tree_text_opts {
	bool crc;
	int max_depth; /* < 0: all */
};
void fw_tree_write_text(FILE *f, const struct fw_tree *t, const struct fw_tree_text_opts *o);
/* XML per tools/cli/tree.xsd; false when libxml2 fails to write. */
bool fw_tree_write_xml(FILE *f, const struct fw_tree *t, const char *kind, bool crc);
/* Print up to `max` diagnostics as warnings on stderr, then how many were left out. */
void fw_cli_report_diagnostics(struct fw_cli *cli, const struct fw_tree *t, size_t max);

#endif
