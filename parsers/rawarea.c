/* Raw areas: find firmware volumes in any blob (a flash image, a capsule payload, the body of a
 * raw file or section) the way UEFITool does (reference/formats.md 3.5): scan for `_FVH`, take
 * the header 0x28 bytes before it, keep the candidates whose header holds up, and turn the bytes
 * between volumes into padding nodes. */
#include <inttypes.h>
#include <string.h>

#include "firmware.h"
#include "fv.h"

bool fw_all_bytes(const uint8_t *b, size_t n, uint8_t c)
{
	if (n == 0)
		return true;
	if (b[0] != c)
		return false;
	/* b[i] == b[i+1] for all i, and b[0] == c: every byte is c. memcmp is vectorised. */
	return memcmp(b, b + 1, n - 1) == 0;
}

const char *fw_padding_type(const uint8_t *b, size_t n)
{
	if (n && fw_all_bytes(b, n, 0xFF))
		return "Empty (0xFF)";
	if (n && fw_all_bytes(b, n, 0x00))
		return "Empty (0x00)";
	return "Non-empty";
}

/* The next "_FVH" in [p, end). memchr for the first byte is much faster than memmem over the
 * long runs of 0xFF or 0x00 that fill flash images, and no slower on code. */
static const uint8_t *find_signature(const uint8_t *p, const uint8_t *end)
{
	while (end - p >= 4) {
		const uint8_t *q = memchr(p, '_', (size_t)(end - p) - 3);
		if (!q)
			return NULL;
		if (q[1] == 'F' && q[2] == 'V' && q[3] == 'H')
			return q;
		p = q + 1;
	}
	return NULL;
}

static bool add_padding(struct fw_parser *p, struct fw_node *parent, const struct fw_view *v, size_t off, size_t len,
			struct fw_error *err)
{
	struct fw_view pad;
	if (!fw_rd_sub(v, off, len, &pad, err))
		return false;
	struct fw_node *n = fw_node_add(p->t, parent, FW_NODE_PADDING, fw_padding_type(pad.p, pad.len), &pad, err);
	return n != NULL;
}

bool fw_parse_raw_area(struct fw_parser *p, struct fw_node *parent, const struct fw_view *v, bool always_pad,
		       size_t *found, struct fw_error *err)
{
	size_t nvol = 0, gap = 0, search = 0;
	while (v->len >= FW_FVH_SIGNATURE_OFFSET + 4 && search <= v->len - FW_FVH_SIGNATURE_OFFSET - 4) {
		const uint8_t *hit = find_signature(v->p + search + FW_FVH_SIGNATURE_OFFSET, v->p + v->len);
		if (!hit)
			break;
		size_t cand = (size_t)(hit - v->p) - FW_FVH_SIGNATURE_OFFSET;
		uint64_t fv_len;
		if (!fw_volume_probe(v, cand, true, &fv_len)) {
			search = cand + 1;
			continue;
		}
		if (cand > gap && !add_padding(p, parent, v, gap, cand - gap, err))
			return false;
		size_t avail = v->len - cand;
		size_t len = fv_len <= avail ? (size_t)fv_len : avail;
		struct fw_view fv;
		fw_rd_sub(v, cand, len, &fv, NULL);
		struct fw_node *n = fw_parse_volume(p, parent, &fv, err);
		if (!n)
			return false;
		if (len < fv_len) {
			char at[48];
			fw_node_diag(p->t, n, FW_DIAG_ERROR, fv.base,
				     "volume at %s: FvLength 0x%" PRIx64 " runs past the end of its area (0x%zx bytes left); parsed as truncated",
				     fw_offset_str(fv.base, at, sizeof(at)), fv_len, len);
		}
		nvol++;
		gap = search = cand + len;
	}
	if (found)
		*found = nvol;
	if (nvol == 0 && !always_pad)
		return true;
	if (gap < v->len && !add_padding(p, parent, v, gap, v->len - gap, err))
		return false;
	return true;
}
