/* Intel flash descriptor images (Intel SPI flash programming guides; UEFITool common/descriptor.h):
 * the descriptor at the start of the flash, with the signature 0x0FF0A55A at 0x10, a map of
 * section bases, and a region section of FLREG entries {u15 base, u15 limit} in 4 KiB units.
 *
 * The image becomes "Intel" with one region node per used FLREG, in flash order, and padding for
 * the bytes no region covers; BIOS regions are scanned for firmware volumes like any raw area. */
#ifndef FW_INTEL_DESCRIPTOR_H
#define FW_INTEL_DESCRIPTOR_H

#include "firmware.h"
#include "layout.h"

#define FW_IFD_SIGNATURE 0x0FF0A55Au
#define FW_IFD_SIGNATURE_OFFSET 0x10
#define FW_IFD_MAX_REGIONS 16

/* FLMAP0..2 after the signature */
enum { IFD_FLMAP0, IFD_FLMAP1, IFD_FLMAP2, IFD__COUNT };
extern const struct fw_layout fw_ifd_map_layout; /* 0x20 bytes from the start of the descriptor */

/* A descriptor signature at v[0x10] whose region section lies inside the first 4 KiB. */
bool fw_ifd_probe(const struct fw_view *v);
/* "Descriptor", "BIOS", "ME", "GbE", "PDR", ... for FLREG index i. */
const char *fw_ifd_region_name(unsigned i);
/* Add the regions of the descriptor image v under img (an image node spanning v). *found counts
 * the volumes found in the BIOS regions. */
bool fw_ifd_parse(struct fw_parser *p, struct fw_node *img, const struct fw_view *v, size_t *found,
		  struct fw_error *err);

#endif
