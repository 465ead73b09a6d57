/* JSON, text and markdown of a diff. */
#include "diff-writers.h"
#include "ifr-writers.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "query-writers.h"

static json_t *str_or_null(const char *s)
{
	return s ? json_string(s) : json_null();
}

static json_t *fields_json(const struct fw_diff_field *f, size_t n)
{
	json_t *arr = json_array();
	for (size_t i = 0; i < n; i++) {
		json_t *o = json_object();
		json_object_set_new(o, "field", json_string(f[i].field));
		json_object_set_new(o, "old", str_or_null(f[i].old_value));
		json_object_set_new(o, "new", str_or_null(f[i].new_value));
		if (f[i].detail)
			json_object_set_new(o, "detail", json_string(f[i].detail));
		json_array_append_new(arr, o);
	}
	return arr;
}

/* Where a setting lives, for the old and new side of a pair. */
static json_t *where_json(const struct fw_setlist_item *it)
{
	char hexbuf[16];
	json_t *o = json_object();
	json_object_set_new(o, "path", str_or_null(it->path));
	json_object_set_new(o, "module", str_or_null(it->module));
	json_object_set_new(o, "module_name", str_or_null(it->module_name));
	json_object_set_new(o, "varstore", str_or_null(it->varstore));
	json_object_set_new(o, "varstore_guid", str_or_null(it->varstore_guid));
	snprintf(hexbuf, sizeof(hexbuf), "0x%X", it->offset);
	json_object_set_new(o, "offset", it->has_offset ? json_integer(it->offset) : json_null());
	json_object_set_new(o, "offset_hex", it->has_offset ? json_string(hexbuf) : json_null());
	json_object_set_new(o, "width", json_integer(it->width));
	json_object_set_new(o, "question_id", json_integer(it->question_id));
	return o;
}

/* "iommu, p2p" as ["iommu", "p2p"]. */
static json_t *topics_json(const char *topics)
{
	json_t *arr = json_array();
	char buf[512];
	snprintf(buf, sizeof(buf), "%s", topics ? topics : "");
	for (char *save = NULL, *p = strtok_r(buf, ", ", &save); p; p = strtok_r(NULL, ", ", &save))
		json_array_append_new(arr, json_string(p));
	return arr;
}

static json_t *pair_json(const struct fw_diff_setting *s)
{
	json_t *o = json_object();
	json_object_set_new(o, "prompt", json_string(s->b->prompt));
	json_object_set_new(o, "path", str_or_null(s->b->path));
	if (s->kind == FW_DIFF_MOVED)
		json_object_set_new(o, "old_path", str_or_null(s->a->path));
	json_object_set_new(o, "module_name", str_or_null(s->b->module_name));
	if (s->kind == FW_DIFF_CHANGED)
		json_object_set_new(o, "layout_only", json_boolean(s->layout_only));
	json_object_set_new(o, "changes", fields_json(s->fields, s->nfields));
	json_object_set_new(o, "old", where_json(s->a));
	json_object_set_new(o, "new", where_json(s->b));
	return o;
}

static json_t *entry_json(const struct fw_diff_entry *e)
{
	json_t *o = json_object();
	json_object_set_new(o, "key", json_string(e->key));
	if (e->name)
		json_object_set_new(o, "name", json_string(e->name));
	if (e->where)
		json_object_set_new(o, "where", json_string(e->where));
	if (e->old_value || e->kind != FW_DIFF_ADDED)
		json_object_set_new(o, "old", str_or_null(e->old_value));
	if (e->new_value || e->kind != FW_DIFF_REMOVED)
		json_object_set_new(o, "new", str_or_null(e->new_value));
	if (e->nfields)
		json_object_set_new(o, "changes", fields_json(e->fields, e->nfields));
	return o;
}

/* {"added": [], "removed": [], "changed": []} of one section, grouped when `group` is set. */
static json_t *section_json(const struct fw_diff *d, const char *section)
{
	json_t *o = json_object(), *lists[4] = {json_array(), json_array(), json_array(), json_array()};
	size_t i = 0;
	const struct fw_diff_entry *e;
	while ((e = fw_diff_entry_in(d, section, &i))) {
		json_t *je = entry_json(e);
		if (e->group)
			json_object_set_new(je, "group", json_string(e->group));
		json_array_append_new(lists[e->kind], je);
	}
	json_object_set_new(o, "added", lists[FW_DIFF_ADDED]);
	json_object_set_new(o, "removed", lists[FW_DIFF_REMOVED]);
	json_object_set_new(o, "changed", lists[FW_DIFF_CHANGED]);
	json_decref(lists[FW_DIFF_MOVED]);
	return o;
}

