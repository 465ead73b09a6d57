/* Building the tree of a firmware input: the recogniser (recognise.c) says what the bytes are
 * (its table's order is the precedence), and each kind has its builder in detect_and_parse().
 * To add a firmware input kind: the recogniser's recipe (recognise.h), FW_ACCEPT_FIRMWARE, and
 * its case below.
 */
#include "detect.h"

#include <string.h>

#include "amd-apcb.h"
#include "amd-flash.h"
#include "amd-microcode.h"
#include "capsule.h"
#include "parsers/archive.h"
#include "parsers/ffs.h"
#include "parsers/firmware.h"
#include "parsers/fv.h"
#include "parsers/hash.h"
#include "parsers/intel-descriptor.h"
#include "parsers/nvar.h"
#include "parsers/nvram.h"
#include "parsers/pe.h"
#include "parsers/prefetch.h"
#include "parsers/section.h"

_Static_assert(FW_OPEN_IGNORE_CHECKSUM == FW_PARSE_IGNORE_CHECKSUM && FW_OPEN_NO_SEARCH == FW_PARSE_NO_SEARCH &&
		       FW_OPEN_LAYOUT_ONLY == FW_PARSE_LAYOUT_ONLY,
	       "open flags and parse flags share their values");

/* A flash image: the regions of an Intel flash descriptor, or volumes by scan; then the AMD
 * flash layout on top. */
static struct fw_node *parse_image(struct fw_parser *p, struct fw_node *parent, const struct fw_view *v,
				   struct fw_error *err)
{
	bool intel = fw_ifd_probe(v);
	struct fw_node *img = fw_node_add(p->t, parent, FW_NODE_IMAGE, intel ? "Intel" : "UEFI", v, err);
	if (!img)
		return NULL;
	size_t found = 0;
	if (intel ? !fw_ifd_parse(p, img, v, &found, err) : !fw_parse_raw_area(p, img, v, true, &found, err))
		return NULL;
	if (!found)
		fw_node_diag(p->t, img, FW_DIAG_WARN, v->base, "no firmware volume found in the 0x%zx-byte image", v->len);
	struct fw_error e;
	fw_error_clear(&e);
	if (!fw_amd_flash_parse(p->t, img, v, &e))
		fw_node_diag(p->t, img, FW_DIAG_WARN, v->base, "AMD flash layout: %s", e.msg);
	return img;
}

/* Hand a whole-input NVRAM store to its parser (owned by parsers/nvram.h); when the parser
 * fails, the input stays one opaque node carrying the reason. */
static bool parse_store_input(struct fw_tree *t, const struct fw_view *v, enum fw_node_kind kind, const char *type,
			      const char *what, bool ok, const struct fw_error *e, struct fw_error *err)
{
	if (ok && t->root)
		return true;
	if (e->code == FW_E_LIMIT)
		return fw_error_set(err, e->code, "%s", e->msg);
	struct fw_node *n = t->root ? t->root : fw_node_add(t, NULL, kind, type, v, err);
	if (!n)
		return false;
	n->flags |= FW_NODE_F_OPAQUE;
	fw_node_diag(t, n, e->code == FW_E_UNSUPPORTED ? FW_DIAG_INFO : FW_DIAG_WARN, 0, "%s: %s", what,
		     e->msg[0] ? e->msg : fw_error_code_name(e->code));
	return true;
}

