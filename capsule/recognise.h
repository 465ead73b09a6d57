/* What an input is: the one table of input kinds, each with its probe (recognise.c).
 *
 * A caller says what it can see of the input (its name, whether it is a folder and which
 * sub-folders it has, and its bytes, read only when a probe needs them) and which kinds it takes;
 * the first kind of the table it takes whose probe says yes is the answer. The table's order is
 * the precedence: folders, then what a name or text says (settings lists, AMISCE exports, Redfish
 * resources, snapshots, acpidump text, ACPI tables), then variable stores read on their own, then
 * firmware (headers with a signature or a GUID first, then structures that span the whole input,
 * and last the flash image, whose volumes are found by a scan: it takes anything).
 *
 * Nothing here opens a path: the query layer's source (tools/query/source.c) looks at files and
 * folders and hands the bytes a probe read on to the reader (fw_source_recognise_keep), so a file
 * is opened once; the firmware reader (detect.c) asks with the bytes it was given.
 *
 * To add an input kind: its value below (where its precedence is), its row and probe in
 * recognise.c, the kinds masks that take it (FW_ACCEPT_*), and its opening where those are
 * (detect.c for firmware, tools/query/source.c or vars-input.c for the query layer).
 */
#ifndef FW_RECOGNISE_H
#define FW_RECOGNISE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum fw_input_kind {
	FW_INPUT_UNKNOWN,
	/* folders */
	FW_INPUT_MACHINE_ROOT,  /* a folder laid out like a Linux root (sys/ or proc/ inside) */
	FW_INPUT_FOLDER,        /* any other folder: efivarfs, ACPI tables */
	/* what a name or text says */
	FW_INPUT_SETTINGS_LIST, /* *.json, *.jsonl, or standard input that starts like JSON */
	FW_INPUT_AMISCE,        /* an AMI SCE export (text) */
	FW_INPUT_REDFISH_BIOS,  /* a saved Redfish Bios resource: a JSON object with "Attributes" */
	FW_INPUT_SNAPSHOT,      /* a machine snapshot (fwlens snapshot capture) */
	FW_INPUT_EMPTY,         /* no bytes at all */
	FW_INPUT_ACPIDUMP,      /* acpidump text */
	FW_INPUT_ACPI_TABLE,    /* binary ACPI tables (or the RSDP) */
	/* variable stores read on their own */
	FW_INPUT_EFIVARFS_TAR,  /* a tar archive of an efivarfs folder */
	FW_INPUT_VSS_STORE,     /* a bare EDK2 VSS/VSS2 region (or its fault-tolerant-write block) */
	/* firmware */
	FW_INPUT_EFIVAR,        /* one efivarfs file, named Name-GUID */
	FW_INPUT_CAPSULE,
	FW_INPUT_NVRAM,         /* an AMI NVAR store */
	FW_INPUT_NVRAM_DEFAULTS,/* an efivarfs dump of a defaults variable: u32 attributes, then NVAR */
	FW_INPUT_VOLUME,
	FW_INPUT_FFS_FILE,
	FW_INPUT_SECTION,
	FW_INPUT_PE,
	FW_INPUT_AMD_APCB,      /* one APCB block, as a BIOS directory entry 0x60/0x68 holds */
	FW_INPUT_AMD_MICROCODE, /* a microcode patch file, or Linux's amd-ucode container */
	FW_INPUT_IMAGE,         /* a flash image, or anything: volumes are found by a scan */
	FW_INPUT_KIND_COUNT
};
const char *fw_input_kind_name(enum fw_input_kind k);

/* Sets of kinds a caller takes. */
#define FW_INPUT_BIT(k) ((uint64_t)1 << (k))
/* what the firmware reader builds a tree of (capsule/detect.c) */
#define FW_ACCEPT_FIRMWARE                                                                                              \
	(FW_INPUT_BIT(FW_INPUT_EMPTY) | FW_INPUT_BIT(FW_INPUT_EFIVAR) | FW_INPUT_BIT(FW_INPUT_CAPSULE) |                 \
	 FW_INPUT_BIT(FW_INPUT_NVRAM) | FW_INPUT_BIT(FW_INPUT_NVRAM_DEFAULTS) | FW_INPUT_BIT(FW_INPUT_VOLUME) |          \
	 FW_INPUT_BIT(FW_INPUT_FFS_FILE) | FW_INPUT_BIT(FW_INPUT_SECTION) | FW_INPUT_BIT(FW_INPUT_PE) |                   \
	 FW_INPUT_BIT(FW_INPUT_AMD_APCB) | FW_INPUT_BIT(FW_INPUT_AMD_MICROCODE) | FW_INPUT_BIT(FW_INPUT_IMAGE))
