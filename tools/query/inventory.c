/* Modules and version strings of a firmware tree. */
#include "inventory.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capsule/amd-psp.h"
#include "capsule/ami-fid.h"
#include "parsers/ffs.h"
#include "parsers/layout.h"

/* Freeform subtype GUID of the section that holds AMI's $FID (reference/formats.md 1.3). */
static const struct fw_guid fid_section_guid =
	FW_GUID_INIT(0x2EBE0275, 0x6458, 0x4AF9, 0x91, 0xED, 0xD3, 0xF4, 0xED, 0xB1, 0x00, 0xAA);

#define AGESA_MARKER "AGESA!"
#define PSP_ENTRY_SEV_CODE 0x39
#define PSP_ENTRY_SMU 0x08
#define PSP_BLOB_MAGIC "$PS1"

struct walk {
	struct fw_inventory *inv;
	size_t cap;
	char agesa[256];
};

static bool field_uint(const struct fw_node *n, const char *key, uint64_t *out)
{
	const struct fw_field_value *f = fw_node_field_get(n, key);
	if (!f || (f->type != FW_VAL_UINT && f->type != FW_VAL_INT))
		return false;
	*out = f->v.u;
	return true;
}

/* The version section of a file, looked for in its sections (also inside compressed and
 * GUID-defined ones) but not in files nested below it. */
static const char *version_of(const struct fw_node *n)
{
	for (const struct fw_node *c = n->first_child; c; c = c->next) {
		if (c->kind == FW_NODE_FILE || c->kind == FW_NODE_VOLUME)
			continue;
		if (c->kind == FW_NODE_SECTION && c->type && strcmp(c->type, "Version") == 0) {
			const struct fw_field_value *f = fw_node_field_get(c, "Version");
			if (f && f->type == FW_VAL_STR)
				return f->v.s;
		}
		const char *v = version_of(c);
		if (v)
			return v;
	}
	return NULL;
}

static bool contains_volume(const struct fw_node *n)
{
	for (const struct fw_node *c = n->first_child; c; c = c->next)
		if (c->kind == FW_NODE_VOLUME || contains_volume(c))
			return true;
	return false;
}

static void add_module(struct walk *w, const struct fw_node *n)
{
	uint64_t type = 0;
	field_uint(n, "Type", &type);
	if (type == FW_FFS_TYPE_PAD || type == FW_FFS_TYPE_FIRMWARE_VOLUME_IMAGE || contains_volume(n) || !n->has_guid)
		return;
	struct fw_inventory *inv = w->inv;
	if (inv->nmodules == w->cap) {
		w->cap = w->cap ? w->cap * 2 : 256;
		inv->modules = fw_xrealloc(inv->modules, w->cap * sizeof(*inv->modules));
	}
	struct fw_module *m = &inv->modules[inv->nmodules++];
	memset(m, 0, sizeof(*m));
	m->guid = n->guid;
	m->name = n->name;
	m->type = n->type;
	m->version = version_of(n);
	m->offset = n->offset;
	m->data = n->data.p;
	m->len = n->data.len;
}

static int by_guid_then_position(const void *a, const void *b)
{
	const struct fw_module *x = *(const struct fw_module *const *)a, *y = *(const struct fw_module *const *)b;
	int c = memcmp(x->guid.b, y->guid.b, 16);
	return c ? c : (x < y ? -1 : x > y);
}

/* instance = how many files with the same GUID come before (a backup volume repeats them) */
static void number_instances(struct fw_inventory *inv)
{
	if (!inv->nmodules)
		return;
	struct fw_module **order = fw_xmalloc(inv->nmodules * sizeof(*order));
	for (size_t i = 0; i < inv->nmodules; i++)
		order[i] = &inv->modules[i];
	qsort(order, inv->nmodules, sizeof(*order), by_guid_then_position);
	for (size_t i = 1; i < inv->nmodules; i++)
		if (fw_guid_eq(&order[i]->guid, &order[i - 1]->guid))
			order[i]->instance = order[i - 1]->instance + 1;
	free(order);
}

/* Fixed-width ASCII field without padding, in the arena. */
static const char *chars(struct fw_arena *a, const uint8_t *p, size_t n)
{
	size_t k = 0;
	char buf[64];
	for (size_t i = 0; i < n && i + 1 < sizeof(buf) && p[i]; i++)
		if (isprint(p[i]))
			buf[k++] = (char)p[i];
	while (k && buf[k - 1] == ' ')
		k--;
	buf[k] = '\0';
	return fw_arena_strdup(a, buf);
}

