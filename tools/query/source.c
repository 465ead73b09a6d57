/* Opening SRC arguments and building their models on demand. */
#include "source.h"

#include "plan.h"

#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "acpi/ivrs.h"
#include "tools/host/firmware-attributes.h"
#include "acpi/slit.h"
#include "acpi/srat.h"
#include "parsers/file.h"
#include "parsers/prefetch.h"
#include "say-once.h"
#include "search.h"
#include "topics.h"
#include "tools/host/machine-topo.h"

const char *fw_source_kind_name(enum fw_source_kind k)
{
	switch (k) {
	case FW_SOURCE_MACHINE: return "machine";
	case FW_SOURCE_FIRMWARE: return "firmware";
	case FW_SOURCE_LIST: return "settings list";
	}
	return "?";
}

void fw_source_warn(struct fw_source *src, const char *fmt, ...)
{
	/* models are built on demand by several callers: say each thing once */
	va_list ap;
	va_start(ap, fmt);
	fw_say_once(&src->warnings, &src->nwarnings, fmt, ap);
	va_end(ap);
}

static struct fw_hii_options hii_options(const struct fw_source *src)
{
	struct fw_hii_options o;
	memset(&o, 0, sizeof(o));
	o.lang = src->opt.lang;
	return o;
}

/* The image stored in a snapshot (capture --image), if any. */
static bool snapshot_image(struct fw_source *src, struct fw_blob *blob)
{
	struct fw_strlist names;
	if (!fw_machine_list(src->machine, "fwlens/image", &names))
		return false;
	bool ok = false;
	for (size_t i = 0; i < names.count && !ok; i++) {
		char rel[1024];
		snprintf(rel, sizeof(rel), "fwlens/image/%s", names.items[i]);
		if (fw_machine_read(src->machine, rel, blob, NULL)) {
			src->image_name = fw_xstrdup(names.items[i]);
			ok = true;
		}
	}
	fw_strlist_free(&names);
	return ok;
}

/* The bytes of the file the forms came from. */
static void image_bytes_of_hii(struct fw_source *src)
{
	const struct fw_file *f = src->hii.have_fw && src->hii.fw.file.data ? &src->hii.fw.file : &src->hii.file;
	src->image = f->data;
	src->image_len = f->len;
}

/* The forms and version facts of the image with this SHA-256 and size from the cache; false on a miss. */
static bool forms_from_cache(struct fw_source *src, const char *sha, uint64_t size, const char *name)
{
	char why[256];
	struct fw_hii_options ho = hii_options(src);
	memset(&src->hii, 0, sizeof(src->hii));
	fw_hii_db_init(&src->hii.db, &ho);
	if (!fw_cache_load_hii(src->opt.cache, sha, &src->cached, &src->hii.db, why, sizeof(why))) {
		fw_hii_close(&src->hii);
		return false;
	}
	src->hii.how = "modules of the firmware tree (from the cache)";
	src->have_hii = src->from_cache = true;
	src->image_len = (size_t)size;
	snprintf(src->image_sha256, sizeof(src->image_sha256), "%s", sha);
	if (!src->image_name)
		src->image_name = fw_xstrdup(name);
	return true;
}

/* Remember what was decoded from the image (a cache that cannot be written is only a warning). */
static void forms_to_cache(struct fw_source *src, const char *sha)
{
	if (!src->opt.cache || !src->opt.cache->dir || !src->have_hii)
		return;
	struct fw_inventory inv;
	fw_inventory_build(src->hii.have_fw ? src->hii.fw.tree : NULL, &inv);
	struct fw_error e;
	fw_error_clear(&e);
	/* the topic matches of the whole list, as query finds them with the same rules */
	struct fw_arena a;
	fw_arena_init(&a);
	struct fw_cache_matches m = {0};
	struct fw_topics topics;
	struct fw_settings s;
	if (fw_topics_load(src->opt.cache->rules, &topics, &e)) {
		if (fw_settings_build(&src->hii.db, NULL, &s)) {
			struct fw_setlist l;
			fw_setlist_from_settings(&s, src->image_name ? src->image_name : src->path, &l);
			fw_query_cache_matches(&l, &topics, src->opt.lang, &a, &m);
			fw_setlist_free(&l);
		}
		fw_settings_free(&s);
		fw_topics_free(&topics);
	}
	fw_error_clear(&e);
	if (!fw_cache_store(src->opt.cache, sha, &src->hii.db, &inv, &m, &e))
		fw_source_warn(src, "cache: %s", e.msg);
	fw_arena_free(&a);
	fw_inventory_free(&inv);
}

static bool open_image_file(struct fw_source *src, const char *path, const char *what, struct fw_error *err)
{
	struct fw_hii_options ho = hii_options(src);
	char sha[FW_SHA256_HEX_LEN] = "";
	bool cache = src->opt.cache && src->opt.cache->dir && fw_cache_file_sha256(src->opt.cache, path, sha, NULL);
	struct stat st;
	if (cache && stat(path, &st) == 0 && forms_from_cache(src, sha, (uint64_t)st.st_size, path))
		return true;
	if (!fw_source_open_hii(path, &ho, &src->hii, err)) {
		fw_error_prefix(err, "%s", what);
		return false;
	}
	if (!src->image_name)
		src->image_name = fw_xstrdup(path);
	src->have_hii = true;
	image_bytes_of_hii(src);
	if (cache) {
		snprintf(src->image_sha256, sizeof(src->image_sha256), "%s", sha);
		forms_to_cache(src, sha);
	}
	return true;
}

/* The version strings are the last reads of the whole raw image (modules are only listed): read
 * them while it is resident, then let its pages go before the forms are decoded. */
static void inventory_then_release(void *ctx, struct fw_firmware *fw)
{
	struct fw_source *src = ctx;
	fw_inventory_build(fw->tree, &src->inventory);
	src->inventory_built = true;
	fw_file_drop_resident(&fw->file);
}

