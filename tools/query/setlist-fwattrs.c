/* A settings list from the firmware-attributes class (tools/host/firmware-attributes.h): one
 * record per attribute, so `settings` and `find` list the BIOS settings a Dell, Lenovo or HP
 * driver exposes, with their current values, on a machine whose BIOS forms are not known.
 *
 * The record: prompt = display_name (or the attribute's name), keyword = the attribute's name
 * (what fwupdmgr set-bios-setting and the sysfs file take), module_name = the driver, kind
 * "one-of" (enumeration: options are the possible values, numbered in their order), "numeric"
 * (integer: limits and step) or "string"; current and default as the driver reports them. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "setlist.h"
#include "tools/host/firmware-attributes.h"

/* The option whose text is `v`, as its index; -1 when none. */
static int option_index(const struct fw_setlist_item *it, const char *v)
{
	for (uint32_t k = 0; v && k < it->noptions; k++)
		if (strcmp(it->options[k].text, v) == 0)
			return (int)k;
	return -1;
}

static bool integer_text(const char *v, uint64_t *out)
{
	char *end;
	long long x = v ? strtoll(v, &end, 10) : 0;
	if (!v || end == v || *end || x < 0)
		return false;
	*out = (uint64_t)x;
	return true;
}

void fw_setlist_from_fwattrs(const struct fw_fwattrs *a, const char *origin, struct fw_setlist *out)
{
	memset(out, 0, sizeof(*out));
	fw_arena_init(&out->arena);
	out->origin = fw_arena_strdup(&out->arena, origin);
	out->n = a->n;
	out->bound = true;
	out->items = fw_xcalloc(a->n ? a->n : 1, sizeof(*out->items));
	struct fw_arena *ar = &out->arena;
	for (size_t i = 0; i < a->n; i++) {
		const struct fw_fwattr *x = &a->items[i];
		struct fw_setlist_item *it = &out->items[i];
		bool enumeration = x->type && strcmp(x->type, "enumeration") == 0;
		bool integer = x->type && strcmp(x->type, "integer") == 0;
		it->kind = enumeration ? "one-of" : integer ? "numeric" : x->type && strcmp(x->type, "string") == 0 ? "string" : "other";
		it->prompt = fw_arena_strdup(ar, x->display_name && x->display_name[0] ? x->display_name : x->name);
		it->keyword = fw_arena_strdup(ar, x->name);
		it->module_name = fw_arena_strdup(ar, x->driver);
		it->path = fw_arena_printf(ar, "firmware-attributes %s", x->driver);
		it->paths = fw_arena_alloc(ar, sizeof(char *));
		it->paths[0] = it->path;
		it->npaths = 1;
		it->hidden = it->grayed = -1;
		if (x->npossible) {
			it->options = fw_arena_alloc(ar, x->npossible * sizeof(*it->options));
			memset(it->options, 0, x->npossible * sizeof(*it->options));
			it->noptions = (uint32_t)x->npossible;
			for (size_t k = 0; k < x->npossible; k++) {
				it->options[k].text = fw_arena_strdup(ar, x->possible[k]);
				it->options[k].value = k;
				it->options[k].is_default = x->def && strcmp(x->def, x->possible[k]) == 0;
			}
		}
		if (integer && x->has_min && x->has_max && x->min >= 0 && x->max >= x->min) {
			it->has_limits = true;
			it->min = (uint64_t)x->min, it->max = (uint64_t)x->max;
			it->step = x->has_step && x->step > 0 ? (uint64_t)x->step : 0;
		}
		if (x->def) {
			it->defaults = fw_arena_alloc(ar, sizeof(*it->defaults));
			memset(it->defaults, 0, sizeof(*it->defaults));
			it->ndefaults = 1;
			it->defaults->store = "standard";
			it->defaults->text = fw_arena_strdup(ar, x->def);
			int k = option_index(it, x->def);
			it->defaults->has_value = k >= 0 || (integer && integer_text(x->def, &it->defaults->value));
			if (k >= 0)
				it->defaults->value = (uint64_t)k;
		}
		if (x->current) {
			it->has_current = true;
			it->current_text = fw_arena_strdup(ar, x->current);
			int k = option_index(it, x->current);
			/* a value outside the possible ones, or a number outside the limits, is flagged */
			it->current_valid = enumeration ? k >= 0 : true;
			if (k >= 0)
				it->current = (uint64_t)k;
			else if (integer && integer_text(x->current, &it->current))
				it->current_valid = !it->has_limits || (it->current >= it->min && it->current <= it->max);
			else
				it->current_text_only = true;
		}
	}
}