static const char *no_leading_zero(const char *s)
{
	while (s[0] == '0' && isdigit((unsigned char)s[1]))
		s++;
	return s;
}

static void read_fid(struct walk *w, const struct fw_node *n)
{
	if (fw_inventory_version(w->inv, "bios_version"))
		return;
	const struct fw_view *v = &n->data;
	const uint8_t *hit = v->len >= 4 ? memmem(v->p, v->len, FW_AMI_FID_SIGNATURE, 4) : NULL;
	if (!hit)
		return;
	size_t off = (size_t)(hit - v->p);
	if (!fw_layout_check(&fw_ami_fid_layout, v, off, NULL))
		return;
	struct fw_arena *a = &w->inv->arena;
	const struct fw_layout *l = &fw_ami_fid_layout;
	const char *major = chars(a, fw_layout_ptr(l, v, off, FID_PROJECT_MAJOR), 3);
	const char *minor = chars(a, fw_layout_ptr(l, v, off, FID_PROJECT_MINOR), 3);
	char buf[64];
	snprintf(buf, sizeof(buf), "%s%s", major, minor);
	fw_inventory_set_version(w->inv, "bios_version", buf, "AMI $FID");
	fw_inventory_set_version(w->inv, "bios_tag", chars(a, fw_layout_ptr(l, v, off, FID_BIOS_TAG), 9), "AMI $FID");
	snprintf(buf, sizeof(buf), "%s.%s", no_leading_zero(chars(a, fw_layout_ptr(l, v, off, FID_CORE_MAJOR), 3)),
		 chars(a, fw_layout_ptr(l, v, off, FID_CORE_MINOR), 3));
	fw_inventory_set_version(w->inv, "ami_core", buf, "AMI $FID");
	unsigned y = (unsigned)fw_layout_get(l, v, off, FID_YEAR), mo = (unsigned)fw_layout_get(l, v, off, FID_MONTH),
		 d = (unsigned)fw_layout_get(l, v, off, FID_DAY);
	if (y >= 1990 && y < 2200 && mo >= 1 && mo <= 12 && d >= 1 && d <= 31) {
		/* as SMBIOS and /sys/class/dmi/id/bios_date write it, so image and machine compare */
		snprintf(buf, sizeof(buf), "%02u/%02u/%04u", mo, d, y);
		fw_inventory_set_version(w->inv, "bios_date", buf, "AMI $FID");
	}
}

/* "AGESA!V9\0ComboSP6PI 1.0.0.1a Patch A\0": the marker, two characters, NUL, the name; kept
 * as "AGESA!V9 ComboSP6PI 1.0.0.1a Patch A", the form PSPTool reports. */
static void scan_agesa(struct walk *w, const struct fw_view *v)
{
	const uint8_t *p = v->p, *end = v->p + v->len;
	const size_t mlen = sizeof(AGESA_MARKER) - 1;
	while (p && (size_t)(end - p) > mlen + 3) {
		const uint8_t *hit = memmem(p, (size_t)(end - p), AGESA_MARKER, mlen);
		if (!hit || (size_t)(end - hit) < mlen + 4)
			return;
		const uint8_t *s = hit + mlen + 3;
		size_t k = 0;
		char name[112];
		size_t pre = (size_t)snprintf(name, sizeof(name), "%s%c%c ", AGESA_MARKER, isprint(hit[mlen]) ? hit[mlen] : '?',
					      isprint(hit[mlen + 1]) ? hit[mlen + 1] : '?');
		while (s + k < end && pre + k + 1 < sizeof(name) && s[k] && isprint(s[k])) {
			name[pre + k] = (char)s[k];
			k++;
		}
		name[pre + k] = '\0';
		if (hit[mlen + 2] == 0 && k >= 3 && !strstr(w->agesa, name)) {
			size_t used = strlen(w->agesa);
			snprintf(w->agesa + used, sizeof(w->agesa) - used, "%s%s", used ? "; " : "", name);
		}
		p = hit + mlen;
	}
}