/* A snapshot captured with --image-ref names its image by SHA-256, size and name: the cache, or
 * the file with that hash in --image-dir. */
static bool open_image_ref(struct fw_source *src, struct fw_error *err)
{
	struct fw_blob b;
	if (!fw_machine_read(src->machine, "fwlens/image-ref.json", &b, NULL))
		return false;
	json_t *doc = b.len <= 4096 ? json_loadb((const char *)b.data, b.len, 0, NULL) : NULL;
	const char *sha = json_string_value(json_object_get(doc, "sha256"));
	const char *name = json_string_value(json_object_get(doc, "name"));
	json_int_t size = json_integer_value(json_object_get(doc, "size"));
	if (!sha || strlen(sha) != 64 || !name || size <= 0) {
		fw_source_warn(src, "fwlens/image-ref.json in %s does not name an image (sha256, size, name)", src->path);
		json_decref(doc);
		return false;
	}
	char want[FW_SHA256_HEX_LEN];
	snprintf(want, sizeof(want), "%s", sha);
	src->image_name = fw_xstrdup(name);
	json_decref(doc);
	if (forms_from_cache(src, want, (uint64_t)size, name))
		return true;
	if (!src->opt.image_dir) {
		fw_source_warn(src, "%s names its BIOS image %s (sha256 %s) without its bytes: give --image-dir DIR", src->path,
			       src->image_name, want);
		return false;
	}
	struct fw_error e;
	fw_error_clear(&e);
	char *path = fw_cache_find_image(src->opt.cache, src->opt.image_dir, want, &e);
	if (!path) {
		fw_source_warn(src, "the BIOS image of %s: %s", src->path, e.msg);
		return false;
	}
	bool ok = open_image_file(src, path, "--image-dir: ", err);
	free(path);
	return ok;
}

static bool open_forms(struct fw_source *src, struct fw_error *err)
{
	struct fw_hii_options ho = hii_options(src);
	if (src->opt.image)
		return open_image_file(src, src->opt.image, "--image: ", err);
	struct fw_blob blob;
	if (src->kind == FW_SOURCE_MACHINE && snapshot_image(src, &blob)) {
		char sha[FW_SHA256_HEX_LEN] = "";
		bool cache = src->opt.cache && src->opt.cache->dir;
		if (cache) {
			char member[1100];
			snprintf(member, sizeof(member), "fwlens/image/%s", src->image_name);
			fw_cache_member_sha256(src->opt.cache, src->path, member, blob.data, blob.len, sha);
			if (forms_from_cache(src, sha, blob.len, src->image_name))
				return true;
			snprintf(src->image_sha256, sizeof(src->image_sha256), "%s", sha);
		}
		struct fw_error e;
		fw_error_clear(&e);
		src->image = blob.data;
		src->image_len = blob.len;
		if (fw_hii_open_image(blob.data, blob.len, &ho, &src->hii, &e)) {
			src->have_hii = true;
			if (cache)
				forms_to_cache(src, sha);
		} else {
			fw_source_warn(src, "the image stored in the snapshot (%s) has no usable forms: %s", src->image_name, e.msg);
		}
		return true;
	}
	if (src->kind == FW_SOURCE_MACHINE)
		open_image_ref(src, err);
	return true;
}

/* ---- what a path is: the recogniser's look at the file system ---- */

struct path_look {
	const char *path;
	struct fw_file file;
	bool open;
};

static bool path_has_dir(void *ctx, const char *rel)
{
	const struct path_look *pl = ctx;
	char buf[4096];
	snprintf(buf, sizeof(buf), "%s/%s", pl->path, rel);
	struct stat st;
	return stat(buf, &st) == 0 && S_ISDIR(st.st_mode);
}

/* through fw_file_open: standard input and pipes are read once and kept for the reader after */
static bool path_read(void *ctx, const uint8_t **p, size_t *n)
{
	struct path_look *pl = ctx;
	if (!fw_file_open(pl->path, &pl->file, NULL))
		return false;
	pl->open = true;
	*p = pl->file.data;
	*n = pl->file.len;
	return true;
}

enum fw_input_kind fw_source_recognise_keep(const char *path, uint64_t accept, struct fw_file *kept)
{
	struct path_look pl = {.path = path};
	struct fw_input_look look = {.name = path, .is_dir = strcmp(path, "-") != 0 && fw_is_directory(path),
				     .has_dir = path_has_dir, .read = path_read, .ctx = &pl};
	enum fw_input_kind kind = fw_input_recognise(&look, accept);
	if (kept)
		*kept = pl.file; /* zeroed when nothing was read */
	else if (pl.open)
		fw_file_close(&pl.file);
	return kind;
}

enum fw_input_kind fw_source_recognise(const char *path, uint64_t accept)
{
	return fw_source_recognise_keep(path, accept, NULL);
}

bool fw_source_open_firmware_kept(const char *path, struct fw_file *kept, const struct fw_open_options *o,
				  struct fw_firmware *fw, struct fw_error *err)
{
	struct fw_file f;
	if (kept && kept->path) {
		f = *kept;
		memset(kept, 0, sizeof(*kept));
	} else if (!fw_file_open(path, &f, err)) {
		memset(fw, 0, sizeof(*fw));
		return false;
	}
	return fw_firmware_open_file(&f, o, fw, err);
}

bool fw_source_open_firmware(const char *path, const struct fw_open_options *o, struct fw_firmware *fw,
			     struct fw_error *err)
{
	return fw_source_open_firmware_kept(path, NULL, o, fw, err);
}

