/* Linux efivarfs (reference/formats.md 5.4): a file per variable, named `Name-guid` with the GUID
 * in lower case, holding the u32 attributes and then the data. Read from one file's bytes, the
 * files of a folder laid out like /sys/firmware/efi/efivars (listed and read by the caller:
 * tools/query/vars-input.c, tools/query/source.c), or a tar archive of such a folder (plain, or
 * compressed with gzip, xz, zstd or bzip2: the same reader and limits, on the inflated bytes). */
#include <stdlib.h>
#include <string.h>

#include "nvar.h"
#include "nvram.h"
#include "tar.h"
#include "utf8.h"

#define EFIVAR_GUID_LEN 36
#ifdef FW_FUZZING /* a compressed tar inflates its members: fuzz inputs need less room */
#define EFIVAR_TAR_CAP ((size_t)16 << 20)
#else
#define EFIVAR_TAR_CAP ((size_t)256 << 20)
#endif
/* A machine has a few thousand variables at most. */
#define EFIVAR_TAR_MEMBERS 65536

static const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');
	return s ? s + 1 : path;
}

/* "Name-8be4df61-93ca-11d2-aa0d-00e098032b8c": the GUID is the last 36 characters. */
static bool split_name(const char *file_name, size_t *name_len, struct fw_guid *g)
{
	const char *b = base_name(file_name);
	size_t n = strlen(b);
	if (n < EFIVAR_GUID_LEN + 2 || b[n - EFIVAR_GUID_LEN - 1] != '-')
		return false;
	if (!fw_guid_parse(b + n - EFIVAR_GUID_LEN, g))
		return false;
	*name_len = n - EFIVAR_GUID_LEN - 1;
	return true;
}

bool fw_efivarfs_name_ok(const char *file_name)
{
	size_t n;
	struct fw_guid g;
	return split_name(file_name, &n, &g);
}

static struct fw_node *new_store(struct fw_tree *t, struct fw_node *parent, const struct fw_view *v,
				 struct fw_error *err)
{
	struct fw_node *s = fw_node_add(t, parent, FW_NODE_NVRAM_STORE, "efivarfs", v, err);
	if (s && !v) {
		s->offset = FW_OFFSET_UNKNOWN;
		s->size = 0;
	}
	return s;
}

bool fw_efivarfs_parse_file(struct fw_tree *t, struct fw_node *parent, const char *file_name, const struct fw_view *v,
			    struct fw_error *err)
{
	size_t name_len;
	struct fw_guid g;
	if (!split_name(file_name, &name_len, &g))
		return fw_error_set(err, FW_E_INVALID, "%s: not an efivarfs file name (Name-guid)", base_name(file_name));
	if (v->len < 4)
		return fw_error_set(err, FW_E_TRUNCATED, "%s: %zu bytes are too few for the 4-byte attributes",
				    base_name(file_name), v->len);
	if (!parent) {
		parent = new_store(t, NULL, v, err);
		if (!parent)
			return false;
	}
	struct fw_variable *var = fw_variable_new(t);
	/* the kernel names the file with the UTF-8 of the variable's CHAR16 name; bytes that are not
	 * UTF-8 (a folder or archive not written by efivarfs) are read as CHAR8 */
	const char *b = base_name(file_name);
	var->name = fw_utf8_valid(b, name_len) ? fw_arena_strndup(&t->arena, b, name_len)
					       : fw_nvram_name_8bit(t, (const uint8_t *)b, name_len);
	var->guid = g;
	var->attributes = fw_le32(v->p);
	var->data = v->p + 4;
	var->size = v->len - 4;
	var->state = FW_VAR_STATE_VALID;
	var->store = "efivarfs";
	struct fw_node *n = fw_nvram_add_variable(t, parent, "efivarfs", v, var, err);
	if (!n)
		return false;
	n->header_size = 4;
	fw_rd_tail(v, 4, &n->body, NULL);
	fw_node_field_str(t, n, "FileName", base_name(file_name));
	/* AMI keeps its defaults stores in variables too (StdDefaults, MfgDefaults). */
	if (var->size >= FW_NVAR_HEADER_SIZE && fw_le32(var->data) == FW_NVAR_SIGNATURE) {
		struct fw_error sub;
		fw_error_clear(&sub);
		if (!fw_nvar_parse_named_store(t, n, &n->body, var->name, &sub)) {
			if (sub.code == FW_E_LIMIT)
				return fw_error_set(err, sub.code, "%s", sub.msg);
			fw_node_diag(t, n, FW_DIAG_WARN, n->body.base, "NVAR store in the variable data: %s", sub.msg);
		}
	}
	return true;
}

/* Every Name-guid file of the archive; other members are skipped. A variable keeps views into its
 * member's bytes, so the tree owns them. */
static bool load_tar(struct fw_tree *t, struct fw_node *store, const struct fw_view *v, struct fw_error *err)
{
	const struct fw_tar_limits lim = {EFIVAR_TAR_MEMBERS, FW_EFIVARFS_FILE_CAP, EFIVAR_TAR_CAP};
	struct fw_tar_reader r;
	struct fw_tar_entry e;
	fw_tar_reader_init(&r, v, &lim);
	r.want = fw_efivarfs_name_ok; /* a firmware image beside them is not read */
	fw_error_clear(err);
	bool ok = true;
	while (ok && fw_tar_next(&r, &e, err)) {
		if (e.type != '0' || !fw_efivarfs_name_ok(e.name))
			continue;
		fw_tree_own(t, fw_tar_take_data(&r), e.data.len);
		struct fw_error sub;
		fw_error_clear(&sub);
		if (fw_efivarfs_parse_file(t, store, e.name, &e.data, &sub))
			continue;
		if (sub.code == FW_E_LIMIT)
			ok = fw_error_set(err, sub.code, "%s", sub.msg);
		else
			fw_node_diag(t, store, FW_DIAG_WARN, e.header_offset, "%s: %s", e.name, sub.msg);
	}
	fw_tar_reader_free(&r);
	return ok && err->code == FW_OK;
}

struct fw_node *fw_efivarfs_new_store(struct fw_tree *t, struct fw_error *err)
{
	return new_store(t, NULL, NULL, err);
}

bool fw_efivarfs_parse_tar(struct fw_tree *t, const struct fw_view *v, const char *name, struct fw_error *err)
{
	if (v->len > EFIVAR_TAR_CAP)
		return fw_error_set(err, FW_E_LIMIT, "%s: input is larger than the limit of %zu bytes", name, EFIVAR_TAR_CAP);
	const char *compression = fw_tar_probe_compressed(v);
	struct fw_node *store = new_store(t, NULL, v, err);
	if (!store)
		return false;
	fw_node_field_str(t, store, "Container", "tar");
	if (compression)
		fw_node_field_str(t, store, "Compression", compression);
	if (!load_tar(t, store, v, err))
		return false;
	if (!store->first_child)
		return fw_error_set(err, FW_E_NOT_FOUND, "%s: the archive holds no efivarfs files (Name-guid)", name);
	return true;
}
