/* Record keys of JSON output (see record-key.h). */
#include "record-key.h"

#include <stdlib.h>
#include <string.h>

#include "tools/host/machine.h"

void fw_record_key_init(struct fw_record_key *k, const char *source, struct fw_machine *m)
{
	memset(k, 0, sizeof(*k));
	k->source = fw_xstrdup(source);
	if (!m)
		return;
	k->machine = true;
	k->host = fw_machine_read_text(m, "proc/sys/kernel/hostname");
	if (!k->host)
		k->host = fw_machine_read_text(m, "etc/hostname");
	if (k->host && !*k->host) {
		free(k->host);
		k->host = NULL;
	}
	const char *created = fw_machine_created(m);
	if (created)
		k->captured = fw_xstrdup(created);
}

void fw_record_key_free(struct fw_record_key *k)
{
	free(k->source);
	free(k->host);
	free(k->captured);
	memset(k, 0, sizeof(*k));
}

static json_t *str_or_null(const char *s)
{
	return s ? json_string(s) : json_null();
}

json_t *fw_record_key_wrap(const struct fw_record_key *k, json_t *record)
{
	json_t *o = json_object();
	json_object_set_new(o, "source", json_string(k->source));
	if (k->machine) {
		json_object_set_new(o, "host", str_or_null(k->host));
		json_object_set_new(o, "captured", str_or_null(k->captured));
	}
	const char *name;
	json_t *v;
	json_object_foreach(record, name, v)
		if (!json_object_get(o, name))
			json_object_set(o, name, v);
	json_decref(record);
	return o;
}
