/* Version facts of a firmware tree (see version.h). */
#include "version.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "amd-flash.h"
#include "amd-microcode.h"
#include "ami-fid.h"

#define AGESA_MARK "AGESA!"
#define AGESA_MAX 64

static bool printable(const uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (p[i] < 0x20 || p[i] > 0x7E)
			return false;
	return true;
}

/* "AGESA!" two bytes, NUL, the version string, NUL (PSPTool's pattern). */
/* The next `n`-byte mark in [p, end). memchr for its first byte skips the long runs of 0xFF and
 * 0x00 of flash images far faster than memmem (which took 70% of a diff of two 32 MiB capsules). */
static const uint8_t *find_mark(const uint8_t *p, const uint8_t *end, const char *mark, size_t n)
{
	while ((size_t)(end - p) >= n) {
		const uint8_t *q = memchr(p, mark[0], (size_t)(end - p) - n + 1);
		if (!q)
			return NULL;
		if (memcmp(q + 1, mark + 1, n - 1) == 0)
			return q;
		p = q + 1;
	}
	return NULL;
}

static void find_agesa(const struct fw_view *v, struct fw_versions *o)
{
	const uint8_t *p = v->p, *end = v->p + v->len;
	while (o->nagesa < FW_VERSIONS_MAX_AGESA && (p = find_mark(p, end, AGESA_MARK, 6))) {
		const uint8_t *s = p + 9;
		p += 6;
		if (s > end || s[-1] != 0)
			continue;
		size_t room = (size_t)(end - s) < AGESA_MAX ? (size_t)(end - s) : AGESA_MAX;
		const uint8_t *nul = memchr(s, 0, room);
		if (!nul || nul == s || !printable(s, (size_t)(nul - s)))
			continue;
		char str[AGESA_MAX + 1];
		memcpy(str, s, (size_t)(nul - s));
		str[nul - s] = '\0';
		bool dup = false;
		for (size_t i = 0; i < o->nagesa; i++)
			dup |= strcmp(o->agesa[i], str) == 0;
		if (!dup)
			snprintf(o->agesa[o->nagesa++], sizeof(o->agesa[0]), "%s", str);
	}
}

static void chars(const uint8_t *p, size_t n, char *out)
{
	size_t k = 0;
	for (size_t i = 0; i < n && p[i]; i++)
		out[k++] = (p[i] >= 0x20 && p[i] < 0x7F) ? (char)p[i] : '?';
	out[k] = '\0';
}

/* The first well-formed $FID: BiosTag and version fields are printable text. */
static void find_fid(const struct fw_view *v, struct fw_versions *o)
{
	const uint8_t *p = v->p, *end = v->p + v->len;
	const struct fw_layout *l = &fw_ami_fid_layout;
	while (!o->has_fid && (p = find_mark(p, end, FW_AMI_FID_SIGNATURE, 4))) {
		size_t off = (size_t)(p - v->p);
		p += 4;
		if (!fw_view_has(v, off, FW_AMI_FID_SIZE))
			return;
		const uint8_t *tag = fw_layout_ptr(l, v, off, FID_BIOS_TAG), *cmaj = fw_layout_ptr(l, v, off, FID_CORE_MAJOR);
		size_t tag_len = strnlen((const char *)tag, 9);
		if (tag_len == 0 || !printable(tag, tag_len) || !printable(cmaj, 2))
			continue;
		char a[4], b[4];
		chars(tag, tag_len, o->bios_tag);
		chars(cmaj, 3, a);
		chars(fw_layout_ptr(l, v, off, FID_CORE_MINOR), 3, b);
		snprintf(o->core_version, sizeof(o->core_version), "%d.%s", (int)strtol(a, NULL, 10), b);
		chars(fw_layout_ptr(l, v, off, FID_PROJECT_MAJOR), 3, a);
		chars(fw_layout_ptr(l, v, off, FID_PROJECT_MINOR), 3, b);
		snprintf(o->project_version, sizeof(o->project_version), "%s.%s", a, b);
		unsigned year = (unsigned)fw_layout_get(l, v, off, FID_YEAR), month = (unsigned)fw_layout_get(l, v, off, FID_MONTH),
			 day = (unsigned)fw_layout_get(l, v, off, FID_DAY);
		if (year >= 1990 && year < 2200 && month >= 1 && month <= 12 && day >= 1 && day <= 31)
			snprintf(o->build_date, sizeof(o->build_date), "%04u-%02u-%02uT%02u:%02u:%02u", year, month, day,
				 (unsigned)fw_layout_get(l, v, off, FID_HOUR) % 100, (unsigned)fw_layout_get(l, v, off, FID_MINUTE) % 100,
				 (unsigned)fw_layout_get(l, v, off, FID_SECOND) % 100);
		o->fid_offset = fw_view_abs(v, off);
		o->has_fid = true;
	}
}

