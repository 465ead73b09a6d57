/* Flat settings records from the settings model or from a JSON settings list. */
#include "setlist.h"

#include <inttypes.h>
#include "parsers/json-text.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "parsers/guid.h"

static const char *guid_str(struct fw_arena *a, const struct fw_guid *g)
{
	char buf[FW_GUID_STR_LEN];
	return fw_arena_strdup(a, fw_guid_format(g, buf));
}

static const char *hex_bytes(struct fw_arena *a, const uint8_t *p, uint32_t n)
{
	if (n > 255)
		n = 255;
	char *s = fw_arena_alloc(a, 2 * (size_t)n + 1);
	for (uint32_t i = 0; i < n; i++)
		snprintf(s + 2 * i, 3, "%02X", p[i]);
	return s;
}

static void from_setting(struct fw_setlist *l, const struct fw_setting *st, struct fw_setlist_item *it)
{
	struct fw_arena *a = &l->arena;
	const struct fw_ifr_question *q = st->q;
	const struct fw_hii_form_pkg *fp = st->fp;
	it->setting = st;
	it->kind = fw_ifr_kind_name(q->kind);
	it->prompt = st->prompt ? st->prompt : "";
	it->help = fw_setting_help(st);
	it->keyword = st->keyword;
	it->paths = st->paths;
	it->npaths = st->npaths;
	it->path = st->npaths ? st->paths[0] : NULL;
	if (fp->module->has_guid)
		it->module = guid_str(a, &fp->module->guid);
	it->module_name = fp->module->name;
	it->formset = guid_str(a, &fp->fs.guid);
	it->question_id = q->question_id;
	it->varstore = st->varstore_name;
	it->varstore_guid = st->vs ? guid_str(a, &st->vs->guid) : NULL;
	it->has_offset = q->varstore_id && st->vs && st->vs->kind != FW_IFR_VS_NAME_VALUE && q->width;
	it->offset = q->bit_field ? q->bit_offset / 8 : q->var_info;
	it->width = q->width;
	it->bit_field = q->bit_field;
	it->bit_offset = q->bit_offset;
	it->bit_width = q->bit_width;
	it->has_limits = q->kind == FW_IFR_K_NUMERIC || (q->kind == FW_IFR_K_ONE_OF && q->has_limits);
	it->min = q->min;
	it->max = q->max;
	it->step = q->step;
	it->noptions = st->noptions;
	it->options = fw_arena_alloc(a, (st->noptions ? st->noptions : 1) * sizeof(*it->options));
	for (uint32_t i = 0; i < st->noptions; i++) {
		it->options[i].text = st->options[i].text ? st->options[i].text : "";
		it->options[i].value = st->options[i].opt->value.u;
		it->options[i].is_default = (st->options[i].opt->flags & FW_IFR_OPTION_DEFAULT) != 0;
		it->options[i].cond = fw_setting_option_cond_text(&st->options[i]);
	}
	it->ndefaults = st->ndefaults;
	it->defaults = fw_arena_alloc(a, (st->ndefaults ? st->ndefaults : 1) * sizeof(*it->defaults));
	for (uint32_t i = 0; i < st->ndefaults; i++) {
		const struct fw_setting_default *d = &st->defaults[i];
		it->defaults[i] = (struct fw_setlist_default){d->store_id, d->store, d->has_value, d->value, d->text, d->expr};
	}
	it->nconds = st->nconds;
	it->conds = fw_arena_alloc(a, (st->nconds ? st->nconds : 1) * sizeof(*it->conds));
	for (uint32_t i = 0; i < st->nconds; i++) {
		it->conds[i].kind = fw_ifr_cond_kind_name(st->conds[i].cond->kind);
		it->conds[i].text = fw_setting_cond_text(&st->conds[i]);
		it->conds[i].state = st->conds[i].state;
	}
	it->has_current = st->has_current;
	it->current = st->current;
	it->current_valid = st->current_valid;
	if (st->has_current) {
		bool number = q->kind == FW_IFR_K_ONE_OF || q->kind == FW_IFR_K_NUMERIC || q->kind == FW_IFR_K_CHECKBOX;
		if (st->current_text)
			it->current_text = st->current_text;
		else if (!number && st->current_raw)
			it->current_text = hex_bytes(a, st->current_raw, st->current_len);
	}
	it->hidden = st->hidden;
	it->grayed = st->grayed;
}

void fw_setlist_from_settings(const struct fw_settings *s, const char *origin, struct fw_setlist *out)
{
	memset(out, 0, sizeof(*out));
	fw_arena_init(&out->arena);
	out->origin = fw_arena_strdup(&out->arena, origin ? origin : "settings");
	out->bound = s->bound;
	out->n = s->n;
	out->items = fw_xcalloc(s->n ? s->n : 1, sizeof(*out->items));
	for (uint32_t i = 0; i < s->n; i++)
		from_setting(out, &s->items[i], &out->items[i]);
}

