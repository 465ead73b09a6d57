/* HII package discovery in module blobs, grouping of string packages, pairing (reference/ifr.md 3). */
#include "hii.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "parsers/section.h"

#define LIST_HEADER 20
#define MAX_BLOBS_PER_MODULE 64

const char *fw_hii_pairing_name(enum fw_hii_pairing p)
{
	switch (p) {
	case FW_HII_PAIR_PACKAGE_LIST: return "package-list";
	case FW_HII_PAIR_COVERAGE: return "coverage";
	default: return "none";
	}
}

void fw_hii_db_init(struct fw_hii_db *db, const struct fw_hii_options *o)
{
	memset(db, 0, sizeof(*db));
	fw_arena_init(&db->arena);
	if (o)
		db->opt = *o;
	if (!db->opt.lang)
		db->opt.lang = "en-US";
	if (!db->opt.max_string)
		db->opt.max_string = fw_limits_default().max_string;
}

void fw_hii_db_free(struct fw_hii_db *db)
{
	free(db->modules);
	fw_arena_free(&db->arena);
	memset(db, 0, sizeof(*db));
}

/* ---- scanning ---- */

struct vec {
	void *p;
	uint32_t n, cap;
};

static void *vec_push(struct vec *v, size_t elem)
{
	if (v->n == v->cap) {
		v->cap = v->cap ? v->cap * 2 : 8;
		v->p = fw_xrealloc(v->p, (size_t)v->cap * elem);
	}
	void *e = (char *)v->p + (size_t)v->n++ * elem;
	memset(e, 0, elem);
	return e;
}

struct scan {
	struct fw_hii_db *db;
	struct vec forms, strings, lists;
};

/* A package list at `start`: GUID, u32 length, packages, END (type 0xDF, length 4) at the end. */
static bool list_at(const struct fw_view *b, size_t start, size_t *len_out)
{
	if (!fw_view_has(b, start, LIST_HEADER + 4))
		return false;
	uint32_t len = fw_le32(b->p + start + 16);
	if (len < LIST_HEADER + 8 || !fw_view_has(b, start, len))
		return false;
	size_t off = start + LIST_HEADER, end = start + len;
	unsigned n = 0;
	while (end - off >= 4) {
		uint32_t h = fw_le32(b->p + off), plen = h & 0xFFFFFF;
		if (plen < 4 || plen > end - off)
			return false;
		if ((h >> 24) == FW_HII_PACKAGE_END) {
			if (plen != 4 || off + 4 != end || !n)
				return false;
			*len_out = len;
			return true;
		}
		off += plen;
		n++;
	}
	return false;
}

static void note_list(struct scan *s, uint32_t blob, const struct fw_view *b, size_t pkg_off)
{
	struct fw_hii_list *l = s->lists.p;
	for (uint32_t i = 0; i < s->lists.n; i++)
		if (l[i].blob == blob && pkg_off >= l[i].offset && pkg_off < l[i].offset + l[i].length)
			return;
	size_t len;
	if (pkg_off < LIST_HEADER || !list_at(b, pkg_off - LIST_HEADER, &len))
		return;
	struct fw_hii_list *nl = vec_push(&s->lists, sizeof(*nl));
	nl->blob = blob;
	nl->offset = pkg_off - LIST_HEADER;
	nl->length = len;
	memcpy(nl->guid.b, b->p + nl->offset, 16);
}

/* The offset of the next byte `type` at or after `from` in b, or b->len. */
static size_t next_type(const struct fw_view *b, size_t from, uint8_t type)
{
	const uint8_t *q = from < b->len ? memchr(b->p + from, type, b->len - from) : NULL;
	return q ? (size_t)(q - b->p) : b->len;
}

