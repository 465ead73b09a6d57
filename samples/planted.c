/* planted-changes.json: {"settings": [{change, prompt, path, what}], "modules": [...],
 * "varstores": [...], "versions": {...}}. */
#include "planted.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "sample.h"

static json_t *settings, *modules, *varstores, *versions;

static void init(void)
{
	if (settings)
		return;
	settings = json_array();
	modules = json_array();
	varstores = json_array();
	versions = json_object();
}

void plant_setting(const char *module, const char *change, const char *prompt, const char *path, const char *what)
{
	init();
	json_t *o = json_object();
	json_object_set_new(o, "module", json_string(module));
	json_object_set_new(o, "change", json_string(change));
	json_object_set_new(o, "prompt", json_string(prompt));
	json_object_set_new(o, "path", json_string(path));
	json_object_set_new(o, "what", json_string(what));
	json_array_append_new(settings, o);
}

static void named_entry(json_t *list, const char *change, const char *name, const char *guid, const char *what)
{
	init();
	json_t *o = json_object();
	json_object_set_new(o, "change", json_string(change));
	json_object_set_new(o, "name", json_string(name));
	json_object_set_new(o, "guid", json_string(guid));
	json_object_set_new(o, "what", json_string(what));
	json_array_append_new(list, o);
}

bool plant_has(const char *change, const char *prompt)
{
	init();
	size_t i;
	json_t *o;
	json_array_foreach(settings, i, o)
	{
		if (strcmp(json_string_value(json_object_get(o, "change")), change) == 0 &&
		    strcmp(json_string_value(json_object_get(o, "prompt")), prompt) == 0)
			return true;
	}
	return false;
}

void plant_module(const char *change, const char *name, const char *guid, const char *what)
{
	init();
	named_entry(modules, change, name, guid, what);
}

void plant_varstore(const char *name, const char *guid, const char *what)
{
	init();
	named_entry(varstores, "changed", name, guid, what);
}

void plant_version(const char *key, const char *old_value, const char *new_value)
{
	init();
	json_t *o = json_object();
	json_object_set_new(o, "old", json_string(old_value));
	json_object_set_new(o, "new", json_string(new_value));
	json_object_set_new(versions, key, o);
}

void plant_write(const char *rel)
{
	init();
	json_t *root = json_object();
	json_object_set_new(root, "from", json_string("ESC8000A-E13-ASUS-1104.CAP"));
	json_object_set_new(root, "to", json_string("ESC8000A-E13-ASUS-1201.CAP"));
	json_object_set(root, "settings", settings);
	json_object_set(root, "modules", modules);
	json_object_set(root, "varstores", varstores);
	json_object_set(root, "versions", versions);
	char *text = json_dumps(root, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	if (!text)
		sample_die("cannot format %s", rel);
	out_text(rel, "%s\n", text);
	free(text);
	json_decref(root);
}

void plant_free(void)
{
	json_decref(settings);
	json_decref(modules);
	json_decref(varstores);
	json_decref(versions);
	settings = modules = varstores = versions = NULL;
}
