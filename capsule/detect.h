/* Input detection: open any firmware input and build its node tree.
 *
 * Recognised inputs: capsules (AMI Aptio signed/unsigned, EFI, FMP), flash images (AMD EFS/PSP
 * regions, firmware volumes found by scanning), a single volume, an FFS file, a section or a
 * section stream (UEFITool .sct exports), a PE32/TE module body, NVRAM stores (NVAR, VSS) and
 * efivarfs files. Unknown data becomes an image node whose volumes are found by an aligned scan.
 * What the input is comes from the recogniser (recognise.h); here each kind becomes its tree.
 */
#ifndef FW_DETECT_H
#define FW_DETECT_H

#include "parsers/file.h"
#include "parsers/firmware.h"
#include "parsers/node.h"
#include "recognise.h"


/* Parse flags (explicit leniency, as in fwupd) */
#define FW_OPEN_IGNORE_CHECKSUM 0x01 /* do not flag checksum mismatches */
#define FW_OPEN_NO_SEARCH 0x02       /* no heuristic scans for volumes in raw areas */
#define FW_OPEN_LAYOUT_ONLY 0x04     /* do not inflate compressed sections */

struct fw_open_options {
	unsigned flags;
	const struct fw_limits *limits; /* NULL: fw_limits_default() */
};

struct fw_firmware {
	struct fw_file file;   /* the mapped input (read-only) */
	struct fw_tree *tree;  /* owns every node and decompressed buffer */
	enum fw_input_kind kind;
};

/* Build the tree of a file the caller opened read-only (taken over: closed with the firmware, or
 * at once on failure; a vendor archive is unwrapped to the image it holds). A structure that
 * cannot be parsed becomes an opaque node with a diagnostic; only an input that is nothing fwlens
 * knows, or a hard limit, fails. Paths are opened by the query layer: fw_source_open_firmware. */
bool fw_firmware_open_file(struct fw_file *file, const struct fw_open_options *o, struct fw_firmware *fw,
			   struct fw_error *err);
/* The same over a buffer the caller keeps alive (fuzzers, tests). */
bool fw_firmware_parse_buffer(const uint8_t *p, size_t n, const struct fw_open_options *o, struct fw_firmware *fw,
			      struct fw_error *err);
void fw_firmware_close(struct fw_firmware *fw);
/* One FFS file spanning the input (the probe of FW_INPUT_FFS_FILE); fills the file's context. */
bool fw_ffs_file_probe(const struct fw_view *v, struct fw_ffs_ctx *ctx);
/* When f holds a vendor download (an archive, as the recogniser says), its bytes become those of
 * the member the recogniser takes as the image (fw_input_firmware_member) and its path
 * "ARCHIVE:MEMBER"; f is left as it was when it is no archive. fw_firmware_open_file does this
 * first. False (f unchanged) on error. */
bool fw_firmware_unwrap(struct fw_file *f, struct fw_error *err);

#endif