static json_t *kernel_json(const struct fw_diff *d)
{
	json_t *o = json_object();
	size_t i = 0;
	const struct fw_diff_entry *e;
	while ((e = fw_diff_entry_in(d, "kernel", &i))) {
		json_t *arr = json_object_get(o, e->group);
		if (!arr) {
			arr = json_array();
			json_object_set_new(o, e->group, arr);
		}
		json_t *je = entry_json(e);
		json_object_set_new(je, "change", json_string(fw_diff_kind_name(e->kind)));
		json_array_append_new(arr, je);
	}
	return o;
}

json_t *fw_diff_json(const struct fw_diff *d, struct fw_setlist *la, struct fw_setlist *lb)
{
	json_t *doc = json_object();
	json_t *settings = json_object(), *lists[4] = {json_array(), json_array(), json_array(), json_array()};
	for (size_t i = 0; i < d->nsettings; i++) {
		const struct fw_diff_setting *s = &d->settings[i];
		json_t *o;
		if (s->kind == FW_DIFF_ADDED)
			o = fw_query_json_setting(lb, s->b);
		else if (s->kind == FW_DIFF_REMOVED)
			o = fw_query_json_setting(la, s->a);
		else
			o = pair_json(s);
		if (d->topic_filter)
			json_object_set_new(o, "topics", topics_json(s->topics));
		json_array_append_new(lists[s->kind], o);
	}
	json_object_set_new(settings, "added", lists[FW_DIFF_ADDED]);
	json_object_set_new(settings, "removed", lists[FW_DIFF_REMOVED]);
	json_object_set_new(settings, "moved", lists[FW_DIFF_MOVED]);
	json_object_set_new(settings, "changed", lists[FW_DIFF_CHANGED]);
	json_object_set_new(doc, "settings", settings);
	json_t *values = json_array();
	for (size_t i = 0; i < d->nvalues; i++) {
		const struct fw_diff_value *v = &d->values[i];
		json_t *o = json_object();
		json_object_set_new(o, "prompt", json_string(v->b->prompt));
		json_object_set_new(o, "path", str_or_null(v->b->path));
		json_object_set_new(o, "module_name", str_or_null(v->b->module_name));
		json_object_set_new(o, "old", str_or_null(v->old_value));
		json_object_set_new(o, "new", str_or_null(v->new_value));
		json_object_set_new(o, "old_value", v->a->has_current ? json_integer((json_int_t)v->a->current) : json_null());
		json_object_set_new(o, "new_value", v->b->has_current ? json_integer((json_int_t)v->b->current) : json_null());
		json_object_set_new(o, "old_source", str_or_null(d->values_source[0]));
		json_object_set_new(o, "new_source", str_or_null(d->values_source[1]));
		if (d->topic_filter)
			json_object_set_new(o, "topics", topics_json(v->topics));
		json_array_append_new(values, o);
	}
	json_object_set_new(doc, "values", values);
	json_object_set_new(doc, "varstores", section_json(d, "varstores"));
	json_object_set_new(doc, "modules", section_json(d, "modules"));
	json_t *versions = json_object();
	size_t i = 0;
	const struct fw_diff_entry *e;
	while ((e = fw_diff_entry_in(d, "versions", &i))) {
		json_t *o = json_object();
		json_object_set_new(o, "old", str_or_null(e->old_value));
		json_object_set_new(o, "new", str_or_null(e->new_value));
		json_object_set_new(versions, e->key, o);
	}
	json_object_set_new(doc, "versions", versions);
	json_object_set_new(doc, "variables", section_json(d, "variables"));
	json_object_set_new(doc, "acpi", section_json(d, "acpi"));
	json_object_set_new(doc, "kernel", kernel_json(d));
	json_t *sum = json_object();
	json_object_set_new(sum, "differences", json_integer((json_int_t)fw_diff_count(d)));
	json_object_set_new(sum, "settings_compared", json_boolean(d->have_settings));
	json_object_set_new(sum, "settings_old", json_integer((json_int_t)d->a_settings));
	json_object_set_new(sum, "settings_new", json_integer((json_int_t)d->b_settings));
	json_object_set_new(sum, "settings_matched", json_integer((json_int_t)d->matched));
	json_object_set_new(sum, "layout_only", json_integer((json_int_t)d->layout_only));
	if (d->topic_filter)
		json_object_set_new(sum, "topics", topics_json(d->topic_filter));
	json_object_set_new(doc, "summary", sum);
	return doc;
}

