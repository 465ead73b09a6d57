/* ACPI system description tables: the common header, checksums, and one table of an input set
 * (reference/acpi.md 1).
 *
 * A table is parsed from its bytes into `struct fw_acpi_table`: header fields, checksum verdict,
 * the length check against the bytes actually present, diagnostics, and (after decoding, see
 * acpi/decode.h) a model owned by the set's arena. Problems inside a table are diagnostics on
 * the table, never failures: a bad checksum is reported, the rest of the input still decodes.
 */
#ifndef FW_ACPI_TABLE_H
#define FW_ACPI_TABLE_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "capsule/recognise.h"
#include "parsers/arena.h"
#include "parsers/layout.h"
#include "parsers/node.h"

enum {
	SDT_SIGNATURE,
	SDT_LENGTH,
	SDT_REVISION,
	SDT_CHECKSUM,
	SDT_OEM_ID,
	SDT_OEM_TABLE_ID,
	SDT_OEM_REVISION,
	SDT_CREATOR_ID,
	SDT_CREATOR_REVISION,
	SDT__COUNT
};
extern const struct fw_layout fw_acpi_header_layout;
#define FW_ACPI_HEADER_SIZE 36

/* FACS (its layout is fw_facs_layout in acpi/fadt.h): signature and length, no checksum. */
#define FW_ACPI_FACS_MIN 8

/* Set the checksum byte so the table sums to 0 (encoders). */
void fw_acpi_set_checksum(uint8_t *table, size_t len);

enum fw_acpi_checksum {
	FW_ACPI_CHECKSUM_OK,
	FW_ACPI_CHECKSUM_BAD,
	FW_ACPI_CHECKSUM_NONE, /* the table has no checksum (FACS) */
};

struct fw_acpi_decoder;
struct fw_acpi_doc;

struct fw_acpi_table {
	char signature[5];  /* printable ASCII ('?' for anything else); "RSDP" for the root pointer */
	uint32_t length;    /* the table's own Length field */
	uint8_t revision;
	uint8_t checksum;   /* the stored checksum byte */
	enum fw_acpi_checksum checksum_state;
	bool truncated;     /* fewer bytes present than Length says */
	bool has_header;    /* a standard 36-byte header (not FACS, not RSDP) */
	char oem_id[7];
	char oem_table_id[9];
	char creator_id[5];
	uint32_t oem_revision;
	uint32_t creator_revision;
	uint64_t address;   /* physical address given by the source (acpidump header), 0 if none */
	const char *origin; /* where it came from: "dynamic/SSDT12", "line 1762", "@0x4A3F10" */
	unsigned index;     /* position in the set */
	unsigned instance;  /* 1..n when the signature occurs more than once (ssdt1, ssdt2...), else 0 */
	struct fw_view data; /* min(Length, available) bytes; data.base is the absolute offset or unknown */
	const struct fw_acpi_decoder *decoder;
	void *model;        /* decoded model, type given by the decoder (acpi/decode.h) */
	const struct fw_acpi_doc *doc; /* the bytes through the row's layout (acpi/fields.h), or NULL */
	struct fw_diag *diags, *diags_tail;
	unsigned diag_count;
};

/* Parse the header of `bytes` (the table and possibly more after it). Fails only when the bytes
 * cannot be a table: too short for a header, or a Length smaller than the header. A Length
 * beyond the bytes present marks the table truncated (error diagnostic); a bad checksum is a
 * warning diagnostic. Strings are copied into `a`. */
bool fw_acpi_table_parse(struct fw_acpi_table *t, const struct fw_view *bytes, struct fw_arena *a,
			 struct fw_error *err);

/* Only the signature (four of [A-Z0-9_!] and room for a Length): fw_acpi_signature_ok, the
 * recogniser's probe (capsule/recognise.h). */

/* Append a diagnostic to a list (head/tail), message formatted into the arena. */
void fw_acpi_diag_append(struct fw_arena *a, struct fw_diag **head, struct fw_diag **tail, enum fw_diag_severity sev,
			 uint64_t off, const char *fmt, va_list ap) __attribute__((format(printf, 6, 0)));

/* Add a diagnostic to a table; `off` is relative to the table start. */
void fw_acpi_diag(struct fw_acpi_table *t, struct fw_arena *a, enum fw_diag_severity sev, size_t off,
		  const char *fmt, ...) __attribute__((format(printf, 5, 6)));

/* "IVRS", or "SSDT3" for the third of several SSDTs (acpixtract's naming, upper case). */
const char *fw_acpi_table_name(const struct fw_acpi_table *t, char *buf, size_t len);

/* The subtable walk every table with {type, length} records shares: where the type and the
 * length sit in the record header, and what a record is called in messages. */
struct fw_acpi_record_format {
	const char *what;      /* "subtable", "block", "structure", "device scope" */
	uint8_t type_width;    /* bytes at offset 0: 1 or 2 */
	uint8_t length_offset; /* where the length is */
	uint8_t length_width;  /* 1, 2 or 4 */
};
struct fw_acpi_record {
	size_t offset; /* in the view */
	uint32_t type;
	uint32_t length;
};
/* The record at *off of `v`; advances *off past it. False at the end of the view and when the
 * walk must stop: stray bytes, a length shorter than the record header, a record past the end
 * (error diagnostics at `base` + offset, `base` being v's offset in the table). */
bool fw_acpi_next_record(struct fw_acpi_table *t, struct fw_arena *a, const struct fw_view *v, size_t base, size_t *off,
			 const struct fw_acpi_record_format *f, struct fw_acpi_record *out);

/* Grow an arena array to hold at least `need` elements (doubling; old contents copied). */
void *fw_acpi_grow(struct fw_arena *a, void *arr, size_t *cap, size_t need, size_t elem);

/* "SSSS:BB:DD.F" from a segment and a 16-bit requester id (bus<<8 | dev<<3 | fn). */
char *fw_acpi_bdf_str(uint16_t segment, uint16_t devid, char out[16]);
/* "3583 MiB", "640 KiB", "2 GiB" (exact multiples only get the bigger unit). */
const char *fw_acpi_size_str(uint64_t n, char *buf, size_t len);
/* "BB:DD.F" */
char *fw_acpi_devid_str(uint16_t devid, char out[12]);

/* Text built piece by piece in a fixed buffer, truncated with "..." when too long (the values
 * diff compares). */
struct fw_acpi_text {
	char buf[2048];
	size_t used;
};
void fw_acpi_text_put(struct fw_acpi_text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
