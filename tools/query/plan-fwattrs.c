/* Change sets over the firmware-attributes class (plan-fwattrs.h). */
#include "plan-fwattrs.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

bool fw_fwattr_plan_init(struct fw_fwattr_plan *p, struct fw_machine *m, struct fw_error *err)
{
	memset(p, 0, sizeof(*p));
	fw_fwattrs_load(m, &p->attrs);
	if (!p->attrs.n)
		return fw_error_set(err, FW_E_NOT_FOUND, "the machine has no BIOS forms and %s",
				    p->attrs.class_present ? "its firmware-attributes class is empty"
							   : "no firmware-attributes class");
	return true;
}

/* Attributes whose name, or else whose display name, is `setting` (case ignored). */
static size_t lookup(const struct fw_fwattr_plan *p, const char *setting, const char *module, const struct fw_fwattr **out)
{
	size_t n = 0;
	for (int pass = 0; pass < 2 && !n; pass++)
		for (size_t i = 0; i < p->attrs.n; i++) {
			const struct fw_fwattr *a = &p->attrs.items[i];
			if (module && strcasecmp(a->driver, module) != 0)
				continue;
			const char *key = pass == 0 ? a->name : a->display_name;
			if (key && strcasecmp(key, setting) == 0 && n < 2)
				out[n++] = a;
		}
	return n;
}

static bool check_value(const struct fw_fwattr *a, const char *value, char **canonical, struct fw_error *err)
{
	for (const char *c = value; *c; c++)
		if ((unsigned char)*c < 0x20 || *c == 0x7F)
			return fw_error_set(err, FW_E_USAGE, "%s: a value with control characters is refused", a->name);
	const char *type = a->type ? a->type : "";
	if (strcmp(type, "enumeration") == 0) {
		for (size_t k = 0; k < a->npossible; k++)
			if (strcasecmp(a->possible[k], value) == 0) {
				*canonical = fw_xstrdup(a->possible[k]);
				return true;
			}
		char list[512] = "";
		for (size_t k = 0; k < a->npossible; k++)
			snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s%s", k ? ", " : "", a->possible[k]);
		return fw_error_set(err, FW_E_USAGE, "%s takes %s, not '%s'", a->name, list[0] ? list : "no listed value", value);
	}
	if (strcmp(type, "integer") == 0) {
		char *end;
		long long v = strtoll(value, &end, 10);
		if (end == value || *end)
			return fw_error_set(err, FW_E_USAGE, "%s takes a number, not '%s'", a->name, value);
		if ((a->has_min && v < a->min) || (a->has_max && v > a->max))
			return fw_error_set(err, FW_E_USAGE, "%s takes %lld to %lld, not %lld", a->name, (long long)a->min,
					    (long long)a->max, v);
		if (a->has_step && a->step > 1 && (v - (a->has_min ? a->min : 0)) % a->step)
			return fw_error_set(err, FW_E_USAGE, "%s moves in steps of %lld, %lld is not on one", a->name,
					    (long long)a->step, v);
		*canonical = fw_xasprintf("%lld", v);
		return true;
	}
	if (strcmp(type, "string") == 0) {
		long long len = (long long)strlen(value);
		if ((a->has_min && len < a->min) || (a->has_max && len > a->max))
			return fw_error_set(err, FW_E_USAGE, "%s takes %lld to %lld characters, not %lld", a->name,
					    (long long)a->min, (long long)a->max, len);
		*canonical = fw_xstrdup(value);
		return true;
	}
	return fw_error_set(err, FW_E_USAGE, "%s is of type '%s', which fwlens does not plan", a->name, type);
}

bool fw_fwattr_plan_add(struct fw_fwattr_plan *p, const char *setting, const char *value, const char *module,
			struct fw_error *err)
{
	const struct fw_fwattr *found[2];
	size_t n = lookup(p, setting, module, found);
	if (!n)
		return fw_error_set(err, FW_E_USAGE, "no firmware attribute is named '%s'%s%s", setting,
				    module ? " in driver " : "", module ? module : "");
	if (n > 1)
		return fw_error_set(err, FW_E_USAGE, "'%s' names attributes of %s and %s: give --module DRIVER", setting,
				    found[0]->driver, found[1]->driver);
	if (found[0]->current_altered)
		return fw_error_set(err, FW_E_USAGE, "%s: its current value holds control characters, so a script cannot "
				    "check it before the change: change it by hand", found[0]->name);
	char *canonical = NULL;
	if (!check_value(found[0], value, &canonical, err))
		return false;
	for (size_t i = 0; i < p->n; i++)
		if (p->changes[i].a == found[0]) {
			bool same = strcmp(p->changes[i].value, canonical) == 0;
			free(canonical);
			return same || fw_error_set(err, FW_E_USAGE, "%s is asked to be both '%s' and '%s'", found[0]->name,
						    p->changes[i].value, value);
		}
	if (p->n == FW_FWATTR_PLAN_MAX) {
		free(canonical);
		return fw_error_set(err, FW_E_USAGE, "more than %d settings in one plan", FW_FWATTR_PLAN_MAX);
	}
	if (!p->changes)
		p->changes = fw_xcalloc(FW_FWATTR_PLAN_MAX, sizeof(*p->changes));
	struct fw_fwattr_change *c = &p->changes[p->n++];
	c->a = found[0];
	c->value = canonical;
	c->change = !found[0]->current || strcmp(found[0]->current, canonical) != 0;
	c->given = fw_xasprintf("%s=%s", setting, value);
	return true;
}

void fw_fwattr_plan_free(struct fw_fwattr_plan *p)
{
	for (size_t i = 0; i < p->n; i++)
		free(p->changes[i].value), free(p->changes[i].given);
	free(p->changes);
	fw_fwattrs_free(&p->attrs);
	memset(p, 0, sizeof(*p));
}