/* ---- text ---- */

static const char *sign_of(enum fw_diff_kind k)
{
	switch (k) {
	case FW_DIFF_ADDED: return "+";
	case FW_DIFF_REMOVED: return "-";
	case FW_DIFF_MOVED: return ">";
	case FW_DIFF_CHANGED: return "~";
	}
	return "?";
}

static const char *kind_color(struct fw_cli *cli, enum fw_diff_kind k)
{
	return fw_cli_color(cli, k == FW_DIFF_ADDED ? "green" : k == FW_DIFF_REMOVED ? "red" : k == FW_DIFF_MOVED ? "cyan" : "yellow");
}

/* The module a changed setting belongs to: its new side's, "A -> B" when it moved between modules
 * (or --module-a and --module-b compare two). Settings of several modules are listed module by
 * module, each group under a line naming it. */
static const char *setting_module(const struct fw_diff_setting *s, char *buf, size_t len)
{
	const char *ma = s->a ? fw_query_module_of(s->a) : NULL, *mb = s->b ? fw_query_module_of(s->b) : NULL;
	if (ma && mb && strcmp(ma, mb) != 0)
		snprintf(buf, len, "%s -> %s", ma, mb);
	else
		snprintf(buf, len, "%s", mb ? mb : ma);
	return buf;
}

/* The distinct modules of the listed settings, in order of first appearance; 0 (list them in one
 * group) when there are more than `max`. */
static size_t diff_modules(const struct fw_diff *d, bool verbose, char (*mods)[160], size_t max)
{
	size_t n = 0;
	for (size_t i = 0; i < d->nsettings; i++) {
		if (d->settings[i].layout_only && !verbose)
			continue;
		char buf[160];
		setting_module(&d->settings[i], buf, sizeof(buf));
		size_t k = 0;
		while (k < n && strcmp(mods[k], buf) != 0)
			k++;
		if (k == n && n == max)
			return 0;
		if (k == n)
			snprintf(mods[n++], sizeof(mods[0]), "%s", buf);
	}
	return n;
}

/* Hashes are shortened for reading; JSON keeps them whole. */
static const char *short_hash(const char *field, const char *v, char *buf, size_t len)
{
	if (!v)
		return "(none)";
	if (strcmp(field, "sha256") != 0 || strlen(v) <= 16)
		return v;
	snprintf(buf, len, "%.12s...", v);
	return buf;
}

static void text_fields(FILE *f, const struct fw_diff_field *fl, size_t n, bool skip_path)
{
	char ba[32], bb[32];
	for (size_t i = 0; i < n; i++) {
		if (skip_path && strcmp(fl[i].field, "path") == 0)
			continue;
		if (strcmp(fl[i].field, "help") == 0) {
			fprintf(f, "        help text changed\n");
			continue;
		}
		if (strcmp(fl[i].field, "options") == 0 && fl[i].detail) {
			fprintf(f, "        options: %s\n", fl[i].detail); /* the whole lists are in JSON */
			continue;
		}
		fprintf(f, "        %s: %s -> %s", fl[i].field, short_hash(fl[i].field, fl[i].old_value, ba, sizeof(ba)),
			short_hash(fl[i].field, fl[i].new_value, bb, sizeof(bb)));
		if (fl[i].detail)
			fprintf(f, " (%s)", fl[i].detail);
		fputc('\n', f);
	}
}

