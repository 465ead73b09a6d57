/* The BIOS AttributeRegistry a BMC would publish for these forms (DMTF AttributeRegistry v1_3):
 * one attribute per one-of, checkbox and numeric question with an x-UEFI keyword (AMI MegaRAC
 * names), its MenuPath ("./AMD CBS/CPU Common Options"), DefaultValue and ResetRequired; the
 * Menus its paths pass through; and Dependencies made from the suppress-if, disable-if and
 * gray-out-if conditions around each question: a condition that compares attributes with values
 * (==, !=, <, <=, >, >=, a value list, joined by one kind of and/or, not over a comparison)
 * becomes a Map dependency setting Hidden or GrayOut to true; one that cannot (it names a
 * question that is no attribute, mixes and with or, reads a variable) is left out and listed
 * with the reason under Oem.fwlens. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ifr/ifr-expr.h"
#include "ifr/ifr-opcodes.h"
#include "plan-writers.h"

static bool is_attribute(const struct fw_setting *st)
{
	const struct fw_ifr_question *q = st->q;
	return st->keyword && (q->kind == FW_IFR_K_ONE_OF || q->kind == FW_IFR_K_NUMERIC || q->kind == FW_IFR_K_CHECKBOX);
}

/* The attribute value of v for st: an option's text, Enabled/Disabled, or the number. */
static json_t *attr_value(const struct fw_setting *st, uint64_t v)
{
	if (st->q->kind == FW_IFR_K_NUMERIC)
		return json_integer((json_int_t)v);
	if (st->q->kind == FW_IFR_K_CHECKBOX)
		return v <= 1 ? json_string(v ? "Enabled" : "Disabled") : NULL;
	for (uint32_t i = 0; i < st->noptions; i++)
		if (st->options[i].opt->value.u == v)
			return json_string(st->options[i].text);
	return NULL;
}

/* "./AMD CBS/CPU Common Options" from the first path's elements (the first `n`). */
static char *menu_path(const struct fw_setting *st, uint32_t n)
{
	size_t len = 2;
	for (uint32_t i = 0; i < n; i++)
		len += strlen(st->path0[i]) + 1;
	char *p = fw_xmalloc(len + 1), *o = p;
	*o++ = '.';
	for (uint32_t i = 0; i < n; i++) {
		*o++ = '/';
		size_t k = strlen(st->path0[i]);
		memcpy(o, st->path0[i], k);
		o += k;
	}
	*o = '\0';
	return p;
}

struct deps {
	const struct fw_settings *s;
	const struct fw_setting *st;
	json_t *terms; /* MapFrom array being built */
	const char *why;
};

static const char *const conds[] = {"EQU", "NEQ", "GTR", "GEQ", "LSS", "LEQ"};

static int cmp_index(uint8_t op)
{
	switch (op) {
	case FW_IFR_EQUAL: return 0;
	case FW_IFR_NOT_EQUAL: return 1;
	case FW_IFR_GREATER_THAN: return 2;
	case FW_IFR_GREATER_EQUAL: return 3;
	case FW_IFR_LESS_THAN: return 4;
	case FW_IFR_LESS_EQUAL: return 5;
	default: return -1;
	}
}

/* not(a OP b): the opposite comparison */
static int negate(int c)
{
	static const int inv[] = {1, 0, 5, 4, 3, 2};
	return inv[c];
}

static bool constant(const struct fw_ifr_expr *e, uint64_t *v)
{
	if (e->op >= FW_IFR_UINT8 && e->op <= FW_IFR_UINT8 + 3) {
		*v = e->value;
		return true;
	}
	return false;
}

static bool add_term(struct deps *d, uint16_t qid, int cond, uint64_t v, const char *terms)
{
	const struct fw_setting *from = fw_settings_question(d->s, d->st->fp, qid);
	if (!from || !is_attribute(from)) {
		d->why = "it names a question that is no attribute (no x-UEFI keyword, or not a one-of, checkbox or number)";
		return false;
	}
	json_t *val = attr_value(from, v);
	if (!val) {
		d->why = "it compares with a value that is none of the question's options";
		return false;
	}
	json_t *t = json_object();
	json_object_set_new(t, "MapFromAttribute", json_string(from->keyword));
	json_object_set_new(t, "MapFromProperty", json_string("CurrentValue"));
	json_object_set_new(t, "MapFromCondition", json_string(conds[cond]));
	json_object_set_new(t, "MapFromValue", val);
	if (json_array_size(d->terms))
		json_object_set_new(t, "MapTerms", json_string(terms));
	json_array_append_new(d->terms, t);
	return true;
}

