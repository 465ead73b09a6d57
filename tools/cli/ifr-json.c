/* JSON shapes of `fwlens ifr` and `fwlens settings` (README.md "JSON contracts"). */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "ifr-writers.h"

static json_t *hex(uint64_t v)
{
	char b[24];
	snprintf(b, sizeof(b), "0x%" PRIX64, v);
	return json_string(b);
}

static json_t *guid_json(const struct fw_guid *g)
{
	char s[FW_GUID_STR_LEN];
	return json_string(fw_guid_format(g, s));
}

static json_t *str_or_null(const char *s)
{
	return s ? json_string(s) : json_null();
}

json_t *fw_ifr_json_expr(const struct fw_ifr_expr *e, const struct fw_settings_env *env)
{
	if (!e)
		return json_null();
	char name[40];
	json_t *o = json_object();
	json_object_set_new_nocheck(o, "op", json_string(fw_ifr_expr_op_name(e->op, name, sizeof(name))));
	const struct fw_ifr_expr_env *x = &env->env;
	switch (e->op) {
	case FW_IFR_EQ_ID_VAL:
	case FW_IFR_EQ_ID_VAL_LIST:
	case FW_IFR_EQ_ID_ID:
	case FW_IFR_QUESTION_REF1:
		json_object_set_new_nocheck(o, "question_id", json_integer(e->qid));
		json_object_set_new_nocheck(o, "question", str_or_null(x->question_name(x->ctx, e->qid)));
		if (e->op == FW_IFR_EQ_ID_VAL) {
			json_object_set_new_nocheck(o, "value", json_integer((json_int_t)e->value));
			json_object_set_new_nocheck(o, "value_text", str_or_null(x->option_name(x->ctx, e->qid, e->value)));
		} else if (e->op == FW_IFR_EQ_ID_ID) {
			json_object_set_new_nocheck(o, "other_question_id", json_integer(e->qid2));
			json_object_set_new_nocheck(o, "other_question", str_or_null(x->question_name(x->ctx, e->qid2)));
		} else if (e->op == FW_IFR_EQ_ID_VAL_LIST) {
			json_t *vals = json_array();
			for (uint16_t i = 0; i < e->nlist; i++)
				json_array_append_new(vals, json_integer(fw_le16(e->list + 2 * i)));
			json_object_set_new_nocheck(o, "values", vals);
		}
		break;
	case FW_IFR_UINT8: case FW_IFR_UINT16: case FW_IFR_UINT32: case FW_IFR_UINT64: case FW_IFR_RULE_REF:
		json_object_set_new_nocheck(o, "value", json_integer((json_int_t)e->value));
		break;
	case FW_IFR_STRING_REF1:
		json_object_set_new_nocheck(o, "string", str_or_null(x->string(x->ctx, (uint16_t)e->value)));
		break;
	default:
		break;
	}
	if (e->nargs || e->nmap) {
		json_t *args = json_array();
		for (unsigned i = 0; i < e->nargs; i++)
			json_array_append_new(args, fw_ifr_json_expr(e->args[i], env));
		for (uint32_t i = 0; i < e->nmap; i++)
			json_array_append_new(args, fw_ifr_json_expr(e->map[i], env));
		json_object_set_new_nocheck(o, "args", args);
	}
	return o;
}

static json_t *cond_json(const struct fw_setting_cond *c, const struct fw_settings_env *env, bool with_state)
{
	json_t *o = json_object();
	json_object_set_new_nocheck(o, "kind", json_string(fw_ifr_cond_kind_name(c->cond->kind)));
	json_object_set_new_nocheck(o, "expression", json_string(fw_setting_cond_text(c)));
	if (c->message)
		json_object_set_new_nocheck(o, "message", json_string(c->message));
	if (with_state || c->state != -1)
		json_object_set_new_nocheck(o, "state", c->state < 0 ? json_null() : json_boolean(c->state));
	json_object_set_new_nocheck(o, "tree", fw_ifr_json_expr(c->cond->expr, env));
	return o;
}

