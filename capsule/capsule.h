/* Capsule recognition and decoding (the node side of capsule/aptio.h layouts).
 *
 * fw_capsule_probe tells whether a buffer starts with a capsule header fwlens knows;
 * fw_capsule_parse adds the capsule node (kind "capsule", type "Aptio signed", "Aptio unsigned",
 * "UEFI 2.0" or "FMP") with its decoded header, certificate and ROM area map, and returns the
 * payload window (the flash image) for the caller to parse as the capsule's child. */
#ifndef FW_CAPSULE_H
#define FW_CAPSULE_H

#include "parsers/node.h"

bool fw_capsule_probe(const struct fw_view *v);
struct fw_node *fw_capsule_parse(struct fw_tree *t, struct fw_node *parent, const struct fw_view *v,
				 struct fw_view *payload, struct fw_error *err);

#endif