static bool detect_and_parse(struct fw_parser *p, const struct fw_view *v, const char *path, struct fw_firmware *fw,
			     struct fw_error *err)
{
	struct fw_tree *t = p->t;
	enum fw_input_kind kind = fw_input_recognise_bytes(v->p, v->len, path, FW_ACCEPT_FIRMWARE);
	fw->kind = kind;
	switch (kind) {
	case FW_INPUT_EMPTY:
		return fw_error_set(err, FW_E_INVALID, "%s: the input is empty", path ? path : "input");
	case FW_INPUT_EFIVAR: {
		struct fw_error e;
		fw_error_clear(&e);
		bool ok = fw_efivarfs_parse_file(t, NULL, path, v, &e);
		return parse_store_input(t, v, FW_NODE_VARIABLE, "efivarfs", "efivarfs file", ok, &e, err);
	}
	case FW_INPUT_CAPSULE: {
		struct fw_view payload;
		struct fw_error e;
		fw_error_clear(&e);
		struct fw_node *cap = fw_capsule_parse(t, NULL, v, &payload, &e);
		if (cap) {
			const struct fw_capsule *c = fw_capsule_of(cap);
			if (!parse_image(p, cap, &payload, err))
				return false;
			/* the further payloads of an FMP capsule, each its own image */
			for (size_t i = 1; c && i < c->nfmp_images; i++)
				if (!parse_image(p, cap, &c->fmp_images[i], err))
					return false;
			return true;
		}
		if (e.code == FW_E_LIMIT)
			return fw_error_set(err, e.code, "%s", e.msg);
		/* A capsule GUID with a broken header: fall through to the image scan, saying why. */
		fw->kind = FW_INPUT_IMAGE;
		struct fw_node *img = parse_image(p, NULL, v, err);
		if (img)
			fw_node_diag(t, img, FW_DIAG_ERROR, 0, "capsule header: %s", e.msg);
		return img != NULL;
	}
	case FW_INPUT_NVRAM:
	case FW_INPUT_NVRAM_DEFAULTS: {
		/* a defaults dump is the NVAR store after its u32 attributes */
		fw->kind = FW_INPUT_NVRAM;
		struct fw_view store = *v;
		if (kind == FW_INPUT_NVRAM_DEFAULTS)
			fw_rd_tail(v, 4, &store, NULL);
		struct fw_error e;
		fw_error_clear(&e);
		bool ok = fw_nvar_parse_store(t, NULL, &store, &e);
		return parse_store_input(t, &store, FW_NODE_NVRAM_STORE, "NVAR", "NVAR store", ok, &e, err);
	}
	case FW_INPUT_VOLUME:
		return fw_parse_volume(p, NULL, v, err) != NULL;
	case FW_INPUT_FFS_FILE: {
		struct fw_ffs_ctx ctx;
		fw_ffs_file_probe(v, &ctx);
		return fw_parse_ffs_file(p, NULL, v, &ctx, err) != NULL;
	}
	case FW_INPUT_SECTION: {
		size_t used = 0;
		size_t first = fw_le24(v->p);
		if (first == FW_SECTION_SIZE_EXTENDED && v->len >= FW_SECTION_HEADER2_SIZE)
			first = fw_le32(v->p + 4);
		if (first == v->len)
			return fw_parse_section(p, NULL, v, &used, err) != NULL;
		/* Several sections: an image node holds the stream. */
		struct fw_node *root = fw_node_add(t, NULL, FW_NODE_IMAGE, "Section stream", v, err);
		return root && fw_parse_sections(p, root, v, err);
	}
	case FW_INPUT_PE: {
		bool te = !fw_pe_probe(v->p, v->len);
		struct fw_node *n =
			fw_node_add(t, NULL, FW_NODE_SECTION, fw_section_type_name(te ? FW_SECTION_TE : FW_SECTION_PE32), v, err);
		if (!n)
			return false;
		fw_node_field_bool(t, n, "HeaderlessBody", true);
		if (te)
			fw_te_summarize(t, n, v);
		else
			fw_pe_summarize(t, n, v);
		return true;
	}
	/* AMD blobs pulled out of a flash image, or shipped on their own */
	case FW_INPUT_AMD_APCB: {
		struct fw_node *n = fw_node_add(t, NULL, FW_NODE_IMAGE, "AMD APCB", v, err);
		if (n) {
			n->header_size = fw_le16(v->p + 4);
			fw_amd_apcb_fields(t, n, v);
		}
		return n != NULL;
	}
	case FW_INPUT_AMD_MICROCODE:
		return fw_amd_microcode_parse(t, v, err) != NULL;
	default:
		break;
	}
	fw->kind = FW_INPUT_IMAGE;
	struct fw_node *img = parse_image(p, NULL, v, err);
	if (!img)
		return false;
	if (img->nchildren == 1 && img->first_child->kind == FW_NODE_PADDING &&
	    strcmp(img->first_child->type, "Non-empty") == 0 && !img->first_child->first_child) {
		fw->kind = FW_INPUT_UNKNOWN;
		return fw_error_set(err, FW_E_INVALID,
				    "%s: not a firmware file fwlens knows (no capsule header, firmware volume, FFS file, section, "
				    "PE image or NVRAM store found in 0x%zx bytes)",
				    path ? path : "input", v->len);
	}
	return true;
}