/* what holds EFI variables (fwlens nvram, --vars): folders and stores read on their own, the
 * defaults dump (unless named like an efivarfs file), and firmware */
#define FW_ACCEPT_VARS                                                                                                  \
	(FW_INPUT_BIT(FW_INPUT_FOLDER) | FW_INPUT_BIT(FW_INPUT_EFIVARFS_TAR) | FW_INPUT_BIT(FW_INPUT_VSS_STORE) |         \
	 FW_INPUT_BIT(FW_INPUT_EFIVAR) | FW_INPUT_BIT(FW_INPUT_NVRAM_DEFAULTS) | FW_INPUT_BIT(FW_INPUT_IMAGE))
/* what holds ACPI tables (fwlens acpi) */
#define FW_ACCEPT_ACPI                                                                                                  \
	(FW_INPUT_BIT(FW_INPUT_MACHINE_ROOT) | FW_INPUT_BIT(FW_INPUT_FOLDER) | FW_INPUT_BIT(FW_INPUT_SNAPSHOT) |          \
	 FW_INPUT_BIT(FW_INPUT_EMPTY) | FW_INPUT_BIT(FW_INPUT_ACPIDUMP) | FW_INPUT_BIT(FW_INPUT_ACPI_TABLE) |             \
	 FW_INPUT_BIT(FW_INPUT_IMAGE))
/* a machine: a folder laid out like a root, or a snapshot */
#define FW_ACCEPT_MACHINE (FW_INPUT_BIT(FW_INPUT_MACHINE_ROOT) | FW_INPUT_BIT(FW_INPUT_SNAPSHOT))
/* what a query source opens (tools/query/source.h): lists, exports, machines, folders (refused
 * there), and firmware */
#define FW_ACCEPT_SOURCE                                                                                                \
	(FW_INPUT_BIT(FW_INPUT_SETTINGS_LIST) | FW_INPUT_BIT(FW_INPUT_AMISCE) | FW_ACCEPT_MACHINE |                      \
	 FW_INPUT_BIT(FW_INPUT_FOLDER) | FW_INPUT_BIT(FW_INPUT_IMAGE))
/* what --vars takes: an AMISCE export, a Redfish resource, and everything fwlens nvram reads */
#define FW_ACCEPT_CURRENT_VALUES (FW_INPUT_BIT(FW_INPUT_AMISCE) | FW_INPUT_BIT(FW_INPUT_REDFISH_BIOS) | FW_ACCEPT_VARS)

/* What a caller can see of an input. Bytes are fetched through `read` the first time a probe
 * needs them (NULL: no bytes, as for a folder or a file that cannot be read). */
struct fw_input_look {
	const char *name;  /* the path or file name as given ("-": standard input) */
	bool is_dir;
	/* whether `rel` is a folder inside it (folders only) */
	bool (*has_dir)(void *ctx, const char *rel);
	bool (*read)(void *ctx, const uint8_t **p, size_t *n);
	void *ctx;
	/* filled by fw_input_recognise */
	bool fetched, have_bytes;
	const uint8_t *p;
	size_t n;
};

/* The first kind in `accept` whose probe says yes; FW_INPUT_UNKNOWN when none does. */
enum fw_input_kind fw_input_recognise(struct fw_input_look *look, uint64_t accept);
/* The same over bytes in memory (a firmware buffer, an archive member); `name` may be NULL. */
enum fw_input_kind fw_input_recognise_bytes(const uint8_t *p, size_t n, const char *name, uint64_t accept);

/* What vendor downloads come in: bytes that start like an archive or compressed file the archive
 * reader takes (zip, 7z, tar, gzip, xz, zstd, bzip2: parsers/archive.h), and of its members the
 * one that is what a flash tool writes: a capsule, a flash image with an Intel descriptor, or
 * anything holding a firmware volume (not the flashing tools and texts beside it). The firmware
 * reader unwraps archives with both (fw_firmware_unwrap, detect.h). */
bool fw_input_archive_probe(const uint8_t *p, size_t n);
bool fw_input_firmware_member(const uint8_t *p, size_t n);

/* Probes other code shares: ACPI table signatures (upper-case letters, digits, '_', '!') and
 * AMISCE export text. */
bool fw_acpi_signature_ok(const uint8_t *p, size_t n);
/* Which files of a folder of ACPI tables are tables (acpi/folder.c skips the others): the RSDP,
 * or a signature and a Length the common header fits in (FACS, which has none: 64 bytes). */
#define FW_ACPI_TABLE_FILE_MIN 36
bool fw_acpi_table_file_probe(const uint8_t *p, size_t n);
bool fw_amisce_probe(const char *text, size_t len);
/* The format name a snapshot's manifest carries (tools/host/snapshot.c writes it). */
#define FW_SNAPSHOT_FORMAT "fwlens-snapshot"

#endif