static void text_setting(struct fw_cli *cli, const struct fw_diff_setting *s)
{
	FILE *f = fw_cli_out(cli);
	const char *r = fw_cli_color(cli, "reset"), *dim = fw_cli_color(cli, "dim");
	const struct fw_setlist_item *it = s->b ? s->b : s->a;
	char wb[128];
	/* prompts, menu paths and module names come from the images: one line each */
	fprintf(f, "  %s%s ", kind_color(cli, s->kind), sign_of(s->kind));
	fw_ifr_put_line(f, it->prompt);
	fprintf(f, "%s  %s", r, dim);
	if (s->kind == FW_DIFF_MOVED) {
		fw_ifr_put_line(f, s->a->path ? s->a->path : "(no menu)");
		fputs("  ->  ", f);
		fw_ifr_put_line(f, s->b->path ? s->b->path : "(no menu)");
	} else {
		fw_ifr_put_line(f, it->path ? it->path : "(no menu)");
	}
	fputs("  [", f);
	fw_ifr_put_line(f, it->module_name ? it->module_name : it->module ? it->module : "?");
	fprintf(f, " %s]", fw_query_where(it, wb, sizeof(wb)));
	if (s->topics)
		fprintf(f, "  topics: %s", s->topics);
	fprintf(f, "%s\n", r);
	text_fields(f, s->fields, s->nfields, s->kind == FW_DIFF_MOVED);
}

static size_t entries_in(const struct fw_diff *d, const char *section)
{
	size_t n = 0, i = 0;
	while (fw_diff_entry_in(d, section, &i))
		n++;
	return n;
}

/* Modules known only by their GUID are many and say little: without -v they are counted, one line
 * per volume and kind of change, after the named ones. */
static bool grouped(const struct fw_diff_entry *e, bool verbose)
{
	return !verbose && strcmp(e->section, "modules") == 0 && !e->name;
}

/* Where an entry's module is: "volume @0x1000000", "both copies", or "" */
static const char *entry_volume(const struct fw_diff_entry *e)
{
	return e->where ? e->where : "";
}

/* The groups of unnamed modules: each first entry of its (volume, kind), with its count. */
static size_t group_count(const struct fw_diff *d, const struct fw_diff_entry *e, bool *first)
{
	size_t n = 0, i = 0;
	const struct fw_diff_entry *x;
	*first = true;
	while ((x = fw_diff_entry_in(d, "modules", &i))) {
		if (!grouped(x, false) || x->kind != e->kind || strcmp(entry_volume(x), entry_volume(e)) != 0)
			continue;
		if (x < e)
			*first = false;
		n++;
	}
	return n;
}

static void text_entries(struct fw_cli *cli, const struct fw_diff *d, const char *section, const char *title)
{
	size_t n = entries_in(d, section);
	if (!n)
		return;
	FILE *f = fw_cli_out(cli);
	const char *r = fw_cli_color(cli, "reset");
	fprintf(f, "\n%s%s%s (%zu)\n", fw_cli_color(cli, "bold"), title, r, n);
	size_t i = 0;
	const struct fw_diff_entry *e;
	while ((e = fw_diff_entry_in(d, section, &i))) {
		if (grouped(e, cli->verbose))
			continue;
		bool group = e->group && strcmp(e->group, e->key) != 0;
		fprintf(f, "  %s%s %s%s%s", kind_color(cli, e->kind), sign_of(e->kind), group ? e->group : "",
			group ? ": " : "", e->key);
		if (e->name)
			fprintf(f, " %s", e->name);
		if (e->where && (e->copies || strncmp(e->where, "volume", 6) != 0))
			fprintf(f, "  (%s)", e->where);
		fprintf(f, "%s", r);
		if (e->kind == FW_DIFF_CHANGED && (e->old_value || e->new_value) && !e->nfields)
			fprintf(f, ": %s -> %s", e->old_value ? e->old_value : "(none)", e->new_value ? e->new_value : "(none)");
		else if (e->kind == FW_DIFF_ADDED && e->new_value && strcmp(section, "modules") != 0)
			fprintf(f, ": %s", e->new_value);
		else if (e->kind == FW_DIFF_REMOVED && e->old_value && strcmp(section, "modules") != 0)
			fprintf(f, ": %s", e->old_value);
		fputc('\n', f);
		if (e->kind == FW_DIFF_CHANGED)
			text_fields(f, e->fields, e->nfields, false);
	}
	i = 0;
	while ((e = fw_diff_entry_in(d, section, &i))) {
		bool first;
		if (!grouped(e, cli->verbose))
			continue;
		size_t g = group_count(d, e, &first);
		if (!first)
			continue;
		const char *vol = entry_volume(e);
		fprintf(f, "  %s%s %zu module%s without a name %s%s%s (GUIDs with -v)\n", kind_color(cli, e->kind),
			sign_of(e->kind), g, g == 1 ? "" : "s", fw_diff_kind_name(e->kind), *vol ? " in " : "", vol);
		fputs(r, f);
	}
}

