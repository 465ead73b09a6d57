/* Table decoders, dispatched by signature (the ACPICA AcpiDmTableData pattern).
 *
 * To add a decoder for a new table SIG:
 *   1. acpi/sig.h: the field tables (parsers/layout.h) of its structures and its model struct;
 *   2. acpi/sig.c: `void *fw_acpi_sig_decode(struct fw_acpi_table *, struct fw_arena *)` that
 *      walks the bytes through the layouts and puts problems on the table as diagnostics;
 *   3. acpi/decode.c: one row in `decoders[]` (signature, long name, decode function);
 *   4. tools/cli/acpi-json.c and tools/cli/acpi-text.c: its JSON and text writers;
 *   5. tests/unit/test-acpi-*.c, a golden file under tests/cli/golden/, and a fuzz target
 *      tests/fuzz/fuzz-acpi-sig.c with seeds in tests/fuzz/corpus/acpi-sig/.
 * A table without a decoder is listed with its header only and its bytes are left alone.
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
};

struct fw_acpi_decoder {
	const char *signature;
	const char *name;          /* "I/O Virtualization Reporting Structure" */
	enum fw_acpi_model_kind kind;
	fw_acpi_decode_fn decode;  /* NULL: header only */
};

/* The row for a signature (known tables without a decoder have a row too, for their name);
 * NULL for a signature nobody has described. */
const struct fw_acpi_decoder *fw_acpi_decoder_find(const char *signature);
/* Decode one table in place: sets t->decoder and t->model (NULL when the signature has no
 * decoder or the table is truncated). */
void fw_acpi_table_decode(struct fw_acpi_table *t, struct fw_arena *a);
/* The model if the table decoded to `kind`, else NULL. */
const void *fw_acpi_table_model(const struct fw_acpi_table *t, enum fw_acpi_model_kind kind);

#endif
