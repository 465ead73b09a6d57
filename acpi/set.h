/* A set of ACPI tables from one source, decoded: the library API the CLI and the query layer use.
 *
 * Sources: a single binary table (or several concatenated), acpidump text, a folder laid out
 * like /sys/firmware/acpi/tables (DSDT, SSDT1..n, dynamic/, data/ skipped), a live-root folder
 * (sys/firmware/acpi/tables inside; the PCI devices under sys/bus/pci/devices are then known
 * too), a firmware image whose sections carry tables, or any buffer of those. Every table is parsed, numbered like acpixtract (SSDT1..n),
 * decoded by signature (acpi/decode.h), and then the set derives facts across tables: the
 * RSDP/XSDT/RSDT and FADT pointers are followed when present, and the IVRS IOAPIC map is checked
 * against the MADT as Linux does.
 */
#ifndef FW_ACPI_SET_H
#define FW_ACPI_SET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "acpi/decode.h"
#include "acpi/table.h"
#include "parsers/error.h"
#include "parsers/file.h"

enum fw_acpi_source {
	FW_ACPI_SRC_BUFFER,   /* bytes handed over by a caller */
	FW_ACPI_SRC_TABLE,    /* a binary table file (or concatenated tables) */
	FW_ACPI_SRC_ACPIDUMP, /* acpidump text */
	FW_ACPI_SRC_FOLDER,   /* a tables folder */
	FW_ACPI_SRC_SYSROOT,  /* a live-root layout */
	FW_ACPI_SRC_IMAGE,    /* tables found inside a firmware image */
};
const char *fw_acpi_source_name(enum fw_acpi_source s);

/* Cap on the tables of one set (a real machine has well under 200). */
#define FW_ACPI_MAX_TABLES 4096

struct fw_acpi_set {
	struct fw_arena arena;
	enum fw_acpi_source source;
	const char *path;       /* the input as given, or NULL */
	const char *tables_dir; /* the folder the tables came from (folder and sysroot sources) */
	const char *sysroot;    /* live-root folder, or NULL */
	struct fw_acpi_table **tables;
	size_t ntables, tables_cap;
	struct fw_diag *diags, *diags_tail; /* set-level diagnostics (offset = table index or 0) */
	unsigned ndiags;
	bool finished;
};

struct fw_acpi_set *fw_acpi_set_new(void);
void fw_acpi_set_free(struct fw_acpi_set *s);

/* Opening a path (what it is comes from the recogniser) is the query layer's:
 * fw_source_acpi_open (tools/query/source.h). Here sets are built from bytes, trees and files
 * seen through callbacks. */

/* Add the tables found in `p` (a binary table, several concatenated ones, or acpidump text,
 * detected). The bytes are copied. `origin` names the source in messages. */
bool fw_acpi_set_add_buffer(struct fw_acpi_set *s, const uint8_t *p, size_t n, const char *origin, struct fw_error *err);
/* Add one table's bytes exactly as given (already split by the caller); copied. */
bool fw_acpi_set_add_table(struct fw_acpi_set *s, const uint8_t *p, size_t n, uint64_t base, uint64_t address,
			   const char *origin, struct fw_error *err);
/* Add the tables found in the leaf sections of a firmware tree already built (capsule, flash
 * image, volume, FFS file, section), each table once (acpi/image.c; the tables are copied; `name` names it), or
 * over some of its nodes (the modules two images differ in). */
struct fw_tree;
struct fw_node;
bool fw_acpi_set_add_tree(struct fw_acpi_set *s, const struct fw_tree *t, const char *name, struct fw_error *err);
bool fw_acpi_set_add_nodes(struct fw_acpi_set *s, struct fw_node *const *nodes, size_t n, const char *name,
			   struct fw_error *err);
/* The same over bytes the caller keeps alive until the call returns (tables are copied). */
bool fw_acpi_set_add_image_buffer(struct fw_acpi_set *s, const uint8_t *p, size_t n, const char *origin,
				  struct fw_error *err);

/* Files seen through callbacks: a folder on disk (the query layer's source gives it) or one that
 * is not (a machine snapshot), so both give exactly the tables the folder gives. Paths are
 * "<dir>/<name>". */
struct fw_acpi_files {
	void *ctx;
	/* Names in dir, files, folders and links alike (any order; the caller frees each and the
	 * array); false when dir is absent. */
	bool (*list)(void *ctx, const char *dir, char ***names, size_t *n, struct fw_error *err);
	/* A file's bytes, valid until the next read; false for folders and unreadable files. */
	bool (*read)(void *ctx, const char *path, const uint8_t **data, size_t *len, struct fw_error *err);
	bool (*is_dir)(void *ctx, const char *dir);
};
/* Add every table of a folder laid out like /sys/firmware/acpi/tables. */
bool fw_acpi_set_add_files(struct fw_acpi_set *s, const struct fw_acpi_files *fs, const char *dir, struct fw_error *err);

/* Number, decode and cross-check; call once after adding. */
void fw_acpi_set_finish(struct fw_acpi_set *s);

/* The nth (0-based) table with this signature, or NULL. */
struct fw_acpi_table *fw_acpi_set_find(const struct fw_acpi_set *s, const char *signature, unsigned nth);
/* The first model of this kind in the set, or NULL. */
const void *fw_acpi_set_model(const struct fw_acpi_set *s, enum fw_acpi_model_kind kind);

void fw_acpi_set_diag(struct fw_acpi_set *s, enum fw_diag_severity sev, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif
