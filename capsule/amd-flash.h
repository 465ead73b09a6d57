/* AMD flash layout in an image: find the Embedded Firmware Structure, follow PSP, BIOS and combo
 * directories (levels 1 and 2) and add psp-directory / psp-entry nodes under `image`. */
#ifndef FW_AMD_FLASH_H
#define FW_AMD_FLASH_H

#include "parsers/node.h"

/* Returns true when the image was examined (finding nothing is not an error). */
bool fw_amd_flash_parse(struct fw_tree *t, struct fw_node *image, const struct fw_view *v, struct fw_error *err);

#endif