static void scan_blob(struct scan *s, uint32_t blob, const struct fw_view *b)
{
	struct fw_hii_db *db = s->db;
	size_t i = 0;
	/* the next bytes that could be the type of a form or string package header (memchr is far
	 * quicker than looking at every offset; offsets in between are skipped as before) */
	size_t next_forms = 0, next_strings = 0;
	while (b->len >= 8 && i <= b->len - 8) {
		if (next_forms < i + 3)
			next_forms = next_type(b, i + 3, FW_HII_PACKAGE_FORMS);
		if (next_strings < i + 3)
			next_strings = next_type(b, i + 3, FW_HII_PACKAGE_STRINGS);
		size_t at = next_forms < next_strings ? next_forms : next_strings;
		if (at > b->len - 5)
			break;
		i = at - 3;
		uint8_t type = b->p[i + 3];
		uint32_t len = fw_le24(b->p + i);
		if (len < 8 || len > b->len - i || (type == FW_HII_PACKAGE_FORMS && b->p[i + 4] != FW_IFR_FORM_SET)) {
			i++;
			continue;
		}
		struct fw_view pkg;
		fw_rd_sub(b, i, len, &pkg, NULL);
		if (type == FW_HII_PACKAGE_FORMS) {
			if (!fw_ifr_check_package(&pkg, NULL)) {
				i++;
				continue;
			}
			struct fw_hii_form_pkg *fp = vec_push(&s->forms, sizeof(*fp));
			struct fw_error err;
			if (!fw_ifr_decode(&db->arena, &pkg, &fp->fs, &err)) {
				s->forms.n--; /* cannot happen after the check; keep the scan going */
				i++;
				continue;
			}
			fp->blob = blob;
			fp->offset = i;
			fp->abs_offset = fw_view_abs(b, i);
			fp->list = -1;
			fp->group = -1;
			fp->array_prefix = i >= 4 && fw_le32(b->p + i - 4) == len + 4;
		} else {
			/* the parse checks the package as fw_hii_strings_check does */
			struct fw_hii_strings *sp = vec_push(&s->strings, sizeof(*sp));
			if (!fw_hii_strings_parse(&db->arena, &pkg, db->opt.max_string, sp, NULL)) {
				s->strings.n--;
				i++;
				continue;
			}
			sp->offset = i; /* the blob index is kept beside, in scan order */
		}
		note_list(s, blob, b, i);
		i += len; /* never look inside an accepted package */
	}
}

/* ---- grouping and pairing ---- */

static const struct fw_hii_strings *primary(const struct fw_hii_module *m, const struct fw_hii_group *g)
{
	const struct fw_hii_strings *first_display = NULL;
	for (uint32_t i = 0; i < g->count; i++) {
		const struct fw_hii_strings *s = &m->strings[g->first + i];
		if (strcasecmp(s->language, "en-US") == 0)
			return s;
		if (!first_display && !s->config_language)
			first_display = s;
	}
	return first_display ? first_display : &m->strings[g->first];
}

static bool plausible(const char *t)
{
	if (!t || !*t)
		return false;
	for (const unsigned char *c = (const unsigned char *)t; *c; c++)
		if (*c < 0x20 && *c != '\t' && *c != '\r' && *c != '\n')
			return false;
	return true;
}

static void build_strtab(struct fw_hii_db *db, struct fw_hii_form_pkg *fp)
{
	struct fw_hii_module *m = fp->module;
	if (fp->group < 0)
		return;
	const struct fw_hii_group *g = &m->groups[fp->group];
	fp->strings.pkgs = fw_arena_alloc(&db->arena, g->count * sizeof(*fp->strings.pkgs));
	uint32_t n = 0;
	const char *want = db->opt.lang;
	/* requested language (a configuration language only when asked for), en-US, other display languages */
	for (int pass = 0; pass < 3; pass++) {
		for (uint32_t i = 0; i < g->count; i++) {
			const struct fw_hii_strings *s = &m->strings[g->first + i];
			bool take;
			if (pass == 0)
				take = fw_hii_language_matches(s->language, want);
			else if (pass == 1)
				take = !s->config_language && strcasecmp(s->language, "en-US") == 0;
			else
				take = !s->config_language;
			for (uint32_t k = 0; take && k < n; k++)
				if (fp->strings.pkgs[k] == s)
					take = false;
			if (take)
				fp->strings.pkgs[n++] = s;
		}
	}
	fp->strings.n = n;
	fp->strings.language = n ? fp->strings.pkgs[0]->language : NULL;
}

