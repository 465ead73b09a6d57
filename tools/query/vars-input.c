/* Opening any input that holds EFI variables; naming where current values came from. */
#include "vars-input.h"

#include <dirent.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "parsers/nvar.h"
#include "parsers/tar.h"
#include "parsers/vss.h"
#include "source.h"

/* kept: the bytes the recogniser read, taken (none: the path is opened) */
static bool open_as_firmware(const char *path, struct fw_file *kept, struct fw_vars_input *in, struct fw_error *err)
{
	if (!fw_source_open_firmware_kept(path, kept, NULL, &in->fw, err))
		return false;
	in->have_fw = true;
	in->tree = in->fw.tree;
	return true;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* A folder laid out like /sys/firmware/efi/efivars: its Name-guid files in name order, each read
 * into the tree; one that cannot be read is a warning on the store, other files are not read. */
static bool load_efivarfs_folder(const char *path, struct fw_tree *t, struct fw_error *err)
{
	DIR *d = opendir(path);
	if (!d)
		return fw_error_errno(err, "%s: cannot open the folder", path);
	struct fw_strlist names = {0};
	struct dirent *e;
	while ((e = readdir(d)))
		if (e->d_name[0] != '.' && fw_efivarfs_name_ok(e->d_name))
			fw_strlist_push(&names, e->d_name);
	closedir(d);
	if (names.count)
		qsort(names.items, names.count, sizeof(*names.items), cmp_str);
	struct fw_node *store = fw_efivarfs_new_store(t, err);
	bool ok = store != NULL;
	for (size_t i = 0; i < names.count && ok; i++) {
		char *full = fw_xasprintf("%s/%s", path, names.items[i]);
		struct stat st;
		struct fw_file f;
		struct fw_error sub;
		fw_error_clear(&sub);
		if (stat(full, &st) != 0 || !S_ISREG(st.st_mode)) {
			free(full);
			continue;
		}
		if (!fw_file_read(full, FW_EFIVARFS_FILE_CAP, &f, &sub)) {
			fw_node_diag(t, store, FW_DIAG_WARN, FW_OFFSET_UNKNOWN, "%s", sub.msg);
		} else {
			fw_tree_own(t, (void *)f.data, f.len);
			struct fw_view v = fw_view_make(f.data, f.len, FW_OFFSET_UNKNOWN);
			free(f.path);
			if (!fw_efivarfs_parse_file(t, store, names.items[i], &v, &sub)) {
				if (sub.code == FW_E_LIMIT) {
					fw_error_set(err, sub.code, "%s", sub.msg);
					ok = false;
				} else {
					fw_node_diag(t, store, FW_DIAG_WARN, FW_OFFSET_UNKNOWN, "%s", sub.msg);
				}
			}
		}
		free(full);
	}
	fw_strlist_free(&names);
	return ok;
}

/* Folders and tar archives of efivarfs (plain or compressed), bare VSS regions and efivarfs dumps
 * of defaults variables under another name are read here; capsules, images, volumes, NVAR stores
 * and efivarfs files go through the firmware tree. What the input is comes from the recogniser. */
bool fw_vars_input_open(const char *path, struct fw_vars_input *in, struct fw_error *err)
{
	memset(in, 0, sizeof(*in));
	struct fw_file kept; /* a file is opened once: the recogniser's bytes are read */
	enum fw_input_kind kind = fw_source_recognise_keep(path, FW_ACCEPT_VARS, &kept);
	if (kind == FW_INPUT_FOLDER) {
		fw_file_close(&kept); /* nothing */
		in->folder = true;
		in->tree = fw_tree_new(NULL);
		in->tree->input_path = path;
		return load_efivarfs_folder(path, in->tree, err);
	}
	if (kind != FW_INPUT_EFIVARFS_TAR && kind != FW_INPUT_VSS_STORE && kind != FW_INPUT_NVRAM_DEFAULTS)
		return open_as_firmware(path, &kept, in, err);
	in->file = kept;
	if (!in->file.path && !fw_file_open(path, &in->file, err))
		return false;
	struct fw_view v = fw_view_make(in->file.data, in->file.len, 0);
	in->archive = kind == FW_INPUT_EFIVARFS_TAR;
	in->tree = fw_tree_new(NULL);
	in->tree->input_path = path;
	in->tree->input = in->file.data;
	in->tree->input_len = in->file.len;
	if (kind == FW_INPUT_EFIVARFS_TAR) {
		struct fw_error e;
		fw_error_clear(&e);
		if (fw_efivarfs_parse_tar(in->tree, &v, path, &e))
			return true;
		if (e.code != FW_E_NOT_FOUND)
			return fw_error_set(err, e.code, "%s", e.msg);
		/* no efivarfs file in it: a vendor download holding an image, read as one */
		fw_tree_free(in->tree);
		struct fw_file bytes = in->file;
		memset(in, 0, sizeof(*in));
		return open_as_firmware(path, &bytes, in, err);
	}
	if (kind == FW_INPUT_VSS_STORE)
		return fw_vss_parse_store(in->tree, NULL, &v, err);
	struct fw_view store;
	fw_rd_tail(&v, 4, &store, NULL);
	return fw_nvar_parse_store(in->tree, NULL, &store, err);
}

void fw_vars_input_close(struct fw_vars_input *in)
{
	if (in->have_fw) {
		fw_firmware_close(&in->fw);
	} else {
		fw_tree_free(in->tree);
		fw_file_close(&in->file);
	}
	memset(in, 0, sizeof(*in));
}

const char *fw_current_kind_name(enum fw_current_kind k)
{
	switch (k) {
	case FW_CURRENT_NONE: return "none";
	case FW_CURRENT_IMAGE_NVRAM: return "image-nvram";
	case FW_CURRENT_EFIVARFS: return "efivarfs";
	case FW_CURRENT_SNAPSHOT: return "snapshot";
	case FW_CURRENT_VARS: return "vars";
	case FW_CURRENT_AMISCE: return "amisce";
	case FW_CURRENT_REDFISH: return "redfish";
	case FW_CURRENT_FIRMWARE_ATTRIBUTES: return "firmware-attributes";
	}
	return "?";
}

void fw_current_source_of_vars(const struct fw_varlist *vars, enum fw_current_kind kind, const char *path,
			       struct fw_current_source *out)
{
	memset(out, 0, sizeof(*out));
	out->offset = FW_OFFSET_UNKNOWN;
	out->path = path;
	out->kind = vars && vars->count ? kind : FW_CURRENT_NONE;
	if (out->kind == FW_CURRENT_NONE)
		return;
	/* the store of the first live variable outside the defaults stores, until a bound one says */
	for (size_t i = 0; i < vars->count; i++) {
		const struct fw_variable *v = vars->items[i];
		if (v->state != FW_VAR_STATE_VALID || (v->store && strstr(v->store, "Defaults")))
			continue;
		fw_current_source_bound(out, v);
		return;
	}
	out->kind = FW_CURRENT_NONE;
}

void fw_current_source_bound(struct fw_current_source *c, const struct fw_variable *v)
{
	c->store = v->store;
	c->offset = FW_OFFSET_UNKNOWN;
	for (const struct fw_node *n = v->node ? v->node->parent : NULL; n; n = n->parent)
		if (n->kind == FW_NODE_NVRAM_STORE) {
			c->offset = n->offset;
			break;
		}
}

const char *fw_current_source_text(const struct fw_current_source *c, char *buf, size_t len)
{
	const char *p = c->path ? c->path : "?";
	switch (c->kind) {
	case FW_CURRENT_NONE:
		snprintf(buf, len, "none: defaults only");
		break;
	case FW_CURRENT_IMAGE_NVRAM:
		if (c->offset != FW_OFFSET_UNKNOWN)
			snprintf(buf, len, "the image's own %s store, %s @0x%" PRIX64, c->store ? c->store : "NVRAM", p, c->offset);
		else
			snprintf(buf, len, "the image's own %s store, %s", c->store ? c->store : "NVRAM", p);
		break;
	case FW_CURRENT_EFIVARFS:
		snprintf(buf, len, "efivarfs folder %s/sys/firmware/efi/efivars", p);
		break;
	case FW_CURRENT_FIRMWARE_ATTRIBUTES:
		snprintf(buf, len, "firmware-attributes class of %s (%s)", p, c->store ? c->store : "?");
		break;
	case FW_CURRENT_SNAPSHOT:
		snprintf(buf, len, "efivars captured in snapshot %s", p);
		break;
	case FW_CURRENT_VARS:
		if (c->offset != FW_OFFSET_UNKNOWN)
			snprintf(buf, len, "--vars %s (%s store @0x%" PRIX64 ")", p, c->store ? c->store : "NVRAM", c->offset);
		else
			snprintf(buf, len, "--vars %s (%s)", p, c->store ? c->store : "variables");
		break;
	case FW_CURRENT_AMISCE:
		snprintf(buf, len, "AMISCE export %s", p);
		break;
	case FW_CURRENT_REDFISH:
		snprintf(buf, len, "Redfish Bios resource %s", p);
		break;
	}
	return buf;
}