static json_t *value_json(const struct fw_setting *st)
{
	const struct fw_ifr_question *q = st->q;
	switch (q->kind) {
	case FW_IFR_K_ONE_OF: case FW_IFR_K_NUMERIC: case FW_IFR_K_CHECKBOX:
		return json_integer((json_int_t)st->current);
	case FW_IFR_K_STRING: case FW_IFR_K_PASSWORD:
		return json_string(st->current_text ? st->current_text : "");
	default: {
		char buf[2 * 255 + 1];
		uint32_t n = st->current_len < 255 ? st->current_len : 255;
		for (uint32_t i = 0; i < n; i++)
			snprintf(buf + 2 * i, 3, "%02X", st->current_raw[i]);
		buf[2 * n] = '\0';
		return json_string(buf);
	}
	}
}

static void flags_json(json_t *o, uint8_t qflags)
{
	static const struct {
		uint8_t bit;
		const char *name;
	} names[] = {{FW_IFR_QF_READ_ONLY, "read-only"}, {FW_IFR_QF_CALLBACK, "callback"},
		     {FW_IFR_QF_RESET_REQUIRED, "reset-required"}, {FW_IFR_QF_REST_STYLE, "rest-style"},
		     {FW_IFR_QF_RECONNECT_REQUIRED, "reconnect-required"}, {FW_IFR_QF_OPTIONS_ONLY, "options-only"}};
	json_t *a = json_array();
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (qflags & names[i].bit)
			json_array_append_new(a, json_string(names[i].name));
	json_object_set_new_nocheck(o, "flags", a);
}

