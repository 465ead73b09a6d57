/* HII string packages: header checks and the SIBT block walk (reference/ifr.md 1.3). */
#include "hii-strings.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "ifr-opcodes.h"
#include "parsers/ucs2.h"

#define HDR_SIZE_OFF 4
#define INFO_OFF_OFF 8
#define LANG_NAME_OFF 44

bool fw_hii_is_config_language(const char *tag)
{
	return strncasecmp(tag, "x-UEFI", 6) == 0 || strncasecmp(tag, "x-i-UEFI", 8) == 0;
}

bool fw_hii_language_matches(const char *tag, const char *want)
{
	if (strcasecmp(tag, want) == 0)
		return true;
	size_t n = strlen(want);
	return strchr(want, '-') == NULL && strncasecmp(tag, want, n) == 0 && tag[n] == '-';
}

/* The SIBT walk, shared by the check (at == NULL: validate only) and the parse, which notes where
 * each id's text starts (texts are decoded when first asked for: most ids of most languages
 * never are). */
struct walk {
	const struct fw_view *pkg;
	struct fw_hii_strings *out; /* NULL when only checking */
	uint32_t *at;               /* see fw_hii_strings.at; grown as ids come */
	uint32_t cap;
	size_t buflen;              /* the longest text kept, NUL included */
	uint32_t id;                /* next id to assign */
	uint32_t max_id;
};

static bool fail(const struct walk *w, size_t off, const char *what, struct fw_error *err)
{
	char at[48];
	return fw_error_set(err, FW_E_INVALID, "HII string package: SIBT block at +0x%zx (%s): %s", off,
			    fw_offset_str(fw_view_abs(w->pkg, off), at, sizeof(at)), what);
}

static bool take_id(struct walk *w, size_t off, struct fw_error *err)
{
	if (w->id > FW_HII_MAX_STRING_ID)
		return fail(w, off, "string id beyond 0xFFFF", err);
	if (w->id > w->max_id)
		w->max_id = w->id;
	w->id++;
	return true;
}

static void note_at(struct walk *w, uint32_t id, uint32_t at)
{
	if (id >= w->cap) {
		uint32_t cap = w->cap ? w->cap : 256;
		while (cap <= id)
			cap *= 2;
		w->at = fw_xrealloc(w->at, cap * sizeof(*w->at));
		memset(w->at + w->cap, 0, (cap - w->cap) * sizeof(*w->at));
		w->cap = cap;
	}
	w->at[id] = at;
}

/* SCSU bytes >= 0x80 that decoding keeps (each takes two UTF-8 bytes; a text is cut at buflen - 1). */
static uint32_t scsu_non_ascii(const uint8_t *p, size_t units, size_t buflen)
{
	uint32_t n = 0;
	size_t used = 0;
	for (size_t i = 0; i < units; i++) {
		size_t w = p[i] < 0x80 ? 1 : 2;
		if (used + w > buflen - 1)
			break;
		n += p[i] >= 0x80;
		used += w;
	}
	return n;
}

/* One NUL-terminated string at *pos (UCS-2 when wide, else 8-bit SCSU); advances *pos. */
static bool one_string(struct walk *w, size_t block, size_t *pos, bool wide, struct fw_error *err)
{
	const struct fw_view *v = w->pkg;
	size_t start = *pos, units;
	if (wide) {
		bool term = false;
		size_t max = (v->len - start) / 2;
		units = fw_ucs2_len(v->p + start, max, &term);
		if (!term)
			return fail(w, block, "UCS-2 string without terminating NUL", err);
		*pos = start + 2 * (units + 1);
	} else {
		const uint8_t *nul = memchr(v->p + start, 0, v->len - start);
		if (!nul)
			return fail(w, block, "SCSU string without terminating NUL", err);
		units = (size_t)(nul - (v->p + start));
		*pos = start + units + 1;
	}
	uint32_t id = w->id;
	if (!take_id(w, block, err))
		return false;
	if (!w->out)
		return true;
	if (!wide)
		w->out->scsu_non_ascii += scsu_non_ascii(v->p + start, units, w->buflen);
	note_at(w, id, (uint32_t)start | (wide ? FW_HII_STRING_WIDE : 0));
	w->out->present++;
	return true;
}

