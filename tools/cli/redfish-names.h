/* Redfish BIOS attribute names and values as a given BMC spells them (redfish-names.c). */
#ifndef FW_REDFISH_NAMES_H
#define FW_REDFISH_NAMES_H

#include "parsers/json-text.h"
#include <stdbool.h>
#include <stddef.h>

#include "ifr/settings.h"

/* The attribute of the BMC's AttributeRegistry (its RegistryEntries.Attributes) that is this
 * setting, tried in order: the x-UEFI keyword (AMI MegaRAC BMCs: CbsCmnCpuSmeeBRH); the keyword
 * without its CPU-generation suffix (CbsCmnCpuSmee); the display name and menu path; a name made
 * of the prompt and the question id or offset in hex (SMEE#0015, QuietBoot_0027); the only
 * attribute with the display name. NULL when none or several match; *how says which rule matched
 * or why none did. */
const json_t *fw_redfish_find_attribute(const json_t *reg, const struct fw_setting *st, char *how, size_t len);
/* The value the attribute takes for an option text or a number: a ValueName whose name or display
 * name is the text, also spelled as the attribute's name plus the text (CbsCmnCpuSmee_Enable);
 * true/false for a Boolean attribute; the number for an Integer. NULL (with *why) when the
 * registry has no such value. */
json_t *fw_redfish_map_value(const json_t *attr, const struct fw_setting *st, const char *text, bool is_number,
			     long long number, char *why, size_t len);

#endif