static void pair(struct fw_hii_db *db, struct fw_hii_module *m, struct fw_hii_form_pkg *fp)
{
	const struct fw_ifr_formset *fs = &fp->fs;
	fp->ids_used = fs->nstring_ids;
	/* 1. the package list that holds the form package */
	if (fp->list >= 0) {
		for (uint32_t g = 0; g < m->ngroups; g++) {
			const struct fw_hii_list *l = &m->lists[fp->list];
			if (m->groups[g].blob == l->blob && m->groups[g].offset >= l->offset &&
			    m->groups[g].end <= l->offset + l->length && strcmp(m->groups[g].kind, "package-list") == 0) {
				fp->group = (int)g;
				fp->pairing = FW_HII_PAIR_PACKAGE_LIST;
				break;
			}
		}
	}
	/* 2. coverage, plausibility, distance */
	uint32_t best_cov = 0;
	bool best_plaus = false, best_same = false;
	size_t best_dist = SIZE_MAX;
	for (uint32_t g = 0; g < m->ngroups && fp->pairing != FW_HII_PAIR_PACKAGE_LIST; g++) {
		const struct fw_hii_group *grp = &m->groups[g];
		const struct fw_hii_strings *s = primary(m, grp);
		uint32_t cov = 0;
		for (uint32_t i = 0; i < fs->nstring_ids; i++)
			if (fw_hii_strings_has(s, fs->string_ids[i]))
				cov++;
		bool plaus = plausible(fw_hii_strings_get(s, fs->title));
		bool same = grp->blob == fp->blob;
		size_t fend = fp->offset + fs->package.len;
		size_t dist = !same ? SIZE_MAX : grp->offset >= fend ? grp->offset - fend
					    : fp->offset >= grp->end ? fp->offset - grp->end : 0;
		fp->candidates++;
		if (cov == fs->nstring_ids)
			fp->full_cover++;
		bool better = fp->group < 0 || cov > best_cov ||
			      (cov == best_cov && (plaus > best_plaus ||
						   (plaus == best_plaus && (same > best_same ||
									    (same == best_same && dist < best_dist)))));
		if (better) {
			fp->group = (int)g;
			best_cov = cov;
			best_plaus = plaus;
			best_same = same;
			best_dist = dist;
		}
	}
	if (fp->pairing != FW_HII_PAIR_PACKAGE_LIST && fp->group >= 0) {
		fp->pairing = FW_HII_PAIR_COVERAGE;
		fp->distance = best_dist == SIZE_MAX ? 0 : best_dist;
	}
	if (fp->group >= 0) {
		const struct fw_hii_strings *s = primary(m, &m->groups[fp->group]);
		fp->ids_covered = 0;
		for (uint32_t i = 0; i < fs->nstring_ids; i++)
			if (fw_hii_strings_has(s, fs->string_ids[i]))
				fp->ids_covered++;
	}
	build_strtab(db, fp);
}

/* Strings of one package list form a group; the rest are grouped by adjacency. Strings are in
 * scan order, so each group is a consecutive range. */