void fw_diff_text(struct fw_cli *cli, const struct fw_diff *d, const char *a_name, const char *b_name)
{
	FILE *f = fw_cli_out(cli);
	const char *b = fw_cli_color(cli, "bold"), *r = fw_cli_color(cli, "reset");
	fprintf(f, "%sfwlens diff%s %s -> %s\n", b, r, a_name, b_name);
	if (d->have_settings) {
		fprintf(f, "\n%sSettings%s%s%s (%zu old, %zu new, %zu matched): %zu added, %zu removed, %zu moved, %zu changed",
			b, r, d->topic_filter ? " of topics " : "", d->topic_filter ? d->topic_filter : "", d->a_settings, d->b_settings, d->matched, d->counts[FW_DIFF_ADDED], d->counts[FW_DIFF_REMOVED],
			d->counts[FW_DIFF_MOVED], d->counts[FW_DIFF_CHANGED]);
		if (d->layout_only)
			fprintf(f, " (%zu of them only in their varstore layout%s)", d->layout_only,
				cli->verbose ? "" : ", listed with -v");
		fputc('\n', f);
		const enum fw_diff_kind order[] = {FW_DIFF_ADDED, FW_DIFF_REMOVED, FW_DIFF_MOVED, FW_DIFF_CHANGED};
		static char mods[64][160];
		size_t nm = diff_modules(d, cli->verbose, mods, 64);
		for (size_t m = 0; m < (nm > 1 ? nm : 1); m++) {
			if (nm > 1)
				fprintf(f, "  %smodule %s%s\n", b, mods[m], r);
			for (size_t k = 0; k < 4; k++)
				for (size_t i = 0; i < d->nsettings; i++) {
					char mb[160];
					if (d->settings[i].kind == order[k] && (cli->verbose || !d->settings[i].layout_only) &&
					    (nm <= 1 || strcmp(setting_module(&d->settings[i], mb, sizeof(mb)), mods[m]) == 0))
						text_setting(cli, &d->settings[i]);
				}
		}
	}
	if (d->nvalues) {
		fprintf(f, "\n%sValues%s (%zu)\n", b, r, d->nvalues);
		fprintf(f, "  %sold values from %s%s\n", fw_cli_color(cli, "dim"),
			d->values_source[0] ? d->values_source[0] : "not known", r);
		fprintf(f, "  %snew values from %s%s\n", fw_cli_color(cli, "dim"),
			d->values_source[1] ? d->values_source[1] : "not known", r);
		for (size_t i = 0; i < d->nvalues; i++) {
			const struct fw_diff_value *v = &d->values[i];
			fprintf(f, "  %s~ %s%s  %s%s%s: %s -> %s", kind_color(cli, FW_DIFF_CHANGED), v->b->prompt, r,
				fw_cli_color(cli, "dim"), v->b->path ? v->b->path : "(no menu)", r,
				v->old_value ? v->old_value : "(no value)", v->new_value ? v->new_value : "(no value)");
			if (v->topics)
				fprintf(f, "  %stopics: %s%s", fw_cli_color(cli, "dim"), v->topics, r);
			fputc('\n', f);
		}
	}
	text_entries(cli, d, "varstores", "Varstores");
	text_entries(cli, d, "versions", "Versions");
	text_entries(cli, d, "modules", "Modules");
	text_entries(cli, d, "variables", "EFI variables");
	text_entries(cli, d, "acpi", "ACPI tables");
	text_entries(cli, d, "kernel", "Kernel");
	size_t n = fw_diff_count(d);
	if (n)
		fprintf(f, "\n%zu difference%s\n", n, n == 1 ? "" : "s");
	else
		fprintf(f, "\nno differences\n");
}