bool fw_source_open_hii(const char *path, const struct fw_hii_options *o, struct fw_hii_input *in, struct fw_error *err)
{
	memset(in, 0, sizeof(*in));
	/* images, capsules, volumes, FFS files: every module of the tree, compressed sections inflated once */
	struct fw_firmware fw;
	struct fw_error ferr;
	bool used = false;
	if (fw_source_open_firmware(path, NULL, &fw, &ferr)) {
		if (!fw_hii_open_firmware(in, &fw, o, &used, err))
			return false;
		if (used)
			return true;
	}
	/* a section file, a module body or a raw blob: one blob, offsets are file offsets */
	struct fw_file f;
	if (!fw_file_open(path, &f, err))
		return false;
	if (!fw_hii_open_buffer(f.data, f.len, o, in, err)) {
		fw_file_close(&f);
		return false;
	}
	in->file = f;
	return true;
}

void fw_source_image_varstores(const char *path, struct fw_strlist *out)
{
	struct fw_hii_input in;
	if (!fw_source_open_hii(path, NULL, &in, NULL))
		return;
	for (uint32_t m = 0; m < in.db.nmodules; m++)
		for (uint32_t f = 0; f < in.db.modules[m]->nforms; f++) {
			const struct fw_ifr_formset *fs = &in.db.modules[m]->forms[f].fs;
			for (uint32_t v = 0; v < fs->nvarstores; v++)
				if (fs->varstores[v].name)
					fw_strlist_push(out, fs->varstores[v].name);
		}
	fw_hii_close(&in);
}

static bool open_list(struct fw_source *src, const char *path, struct fw_error *err)
{
	src->kind = FW_SOURCE_LIST;
	struct fw_file f;
	if (!fw_file_read(path, FW_SETLIST_MAX_JSON, &f, err))
		return false;
	bool ok = fw_setlist_from_json((const char *)f.data, f.len, path, &src->list, err);
	fw_file_close(&f);
	src->list_built = src->have_list = ok;
	if (ok && src->opt.vars)
		fw_source_warn(src, "--vars is for images and machines; %s is a settings list", path);
	if (ok && src->opt.image)
		fw_source_warn(src, "--image is for machines; %s is a settings list", path);
	return ok;
}

/* An AMISCE export (recognised), parsed into src->amisce; err says why a broken one fails. */
static bool open_amisce(struct fw_source *src, const char *path, struct fw_error *err)
{
	struct fw_file f;
	if (!fw_file_open(path, &f, err))
		return false;
	bool ok = fw_amisce_parse((const char *)f.data, f.len, path, &src->amisce, err);
	if (ok) {
		src->have_amisce = true;
		src->hii_crc = src->amisce.hii_crc;
	} else {
		fw_amisce_free(&src->amisce);
	}
	fw_file_close(&f);
	return ok;
}

/* A saved Redfish Bios resource (recognised): the JSON document. */
static bool open_redfish(struct fw_source *src, const char *path, struct fw_error *err)
{
	struct fw_file f;
	if (!fw_file_open(path, &f, err))
		return false;
	src->redfish = json_loadb((const char *)f.data, f.len, 0, NULL);
	fw_file_close(&f);
	return src->redfish || fw_error_set(err, FW_E_INVALID, "%s: not a JSON document", path);
}

/* --vars is read when the source opens, so a bad file is an error of the command, not a warning. */
static bool vars_given(struct fw_source *src, struct fw_error *err)
{
	fw_error_clear(err);
	enum fw_input_kind kind = fw_source_recognise(src->opt.vars, FW_ACCEPT_CURRENT_VALUES);
	bool ok;
	if (kind == FW_INPUT_AMISCE) {
		ok = open_amisce(src, src->opt.vars, err);
	} else if (kind == FW_INPUT_REDFISH_BIOS) {
		ok = open_redfish(src, src->opt.vars, err);
	} else {
		ok = src->have_vars_in = fw_vars_input_open(src->opt.vars, &src->vars_in, err);
		if (!ok)
			fw_vars_input_close(&src->vars_in);
	}
	if (!ok)
		fw_error_prefix(err, "--vars: ");
	return ok;
}

bool fw_source_open(const char *path, const struct fw_source_options *o, struct fw_source *src, struct fw_error *err)
{
	memset(src, 0, sizeof(*src));
	src->path = fw_xstrdup(path);
	if (o)
		src->opt = *o;
	struct stat st;
	int stat_errno = 0;
	if (strcmp(path, "-") == 0)
		memset(&st, 0, sizeof(st)); /* standard input: not a folder */
	else if (stat(path, &st) != 0)
		stat_errno = errno;
	/* an AMISCE export is taken from a regular file (it is read twice) */
	uint64_t accept = FW_ACCEPT_SOURCE;
	if (stat_errno || !S_ISREG(st.st_mode))
		accept &= ~FW_INPUT_BIT(FW_INPUT_AMISCE);
	enum fw_input_kind kind = fw_source_recognise(path, accept);
	if (kind == FW_INPUT_SETTINGS_LIST) {
		if (!open_list(src, path, err)) {
			fw_source_close(src);
			return false;
		}
		return true;
	}
	if (stat_errno) {
		errno = stat_errno;
		fw_error_errno(err, "%s: cannot open", path);
		fw_source_close(src);
		return false;
	}
	fw_error_clear(err);
	switch (kind) {
	case FW_INPUT_AMISCE:
		if (!open_amisce(src, path, err)) {
			fw_source_close(src);
			return false;
		}
		src->kind = FW_SOURCE_LIST;
		fw_amisce_to_setlist(&src->amisce, &src->list);
		src->list_built = src->have_list = true;
		src->vars_loaded = true;
		src->current = (struct fw_current_source){FW_CURRENT_AMISCE, src->path, FW_OFFSET_UNKNOWN, "AMISCE"};
		src->list.current_source = fw_arena_strdup(&src->list.arena, fw_source_current_text(src));
		return true;
	case FW_INPUT_MACHINE_ROOT:
	case FW_INPUT_SNAPSHOT:
		src->kind = FW_SOURCE_MACHINE;
		if (!fw_machine_open(path, &src->machine, err) || !(src->have_host = fw_host_load(src->machine, &src->host, err)) ||
		    !open_forms(src, err) || (src->opt.vars && !vars_given(src, err))) {
			fw_source_close(src);
			return false;
		}
		return true;
	case FW_INPUT_FOLDER:
		fw_error_set(err, FW_E_UNSUPPORTED, "%s: a folder that is not laid out like a Linux root (no sys/ or proc/)",
			     path);
		fw_source_close(src);
		return false;
	default:
		break;
	}
	src->kind = FW_SOURCE_FIRMWARE;
	struct fw_hii_options ho = hii_options(src);
	if (src->opt.release_input) {
		ho.tree_parsed = inventory_then_release;
		ho.tree_parsed_ctx = src;
	}
	if (!fw_source_open_hii(path, &ho, &src->hii, err)) {
		fw_source_close(src);
		return false;
	}
	src->have_hii = true;
	/* bytes that are neither firmware nor an HII blob are bad input, not an empty BIOS */
	if (!src->hii.have_fw && src->hii.db.nmodules == 0 && src->hii.db.string_only == 0) {
		fw_error_set(err, FW_E_INVALID,
			     "%s: not a firmware file fwlens knows (no capsule header, firmware volume, FFS file, section, PE "
			     "image or HII package), nor a machine or a settings list",
			     path);
		fw_source_close(src);
		return false;
	}
	image_bytes_of_hii(src);
	if (src->opt.image)
		fw_source_warn(src, "--image is for machines; %s is firmware already", path);
	if (src->opt.vars && !vars_given(src, err)) {
		fw_source_close(src);
		return false;
	}
	return true;
}