json_t *fw_ifr_json_question(const struct fw_setting *st, bool with_current)
{
	const struct fw_ifr_question *q = st->q;
	const struct fw_hii_form_pkg *fp = st->fp;
	struct fw_settings_env env;
	fw_settings_env_init(&env, fp, NULL);
	json_t *o = json_object();
	json_object_set_new_nocheck(o, "kind", json_string(fw_ifr_kind_name(q->kind)));
	json_object_set_new_nocheck(o, "prompt", json_string(st->prompt));
	if (st->prompt_raw)
		json_object_set_new_nocheck(o, "prompt_raw", json_string(st->prompt_raw));
	json_object_set_new_nocheck(o, "help", json_string(fw_setting_help(st)));
	json_object_set_new_nocheck(o, "keyword", str_or_null(st->keyword));
	json_object_set_new_nocheck(o, "question_id", json_integer(q->question_id));
	if (st->copies > 1) { /* the same question in other forms, folded into this setting */
		json_t *ids = json_array();
		for (uint32_t i = 0; i + 1 < st->copies; i++)
			json_array_append_new(ids, json_integer(st->copy_qids[i]));
		json_object_set_new_nocheck(o, "also_question_ids", ids);
	}
	json_object_set_new_nocheck(o, "varstore_id", json_integer(q->varstore_id));
	json_object_set_new_nocheck(o, "varstore", str_or_null(st->varstore_name));
	json_object_set_new_nocheck(o, "varstore_guid", st->vs ? guid_json(&st->vs->guid) : json_null());
	bool storage = q->varstore_id && st->vs && st->vs->kind != FW_IFR_VS_NAME_VALUE && q->width;
	uint32_t off = q->bit_field ? q->bit_offset / 8 : q->var_info;
	json_object_set_new_nocheck(o, "offset", storage ? json_integer(off) : json_null());
	json_object_set_new_nocheck(o, "offset_hex", storage ? hex(off) : json_null());
	json_object_set_new_nocheck(o, "width", json_integer(q->width));
	if (q->bit_field) {
		json_object_set_new_nocheck(o, "bit_offset", json_integer(q->bit_offset));
		json_object_set_new_nocheck(o, "bit_width", json_integer(q->bit_width));
	}
	flags_json(o, q->qflags);
	if (q->kind == FW_IFR_K_NUMERIC || (q->kind == FW_IFR_K_ONE_OF && q->has_limits)) {
		json_object_set_new_nocheck(o, "min", json_integer((json_int_t)q->min));
		json_object_set_new_nocheck(o, "max", json_integer((json_int_t)q->max));
		json_object_set_new_nocheck(o, "step", json_integer((json_int_t)q->step));
	}
	if (q->kind == FW_IFR_K_STRING || q->kind == FW_IFR_K_PASSWORD) {
		json_object_set_new_nocheck(o, "min_size", json_integer(q->min_size));
		json_object_set_new_nocheck(o, "max_size", json_integer(q->max_size));
	}
	if (q->kind == FW_IFR_K_REF) {
		json_t *r = json_object();
		if (q->has_ref_form)
			json_object_set_new_nocheck(r, "form_id", json_integer(q->ref_form_id));
		if (q->has_ref_question)
			json_object_set_new_nocheck(r, "question_id", json_integer(q->ref_question_id));
		if (q->has_ref_formset)
			json_object_set_new_nocheck(r, "formset", guid_json(&q->ref_formset));
		if (q->has_ref_devpath)
			json_object_set_new_nocheck(r, "device_path", str_or_null(fw_hii_string(fp, q->ref_devpath)));
		json_object_set_new_nocheck(o, "ref", r);
	}
	if (q->refresh_interval)
		json_object_set_new_nocheck(o, "refresh_interval", json_integer(q->refresh_interval));
	json_t *opts = json_array();
	for (uint32_t i = 0; i < st->noptions; i++) {
		const struct fw_setting_option *so = &st->options[i];
		json_t *jo = json_object();
		json_object_set_new_nocheck(jo, "text", json_string(so->text));
		json_object_set_new_nocheck(jo, "value", json_integer((json_int_t)so->opt->value.u));
		if (so->opt->flags & FW_IFR_OPTION_DEFAULT)
			json_object_set_new_nocheck(jo, "default", json_true());
		if (so->opt->flags & FW_IFR_OPTION_DEFAULT_MFG)
			json_object_set_new_nocheck(jo, "mfg_default", json_true());
		if (so->cond)
			json_object_set_new_nocheck(jo, "condition", json_string(fw_setting_option_cond_text(so)));
		json_array_append_new(opts, jo);
	}
	json_object_set_new_nocheck(o, "options", opts);
	json_t *defs = json_array();
	for (uint32_t i = 0; i < st->ndefaults; i++) {
		const struct fw_setting_default *d = &st->defaults[i];
		json_t *jd = json_object();
		json_object_set_new_nocheck(jd, "store_id", json_integer(d->store_id));
		json_object_set_new_nocheck(jd, "store", json_string(d->store));
		json_object_set_new_nocheck(jd, "value", d->has_value ? json_integer((json_int_t)d->value) : json_null());
		if (d->text)
			json_object_set_new_nocheck(jd, "text", json_string(d->text));
		if (d->expr)
			json_object_set_new_nocheck(jd, "expression", json_string(d->expr));
		json_array_append_new(defs, jd);
	}
	json_object_set_new_nocheck(o, "defaults", defs);
	json_object_set_new_nocheck(o, "path", st->npaths ? json_string(st->paths[0]) : json_null());
	json_t *paths = json_array();
	for (uint32_t i = 0; i < st->npaths; i++)
		json_array_append_new(paths, json_string(st->paths[i]));
	json_object_set_new_nocheck(o, "paths", paths);
	json_t *conds = json_array();
	for (uint32_t i = 0; i < st->nconds; i++)
		json_array_append_new(conds, cond_json(&st->conds[i], &env, with_current));
	json_object_set_new_nocheck(o, "conditions", conds);
	if (st->nchecks) {
		json_t *checks = json_array();
		for (uint32_t i = 0; i < st->nchecks; i++)
			json_array_append_new(checks, cond_json(&st->checks[i], &env, with_current));
		json_object_set_new_nocheck(o, "checks", checks);
	}
	char g[FW_GUID_STR_LEN];
	const struct fw_hii_module *m = fp->module;
	json_object_set_new_nocheck(o, "module", m->has_guid ? json_string(fw_guid_format(&m->guid, g)) : json_null());
	json_object_set_new_nocheck(o, "module_name", str_or_null(m->name));
	json_object_set_new_nocheck(o, "formset", guid_json(&fp->fs.guid));
	json_object_set_new_nocheck(o, "form_id", q->form ? json_integer(q->form->id) : json_null());
	json_object_set_new_nocheck(o, "opcode_offset", hex(fp->fs.ops[q->op_index].offset + fp->offset));
	if (with_current) {
		if (st->has_current) {
			json_object_set_new_nocheck(o, "current", value_json(st));
			if (st->current_text && q->kind != FW_IFR_K_STRING && q->kind != FW_IFR_K_PASSWORD)
				json_object_set_new_nocheck(o, "current_text", json_string(st->current_text));
			json_object_set_new_nocheck(o, "current_valid", json_boolean(st->current_valid));
			bool is_default = false;
			const struct fw_setting_default *d0 = NULL;
			for (uint32_t i = 0; i < st->ndefaults; i++)
				if (st->defaults[i].store_id == 0)
					d0 = &st->defaults[i];
			if (d0 && d0->has_value)
				is_default = d0->value == st->current;
			json_object_set_new_nocheck(o, "is_default", d0 && d0->has_value ? json_boolean(is_default) : json_null());
		}
		json_object_set_new_nocheck(o, "hidden", st->hidden < 0 ? json_null() : json_boolean(st->hidden));
		json_object_set_new_nocheck(o, "grayed_out", st->grayed < 0 ? json_null() : json_boolean(st->grayed));
	}
	return o;
}

