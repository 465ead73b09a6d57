/* ACPI table header layout, checksum and the per-table record. */
#include "table.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "acpi/fadt.h"
#include "acpi/rsdp.h"
#include "parsers/hash.h"

static const struct fw_field header_fields[SDT__COUNT] = {
	[SDT_SIGNATURE] = {"Signature", FW_FT_CHARS, 0, 4, 0, NULL},
	[SDT_LENGTH] = {"Length", FW_FT_U32, 4, 0, FW_FF_HEX, NULL},
	[SDT_REVISION] = {"Revision", FW_FT_U8, 8, 0, 0, NULL},
	[SDT_CHECKSUM] = {"Checksum", FW_FT_U8, 9, 0, FW_FF_HEX, NULL},
	[SDT_OEM_ID] = {"OemId", FW_FT_CHARS, 10, 6, 0, NULL},
	[SDT_OEM_TABLE_ID] = {"OemTableId", FW_FT_CHARS, 16, 8, 0, NULL},
	[SDT_OEM_REVISION] = {"OemRevision", FW_FT_U32, 24, 0, FW_FF_HEX, NULL},
	[SDT_CREATOR_ID] = {"AslCompilerId", FW_FT_CHARS, 28, 4, 0, NULL},
	[SDT_CREATOR_REVISION] = {"AslCompilerRevision", FW_FT_U32, 32, 0, FW_FF_HEX, NULL},
};
const struct fw_layout fw_acpi_header_layout = FW_LAYOUT("ACPI table header", FW_ACPI_HEADER_SIZE, header_fields);

void fw_acpi_set_checksum(uint8_t *table, size_t len)
{
	if (len < FW_ACPI_HEADER_SIZE)
		return;
	table[9] = 0;
	table[9] = (uint8_t)(0x100 - fw_sum8(table, len));
}

/* Fixed-width header text: printable ASCII, trailing spaces and NULs removed. */
static void copy_chars(char *dst, const uint8_t *src, size_t n)
{
	size_t k = 0;
	for (size_t i = 0; i < n; i++) {
		uint8_t c = src[i];
		if (c == 0)
			break;
		dst[k++] = (c >= 0x20 && c < 0x7F) ? (char)c : '?';
	}
	while (k && dst[k - 1] == ' ')
		k--;
	dst[k] = '\0';
}

static void set_signature(struct fw_acpi_table *t, const uint8_t *p)
{
	for (int i = 0; i < 4; i++)
		t->signature[i] = (p[i] >= 0x20 && p[i] < 0x7F) ? (char)p[i] : '?';
	t->signature[4] = '\0';
}

/* Check Length against what is present and trim the view to the table. */
static bool fit_length(struct fw_acpi_table *t, const struct fw_view *bytes, uint32_t min, struct fw_arena *a,
		       struct fw_error *err)
{
	char off[32];
	if (t->length < min)
		return fw_error_set(err, FW_E_INVALID, "%s table %s: Length 0x%x is smaller than its %u-byte header",
				    t->signature, fw_offset_str(bytes->base, off, sizeof(off)), t->length, min);
	size_t have = bytes->len;
	if (t->length > have) {
		t->truncated = true;
		t->data = *bytes;
		fw_acpi_diag(t, a, FW_DIAG_ERROR, have, "Length 0x%x but only 0x%zx bytes present: table truncated",
			     t->length, have);
	} else {
		t->data = fw_view_make(bytes->p, t->length, bytes->base);
	}
	return true;
}

