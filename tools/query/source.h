/* SRC: whatever the user points a command at, opened once and turned into the models the query
 * layer joins. A machine (snapshot file, root folder) gives host facts, its EFI variables and
 * ACPI tables; a firmware input (capsule, image, module) gives the node tree and its forms; with
 * --image (or an image stored in a snapshot) a machine also gets its BIOS forms. */
#ifndef FW_SOURCE_H
#define FW_SOURCE_H

#include <stdbool.h>

#include "doctor.h"
#include "host.h"
#include "machine.h"

struct fw_source_options {
	const char *image; /* BIOS image whose forms decode the machine's variables */
};

enum fw_source_kind { FW_SOURCE_MACHINE, FW_SOURCE_FIRMWARE };

struct fw_source {
	enum fw_source_kind kind;
	char *path;
	struct fw_machine *machine;
	bool have_host;
	struct fw_host host;
	char **warnings; /* things that could not be used, for the command to log */
	size_t nwarnings;
};

bool fw_source_open(const char *path, const struct fw_source_options *o, struct fw_source *src, struct fw_error *err);
void fw_source_close(struct fw_source *src);
void fw_source_warn(struct fw_source *src, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Wire the sources doctor checks draw on (settings, ACPI) to this source. */
void fw_source_doctor_ctx(struct fw_source *src, unsigned profiles, struct fw_doctor_ctx *ctx);

#endif
