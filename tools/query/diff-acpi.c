/* The ACPI section of a diff: tables added, removed and changed, with decoded field-level
 * differences for every table described by a layout (compared field by field, acpi/fields.h; a
 * view's `compare` first, SRAT's domains or IVRS's IOMMUs, when the table has one), and the PCI
 * root-bridge map (DSDT/SSDT through iasl) when the tables it is built from changed.
 *
 * A table needs nothing here: its layout and view (acpi/<sig>.c) say how it is compared. */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "acpi/fields.h"
#include "acpi/topo.h"
#include "diff-internal.h"
#include "parsers/hash.h"
#include "parsers/strmap.h"

/* ---- tables described by their layout: the decoded documents, field by field ---- */

/* The view's entry for a value of a table that keeps a shape of its own, or NULL: such values
 * are named and written in the diff as in its JSON ("localities: 2"). */
static const struct fw_acpi_show *shown_as(const struct fw_acpi_doc *doc, const struct fw_acpi_part *p,
					   const struct fw_acpi_value *v)
{
	const struct fw_acpi_shape *sh = fw_acpi_view_shape(doc->layout->view, p);
	char name[128];
	snprintf(name, sizeof(name), "%s%s%s", v->parent ? v->parent->name : "", v->parent ? "." : "", v->field->name);
	for (size_t i = 0; sh && i < sh->nshow; i++)
		if (sh->show[i].key && !sh->show[i].derive && !strcmp(sh->show[i].name, name))
			return &sh->show[i];
	return NULL;
}

/* "Address.SpaceId", "subspace 2 BaseAddress": a value's name, unique within its document. */
static const char *value_key(struct fw_arena *ar, const struct fw_acpi_part *p, size_t ordinal,
			     const struct fw_acpi_value *v, const struct fw_acpi_show *shown)
{
	const char *field = shown ? shown->key
			    : v->parent ? fw_arena_printf(ar, "%s.%s", v->parent->name, v->field->name) : v->field->name;
	if (ordinal == 0)
		return field;
	return fw_arena_printf(ar, "%s %zu %s", fw_acpi_part_what(p), ordinal, field);
}

static const char *value_text(struct fw_arena *ar, const struct fw_acpi_value *v, const struct fw_acpi_show *shown)
{
	char buf[256], names[512];
	if (shown && shown->as == FW_AS_NUMBER)
		return fw_arena_printf(ar, "%" PRIu64, v->u);
	const char *s = fw_acpi_value_str(v, buf, sizeof(buf));
	const char *n = fw_acpi_value_names(v, names, sizeof(names));
	return n && *n ? fw_arena_printf(ar, "%s (%s)", s, n) : fw_arena_strdup(ar, s);
}

static const char *cell_text(struct fw_arena *ar, const struct fw_acpi_cell *c)
{
	return c->null ? "null" : c->s ? c->s : fw_arena_printf(ar, "%lld", (long long)c->n);
}

/* A derived value its derive function has diff compare (`compared`): a list as its numbers, lines
 * joined, rows one key each, named by their leading cells ("entries initiator 0 target 2"). */
