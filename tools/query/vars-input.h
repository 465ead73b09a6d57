/* Every input that holds EFI variables, opened one way for `fwlens nvram` and for --vars: an
 * efivarfs folder or a tar of one, a bare AMI NVAR or EDK2 VSS store, an efivarfs dump of a
 * defaults variable saved under another name, and through the firmware tree everything else
 * (capsules, whole images, volumes, FFS files, one efivarfs file Name-GUID).
 *
 * Also where the current values of settings come from (`current_source`), said the same way by
 * every command. */
#ifndef FW_VARS_INPUT_H
#define FW_VARS_INPUT_H

#include <stdbool.h>

#include "capsule/detect.h"
#include "parsers/file.h"
#include "parsers/nvram.h"

struct fw_vars_input {
	struct fw_file file;
	struct fw_tree *tree;  /* the variables' tree: own (folders, archives, bare stores) or fw.tree */
	struct fw_firmware fw; /* everything else: the firmware tree */
	bool have_fw;
	bool folder;           /* an efivarfs folder */
	bool archive;          /* a tar of an efivarfs folder */
};

bool fw_vars_input_open(const char *path, struct fw_vars_input *in, struct fw_error *err);
void fw_vars_input_close(struct fw_vars_input *in);

/* Where current values came from. */
enum fw_current_kind {
	FW_CURRENT_NONE,       /* no variables: defaults only */
	FW_CURRENT_IMAGE_NVRAM,/* the image's own NVRAM store */
	FW_CURRENT_EFIVARFS,   /* a machine's efivarfs folder */
	FW_CURRENT_SNAPSHOT,   /* the efivars captured in a snapshot */
	FW_CURRENT_VARS,       /* a file or folder given with --vars */
	FW_CURRENT_AMISCE,     /* an AMISCE export */
	FW_CURRENT_REDFISH,    /* a saved Redfish Bios resource */
	FW_CURRENT_FIRMWARE_ATTRIBUTES, /* a machine's sys/class/firmware-attributes (no forms needed) */
};
struct fw_current_source {
	enum fw_current_kind kind;
	const char *path;      /* the file or folder, or NULL */
	uint64_t offset;       /* of the store in the image, or FW_OFFSET_UNKNOWN */
	const char *store;     /* "NVAR", "VSS", "efivarfs", "AMISCE", "Redfish" */
};
const char *fw_current_kind_name(enum fw_current_kind k); /* "image-nvram", "efivarfs", ..., "none" */
/* The store that holds the live variables of `vars` (offset and format), into `out`. */
void fw_current_source_of_vars(const struct fw_varlist *vars, enum fw_current_kind kind, const char *path,
			       struct fw_current_source *out);
/* The store of a variable values were bound from (its format and offset). */
void fw_current_source_bound(struct fw_current_source *c, const struct fw_variable *v);
/* "NVAR store of X.CAP @0x1BE1090", "efivarfs folder sysroot/sys/firmware/efi/efivars", "none:
 * defaults only", into buf. */
const char *fw_current_source_text(const struct fw_current_source *c, char *buf, size_t len);

#endif
