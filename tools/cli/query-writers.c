/* Writers shared by find, query and diff. */
#include "query-writers.h"

#include <inttypes.h>
#include <string.h>

#include "cache-options.h"
#include "ifr-writers.h"
#include "output-text.h"

void fw_query_cli_warnings(struct fw_cli *cli, struct fw_source *src, const char *label)
{
	for (size_t i = 0; i < src->nwarnings; i++) {
		if (label)
			fw_log_warn(cli, "%s: %s", label, src->warnings[i]);
		else
			fw_log_warn(cli, "%s", src->warnings[i]);
		free(src->warnings[i]);
	}
	src->nwarnings = 0;
}

int fw_query_cli_open(struct fw_cli *cli, const char *path, const char *image, struct fw_source *src)
{
	struct fw_source_options so = {.image = image, .lang = fw_cli_opt(cli, "lang"), .vars = fw_cli_opt(cli, "vars")};
	int rc = fw_cli_cache_setup(cli, &so); /* the cache, --image-dir */
	if (rc)
		return rc;
	struct fw_error err;
	fw_error_clear(&err);
	if (!fw_source_open(path, &so, src, &err))
		return fw_cli_fail(cli, &err);
	fw_log_info(cli, "%s: %s%s%s", path, fw_source_kind_name(src->kind), src->image_name ? ", forms from " : "",
		    src->image_name ? src->image_name : "");
	return 0;
}

struct fw_setlist *fw_query_cli_settings(struct fw_cli *cli, struct fw_source *src, const char *module,
					 struct fw_error *err)
{
	struct fw_setlist *l = fw_source_setlist(src);
	if (!l) {
		fw_error_set(err, FW_E_NOT_FOUND, "%s: no setup forms to search%s", src->path,
			     src->kind == FW_SOURCE_MACHINE ? " (give --image FILE, or capture the snapshot with --image)" : "");
		return NULL;
	}
	if (module && !fw_setlist_keep_module(l, module)) {
		fw_error_set(err, FW_E_NOT_FOUND, "%s: no module matching \"%s\" has setup forms", src->path, module);
		return NULL;
	}
	(void)cli;
	return l;
}

static json_t *str_or_null(const char *s)
{
	return s ? json_string(s) : json_null();
}

static json_t *hex(uint64_t v)
{
	char b[24];
	snprintf(b, sizeof(b), "0x%" PRIX64, v);
	return json_string(b);
}

json_t *fw_cli_json_current_source(const struct fw_current_source *c, const char *text)
{
	json_t *o = json_object();
	json_object_set_new(o, "kind", json_string(fw_current_kind_name(c->kind)));
	json_object_set_new(o, "path", str_or_null(c->kind == FW_CURRENT_NONE ? NULL : c->path));
	bool off = c->kind != FW_CURRENT_NONE && c->offset != FW_OFFSET_UNKNOWN;
	json_object_set_new(o, "offset", off ? json_integer((json_int_t)c->offset) : json_null());
	json_object_set_new(o, "offset_hex", off ? hex(c->offset) : json_null());
	json_object_set_new(o, "store", str_or_null(c->kind == FW_CURRENT_NONE ? NULL : c->store));
	json_object_set_new(o, "text", json_string(text));
	return o;
}

