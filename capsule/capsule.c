/* Capsule headers (reference/formats.md 1): the EFI capsule header, FMP capsules, and the AMI
 * Aptio FW capsule of ASUS .CAP files with its firmware certificate (RSA-2048/SHA-256 blocks or
 * PKCS#7), root-key blocks and ROM area map (or the HMFT hash manifest that replaces it).
 *
 * The capsule node carries the decoded header as fields and a struct fw_capsule as `ext`; the
 * payload window (the ROM image) is returned for the caller to parse as the capsule's child. */
#include "capsule.h"

#include <string.h>

#include "aptio.h"
#include "parsers/hash.h"
#include "parsers/vss.h"

const char *fw_capsule_kind_name(enum fw_capsule_kind k)
{
	switch (k) {
	case FW_CAPSULE_EFI: return "UEFI 2.0";
	case FW_CAPSULE_FMP: return "FMP";
	case FW_CAPSULE_APTIO_SIGNED: return "Aptio signed";
	case FW_CAPSULE_APTIO_UNSIGNED: return "Aptio unsigned";
	}
	return "?";
}

const struct fw_capsule *fw_capsule_of(const struct fw_node *n)
{
	return n && n->kind == FW_NODE_CAPSULE ? n->ext : NULL;
}

bool fw_capsule_probe(const struct fw_view *v)
{
	struct fw_guid g;
	if (!fw_rd_guid(v, 0, &g, NULL) || !fw_view_has(v, 0, FW_EFI_CAPSULE_HEADER_SIZE))
		return false;
	return fw_guid_eq(&g, &fw_guid_capsule_aptio_signed) || fw_guid_eq(&g, &fw_guid_capsule_aptio_unsigned) ||
	       fw_guid_eq(&g, &fw_guid_capsule_efi) || fw_guid_eq(&g, &fw_guid_capsule_fmp);
}

static void field_key_sha256(struct fw_tree *t, struct fw_node *n, const char *key, const uint8_t *modulus)
{
	char hex[FW_SHA256_HEX_LEN];
	fw_node_field_str(t, n, key, fw_sha256_hex(modulus, FW_RSA2048_BYTES, hex));
}

static void read_rsa_block(const struct fw_view *v, size_t off, struct fw_rsa_block *b)
{
	b->offset = fw_view_abs(v, off);
	memcpy(b->hash_type.b, v->p + off, 16);
	b->key = v->p + off + 16;
	b->signature = v->p + off + 16 + FW_RSA2048_BYTES;
}

/* FW_CERTIFICATE at 0x20: SignCert (WIN_CERTIFICATE_UEFI_GUID + CertData), then RootCerts up to
 * dwLength. The certificate must end before the ROM area map and the ROM image. */