bool fw_acpi_table_parse(struct fw_acpi_table *t, const struct fw_view *bytes, struct fw_arena *a,
			 struct fw_error *err)
{
	memset(t, 0, sizeof(*t));
	char off[32];
	if (fw_view_has(bytes, 0, 8) && memcmp(bytes->p, FW_RSDP_SIGNATURE, 8) == 0)
		return fw_acpi_rsdp_parse_header(t, bytes, a, err);
	if (!fw_view_has(bytes, 0, 8))
		return fw_error_set(err, FW_E_TRUNCATED, "ACPI table %s: %zu bytes, too short for a header",
				    fw_offset_str(bytes->base, off, sizeof(off)), bytes->len);
	set_signature(t, bytes->p);
	t->length = fw_le32(bytes->p + 4);
	if (memcmp(bytes->p, "FACS", 4) == 0) {
		/* FACS has no checksum and no OEM fields. */
		t->checksum_state = FW_ACPI_CHECKSUM_NONE;
		if (!fit_length(t, bytes, FW_ACPI_FACS_MIN, a, err))
			return false;
		if (fw_view_has(&t->data, 0, fw_facs_layout.size))
			t->revision = (uint8_t)fw_layout_get(&fw_facs_layout, &t->data, 0, FACS_VERSION);
		if (t->length < 64)
			fw_acpi_diag(t, a, FW_DIAG_WARN, 4, "FACS Length 0x%x is below the 64 bytes the specification requires",
				     t->length);
		return true;
	}
	if (!fw_view_has(bytes, 0, FW_ACPI_HEADER_SIZE))
		return fw_error_set(err, FW_E_TRUNCATED, "%s table %s: %zu bytes, too short for the 36-byte header",
				    t->signature, fw_offset_str(bytes->base, off, sizeof(off)), bytes->len);
	const struct fw_layout *h = &fw_acpi_header_layout;
	t->has_header = true;
	t->revision = (uint8_t)fw_layout_get(h, bytes, 0, SDT_REVISION);
	t->checksum = (uint8_t)fw_layout_get(h, bytes, 0, SDT_CHECKSUM);
	copy_chars(t->oem_id, fw_layout_ptr(h, bytes, 0, SDT_OEM_ID), 6);
	copy_chars(t->oem_table_id, fw_layout_ptr(h, bytes, 0, SDT_OEM_TABLE_ID), 8);
	copy_chars(t->creator_id, fw_layout_ptr(h, bytes, 0, SDT_CREATOR_ID), 4);
	t->oem_revision = (uint32_t)fw_layout_get(h, bytes, 0, SDT_OEM_REVISION);
	t->creator_revision = (uint32_t)fw_layout_get(h, bytes, 0, SDT_CREATOR_REVISION);
	if (!fit_length(t, bytes, FW_ACPI_HEADER_SIZE, a, err))
		return false;
	if (t->truncated) {
		t->checksum_state = FW_ACPI_CHECKSUM_BAD;
		return true;
	}
	uint8_t sum = fw_sum8(t->data.p, t->data.len);
	t->checksum_state = sum == 0 ? FW_ACPI_CHECKSUM_OK : FW_ACPI_CHECKSUM_BAD;
	if (sum != 0)
		fw_acpi_diag(t, a, FW_DIAG_WARN, 9, "checksum byte 0x%02x is wrong: the table sums to 0x%02x, expected 0x%02x",
			     t->checksum, sum, (uint8_t)(t->checksum - sum));
	return true;
}

void fw_acpi_diag_append(struct fw_arena *a, struct fw_diag **head, struct fw_diag **tail, enum fw_diag_severity sev,
			 uint64_t off, const char *fmt, va_list ap)
{
	char buf[FW_ERROR_MSG_MAX];
	vsnprintf(buf, sizeof(buf), fmt, ap);
	struct fw_diag *d = fw_arena_alloc(a, sizeof(*d));
	d->severity = sev;
	d->offset = off;
	d->msg = fw_arena_strdup(a, buf);
	if (*tail)
		(*tail)->next = d;
	else
		*head = d;
	*tail = d;
}

void fw_acpi_diag(struct fw_acpi_table *t, struct fw_arena *a, enum fw_diag_severity sev, size_t off,
		  const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fw_acpi_diag_append(a, &t->diags, &t->diags_tail, sev, off, fmt, ap);
	va_end(ap);
	t->diag_count++;
}

const char *fw_acpi_table_name(const struct fw_acpi_table *t, char *buf, size_t len)
{
	if (t->instance)
		snprintf(buf, len, "%s%u", t->signature, t->instance);
	else
		snprintf(buf, len, "%s", t->signature);
	return buf;
}