/* ---- JSON ---- */

struct reader {
	struct fw_setlist *l;
	size_t record;
	struct fw_error *err;
	size_t max_items;
};

static const char *jstr(struct reader *r, json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);
	return json_is_string(v) ? fw_arena_strndup(&r->l->arena, json_string_value(v), json_string_length(v)) : NULL;
}

static bool jint(json_t *o, const char *key, uint64_t *out)
{
	json_t *v = json_object_get(o, key);
	if (!json_is_integer(v))
		return false;
	*out = (uint64_t)json_integer_value(v);
	return true;
}

static int jtristate(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);
	return json_is_boolean(v) ? json_is_true(v) : -1;
}

static bool read_options(struct reader *r, json_t *o, struct fw_setlist_item *it)
{
	json_t *arr = json_object_get(o, "options");
	if (arr && !json_is_array(arr))
		return fw_error_set(r->err, FW_E_INVALID, "%s: record %zu: \"options\" is not an array", r->l->origin,
				    r->record);
	size_t n = json_array_size(arr);
	it->options = fw_arena_alloc(&r->l->arena, (n ? n : 1) * sizeof(*it->options));
	for (size_t i = 0; i < n; i++) {
		json_t *e = json_array_get(arr, i);
		struct fw_setlist_option *op = &it->options[it->noptions];
		if (!json_is_object(e) || !jint(e, "value", &op->value))
			return fw_error_set(r->err, FW_E_INVALID, "%s: record %zu: option %zu has no integer \"value\"",
					    r->l->origin, r->record, i);
		op->text = jstr(r, e, "text");
		if (!op->text)
			op->text = "";
		op->is_default = json_is_true(json_object_get(e, "default"));
		op->cond = jstr(r, e, "condition");
		it->noptions++;
	}
	return true;
}

static bool read_defaults(struct reader *r, json_t *o, struct fw_setlist_item *it)
{
	json_t *arr = json_object_get(o, "defaults");
	if (arr && !json_is_array(arr))
		return fw_error_set(r->err, FW_E_INVALID, "%s: record %zu: \"defaults\" is not an array", r->l->origin,
				    r->record);
	size_t n = json_array_size(arr);
	it->defaults = fw_arena_alloc(&r->l->arena, (n ? n : 1) * sizeof(*it->defaults));
	for (size_t i = 0; i < n; i++) {
		json_t *e = json_array_get(arr, i);
		if (!json_is_object(e))
			return fw_error_set(r->err, FW_E_INVALID, "%s: record %zu: default %zu is not an object",
					    r->l->origin, r->record, i);
		struct fw_setlist_default *d = &it->defaults[it->ndefaults++];
		uint64_t id = 0;
		jint(e, "store_id", &id);
		d->store_id = (uint16_t)id;
		d->store = jstr(r, e, "store");
		if (!d->store)
			d->store = id == 0 ? "standard" : id == 1 ? "manufacturing" : "other";
		d->has_value = jint(e, "value", &d->value);
		d->text = jstr(r, e, "text");
		d->expr = jstr(r, e, "expression");
	}
	return true;
}

static bool read_conditions(struct reader *r, json_t *o, struct fw_setlist_item *it)
{
	json_t *arr = json_object_get(o, "conditions");
	if (arr && !json_is_array(arr))
		return fw_error_set(r->err, FW_E_INVALID, "%s: record %zu: \"conditions\" is not an array", r->l->origin,
				    r->record);
	size_t n = json_array_size(arr);
	it->conds = fw_arena_alloc(&r->l->arena, (n ? n : 1) * sizeof(*it->conds));
	for (size_t i = 0; i < n; i++) {
		json_t *e = json_array_get(arr, i);
		if (!json_is_object(e))
			continue;
		struct fw_setlist_cond *c = &it->conds[it->nconds++];
		c->kind = jstr(r, e, "kind");
		c->text = jstr(r, e, "expression");
		if (!c->kind)
			c->kind = "suppress-if";
		if (!c->text)
			c->text = "?";
		c->state = jtristate(e, "state");
	}
	return true;
}