/* Flatten e into MapFrom terms joined by `terms` ("AND"/"OR"); `neg`: under a not. */
static bool walk(struct deps *d, const struct fw_ifr_expr *e, const char *terms, bool neg)
{
	uint64_t v;
	int c;
	switch (e->op) {
	case FW_IFR_AND:
	case FW_IFR_OR: {
		/* de Morgan under a not; one kind of joint for the whole list */
		bool is_and = (e->op == FW_IFR_AND) != neg;
		const char *mine = is_and ? "AND" : "OR";
		if (json_array_size(d->terms) && terms && strcmp(terms, mine) != 0) {
			d->why = "it mixes and with or, which a flat MapFrom list cannot hold";
			return false;
		}
		return walk(d, e->args[0], mine, neg) && walk(d, e->args[1], mine, neg);
	}
	case FW_IFR_NOT:
		return walk(d, e->args[0], terms, !neg);
	case FW_IFR_EQ_ID_VAL:
		return add_term(d, e->qid, neg ? 1 : 0, e->value, terms ? terms : "AND");
	case FW_IFR_EQ_ID_VAL_LIST:
		/* q in {a, b}: q == a OR q == b; under a not: q != a AND q != b */
		if (json_array_size(d->terms) && terms && strcmp(terms, neg ? "AND" : "OR") != 0 && e->nlist > 1) {
			d->why = "a value list inside an opposite and/or, which a flat MapFrom list cannot hold";
			return false;
		}
		for (uint16_t i = 0; i < e->nlist; i++)
			if (!add_term(d, e->qid, neg ? 1 : 0, (uint64_t)e->list[2 * i] | (uint64_t)e->list[2 * i + 1] << 8,
				      neg ? "AND" : "OR"))
				return false;
		return true;
	default:
		if ((c = cmp_index(e->op)) >= 0 && e->nargs == 2) {
			const struct fw_ifr_expr *q = e->args[0], *k = e->args[1];
			if (q->op == FW_IFR_QUESTION_REF1 && constant(k, &v))
				return add_term(d, q->qid, neg ? negate(c) : c, v, terms ? terms : "AND");
		}
		d->why = "it uses an expression other than comparisons of questions with values";
		return false;
	}
}

static void put_dependencies(json_t *deps, json_t *skipped, size_t *nskipped, const struct fw_settings *s,
			     const struct fw_setting *st, bool *always_hidden, bool *always_gray)
{
	for (uint32_t c = 0; c < st->nconds; c++) {
		const struct fw_ifr_cond *cond = st->conds[c].cond;
		const char *prop = cond->kind == FW_IFR_COND_GRAYOUT ? "GrayOut" : "Hidden";
		if (cond->expr && (cond->expr->op == FW_IFR_TRUE || cond->expr->op == FW_IFR_FALSE)) {
			/* a constant: the attribute's own Hidden/GrayOut, no dependency */
			if (cond->expr->op == FW_IFR_TRUE)
				*(cond->kind == FW_IFR_COND_GRAYOUT ? always_gray : always_hidden) = true;
			continue;
		}
		struct deps d = {s, st, json_array(), NULL};
		bool ok = cond->expr && walk(&d, cond->expr, NULL, false);
		if (!cond->expr)
			d.why = "the condition's opcodes do not form one expression";
		if (ok) {
			json_t *dep = json_object(), *map = json_object();
			json_object_set_new(map, "MapFrom", d.terms);
			json_object_set_new(map, "MapToAttribute", json_string(st->keyword));
			json_object_set_new(map, "MapToProperty", json_string(prop));
			json_object_set_new(map, "MapToValue", json_true());
			json_object_set_new(dep, "DependencyFor", json_string(st->keyword));
			json_object_set_new(dep, "Type", json_string("Map"));
			json_object_set_new(dep, "Dependency", map);
			json_array_append_new(deps, dep);
			continue;
		}
		json_decref(d.terms);
		(*nskipped)++;
		json_t *o = json_object();
		json_object_set_new(o, "Attribute", json_string(st->keyword));
		json_object_set_new(o, "Kind", json_string(fw_ifr_cond_kind_name(cond->kind)));
		json_object_set_new(o, "Condition", json_string(fw_setting_cond_text(&st->conds[c])));
		json_object_set_new(o, "Why", json_string(d.why ? d.why : "not expressible"));
		json_array_append_new(skipped, o);
	}
}

