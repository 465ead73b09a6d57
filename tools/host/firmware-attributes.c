/* The firmware-attributes class read from a machine (firmware-attributes.h). */
#include "firmware-attributes.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parsers/error.h"

static char *attr_file(struct fw_machine *m, const char *dir, const char *file)
{
	char rel[1024];
	snprintf(rel, sizeof(rel), "%s/%s", dir, file);
	return fw_machine_read_text(m, rel);
}

static bool attr_int(struct fw_machine *m, const char *dir, const char *file, int64_t *out)
{
	char *t = attr_file(m, dir, file), *end;
	if (!t)
		return false;
	long long v = strtoll(t, &end, 10);
	bool ok = end != t && *end == 0;
	free(t);
	if (ok)
		*out = v;
	return ok;
}

/* "Disabled;Enabled;" -> {"Disabled", "Enabled"} (empty parts dropped, at most the cap). */
static void split_possible(struct fw_fwattr *a, const char *text)
{
	for (const char *p = text; *p && a->npossible < FW_FWATTR_MAX_POSSIBLE;) {
		size_t n = strcspn(p, ";");
		if (n) {
			if (!a->npossible)
				a->possible = fw_xcalloc(FW_FWATTR_MAX_POSSIBLE, sizeof(char *));
			char *v = fw_xmalloc(n + 1);
			memcpy(v, p, n);
			v[n] = 0;
			a->possible[a->npossible++] = v;
		}
		p += n + (p[n] ? 1 : 0);
	}
}

static void load_attribute(struct fw_machine *m, const char *driver, const char *name, const char *dir,
			   struct fw_fwattr *a)
{
	memset(a, 0, sizeof(*a));
	a->driver = fw_xstrdup(driver);
	a->name = fw_xstrdup(name);
	a->path = fw_xstrdup(dir);
	a->type = attr_file(m, dir, "type");
	a->display_name = attr_file(m, dir, "display_name");
	a->current = attr_file(m, dir, "current_value");
	char rel[1024];
	struct fw_blob raw;
	snprintf(rel, sizeof(rel), "%s/current_value", dir);
	if (a->current && fw_machine_read(m, rel, &raw, NULL)) {
		size_t n = raw.len;
		while (n && (raw.data[n - 1] == '\n' || raw.data[n - 1] == 0 || raw.data[n - 1] == ' '))
			n--;
		for (size_t i = 0; i < n; i++)
			if (raw.data[i] < 0x20 || raw.data[i] == 0x7F)
				a->current_altered = true;
	}
	a->def = attr_file(m, dir, "default_value");
	char *possible = attr_file(m, dir, "possible_values");
	if (possible) {
		split_possible(a, possible);
		free(possible);
	}
	bool string = a->type && strcmp(a->type, "string") == 0;
	a->has_min = attr_int(m, dir, string ? "min_length" : "min_value", &a->min);
	a->has_max = attr_int(m, dir, string ? "max_length" : "max_value", &a->max);
	a->has_step = !string && attr_int(m, dir, "scalar_increment", &a->step);
}

void fw_fwattrs_load(struct fw_machine *m, struct fw_fwattrs *out)
{
	memset(out, 0, sizeof(*out));
	struct fw_strlist drivers;
	if (!fw_machine_list(m, FW_FWATTR_CLASS, &drivers))
		return;
	out->class_present = true;
	out->drivers = drivers.count;
	fw_strlist_sort(&drivers);
	size_t cap = 0;
	for (size_t d = 0; d < drivers.count && !out->truncated; d++) {
		char base[512];
		snprintf(base, sizeof(base), FW_FWATTR_CLASS "/%s/attributes", drivers.items[d]);
		struct fw_strlist names;
		if (!fw_machine_list(m, base, &names))
			continue;
		fw_strlist_sort(&names);
		for (size_t i = 0; i < names.count; i++) {
			char dir[1024];
			snprintf(dir, sizeof(dir), "%s/%s", base, names.items[i]);
			struct fw_strlist files;
			/* attributes are folders; files beside them (pending_reboot, reset_bios) are not settings */
			if (!fw_machine_list(m, dir, &files))
				continue;
			fw_strlist_free(&files);
			if (out->n == FW_FWATTR_MAX) {
				out->truncated = true;
				break;
			}
			if (out->n == cap) {
				cap = cap ? cap * 2 : 64;
				out->items = fw_xrealloc(out->items, cap * sizeof(*out->items));
			}
			load_attribute(m, drivers.items[d], names.items[i], dir, &out->items[out->n++]);
		}
		fw_strlist_free(&names);
	}
	fw_strlist_free(&drivers);
}

void fw_fwattrs_free(struct fw_fwattrs *a)
{
	for (size_t i = 0; i < a->n; i++) {
		struct fw_fwattr *x = &a->items[i];
		free(x->driver), free(x->name), free(x->path), free(x->type), free(x->display_name), free(x->current),
			free(x->def);
		for (size_t k = 0; k < x->npossible; k++)
			free(x->possible[k]);
		free(x->possible);
	}
	free(a->items);
	memset(a, 0, sizeof(*a));
}
