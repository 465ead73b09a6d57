/* RSDP: header checks and decode. */
#include "rsdp.h"

#include <string.h>

#include "acpi/fields.h"
#include "parsers/hash.h"

static const struct fw_field rsdp_fields[RSDP__COUNT] = {
	[RSDP_SIGNATURE] = {"Signature", FW_FT_CHARS, 0, 8, 0, NULL},
	[RSDP_CHECKSUM] = {"Checksum", FW_FT_U8, 8, 0, FW_FF_HEX, NULL},
	[RSDP_OEM_ID] = {"OemId", FW_FT_CHARS, 9, 6, 0, NULL},
	[RSDP_REVISION] = {"Revision", FW_FT_U8, 15, 0, 0, NULL},
	[RSDP_RSDT_ADDRESS] = {"RsdtAddress", FW_FT_U32, 16, 0, FW_FF_HEX, NULL},
	[RSDP_LENGTH] = {"Length", FW_FT_U32, 20, 0, FW_FF_HEX, NULL},
	[RSDP_XSDT_ADDRESS] = {"XsdtAddress", FW_FT_U64, 24, 0, FW_FF_HEX, NULL},
	[RSDP_EXT_CHECKSUM] = {"ExtendedChecksum", FW_FT_U8, 32, 0, FW_FF_HEX, NULL},
};
const struct fw_layout fw_acpi_rsdp_layout = FW_LAYOUT("RSDP", FW_RSDP_V2_SIZE, rsdp_fields);

/* What the model says beyond the bytes: the XSDT address (0 before revision 2) and the two
 * checksum verdicts. */
static bool derive(const struct fw_acpi_table *t, size_t part, const char *name, struct fw_acpi_derived *out)
{
	const struct fw_acpi_rsdp *r = t->model;
	out->u = !strcmp(name, "XsdtAddress") ? r->xsdt_address : !strcmp(name, "ChecksumOk") ? r->checksum_ok : r->ext_checksum_ok;
	return true;
}
static const struct fw_acpi_show rsdp_show[] = {
	{"rsdt_address", "RsdtAddress", FW_AS_HEX, false, NULL},
	{"xsdt_address", "XsdtAddress", FW_AS_HEX, false, derive},
	{"checksum_ok", "ChecksumOk", FW_AS_BOOL, false, derive},
	{"extended_checksum_ok", "ExtendedChecksumOk", FW_AS_BOOL, false, derive},
};
static const char *const rsdp_text[] = {"revision {Revision}; RSDT at 0x{RsdtAddress:%08x}; XSDT at 0x{XsdtAddress:%x}", NULL};
static const struct fw_acpi_shape rsdp_shapes[] = {FW_ACPI_SHAPE(&fw_acpi_rsdp_layout, rsdp_show, rsdp_text)};
static const struct fw_acpi_view rsdp_view = FW_ACPI_VIEW(rsdp_shapes, NULL);
const struct fw_acpi_layout fw_acpi_rsdp_table = {
	.fixed = &fw_acpi_rsdp_layout, .min_size = FW_RSDP_V1_SIZE, .start_field = -1, .count_field = -1, .view = &rsdp_view,
};

bool fw_acpi_rsdp_parse_header(struct fw_acpi_table *t, const struct fw_view *bytes, struct fw_arena *a,
			       struct fw_error *err)
{
	char off[32];
	const struct fw_layout *l = &fw_acpi_rsdp_layout;
	if (!fw_view_has(bytes, 0, FW_RSDP_V1_SIZE))
		return fw_error_set(err, FW_E_TRUNCATED, "RSDP %s: %zu bytes, the structure needs %d",
				    fw_offset_str(bytes->base, off, sizeof(off)), bytes->len, FW_RSDP_V1_SIZE);
	memcpy(t->signature, "RSDP", 5);
	t->checksum = (uint8_t)fw_layout_get(l, bytes, 0, RSDP_CHECKSUM);
	t->revision = (uint8_t)fw_layout_get(l, bytes, 0, RSDP_REVISION);
	const uint8_t *oem = fw_layout_ptr(l, bytes, 0, RSDP_OEM_ID);
	size_t k = 0;
	for (size_t i = 0; i < 6 && oem[i]; i++)
		t->oem_id[k++] = (oem[i] >= 0x20 && oem[i] < 0x7F) ? (char)oem[i] : '?';
	while (k && t->oem_id[k - 1] == ' ')
		k--;
	t->oem_id[k] = '\0';
	t->length = FW_RSDP_V1_SIZE;
	if (t->revision >= 2) {
		if (!fw_view_has(bytes, 0, FW_RSDP_V2_SIZE)) {
			fw_acpi_diag(t, a, FW_DIAG_ERROR, bytes->len,
				     "revision %u RSDP needs %d bytes, only 0x%zx present: read as revision 0",
				     t->revision, FW_RSDP_V2_SIZE, bytes->len);
		} else {
			uint32_t len = (uint32_t)fw_layout_get(l, bytes, 0, RSDP_LENGTH);
			if (len < FW_RSDP_V2_SIZE)
				return fw_error_set(err, FW_E_INVALID, "RSDP %s: Length 0x%x is smaller than the %d-byte structure",
						    fw_offset_str(bytes->base, off, sizeof(off)), len, FW_RSDP_V2_SIZE);
			t->length = len;
		}
	}
	if (t->length > bytes->len) {
		t->truncated = true;
		t->data = *bytes;
		fw_acpi_diag(t, a, FW_DIAG_ERROR, bytes->len, "Length 0x%x but only 0x%zx bytes present: truncated",
			     t->length, bytes->len);
	} else {
		t->data = fw_view_make(bytes->p, t->length, bytes->base);
	}
	bool ok = fw_sum8(t->data.p, FW_RSDP_V1_SIZE) == 0;
	if (!ok)
		fw_acpi_diag(t, a, FW_DIAG_WARN, 8, "checksum over the first 20 bytes is wrong (sum 0x%02x)",
			     fw_sum8(t->data.p, FW_RSDP_V1_SIZE));
	if (t->length > FW_RSDP_V1_SIZE && !t->truncated && fw_sum8(t->data.p, t->length) != 0) {
		ok = false;
		fw_acpi_diag(t, a, FW_DIAG_WARN, 32, "extended checksum over 0x%x bytes is wrong (sum 0x%02x)", t->length,
			     fw_sum8(t->data.p, t->length));
	}
	t->checksum_state = ok && !t->truncated ? FW_ACPI_CHECKSUM_OK : FW_ACPI_CHECKSUM_BAD;
	return true;
}

void *fw_acpi_rsdp_decode(struct fw_acpi_table *t, struct fw_arena *a)
{
	const struct fw_layout *l = &fw_acpi_rsdp_layout;
	struct fw_acpi_rsdp *r = fw_arena_alloc(a, sizeof(*r));
	r->revision = t->revision;
	r->rsdt_address = (uint32_t)fw_layout_get(l, &t->data, 0, RSDP_RSDT_ADDRESS);
	r->checksum_ok = fw_sum8(t->data.p, FW_RSDP_V1_SIZE) == 0;
	r->ext_checksum_ok = true;
	if (t->length >= FW_RSDP_V2_SIZE && fw_view_has(&t->data, 0, FW_RSDP_V2_SIZE)) {
		r->xsdt_address = fw_layout_get(l, &t->data, 0, RSDP_XSDT_ADDRESS);
		r->ext_checksum_ok = !t->truncated && fw_sum8(t->data.p, t->length) == 0;
	}
	return r;
}