static void machine_vars(struct fw_source *src)
{
	const char *dir = "sys/firmware/efi/efivars";
	struct fw_strlist names;
	if (!fw_machine_list(src->machine, dir, &names))
		return;
	src->vars_tree = fw_tree_new(NULL);
	struct fw_error err;
	struct fw_node *root = fw_node_add(src->vars_tree, NULL, FW_NODE_NVRAM_STORE, "efivarfs", NULL, &err);
	size_t bad = 0;
	for (size_t i = 0; root && i < names.count; i++) {
		if (!fw_efivarfs_name_ok(names.items[i]))
			continue;
		char rel[1024];
		struct fw_blob b;
		snprintf(rel, sizeof(rel), "%s/%s", dir, names.items[i]);
		if (!fw_machine_read(src->machine, rel, &b, NULL))
			continue;
		struct fw_view v = fw_view_make(b.data, b.len, FW_OFFSET_UNKNOWN);
		fw_error_clear(&err);
		if (!fw_efivarfs_parse_file(src->vars_tree, root, names.items[i], &v, &err))
			bad++;
	}
	if (bad)
		fw_source_warn(src, "%zu EFI variable files could not be read as efivarfs files", bad);
	fw_strlist_free(&names);
	fw_nvram_collect(src->vars_tree->root, false, &src->vars);
}

const struct fw_varlist *fw_source_vars(struct fw_source *src)
{
	if (src->vars_loaded)
		return &src->vars;
	src->vars_loaded = true;
	src->current = (struct fw_current_source){FW_CURRENT_NONE, NULL, FW_OFFSET_UNKNOWN, NULL};
	if (src->kind == FW_SOURCE_LIST)
		return &src->vars;
	if (src->have_amisce || src->redfish) {
		src->current = (struct fw_current_source){src->have_amisce ? FW_CURRENT_AMISCE : FW_CURRENT_REDFISH, src->opt.vars,
							  FW_OFFSET_UNKNOWN, src->have_amisce ? "AMISCE" : "Redfish"};
	} else if (src->have_vars_in) {
		if (src->vars_in.tree && src->vars_in.tree->root)
			fw_nvram_collect(src->vars_in.tree->root, false, &src->vars);
		fw_current_source_of_vars(&src->vars, FW_CURRENT_VARS, src->opt.vars, &src->current);
		if (src->current.kind == FW_CURRENT_NONE)
			fw_source_warn(src, "--vars %s: no live variables", src->opt.vars);
	} else if (src->kind == FW_SOURCE_MACHINE) {
		machine_vars(src);
		bool snap = fw_machine_kind(src->machine) == FW_MACHINE_SNAPSHOT;
		fw_current_source_of_vars(&src->vars, snap ? FW_CURRENT_SNAPSHOT : FW_CURRENT_EFIVARFS, src->path,
					  &src->current);
	} else if (src->have_hii && src->hii.have_fw && src->hii.fw.tree) {
		fw_nvram_collect(src->hii.fw.tree->root, false, &src->vars);
		fw_current_source_of_vars(&src->vars, FW_CURRENT_IMAGE_NVRAM, src->path, &src->current);
	}
	return &src->vars;
}

const struct fw_current_source *fw_source_current(struct fw_source *src)
{
	/* binding names the store the values really came from */
	if (src->have_hii)
		fw_source_settings(src);
	fw_source_vars(src);
	if (src->list_from_fwattrs)
		src->current = (struct fw_current_source){FW_CURRENT_FIRMWARE_ATTRIBUTES, src->path, FW_OFFSET_UNKNOWN,
							   src->fwattr_drivers};
	return &src->current;
}

const char *fw_source_current_text(struct fw_source *src)
{
	return fw_current_source_text(fw_source_current(src), src->current_text, sizeof(src->current_text));
}

/* ---- values without variable bytes: AMISCE exports, Redfish Bios resources ---- */

struct value_map {
	struct fw_settings *s;
	bool *has;
	uint64_t *v;
};