json_t *fw_ifr_json_pairing(const struct fw_hii_form_pkg *fp)
{
	json_t *o = json_object();
	json_object_set_new_nocheck(o, "method", json_string(fw_hii_pairing_name(fp->pairing)));
	json_object_set_new_nocheck(o, "ids_used", json_integer(fp->ids_used));
	json_object_set_new_nocheck(o, "ids_covered", json_integer(fp->ids_covered));
	json_object_set_new_nocheck(o, "candidates", json_integer(fp->candidates));
	json_object_set_new_nocheck(o, "full_cover", json_integer(fp->full_cover));
	if (fp->group >= 0) {
		const struct fw_hii_group *g = &fp->module->groups[fp->group];
		json_object_set_new_nocheck(o, "group", json_string(g->kind));
		json_object_set_new_nocheck(o, "strings_offset", hex(g->offset));
		json_object_set_new_nocheck(o, "distance", json_integer((json_int_t)fp->distance));
	}
	json_object_set_new_nocheck(o, "language", str_or_null(fp->strings.language));
	return o;
}

json_t *fw_ifr_json_form(struct fw_settings *s, const struct fw_hii_form_pkg *fp, uint32_t i)
{
	const struct fw_ifr_form *f = &fp->fs.forms[i];
	json_t *jf = json_object();
	json_object_set_new_nocheck(jf, "id", json_integer(f->id));
	json_object_set_new_nocheck(jf, "title", json_string(fw_hii_string_or(fp, f->title, "")));
	const char **paths = NULL;
	uint32_t np = fw_settings_form_paths(s, fp, f->id, &paths);
	json_object_set_new_nocheck(jf, "path", np ? json_string(paths[0]) : json_null());
	json_t *qs = json_array(), *stmts = json_array();
	for (const struct fw_ifr_question *q = f->first; q; q = q->next_in_form) {
		if (q->is_question) {
			struct fw_setting st;
			fw_settings_describe(s, fp, q, &st);
			json_array_append_new(qs, fw_ifr_json_question(&st, s->bound));
		} else {
			json_t *js = json_object();
			json_object_set_new_nocheck(js, "kind", json_string(fw_ifr_kind_name(q->kind)));
			json_object_set_new_nocheck(js, "prompt", json_string(fw_hii_string_or(fp, q->prompt, "")));
			json_object_set_new_nocheck(js, "help", json_string(fw_hii_string_or(fp, q->help, "")));
			if (q->kind == FW_IFR_K_TEXT)
				json_object_set_new_nocheck(js, "text", json_string(fw_hii_string_or(fp, q->text2, "")));
			json_array_append_new(stmts, js);
		}
	}
	json_object_set_new_nocheck(jf, "questions", qs);
	json_object_set_new_nocheck(jf, "statements", stmts);
	return jf;
}