bool fw_acpi_next_record(struct fw_acpi_table *t, struct fw_arena *a, const struct fw_view *v, size_t base, size_t *off,
			 const struct fw_acpi_record_format *f, struct fw_acpi_record *out)
{
	size_t o = *off;
	if (o >= v->len)
		return false;
	size_t hdr = f->length_offset + f->length_width;
	if (hdr < f->type_width)
		hdr = f->type_width;
	if (!fw_view_has(v, o, hdr)) {
		fw_acpi_diag(t, a, FW_DIAG_ERROR, base + o, "%zu stray byte%s at 0x%zx after the last %s", v->len - o,
			     v->len - o == 1 ? "" : "s", base + o, f->what);
		return false;
	}
	const uint8_t *p = v->p + o;
	out->offset = o;
	out->type = f->type_width == 2 ? fw_le16(p) : p[0];
	const uint8_t *l = p + f->length_offset;
	out->length = f->length_width == 4 ? fw_le32(l) : f->length_width == 2 ? fw_le16(l) : l[0];
	if (out->length < hdr || !fw_view_has(v, o, out->length)) {
		fw_acpi_diag(t, a, FW_DIAG_ERROR, base + o, "%s type 0x%x at 0x%zx has Length %u (0x%zx bytes left); walk stopped",
			     f->what, out->type, base + o, out->length, v->len - o);
		return false;
	}
	*off = o + out->length;
	return true;
}

void *fw_acpi_grow(struct fw_arena *a, void *arr, size_t *cap, size_t need, size_t elem)
{
	if (need <= *cap)
		return arr;
	size_t ncap = *cap ? *cap * 2 : 8;
	while (ncap < need)
		ncap *= 2;
	void *n = fw_arena_alloc(a, ncap * elem);
	if (arr && *cap)
		memcpy(n, arr, *cap * elem);
	*cap = ncap;
	return n;
}

/* Hex digits by hand: IVRS text names thousands of devices, and printf was a tenth of its time. */
static char *put_hex(char *p, unsigned v, int digits)
{
	static const char hex[] = "0123456789abcdef";
	for (int i = digits - 1; i >= 0; i--)
		*p++ = hex[(v >> (4 * i)) & 0xF];
	return p;
}

/* "BB:DD.F" and its NUL (8 bytes) at p */
static void put_devid(char *p, uint16_t devid)
{
	p = put_hex(p, devid >> 8, 2);
	*p++ = ':';
	p = put_hex(p, (devid >> 3) & 0x1F, 2);
	*p++ = '.';
	*p++ = (char)('0' + (devid & 7));
	*p = '\0';
}

char *fw_acpi_devid_str(uint16_t devid, char out[12])
{
	put_devid(out, devid);
	return out;
}

char *fw_acpi_bdf_str(uint16_t segment, uint16_t devid, char out[16])
{
	char *p = put_hex(out, segment, 4);
	*p++ = ':';
	put_devid(p, devid);
	return out;
}

const char *fw_acpi_size_str(uint64_t n, char *buf, size_t len)
{
	if (n >= (1ull << 30) && !(n & ((1ull << 30) - 1)))
		snprintf(buf, len, "%" PRIu64 " GiB", n >> 30);
	else if (n >= (1ull << 20))
		snprintf(buf, len, "%" PRIu64 " MiB", n >> 20);
	else
		snprintf(buf, len, "%" PRIu64 " KiB", n >> 10);
	return buf;
}

void fw_acpi_text_put(struct fw_acpi_text *t, const char *fmt, ...)
{
	if (t->used >= sizeof(t->buf) - 1)
		return;
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(t->buf + t->used, sizeof(t->buf) - t->used, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	t->used += (size_t)n;
	if (t->used >= sizeof(t->buf) - 1) {
		t->used = sizeof(t->buf) - 1;
		memcpy(t->buf + sizeof(t->buf) - 4, "...", 4);
	}
}
