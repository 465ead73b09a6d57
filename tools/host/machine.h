/* A machine as fwlens sees it: a live root ("/"), a folder laid out like one (a sysroot), or a
 * captured snapshot. Every reader of machine facts (ACPI tables, efivars, DMI, PCI config
 * spaces, IOMMU groups, the kernel log) goes through this one interface, so a command gives the
 * same answer from a snapshot as from the folder it was captured from.
 *
 * Paths are relative to the machine root ("sys/firmware/acpi/tables/DSDT"). On a folder,
 * symbolic links are resolved inside the root (an absolute target is taken relative to the
 * root, ".." stops at the root), so nothing outside --root is ever read.
 */
#ifndef FW_MACHINE_H
#define FW_MACHINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "parsers/error.h"

struct fw_machine;

enum fw_machine_kind { FW_MACHINE_FOLDER, FW_MACHINE_SNAPSHOT };

struct fw_blob {
	const uint8_t *data;
	size_t len;
};

struct fw_strlist {
	char **items;
	size_t count, cap;
};
void fw_strlist_push(struct fw_strlist *l, const char *s);
void fw_strlist_sort(struct fw_strlist *l);
void fw_strlist_free(struct fw_strlist *l);

/* Largest single file read from a machine (a 64 MiB BIOS image fits; sysfs files are small). */
#define FW_MACHINE_FILE_CAP ((size_t)128 << 20)

/* A folder (live root or sysroot) or a snapshot file. */
bool fw_machine_open(const char *path, struct fw_machine **out, struct fw_error *err);
void fw_machine_close(struct fw_machine *m);
enum fw_machine_kind fw_machine_kind(const struct fw_machine *m);
const char *fw_machine_path(const struct fw_machine *m);

/* File contents, owned by the machine; false when absent or unreadable (err says why). */
bool fw_machine_read(struct fw_machine *m, const char *rel, struct fw_blob *out, struct fw_error *err);
/* A small text file (sysfs attribute, /proc file) as a malloc'd string: trailing newlines, spaces
 * and NULs trimmed, other control characters but newline and tab turned to spaces; NULL when
 * absent or unreadable. */
char *fw_machine_read_text(struct fw_machine *m, const char *rel);
/* Names in a directory, sorted; false when the directory is absent. */
bool fw_machine_list(struct fw_machine *m, const char *rel_dir, struct fw_strlist *out);
/* Target of a symbolic link as a machine-relative path ("sys/devices/pci0000:00/0000:00:01.1"),
 * or NULL when rel is not a link. Owned by the machine. */
const char *fw_machine_link(struct fw_machine *m, const char *rel);
/* Device and inode of what rel names in a folder, links followed inside the root (so capture
 * takes a file or folder reached through several links once); false for a snapshot or when
 * rel cannot be reached. */
bool fw_machine_identity(struct fw_machine *m, const char *rel, uint64_t *dev, uint64_t *ino);
/* Whether a path exists (file, directory or device node such as dev/sev). */
bool fw_machine_exists(struct fw_machine *m, const char *rel);

/* The kernel log: on the live root the running kernel's, from /dev/kmsg or else the dmesg program
 * (no shell), and var/log/dmesg (what a boot-time service saved) only when neither can be read;
 * elsewhere var/log/dmesg. On failure `why` says why (not permitted, not captured). */
bool fw_machine_kernel_log(struct fw_machine *m, struct fw_blob *out, char *why, size_t whylen);
/* Where the kernel log was read: "/dev/kmsg", "dmesg" or "var/log/dmesg". */
const char *fw_machine_kernel_log_from(const struct fw_machine *m);

/* Snapshot-only facts recorded at capture time (NULL for folders): the manifest as indented JSON
 * text (made when first asked for), or as the parsed document (parsed when first asked for). */
const char *fw_machine_manifest_json(const struct fw_machine *m);
struct json_t;
const struct json_t *fw_machine_manifest(const struct fw_machine *m);
/* The manifest's "created" (the capture time), or NULL, without parsing the whole manifest. */
const char *fw_machine_created(const struct fw_machine *m);

/* Building a machine from a snapshot archive (tools/host/snapshot.c). Data and strings passed
 * as "taken" are owned by the machine afterwards. */
struct fw_machine *fw_machine_new_snapshot(const char *path);
void fw_machine_add_file(struct fw_machine *m, const char *rel, uint8_t *data_taken, size_t len);
/* A member read in place from the snapshot's file, which the machine keeps (fw_machine_keep_archive). */
void fw_machine_add_file_in_place(struct fw_machine *m, const char *rel, const uint8_t *data, size_t len);
struct fw_file;
void fw_machine_keep_archive(struct fw_machine *m, struct fw_file *taken);
void fw_machine_add_link(struct fw_machine *m, const char *rel, const char *target);
void fw_machine_add_node(struct fw_machine *m, const char *rel); /* exists, not a regular file (dev/sev) */
void fw_machine_set_manifest(struct fw_machine *m, struct json_t *doc_taken);
/* The manifest as stored, certainly a JSON object (fw_json_skim_object), and its "created" string
 * (NULL: none): the whole document is parsed when a command asks for it. The text is taken
 * (malloc'd), or in_place: bytes of the snapshot's file, which the machine keeps. */
void fw_machine_set_manifest_text(struct fw_machine *m, const char *text, size_t len, bool in_place, const char *created);
/* Loader of snapshot archives, implemented in snapshot.c. */
bool fw_snapshot_load(const char *path, struct fw_machine **out, struct fw_error *err);
/* The same over bytes in memory (fuzzing); members are copied, `name` names it in messages. */
bool fw_snapshot_load_buffer(const uint8_t *p, size_t n, const char *name, struct fw_machine **out,
			     struct fw_error *err);
/* The same with a lower cap on the bytes of all members than FW_SNAPSHOT_MAX_TOTAL (tests reach
 * the limit without gigabytes). */
bool fw_snapshot_load_buffer_capped(const uint8_t *p, size_t n, const char *name, uint64_t max_total,
				    struct fw_machine **out, struct fw_error *err);

#endif