json_t *fw_query_json_setting(struct fw_setlist *l, const struct fw_setlist_item *it)
{
	char buf[64];
	json_t *o = json_object();
	json_object_set_new(o, "prompt", json_string(it->prompt));
	json_object_set_new(o, "keyword", str_or_null(it->keyword));
	if (it->setting && it->setting->prompt_raw)
		json_object_set_new(o, "prompt_raw", json_string(it->setting->prompt_raw));
	json_object_set_new(o, "path", str_or_null(it->path));
	json_object_set_new(o, "kind", json_string(it->kind));
	json_object_set_new(o, "module", str_or_null(it->module));
	json_object_set_new(o, "module_name", str_or_null(it->module_name));
	json_object_set_new(o, "question_id", json_integer(it->question_id));
	json_object_set_new(o, "varstore", str_or_null(it->varstore));
	json_object_set_new(o, "varstore_guid", str_or_null(it->varstore_guid));
	json_object_set_new(o, "offset", it->has_offset ? json_integer(it->offset) : json_null());
	json_object_set_new(o, "offset_hex", it->has_offset ? hex(it->offset) : json_null());
	json_object_set_new(o, "width", json_integer(it->width));
	if (it->bit_field) {
		json_object_set_new(o, "bit_offset", json_integer(it->bit_offset));
		json_object_set_new(o, "bit_width", json_integer(it->bit_width));
	}
	json_t *opts = json_array();
	for (uint32_t i = 0; i < it->noptions; i++) {
		json_t *jo = json_object();
		json_object_set_new(jo, "value", json_integer((json_int_t)it->options[i].value));
		json_object_set_new(jo, "text", json_string(it->options[i].text));
		json_array_append_new(opts, jo);
	}
	json_object_set_new(o, "options", opts);
	if (it->has_limits) {
		json_object_set_new(o, "min", json_integer((json_int_t)it->min));
		json_object_set_new(o, "max", json_integer((json_int_t)it->max));
	}
	const struct fw_setlist_default *d = fw_setlist_default(it);
	json_object_set_new(o, "default", str_or_null(fw_setlist_default_text(it, buf, sizeof(buf))));
	json_object_set_new(o, "default_value", d && d->has_value ? json_integer((json_int_t)d->value) : json_null());
	bool number = it->has_current && !it->current_text_only && !(strcmp(it->kind, "string") == 0 || strcmp(it->kind, "password") == 0 ||
					  strcmp(it->kind, "ordered-list") == 0);
	json_object_set_new(o, "current", str_or_null(fw_setlist_current_text(it, buf, sizeof(buf))));
	json_object_set_new(o, "current_value", number ? json_integer((json_int_t)it->current) : json_null());
	if (it->has_current && l->current_source)
		json_object_set_new(o, "current_source", json_string(l->current_source));
	json_object_set_new(o, "condition", str_or_null(fw_setlist_condition(l, it)));
	json_object_set_new(o, "hidden", it->hidden < 0 ? json_null() : json_boolean(it->hidden));
	return o;
}

json_t *fw_query_json_hit(struct fw_setlist *l, const struct fw_hit *h)
{
	json_t *o = json_object();
	json_t *topics = json_array(), *reasons = json_array();
	char reason[4096] = "";
	for (size_t i = 0; i < h->nreasons; i++) {
		const struct fw_hit_reason *r = &h->reasons[i];
		if (r->topic)
			json_array_append_new(topics, json_string(r->topic));
		json_t *jr = json_object();
		if (r->topic)
			json_object_set_new(jr, "topic", json_string(r->topic));
		json_object_set_new(jr, "rule", json_string(r->rule));
		json_object_set_new(jr, "why", json_string(r->why ? r->why : ""));
		json_array_append_new(reasons, jr);
		size_t used = strlen(reason);
		snprintf(reason + used, sizeof(reason) - used, "%s%s%s%s", i ? "; " : "", r->topic ? r->topic : "",
			 r->topic ? ": " : "", r->why ? r->why : r->rule);
	}
	if (json_array_size(topics))
		json_object_set_new(o, "topics", topics);
	else
		json_decref(topics);
	json_t *st = fw_query_json_setting(l, h->it);
	const char *k;
	json_t *v;
	json_object_foreach(st, k, v) json_object_set(o, k, v);
	json_decref(st);
	json_object_set_new(o, "reason", json_string(reason));
	json_object_set_new(o, "reasons", reasons);
	return o;
}

json_t *fw_query_json_fact(const struct fw_fact_answer *a)
{
	json_t *o = json_object();
	json_object_set_new(o, "topic", json_string(a->topic->name));
	json_object_set_new(o, "id", json_string(a->rule->id ? a->rule->id : ""));
	json_object_set_new(o, "kind", json_string(a->rule->kind));
	json_object_set_new(o, "name", json_string(a->rule->name));
	json_object_set_new(o, "state", json_string(fw_fact_state_name(a->state)));
	json_object_set_new(o, "summary", str_or_null(a->summary));
	json_object_set_new(o, "side", str_or_null(a->side));
	json_object_set_new(o, "boot", str_or_null(a->boot));
	json_t *ev = json_array();
	for (size_t i = 0; i < a->nevidence; i++)
		json_array_append_new(ev, json_string(a->evidence[i]));
	json_object_set_new(o, "evidence", ev);
	if (a->total > a->nevidence)
		json_object_set_new(o, "evidence_total", json_integer((json_int_t)a->total));
	json_object_set_new(o, "why", str_or_null(a->rule->why));
	return o;
}

const char *fw_query_module_of(const struct fw_setlist_item *it)
{
	return it->module_name ? it->module_name : it->module ? it->module : "?";
}