/* ---- markdown ---- */

static void md_heading(FILE *f, int level, const char *title)
{
	for (int i = 0; i < level; i++)
		fputc('#', f);
	fprintf(f, " %s\n\n", title);
}

static void md_fields(FILE *f, const struct fw_diff_field *fl, size_t n, bool old_side)
{
	char buf[32];
	for (size_t i = 0, shown = 0; i < n; i++) {
		if (strcmp(fl[i].field, "path") == 0 || strcmp(fl[i].field, "help") == 0)
			continue;
		fputs(shown++ ? "; " : "", f);
		if (strcmp(fl[i].field, "options") == 0 && fl[i].detail) {
			/* the whole lists are long: say what changed in them */
			fputs(old_side ? "options" : "options ", f);
			if (!old_side)
				fw_md_cell(f, fl[i].detail);
			continue;
		}
		fprintf(f, "%s: ", fl[i].field);
		fw_md_cell(f, short_hash(fl[i].field, old_side ? fl[i].old_value : fl[i].new_value, buf, sizeof(buf)));
	}
}

/* One row of the settings table: a moved setting's new and old menu in their own columns. */
static void md_setting_row(FILE *f, const struct fw_diff *d, const struct fw_diff_setting *s)
{
	char db[64];
	const struct fw_setlist_item *it = s->b ? s->b : s->a;
	fprintf(f, "| %s | ", fw_diff_kind_name(s->kind));
	fw_md_cell(f, it->prompt);
	fputs(" | ", f);
	fw_md_cell(f, s->kind == FW_DIFF_MOVED ? s->b->path : it->path);
	fputs(" | ", f);
	if (s->kind == FW_DIFF_MOVED)
		fw_md_cell(f, s->a->path);
	fputs(" | ", f);
	if (s->kind == FW_DIFF_MOVED) {
		md_fields(f, s->fields, s->nfields, true);
		fputs(" | ", f);
		md_fields(f, s->fields, s->nfields, false);
	} else if (s->kind == FW_DIFF_CHANGED) {
		md_fields(f, s->fields, s->nfields, true);
		fputs(" | ", f);
		md_fields(f, s->fields, s->nfields, false);
	} else if (s->kind == FW_DIFF_ADDED) {
		const char *def = fw_setlist_default_text(s->b, db, sizeof(db));
		fputs(" | ", f);
		if (def) {
			fputs("default ", f);
			fw_md_cell(f, def);
		}
	} else {
		const char *def = fw_setlist_default_text(s->a, db, sizeof(db));
		if (def) {
			fputs("default ", f);
			fw_md_cell(f, def);
		}
		fputs(" | ", f);
	}
	if (d->topic_filter) {
		fputs(" | ", f);
		fw_md_cell(f, s->topics);
	}
	fputs(" |\n", f);
}