static bool read_record(struct reader *r, json_t *o, struct fw_setlist_item *it)
{
	if (!json_is_object(o))
		return fw_error_set(r->err, FW_E_INVALID, "%s: record %zu is not an object", r->l->origin, r->record);
	memset(it, 0, sizeof(*it));
	it->prompt = jstr(r, o, "prompt");
	if (!it->prompt)
		return fw_error_set(r->err, FW_E_INVALID, "%s: record %zu has no \"prompt\" string", r->l->origin,
				    r->record);
	it->kind = jstr(r, o, "kind");
	if (!it->kind)
		it->kind = "one-of";
	it->help = jstr(r, o, "help");
	if (!it->help)
		it->help = "";
	it->keyword = jstr(r, o, "keyword");
	it->path = jstr(r, o, "path");
	json_t *paths = json_object_get(o, "paths");
	size_t np = json_is_array(paths) ? json_array_size(paths) : 0;
	if (np > FW_SETTINGS_MAX_PATHS)
		np = FW_SETTINGS_MAX_PATHS;
	it->paths = fw_arena_alloc(&r->l->arena, (np + 1) * sizeof(char *));
	for (size_t i = 0; i < np; i++) {
		json_t *p = json_array_get(paths, i);
		if (json_is_string(p))
			it->paths[it->npaths++] = fw_arena_strdup(&r->l->arena, json_string_value(p));
	}
	if (!it->npaths && it->path)
		it->paths[it->npaths++] = it->path;
	if (!it->path && it->npaths)
		it->path = it->paths[0];
	it->module = jstr(r, o, "module");
	it->module_name = jstr(r, o, "module_name");
	it->formset = jstr(r, o, "formset");
	uint64_t v;
	if (jint(o, "question_id", &v))
		it->question_id = (uint16_t)v;
	it->varstore = jstr(r, o, "varstore");
	it->varstore_guid = jstr(r, o, "varstore_guid");
	if (jint(o, "offset", &v)) {
		it->has_offset = true;
		it->offset = (uint32_t)v;
	}
	if (jint(o, "width", &v))
		it->width = (uint32_t)v;
	if (jint(o, "bit_offset", &v)) {
		it->bit_field = true;
		it->bit_offset = (uint32_t)v;
		if (jint(o, "bit_width", &v))
			it->bit_width = (uint32_t)v;
	}
	it->has_limits = jint(o, "min", &it->min) && jint(o, "max", &it->max);
	jint(o, "step", &it->step);
	if (!read_options(r, o, it) || !read_defaults(r, o, it) || !read_conditions(r, o, it))
		return false;
	json_t *cur = json_object_get(o, "current");
	if (json_is_integer(cur)) {
		it->has_current = true;
		it->current = (uint64_t)json_integer_value(cur);
		it->current_text = jstr(r, o, "current_text");
	} else if (json_is_string(cur)) {
		it->has_current = true;
		it->current_text = jstr(r, o, "current");
	}
	it->current_valid = it->has_current && !json_is_false(json_object_get(o, "current_valid"));
	it->hidden = jtristate(o, "hidden");
	it->grayed = jtristate(o, "grayed_out");
	if (it->has_current || json_object_get(o, "hidden"))
		r->l->bound = true;
	return true;
}

static bool read_array(struct reader *r, json_t *arr)
{
	size_t n = json_array_size(arr);
	if (n > r->max_items)
		return fw_error_set(r->err, FW_E_LIMIT, "%s: more than %zu settings", r->l->origin, r->max_items);
	r->l->items = fw_xcalloc(n ? n : 1, sizeof(*r->l->items));
	for (size_t i = 0; i < n; i++) {
		r->record = i + 1;
		if (!read_record(r, json_array_get(arr, i), &r->l->items[i]))
			return false;
		r->l->n++;
	}
	return true;
}

/* One JSON object per line. */
static bool read_lines(struct reader *r, const char *text, size_t len)
{
	size_t cap = 0;
	for (size_t pos = 0, line = 1; pos < len; line++) {
		const char *nl = memchr(text + pos, '\n', len - pos);
		size_t end = nl ? (size_t)(nl - text) : len;
		size_t k = pos;
		while (k < end && (text[k] == ' ' || text[k] == '\t' || text[k] == '\r'))
			k++;
		if (k < end) {
			json_error_t je;
			json_t *o = json_loadb(text + k, end - k, 0, &je);
			if (!o)
				return fw_error_set(r->err, FW_E_INVALID, "%s: line %zu: not JSON: %s", r->l->origin, line,
						    je.text);
			if (r->l->n == r->max_items) {
				json_decref(o);
				return fw_error_set(r->err, FW_E_LIMIT, "%s: line %zu: more than %zu settings", r->l->origin,
						    line, r->max_items);
			}
			if (r->l->n == cap) {
				cap = cap ? cap * 2 : 256;
				r->l->items = fw_xrealloc(r->l->items, cap * sizeof(*r->l->items));
			}
			r->record = line;
			bool ok = read_record(r, o, &r->l->items[r->l->n]);
			json_decref(o);
			if (!ok)
				return false;
			r->l->n++;
		}
		pos = end + 1;
	}
	return true;
}

bool fw_setlist_from_json(const char *text, size_t len, const char *origin, struct fw_setlist *out,
			  struct fw_error *err)
{
	return fw_setlist_from_json_limited(text, len, origin, NULL, out, err);
}

