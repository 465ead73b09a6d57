/* FFS sections: header layouts, type names, well-known GUIDs, and the section parser (every
 * type; compressed and GUID-defined sections are inflated once and parsed from the plain bytes). */
#include "section.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "decompress.h"
#include "depex.h"
#include "firmware.h"
#include "fv.h"
#include "hash.h"
#include "nvar.h"
#include "pe.h"
#include "prefetch.h"
#include "ucs2.h"

static const struct fw_field section_fields[SEC__COUNT] = {
	[SEC_SIZE] = {"Size", FW_FT_U24, 0, 0, FW_FF_HEX, NULL},
	[SEC_TYPE] = {"Type", FW_FT_U8, 3, 0, FW_FF_HEX, NULL},
	[SEC_EXTENDED_SIZE] = {"ExtendedSize", FW_FT_U32, 4, 0, FW_FF_HEX | FW_FF_HIDDEN, NULL},
};
const struct fw_layout fw_section_layout = {"section header", FW_SECTION_HEADER_SIZE, section_fields, SEC__COUNT};

static const struct fw_field section2_fields[SEC__COUNT] = {
	[SEC_SIZE] = {"Size", FW_FT_U24, 0, 0, FW_FF_HEX, NULL},
	[SEC_TYPE] = {"Type", FW_FT_U8, 3, 0, FW_FF_HEX, NULL},
	[SEC_EXTENDED_SIZE] = {"ExtendedSize", FW_FT_U32, 4, 0, FW_FF_HEX, NULL},
};
const struct fw_layout fw_section2_layout = {"section header (extended size)", FW_SECTION_HEADER2_SIZE, section2_fields,
					     SEC__COUNT};

static const struct fw_named_value compression_type_names[] = {
	{0x00, "none"}, {0x01, "EFI standard"}, {0x02, "LZMA"}, {0x86, "LZMA F86"}, {0, NULL},
};
static const struct fw_field compression_fields[SEC_COMPRESSION__COUNT] = {
	[SEC_COMPRESSION_UNCOMPRESSED_LENGTH] = {"UncompressedLength", FW_FT_U32, 0, 0, FW_FF_HEX, NULL},
	[SEC_COMPRESSION_TYPE] = {"CompressionType", FW_FT_U8, 4, 0, FW_FF_ENUM | FW_FF_HEX, compression_type_names},
};
const struct fw_layout fw_section_compression_layout = FW_LAYOUT("compression section header", 5, compression_fields);

static const struct fw_bitfield fw_guided_attribute_bits[] = {
	FW_FLAG("PROCESSING_REQUIRED", 0x01), FW_FLAG("AUTH_STATUS_VALID", 0x02),
};
const struct fw_bitfields fw_guided_attribute_names = FW_BITFIELDS(fw_guided_attribute_bits);
static const struct fw_field guided_fields[SEC_GUIDED__COUNT] = {
	[SEC_GUIDED_GUID] = {"SectionDefinitionGuid", FW_FT_GUID, 0, 0, 0, NULL},
	[SEC_GUIDED_DATA_OFFSET] = {"DataOffset", FW_FT_U16, 16, 0, FW_FF_HEX, NULL},
	[SEC_GUIDED_ATTRIBUTES] = {"Attributes", FW_FT_U16, 18, 0, FW_FF_FLAGS, &fw_guided_attribute_names},
};
const struct fw_layout fw_section_guided_layout = FW_LAYOUT("GUID-defined section header", 20, guided_fields);

static const struct fw_field freeform_fields[SEC_FREEFORM__COUNT] = {
	[SEC_FREEFORM_SUBTYPE_GUID] = {"SubTypeGuid", FW_FT_GUID, 0, 0, 0, NULL},
};
const struct fw_layout fw_section_freeform_layout = FW_LAYOUT("freeform subtype section header", 16, freeform_fields);

static const struct fw_field version_fields[SEC_VERSION__COUNT] = {
	[SEC_VERSION_BUILD_NUMBER] = {"BuildNumber", FW_FT_U16, 0, 0, 0, NULL},
};
const struct fw_layout fw_section_version_layout = FW_LAYOUT("version section header", 2, version_fields);