void fw_diff_markdown(FILE *f, const struct fw_diff *d, int level)
{
	if (d->have_settings && d->nsettings) {
		md_heading(f, level, "Settings");
		if (d->topic_filter) {
			fputs("Settings of the topics ", f);
			fw_md_cell(f, d->topic_filter);
			fputs(".\n\n", f);
		}
		const enum fw_diff_kind order[] = {FW_DIFF_ADDED, FW_DIFF_REMOVED, FW_DIFF_MOVED, FW_DIFF_CHANGED};
		static char mods[64][160];
		size_t nm = diff_modules(d, false, mods, 64);
		for (size_t m = 0; m < (nm > 1 ? nm : 1); m++) {
			if (nm > 1) {
				/* one table per module, under a heading naming it */
				fprintf(f, "%s%.*s Module ", m ? "\n" : "", level + 1, "######");
				fw_md_cell(f, mods[m]);
				fputs("\n\n", f);
			}
			fprintf(f, "| Change | Prompt | Path | Moved from | Old | New |%s\n|---|---|---|---|---|---|%s\n",
				d->topic_filter ? " Topics |" : "", d->topic_filter ? "---|" : "");
			for (size_t k = 0; k < 4; k++)
				for (size_t i = 0; i < d->nsettings; i++) {
					const struct fw_diff_setting *s = &d->settings[i];
					char mb[160];
					if (s->kind == order[k] && !s->layout_only &&
					    (nm <= 1 || strcmp(setting_module(s, mb, sizeof(mb)), mods[m]) == 0))
						md_setting_row(f, d, s);
				}
		}
		if (d->layout_only)
			fprintf(f, "\n%zu more settings changed only their varstore offset or width.\n", d->layout_only);
		fputc('\n', f);
	}
	if (d->nvalues) {
		md_heading(f, level, "Values");
		fputs("Old values from ", f);
		fw_md_cell(f, d->values_source[0] ? d->values_source[0] : "not known");
		fputs("; new values from ", f);
		fw_md_cell(f, d->values_source[1] ? d->values_source[1] : "not known");
		fputs(". A value that only follows its changed default is listed under Settings, not here.\n\n", f);
		fprintf(f, "| Prompt | Path | Old | New |%s\n|---|---|---|---|%s\n", d->topic_filter ? " Topics |" : "",
			d->topic_filter ? "---|" : "");
		for (size_t i = 0; i < d->nvalues; i++) {
			const struct fw_diff_value *v = &d->values[i];
			fputs("| ", f);
			fw_md_cell(f, v->b->prompt);
			fputs(" | ", f);
			fw_md_cell(f, v->b->path);
			fputs(" | ", f);
			fw_md_cell(f, v->old_value ? v->old_value : "(no value)");
			fputs(" | ", f);
			fw_md_cell(f, v->new_value ? v->new_value : "(no value)");
			if (d->topic_filter) {
				fputs(" | ", f);
				fw_md_cell(f, v->topics);
			}
			fputs(" |\n", f);
		}
		fputc('\n', f);
	}
	static const struct {
		const char *section, *title;
	} sections[] = {{"versions", "Versions"}, {"varstores", "Varstores"}, {"modules", "Modules"},
			{"variables", "EFI variables"}, {"acpi", "ACPI tables"}, {"kernel", "Kernel"}};
	for (size_t s = 0; s < sizeof(sections) / sizeof(sections[0]); s++) {
		if (!entries_in(d, sections[s].section))
			continue;
		md_heading(f, level, sections[s].title);
		fprintf(f, "| Change | What | Old | New |\n|---|---|---|---|\n");
		size_t i = 0;
		const struct fw_diff_entry *e;
		char buf[32];
		while ((e = fw_diff_entry_in(d, sections[s].section, &i))) {
			if (grouped(e, false))
				continue;
			fprintf(f, "| %s | ", fw_diff_kind_name(e->kind));
			if (e->group)
				fprintf(f, "%s ", e->group);
			fw_md_cell(f, e->key);
			if (e->name) {
				fputc(' ', f);
				fw_md_cell(f, e->name);
			}
			if (e->where && (e->copies || strncmp(e->where, "volume", 6) != 0)) {
				fputs(" (", f);
				fw_md_cell(f, e->where);
				fputc(')', f);
			}
			fputs(" | ", f);
			const char *what = strcmp(sections[s].section, "modules") == 0 ? "sha256" : "";
			if (e->nfields)
				md_fields(f, e->fields, e->nfields, true);
			else
				fw_md_cell(f, e->old_value ? short_hash(what, e->old_value, buf, sizeof(buf)) : NULL);
			fputs(" | ", f);
			if (e->nfields)
				md_fields(f, e->fields, e->nfields, false);
			else
				fw_md_cell(f, e->new_value ? short_hash(what, e->new_value, buf, sizeof(buf)) : NULL);
			fputs(" |\n", f);
		}
		i = 0;
		while ((e = fw_diff_entry_in(d, sections[s].section, &i))) {
			bool first;
			if (!grouped(e, false))
				continue;
			size_t g = group_count(d, e, &first);
			if (!first)
				continue;
			fprintf(f, "| %s | %zu module%s without a name%s", fw_diff_kind_name(e->kind), g, g == 1 ? "" : "s",
				*entry_volume(e) ? ", in " : "");
			fw_md_cell(f, entry_volume(e));
			fputs(" (GUIDs in the JSON) |  |  |\n", f);
		}
		fputc('\n', f);
	}
	if (!fw_diff_count(d))
		fprintf(f, "No differences.\n\n");
}
