/* Change sets for a host whose BIOS settings are the firmware-attributes class (Dell, Lenovo,
 * HP; no BIOS forms): each --set SETTING=VALUE resolved to one attribute (its name, or its
 * display name; --module narrows to a driver) and its value checked against the attribute (one of
 * the possible values, a number within min/max and the step, a string within its lengths). The
 * writers (tools/cli/plan-fwattrs-write.c) turn it into `fwupdmgr set-bios-setting` or sysfs
 * writes of current_value; fwlens itself writes nothing. */
#ifndef FW_PLAN_FWATTRS_H
#define FW_PLAN_FWATTRS_H

#include "parsers/error.h"
#include "tools/host/firmware-attributes.h"

#define FW_FWATTR_PLAN_MAX 256

struct fw_fwattr_change {
	const struct fw_fwattr *a;
	char *value;  /* the new value as the attribute spells it (an option's own text) */
	bool change;  /* it differs from the current value (or the current value is not known) */
	char *given;  /* SETTING=VALUE as given */
};

struct fw_fwattr_plan {
	struct fw_fwattrs attrs;
	struct fw_fwattr_change *changes;
	size_t n;
};

/* The machine's attributes; false (FW_E_NOT_FOUND) when it exposes none. */
bool fw_fwattr_plan_init(struct fw_fwattr_plan *p, struct fw_machine *m, struct fw_error *err);
/* Add SETTING=VALUE: FW_E_USAGE for an unknown or ambiguous setting, a value the attribute does
 * not take, or a second, different value for the same attribute. */
bool fw_fwattr_plan_add(struct fw_fwattr_plan *p, const char *setting, const char *value, const char *module,
			struct fw_error *err);
void fw_fwattr_plan_free(struct fw_fwattr_plan *p);

#endif