const char *fw_section_type_name(uint8_t type)
{
	switch (type) {
	case FW_SECTION_COMPRESSION: return "Compressed";
	case FW_SECTION_GUID_DEFINED: return "GUID defined";
	case FW_SECTION_DISPOSABLE: return "Disposable";
	case FW_SECTION_PE32: return "PE32 image";
	case FW_SECTION_PIC: return "PIC image";
	case FW_SECTION_TE: return "TE image";
	case FW_SECTION_DXE_DEPEX: return "DXE dependency";
	case FW_SECTION_VERSION: return "Version";
	case FW_SECTION_USER_INTERFACE: return "UI";
	case FW_SECTION_COMPATIBILITY16: return "16-bit image";
	case FW_SECTION_FIRMWARE_VOLUME_IMAGE: return "Volume image";
	case FW_SECTION_FREEFORM_SUBTYPE_GUID: return "Freeform subtype GUID";
	case FW_SECTION_RAW: return "Raw";
	case FW_SECTION_PEI_DEPEX: return "PEI dependency";
	case FW_SECTION_MM_DEPEX: return "MM dependency";
	case FW_SECTION_INSYDE_POSTCODE: return "Insyde postcode";
	case FW_SECTION_PHOENIX_POSTCODE: return "Phoenix postcode";
	}
	return "Unknown";
}

const struct fw_guid fw_guid_section_tiano = FW_GUID_INIT(0xA31280AD, 0x481E, 0x41B6, 0x95, 0xE8, 0x12, 0x7F, 0x4C, 0x98, 0x47, 0x79);
const struct fw_guid fw_guid_section_lzma = FW_GUID_INIT(0xEE4E5898, 0x3914, 0x4259, 0x9D, 0x6E, 0xDC, 0x7B, 0xD7, 0x94, 0x03, 0xCF);
const struct fw_guid fw_guid_section_lzma_hp = FW_GUID_INIT(0x0ED85E23, 0xF253, 0x413F, 0xA0, 0x3C, 0x90, 0x19, 0x87, 0xB0, 0x43, 0x97);
const struct fw_guid fw_guid_section_lzma_f86 = FW_GUID_INIT(0xD42AE6BD, 0x1352, 0x4BFB, 0x90, 0x9A, 0xCA, 0x72, 0xA6, 0xEA, 0xE8, 0x89);
const struct fw_guid fw_guid_section_brotli = FW_GUID_INIT(0x3D532050, 0x5CDA, 0x4FD0, 0x87, 0x9E, 0x0F, 0x7F, 0x63, 0x0D, 0x5A, 0xFB);
const struct fw_guid fw_guid_section_crc32 = FW_GUID_INIT(0xFC1BCDB0, 0x7D31, 0x49AA, 0x93, 0x6A, 0xA4, 0x60, 0x0D, 0x9D, 0xD0, 0x83);
const struct fw_guid fw_guid_section_gzip = FW_GUID_INIT(0x1D301FE9, 0xBE79, 0x4353, 0x91, 0xC2, 0xD2, 0x3B, 0xC9, 0x59, 0xAE, 0x0C);
const struct fw_guid fw_guid_section_amd_zlib = FW_GUID_INIT(0xCE3233F5, 0x2CD6, 0x4D87, 0x91, 0x52, 0x4A, 0x23, 0x8B, 0xB6, 0xD1, 0xC4);
const struct fw_guid fw_guid_section_firmware_contents_signed =
	FW_GUID_INIT(0x0F9D89E8, 0x9259, 0x4F76, 0xA5, 0xAF, 0x0C, 0x89, 0xE3, 0x40, 0x23, 0xDF);
const struct fw_guid fw_guid_section_rsa2048_sha256 =
	FW_GUID_INIT(0xA7717414, 0xC616, 0x4977, 0x94, 0x20, 0x84, 0x47, 0x12, 0xA7, 0x35, 0xBF);

/* --- parsing --------------------------------------------------------------------------------- */

const struct fw_guid fw_guid_pei_apriori = FW_GUID_INIT(0x1B45CC0A, 0x156A, 0x428A, 0xAF, 0x62, 0x49, 0x86, 0x4D, 0xA0, 0xE6, 0xE6);
const struct fw_guid fw_guid_dxe_apriori = FW_GUID_INIT(0xFC510EE7, 0xFFDC, 0x11D4, 0xBD, 0x41, 0x00, 0x80, 0xC7, 0x3C, 0x88, 0x81);

static bool known_type(uint8_t type)
{
	return type == FW_SECTION_COMPRESSION || type == FW_SECTION_GUID_DEFINED || type == FW_SECTION_DISPOSABLE ||
	       (type >= FW_SECTION_PE32 && type <= FW_SECTION_RAW) || type == FW_SECTION_PEI_DEPEX ||
	       type == FW_SECTION_MM_DEPEX;
}