json_t *fw_ifr_json_formset_head(struct fw_settings *s, const struct fw_hii_form_pkg *fp)
{
	const struct fw_ifr_formset *fs = &fp->fs;
	const struct fw_hii_module *m = fp->module;
	char g[FW_GUID_STR_LEN];
	json_t *o = json_object();
	json_object_set_new_nocheck(o, "guid", guid_json(&fs->guid));
	json_object_set_new_nocheck(o, "title", json_string(fw_hii_string_or(fp, fs->title, "")));
	json_object_set_new_nocheck(o, "help", json_string(fw_hii_string_or(fp, fs->help, "")));
	json_object_set_new_nocheck(o, "module", m->has_guid ? json_string(fw_guid_format(&m->guid, g)) : json_null());
	json_object_set_new_nocheck(o, "module_name", str_or_null(m->name));
	json_object_set_new_nocheck(o, "package_offset", hex(fp->offset));
	json_object_set_new_nocheck(o, "package_size", json_integer((json_int_t)fs->package.len));
	if (fs->class_id >= 0)
		json_object_set_new_nocheck(o, "class", json_integer(fs->class_id));
	if (fs->subclass_id >= 0)
		json_object_set_new_nocheck(o, "subclass", json_integer(fs->subclass_id));
	const char *langs[64];
	uint32_t nl = fw_hii_languages(fp, langs, 64);
	json_t *jl = json_array();
	for (uint32_t i = 0; i < nl; i++)
		json_array_append_new(jl, json_string(langs[i]));
	json_object_set_new_nocheck(o, "languages", jl);
	json_object_set_new_nocheck(o, "pairing", fw_ifr_json_pairing(fp));
	json_t *vss = json_array();
	for (uint32_t i = 0; i < fs->nvarstores; i++) {
		const struct fw_ifr_varstore *vs = &fs->varstores[i];
		json_t *v = json_object();
		json_object_set_new_nocheck(v, "id", json_integer(vs->id));
		json_object_set_new_nocheck(v, "guid", guid_json(&vs->guid));
		json_object_set_new_nocheck(v, "name", str_or_null(vs->name));
		json_object_set_new_nocheck(v, "size", vs->has_size ? json_integer(vs->size) : json_null());
		json_object_set_new_nocheck(v, "kind", json_string(fw_ifr_varstore_kind_name(vs->kind)));
		if (vs->kind == FW_IFR_VS_EFI)
			json_object_set_new_nocheck(v, "attributes", hex(vs->attributes));
		json_array_append_new(vss, v);
	}
	json_object_set_new_nocheck(o, "varstores", vss);
	json_t *dss = json_array();
	for (uint32_t i = 0; i < fs->ndefaultstores; i++) {
		json_t *d = json_object();
		char buf[32];
		json_object_set_new_nocheck(d, "id", json_integer(fs->defaultstores[i].id));
		json_object_set_new_nocheck(d, "name", json_string(fw_hii_string_or(fp, fs->defaultstores[i].name, "")));
		json_object_set_new_nocheck(d, "kind", json_string(fw_ifr_default_id_name(fs->defaultstores[i].id, buf, sizeof(buf))));
		json_array_append_new(dss, d);
	}
	json_object_set_new_nocheck(o, "default_stores", dss);
	json_object_set_new_nocheck(o, "forms", json_array());	if (fs->ndiags) {
		json_t *d = json_array();
		for (const struct fw_ifr_diag *x = fs->diags; x; x = x->next) {
			json_t *jd = json_object();
			json_object_set_new_nocheck(jd, "offset", hex(x->offset + fp->offset));
			json_object_set_new_nocheck(jd, "message", json_string(x->msg));
			json_array_append_new(d, jd);
		}
		json_object_set_new_nocheck(o, "diagnostics", d);
	}
	return o;
}

json_t *fw_ifr_json_formset(struct fw_settings *s, const struct fw_hii_form_pkg *fp)
{
	json_t *o = fw_ifr_json_formset_head(s, fp), *forms = json_object_get(o, "forms");
	for (uint32_t i = 0; i < fp->fs.nforms; i++)
		json_array_append_new(forms, fw_ifr_json_form(s, fp, i));
	return o;
}
