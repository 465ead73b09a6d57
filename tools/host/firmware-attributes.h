/* BIOS settings a kernel driver exposes with their current values, through the
 * firmware-attributes class (Documentation/ABI/testing/sysfs-class-firmware-attributes: Dell's
 * dell-wmi-sysman, Lenovo's think-lmi, HP's hp-bioscfg and others):
 * sys/class/firmware-attributes/DRIVER/attributes/NAME/{type, current_value, default_value,
 * display_name, possible_values (';'-separated), min_value, max_value, scalar_increment,
 * min_length, max_length}. A change is a write of current_value (or `fwupdmgr set-bios-setting`).
 *
 * Read from a struct fw_machine, so a live root, a folder and a snapshot give the same list. Every
 * string is the firmware's and hostile; counts are capped. */
#ifndef FW_FIRMWARE_ATTRIBUTES_H
#define FW_FIRMWARE_ATTRIBUTES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "machine.h"

#define FW_FWATTR_CLASS "sys/class/firmware-attributes"
#define FW_FWATTR_MAX 8192          /* attributes read, over all drivers */
#define FW_FWATTR_MAX_POSSIBLE 1024 /* possible values of one enumeration */

struct fw_fwattr {
	char *driver;       /* "dell-wmi-sysman" */
	char *name;         /* the attribute's folder name: what fwupdmgr and sysfs take */
	char *path;         /* "sys/class/firmware-attributes/DRIVER/attributes/NAME" */
	char *type;         /* "enumeration", "integer", "string", "ordered-list", or NULL */
	char *display_name; /* or NULL */
	char *current;      /* current_value, or NULL when unreadable */
	bool current_altered; /* it held control characters, shown as spaces: not the bytes in the file */
	char *def;          /* default_value, or NULL */
	char **possible;    /* enumeration values */
	size_t npossible;
	bool has_min, has_max, has_step;
	int64_t min, max, step; /* integer: min_value, max_value, scalar_increment; string: lengths */
};

struct fw_fwattrs {
	bool class_present;  /* sys/class/firmware-attributes exists (possibly empty) */
	size_t drivers;      /* drivers listed under it */
	struct fw_fwattr *items;
	size_t n;
	bool truncated;      /* more than FW_FWATTR_MAX */
};

/* Never fails: a machine without the class gives class_present false and no items. */
void fw_fwattrs_load(struct fw_machine *m, struct fw_fwattrs *out);
void fw_fwattrs_free(struct fw_fwattrs *a);

#endif