static void derived_values(struct fw_arena *ar, const struct fw_acpi_table *t, size_t k, const char *prefix,
			   struct fw_strmap *m, const char ***order, size_t *n, size_t *cap)
{
	const struct fw_acpi_shape *sh = fw_acpi_view_shape(t->doc->layout->view, &t->doc->parts[k]);
	for (size_t i = 0; sh && i < sh->nshow; i++) {
		const struct fw_acpi_show *w = &sh->show[i];
		const struct fw_acpi_value *v;
		struct fw_acpi_derived dv;
		if (!w->derive || !w->key || !fw_acpi_show_value_at(t, k, sh, i, &v, &dv) || !dv.compared)
			continue;
		size_t more = w->as == FW_AS_ROWS ? dv.nrows : 1;
		*order = fw_acpi_grow(ar, *order, cap, *n + more + 2, sizeof(char *));
		const char *base = prefix ? fw_arena_printf(ar, "%s %s", prefix, w->key) : w->key;
		if (w->as == FW_AS_LIST || w->as == FW_AS_LINES) {
			struct fw_acpi_text x = {0};
			for (size_t j = 0; j < dv.nlist; j++)
				fw_acpi_text_put(&x, "%s%u", j ? " " : "", fw_le32(dv.list + 4 * j));
			for (size_t j = 0; j < dv.nlines; j++)
				fw_acpi_text_put(&x, "%s%s", j ? ", " : "", dv.lines[j]);
			fw_strmap_put(m, base, fw_arena_strdup(ar, x.buf));
			(*order)[(*n)++] = base;
			continue;
		}
		for (size_t r = 0; w->as == FW_AS_ROWS && r < dv.nrows; r++) {
			struct fw_acpi_text key = {0}, val = {0};
			fw_acpi_text_put(&key, "%s", base);
			for (size_t c = 0; c < dv.ncols; c++) {
				const char *cell = cell_text(ar, &dv.cells[r * dv.ncols + c]);
				if (c < dv.key_cols)
					fw_acpi_text_put(&key, " %s %s", dv.cols[c], cell);
				else
					fw_acpi_text_put(&val, "%s%s %s", c > dv.key_cols ? ", " : "", dv.cols[c], cell);
			}
			if (!dv.key_cols)
				fw_acpi_text_put(&key, " %zu", r + 1);
			const char *kk = fw_arena_strdup(ar, key.buf);
			fw_strmap_put(m, kk, fw_arena_strdup(ar, val.buf));
			(*order)[(*n)++] = kk;
		}
	}
}

/* Every value of a table's document by key; parts are numbered within their structure name. */
static void doc_values(struct fw_arena *ar, const struct fw_acpi_table *t, struct fw_strmap *m, const char ***order,
		       size_t *n)
{
	const struct fw_acpi_doc *doc = t->doc;
	size_t cap = 0;
	*order = NULL;
	*n = 0;
	struct fw_strmap count;
	fw_strmap_init(&count);
	for (size_t k = 0; k < doc->nparts; k++) {
		const struct fw_acpi_part *p = &doc->parts[k];
		size_t ordinal = 0;
		if (k) {
			ordinal = (size_t)(intptr_t)fw_strmap_get(&count, fw_acpi_part_what(p)) + 1;
			fw_strmap_put(&count, fw_acpi_part_what(p), (void *)(intptr_t)ordinal);
		}
		*order = fw_acpi_grow(ar, *order, &cap, *n + 2, sizeof(char *));
		if (!p->described) {
			const char *key = fw_arena_printf(ar, "%s %zu", fw_acpi_part_what(p), ordinal);
			fw_strmap_put(m, key, fw_arena_printf(ar, "type 0x%" PRIx64 ", %u bytes", p->type, p->length));
			(*order)[(*n)++] = key;
		}
		struct fw_acpi_values it = fw_acpi_values_of(p);
		struct fw_acpi_value v;
		while (fw_acpi_values_next(&it, &v)) {
			const struct fw_acpi_show *shown = shown_as(doc, p, &v);
			const char *key = value_key(ar, p, ordinal, &v, shown);
			fw_strmap_put(m, key, (void *)value_text(ar, &v, shown));
			*order = fw_acpi_grow(ar, *order, &cap, *n + 2, sizeof(char *));
			(*order)[(*n)++] = key;
		}
		if (doc->layout->view)
			derived_values(ar, t, k, ordinal ? fw_arena_printf(ar, "%s %zu", fw_acpi_part_what(p), ordinal) : NULL, m, order, n, &cap);
	}
	if (doc->matrix) {
		struct fw_acpi_text x = {0};
		for (uint32_t r = 0; r < doc->matrix_n; r++) {
			fw_acpi_text_put(&x, "%s", r ? "; " : "");
			for (uint32_t c = 0; c < doc->matrix_n; c++)
				fw_acpi_text_put(&x, "%s%u", c ? " " : "", doc->matrix[r * doc->matrix_n + c]);
		}
		*order = fw_acpi_grow(ar, *order, &cap, *n + 2, sizeof(char *));
		fw_strmap_put(m, "distances", fw_arena_strdup(ar, x.buf));
		(*order)[(*n)++] = "distances";
	}
	fw_strmap_free(&count);
}