static void parse_certificate(struct fw_tree *t, struct fw_node *n, struct fw_capsule *c)
{
	const struct fw_view *v = &c->whole;
	size_t hdr_end = c->header.len;
	if (hdr_end < FW_APTIO_CERT_OFFSET + FW_APTIO_CERT_DATA_OFFSET) {
		fw_node_diag(t, n, FW_DIAG_WARN, v->base, "Aptio capsule: the header has no room for a certificate");
		return;
	}
	size_t off = FW_APTIO_CERT_OFFSET;
	c->cert_length = fw_le32(v->p + off);
	uint16_t revision = fw_le16(v->p + off + 4), type = fw_le16(v->p + off + 6);
	memcpy(c->cert_type.b, v->p + off + 8, 16);
	fw_node_field_uint(t, n, "CertLength", c->cert_length, FW_FMT_HEX);
	fw_node_field_uint(t, n, "CertRevision", revision, FW_FMT_HEX);
	fw_node_field_uint(t, n, "CertificateType", type, FW_FMT_HEX);
	fw_node_field_guid(t, n, "CertType", &c->cert_type);
	const char *tname = fw_guid_name(&c->cert_type);
	if (tname)
		fw_node_field_str(t, n, "CertType name", tname);
	if (type != FW_WIN_CERT_TYPE_EFI_GUID)
		fw_node_diag(t, n, FW_DIAG_WARN, fw_view_abs(v, off + 6),
			     "Aptio certificate type 0x%04X is not WIN_CERT_TYPE_EFI_GUID (0x0EF1)", type);
	if (c->cert_length < FW_APTIO_CERT_DATA_OFFSET || c->cert_length > hdr_end - off) {
		fw_node_diag(t, n, FW_DIAG_ERROR, fw_view_abs(v, off),
			     "Aptio certificate length 0x%X does not fit the 0x%zX-byte capsule header", c->cert_length, hdr_end);
		c->cert_form = FW_CERT_UNKNOWN;
		return;
	}
	if (fw_guid_eq(&c->cert_type, &fw_guid_cert_pkcs7)) {
		c->cert_form = FW_CERT_PKCS7;
		fw_rd_sub(v, off + FW_APTIO_CERT_DATA_OFFSET, c->cert_length - FW_APTIO_CERT_DATA_OFFSET, &c->pkcs7, NULL);
		fw_rd_sub(v, off, c->cert_length, &c->sign_cert, NULL);
		fw_node_field_str(t, n, "CertForm", "PKCS#7");
		fw_node_field_uint(t, n, "Pkcs7Size", c->pkcs7.len, FW_FMT_HEX);
		return;
	}
	if (!fw_guid_eq(&c->cert_type, &fw_guid_cert_rsa2048_sha256)) {
		c->cert_form = FW_CERT_UNKNOWN;
		fw_node_diag(t, n, FW_DIAG_WARN, fw_view_abs(v, off + 8), "Aptio certificate type GUID is not one fwlens knows");
		return;
	}
	if (c->cert_length < FW_APTIO_SIGN_CERT_SIZE) {
		c->cert_form = FW_CERT_UNKNOWN;
		fw_node_diag(t, n, FW_DIAG_ERROR, fw_view_abs(v, off),
			     "Aptio certificate length 0x%X is shorter than an RSA-2048 SignCert (0x228)", c->cert_length);
		return;
	}
	c->cert_form = FW_CERT_RSA2048_SHA256;
	fw_rd_sub(v, off, FW_APTIO_SIGN_CERT_SIZE, &c->sign_cert, NULL);
	read_rsa_block(v, off + FW_APTIO_CERT_DATA_OFFSET, &c->sign);
	fw_node_field_str(t, n, "CertForm", "RSA2048_SHA256");
	fw_node_field_guid(t, n, "HashType", &c->sign.hash_type);
	if (!fw_guid_eq(&c->sign.hash_type, &fw_guid_hash_sha256))
		fw_node_diag(t, n, FW_DIAG_WARN, c->sign.offset, "SignCert hash type is not SHA-256");
	fw_node_field_uint(t, n, "KeyBits", 8 * FW_RSA2048_BYTES, FW_FMT_DEC);
	field_key_sha256(t, n, "SignKeySha256", c->sign.key);
	fw_node_field_str(t, n, "SignatureScheme",
			  (c->flags & FW_APTIO_FLAG_RSA_PSS) ? "RSASSA-PSS SHA-256" : "RSASSA-PKCS1-v1_5 SHA-256");
	/* RootCerts follow while inside dwLength and while their key is not empty (AMI stops at a
	 * zero first key byte). */
	size_t end = off + c->cert_length;
	for (size_t r = off + FW_APTIO_SIGN_CERT_SIZE; r + FW_APTIO_ROOT_CERT_SIZE <= end && c->nroots < FW_CAPSULE_MAX_ROOTS;
	     r += FW_APTIO_ROOT_CERT_SIZE) {
		if (v->p[r + 16] == 0)
			break;
		struct fw_rsa_block *b = &c->roots[c->nroots++];
		read_rsa_block(v, r, b);
		field_key_sha256(t, n, fw_arena_printf(&t->arena, "RootKeySha256[%zu]", c->nroots - 1), b->key);
	}
	fw_node_field_uint(t, n, "RootCerts", c->nroots, FW_FMT_DEC);
	fw_node_field_str(t, n, "RootSignedPart", (c->flags & FW_APTIO_FLAG_ROOT_SIGNS_KEY_ONLY) ? "SignCert.PublicKey" : "SignCert");
}

static void describe_area(struct fw_tree *t, struct fw_node *n, size_t i, const struct fw_rom_area *a)
{
	char flags[160];
	fw_flags_str(&fw_rom_area_attribute_names, a->attributes, flags, sizeof(flags));
	fw_node_field_str(t, n, fw_arena_printf(&t->arena, "RomArea[%zu]", i),
			  fw_arena_printf(&t->arena, "offset 0x%X size 0x%X %s attributes 0x%X%s%s", a->offset, a->size,
					  a->type == FW_ROM_AREA_TYPE_FV ? "FV" : a->type == FW_ROM_AREA_TYPE_RAW ? "Raw" : "type?",
					  a->attributes, flags[0] ? " " : "", flags));
}