static bool mapped_value(void *ctx, const struct fw_setting *st, uint64_t *v)
{
	const struct value_map *m = ctx;
	size_t i = (size_t)(st - m->s->items);
	if (!m->has[i])
		return false;
	*v = m->v[i];
	return true;
}

static bool same_prompt(const char *a, const char *b)
{
	char x[512], y[512];
	return strcmp(fw_topic_normalise(a, x, sizeof(x)), fw_topic_normalise(b, y, sizeof(y))) == 0;
}

/* Each AMISCE question to the setting at its offset and width with its prompt (the question id
 * breaks ties between varstores). */
static void bind_amisce(struct fw_source *src)
{
	struct fw_settings *s = &src->settings;
	struct value_map m = {s, fw_xcalloc(s->n + 1, sizeof(bool)), fw_xcalloc(s->n + 1, sizeof(uint64_t))};
	size_t matched = 0, prompt_differs = 0, absent = 0, nvalue = 0;
	for (size_t r = 0; r < src->amisce.n; r++) {
		const struct fw_amisce_question *q = &src->amisce.q[r];
		uint64_t val;
		if (!q->has_offset || !q->has_width || !fw_amisce_current(q, &val))
			continue;
		nvalue++;
		long best = -1;
		bool offset_hit = false;
		for (uint32_t i = 0; i < s->n; i++) {
			const struct fw_setting *st = &s->items[i];
			if (!st->vs || !st->q->width || st->q->width != q->width ||
			    (st->q->bit_field ? st->q->bit_offset / 8 : st->q->var_info) != q->offset)
				continue;
			offset_hit = true;
			if (!same_prompt(st->prompt, q->prompt))
				continue;
			if (best < 0 || (q->has_token && st->q->question_id == q->token))
				best = (long)i;
		}
		if (best >= 0) {
			m.has[best] = true;
			m.v[best] = val;
			matched++;
		} else if (offset_hit) {
			prompt_differs++;
		} else {
			absent++;
		}
	}
	fw_settings_bind_values(s, mapped_value, &m);
	free(m.has);
	free(m.v);
	if (prompt_differs || absent)
		fw_source_warn(src, "--vars %s: %zu of %zu AMISCE values bound; %zu at an offset whose question has another "
				    "prompt, %zu at no question's offset and width (another BIOS?)",
			       src->opt.vars, matched, nvalue, prompt_differs, absent);
}

/* Redfish attributes by keyword: option text (or display name) for enumerations, numbers. */
static void bind_redfish(struct fw_source *src)
{
	struct fw_settings *s = &src->settings;
	struct value_map m = {s, fw_xcalloc(s->n + 1, sizeof(bool)), fw_xcalloc(s->n + 1, sizeof(uint64_t))};
	json_t *attrs = json_object_get(src->redfish, "Attributes");
	size_t unknown = 0;
	for (uint32_t i = 0; i < s->n; i++) {
		const struct fw_setting *st = &s->items[i];
		json_t *a = st->keyword ? json_object_get(attrs, st->keyword) : NULL;
		if (!a)
			continue;
		if (json_is_integer(a) && json_integer_value(a) >= 0) {
			m.v[i] = (uint64_t)json_integer_value(a);
			m.has[i] = true;
		} else if (json_is_boolean(a)) {
			m.v[i] = json_is_true(a);
			m.has[i] = true;
		} else if (json_is_string(a)) {
			const char *t = json_string_value(a);
			if (st->q->kind == FW_IFR_K_CHECKBOX && (same_prompt(t, "Enabled") || same_prompt(t, "Disabled"))) {
				m.v[i] = same_prompt(t, "Enabled");
				m.has[i] = true;
			}
			for (uint32_t k = 0; k < st->noptions && !m.has[i]; k++)
				if (same_prompt(st->options[k].text, t)) {
					m.v[i] = st->options[k].opt->value.u;
					m.has[i] = true;
				}
			if (!m.has[i])
				unknown++;
		}
	}
	fw_settings_bind_values(s, mapped_value, &m);
	free(m.has);
	free(m.v);
	if (unknown)
		fw_source_warn(src, "--vars %s: %zu Redfish attribute value%s match no option of the question", src->opt.vars,
			       unknown, unknown == 1 ? "" : "s");
}

struct fw_settings *fw_source_settings(struct fw_source *src)
{
	if (src->settings_built)
		return &src->settings;
	if (!src->have_hii) {
		if (src->kind == FW_SOURCE_MACHINE)
			fw_source_warn(src, "no BIOS forms for %s: give --image FILE (or capture the snapshot with --image) to "
					    "decode its settings",
				       src->path);
		return NULL;
	}
	if (!fw_settings_build(&src->hii.db, src->opt.module, &src->settings)) {
		fw_source_warn(src, "no setup forms%s%s in %s", src->opt.module ? " for module " : "",
			       src->opt.module ? src->opt.module : "", src->image_name ? src->image_name : src->path);
		return NULL;
	}
	src->settings_built = true;
	const struct fw_varlist *vars = fw_source_vars(src);
	if (src->have_amisce)
		bind_amisce(src);
	else if (src->redfish)
		bind_redfish(src);
	else if (vars->count)
		fw_settings_bind(&src->settings, vars);
	for (uint32_t i = 0; i < src->settings.n; i++)
		if (src->settings.items[i].var) {
			fw_current_source_bound(&src->current, src->settings.items[i].var);
			break;
		}
	return &src->settings;
}

