/* The firmware parser core: raw areas, firmware volumes, FFS files and sections into the node
 * tree (reference/formats.md 3-4, 7-8).
 *
 * Every function adds nodes under `parent` and keeps going past what it cannot parse: a broken
 * structure becomes an opaque node (FW_NODE_F_OPAQUE) with a diagnostic naming the offset and the
 * reason, and its siblings are still parsed. They fail only on hard limits (FW_E_LIMIT: depth,
 * node count, decompressed bytes), which the caller reports.
 *
 *   raw area (image, capsule payload, raw file/section body)   rawarea.c
 *     -> volumes (header, block map, ext header, files, free space)  fv.c
 *       -> FFS files (header, checksums, state, body by type)        ffs.c
 *         -> sections (every type; compressed and GUID-defined ones   section.c
 *            are inflated once and parsed from the plain bytes)
 *              -> PE32/TE summaries pe.c, dependency expressions depex.c
 * NVRAM stores found on the way are handed to parsers/nvram.h.
 */
#ifndef FW_FIRMWARE_H
#define FW_FIRMWARE_H

#include "node.h"

/* Parse flags (the same values as FW_OPEN_* in capsule/detect.h) */
#define FW_PARSE_IGNORE_CHECKSUM 0x01 /* do not flag checksum mismatches */
#define FW_PARSE_NO_SEARCH 0x02       /* no scans for volumes inside raw areas below the top level */
#define FW_PARSE_LAYOUT_ONLY 0x04     /* do not inflate compressed sections */

struct fw_prefetch;

struct fw_parser {
	struct fw_tree *t;
	unsigned flags;
	/* streams inflated ahead (prefetch.h): listed by a layout-only pass, taken by the real one */
	struct fw_prefetch *prefetch;
};

/* What a volume tells its files. */
struct fw_ffs_ctx {
	uint8_t empty;     /* erase byte: 0xFF with ERASE_POLARITY, else 0x00 */
	bool ffs3;         /* large files (EFI_FFS_FILE_HEADER2) allowed */
	uint8_t revision;  /* volume revision: 1 = Framework (file tails, fixed checksum 0x5A) */
	uint64_t fv_start; /* volume offset the file alignment is checked against, or FW_OFFSET_UNKNOWN */
	const struct fw_view *fv; /* the volume */
};

/* --- raw areas (rawarea.c) --- */
/* Find firmware volumes anywhere in v and add them under parent; the bytes around them become
 * padding nodes. Nothing is added when no volume is found, unless `always_pad` (then v becomes
 * one padding node). *found (may be NULL) counts the volumes. */
bool fw_parse_raw_area(struct fw_parser *p, struct fw_node *parent, const struct fw_view *v, bool always_pad,
		       size_t *found, struct fw_error *err);
/* Padding subtype of a gap: "Empty (0xFF)", "Empty (0x00)" or "Non-empty". */
const char *fw_padding_type(const uint8_t *b, size_t n);
/* True when every byte of b[0..n) equals c. */
bool fw_all_bytes(const uint8_t *b, size_t n, uint8_t c);

/* --- volumes (fv.c) --- */
/* A plausible volume header at v[off]: signature, revision, lengths, block map; `strict` also
 * requires a valid header checksum or a known file system. *fv_length gets FvLength. */
bool fw_volume_probe(const struct fw_view *v, size_t off, bool strict, uint64_t *fv_length);
/* Parse the volume that starts at v[0] and spans v (callers cut v to FvLength, or to what is
 * left when the volume runs past its area). */
struct fw_node *fw_parse_volume(struct fw_parser *p, struct fw_node *parent, const struct fw_view *v,
				struct fw_error *err);

/* Hand an NVAR store to fw_nvar_parse_store; when that fails the bytes stay as an opaque
 * nvram-store node carrying its error. */
void fw_parse_nvar_store(struct fw_parser *p, struct fw_node *parent, const struct fw_view *v);

/* --- FFS files (ffs.c) --- */
/* Size of the file whose header starts at v[off] (24-bit size, or ExtendedSize for FFSv3 large
 * files) and its header length; false when the header does not fit. */
bool fw_ffs_file_size(const struct fw_view *v, size_t off, bool ffs3, uint64_t *size, uint32_t *header_size);
/* Parse one file spanning v exactly. */
struct fw_node *fw_parse_ffs_file(struct fw_parser *p, struct fw_node *parent, const struct fw_view *v,
				  const struct fw_ffs_ctx *ctx, struct fw_error *err);
/* The nearest file node at or above n, or NULL. */
struct fw_node *fw_node_file_of(struct fw_node *n);

/* --- sections (section.c) --- */
/* Parse the sections in v (4-byte aligned, as in a file body or an encapsulation section). */
bool fw_parse_sections(struct fw_parser *p, struct fw_node *parent, const struct fw_view *v, struct fw_error *err);
/* One section spanning the start of v; *used gets its size. */
struct fw_node *fw_parse_section(struct fw_parser *p, struct fw_node *parent, const struct fw_view *v, size_t *used,
				 struct fw_error *err);
/* Cheap check that b[0..n) is a well-formed section stream (sizes chain to the end, known types);
 * decides between EFI 1.1 and Tiano outputs and recognises section inputs. */
bool fw_sections_plausible(const uint8_t *b, size_t n);

#endif