/* Size and header length of the section at b[off]; false when it cannot be one. */
static bool section_size(const uint8_t *b, size_t n, size_t off, size_t *size, size_t *hdr)
{
	if (n - off < FW_SECTION_HEADER_SIZE)
		return false;
	uint32_t sz = fw_le24(b + off);
	*hdr = FW_SECTION_HEADER_SIZE;
	if (sz == FW_SECTION_SIZE_EXTENDED) {
		if (n - off < FW_SECTION_HEADER2_SIZE)
			return false;
		sz = fw_le32(b + off + 4);
		*hdr = FW_SECTION_HEADER2_SIZE;
	}
	if (sz < *hdr || sz > n - off)
		return false;
	*size = sz;
	return true;
}

bool fw_sections_plausible(const uint8_t *b, size_t n)
{
	size_t off = 0, count = 0;
	while (off < n) {
		size_t size, hdr;
		if (!section_size(b, n, off, &size, &hdr) || !known_type(b[off + 3]))
			return false;
		count++;
		off += size;
		if (off & 3)
			off = (off + 3) & ~(size_t)3;
	}
	return count > 0;
}

/* The section stays opaque: its data is kept, its children are not parsed. */
static void opaque(struct fw_parser *p, struct fw_node *n, enum fw_diag_severity sev, const char *what, const char *msg)
{
	char at[48];
	n->flags |= FW_NODE_F_OPAQUE;
	fw_node_diag(p->t, n, sev, n->offset, "%s at %s: %s", what, fw_offset_str(n->offset, at, sizeof(at)), msg);
}

/* Take ownership of inflated bytes and make them the node's body. */
static bool adopt(struct fw_parser *p, struct fw_node *n, uint8_t *buf, size_t len, const char *algo)
{
	struct fw_error e;
	if (!fw_tree_account_decompressed(p->t, len, &e)) {
		free(buf);
		opaque(p, n, FW_DIAG_ERROR, "compressed section", e.msg);
		return false;
	}
	fw_tree_own(p->t, buf, len);
	n->body = fw_view_make(buf, len, FW_OFFSET_UNKNOWN);
	n->flags |= FW_NODE_F_COMPRESSED;
	fw_node_field_str(p->t, n, "Algorithm", algo);
	fw_node_field_uint(p->t, n, "DecompressedSize", len, FW_FMT_HEX);
	return true;
}

static bool inflate_one(struct fw_parser *p, struct fw_node *n, enum fw_algo a, const struct fw_view *in)
{
	if (p->flags & FW_PARSE_LAYOUT_ONLY) {
		if (p->prefetch)
			fw_prefetch_add(p->prefetch, a, in->p, in->len);
		fw_node_field_str(p->t, n, "Algorithm", fw_algo_title(a));
		return false;
	}
	uint8_t *buf = NULL;
	size_t len = 0;
	struct fw_inflate_info info;
	struct fw_error e;
	fw_error_clear(&e);
	bool ok;
	if (!fw_prefetch_take(p->prefetch, a, in->p, in->len, &ok, &buf, &len, &info, &e))
		ok = fw_decompress(a, in->p, in->len, fw_tree_inflate_cap(p->t), &buf, &len, &info, &e);
	if (!ok) {
		fw_node_field_str(p->t, n, "Algorithm", fw_algo_title(a));
		fw_tree_name_inflate_limit(p->t, &e);
		opaque(p, n, FW_DIAG_ERROR, "compressed section", e.msg);
		return false;
	}
	if (!adopt(p, n, buf, len, fw_algo_title(a)))
		return false;
	if (a == FW_ALGO_LZMA || a == FW_ALGO_LZMA_F86)
		fw_node_field_uint(p->t, n, "DictionarySize", info.dict_size, FW_FMT_HEX);
	if (info.skipped)
		fw_node_diag(p->t, n, FW_DIAG_INFO, n->offset, "LZMA data starts %zu bytes into the section (Intel legacy layout)",
			     info.skipped);
	return true;
}

/* EFI 1.1 and Tiano share one header and differ in one field width, so both may decode the same
 * data; the output that parses as a section stream wins (UEFITool decides the same way). */