static void group_strings(struct fw_hii_db *db, struct fw_hii_module *m, const uint32_t *blob_of)
{
	struct vec groups = {0};
	for (uint32_t i = 0; i < m->nstrings;) {
		const struct fw_hii_strings *s = &m->strings[i];
		int list = -1;
		for (uint32_t l = 0; l < m->nlists; l++)
			if (m->lists[l].blob == blob_of[i] && s->offset >= m->lists[l].offset &&
			    s->offset < m->lists[l].offset + m->lists[l].length)
				list = (int)l;
		uint32_t j = i + 1;
		while (j < m->nstrings && blob_of[j] == blob_of[i]) {
			const struct fw_hii_strings *prev = &m->strings[j - 1], *cur = &m->strings[j];
			if (list >= 0) {
				if (cur->offset >= m->lists[list].offset + m->lists[list].length)
					break;
			} else {
				if (cur->offset != prev->offset + prev->length)
					break;
				bool repeat = false;
				for (uint32_t k = i; k < j; k++)
					if (strcasecmp(m->strings[k].language, cur->language) == 0)
						repeat = true;
				if (repeat)
					break;
			}
			j++;
		}
		struct fw_hii_group *g = vec_push(&groups, sizeof(*g));
		g->first = i;
		g->count = j - i;
		g->blob = blob_of[i];
		g->offset = s->offset;
		g->end = m->strings[j - 1].offset + m->strings[j - 1].length;
		const struct fw_view *b = &m->blobs[g->blob].view;
		if (list >= 0)
			g->kind = "package-list";
		else if (g->offset >= 4 && fw_le32(b->p + g->offset - 4) == g->end - g->offset + 4)
			g->kind = "array";
		else
			g->kind = "run";
		i = j;
	}
	m->groups = fw_arena_memdup(&db->arena, groups.p, (size_t)groups.n * sizeof(struct fw_hii_group));
	m->ngroups = groups.n;
	free(groups.p);
}

bool fw_hii_add_module(struct fw_hii_db *db, const struct fw_hii_blob *blobs, uint32_t nblobs,
		       const struct fw_guid *guid, const char *name, uint64_t offset, struct fw_error *err)
{
	(void)err;
	db->modules_scanned++;
	struct scan s = {.db = db};
	struct vec blob_of = {0};
	for (uint32_t b = 0; b < nblobs; b++) {
		uint32_t before = s.strings.n;
		scan_blob(&s, b, &blobs[b].view);
		for (uint32_t k = before; k < s.strings.n; k++)
			*(uint32_t *)vec_push(&blob_of, sizeof(uint32_t)) = b;
	}
	if (!s.forms.n) {
		if (s.strings.n)
			db->string_only++;
		if (!s.strings.n || !db->opt.keep_string_only) {
			free(s.forms.p), free(s.strings.p), free(s.lists.p), free(blob_of.p);
			return true;
		}
	}
	struct fw_hii_module *m = fw_arena_alloc(&db->arena, sizeof(*m));
	m->index = db->nmodules;
	m->offset = offset;
	if (guid) {
		m->guid = *guid;
		m->has_guid = true;
	}
	m->name = name ? fw_arena_strdup(&db->arena, name) : NULL;
	if (!m->name && guid) {
		const struct fw_guid_name *gn = fw_guid_lookup(guid);
		if (gn)
			m->name = gn->name;
	}
	m->blobs = fw_arena_memdup(&db->arena, blobs, nblobs * sizeof(*blobs));
	m->nblobs = nblobs;
	m->forms = fw_arena_memdup(&db->arena, s.forms.p, (size_t)s.forms.n * sizeof(struct fw_hii_form_pkg));
	m->nforms = s.forms.n;
	m->strings = fw_arena_memdup(&db->arena, s.strings.p, (size_t)s.strings.n * sizeof(struct fw_hii_strings));
	m->nstrings = s.strings.n;
	m->lists = fw_arena_memdup(&db->arena, s.lists.p, (size_t)s.lists.n * sizeof(struct fw_hii_list));
	m->nlists = s.lists.n;
	free(s.forms.p), free(s.strings.p), free(s.lists.p);
	group_strings(db, m, blob_of.p);
	free(blob_of.p);
	for (uint32_t i = 0; i < m->nforms; i++) {
		struct fw_hii_form_pkg *fp = &m->forms[i];
		fp->module = m;
		fp->index = i;
		for (uint32_t l = 0; l < m->nlists; l++)
			if (m->lists[l].blob == fp->blob && fp->offset >= m->lists[l].offset &&
			    fp->offset < m->lists[l].offset + m->lists[l].length)
				fp->list = (int)l;
		pair(db, m, fp);
	}
	if (db->nmodules == db->cap) {
		db->cap = db->cap ? db->cap * 2 : 16;
		db->modules = fw_xrealloc(db->modules, db->cap * sizeof(*db->modules));
	}
	db->modules[db->nmodules++] = m;
	return true;
}

