/* SRC: whatever the user points a command at, opened once and turned into the models the query
 * layer joins.
 *
 *   a machine    (a snapshot file, a folder laid out like a Linux root, "/"): host facts, its EFI
 *                variables, its ACPI tables; with --image, or an image stored in the snapshot,
 *                also the BIOS forms that decode its variables into settings;
 *   firmware     (a capsule, a flash image, a volume, a module, a section): the node tree, its
 *                forms, and the variables of its NVRAM stores.
 *
 * Every model is built on first use and kept: a command asks for what it needs. */
#ifndef FW_SOURCE_H
#define FW_SOURCE_H

#include <stdbool.h>

#include "doctor.h"
#include "host.h"
#include "ifr/hii.h"
#include "ifr/settings.h"
#include "machine.h"
#include "parsers/nvram.h"

struct fw_source_options {
	const char *image;  /* BIOS image whose forms decode the machine's variables */
	const char *lang;   /* display language of setup strings (default en-US) */
	const char *module; /* restrict settings to a module (name or GUID) */
};

enum fw_source_kind { FW_SOURCE_MACHINE, FW_SOURCE_FIRMWARE };

struct fw_source {
	enum fw_source_kind kind;
	char *path;
	struct fw_source_options opt;
	/* machine */
	struct fw_machine *machine;
	bool have_host;
	struct fw_host host;
	/* forms: the firmware itself, --image, or the image stored in a snapshot */
	char *image_name;
	bool have_hii;
	struct fw_hii_input hii;
	/* variables: the machine's efivars, or the firmware's NVRAM stores */
	bool vars_loaded;
	struct fw_tree *vars_tree;
	struct fw_varlist vars;
	/* settings built from the forms and bound to the variables */
	bool settings_built;
	struct fw_settings settings;
	char **warnings; /* what could not be used, for the command to log */
	size_t nwarnings;
};

bool fw_source_open(const char *path, const struct fw_source_options *o, struct fw_source *src, struct fw_error *err);
void fw_source_close(struct fw_source *src);
void fw_source_warn(struct fw_source *src, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* The variables of the source (possibly empty, never NULL). */
const struct fw_varlist *fw_source_vars(struct fw_source *src);
/* The settings, bound to the source's variables; NULL when the source has no forms (a machine
 * without an image), with a warning saying so. */
struct fw_settings *fw_source_settings(struct fw_source *src);
/* The setting with this prompt (case ignored); among several (one module per CPU family, a
 * prompt in two menus) the first that has a current value wins, else the first. */
const struct fw_setting *fw_source_setting(struct fw_source *src, const char *prompt);

/* Wire the sources doctor checks draw on (settings, ACPI) to this source. */
void fw_source_doctor_ctx(struct fw_source *src, unsigned profiles, struct fw_doctor_ctx *ctx);

#endif