static void read_area(const struct fw_view *v, size_t off, struct fw_rom_area *a)
{
	a->address = fw_le64(v->p + off);
	a->offset = fw_le32(v->p + off + 8);
	a->size = fw_le32(v->p + off + 12);
	a->type = fw_le32(v->p + off + 16);
	a->attributes = fw_le32(v->p + off + 20);
}

/* ROM_AREA[] at RomLayoutOffset, terminated by Size == 0, inside the header. */
static void parse_area_table(struct fw_tree *t, struct fw_node *n, struct fw_capsule *c)
{
	const struct fw_view *v = &c->whole;
	size_t off = c->rom_layout_offset, end = c->header.len;
	size_t max = (end - off) / FW_ROM_AREA_SIZE, count = 0;
	while (count < max && fw_le32(v->p + off + count * FW_ROM_AREA_SIZE + 12) != 0)
		count++;
	c->areas_terminated = count < max;
	if (!c->areas_terminated)
		fw_node_diag(t, n, FW_DIAG_ERROR, fw_view_abs(v, off),
			     "ROM area table has no terminating entry (Size 0) before the end of the capsule header");
	c->areas = count ? fw_arena_alloc(&t->arena, count * sizeof(*c->areas)) : NULL;
	for (size_t i = 0; i < count; i++) {
		read_area(v, off + i * FW_ROM_AREA_SIZE, &c->areas[i]);
		describe_area(t, n, i, &c->areas[i]);
	}
	c->nareas = count;
	fw_rd_sub(v, off, (count + (c->areas_terminated ? 1 : 0)) * FW_ROM_AREA_SIZE, &c->area_table, NULL);
	fw_node_field_uint(t, n, "RomAreas", count, FW_FMT_DEC);
}

/* The HMFT manifest: header, ROM_AREA descriptors, one digest per descriptor. */
static void parse_manifest(struct fw_tree *t, struct fw_node *n, struct fw_capsule *c)
{
	const struct fw_view *v = &c->whole;
	size_t off = c->rom_layout_offset, room = c->header.len - off;
	c->manifest = true;
	if (room < FW_APTIO_MANIFEST_HEADER_SIZE || fw_le32(v->p + off) != FW_APTIO_MANIFEST_SIGNATURE) {
		fw_node_diag(t, n, FW_DIAG_ERROR, fw_view_abs(v, off),
			     "capsule flags announce a ROM area hash manifest, but there is no HMFT header here");
		return;
	}
	const struct fw_layout *l = &fw_aptio_manifest_layout;
	uint32_t hsize = (uint32_t)fw_layout_get(l, v, off, HMFT_HEADER_SIZE);
	uint32_t tsize = (uint32_t)fw_layout_get(l, v, off, HMFT_TABLE_SIZE);
	uint32_t dsize = (uint32_t)fw_layout_get(l, v, off, HMFT_DESCRIPTOR_SIZE);
	uint32_t count = (uint32_t)fw_layout_get(l, v, off, HMFT_DESCRIPTOR_COUNT);
	uint32_t hash_size = (uint32_t)fw_layout_get(l, v, off, HMFT_HASH_SIZE);
	uint32_t hash_off = (uint32_t)fw_layout_get(l, v, off, HMFT_HASH_AREA_OFFSET);
	c->manifest_hash_type = (uint32_t)fw_layout_get(l, v, off, HMFT_HASH_TYPE);
	c->manifest_hash_size = hash_size;
	fw_layout_emit(t, n, l, v, off);
	char when[32];
	if (fw_efi_time_str(fw_layout_ptr(l, v, off, HMFT_SIGN_TIME), when, sizeof(when)))
		fw_node_field_str(t, n, "FwSignTime", when);
	if (tsize < FW_APTIO_MANIFEST_HEADER_SIZE || tsize > room || dsize < FW_ROM_AREA_SIZE || hsize > tsize ||
	    hash_size == 0 || hash_size > 64 || count > (tsize - hsize) / dsize || hash_off > tsize ||
	    count > (tsize - hash_off) / hash_size) {
		fw_node_diag(t, n, FW_DIAG_ERROR, fw_view_abs(v, off),
			     "HMFT manifest sizes do not add up (table 0x%X, header 0x%X, %u descriptors of 0x%X, hashes of %u "
			     "at 0x%X)", tsize, hsize, count, dsize, hash_size, hash_off);
		return;
	}
	fw_rd_sub(v, off, tsize, &c->area_table, NULL);
	c->areas = count ? fw_arena_alloc(&t->arena, count * sizeof(*c->areas)) : NULL;
	for (uint32_t i = 0; i < count; i++) {
		read_area(v, off + hsize + (size_t)i * dsize, &c->areas[i]);
		c->areas[i].hash = v->p + off + hash_off + (size_t)i * hash_size;
		describe_area(t, n, i, &c->areas[i]);
	}
	c->nareas = count;
	c->areas_terminated = true;
}

