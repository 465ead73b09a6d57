/* Diff differences as JSON lines (see diff-jsonl.h). */
#include "diff-jsonl.h"

#include <string.h>

static bool is_change_name(const char *s)
{
	return strcmp(s, "added") == 0 || strcmp(s, "removed") == 0 || strcmp(s, "moved") == 0 ||
	       strcmp(s, "changed") == 0;
}

/* One line: the keys, the section and its qualifiers, then the item's fields. */
static void line(struct fw_cli *cli, const struct fw_record_key *ok, const struct fw_record_key *nk, const char *section,
		 const char *qual_key, const char *qual, const char *change, json_t *item)
{
	json_t *o = json_object();
	json_object_set_new(o, "baseline", json_string(ok->source));
	if (ok->machine)
		json_object_set_new(o, "baseline_host", ok->host ? json_string(ok->host) : json_null());
	json_object_set_new(o, "section", json_string(section));
	/* the list it came from, else the item's own word (kernel), else changed (values, versions) */
	const char *own = json_string_value(json_object_get(item, "change"));
	json_object_set_new(o, "change", json_string(change ? change : own ? own : "changed"));
	if (qual_key)
		json_object_set_new(o, qual_key, json_string(qual));
	const char *k;
	json_t *v;
	if (json_is_object(item)) {
		json_object_foreach(item, k, v)
			if (!json_object_get(o, k))
				json_object_set(o, k, v);
	} else {
		json_object_set(o, "value", item);
	}
	fw_cli_print_jsonl(cli, fw_record_key_wrap(nk, o));
}

void fw_diff_print_jsonl(struct fw_cli *cli, json_t *doc, const struct fw_record_key *old_key,
			 const struct fw_record_key *new_key)
{
	const char *section;
	json_t *body;
	json_object_foreach(doc, section, body)
	{
		if (strcmp(section, "sources") == 0 || strcmp(section, "summary") == 0)
			continue;
		size_t i;
		json_t *item;
		if (json_is_array(body)) {
			json_array_foreach(body, i, item) line(cli, old_key, new_key, section, NULL, NULL, NULL, item);
			continue;
		}
		if (!json_is_object(body))
			continue;
		const char *sub;
		json_t *v;
		json_object_foreach(body, sub, v)
		{
			if (json_is_array(v)) {
				/* {"added": [...]} lists, or kernel's {"cmdline": [...]} whose items say their change */
				bool change = is_change_name(sub);
				json_array_foreach(v, i, item)
					line(cli, old_key, new_key, section, change ? NULL : "kind", sub, change ? sub : NULL, item);
			} else {
				/* versions: {"bios_version": {"old", "new"}} */
				line(cli, old_key, new_key, section, "name", sub, NULL, v);
			}
		}
	}
}