static bool parse_into(struct fw_firmware *fw, const uint8_t *p, size_t n, const char *path,
		       const struct fw_open_options *o, struct fw_error *err)
{
	fw->tree = fw_tree_new(o ? o->limits : NULL);
	fw->tree->input = p;
	fw->tree->input_len = n;
	fw->tree->input_path = path;
	unsigned flags = o ? o->flags : 0;
	struct fw_view v = fw_view_make(p, n, 0);
	/* Big inputs: a layout-only pass lists the compressed streams, which are inflated on several
	 * threads before the real parse takes them (parsers/prefetch.h). */
	struct fw_prefetch *pf = NULL;
	unsigned threads = (flags & FW_OPEN_LAYOUT_ONLY) ? 1 : fw_prefetch_threads(n);
	if (threads > 1) {
		pf = fw_prefetch_new();
		struct fw_firmware scout;
		memset(&scout, 0, sizeof(scout));
		scout.tree = fw_tree_new(&fw->tree->limits);
		scout.tree->input = p;
		scout.tree->input_len = n;
		struct fw_parser lp = {scout.tree, flags | FW_PARSE_LAYOUT_ONLY, pf};
		struct fw_error ignored;
		detect_and_parse(&lp, &v, path, &scout, &ignored);
		fw_tree_free(scout.tree);
		fw_prefetch_run(pf, threads, fw->tree->limits.max_decompressed_one, fw->tree->limits.max_decompressed_total);
	}
	struct fw_parser parser = {fw->tree, flags, pf};
	bool ok = detect_and_parse(&parser, &v, path, fw, err);
	fw_prefetch_free(pf);
	if (!ok) {
		fw_tree_free(fw->tree);
		fw->tree = NULL;
	}
	return ok;
}

bool fw_firmware_parse_buffer(const uint8_t *p, size_t n, const struct fw_open_options *o, struct fw_firmware *fw,
			      struct fw_error *err)
{
	memset(fw, 0, sizeof(*fw));
	return parse_into(fw, p, n, NULL, o, err);
}

bool fw_firmware_unwrap(struct fw_file *f, struct fw_error *err)
{
	if (!fw_input_archive_probe(f->data, f->len))
		return true;
	return fw_archive_unwrap(f, fw_input_firmware_member, err);
}

bool fw_firmware_open_file(struct fw_file *file, const struct fw_open_options *o, struct fw_firmware *fw,
			   struct fw_error *err)
{
	memset(fw, 0, sizeof(*fw));
	fw->file = *file;
	memset(file, 0, sizeof(*file));
	if (!fw_firmware_unwrap(&fw->file, err)) {
		fw_file_close(&fw->file);
		return false;
	}
	if (!parse_into(fw, fw->file.data, fw->file.len, fw->file.path, o, err)) {
		fw_file_close(&fw->file);
		return false;
	}
	return true;
}

void fw_firmware_close(struct fw_firmware *fw)
{
	if (!fw)
		return;
	fw_tree_free(fw->tree);
	fw->tree = NULL;
	if (fw->file.data || fw->file.path)
		fw_file_close(&fw->file);
}