static bool parse_aptio(struct fw_tree *t, struct fw_node *n, struct fw_capsule *c, struct fw_error *err)
{
	const struct fw_view *v = &c->whole;
	c->rom_image_offset = (uint32_t)fw_layout_get(&fw_aptio_capsule_layout, v, 0, CAP_ROM_IMAGE_OFFSET);
	c->rom_layout_offset = (uint32_t)fw_layout_get(&fw_aptio_capsule_layout, v, 0, CAP_ROM_LAYOUT_OFFSET);
	if (c->rom_image_offset < FW_APTIO_CAPSULE_HEADER_SIZE || c->rom_image_offset > v->len)
		return fw_error_set(err, FW_E_INVALID,
				    "Aptio capsule header at 0x%llx: RomImageOffset 0x%X does not fit the file (0x%zx bytes)",
				    (unsigned long long)v->base, c->rom_image_offset, v->len);
	fw_rd_sub(v, 0, c->rom_image_offset, &c->header, NULL);
	if (c->kind == FW_CAPSULE_APTIO_SIGNED)
		parse_certificate(t, n, c);
	size_t cert_end = FW_APTIO_CERT_OFFSET + (c->cert_form != FW_CERT_NONE ? c->cert_length : 0);
	if (c->rom_layout_offset == 0 || c->rom_layout_offset >= c->rom_image_offset) {
		fw_node_diag(t, n, c->kind == FW_CAPSULE_APTIO_SIGNED ? FW_DIAG_ERROR : FW_DIAG_INFO, v->base,
			     "Aptio capsule: RomLayoutOffset 0x%X is not inside the 0x%X-byte header: no ROM area map",
			     c->rom_layout_offset, c->rom_image_offset);
	} else {
		if (c->rom_layout_offset < cert_end && c->cert_form != FW_CERT_UNKNOWN)
			fw_node_diag(t, n, FW_DIAG_WARN, fw_view_abs(v, c->rom_layout_offset),
				     "ROM area map at 0x%X overlaps the certificate (ends at 0x%zX)", c->rom_layout_offset, cert_end);
		if (c->flags & FW_APTIO_FLAG_HASH_MANIFEST)
			parse_manifest(t, n, c);
		else
			parse_area_table(t, n, c);
	}
	if (c->flags & FW_APTIO_FLAG_PAYLOAD_SIG_INVALID)
		fw_node_diag(t, n, FW_DIAG_INFO, v->base,
			     "capsule flags say the payload signatures in the certificate are not current (0x08)");
	size_t end = v->len;
	if (c->image_size > c->rom_image_offset && c->image_size < v->len)
		end = c->image_size;
	fw_rd_sub(v, c->rom_image_offset, end - c->rom_image_offset, &c->payload, NULL);
	if (!c->payload.len)
		fw_node_diag(t, n, FW_DIAG_INFO, fw_view_abs(v, c->rom_image_offset),
			     "the capsule holds no ROM image after its 0x%X-byte header", c->rom_image_offset);
	return true;
}

/* EFI_FIRMWARE_MANAGEMENT_CAPSULE_HEADER at the body start and its payload items; each update
 * image is kept (after its authentication block and FMP payload header when it has them) for
 * the caller to parse, and the payload window is the first of them. */