bool fw_query_hits_span_modules(const struct fw_hits *hits)
{
	for (size_t i = 1; i < hits->n; i++)
		if (strcmp(fw_query_module_of(hits->items[i].it), fw_query_module_of(hits->items[0].it)) != 0)
			return true;
	return false;
}

void fw_query_text_module(struct fw_cli *cli, const struct fw_setlist_item *it)
{
	FILE *f = fw_cli_out(cli);
	fprintf(f, "  %smodule %s", fw_cli_color(cli, "bold"), fw_query_module_of(it));
	if (it->module_name && it->module)
		fprintf(f, " (%s)", it->module);
	fprintf(f, "%s\n", fw_cli_color(cli, "reset"));
}

const char *fw_query_where(const struct fw_setlist_item *it, char *buf, size_t len)
{
	const char *vs = it->varstore ? it->varstore : "?";
	if (it->bit_field)
		snprintf(buf, len, "%s bit %u:%u", vs, it->bit_offset, it->bit_width);
	else if (it->has_offset)
		snprintf(buf, len, "%s+0x%X/%u", vs, it->offset, it->width);
	else if (it->varstore)
		snprintf(buf, len, "%s", vs);
	else
		snprintf(buf, len, "no storage");
	return buf;
}

void fw_query_md_row(FILE *f, struct fw_setlist *l, const struct fw_setlist_item *it, const char *last)
{
	char wb[128], db[64], cb[64];
	const char *cells[8] = {it->prompt, it->path, it->module_name ? it->module_name : it->module,
				fw_query_where(it, wb, sizeof(wb)), fw_setlist_default_text(it, db, sizeof(db)),
				fw_setlist_current_text(it, cb, sizeof(cb)), fw_setlist_condition(l, it), last};
	fw_md_row(f, cells, 8);
}

void fw_query_text_setting(struct fw_cli *cli, struct fw_setlist *l, const struct fw_setlist_item *it,
			   const char *why)
{
	FILE *f = fw_cli_out(cli);
	const char *b = fw_cli_color(cli, "bold"), *r = fw_cli_color(cli, "reset"), *dim = fw_cli_color(cli, "dim");
	char db[64], cb[64], wb[128];
	const char *def = fw_setlist_default_text(it, db, sizeof(db));
	const char *cur = fw_setlist_current_text(it, cb, sizeof(cb));
	fprintf(f, "  %s", b);
	fw_ifr_put_line(f, it->prompt);
	fprintf(f, "%s", r);
	if (cur) {
		fputs(" = ", f);
		fw_ifr_put_line(f, cur);
		if (def && strcmp(def, cur) != 0) {
			fprintf(f, "  %s(default ", dim);
			fw_ifr_put_line(f, def);
			fprintf(f, ")%s", r);
		}
	} else if (def) {
		fprintf(f, "  %sdefault%s ", dim, r);
		fw_ifr_put_line(f, def);
	}
	if (it->hidden == 1)
		fprintf(f, "  %shidden%s", fw_cli_color(cli, "yellow"), r);
	fputc('\n', f);
	fprintf(f, "      %s", dim);
	fw_ifr_put_line(f, it->path ? it->path : "(not reachable from a menu)");
	fprintf(f, "  |  %s  |  %s", it->module_name ? it->module_name : it->module ? it->module : "?",
		fw_query_where(it, wb, sizeof(wb)));
	if (it->keyword) {
		fputs("  |  keyword ", f);
		fw_ifr_put_line(f, it->keyword);
	}
	fprintf(f, "%s\n", r);
	if (it->noptions) {
		fputs("      options: ", f);
		for (uint32_t k = 0; k < it->noptions && k < 24; k++) {
			fprintf(f, "%s%" PRIu64 " ", k ? ", " : "", it->options[k].value);
			fw_ifr_put_line(f, it->options[k].text);
		}
		if (it->noptions > 24)
			fprintf(f, ", ... (%u options)", it->noptions);
		fputc('\n', f);
	} else if (it->has_limits) {
		fprintf(f, "      range: %" PRIu64 "..%" PRIu64 "\n", it->min, it->max);
	}
	const char *cond = fw_setlist_condition(l, it);
	if (cond) {
		fprintf(f, "      %s", fw_cli_color(cli, "yellow"));
		fw_ifr_put_line(f, cond);
		fprintf(f, "%s\n", r);
	}
	if (why) {
		char *line = fw_xasprintf("why: %s", why);
		fw_text_wrap_hanging(f, line, "      ", "           ", 100);
		free(line);
	}
}