const struct fw_setting *fw_source_setting(struct fw_source *src, const char *prompt)
{
	struct fw_settings *s = fw_source_settings(src);
	if (!s)
		return NULL;
	/* of CBS modules made per CPU generation, the one of the machine's CPU (plan-modules.c); a
	 * setting only another generation's module has is not this machine's */
	if (!src->cpu_read) {
		src->cpu_read = true;
		if (src->kind == FW_SOURCE_MACHINE)
			fw_cpu_gen_read(src->machine, &src->cpu);
		for (uint32_t i = 0; src->cpu.gen && i < s->n && !src->cpu_module; i++) {
			const char *g = fw_module_generation(s->items[i].fp->module->name);
			src->cpu_module = g && strcmp(g, src->cpu.gen) == 0;
		}
	}
	uint32_t from = 0;
	const struct fw_setting *first = NULL, *current = NULL, *gen = NULL, *it;
	bool other_gen_only = src->cpu_module;
	while ((it = fw_settings_find(s, prompt, &from))) {
		const char *g = src->cpu.gen ? fw_module_generation(it->fp->module->name) : NULL;
		bool mine = g && strcmp(g, src->cpu.gen) == 0;
		other_gen_only = other_gen_only && g && !mine;
		if (mine && it->has_current)
			return it;
		if (mine && !gen)
			gen = it;
		if (!first)
			first = it;
		if (it->has_current && !current)
			current = it;
	}
	if (other_gen_only)
		return NULL;
	return gen ? gen : current ? current : first;
}

/* Without forms, a machine whose kernel driver exposes its BIOS settings (firmware-attributes)
 * still has a settings list with current values. */
static struct fw_setlist *fwattrs_setlist(struct fw_source *src)
{
	if (src->kind != FW_SOURCE_MACHINE || !src->machine)
		return NULL;
	struct fw_fwattrs a;
	fw_fwattrs_load(src->machine, &a);
	src->fwattr_count = a.class_present ? (int)a.n : -1;
	if (!a.n) {
		fw_fwattrs_free(&a);
		return NULL;
	}
	for (size_t i = 0; i < a.n; i++) {
		size_t used = strlen(src->fwattr_drivers);
		if (!strstr(src->fwattr_drivers, a.items[i].driver))
			snprintf(src->fwattr_drivers + used, sizeof(src->fwattr_drivers) - used, "%s%s", used ? ", " : "",
				 a.items[i].driver);
	}
	fw_setlist_from_fwattrs(&a, src->path, &src->list);
	fw_fwattrs_free(&a);
	src->list_from_fwattrs = true;
	src->have_list = true;
	src->list.current_source = fw_arena_strdup(&src->list.arena, fw_source_current_text(src));
	return &src->list;
}

struct fw_setlist *fw_source_setlist(struct fw_source *src)
{
	if (src->list_built)
		return src->have_list ? &src->list : NULL;
	src->list_built = true;
	struct fw_settings *s = fw_source_settings(src);
	if (!s)
		return fwattrs_setlist(src);
	fw_setlist_from_settings(s, src->image_name ? src->image_name : src->path, &src->list);
	src->list.current_source = fw_arena_strdup(&src->list.arena, fw_source_current_text(src));
	src->have_list = true;
	return &src->list;
}

/* "ccp 0000:01:00.5: SEV API:1.55 build:21" (or the SEV-SNP line): the running SEV firmware. */
static void sev_from_log(struct fw_source *src, struct fw_inventory *inv)
{
	const char *needles[] = {"SEV API:", "SEV-SNP API:"};
	for (size_t i = 0; i < 2; i++) {
		const char *line;
		if (fw_host_log_lines(&src->host, needles[i], &line, 1) != 1)
			continue;
		unsigned major, minor, build;
		const char *p = strstr(line, needles[i]);
		if (p && sscanf(p + strlen(needles[i]), "%u.%u build:%u", &major, &minor, &build) == 3) {
			char buf[64];
			snprintf(buf, sizeof(buf), "%u.%u build %u", major, minor, build);
			fw_inventory_set_version(inv, "sev_firmware", buf, "kernel log");
			return;
		}
	}
}

const char *fw_source_image_sha256(struct fw_source *src)
{
	if (!src->image_sha256[0] && src->image && src->image_len)
		fw_sha256_hex(src->image, src->image_len, src->image_sha256);
	return src->image_sha256[0] ? src->image_sha256 : NULL;
}

struct fw_inventory *fw_source_inventory(struct fw_source *src)
{
	if (src->inventory_built)
		return &src->inventory;
	src->inventory_built = true;
	fw_inventory_build(src->have_hii && src->hii.have_fw ? src->hii.fw.tree : NULL, &src->inventory);
	for (size_t i = 0; src->from_cache && i < src->cached.nversions; i++)
		fw_inventory_set_version(&src->inventory, src->cached.versions[i].key, src->cached.versions[i].value,
					 src->cached.versions[i].source);
	if (src->kind == FW_SOURCE_MACHINE && src->have_host) {
		/* what the machine runs wins over the image that was captured with it */
		fw_inventory_set_version(&src->inventory, "bios_version", src->host.bios_version, "DMI");
		fw_inventory_set_version(&src->inventory, "bios_date", src->host.bios_date, "DMI");
		sev_from_log(src, &src->inventory);
	}
	return &src->inventory;
}

/* ---- ACPI ---- */

static bool machine_list(void *ctx, const char *dir, char ***names, size_t *n, struct fw_error *err)
{
	struct fw_strlist l;
	if (!fw_machine_list(ctx, dir, &l))
		return fw_error_set(err, FW_E_NOT_FOUND, "%s: not on this machine", dir);
	*names = l.items;
	*n = l.count;
	return true;
}

static bool machine_read(void *ctx, const char *path, const uint8_t **data, size_t *len, struct fw_error *err)
{
	struct fw_blob b;
	if (!fw_machine_read(ctx, path, &b, err)) {
		if (err)
			err->code = FW_E_NOT_FOUND; /* absent, a folder, or recorded as unreadable */
		return false;
	}
	*data = b.data;
	*len = b.len;
	return true;
}

static bool machine_is_dir(void *ctx, const char *dir)
{
	struct fw_strlist l;
	if (!fw_machine_list(ctx, dir, &l))
		return false;
	fw_strlist_free(&l);
	return true;
}