static void parse_fmp(struct fw_tree *t, struct fw_node *n, struct fw_capsule *c)
{
	const struct fw_view *body = &c->payload;
	if (!fw_view_has(body, 0, 8)) {
		fw_node_diag(t, n, FW_DIAG_ERROR, body->base, "FMP capsule body is too short for its header");
		c->payload.len = 0;
		return;
	}
	c->fmp_version = fw_le32(body->p);
	c->fmp_drivers = fw_le16(body->p + 4);
	c->fmp_payloads = fw_le16(body->p + 6);
	fw_layout_emit(t, n, &fw_fmp_capsule_layout, body, 0);
	if (c->fmp_version != FW_FMP_CAPSULE_VERSION)
		fw_node_diag(t, n, FW_DIAG_WARN, body->base, "FMP capsule header version %u (expected 1)", c->fmp_version);
	size_t items = (size_t)c->fmp_drivers + c->fmp_payloads;
	if (items > (body->len - 8) / 8) {
		fw_node_diag(t, n, FW_DIAG_ERROR, body->base, "FMP capsule: %zu item offsets do not fit the body", items);
		c->payload.len = 0;
		return;
	}
	struct fw_view first = {body->p, 0, body->base};
	c->fmp_images = fw_arena_alloc(&t->arena, (c->fmp_payloads ? c->fmp_payloads : 1) * sizeof(*c->fmp_images));
	c->nfmp_images = 0;
	for (size_t i = 0; i < items; i++) {
		uint64_t item = fw_le64(body->p + 8 + 8 * i);
		bool driver = i < c->fmp_drivers;
		const char *key = fw_arena_printf(&t->arena, "%s[%zu]", driver ? "Driver" : "Payload",
						  driver ? i : i - c->fmp_drivers);
		if (item < 8 + 8 * items || item >= body->len) {
			fw_node_diag(t, n, FW_DIAG_ERROR, body->base, "FMP item %zu: offset 0x%llX is outside the body", i,
				     (unsigned long long)item);
			continue;
		}
		if (driver) {
			fw_node_field_str(t, n, key, fw_arena_printf(&t->arena, "offset 0x%llX", (unsigned long long)item));
			continue;
		}
		size_t off = (size_t)item;
		if (!fw_view_has(body, off, FW_FMP_IMAGE_HEADER_V1_SIZE)) {
			fw_node_diag(t, n, FW_DIAG_ERROR, fw_view_abs(body, off), "FMP payload header runs past the body");
			continue;
		}
		uint32_t ver = fw_le32(body->p + off);
		size_t hsize = ver >= 3 ? FW_FMP_IMAGE_HEADER_V3_SIZE : ver == 2 ? FW_FMP_IMAGE_HEADER_V2_SIZE : FW_FMP_IMAGE_HEADER_V1_SIZE;
		struct fw_guid type;
		memcpy(type.b, body->p + off + 4, 16);
		uint32_t isize = fw_le32(body->p + off + 0x18), vsize = fw_le32(body->p + off + 0x1C);
		char g[FW_GUID_STR_LEN];
		fw_node_field_str(t, n, key,
				  fw_arena_printf(&t->arena, "offset 0x%zX version %u UpdateImageTypeId %s index %u image 0x%X "
							     "vendor code 0x%X", off, ver, fw_guid_format(&type, g),
						  body->p[off + 0x14], isize, vsize));
		if (!fw_view_has(body, off, hsize) || isize > body->len - off - hsize) {
			fw_node_diag(t, n, FW_DIAG_ERROR, fw_view_abs(body, off), "FMP payload %s: image of 0x%X bytes runs past the body",
				     key, isize);
			continue;
		}
		struct fw_view img;
		fw_rd_sub(body, off + hsize, isize, &img, NULL);
		/* EFI_FIRMWARE_IMAGE_AUTHENTICATION: monotonic count, WIN_CERTIFICATE_UEFI_GUID (PKCS#7) */
		if (fw_view_has(&img, 0, FW_FMP_AUTH_HEADER_SIZE) && fw_le16(img.p + 14) == FW_WIN_CERT_TYPE_EFI_GUID &&
		    memcmp(img.p + 16, fw_guid_cert_pkcs7.b, 16) == 0) {
			uint32_t len = fw_le32(img.p + 8);
			if (len >= 24 && len <= img.len - 8) {
				fw_node_field_str(t, n, fw_arena_printf(&t->arena, "%s authentication", key),
						  fw_arena_printf(&t->arena, "monotonic count %llu, PKCS#7 of 0x%X bytes",
								  (unsigned long long)fw_le64(img.p), len - 24));
				fw_rd_tail(&img, 8 + len, &img, NULL);
			}
		}
		uint32_t hs;
		if (fw_view_has(&img, 0, FW_FMP_PAYLOAD_HEADER_SIZE) && fw_le32(img.p) == FW_FMP_PAYLOAD_HEADER_SIGNATURE &&
		    (hs = fw_le32(img.p + 4)) >= FW_FMP_PAYLOAD_HEADER_SIZE && hs <= img.len) {
			fw_node_field_str(t, n, fw_arena_printf(&t->arena, "%s payload header", key),
					  fw_arena_printf(&t->arena, "MSS1, FwVersion 0x%X, LowestSupportedVersion 0x%X",
							  fw_le32(img.p + 8), fw_le32(img.p + 12)));
			fw_rd_tail(&img, hs, &img, NULL);
		}
		c->fmp_images[c->nfmp_images++] = img;
	}
	if (c->nfmp_images)
		first = c->fmp_images[0];
	c->payload = first;
}