static bool inflate_efi(struct fw_parser *p, struct fw_node *n, bool prefer_tiano, const struct fw_view *in)
{
	enum fw_algo first = prefer_tiano ? FW_ALGO_TIANO : FW_ALGO_EFI11;
	enum fw_algo second = prefer_tiano ? FW_ALGO_EFI11 : FW_ALGO_TIANO;
	if (p->flags & FW_PARSE_LAYOUT_ONLY) {
		fw_node_field_str(p->t, n, "Algorithm", "EFI 1.1 or Tiano");
		return false;
	}
	size_t cap = fw_tree_inflate_cap(p->t);
	uint8_t *b1 = NULL, *b2 = NULL;
	size_t l1 = 0, l2 = 0;
	struct fw_error e1, e2;
	fw_error_clear(&e1);
	fw_error_clear(&e2);
	bool ok1 = fw_decompress(first, in->p, in->len, cap, &b1, &l1, NULL, &e1);
	/* an output that parses as sections needs no second decoding: it would be kept anyway */
	if (ok1 && fw_sections_plausible(b1, l1))
		return adopt(p, n, b1, l1, fw_algo_title(first));
	bool ok2 = fw_decompress(second, in->p, in->len, cap, &b2, &l2, NULL, &e2);
	if (ok1 && ok2) {
		bool same = l1 == l2 && memcmp(b1, b2, l1) == 0;
		if (!same && !fw_sections_plausible(b1, l1) && fw_sections_plausible(b2, l2)) {
			free(b1);
			return adopt(p, n, b2, l2, fw_algo_title(second));
		}
		if (!same && !fw_sections_plausible(b1, l1))
			fw_node_diag(p->t, n, FW_DIAG_WARN, n->offset,
				     "both EFI 1.1 and Tiano decode this section and neither output parses; kept %s",
				     fw_algo_title(first));
		free(b2);
		return adopt(p, n, b1, l1, fw_algo_title(first));
	}
	if (ok1)
		return adopt(p, n, b1, l1, fw_algo_title(first));
	if (ok2)
		return adopt(p, n, b2, l2, fw_algo_title(second));
	fw_node_field_str(p->t, n, "Algorithm", "EFI 1.1 or Tiano");
	fw_tree_name_inflate_limit(p->t, &e1);
	opaque(p, n, FW_DIAG_ERROR, "compressed section", e1.msg);
	return false;
}

/* --- per type ---------------------------------------------------------------------------------- */

static bool sec_compression(struct fw_parser *p, struct fw_node *n, const struct fw_view *v, size_t hdr,
			    struct fw_error *err)
{
	const struct fw_layout *l = &fw_section_compression_layout;
	if (!fw_layout_check(l, v, hdr, NULL)) {
		opaque(p, n, FW_DIAG_ERROR, "compression section", "header is truncated");
		return true;
	}
	fw_layout_emit(p->t, n, l, v, hdr);
	uint32_t declared = (uint32_t)fw_layout_get(l, v, hdr, SEC_COMPRESSION_UNCOMPRESSED_LENGTH);
	uint8_t type = (uint8_t)fw_layout_get(l, v, hdr, SEC_COMPRESSION_TYPE);
	n->header_size = (uint32_t)(hdr + l->size);
	struct fw_view in;
	fw_rd_tail(v, n->header_size, &in, NULL);
	n->body = in;
	bool ok;
	switch (type) {
	case FW_COMPRESSION_NONE:
		fw_node_field_str(p->t, n, "Algorithm", "none");
		ok = true;
		break;
	case FW_COMPRESSION_STANDARD:
		ok = inflate_efi(p, n, false, &in);
		break;
	case FW_COMPRESSION_LZMA_CUSTOM:
		ok = inflate_one(p, n, FW_ALGO_LZMA, &in);
		break;
	case FW_COMPRESSION_LZMA_F86_CUSTOM:
		ok = inflate_one(p, n, FW_ALGO_LZMA_F86, &in);
		break;
	default: {
		char msg[64];
		snprintf(msg, sizeof(msg), "unknown compression type 0x%02x", type);
		opaque(p, n, FW_DIAG_WARN, "compression section", msg);
		return true;
	}
	}
	if (!ok)
		return true;
	if (n->body.len != declared)
		fw_node_diag(p->t, n, FW_DIAG_WARN, n->offset, "compression section: 0x%zx bytes decompressed, UncompressedLength says 0x%x",
			     n->body.len, declared);
	return fw_parse_sections(p, n, &n->body, err);
}

enum guided_kind { G_INFLATE, G_EFI, G_CRC32, G_SIGNED_WIN_CERT, G_SIGNED_RSA2048 };