struct fw_acpi_set *fw_source_acpi(struct fw_source *src)
{
	if (src->acpi_loaded)
		return src->acpi;
	src->acpi_loaded = true;
	if (src->kind == FW_SOURCE_FIRMWARE) {
		/* the tables a firmware image carries, found in the tree already built */
		if (!src->have_hii || !src->hii.have_fw)
			return NULL;
		struct fw_acpi_set *s = fw_acpi_set_new();
		s->source = FW_ACPI_SRC_IMAGE;
		s->path = fw_arena_strdup(&s->arena, src->path);
		if (!fw_acpi_set_add_tree(s, src->hii.fw.tree, src->path, NULL)) {
			fw_acpi_set_free(s);
			return NULL;
		}
		fw_acpi_set_finish(s);
		src->acpi = s;
		return s;
	}
	if (src->kind != FW_SOURCE_MACHINE)
		return NULL;
	const char *dir = "sys/firmware/acpi/tables";
	if (!fw_machine_exists(src->machine, dir))
		return NULL;
	struct fw_acpi_set *s = fw_acpi_set_new();
	s->source = FW_ACPI_SRC_SYSROOT; /* a live root, captured or not: the topology reads it through fw_source_topo_host */
	s->path = fw_arena_strdup(&s->arena, src->path);
	src->acpi_files = (struct fw_acpi_files){src->machine, machine_list, machine_read, machine_is_dir};
	struct fw_error err;
	fw_error_clear(&err);
	if (!fw_acpi_set_add_files(s, &src->acpi_files, dir, &err)) {
		fw_source_warn(src, "ACPI tables of %s: %s", src->path, err.msg);
		fw_acpi_set_free(s);
		return NULL;
	}
	fw_acpi_set_finish(s);
	src->acpi = s;
	return s;
}

bool fw_source_topo_host(struct fw_source *src, struct fw_topo_host *out)
{
	if (src->kind != FW_SOURCE_MACHINE)
		return false;
	fw_machine_topo_host(src->machine, out);
	return true;
}

/* "IVHD type 0x40, EFR features: PreF PPR ... SNP" */
static const char *ivrs_note(struct fw_arena *a, const struct fw_ivrs *ivrs, bool efr_known, bool snp_all)
{
	const char *names[32];
	size_t n = ivrs->global_efr_valid ? fw_ivrs_efr_features(ivrs->global_efr, ivrs->global_efr2, names, 32) : 0;
	char feats[512] = "";
	for (size_t i = 0; i < n; i++) {
		size_t used = strlen(feats);
		snprintf(feats + used, sizeof(feats) - used, "%s%s", i ? " " : "", names[i]);
	}
	return fw_arena_printf(a, "IVHD type 0x%02X, EFR %s%s%s", ivrs->linux_type,
			       efr_known ? "features: " : "not reported (IVHD 10h, or IVinfo without EFRSup)",
			       efr_known ? feats : "", efr_known && !snp_all ? " (SNPSup not on every IOMMU)" : "");
}

const char *fw_source_acpi_facts(struct fw_source *src, const char *signature)
{
	struct fw_acpi_set *s = fw_source_acpi(src);
	const struct fw_acpi_table *t = s ? fw_acpi_set_find(s, signature, 0) : NULL;
	if (!t || !t->model)
		return NULL;
	if (strcmp(signature, "IVRS") == 0) {
		unsigned iommus = 0;
		bool efr_known = false, snp_all = false;
		fw_ivrs_snp_summary(t->model, &iommus, &efr_known, &snp_all);
		return fw_arena_printf(&s->arena, "IVRS: %u IOMMU%s, %s", iommus, iommus == 1 ? "" : "s",
				       ivrs_note(&s->arena, t->model, efr_known, snp_all));
	}
	if (strcmp(signature, "SRAT") == 0) {
		const struct fw_srat *srat = t->model;
		return fw_arena_printf(&s->arena, "SRAT: %zu entries, %zu proximity domains", srat->nentries, srat->ndomains);
	}
	if (strcmp(signature, "SLIT") == 0) {
		const struct fw_slit *slit = t->model;
		return fw_arena_printf(&s->arena, "SLIT: %zu localities", slit->n);
	}
	return fw_arena_printf(&s->arena, "%s: decoded", signature);
}

/* The doctor's IVRS evidence from the machine's tables. */
static bool doctor_ivrs(void *ctx, unsigned *iommus, bool *efr_known, bool *snp_all, char *note, size_t notelen)
{
	struct fw_source *src = ctx;
	struct fw_acpi_set *s = fw_source_acpi(src);
	const struct fw_acpi_table *t = s ? fw_acpi_set_find(s, "IVRS", 0) : NULL;
	if (!t || !t->model)
		return false;
	fw_ivrs_snp_summary(t->model, iommus, efr_known, snp_all);
	snprintf(note, notelen, "%s", ivrs_note(&s->arena, t->model, *efr_known, *snp_all));
	return true;
}

static bool doctor_ivinfo(void *ctx, uint32_t *ivinfo)
{
	struct fw_acpi_set *s = fw_source_acpi(ctx);
	const struct fw_acpi_table *t = s ? fw_acpi_set_find(s, "IVRS", 0) : NULL;
	if (!t || !t->model)
		return false;
	*ivinfo = ((const struct fw_ivrs *)t->model)->ivinfo;
	return true;
}

struct open_job {
	const char *path;
	const struct fw_source_options *opt;
	struct fw_source *src;
	struct fw_error *err;
	bool ok;
};

static void *open_job_run(void *arg)
{
	struct open_job *j = arg;
	struct fw_source_options o = *j->opt;
	o.release_input = true;
	j->ok = fw_source_open(j->path, &o, j->src, j->err);
	if (j->ok) {
		fw_source_setlist(j->src);
		if (j->src->kind != FW_SOURCE_LIST)
			fw_source_inventory(j->src);
		if (j->src->kind == FW_SOURCE_MACHINE)
			fw_source_acpi(j->src);
	}
	return NULL;
}