static bool walk_blocks(struct walk *w, size_t off, struct fw_error *err)
{
	const struct fw_view *v = w->pkg;
	while (off < v->len) {
		size_t block = off, pos = off + 1;
		uint8_t type = v->p[off];
		uint16_t count = 1;
		bool wide = false;
		switch (type) {
		case FW_SIBT_END:
			for (size_t i = off + 1; i < v->len; i++)
				if (v->p[i] != 0)
					return fail(w, off, "bytes after the END block", err);
			return true;
		case FW_SIBT_STRING_UCS2_FONT:
		case FW_SIBT_STRINGS_UCS2_FONT:
		case FW_SIBT_STRING_SCSU_FONT:
		case FW_SIBT_STRINGS_SCSU_FONT:
			pos++; /* FontIdentifier */
			/* fall through */
		case FW_SIBT_STRING_UCS2:
		case FW_SIBT_STRINGS_UCS2:
		case FW_SIBT_STRING_SCSU:
		case FW_SIBT_STRINGS_SCSU:
			wide = type >= FW_SIBT_STRING_UCS2;
			if (type == FW_SIBT_STRINGS_UCS2 || type == FW_SIBT_STRINGS_UCS2_FONT || type == FW_SIBT_STRINGS_SCSU ||
			    type == FW_SIBT_STRINGS_SCSU_FONT) {
				if (!fw_view_has(v, pos, 2))
					return fail(w, block, "truncated string count", err);
				count = fw_le16(v->p + pos);
				pos += 2;
			}
			if (pos > v->len)
				return fail(w, block, "truncated block", err);
			for (uint16_t i = 0; i < count; i++)
				if (!one_string(w, block, &pos, wide, err))
					return false;
			off = pos;
			break;
		case FW_SIBT_DUPLICATE: {
			if (!fw_view_has(v, pos, 2))
				return fail(w, block, "truncated DUPLICATE block", err);
			uint16_t src = fw_le16(v->p + pos);
			uint32_t id = w->id;
			if (src == 0 || src >= id)
				return fail(w, block, "DUPLICATE names an id that is not earlier", err);
			if (!take_id(w, block, err))
				return false;
			if (w->out) {
				note_at(w, id, src < w->cap ? w->at[src] : 0);
				w->out->duplicates++;
				if (w->at[id])
					w->out->present++;
			}
			off = pos + 2;
			break;
		}
		case FW_SIBT_SKIP1:
		case FW_SIBT_SKIP2: {
			size_t n = type == FW_SIBT_SKIP1 ? 1 : 2;
			if (!fw_view_has(v, pos, n))
				return fail(w, block, "truncated SKIP block", err);
			uint32_t skip = n == 1 ? v->p[pos] : fw_le16(v->p + pos);
			if (w->id + skip > FW_HII_MAX_STRING_ID + 1)
				return fail(w, block, "SKIP beyond string id 0xFFFF", err);
			w->id += skip;
			if (skip && w->id - 1 > w->max_id)
				w->max_id = w->id - 1;
			if (w->out)
				w->out->skipped += skip;
			off = pos + n;
			break;
		}
		case FW_SIBT_EXT1:
		case FW_SIBT_EXT2:
		case FW_SIBT_EXT4: {
			/* Length counts the whole block, header included (String.c). */
			size_t hdr = type == FW_SIBT_EXT1 ? 3 : type == FW_SIBT_EXT2 ? 4 : 6;
			if (!fw_view_has(v, off, hdr))
				return fail(w, block, "truncated EXT block", err);
			uint8_t type2 = v->p[pos];
			uint32_t len = type == FW_SIBT_EXT1 ? v->p[pos + 1]
				       : type == FW_SIBT_EXT2 ? fw_le16(v->p + pos + 1)
							      : fw_le32(v->p + pos + 1);
			if (len < hdr)
				return fail(w, block, "EXT block length shorter than its header", err);
			if (!fw_view_has(v, off, len))
				return fail(w, block, "EXT block runs past the package end", err);
			if (type2 == FW_SIBT_FONT && w->out)
				w->out->fonts++;
			off += len;
			break;
		}
		default:
			return fail(w, block, "unknown block type", err);
		}
	}
	return fail(w, off, "no END block", err);
}