static const struct {
	const struct fw_guid *guid;
	enum guided_kind kind;
	enum fw_algo algo;
} guided_table[] = {
	{&fw_guid_section_lzma, G_INFLATE, FW_ALGO_LZMA},
	{&fw_guid_section_lzma_hp, G_INFLATE, FW_ALGO_LZMA},
	{&fw_guid_section_lzma_f86, G_INFLATE, FW_ALGO_LZMA_F86},
	{&fw_guid_section_brotli, G_INFLATE, FW_ALGO_BROTLI},
	{&fw_guid_section_amd_zlib, G_INFLATE, FW_ALGO_ZLIB_AMD},
	{&fw_guid_section_gzip, G_INFLATE, FW_ALGO_GZIP},
	{&fw_guid_section_tiano, G_EFI, FW_ALGO_TIANO},
	{&fw_guid_section_crc32, G_CRC32, 0},
	{&fw_guid_section_firmware_contents_signed, G_SIGNED_WIN_CERT, 0},
	{&fw_guid_section_rsa2048_sha256, G_SIGNED_RSA2048, 0},
};
#define RSA2048_SHA256_CERT_BLOCK 528 /* EFI_CERT_BLOCK_RSA_2048_SHA256: HashType, PublicKey, Signature */

static bool sec_guided(struct fw_parser *p, struct fw_node *n, const struct fw_view *v, size_t hdr,
		       struct fw_error *err)
{
	const struct fw_layout *l = &fw_section_guided_layout;
	char at[48];
	fw_offset_str(n->offset, at, sizeof(at));
	if (!fw_layout_check(l, v, hdr, NULL)) {
		opaque(p, n, FW_DIAG_ERROR, "GUID-defined section", "header is truncated");
		return true;
	}
	fw_layout_emit(p->t, n, l, v, hdr);
	struct fw_guid g;
	fw_layout_get_guid(l, v, hdr, SEC_GUIDED_GUID, &g);
	fw_node_set_guid(n, &g);
	n->name = fw_guid_name(&g);
	uint16_t data_off = (uint16_t)fw_layout_get(l, v, hdr, SEC_GUIDED_DATA_OFFSET);
	uint16_t attr = (uint16_t)fw_layout_get(l, v, hdr, SEC_GUIDED_ATTRIBUTES);
	if (data_off < hdr + l->size || data_off > v->len) {
		char msg[96];
		snprintf(msg, sizeof(msg), "DataOffset 0x%x is outside 0x%zx..0x%zx", data_off, hdr + l->size, v->len);
		n->header_size = (uint32_t)(hdr + l->size);
		opaque(p, n, FW_DIAG_ERROR, "GUID-defined section", msg);
		return true;
	}
	n->header_size = data_off;
	struct fw_view data;
	fw_rd_tail(v, data_off, &data, NULL);
	n->body = data;
	size_t i;
	for (i = 0; i < sizeof(guided_table) / sizeof(guided_table[0]); i++)
		if (fw_guid_eq(&g, guided_table[i].guid))
			break;
	if (i == sizeof(guided_table) / sizeof(guided_table[0])) {
		if (attr & FW_GUIDED_PROCESSING_REQUIRED) {
			char gs[FW_GUID_STR_LEN];
			fw_guid_format(&g, gs);
			{
				char msg[96];
				snprintf(msg, sizeof(msg), "unknown GUID %s needs processing; data not parsed", gs);
				opaque(p, n, FW_DIAG_WARN, "GUID-defined section", msg);
			}
			return true;
		}
		return fw_parse_sections(p, n, &data, err);
	}
	switch (guided_table[i].kind) {
	case G_INFLATE:
		if (!inflate_one(p, n, guided_table[i].algo, &data))
			return true;
		break;
	case G_EFI:
		if (!inflate_efi(p, n, true, &data))
			return true;
		break;
	case G_CRC32: {
		if (data_off < hdr + l->size + 4) {
			opaque(p, n, FW_DIAG_ERROR, "CRC32 section", "no room for the CRC32 before DataOffset");
			return true;
		}
		uint32_t want = fw_le32(v->p + hdr + l->size), got = fw_crc32(data.p, data.len);
		fw_node_field_uint(p->t, n, "Crc32", want, FW_FMT_HEX);
		fw_node_field_bool(p->t, n, "Crc32Valid", want == got);
		if (want != got && !(p->flags & FW_PARSE_IGNORE_CHECKSUM)) {
			n->flags |= FW_NODE_F_CHECKSUM_BAD;
			fw_node_diag(p->t, n, FW_DIAG_ERROR, n->offset, "CRC32 section at %s: CRC32 0x%08x is invalid, data gives 0x%08x",
				     at, want, got);
		}
		break;
	}
	case G_SIGNED_WIN_CERT: {
		/* WIN_CERTIFICATE {u32 dwLength, ...} at DataOffset; the signed data follows it. */
		uint32_t cert_len;
		if (!fw_rd_u32(&data, 0, &cert_len, NULL) || cert_len < 8 || cert_len > data.len) {
			opaque(p, n, FW_DIAG_ERROR, "signed section", "WIN_CERTIFICATE length does not fit the section");
			return true;
		}
		fw_node_field_uint(p->t, n, "CertificateLength", cert_len, FW_FMT_HEX);
		n->header_size = (uint32_t)(data_off + cert_len);
		fw_rd_tail(&data, cert_len, &n->body, NULL);
		break;
	}
	case G_SIGNED_RSA2048:
		if (data.len < RSA2048_SHA256_CERT_BLOCK) {
			opaque(p, n, FW_DIAG_ERROR, "signed section", "RSA2048/SHA256 certificate block is truncated");
			return true;
		}
		n->header_size = (uint32_t)(data_off + RSA2048_SHA256_CERT_BLOCK);
		fw_rd_tail(&data, RSA2048_SHA256_CERT_BLOCK, &n->body, NULL);
		break;
	}
	return fw_parse_sections(p, n, &n->body, err);
}

