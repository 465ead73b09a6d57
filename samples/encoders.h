/* Encoders for the UEFI PI structures of the sample images: sections, FFS files, firmware
 * volumes (encode-fv.c), PE32+/TE images (encode-pe.c), HII packages and IFR (encode-hii.c), AMI NVAR stores
 * (encode-nvar.c). Layouts come from parsers/fv.h, ffs.h, section.h, nvar.h, pe.h and ifr/ifr-layout.h. */
#ifndef SAMPLES_FIRMWARE_H
#define SAMPLES_FIRMWARE_H

#include "sample.h"

/* ---- sections (encode-fv.c): each appends one section to a section stream, 4-byte aligned ------------ */
void sec_plain(struct sbuf *s, uint8_t type, const void *body, size_t n);
void sec_ui(struct sbuf *s, const char *name);
void sec_version(struct sbuf *s, uint16_t build, const char *text);
/* DXE/PEI dependency: PUSH each GUID, AND them, END (or TRUE END when n == 0). */
void sec_depex(struct sbuf *s, uint8_t type, const struct fw_guid *guids, size_t n);
void sec_freeform(struct sbuf *s, const struct fw_guid *subtype, const void *body, size_t n);
void sec_fv_image(struct sbuf *s, const void *fv, size_t n);
/* GUID-defined sections that wrap a section stream: LZMA (EE4E5898, 13-byte header with the real
 * uncompressed size, no end marker) and AMD zlib (CE3233F5, 0x100-byte header). */
void sec_lzma(struct sbuf *s, const void *sections, size_t n);
void sec_amd_zlib(struct sbuf *s, const void *sections, size_t n);
/* The same two around a stream compressed by the caller (13-byte LZMA header first; a zlib stream). */
void sec_lzma_compressed(struct sbuf *s, const void *stream, size_t n);
void sec_amd_zlib_compressed(struct sbuf *s, const void *stream, size_t n);

/* Raw compression helpers (also used by the AMD directory entries) */
uint8_t *lzma_compress_edk2(const void *in, size_t n, size_t *out_len); /* 13-byte header + stream */
uint8_t *zlib_compress(const void *in, size_t n, size_t *out_len);
/* An LZMA encoder for many sections (same 13-byte header and stream as lzma_compress_edk2) at a
 * chosen preset, dictionary size and nice length (0: the preset's); and zlib at a chosen level. */
struct lzma_enc;
struct lzma_enc *lzma_enc_new(unsigned preset, uint32_t dict_size, uint32_t nice_len);
uint8_t *lzma_enc_run(struct lzma_enc *e, const void *in, size_t n, size_t *out_len);
void lzma_enc_free(struct lzma_enc *e);
uint8_t *zlib_compress_level(const void *in, size_t n, int level, size_t *out_len);

/* ---- FFS files and volumes (encode-fv.c) ---------------------------------------------------------- */
struct fvb {
	struct sbuf b;
	size_t length;    /* FvLength */
	bool ffs3;
	size_t first_file; /* offset of the first file */
	/* told about every file added (not pad files), for the module list of planted-changes.json */
	void (*on_file)(void *ctx, const struct fw_guid *name, const void *body, size_t n);
	void *ctx;
};
/* Start a volume of `length` bytes (a multiple of 4 KiB). fs = FFSv2 or FFSv3 file system GUID;
 * name = FvName for the extended header (NULL: none). */
void fv_begin(struct fvb *v, const struct fw_guid *fs, const struct fw_guid *name, size_t length);
/* Add a file; returns its offset in the volume. body = section stream or raw data. */
size_t fv_add_file(struct fvb *v, const struct fw_guid *name, uint8_t type, uint8_t attributes, const void *body,
		   size_t n);
/* Add a file that ends exactly at the end of the volume (the Volume Top File), padding before it. */
size_t fv_add_top_file(struct fvb *v, const struct fw_guid *name, uint8_t type, const void *body, size_t n);
/* Free space up to FvLength, header checksum; returns the volume (caller frees). */
uint8_t *fv_finish(struct fvb *v, size_t *len);

/* ---- images (encode-pe.c) -------------------------------------------------------------------------- */
/* A PE32+ (x64) EFI image laid out as GenFw leaves it (file offset == RVA, 0x100 alignment):
 * .text, .data, optional .rsrc carrying an HII package list as resource "HII", .reloc. */
uint8_t *pe_build(uint16_t subsystem, const void *text, size_t text_len, const void *data, size_t data_len,
		  const void *hii, size_t hii_len, size_t *out_len);
/* A TE image (PEI) with .text and .data, linked at image_base (the flash address of its header
 * for modules executed in place, 0 for modules in compressed volumes). */
uint8_t *te_build(const void *text, size_t text_len, const void *data, size_t data_len, uint64_t image_base,
		  size_t *out_len);
/* Filler machine code: deterministic bytes seeded by a label. */
void fake_code(struct sbuf *b, const char *label, size_t n);

/* Well-known GUIDs */
extern const struct fw_guid guid_ffs2, guid_ffs3, guid_vtf, guid_pad_all_ones;

#endif
