/* Where a record came from, so the JSON of many machines can be concatenated and grouped (jq,
 * xargs -P, GNU parallel) without a runner of our own:
 *
 *   "source"    SRC as given on the command line (a snapshot file, a root folder, an image)
 *   "host"      the machine's host name (proc/sys/kernel/hostname, else etc/hostname), or null
 *   "captured"  when the snapshot was taken (from its manifest), or null for a folder
 *
 * "host" and "captured" are there only when SRC is a machine. JSON lines (--format jsonl) carry
 * the keys first on every line (JSON documents name their "source" at the top level). */
#ifndef FW_RECORD_KEY_H
#define FW_RECORD_KEY_H

#include "parsers/json-text.h"
#include <stdbool.h>

struct fw_machine;

struct fw_record_key {
	char *source;
	bool machine;
	char *host;     /* NULL when unknown */
	char *captured; /* NULL for a folder */
};

/* m may be NULL (SRC is firmware or a settings list). */
void fw_record_key_init(struct fw_record_key *k, const char *source, struct fw_machine *m);
void fw_record_key_free(struct fw_record_key *k);
/* A new object: the key fields, then the fields of `record` (whose reference is stolen). */
json_t *fw_record_key_wrap(const struct fw_record_key *k, json_t *record);

#endif