static bool sec_encapsulation(struct fw_parser *p, struct fw_node *n, const struct fw_view *v, size_t hdr,
			      struct fw_error *err)
{
	return fw_parse_sections(p, n, &n->body, err);
}

static bool sec_image(struct fw_parser *p, struct fw_node *n, const struct fw_view *v, size_t hdr, struct fw_error *err)
{
	if (n->body.len == 0) {
		fw_node_diag(p->t, n, FW_DIAG_WARN, n->offset, "image section has an empty body");
		return true;
	}
	uint8_t type = v->p[3];
	if (type == FW_SECTION_TE)
		fw_te_summarize(p->t, n, &n->body);
	else
		fw_pe_summarize(p->t, n, &n->body);
	return true;
}

static bool sec_depex(struct fw_parser *p, struct fw_node *n, const struct fw_view *v, size_t hdr, struct fw_error *err)
{
	char msg[160], buf[FW_DEPEX_TEXT_MAX];
	const char *text = fw_depex_text(n->body.p, n->body.len, buf, msg, sizeof(msg));
	fw_node_field_str(p->t, n, "Expression", text);
	if (msg[0])
		fw_node_diag(p->t, n, FW_DIAG_WARN, n->offset, "dependency expression: %s", msg);
	return true;
}

/* UCS-2 text of b[0..n) into buf (at most FW_SECTION_TEXT_MAX characters kept). */
static const char *ucs2_text(const uint8_t *b, size_t n, char *buf, size_t buflen)
{
	size_t units = n / 2;
	if (units > FW_SECTION_TEXT_MAX)
		units = FW_SECTION_TEXT_MAX;
	return fw_ucs2_to_utf8_buf(b, units, buf, buflen);
}

/* Say so when a UI or version text is longer than what is kept. */
static void note_cut_text(struct fw_parser *p, struct fw_node *n)
{
	size_t units = fw_ucs2_len(n->body.p, n->body.len / 2, NULL);
	if (units > FW_SECTION_TEXT_MAX)
		fw_node_diag(p->t, n, FW_DIAG_INFO, n->offset, "text of %zu characters cut to the limit of %d", units,
			     FW_SECTION_TEXT_MAX);
}

static bool sec_version(struct fw_parser *p, struct fw_node *n, const struct fw_view *v, size_t hdr,
			struct fw_error *err)
{
	if (!fw_layout_check(&fw_section_version_layout, v, hdr, NULL)) {
		fw_node_diag(p->t, n, FW_DIAG_WARN, n->offset, "version section has no build number");
		return true;
	}
	fw_layout_emit(p->t, n, &fw_section_version_layout, v, hdr);
	n->header_size = (uint32_t)(hdr + fw_section_version_layout.size);
	fw_rd_tail(v, n->header_size, &n->body, NULL);
	char buf[4 * FW_SECTION_TEXT_MAX];
	fw_node_field_str(p->t, n, "Version", ucs2_text(n->body.p, n->body.len, buf, sizeof(buf)));
	note_cut_text(p, n);
	return true;
}

static bool sec_ui(struct fw_parser *p, struct fw_node *n, const struct fw_view *v, size_t hdr, struct fw_error *err)
{
	char buf[4 * FW_SECTION_TEXT_MAX];
	const char *text = ucs2_text(n->body.p, n->body.len, buf, sizeof(buf));
	fw_node_field_str(p->t, n, "Text", text);
	note_cut_text(p, n);
	struct fw_node *file = fw_node_file_of(n->parent);
	if (file && text[0])
		fw_node_set_name(p->t, file, text);
	return true;
}

