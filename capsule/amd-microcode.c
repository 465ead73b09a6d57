/* AMD microcode patch header layout, patch files and Linux microcode containers. */
#include "amd-microcode.h"

#include <stdio.h>

#include "version.h"

static const struct fw_field ucode_fields[UCODE__COUNT] = {
	[UCODE_DATE] = {"DataCode", FW_FT_U32, 0, 0, FW_FF_HEX, NULL},
	[UCODE_PATCH_ID] = {"PatchId", FW_FT_U32, 4, 0, FW_FF_HEX, NULL},
	[UCODE_DATA_ID] = {"PatchDataId", FW_FT_U16, 8, 0, FW_FF_HEX, NULL},
	[UCODE_DATA_LEN] = {"PatchDataLength", FW_FT_U8, 10, 0, 0, NULL},
	[UCODE_INIT_FLAG] = {"InitFlag", FW_FT_U8, 11, 0, FW_FF_HEX, NULL},
	[UCODE_DATA_CHECKSUM] = {"PatchDataChecksum", FW_FT_U32, 12, 0, FW_FF_HEX, NULL},
	[UCODE_NB_DEV_ID] = {"NbDevId", FW_FT_U32, 16, 0, FW_FF_HEX, NULL},
	[UCODE_SB_DEV_ID] = {"SbDevId", FW_FT_U32, 20, 0, FW_FF_HEX, NULL},
	[UCODE_PROCESSOR_REV_ID] = {"ProcessorRevId", FW_FT_U16, 24, 0, FW_FF_HEX, NULL},
	[UCODE_NB_REV_ID] = {"NbRevId", FW_FT_U8, 26, 0, FW_FF_HEX, NULL},
	[UCODE_SB_REV_ID] = {"SbRevId", FW_FT_U8, 27, 0, FW_FF_HEX, NULL},
	[UCODE_BIOS_API_REV] = {"BiosApiRev", FW_FT_U8, 28, 0, FW_FF_HEX, NULL},
};
const struct fw_layout fw_amd_microcode_layout = FW_LAYOUT("AMD microcode patch header", FW_AMD_MICROCODE_HEADER_SIZE, ucode_fields);

bool fw_amd_microcode_plausible(const struct fw_view *v, size_t off)
{
	if (!fw_view_has(v, off, FW_AMD_MICROCODE_HEADER_SIZE))
		return false;
	const struct fw_layout *l = &fw_amd_microcode_layout;
	char date[11];
	uint32_t patch = (uint32_t)fw_layout_get(l, v, off, UCODE_PATCH_ID);
	unsigned rev = (unsigned)fw_layout_get(l, v, off, UCODE_PROCESSOR_REV_ID);
	return fw_microcode_date((uint32_t)fw_layout_get(l, v, off, UCODE_DATE), date) && (patch >> 24) != 0 &&
	       (patch >> 24) == (rev >> 12);
}

void fw_amd_microcode_fields(struct fw_tree *t, struct fw_node *n, const struct fw_view *d)
{
	const struct fw_layout *l = &fw_amd_microcode_layout;
	uint32_t code = (uint32_t)fw_layout_get(l, d, 0, UCODE_DATE);
	fw_node_field_uint(t, n, "PatchId", fw_layout_get(l, d, 0, UCODE_PATCH_ID), FW_FMT_HEX);
	fw_node_field_uint(t, n, "ProcessorRevId", fw_layout_get(l, d, 0, UCODE_PROCESSOR_REV_ID), FW_FMT_HEX);
	fw_node_field_uint(t, n, "DataCode", code, FW_FMT_HEX);
	char date[11];
	if (fw_microcode_date(code, date))
		fw_node_field_str(t, n, "Date", date);
}

bool fw_amd_microcode_probe(const struct fw_view *v)
{
	uint32_t magic, type, size;
	if (fw_rd_u32(v, 0, &magic, NULL) && magic == FW_AMD_UCODE_CONTAINER_MAGIC)
		/* the magic alone is 4 bytes: the equivalence table must follow, whole */
		return fw_rd_u32(v, 4, &type, NULL) && fw_rd_u32(v, 8, &size, NULL) &&
		       type == FW_AMD_UCODE_SECTION_EQUIV_TABLE && size % FW_AMD_UCODE_EQUIV_ENTRY_SIZE == 0 &&
		       size <= v->len - 12;
	/* a patch file is a few KiB; a flash image that happens to start like one is not a patch */
	return v->len <= FW_AMD_MICROCODE_MAX_FILE && fw_amd_microcode_plausible(v, 0);
}