/* The PSP firmware blob header of an entry: its body, or its data, starting with the header. */
static const uint8_t *psp_header(const struct fw_node *n)
{
	const struct fw_view *views[2] = {&n->body, &n->data};
	for (int i = 0; i < 2; i++) {
		const struct fw_view *v = views[i];
		if (v->p && fw_view_has(v, 0, FW_AMD_PSP_BLOB_HEADER_SIZE) && memcmp(v->p + 0x10, PSP_BLOB_MAGIC, 4) == 0)
			return v->p;
	}
	return NULL;
}

static void read_psp_entry(struct walk *w, const struct fw_node *n)
{
	uint64_t type;
	if (!field_uint(n, "Type", &type))
		return;
	const uint8_t *h = psp_header(n);
	if (!h)
		return;
	struct fw_view hv = fw_view_make(h, FW_AMD_PSP_BLOB_HEADER_SIZE, 0);
	const uint8_t *ver = fw_layout_ptr(&fw_amd_psp_blob_layout, &hv, 0, PSPHDR_VERSION);
	char buf[64];
	if (type == PSP_ENTRY_SEV_CODE && !fw_inventory_version(w->inv, "sev_firmware")) {
		/* bytes: build, API minor, API major: what the ccp driver prints as "SEV API:1.55 build:21" */
		snprintf(buf, sizeof(buf), "%u.%u build %u", ver[2], ver[1], ver[0]);
		fw_inventory_set_version(w->inv, "sev_firmware", buf, "PSP entry 0x39");
	} else if (type == PSP_ENTRY_SMU && !fw_inventory_version(w->inv, "smu_firmware")) {
		snprintf(buf, sizeof(buf), "%u.%u.%u", ver[2], ver[1], ver[0]);
		fw_inventory_set_version(w->inv, "smu_firmware", buf, "PSP entry 0x08");
	}
}

static bool visit(struct fw_node *n, void *ctx)
{
	struct walk *w = ctx;
	switch (n->kind) {
	case FW_NODE_FILE:
		add_module(w, n);
		break;
	case FW_NODE_SECTION:
		if (n->has_guid && fw_guid_eq(&n->guid, &fid_section_guid))
			read_fid(w, n);
		break;
	case FW_NODE_PSP_ENTRY:
		read_psp_entry(w, n);
		break;
	default:
		break;
	}
	/* the AGESA marker sits in module bodies and the ABL: scan every leaf's bytes once */
	if (!n->first_child && n->kind != FW_NODE_FREE_SPACE && n->kind != FW_NODE_PADDING && n->body.p)
		scan_agesa(w, &n->body);
	return true;
}

void fw_inventory_build(const struct fw_node *root, struct fw_inventory *out)
{
	memset(out, 0, sizeof(*out));
	fw_arena_init(&out->arena);
	if (!root)
		return;
	struct walk w = {out, 0, ""};
	fw_node_walk((struct fw_node *)root, visit, &w);
	number_instances(out);
	if (w.agesa[0])
		fw_inventory_set_version(out, "agesa", w.agesa, "AGESA! marker");
}

void fw_inventory_free(struct fw_inventory *inv)
{
	free(inv->modules);
	fw_arena_free(&inv->arena);
	memset(inv, 0, sizeof(*inv));
}

const char *fw_module_sha256(struct fw_module *m)
{
	if (!m->hashed) {
		fw_sha256_hex(m->data, m->len, m->sha256);
		m->hashed = true;
	}
	return m->sha256;
}

void fw_inventory_set_version(struct fw_inventory *inv, const char *key, const char *value, const char *source)
{
	if (!value || !*value)
		return;
	struct fw_version_fact *f = (struct fw_version_fact *)fw_inventory_version(inv, key);
	if (!f) {
		if (inv->nversions == FW_INVENTORY_MAX_VERSIONS)
			return;
		f = &inv->versions[inv->nversions++];
		f->key = fw_arena_strdup(&inv->arena, key);
	}
	f->value = fw_arena_strdup(&inv->arena, value);
	f->source = fw_arena_strdup(&inv->arena, source);
}

const struct fw_version_fact *fw_inventory_version(const struct fw_inventory *inv, const char *key)
{
	for (size_t i = 0; i < inv->nversions; i++)
		if (strcmp(inv->versions[i].key, key) == 0)
			return &inv->versions[i];
	return NULL;
}