bool fw_source_open_pair(const char *const paths[2], const struct fw_source_options *const opts[2],
			 struct fw_source srcs[2], struct fw_error errs[2])
{
	struct open_job jobs[2];
	for (int i = 0; i < 2; i++) {
		fw_error_clear(&errs[i]);
		jobs[i] = (struct open_job){paths[i], opts[i], &srcs[i], &errs[i], false};
	}
	/* standard input is read by one side only; threads are an optimisation, not a requirement */
	pthread_t t;
	fw_prefetch_share(2);
	bool threaded = pthread_create(&t, NULL, open_job_run, &jobs[1]) == 0;
	if (!threaded)
		fw_prefetch_share(1);
	open_job_run(&jobs[0]);
	if (threaded)
		pthread_join(t, NULL);
	else
		open_job_run(&jobs[1]);
	fw_prefetch_share(1);
	if (jobs[0].ok && jobs[1].ok)
		return true;
	for (int i = 0; i < 2; i++)
		if (jobs[i].ok)
			fw_source_close(&srcs[i]);
	return false;
}

void fw_source_close(struct fw_source *src)
{
	if (src->acpi)
		fw_acpi_set_free(src->acpi);
	if (src->have_list)
		fw_setlist_free(&src->list);
	if (src->inventory_built)
		fw_inventory_free(&src->inventory);
	if (src->settings_built)
		fw_settings_free(&src->settings);
	fw_varlist_free(&src->vars);
	fw_tree_free(src->vars_tree);
	if (src->have_vars_in)
		fw_vars_input_close(&src->vars_in);
	if (src->have_amisce)
		fw_amisce_free(&src->amisce);
	json_decref(src->redfish);
	if (src->have_hii)
		fw_hii_close(&src->hii);
	if (src->have_host)
		fw_host_free(&src->host);
	fw_machine_close(src->machine);
	fw_say_once_free(src->warnings, src->nwarnings);
	free(src->image_name);
	fw_cache_entry_free(&src->cached);
	free(src->path);
	memset(src, 0, sizeof(*src));
}

/* --- doctor wiring ------------------------------------------------------------------------- */

static const char *default_text(const struct fw_setting *s, uint64_t *value, bool *has)
{
	*has = false;
	for (uint32_t i = 0; i < s->ndefaults; i++)
		if (s->defaults[i].has_value && s->defaults[i].store_id == 0) {
			*has = true;
			*value = s->defaults[i].value;
			return s->defaults[i].text;
		}
	return NULL;
}

static bool doctor_setting(void *ctx, const char *prompt, struct fw_doctor_setting *out)
{
	struct fw_source *src = ctx;
	const struct fw_setting *s = fw_source_setting(src, prompt);
	if (!s)
		return false;
	memset(out, 0, sizeof(*out));
	out->prompt = s->prompt;
	out->path = s->npaths ? s->paths[0] : NULL;
	out->varstore = s->varstore_name;
	out->offset = s->q->bit_field ? s->q->bit_offset : s->q->var_info;
	out->width = s->q->width;
	out->has_current = s->has_current;
	out->current = s->current;
	out->current_text = s->current_text;
	out->default_text = default_text(s, &out->def, &out->has_default);
	out->hidden = s->hidden == 1;
	out->numeric = s->q->kind == FW_IFR_K_NUMERIC;
	if (s->var) {
		/* one setting is described at a time; the text lives until the next lookup */
		static _Thread_local char from[384];
		char g[FW_GUID_STR_LEN];
		/* the source itself is named by the command; the variable and where its record sits */
		if (s->var->offset != FW_OFFSET_UNKNOWN && strcmp(s->var->store ? s->var->store : "", "efivarfs") != 0)
			snprintf(from, sizeof(from), "%s variable %s-%s at 0x%llx", s->var->store ? s->var->store : "",
				 s->var->name, fw_guid_format_lower(&s->var->guid, g), (unsigned long long)s->var->offset);
		else
			snprintf(from, sizeof(from), "%s variable %s-%s", s->var->store ? s->var->store : "", s->var->name,
				 fw_guid_format_lower(&s->var->guid, g));
		out->value_from = from;
	}
	return true;
}

static bool doctor_setting_available(struct fw_source *src)
{
	return fw_source_settings(src) != NULL;
}

void fw_source_doctor_ctx(struct fw_source *src, unsigned profiles, struct fw_doctor_ctx *ctx)
{
	memset(ctx, 0, sizeof(*ctx));
	ctx->host = src->have_host ? &src->host : NULL;
	ctx->profiles = profiles;
	if (doctor_setting_available(src)) {
		ctx->src.setting = doctor_setting;
		ctx->src.setting_ctx = src;
	}
	/* an image's own tables are not the running machine's: AGESA builds IVRS at boot */
	if (src->kind == FW_SOURCE_MACHINE && fw_source_acpi(src)) {
		ctx->src.ivrs = doctor_ivrs;
		ctx->src.ivinfo = doctor_ivinfo;
		ctx->src.acpi_ctx = src;
	}
	ctx->src.image = src->image;
	ctx->src.image_len = src->image ? src->image_len : 0;
	ctx->src.image_name = src->image_name;
	ctx->src.p2p_evidence = src->opt.p2p_evidence;
	ctx->src.np2p_evidence = src->opt.np2p_evidence;
	if (profiles & FW_PROFILE_SECURITY && src->image_name) {
		const struct fw_version_fact *agesa = fw_inventory_version(fw_source_inventory(src), "agesa");
		ctx->src.agesa = agesa ? agesa->value : NULL;
	}
}