/* ---- trees ---- */

static int section_type(const struct fw_node *n)
{
	if (n->kind != FW_NODE_SECTION || n->data.len < FW_SECTION_HEADER_SIZE)
		return -1;
	return n->data.p[3];
}

static const char *blob_kind(int type)
{
	switch (type) {
	case FW_SECTION_PE32: return "PE32";
	case FW_SECTION_TE: return "TE";
	case FW_SECTION_RAW: return "raw";
	case FW_SECTION_FREEFORM_SUBTYPE_GUID: return "freeform";
	default: return NULL;
	}
}

/* Leaf sections of a file (or of a whole tree without files), not crossing into nested files. */
static void collect_blobs(const struct fw_node *n, bool stop_at_files, struct fw_hii_blob *out, uint32_t *count)
{
	for (const struct fw_node *c = n->first_child; c; c = c->next) {
		if (stop_at_files && (c->kind == FW_NODE_FILE || c->kind == FW_NODE_VOLUME))
			continue;
		const char *kind = blob_kind(section_type(c));
		if (kind && c->body.len && *count < MAX_BLOBS_PER_MODULE) {
			out[*count].view = c->body;
			out[*count].kind = kind;
			(*count)++;
		}
		collect_blobs(c, stop_at_files, out, count);
	}
}

struct tree_walk {
	struct fw_hii_db *db;
	struct fw_error *err;
	bool ok;
	uint32_t files;
};

static bool visit_file(struct fw_node *n, void *ctx)
{
	struct tree_walk *w = ctx;
	if (n->kind != FW_NODE_FILE)
		return true;
	w->files++;
	struct fw_hii_blob blobs[MAX_BLOBS_PER_MODULE];
	uint32_t nb = 0;
	collect_blobs(n, true, blobs, &nb);
	if (!nb)
		return true;
	if (!fw_hii_add_module(w->db, blobs, nb, n->has_guid ? &n->guid : NULL, n->name, n->offset, w->err)) {
		w->ok = false;
		return false;
	}
	return true;
}

bool fw_hii_add_tree(struct fw_hii_db *db, const struct fw_node *root, struct fw_error *err)
{
	struct tree_walk w = {db, err, true, 0};
	fw_node_walk((struct fw_node *)root, visit_file, &w);
	if (!w.ok)
		return false;
	if (w.files)
		return true;
	/* no FFS files: a section, a section stream or a bare module */
	struct fw_hii_blob blobs[MAX_BLOBS_PER_MODULE];
	uint32_t nb = 0;
	collect_blobs(root, false, blobs, &nb);
	if (!nb) {
		blobs[0].view = root->data;
		blobs[0].kind = "file";
		nb = 1;
	}
	return fw_hii_add_module(db, blobs, nb, NULL, NULL, FW_OFFSET_UNKNOWN, err);
}

/* ---- lookups ---- */

const char *fw_hii_string(const struct fw_hii_form_pkg *fp, uint16_t id)
{
	for (uint32_t i = 0; i < fp->strings.n; i++) {
		const char *t = fw_hii_strings_get(fp->strings.pkgs[i], id);
		if (t)
			return t;
	}
	return NULL;
}

const char *fw_hii_string_or(const struct fw_hii_form_pkg *fp, uint16_t id, const char *missing)
{
	if (!id)
		return "";
	const char *t = fw_hii_string(fp, id);
	return t ? t : missing;
}