bool fw_setlist_from_json_limited(const char *text, size_t len, const char *origin,
				  const struct fw_setlist_limits *limits, struct fw_setlist *out, struct fw_error *err)
{
	const struct fw_setlist_limits defaults = {FW_SETLIST_MAX_JSON, FW_SETLIST_MAX_ITEMS};
	if (!limits)
		limits = &defaults;
	memset(out, 0, sizeof(*out));
	fw_arena_init(&out->arena);
	out->origin = fw_arena_strdup(&out->arena, origin ? origin : "-");
	struct reader r = {out, 0, err, limits->max_items};
	if (len > limits->max_json) {
		fw_error_set(err, FW_E_LIMIT, "%s: settings list of %zu bytes, over the limit of %zu bytes", out->origin, len,
			     limits->max_json);
		fw_setlist_free(out);
		return false;
	}
	json_error_t je;
	json_t *doc = json_loadb(text, len, JSON_REJECT_DUPLICATES, &je);
	bool ok;
	if (doc && json_is_object(doc) && json_is_array(json_object_get(doc, "settings"))) {
		ok = read_array(&r, json_object_get(doc, "settings"));
	} else if (doc && json_is_array(doc)) {
		ok = read_array(&r, doc);
	} else if (doc && json_is_object(doc) && json_object_get(doc, "prompt")) {
		ok = read_lines(&r, text, len);
	} else if (doc) {
		ok = fw_error_set(err, FW_E_INVALID,
				  "%s: not a settings list (expected {\"settings\": [...]}, an array, or one object per line)",
				  out->origin);
	} else {
		/* several values: one record per line */
		ok = read_lines(&r, text, len);
		if (ok && out->n == 0)
			ok = fw_error_set(err, FW_E_INVALID, "%s: no settings in it (empty input)", out->origin);
	}
	json_decref(doc);
	if (!ok)
		fw_setlist_free(out);
	return ok;
}

void fw_setlist_free(struct fw_setlist *l)
{
	free(l->items);
	fw_arena_free(&l->arena);
	memset(l, 0, sizeof(*l));
}

bool fw_setlist_item_in_module(const struct fw_setlist_item *it, const char *want)
{
	if (it->module_name && strcasecmp(it->module_name, want) == 0)
		return true;
	size_t n = strlen(want);
	return it->module && n >= 4 && strncasecmp(it->module, want, n) == 0;
}

bool fw_setlist_keep_module(struct fw_setlist *l, const char *want)
{
	size_t k = 0;
	for (size_t i = 0; i < l->n; i++)
		if (fw_setlist_item_in_module(&l->items[i], want))
			l->items[k++] = l->items[i];
	l->n = k;
	return k > 0;
}

/* ---- readable values ---- */

const struct fw_setlist_default *fw_setlist_default(const struct fw_setlist_item *it)
{
	for (uint32_t i = 0; i < it->ndefaults; i++)
		if (it->defaults[i].store_id == 0)
			return &it->defaults[i];
	return NULL;
}

const char *fw_setlist_value_text(const struct fw_setlist_item *it, uint64_t v, char *buf, size_t len)
{
	for (uint32_t i = 0; i < it->noptions; i++)
		if (it->options[i].value == v)
			return it->options[i].text;
	if (strcmp(it->kind, "checkbox") == 0 && v <= 1)
		return v ? "Enabled" : "Disabled";
	snprintf(buf, len, "%" PRIu64, v);
	return buf;
}

const char *fw_setlist_default_text(const struct fw_setlist_item *it, char *buf, size_t len)
{
	const struct fw_setlist_default *d = fw_setlist_default(it);
	if (!d)
		return NULL;
	if (d->text)
		return d->text;
	if (d->has_value)
		return fw_setlist_value_text(it, d->value, buf, len);
	return d->expr;
}

const char *fw_setlist_current_text(const struct fw_setlist_item *it, char *buf, size_t len)
{
	if (!it->has_current)
		return NULL;
	if (it->current_text)
		return it->current_text;
	return fw_setlist_value_text(it, it->current, buf, len);
}

const char *fw_setlist_condition(struct fw_setlist *l, const struct fw_setlist_item *it)
{
	if (!it->nconds)
		return NULL;
	size_t n = 1;
	for (uint32_t i = 0; i < it->nconds; i++)
		n += strlen(it->conds[i].kind) + strlen(it->conds[i].text) + 3;
	char *s = fw_arena_alloc(&l->arena, n), *p = s;
	for (uint32_t i = 0; i < it->nconds; i++)
		p += sprintf(p, "%s%s %s", i ? "; " : "", it->conds[i].kind, it->conds[i].text);
	return s;
}