static bool header(const struct fw_view *pkg, uint32_t *hdr_size, uint32_t *info_off, struct fw_error *err)
{
	char at[48];
	const char *where = fw_offset_str(fw_view_abs(pkg, 0), at, sizeof(at));
	if (pkg->len < FW_HII_STRING_HEADER_FIXED + 2)
		return fw_error_set(err, FW_E_INVALID, "HII string package at %s: 0x%zx bytes is too short", where,
				    pkg->len);
	uint32_t hdr = fw_le32(pkg->p);
	if ((hdr >> 24) != FW_HII_PACKAGE_STRINGS || (hdr & 0xFFFFFF) != pkg->len)
		return fw_error_set(err, FW_E_INVALID, "HII string package at %s: bad package header 0x%08x", where, hdr);
	*hdr_size = fw_le32(pkg->p + HDR_SIZE_OFF);
	*info_off = fw_le32(pkg->p + INFO_OFF_OFF);
	if (*hdr_size < FW_HII_STRING_HEADER_FIXED + 1 || *hdr_size > pkg->len)
		return fw_error_set(err, FW_E_INVALID, "HII string package at %s: HdrSize 0x%x out of range", where,
				    *hdr_size);
	if (*info_off < *hdr_size || *info_off >= pkg->len)
		return fw_error_set(err, FW_E_INVALID, "HII string package at %s: StringInfoOffset 0x%x out of range",
				    where, *info_off);
	/* The language tag: printable ASCII, NUL exactly at HdrSize - 1, at least one character. */
	if (pkg->p[*hdr_size - 1] != 0 || *hdr_size - 1 == FW_HII_STRING_HEADER_FIXED)
		return fw_error_set(err, FW_E_INVALID, "HII string package at %s: language tag is not terminated at HdrSize",
				    where);
	for (size_t i = FW_HII_STRING_HEADER_FIXED; i < *hdr_size - 1; i++) {
		uint8_t c = pkg->p[i];
		if (c < 0x21 || c > 0x7E)
			return fw_error_set(err, FW_E_INVALID, "HII string package at %s: language tag is not printable ASCII",
					    where);
	}
	return true;
}

bool fw_hii_strings_check(const struct fw_view *pkg, struct fw_error *err)
{
	uint32_t hdr_size, info_off;
	if (!header(pkg, &hdr_size, &info_off, err))
		return false;
	struct walk w = {.pkg = pkg, .id = 1};
	return walk_blocks(&w, info_off, err);
}

bool fw_hii_strings_parse(struct fw_arena *a, const struct fw_view *pkg, size_t max_string,
			  struct fw_hii_strings *out, struct fw_error *err)
{
	uint32_t hdr_size, info_off;
	memset(out, 0, sizeof(*out));
	if (!header(pkg, &hdr_size, &info_off, err))
		return false;
	struct walk w = {.pkg = pkg, .out = out, .id = 1};
	w.buflen = max_string ? max_string + 1 : 65537;
	if (!walk_blocks(&w, info_off, err)) {
		free(w.at);
		memset(out, 0, sizeof(*out));
		return false;
	}
	out->length = (uint32_t)pkg->len;
	out->abs_offset = fw_view_abs(pkg, 0);
	out->language = fw_arena_strndup(a, (const char *)pkg->p + FW_HII_STRING_HEADER_FIXED,
					 hdr_size - 1 - FW_HII_STRING_HEADER_FIXED);
	out->config_language = fw_hii_is_config_language(out->language);
	out->language_name = fw_le16(pkg->p + LANG_NAME_OFF);
	out->max_id = w.max_id;
	uint32_t *at = fw_arena_alloc(a, (out->max_id + 1) * sizeof(*at));
	if (w.cap)
		memcpy(at, w.at, (w.cap < out->max_id + 1 ? w.cap : out->max_id + 1) * sizeof(*at));
	out->at = at;
	free(w.at);
	out->bytes = pkg->p;
	out->bytes_len = pkg->len;
	out->arena = a;
	out->buflen = w.buflen;
	return true;
}

const char *fw_hii_strings_text(const struct fw_hii_strings *s, uint16_t id)
{
	/* the decoded text is remembered: the struct is logically const, its cache is not */
	struct fw_hii_strings *m = (struct fw_hii_strings *)s;
	if (!m->text)
		m->text = fw_arena_alloc(m->arena, (m->max_id + 1) * sizeof(*m->text));
	if (m->text[id])
		return m->text[id];
	uint32_t start = s->at[id] & ~FW_HII_STRING_WIDE;
	const uint8_t *p = s->bytes + start;
	char small[1024];
	char *buf = small;
	size_t buflen = s->buflen;
	if (s->at[id] & FW_HII_STRING_WIDE) {
		size_t units = fw_ucs2_len(p, (s->bytes_len - start) / 2, NULL); /* terminated: checked by the walk */
		if (units * 3 + 1 < buflen)
			buflen = units * 3 + 1; /* the whole text fits: cut nowhere */
		if (buflen > sizeof(small))
			buf = fw_xmalloc(buflen);
		fw_ucs2_to_utf8_buf(p, units, buf, buflen);
	} else {
		size_t units = strnlen((const char *)p, s->bytes_len - start), used = 0;
		if (units * 2 + 1 < buflen)
			buflen = units * 2 + 1;
		if (buflen > sizeof(small))
			buf = fw_xmalloc(buflen);
		for (size_t i = 0; i < units; i++) {
			size_t n = fw_utf8_put(p[i], buf + used, buflen - 1 - used);
			if (!n)
				break;
			used += n;
		}
		buf[used] = '\0';
	}
	m->text[id] = fw_arena_strdup(m->arena, buf);
	if (buf != small)
		free(buf);
	return m->text[id];
}