static void doc_fields(struct fw_diff *d, const struct fw_acpi_table *a, const struct fw_acpi_table *b, struct fw_diff_fields *f)
{
	struct fw_arena *ar = &d->arena;
	struct fw_strmap ma, mb;
	fw_strmap_init(&ma);
	fw_strmap_init(&mb);
	const char **oa, **ob;
	size_t na, nb, differ = 0, room = sizeof(f->items) / sizeof(f->items[0]) - 1;
	doc_values(ar, a, &ma, &oa, &na);
	doc_values(ar, b, &mb, &ob, &nb);
	for (size_t i = 0; i < na; i++) {
		const char *va = fw_strmap_get(&ma, oa[i]), *vb = fw_strmap_get(&mb, oa[i]);
		if (vb && strcmp(va, vb) == 0)
			continue;
		if (f->n < room)
			fw_diff_field(f, oa[i], va, vb ? vb : "(none)", NULL);
		differ++;
	}
	for (size_t i = 0; i < nb; i++) {
		if (fw_strmap_has(&ma, ob[i]))
			continue;
		if (f->n < room)
			fw_diff_field(f, ob[i], "(none)", fw_strmap_get(&mb, ob[i]), NULL);
		differ++;
	}
	if (f->n == room && differ > room)
		fw_diff_field(f, "more fields", "", fw_arena_printf(ar, "%zu more differ", differ - room), NULL);
	fw_strmap_free(&ma);
	fw_strmap_free(&mb);
}

struct change_ctx {
	struct fw_diff *d;
	struct fw_diff_fields *f;
};

static void change(void *ctx, const char *what, const char *a, const char *b, const char *note)
{
	struct change_ctx *c = ctx;
	struct fw_arena *ar = &c->d->arena;
	fw_diff_field(c->f, fw_arena_strdup(ar, what), fw_arena_strdup(ar, a), fw_arena_strdup(ar, b),
		      note ? fw_arena_strdup(ar, note) : NULL);
}

static void decoded_fields(struct fw_diff *d, const struct fw_acpi_table *a, const struct fw_acpi_table *b,
			   struct fw_diff_fields *f)
{
	const struct fw_acpi_view *view = a->doc ? a->doc->layout->view : NULL;
	size_t before = f->n;
	if (a->doc && b->doc && a->doc->layout == b->doc->layout && view && view->compare)
		view->compare(a, b, change, &(struct change_ctx){d, f});
	if (a->doc && b->doc && a->doc->layout == b->doc->layout && f->n == before && !(view && view->compare_only))
		doc_fields(d, a, b, f);
}

/* ---- tables ---- */

/* "SRAT"; "SSDT CPUSSDT" for a repeated signature, numbered when the OEM table id repeats too. */
static const char **table_keys(struct fw_arena *ar, const struct fw_acpi_set *s)
{
	const char **keys = fw_arena_alloc(ar, (s->ntables + 1) * sizeof(char *));
	struct fw_strmap count;
	fw_strmap_init(&count);
	for (size_t i = 0; i < s->ntables; i++) {
		const struct fw_acpi_table *t = s->tables[i];
		const char *base = t->instance ? fw_arena_printf(ar, "%s %s", t->signature, t->oem_table_id) : t->signature;
		intptr_t n = (intptr_t)fw_strmap_get(&count, base);
		fw_strmap_put(&count, base, (void *)(n + 1));
		keys[i] = n ? fw_arena_printf(ar, "%s #%ld", base, (long)n + 1) : fw_arena_strdup(ar, base);
	}
	fw_strmap_free(&count);
	return keys;
}

static bool same_bytes(const struct fw_acpi_table *a, const struct fw_acpi_table *b)
{
	return a->data.len == b->data.len && memcmp(a->data.p, b->data.p, a->data.len) == 0;
}

static void table_changed(struct fw_diff *d, const char *key, const struct fw_acpi_table *a,
			  const struct fw_acpi_table *b)
{
	struct fw_diff_fields f = {.n = 0};
	struct fw_arena *ar = &d->arena;
	if (a->length != b->length)
		fw_diff_field(&f, "length", fw_arena_printf(ar, "%u", a->length), fw_arena_printf(ar, "%u", b->length), NULL);
	if (a->revision != b->revision)
		fw_diff_field(&f, "revision", fw_arena_printf(ar, "%u", a->revision), fw_arena_printf(ar, "%u", b->revision), NULL);
	if (strcmp(a->oem_id, b->oem_id) != 0)
		fw_diff_field(&f, "OEM ID", a->oem_id, b->oem_id, NULL);
	if (strcmp(a->oem_table_id, b->oem_table_id) != 0)
		fw_diff_field(&f, "OEM table ID", a->oem_table_id, b->oem_table_id, NULL);
	if (a->oem_revision != b->oem_revision)
		fw_diff_field(&f, "OEM revision", fw_arena_printf(ar, "0x%X", a->oem_revision),
			      fw_arena_printf(ar, "0x%X", b->oem_revision), NULL);
	size_t before = f.n;
	decoded_fields(d, a, b, &f);
	if (f.n == before) {
		char sa[FW_SHA256_HEX_LEN], sb[FW_SHA256_HEX_LEN];
		fw_diff_field(&f, "sha256", fw_arena_strdup(ar, fw_sha256_hex(a->data.p, a->data.len, sa)),
			      fw_arena_strdup(ar, fw_sha256_hex(b->data.p, b->data.len, sb)), NULL);
	}
	struct fw_diff_entry *e = fw_diff_add_entry(d, "acpi", "tables", FW_DIFF_CHANGED, key, NULL, NULL);
	fw_diff_entry_fields(d, e, &f);
}

/* ---- the root-bridge map ---- */

static const struct fw_topo_bridge *bridge_at(const struct fw_acpi_topo *t, const char *path)
{
	for (size_t i = 0; i < t->nbridges; i++)
		if (strcmp(t->bridges[i].dsl.path, path) == 0)
			return &t->bridges[i];
	return NULL;
}

static void bridge_text(const struct fw_topo_bridge *b, struct fw_acpi_text *t)
{
	if (b->bus_known)
		fw_acpi_text_put(t, "segment %u, buses %02X-%02X", b->segment, b->bus_first, b->bus_last);
	else
		fw_acpi_text_put(t, "buses unknown");
	if (b->pxm_known)
		fw_acpi_text_put(t, ", _PXM %u", b->pxm);
	if (b->dsl.uid)
		fw_acpi_text_put(t, ", _UID %s", b->dsl.uid);
	if (b->iommu)
		fw_acpi_text_put(t, ", IOMMU %02x:%02x.%u", b->iommu->device_id >> 8, (b->iommu->device_id >> 3) & 0x1F,
		    b->iommu->device_id & 7);
}

static void diff_bridges(struct fw_diff *d, const struct fw_acpi_topo *a, const struct fw_acpi_topo *b)
{
	for (size_t i = 0; i < a->nbridges; i++) {
		const struct fw_topo_bridge *x = &a->bridges[i], *y = bridge_at(b, x->dsl.path);
		struct fw_acpi_text ta = {0}, tb = {0};
		bridge_text(x, &ta);
		if (!y) {
			fw_diff_add_entry(d, "acpi", "root bridges", FW_DIFF_REMOVED, x->dsl.path, ta.buf, NULL);
			continue;
		}
		bridge_text(y, &tb);
		if (strcmp(ta.buf, tb.buf) != 0)
			fw_diff_add_entry(d, "acpi", "root bridges", FW_DIFF_CHANGED, x->dsl.path, ta.buf, tb.buf);
	}
	for (size_t i = 0; i < b->nbridges; i++)
		if (!bridge_at(a, b->bridges[i].dsl.path)) {
			struct fw_acpi_text tb = {0};
			bridge_text(&b->bridges[i], &tb);
			fw_diff_add_entry(d, "acpi", "root bridges", FW_DIFF_ADDED, b->bridges[i].dsl.path, NULL, tb.buf);
		}
}