static struct fw_node *patch_node(struct fw_tree *t, struct fw_node *parent, const struct fw_view *d,
				  struct fw_error *err)
{
	struct fw_node *n = fw_node_add(t, parent, parent ? FW_NODE_REGION : FW_NODE_IMAGE, FW_AMD_UCODE_PATCH_TYPE, d, err);
	if (!n)
		return NULL;
	n->header_size = d->len < FW_AMD_MICROCODE_HEADER_SIZE ? (uint32_t)d->len : FW_AMD_MICROCODE_HEADER_SIZE;
	if (!fw_view_has(d, 0, FW_AMD_MICROCODE_HEADER_SIZE)) {
		fw_node_diag(t, n, FW_DIAG_ERROR, d->base, "0x%zx bytes, shorter than the 64-byte patch header", d->len);
		return n;
	}
	fw_amd_microcode_fields(t, n, d);
	if (!fw_amd_microcode_plausible(d, 0))
		fw_node_diag(t, n, FW_DIAG_WARN, d->base,
			     "the patch header does not read as one (no BCD date, or the patch ID's family is not the "
			     "processor revision's)");
	return n;
}

/* The equivalence table: which CPUID signatures take which processor revision ID. */
static void equiv_table(struct fw_tree *t, struct fw_node *n, const struct fw_view *d)
{
	char list[1024] = "";
	size_t used = 0, entries = 0;
	bool ended = false;
	for (size_t off = 0; off + FW_AMD_UCODE_EQUIV_ENTRY_SIZE <= d->len; off += FW_AMD_UCODE_EQUIV_ENTRY_SIZE) {
		uint32_t cpuid = fw_le32(d->p + off);
		uint16_t rev = fw_le16(d->p + off + 12);
		if (!cpuid) {
			ended = true;
			break;
		}
		entries++;
		if (used < sizeof(list))
			used += (size_t)snprintf(list + used, sizeof(list) - used, "%s0x%08X=0x%04X", entries > 1 ? ", " : "",
						 cpuid, rev);
	}
	fw_node_field_uint(t, n, "Entries", entries, FW_FMT_DEC);
	if (entries)
		fw_node_field_str(t, n, "Processors", list);
	if (!ended)
		fw_node_diag(t, n, FW_DIAG_WARN, d->base, "the equivalence table has no zero entry to end it");
}

struct fw_node *fw_amd_microcode_parse(struct fw_tree *t, const struct fw_view *v, struct fw_error *err)
{
	uint32_t magic;
	if (!fw_rd_u32(v, 0, &magic, NULL) || magic != FW_AMD_UCODE_CONTAINER_MAGIC)
		return patch_node(t, NULL, v, err);
	struct fw_node *root = fw_node_add(t, NULL, FW_NODE_IMAGE, "AMD ucode container", v, err);
	if (!root)
		return NULL;
	root->header_size = 4;
	/* Linux's early-load file is several containers back to back: a magic where a section
	 * header belongs starts the next one, which again opens with its equivalence table */
	size_t off = 4, patches = 0, containers = 1;
	bool want_table = true;
	while (off < v->len) {
		uint32_t type, size;
		if (fw_rd_u32(v, off, &type, NULL) && type == FW_AMD_UCODE_CONTAINER_MAGIC && !want_table) {
			containers++;
			off += 4;
			want_table = true;
			continue;
		}
		if (!fw_rd_u32(v, off, &type, NULL) || !fw_rd_u32(v, off + 4, &size, NULL)) {
			fw_node_diag(t, root, FW_DIAG_ERROR, fw_view_abs(v, off),
				     "section header at 0x%zx: the container ends inside it", off);
			break;
		}
		struct fw_view body;
		if (size > v->len - off - 8 || !fw_rd_sub(v, off + 8, size, &body, NULL)) {
			fw_node_diag(t, root, FW_DIAG_ERROR, fw_view_abs(v, off),
				     "section at 0x%zx: 0x%x bytes declared, 0x%zx left in the container", off, size,
				     v->len - off - 8);
			break;
		}
		if (want_table && type == FW_AMD_UCODE_SECTION_EQUIV_TABLE) {
			struct fw_view whole;
			fw_rd_sub(v, off, (size_t)size + 8, &whole, NULL);
			struct fw_node *n = fw_node_add(t, root, FW_NODE_REGION, "Equivalence table", &whole, err);
			if (!n)
				return NULL;
			n->header_size = 8;
			equiv_table(t, n, &body);
			want_table = false;
		} else if (!want_table && type == FW_AMD_UCODE_SECTION_PATCH) {
			if (!patch_node(t, root, &body, err))
				return NULL;
			patches++;
		} else {
			fw_node_diag(t, root, FW_DIAG_ERROR, fw_view_abs(v, off), "section at 0x%zx: type 0x%X where %s belongs",
				     off, type, want_table ? "the equivalence table (type 0)" : "a patch (type 1)");
			break;
		}
		off += 8 + (size_t)size;
	}
	fw_node_field_uint(t, root, "Containers", containers, FW_FMT_DEC);
	fw_node_field_uint(t, root, "Patches", patches, FW_FMT_DEC);
	return root;
}
