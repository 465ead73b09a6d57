#include "view.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "guid.h"

const char *fw_offset_str(uint64_t abs, char *buf, size_t buflen)
{
	if (abs == FW_OFFSET_UNKNOWN)
		snprintf(buf, buflen, "(in decompressed data)");
	else
		snprintf(buf, buflen, "0x%" PRIx64, abs);
	return buf;
}

bool fw_view_check(const struct fw_view *v, size_t off, size_t n, const char *what, struct fw_error *err)
{
	if (fw_view_has(v, off, n))
		return true;
	char at[48];
	fw_offset_str(fw_view_abs(v, off), at, sizeof(at));
	return fw_error_set(err, FW_E_TRUNCATED, "%s at %s: needs 0x%zx bytes, only 0x%zx left", what ? what : "read",
			    at, n, off <= v->len ? v->len - off : 0);
}

bool fw_rd_u8(const struct fw_view *v, size_t off, uint8_t *out, struct fw_error *err)
{
	if (!fw_view_check(v, off, 1, "u8", err))
		return false;
	*out = v->p[off];
	return true;
}

bool fw_rd_u16(const struct fw_view *v, size_t off, uint16_t *out, struct fw_error *err)
{
	if (!fw_view_check(v, off, 2, "u16", err))
		return false;
	*out = fw_le16(v->p + off);
	return true;
}

bool fw_rd_u24(const struct fw_view *v, size_t off, uint32_t *out, struct fw_error *err)
{
	if (!fw_view_check(v, off, 3, "u24", err))
		return false;
	*out = fw_le24(v->p + off);
	return true;
}

bool fw_rd_u32(const struct fw_view *v, size_t off, uint32_t *out, struct fw_error *err)
{
	if (!fw_view_check(v, off, 4, "u32", err))
		return false;
	*out = fw_le32(v->p + off);
	return true;
}

bool fw_rd_u64(const struct fw_view *v, size_t off, uint64_t *out, struct fw_error *err)
{
	if (!fw_view_check(v, off, 8, "u64", err))
		return false;
	*out = fw_le64(v->p + off);
	return true;
}

bool fw_rd_guid(const struct fw_view *v, size_t off, struct fw_guid *out, struct fw_error *err)
{
	if (!fw_view_check(v, off, 16, "GUID", err))
		return false;
	memcpy(out->b, v->p + off, 16);
	return true;
}

bool fw_rd_bytes(const struct fw_view *v, size_t off, void *out, size_t n, struct fw_error *err)
{
	if (!fw_view_check(v, off, n, "bytes", err))
		return false;
	memcpy(out, v->p + off, n);
	return true;
}

bool fw_rd_sub(const struct fw_view *v, size_t off, size_t n, struct fw_view *out, struct fw_error *err)
{
	if (!fw_view_check(v, off, n, "window", err))
		return false;
	out->p = v->p + off;
	out->len = n;
	out->base = fw_view_abs(v, off);
	return true;
}

bool fw_rd_tail(const struct fw_view *v, size_t off, struct fw_view *out, struct fw_error *err)
{
	if (off > v->len)
		return fw_view_check(v, off, 0, "window", err);
	return fw_rd_sub(v, off, v->len - off, out, err);
}

bool fw_size_inc(size_t *off, size_t n, size_t limit, struct fw_error *err)
{
	if (*off > limit || n > limit - *off)
		return fw_error_set(err, FW_E_TRUNCATED, "cursor 0x%zx + 0x%zx passes the end 0x%zx", *off, n, limit);
	*off += n;
	return true;
}