struct walk {
	struct fw_versions *o;
};

/* A microcode patch level, once per patch ID and processor revision. */
static void add_microcode(struct fw_versions *o, const struct fw_view *d, uint64_t offset)
{
	if (d->len < 0x20 || o->nucode >= FW_VERSIONS_MAX_MICROCODE)
		return;
	struct fw_microcode_patch m = {fw_le32(d->p + 4), fw_le16(d->p + 24), fw_le32(d->p), offset};
	for (size_t i = 0; i < o->nucode; i++)
		if (o->ucode[i].patch_id == m.patch_id && o->ucode[i].processor_rev == m.processor_rev)
			return;
	o->ucode[o->nucode++] = m;
}

static bool visit(struct fw_node *n, void *ctx)
{
	struct walk *w = ctx;
	if (n->flags & FW_NODE_F_COMPRESSED) {
		find_agesa(&n->body, w->o);
		if (!w->o->has_fid)
			find_fid(&n->body, w->o);
	}
	if (n->kind != FW_NODE_PSP_ENTRY && n->type && strcmp(n->type, FW_AMD_UCODE_PATCH_TYPE) == 0) {
		/* a patch file, or a patch of a Linux container: only one that reads as a patch */
		if (fw_amd_microcode_plausible(&n->data, 0))
			add_microcode(w->o, &n->data, n->offset);
		return true;
	}
	const struct fw_amd_entry *e = n->kind == FW_NODE_PSP_ENTRY ? n->ext : NULL;
	if (!e || e->combo || !e->located)
		return true;
	if (!e->bios && e->type == 0x39 && e->version[0] && !w->o->sev[0])
		snprintf(w->o->sev, sizeof(w->o->sev), "%s", e->version);
	if (e->bios && e->type == 0x66)
		add_microcode(w->o, &n->data, n->offset);
	return true;
}

void fw_versions_collect(const struct fw_tree *t, struct fw_versions *out)
{
	memset(out, 0, sizeof(*out));
	out->fid_offset = FW_OFFSET_UNKNOWN;
	if (t->input) {
		struct fw_view v = fw_view_make(t->input, t->input_len, 0);
		find_agesa(&v, out);
		find_fid(&v, out);
	}
	struct walk w = {out};
	if (t->root)
		fw_node_walk(t->root, visit, &w);
}

static bool bcd(unsigned v, unsigned digits)
{
	for (unsigned i = 0; i < digits; i++, v >>= 4)
		if ((v & 0xF) > 9)
			return false;
	return true;
}

bool fw_microcode_date(uint32_t data_code, char out[11])
{
	/* BCD year in the low half, then day, then month (MCExtractor's reading of AMD patches) */
	unsigned mm = (data_code >> 24) & 0xFF, dd = (data_code >> 16) & 0xFF, yyyy = data_code & 0xFFFF;
	if (!bcd(mm, 2) || !bcd(dd, 2) || !bcd(yyyy, 4) || mm < 1 || mm > 0x12 || dd < 1 || dd > 0x31 || yyyy < 0x1990 ||
	    yyyy > 0x2199)
		return false;
	snprintf(out, 11, "%04X-%02X-%02X", yyyy, mm, dd);
	return true;
}

char *fw_microcode_str(const struct fw_microcode_patch *p, char *buf, size_t len)
{
	char date[11];
	if (fw_microcode_date(p->date, date))
		snprintf(buf, len, "0x%08X for processor revision 0x%04X, %s", p->patch_id, p->processor_rev, date);
	else
		snprintf(buf, len, "0x%08X for processor revision 0x%04X, data code 0x%08X", p->patch_id, p->processor_rev,
			 p->date);
	return buf;
}
