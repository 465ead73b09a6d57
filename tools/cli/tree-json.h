/* The JSON shape of a node tree (DESIGN.md "Interfaces"): `fwlens tree --format json`, the
 * XML writer and the fuzz targets all build it here, so the contract lives in one place.
 *
 *   {"input": {"path", "size", "sha256", "kind"}, "root": NODE}
 *   NODE = {"kind", "type", "offset" (number, or null inside decompressed data), "offset_hex",
 *           "size" (header + body), "header_size", "guid"?, "name"?, "text"?, "flags"?,
 *           "crc32"?, "fields": {...}, "diagnostics": [{"severity", "offset", "message"}],
 *           "children": [NODE...]}
 */
#ifndef FW_TREE_JSON_H
#define FW_TREE_JSON_H

#include "parsers/json-text.h"
#include <stdbool.h>
#include <stdio.h>

#include "parsers/node.h"

#define FW_JSON_CRC32 0x01 /* add "crc32" of each node's bytes (header + body as stored) */

json_t *fw_node_to_json(const struct fw_node *n, unsigned flags);
/* The whole document; `kind` names the input kind ("capsule", "image", ...). */
json_t *fw_tree_to_json(const struct fw_tree *t, const char *kind, unsigned flags);
/* The same document written to f as it is built, node by node, in the bytes json_dumpf gives
 * with JSON_INDENT(2) | JSON_PRESERVE_ORDER (and a final newline): memory stays that of one
 * node however large the tree. False when writing fails. */
bool fw_tree_write_json(FILE *f, const struct fw_tree *t, const char *kind, unsigned flags);
/* Text of a field value ("0x1F", "true", a GUID, hex bytes) into buf. */
const char *fw_field_text(const struct fw_field_value *f, char *buf, size_t len);
/* Flag names of a node joined by ","; "" when none. */
const char *fw_node_flags_text(const struct fw_node *n, char *buf, size_t len);

#endif