struct fw_node *fw_capsule_parse(struct fw_tree *t, struct fw_node *parent, const struct fw_view *v,
				 struct fw_view *payload, struct fw_error *err)
{
	struct fw_guid g;
	if (!fw_layout_check(&fw_efi_capsule_layout, v, 0, err))
		return NULL;
	fw_layout_get_guid(&fw_efi_capsule_layout, v, 0, CAP_GUID, &g);
	struct fw_capsule *c = fw_arena_alloc(&t->arena, sizeof(*c));
	c->whole = *v;
	c->guid = g;
	c->kind = fw_guid_eq(&g, &fw_guid_capsule_aptio_signed)     ? FW_CAPSULE_APTIO_SIGNED
		  : fw_guid_eq(&g, &fw_guid_capsule_aptio_unsigned) ? FW_CAPSULE_APTIO_UNSIGNED
		  : fw_guid_eq(&g, &fw_guid_capsule_fmp)            ? FW_CAPSULE_FMP
								    : FW_CAPSULE_EFI;
	c->header_size = (uint32_t)fw_layout_get(&fw_efi_capsule_layout, v, 0, CAP_HEADER_SIZE);
	c->flags = (uint32_t)fw_layout_get(&fw_efi_capsule_layout, v, 0, CAP_FLAGS);
	c->image_size = (uint32_t)fw_layout_get(&fw_efi_capsule_layout, v, 0, CAP_IMAGE_SIZE);
	bool aptio = c->kind == FW_CAPSULE_APTIO_SIGNED || c->kind == FW_CAPSULE_APTIO_UNSIGNED;
	if (aptio && !fw_layout_check(&fw_aptio_capsule_layout, v, 0, err))
		return NULL;
	if (!aptio && (c->header_size < FW_EFI_CAPSULE_HEADER_SIZE || c->header_size > v->len)) {
		fw_error_set(err, FW_E_INVALID, "capsule header at 0x%llx: HeaderSize 0x%X does not fit the file (0x%zx bytes)",
			     (unsigned long long)v->base, c->header_size, v->len);
		return NULL;
	}
	struct fw_node *n = fw_node_add(t, parent, FW_NODE_CAPSULE, fw_capsule_kind_name(c->kind), v, err);
	if (!n)
		return NULL;
	n->ext = c;
	fw_node_set_guid(n, &g);
	n->name = fw_guid_name(&g);
	fw_layout_emit(t, n, aptio ? &fw_aptio_capsule_layout : &fw_efi_capsule_layout, v, 0);
	if (aptio) {
		if (!parse_aptio(t, n, c, err))
			return NULL;
	} else {
		fw_rd_sub(v, 0, c->header_size, &c->header, NULL);
		size_t end = c->image_size > c->header_size && c->image_size < v->len ? c->image_size : v->len;
		fw_rd_sub(v, c->header_size, end - c->header_size, &c->payload, NULL);
		if (c->kind == FW_CAPSULE_FMP)
			parse_fmp(t, n, c);
	}
	n->header_size = (uint32_t)c->header.len;
	if (c->image_size != v->len)
		fw_node_diag(t, n, FW_DIAG_WARN, v->base, "CapsuleImageSize 0x%X differs from the file size 0x%zX",
			     c->image_size, v->len);
	if (c->image_size < c->header.len)
		fw_node_diag(t, n, FW_DIAG_WARN, v->base, "CapsuleImageSize 0x%X is smaller than the header (0x%zX)",
			     c->image_size, c->header.len);
	*payload = c->payload;
	n->body = c->payload;
	return n;
}