json_t *fw_redfish_registry_json(const struct fw_settings *s, const char *name)
{
	json_t *doc = json_object(), *entries = json_object(), *attrs = json_array(), *menus = json_array();
	json_t *deps = json_array(), *skipped = json_array(), *seen = json_object();
	size_t nskipped = 0, order = 0;
	json_object_set_new(doc, "@odata.type", json_string("#AttributeRegistry.v1_3_0.AttributeRegistry"));
	json_object_set_new(doc, "Id", json_string(name));
	json_object_set_new(doc, "Name", json_string("BIOS Attribute Registry"));
	json_object_set_new(doc, "Language", json_string("en"));
	json_object_set_new(doc, "OwningEntity", json_string("fwlens"));
	json_object_set_new(doc, "RegistryVersion", json_string("1.0.0"));
	for (uint32_t i = 0; i < s->n; i++) {
		const struct fw_setting *st = &s->items[i];
		const struct fw_ifr_question *q = st->q;
		if (!is_attribute(st))
			continue;
		/* the menus its path passes through, each once */
		for (uint32_t k = 1; k <= st->npath0; k++) {
			char *mp = menu_path(st, k);
			if (!json_object_get(seen, mp)) {
				json_object_set_new(seen, mp, json_true());
				json_t *m = json_object();
				char mn[32];
				snprintf(mn, sizeof(mn), "Menu%zu", json_array_size(menus) + 1);
				json_object_set_new(m, "MenuName", json_string(mn));
				json_object_set_new(m, "DisplayName", json_string(st->path0[k - 1]));
				json_object_set_new(m, "DisplayOrder", json_integer((json_int_t)json_array_size(menus) + 1));
				json_object_set_new(m, "MenuPath", json_string(mp));
				json_object_set_new(m, "ReadOnly", json_false());
				json_object_set_new(m, "GrayOut", json_false());
				json_object_set_new(m, "Hidden", json_false());
				json_array_append_new(menus, m);
			}
			free(mp);
		}
		json_t *a = json_object();
		char *mp = menu_path(st, st->npath0);
		json_object_set_new(a, "AttributeName", json_string(st->keyword));
		json_object_set_new(a, "DisplayName", json_string(st->prompt));
		json_object_set_new(a, "DisplayOrder", json_integer((json_int_t)++order));
		json_object_set_new(a, "HelpText", json_string(fw_setting_help(st)));
		json_object_set_new(a, "MenuPath", json_string(mp));
		free(mp);
		json_object_set_new(a, "ReadOnly", json_false());
		json_object_set_new(a, "ResetRequired", json_true());
		json_t *def = NULL;
		for (uint32_t k = 0; k < st->ndefaults && !def; k++)
			if (st->defaults[k].store_id == 0 && st->defaults[k].has_value)
				def = attr_value(st, st->defaults[k].value);
		json_object_set_new(a, "DefaultValue", def ? def : json_null());
		if (q->kind == FW_IFR_K_NUMERIC) {
			json_object_set_new(a, "Type", json_string("Integer"));
			if (q->has_limits && q->min <= q->max) {
				json_object_set_new(a, "LowerBound", json_integer((json_int_t)q->min));
				json_object_set_new(a, "UpperBound", json_integer((json_int_t)q->max));
				json_object_set_new(a, "ScalarIncrement", json_integer((json_int_t)(q->step ? q->step : 1)));
			}
		} else {
			json_object_set_new(a, "Type", json_string("Enumeration"));
			json_t *vals = json_array();
			uint32_t n = q->kind == FW_IFR_K_CHECKBOX ? 2 : st->noptions;
			for (uint32_t k = 0; k < n; k++) {
				const char *t = q->kind == FW_IFR_K_CHECKBOX ? (k ? "Enabled" : "Disabled") : st->options[k].text;
				json_t *v = json_object();
				json_object_set_new(v, "ValueName", json_string(t));
				json_object_set_new(v, "ValueDisplayName", json_string(t));
				json_array_append_new(vals, v);
			}
			json_object_set_new(a, "Value", vals);
		}
		bool hidden = false, gray = false;
		put_dependencies(deps, skipped, &nskipped, s, st, &hidden, &gray);
		json_object_set_new(a, "Hidden", json_boolean(hidden));
		json_object_set_new(a, "GrayOut", json_boolean(gray));
		json_array_append_new(attrs, a);
	}
	json_decref(seen);
	json_object_set_new(entries, "Attributes", attrs);
	json_object_set_new(entries, "Menus", menus);
	json_object_set_new(entries, "Dependencies", deps);
	json_object_set_new(doc, "RegistryEntries", entries);
	/* what the schema cannot say: the conditions left out, each with why */
	json_t *oem = json_object(), *mine = json_object();
	json_object_set_new(mine, "DependenciesSkipped", json_integer((json_int_t)nskipped));
	json_object_set_new(mine, "Skipped", skipped);
	json_object_set_new(oem, "fwlens", mine);
	json_object_set_new(doc, "Oem", oem);
	return doc;
}
