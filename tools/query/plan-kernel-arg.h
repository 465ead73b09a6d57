/* Kernel command line options as a plan: which boot loader the machine uses (told from its
 * captured files), which lines of which file change, and afterwards whether the running command
 * line carries them.
 *
 * The edit is computed here, against the file as captured: the script the command line writes
 * (tools/cli/plan-kernel-arg-write.c) only compares the live lines with the planned old and new
 * ones, so what it changes is exactly what the plan shows.
 *
 * Options are matched as the kernel parses them: by name ('-' and '_' alike), the last one
 * winning; `pci=` and `console=` are read once per occurrence, so for them an option is its name
 * and sub-option (`pci=disable_acs_redir`) and other occurrences stay. */
#ifndef FW_PLAN_KERNEL_ARG_H
#define FW_PLAN_KERNEL_ARG_H

#include <stdbool.h>
#include <stddef.h>

#include "parsers/error.h"
#include "parsers/json-text.h"
#include "tools/host/host.h"

#define FW_KARG_MAX 32 /* options in one plan */

enum fw_boot_loader { FW_LOADER_PROXMOX, FW_LOADER_GRUB, FW_LOADER_KERNEL_INSTALL };
const char *fw_boot_loader_name(enum fw_boot_loader l); /* "proxmox-boot-tool", "grub", "kernel-install" */

struct fw_karg {
	char *word;    /* "pci=disable_acs_redir=0000:40:01.1", or for a removal the name or word given */
	bool remove;
	bool in_file;  /* the file already says what the plan wants */
	bool running;  /* the machine's running command line (proc/cmdline) already does */
};

/* One changed line of the file: its number (1-based; 0 for a file to create) and its texts. */
struct fw_karg_edit {
	unsigned line;
	char *old;     /* NULL: the file does not exist yet */
	char *new_;
};

struct fw_karg_plan {
	enum fw_boot_loader loader;
	char *loader_why;  /* the files that tell the loader */
	char *file;        /* the file edited, relative to the root: "etc/kernel/cmdline" */
	const char *refresh; /* what makes the loader read it: "proxmox-boot-tool refresh" */
	char *running;     /* proc/cmdline, or NULL when not captured */
	struct fw_karg args[FW_KARG_MAX];
	size_t n;
	struct fw_karg_edit edits[4];
	size_t nedits;
};

/* Plan adding `add` (OPT or OPT=VALUE) and removing `rm` (a name: every occurrence; OPT=VALUE:
 * that one) on machine m. FW_E_USAGE for an option the plan cannot carry (blanks, quotes, shell
 * characters, control characters) or asked both ways; FW_E_NOT_FOUND when no boot loader
 * configuration is captured (the message lists what was looked for); FW_E_INVALID for a file the
 * plan cannot edit safely (several lines in a cmdline file, a GRUB line that is not a plain
 * quoted string). */
bool fw_karg_plan_make(struct fw_machine *m, const struct fw_host *h, const char *const *add, size_t nadd,
		       const char *const *rm, size_t nrm, struct fw_karg_plan *out, struct fw_error *err);
void fw_karg_plan_free(struct fw_karg_plan *p);

/* True when the words of `line` say what option `a` wants (added: the last occurrence of its
 * name is this word; removed: no occurrence). */
bool fw_karg_line_has(const char *line, const struct fw_karg *a);

/* The plan's JSON document ("kind": "kernel-args"); `made` is fw_plan_made_json's object (taken). */
json_t *fw_karg_plan_json(const struct fw_karg_plan *p, const char *source, json_t *made);

/* After the reboot: each option of a saved plan against the running command line of h. */
struct fw_karg_check {
	char *word;
	bool remove, ok;
	const char *state; /* "in effect", "missing", "still present", "not yet rebooted" */
};
struct fw_karg_verify {
	struct fw_karg_check items[FW_KARG_MAX];
	size_t n, failed;
	size_t pending; /* of the failed: not on the running command line, and no boot since the plan */
	int rebooted; /* 1, 0, -1 not known */
	char *rebooted_why;
	const char *cmdline; /* h->cmdline */
};
bool fw_karg_verify(const struct fw_host *h, const char *src_path, const json_t *plan, struct fw_karg_verify *out,
		    struct fw_error *err);
void fw_karg_verify_free(struct fw_karg_verify *v);

#endif
