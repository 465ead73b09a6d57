/* APCB header layout, checksum and recognition. */
#include "amd-apcb.h"

#include <string.h>

#include "parsers/hash.h"

static const struct fw_field apcb_fields[APCB__COUNT] = {
	[APCB_SIGNATURE] = {"Signature", FW_FT_CHARS, 0, 4, 0, NULL},
	[APCB_HEADER_SIZE] = {"HeaderSize", FW_FT_U16, 4, 0, FW_FF_HEX, NULL},
	[APCB_VERSION] = {"Version", FW_FT_U16, 6, 0, FW_FF_HEX, NULL},
	[APCB_SIZE] = {"ApcbSize", FW_FT_U32, 8, 0, FW_FF_HEX, NULL},
	[APCB_UNIQUE_INSTANCE] = {"UniqueApcbInstance", FW_FT_U32, 12, 0, FW_FF_HEX, NULL},
	[APCB_CHECKSUM] = {"ChecksumByte", FW_FT_U8, 16, 0, FW_FF_HEX, NULL},
	[APCB_V3_SIGNATURE] = {"V3Signature", FW_FT_CHARS, 32, 4, 0, NULL},
	[APCB_V3_SIGNATURE_ENDING] = {"V3SignatureEnding", FW_FT_CHARS, 124, 4, 0, NULL},
};
const struct fw_layout fw_amd_apcb_layout = FW_LAYOUT("AMD APCB header", FW_AMD_APCB_V3_HEADER_SIZE, apcb_fields);

void fw_amd_apcb_fields(struct fw_tree *t, struct fw_node *n, const struct fw_view *d)
{
	if (!fw_view_has(d, 0, FW_AMD_APCB_V2_HEADER_SIZE))
		return;
	uint32_t size = fw_le32(d->p + 8);
	fw_node_field_uint(t, n, "ApcbVersion", fw_le16(d->p + 6), FW_FMT_HEX);
	fw_node_field_uint(t, n, "ApcbSize", size, FW_FMT_HEX);
	if (size >= FW_AMD_APCB_V2_HEADER_SIZE && size <= d->len) {
		if (size < d->len)
			fw_node_field_uint(t, n, "PaddingAfter", d->len - size, FW_FMT_HEX);
		bool ok = fw_sum8(d->p, size) == 0;
		fw_node_field_bool(t, n, "ApcbChecksum valid", ok);
		if (!ok) {
			n->flags |= FW_NODE_F_CHECKSUM_BAD;
			fw_node_diag(t, n, FW_DIAG_WARN, d->base, "APCB checksum does not sum to zero");
		}
	}
}

bool fw_amd_apcb_probe(const struct fw_view *v)
{
	if (!fw_view_has(v, 0, FW_AMD_APCB_V2_HEADER_SIZE) || memcmp(v->p, "APCB", 4) != 0)
		return false;
	uint16_t header = fw_le16(v->p + 4), version = fw_le16(v->p + 6);
	uint32_t size = fw_le32(v->p + 8);
	if (!(header == FW_AMD_APCB_V2_HEADER_SIZE || header == FW_AMD_APCB_V3_HEADER_SIZE) ||
	    !(version == 0x20 || version == FW_AMD_APCB_VERSION) || size < header || size > v->len)
		return false;
	/* the block is the whole input, or erased flash (0xFF) follows it; anything else is a bigger
	 * input that merely starts with an APCB */
	for (size_t i = size; i < v->len; i++)
		if (v->p[i] != 0xFF)
			return false;
	return true;
}
