/* The forms a change set takes (tools/cli/plan-writers.c): text, JSON (the contract `plan
 * --verify` reads back), an AMISCE import script, a Redfish PATCH body checked against a BIOS
 * AttributeRegistry, and a POSIX shell script for efivarfs. Also the AttributeRegistry a BMC
 * would publish for a set of forms (`settings --format redfish-registry`). */
#ifndef FW_PLAN_WRITERS_H
#define FW_PLAN_WRITERS_H

#include "parsers/json-text.h"

#include "cli.h"
#include "tools/query/plan.h"

/* An error line on stderr that -q does not silence ("fwlens plan: error: ..."). */
void plan_say(const struct fw_cli *cli, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

json_t *fw_plan_json(struct fw_plan *p, const char *profile);
/* One entry as JSON (also the jsonl record). */
json_t *fw_plan_entry_json(struct fw_plan *p, size_t i);
void fw_plan_write_text(struct fw_cli *cli, struct fw_plan *p);
/* Returns 0, or the exit status of the error logged when a question or the HIICrc32 cannot be
 * written faithfully (nothing is written then). */
int fw_plan_write_sce(struct fw_cli *cli, struct fw_plan *p, const char *hii_crc);
/* Returns 0, or the exit status of an error already logged (an entry without a keyword, a name
 * or value the registry does not have). */
int fw_plan_write_redfish(struct fw_cli *cli, struct fw_plan *p, const char *registry_path);
int fw_plan_write_efivarfs(struct fw_cli *cli, struct fw_plan *p);

/* A Redfish BIOS AttributeRegistry for the settings with keywords (DMTF AttributeRegistry
 * schema: RegistryEntries.Attributes with AttributeName, DisplayName, Type, Value, bounds). */
json_t *fw_redfish_registry_json(const struct fw_settings *s, const char *name);

#endif