static bool sec_volume(struct fw_parser *p, struct fw_node *n, const struct fw_view *v, size_t hdr, struct fw_error *err)
{
	uint64_t fv_len;
	if (fw_volume_probe(&n->body, 0, false, &fv_len)) {
		struct fw_view fv;
		size_t len = fv_len < n->body.len ? (size_t)fv_len : n->body.len;
		fw_rd_sub(&n->body, 0, len, &fv, NULL);
		struct fw_node *vol = fw_parse_volume(p, n, &fv, err);
		if (!vol)
			return false;
		if (len < fv_len)
			fw_node_diag(p->t, vol, FW_DIAG_ERROR, vol->offset,
				     "volume FvLength 0x%" PRIx64 " is larger than its section body (0x%zx bytes)", fv_len, len);
		if (len < n->body.len) {
			struct fw_view rest;
			fw_rd_tail(&n->body, len, &rest, NULL);
			if (!fw_all_bytes(rest.p, rest.len, 0xFF) && !fw_all_bytes(rest.p, rest.len, 0))
				fw_node_diag(p->t, n, FW_DIAG_WARN, rest.base, "0x%zx bytes after the volume in its section", rest.len);
		}
		return true;
	}
	size_t found = 0;
	if (!fw_parse_raw_area(p, n, &n->body, false, &found, err))
		return false;
	if (!found)
		opaque(p, n, FW_DIAG_WARN, "volume image section", "no firmware volume inside");
	return true;
}

static bool scan_raw(struct fw_parser *p, struct fw_node *n, struct fw_error *err)
{
	if (p->flags & FW_PARSE_NO_SEARCH)
		return true;
	return fw_parse_raw_area(p, n, &n->body, false, NULL, err);
}

static bool sec_freeform(struct fw_parser *p, struct fw_node *n, const struct fw_view *v, size_t hdr,
			 struct fw_error *err)
{
	if (!fw_layout_check(&fw_section_freeform_layout, v, hdr, NULL)) {
		opaque(p, n, FW_DIAG_ERROR, "freeform section", "header is truncated");
		return true;
	}
	fw_layout_emit(p->t, n, &fw_section_freeform_layout, v, hdr);
	struct fw_guid g;
	fw_layout_get_guid(&fw_section_freeform_layout, v, hdr, SEC_FREEFORM_SUBTYPE_GUID, &g);
	fw_node_set_guid(n, &g);
	n->name = fw_guid_name(&g);
	n->header_size = (uint32_t)(hdr + fw_section_freeform_layout.size);
	fw_rd_tail(v, n->header_size, &n->body, NULL);
	return scan_raw(p, n, err);
}

static bool sec_raw(struct fw_parser *p, struct fw_node *n, const struct fw_view *v, size_t hdr, struct fw_error *err)
{
	struct fw_node *file = fw_node_file_of(n->parent);
	if (file && (fw_guid_eq(&file->guid, &fw_guid_pei_apriori) || fw_guid_eq(&file->guid, &fw_guid_dxe_apriori))) {
		/* An apriori list: the GUIDs of the modules dispatched first. */
		char list[2048];
		size_t used = 0;
		list[0] = '\0';
		for (size_t off = 0; off + 16 <= n->body.len && used < sizeof(list) - 80; off += 16) {
			struct fw_guid g;
			memcpy(g.b, n->body.p + off, 16);
			const char *nm = fw_guid_name(&g);
			char gs[FW_GUID_STR_LEN];
			used += (size_t)snprintf(list + used, sizeof(list) - used, "%s%s", used ? ", " : "",
						 nm ? nm : fw_guid_format(&g, gs));
		}
		fw_node_field_str(p->t, n, "Apriori", list);
		return true;
	}
	if (file && (fw_guid_eq(&file->guid, &fw_guid_ami_nvram_dxe_defaults) ||
		     fw_guid_eq(&file->guid, &fw_guid_ami_nvram_pei_defaults) ||
		     fw_guid_eq(&file->guid, &fw_guid_ami_nvram_bb_defaults))) {
		fw_parse_nvar_store(p, n, &n->body);
		return true;
	}
	return scan_raw(p, n, err);
}

static bool sec_postcode(struct fw_parser *p, struct fw_node *n, const struct fw_view *v, size_t hdr,
			 struct fw_error *err)
{
	uint32_t code;
	if (fw_rd_u32(v, hdr, &code, NULL)) {
		fw_node_field_uint(p->t, n, "Postcode", code, FW_FMT_HEX);
		n->header_size = (uint32_t)(hdr + 4);
		fw_rd_tail(v, n->header_size, &n->body, NULL);
	}
	return true;
}

