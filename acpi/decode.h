/* Table decoders, dispatched by signature (the ACPICA AcpiDmTableData pattern).
 *
 * A row carries the table's layout (acpi/fields.h: field tables, subtables, entries) and needs
 * no code, plus a hook for a complex table whose facts go beyond its fields (IVRS, SRAT,
 * DMAR, ...). Layout rows are decoded, written as JSON and text, and compared by diff field by
 * field, all from the layout.
 *
 * To add a table SIG with a layout (the usual case):
 *   1. acpi/sig.c: its field tables (parsers/layout.h; offsets from the table start, nested
 *      generic addresses with FW_ACPI_GAS, bits named with FW_FF_BITS) and one
 *      `const struct fw_acpi_layout fw_acpi_sig_table`;
 *   2. acpi/decode.c: its extern line and one LAYOUT(...) row in `decoders[]`;
 *   3. tests: tests/unit/test-acpi-fields.c checks it against `iasl -d` on the corpus (every
 *      table with a layout is compared there without more code) and a small built table with
 *      exact values; regenerate the goldens that list it.
 * A table with a JSON shape and text of its own adds a `struct fw_acpi_view` to its layout
 * (acpi/fields.h); one whose model other code reads adds `fw_acpi_sig_decode`, run after the
 * layout with t->doc set, and a HOOKED_LAYOUT(...) row (FADT, MCFG, RSDP, SLIT, XSDT, HMAT, CEDT,
 * SRAT, MADT, DMAR, IVRS, PPTT, CDIT, CRAT). Writers and diff follow the row.
 * A table without a row, or with a NAMED(...) row, is listed with its header only and its bytes
 * are left alone.
 */
#ifndef FW_ACPI_DECODE_H
#define FW_ACPI_DECODE_H

#include "acpi/table.h"

typedef void *(*fw_acpi_decode_fn)(struct fw_acpi_table *t, struct fw_arena *a);

enum fw_acpi_model_kind {
	FW_ACPI_MODEL_NONE,
	FW_ACPI_MODEL_RSDP,
	FW_ACPI_MODEL_XSDT, /* XSDT and RSDT */
	FW_ACPI_MODEL_IVRS,
	FW_ACPI_MODEL_SRAT,
	FW_ACPI_MODEL_SLIT,
	FW_ACPI_MODEL_MCFG,
	FW_ACPI_MODEL_DMAR,
	FW_ACPI_MODEL_MADT,
	FW_ACPI_MODEL_FADT,
	FW_ACPI_MODEL_HMAT,
	FW_ACPI_MODEL_CEDT,
	FW_ACPI_MODEL_PPTT,
	FW_ACPI_MODEL_FIELDS, /* described by a layout: struct fw_acpi_doc (acpi/fields.h) */
};

struct fw_acpi_layout;

struct fw_acpi_decoder {
	const char *signature;
	const char *name;          /* "I/O Virtualization Reporting Structure" */
	enum fw_acpi_model_kind kind;
	fw_acpi_decode_fn decode;  /* a hook, or NULL; with a layout it runs after it (t->doc set) */
	const struct fw_acpi_layout *layout; /* the table's layout, or NULL */
};

/* The row for a signature (known tables without a decoder have a row too, for their name);
 * NULL for a signature nobody has described. */
const struct fw_acpi_decoder *fw_acpi_decoder_find(const char *signature);
/* Row i of the table of decoders, NULL past its end (to check every layout). */
const struct fw_acpi_decoder *fw_acpi_decoder_at(size_t i);
/* Decode one table in place: sets t->decoder and t->model (NULL when the signature has no
 * decoder or the table is truncated). */
void fw_acpi_table_decode(struct fw_acpi_table *t, struct fw_arena *a);
/* The model if the table decoded to `kind`, else NULL. */
const void *fw_acpi_table_model(const struct fw_acpi_table *t, enum fw_acpi_model_kind kind);

#endif
