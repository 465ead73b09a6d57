/* The diff engine: the lists a diff keeps, and the run that fills them (settings in diff-settings.c,
 * images and machines in diff-machine.c, ACPI in diff-acpi.c). */
#include "diff-internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "acpi/topo.h"

const char *fw_diff_kind_name(enum fw_diff_kind k)
{
	switch (k) {
	case FW_DIFF_ADDED: return "added";
	case FW_DIFF_REMOVED: return "removed";
	case FW_DIFF_MOVED: return "moved";
	case FW_DIFF_CHANGED: return "changed";
	}
	return "?";
}

/* ---- small growable lists in the diff ---- */

void *fw_diff_grow(void *p, size_t *cap, size_t n, size_t size)
{
	if (n < *cap)
		return p;
	*cap = *cap ? *cap * 2 : 64;
	return fw_xrealloc(p, *cap * size);
}

void fw_diff_field(struct fw_diff_fields *f, const char *name, const char *old_value, const char *new_value,
		   const char *detail)
{
	if (f->n < sizeof(f->items) / sizeof(f->items[0]))
		f->items[f->n++] = (struct fw_diff_field){name, old_value, new_value, detail};
}

struct fw_diff_field *fw_diff_keep_fields(struct fw_diff *d, const struct fw_diff_fields *f)
{
	if (!f->n)
		return NULL;
	return fw_arena_memdup(&d->arena, f->items, f->n * sizeof(f->items[0]));
}

void fw_diff_entry_fields(struct fw_diff *d, struct fw_diff_entry *e, const struct fw_diff_fields *f)
{
	e->fields = fw_diff_keep_fields(d, f);
	e->nfields = f->n;
}

void fw_diff_note(struct fw_diff *d, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	d->notes = fw_diff_grow(d->notes, &d->notes_cap, d->nnotes, sizeof(*d->notes));
	d->notes[d->nnotes++] = fw_arena_strdup(&d->arena, buf);
}

struct fw_diff_entry *fw_diff_add_entry(struct fw_diff *d, const char *section, const char *group,
					enum fw_diff_kind kind, const char *key, const char *old_value,
					const char *new_value)
{
	d->entries = fw_diff_grow(d->entries, &d->entries_cap, d->nentries, sizeof(*d->entries));
	struct fw_diff_entry *e = &d->entries[d->nentries++];
	memset(e, 0, sizeof(*e));
	e->section = section;
	e->group = group;
	e->kind = kind;
	e->key = fw_arena_strdup(&d->arena, key);
	e->old_value = old_value ? fw_arena_strdup(&d->arena, old_value) : NULL;
	e->new_value = new_value ? fw_arena_strdup(&d->arena, new_value) : NULL;
	return e;
}

/* ---- the whole diff ---- */

void fw_diff_run(struct fw_source *a, struct fw_source *b, const struct fw_diff_options *o, struct fw_diff *d)
{
	memset(d, 0, sizeof(*d));
	fw_arena_init(&d->arena);
	struct fw_setlist *la = fw_source_setlist(a), *lb = fw_source_setlist(b);
	if (la && lb) {
		bool ok = true;
		if (o && o->module_a)
			ok = fw_setlist_keep_module(la, o->module_a);
		if (o && o->module_b)
			ok = fw_setlist_keep_module(lb, o->module_b) && ok;
		if (ok) {
			fw_diff_settings(la, lb, d);
			if (o && o->no_values)
				d->nvalues = 0;
			if (o && o->topics)
				fw_diff_keep_topics(d, o->topics, o->ntopics);
			fw_diff_varstores(d, la, lb);
		}
	}
	struct fw_diff_nodes da = {0}, db = {0};
	bool images = a->kind == FW_SOURCE_FIRMWARE && b->kind == FW_SOURCE_FIRMWARE;
	if (a->kind != FW_SOURCE_LIST && b->kind != FW_SOURCE_LIST) {
		struct fw_inventory *ia = fw_source_inventory(a), *ib = fw_source_inventory(b);
		fw_diff_versions(d, ia, ib);
		if (ia->nmodules && ib->nmodules)
			fw_diff_modules(d, ia, ib, o, &da, &db);
		else
			images = false;
		if (!(o && (o->module_a || o->module_b)))
			fw_diff_variables(d, fw_source_vars(a), fw_source_vars(b));
	}
	if (a->have_host && b->have_host)
		fw_diff_kernel(d, &a->host, &b->host);
	if (images) {
		/* tables in the modules that are the same on both sides are the same: scan only the others */
		struct fw_acpi_set *ta = fw_acpi_set_new(), *tb = fw_acpi_set_new();
		ta->source = tb->source = FW_ACPI_SRC_IMAGE;
		fw_acpi_set_add_nodes(ta, da.v, da.n, a->path, NULL);
		fw_acpi_set_add_nodes(tb, db.v, db.n, b->path, NULL);
		fw_acpi_set_finish(ta);
		fw_acpi_set_finish(tb);
		char warn[8];
		fw_diff_acpi(d, ta, tb, NULL, NULL, false, warn, sizeof(warn));
		fw_acpi_set_free(ta);
		fw_acpi_set_free(tb);
	}
	free(da.v);
	free(db.v);
	struct fw_acpi_set *sa = images ? NULL : fw_source_acpi(a), *sb = images ? NULL : fw_source_acpi(b);
	if (sa && sb) {
		char warn[1024];
		struct fw_topo_host ha, hb;
		bool has_a = fw_source_topo_host(a, &ha), has_b = fw_source_topo_host(b, &hb);
		/* the root-bridge map of an image is a template the firmware patches at boot: machines only */
		bool map = a->kind == FW_SOURCE_MACHINE && b->kind == FW_SOURCE_MACHINE;
		fw_diff_acpi(d, sa, sb, has_a ? &ha : NULL, has_b ? &hb : NULL, map, warn, sizeof(warn));
		if (warn[0])
			fw_diff_note(d, "%s", warn);
	}
}

void fw_diff_free(struct fw_diff *d)
{
	free(d->settings);
	free(d->values);
	free(d->entries);
	free(d->notes);
	fw_arena_free(&d->arena);
	memset(d, 0, sizeof(*d));
}

size_t fw_diff_count(const struct fw_diff *d)
{
	return d->nsettings + d->nvalues + d->nentries;
}

const struct fw_diff_entry *fw_diff_entry_in(const struct fw_diff *d, const char *section, size_t *i)
{
	for (; *i < d->nentries; (*i)++)
		if (strcmp(d->entries[*i].section, section) == 0)
			return &d->entries[(*i)++];
	return NULL;
}