static bool sec_plain(struct fw_parser *p, struct fw_node *n, const struct fw_view *v, size_t hdr, struct fw_error *err)
{
	return true;
}

typedef bool (*section_fn)(struct fw_parser *, struct fw_node *, const struct fw_view *, size_t, struct fw_error *);

/* To support a new section type: a name in fw_section_type_name, a handler here, and the type in
 * known_type() when it may start a section stream. */
static section_fn handler_of(uint8_t type)
{
	switch (type) {
	case FW_SECTION_COMPRESSION: return sec_compression;
	case FW_SECTION_GUID_DEFINED: return sec_guided;
	case FW_SECTION_DISPOSABLE: return sec_encapsulation;
	case FW_SECTION_PE32:
	case FW_SECTION_PIC:
	case FW_SECTION_TE: return sec_image;
	case FW_SECTION_DXE_DEPEX:
	case FW_SECTION_PEI_DEPEX:
	case FW_SECTION_MM_DEPEX: return sec_depex;
	case FW_SECTION_VERSION: return sec_version;
	case FW_SECTION_USER_INTERFACE: return sec_ui;
	case FW_SECTION_COMPATIBILITY16: return sec_plain;
	case FW_SECTION_FIRMWARE_VOLUME_IMAGE: return sec_volume;
	case FW_SECTION_FREEFORM_SUBTYPE_GUID: return sec_freeform;
	case FW_SECTION_RAW: return sec_raw;
	case FW_SECTION_INSYDE_POSTCODE:
	case FW_SECTION_PHOENIX_POSTCODE: return sec_postcode;
	}
	return NULL;
}

struct fw_node *fw_parse_section(struct fw_parser *p, struct fw_node *parent, const struct fw_view *v, size_t *used,
				 struct fw_error *err)
{
	size_t size, hdr;
	if (!section_size(v->p, v->len, 0, &size, &hdr))
		return NULL;
	uint8_t type = v->p[3];
	struct fw_view sv;
	fw_rd_sub(v, 0, size, &sv, NULL);
	struct fw_node *n = fw_node_add(p->t, parent, FW_NODE_SECTION, fw_section_type_name(type), &sv, err);
	if (!n)
		return NULL;
	n->header_size = (uint32_t)hdr;
	fw_rd_tail(&sv, hdr, &n->body, NULL);
	if (hdr == FW_SECTION_HEADER2_SIZE)
		fw_node_field_uint(p->t, n, "ExtendedSize", size, FW_FMT_HEX);
	*used = size;
	section_fn fn = handler_of(type);
	if (!fn) {
		char msg[48];
		snprintf(msg, sizeof(msg), "unknown section type 0x%02x", type);
		opaque(p, n, FW_DIAG_WARN, "section", msg);
		return n;
	}
	if (!fn(p, n, &sv, hdr, err))
		return NULL;
	return n;
}

bool fw_parse_sections(struct fw_parser *p, struct fw_node *parent, const struct fw_view *v, struct fw_error *err)
{
	size_t off = 0;
	while (off < v->len) {
		struct fw_view rest;
		fw_rd_tail(v, off, &rest, NULL);
		size_t used = 0, size, hdr;
		if (!section_size(rest.p, rest.len, 0, &size, &hdr)) {
			/* Zero or erase-byte padding of less than a header ends a stream quietly. */
			if (rest.len < FW_SECTION_HEADER_SIZE &&
			    (fw_all_bytes(rest.p, rest.len, 0) || fw_all_bytes(rest.p, rest.len, 0xFF)))
				return true;
			struct fw_node *n = fw_node_add(p->t, parent, FW_NODE_PADDING, "Non-UEFI data", &rest, err);
			if (!n)
				return false;
			char at[48];
			n->flags |= FW_NODE_F_OPAQUE;
			fw_node_diag(p->t, n, FW_DIAG_WARN, rest.base,
				     "section header at %s: 0x%zx bytes that are not a section (size field 0x%x)",
				     fw_offset_str(rest.base, at, sizeof(at)), rest.len,
				     rest.len >= 3 ? fw_le24(rest.p) : 0);
			return true;
		}
		if (!fw_parse_section(p, parent, &rest, &used, err))
			return false;
		off += used;
		if (!fw_align_up(off, 4, &off))
			break;
	}
	return true;
}