/* The map is built (iasl runs) only when a table it depends on changed. */
static bool map_inputs_changed(const struct fw_acpi_set *a, const struct fw_acpi_set *b)
{
	static const char *const deps[] = {"DSDT", "SSDT", "SRAT", "IVRS", "MCFG"};
	const struct fw_acpi_set *sets[2] = {a, b};
	for (int s = 0; s < 2; s++) {
		const struct fw_acpi_set *x = sets[s], *y = sets[!s];
		for (size_t i = 0; i < x->ntables; i++) {
			const struct fw_acpi_table *t = x->tables[i];
			bool dep = false;
			for (size_t k = 0; k < sizeof(deps) / sizeof(deps[0]) && !dep; k++)
				dep = memcmp(t->signature, deps[k], 4) == 0;
			if (!dep)
				continue;
			bool same = false;
			for (size_t j = 0; j < y->ntables && !same; j++)
				same = same_bytes(t, y->tables[j]);
			if (!same)
				return true;
		}
	}
	return false;
}

void fw_diff_acpi(struct fw_diff *d, const struct fw_acpi_set *a, const struct fw_acpi_set *b,
		  const struct fw_topo_host *host_a, const struct fw_topo_host *host_b, bool map, char *warn,
		  size_t warnlen)
{
	warn[0] = '\0';
	struct fw_arena tmp;
	fw_arena_init(&tmp);
	const char **ka = table_keys(&tmp, a), **kb = table_keys(&tmp, b);
	struct fw_strmap mb;
	fw_strmap_init(&mb);
	for (size_t i = 0; i < b->ntables; i++)
		fw_strmap_put(&mb, kb[i], b->tables[i]);
	struct fw_strmap seen;
	fw_strmap_init(&seen);
	for (size_t i = 0; i < a->ntables; i++) {
		const struct fw_acpi_table *x = a->tables[i], *y = fw_strmap_get(&mb, ka[i]);
		fw_strmap_put(&seen, ka[i], NULL);
		if (!y)
			fw_diff_add_entry(d, "acpi", "tables", FW_DIFF_REMOVED, ka[i], fw_arena_printf(&tmp, "%u bytes", x->length),
					  NULL);
		else if (!same_bytes(x, y))
			table_changed(d, ka[i], x, y);
	}
	for (size_t i = 0; i < b->ntables; i++)
		if (!fw_strmap_has(&seen, kb[i]))
			fw_diff_add_entry(d, "acpi", "tables", FW_DIFF_ADDED, kb[i], NULL,
					  fw_arena_printf(&tmp, "%u bytes", b->tables[i]->length));
	fw_strmap_free(&seen);
	fw_strmap_free(&mb);
	fw_arena_free(&tmp);
	if (!map || !fw_acpi_set_find(a, "DSDT", 0) || !fw_acpi_set_find(b, "DSDT", 0) || !map_inputs_changed(a, b))
		return;
	struct fw_acpi_topo *ta = NULL, *tb = NULL;
	struct fw_error err;
	fw_error_clear(&err);
	struct fw_topo_options oa = {.host = host_a}, ob = {.host = host_b};
	if (fw_acpi_topo_build(a, &oa, &ta, &err) && fw_acpi_topo_build(b, &ob, &tb, &err))
		diff_bridges(d, ta, tb);
	else
		snprintf(warn, warnlen, "root-bridge map not compared: %s", err.msg);
	if (ta)
		fw_acpi_topo_free(ta);
	if (tb)
		fw_acpi_topo_free(tb);
}