uint32_t fw_hii_languages(const struct fw_hii_form_pkg *fp, const char **out, uint32_t max)
{
	if (fp->group < 0)
		return 0;
	const struct fw_hii_group *g = &fp->module->groups[fp->group];
	uint32_t n = 0;
	for (uint32_t i = 0; i < g->count && n < max; i++)
		out[n++] = fp->module->strings[g->first + i].language;
	return n;
}

const char *fw_hii_keyword(const struct fw_hii_form_pkg *fp, uint16_t id)
{
	if (fp->group < 0 || !id)
		return NULL;
	const struct fw_hii_group *g = &fp->module->groups[fp->group];
	/* the first configuration language with text for the id: no fallback to display text */
	for (uint32_t i = 0; i < g->count; i++) {
		const struct fw_hii_strings *s = &fp->module->strings[g->first + i];
		const char *t = s->config_language ? fw_hii_strings_get(s, id) : NULL;
		if (t && *t)
			return t;
	}
	return NULL;
}

bool fw_hii_module_matches(const struct fw_hii_module *m, const char *want)
{
	if (m->name && strcasecmp(m->name, want) == 0)
		return true;
	if (!m->has_guid)
		return false;
	char g[FW_GUID_STR_LEN];
	fw_guid_format(&m->guid, g);
	size_t n = strlen(want);
	return n >= 4 && strncasecmp(g, want, n) == 0;
}

/* ---- inputs ---- */

bool fw_hii_open_buffer(const uint8_t *p, size_t n, const struct fw_hii_options *o, struct fw_hii_input *in,
			struct fw_error *err)
{
	memset(in, 0, sizeof(*in));
	fw_hii_db_init(&in->db, o);
	struct fw_hii_blob blob = {fw_view_make(p, n, 0), "file"};
	in->how = "one blob";
	if (!fw_hii_add_module(&in->db, &blob, 1, NULL, NULL, FW_OFFSET_UNKNOWN, err)) {
		fw_hii_db_free(&in->db);
		return false;
	}
	return true;
}

static bool has_files(struct fw_node *n, void *ctx)
{
	if (n->kind == FW_NODE_FILE) {
		*(bool *)ctx = true;
		return false;
	}
	return true;
}

bool fw_hii_open_firmware(struct fw_hii_input *in, struct fw_firmware *fw, const struct fw_hii_options *o, bool *used,
			  struct fw_error *err)
{
	memset(in, 0, sizeof(*in));
	in->fw = *fw;
	bool files = false;
	if (in->fw.tree && in->fw.tree->root)
		fw_node_walk(in->fw.tree->root, has_files, &files);
	*used = files;
	if (!files) {
		fw_firmware_close(&in->fw);
		return true;
	}
	if (o && o->tree_parsed)
		o->tree_parsed(o->tree_parsed_ctx, &in->fw);
	fw_hii_db_init(&in->db, o);
	in->have_fw = true;
	in->how = "modules of the firmware tree";
	if (!fw_hii_add_tree(&in->db, in->fw.tree->root, err)) {
		fw_hii_close(in);
		return false;
	}
	return true;
}

bool fw_hii_open_image(const uint8_t *p, size_t n, const struct fw_hii_options *o, struct fw_hii_input *in,
		       struct fw_error *err)
{
	memset(in, 0, sizeof(*in));
	struct fw_firmware fw;
	struct fw_error ferr;
	bool used = false;
	if (fw_firmware_parse_buffer(p, n, NULL, &fw, &ferr)) {
		if (!fw_hii_open_firmware(in, &fw, o, &used, err))
			return false;
		if (used)
			return true;
	}
	return fw_hii_open_buffer(p, n, o, in, err);
}

void fw_hii_close(struct fw_hii_input *in)
{
	fw_hii_db_free(&in->db);
	if (in->file.data || in->file.path)
		fw_file_close(&in->file);
	if (in->have_fw)
		fw_firmware_close(&in->fw);
	memset(in, 0, sizeof(*in));
}
