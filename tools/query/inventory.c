/* Modules and version strings of a firmware tree. */
#include "inventory.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capsule/amd-flash.h"
#include "capsule/version.h"
#include "parsers/ffs.h"

struct walk {
	struct fw_inventory *inv;
	size_t cap;
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
	m->node = (struct fw_node *)n;
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

/* The version facts capsule/version.h finds, in the forms diff compares: the BIOS version as the
 * vendor numbers it ("1203" from project version 12.03), dates as SMBIOS and /sys/class/dmi/id
 * write them (MM/DD/YYYY), the SEV firmware as the ccp driver prints it ("1.55 build 21"). */
static void add_versions(struct fw_inventory *inv, const struct fw_tree *t)
{
	struct fw_versions v;
	fw_versions_collect(t, &v);
	char buf[512];
	if (v.has_fid) {
		size_t k = 0;
		for (const char *p = v.project_version; *p && k + 1 < sizeof(buf); p++)
			if (*p != '.')
				buf[k++] = *p;
		buf[k] = '\0';
		fw_inventory_set_version(inv, "bios_version", buf, "AMI $FID");
		fw_inventory_set_version(inv, "bios_tag", v.bios_tag, "AMI $FID");
		fw_inventory_set_version(inv, "ami_core", v.core_version, "AMI $FID");
		unsigned y, mo, d;
		if (sscanf(v.build_date, "%4u-%2u-%2u", &y, &mo, &d) == 3) {
			snprintf(buf, sizeof(buf), "%02u/%02u/%04u", mo, d, y);
			fw_inventory_set_version(inv, "bios_date", buf, "AMI $FID");
		}
	}
	buf[0] = '\0';
	for (size_t i = 0; i < v.nagesa; i++) {
		size_t used = strlen(buf);
		snprintf(buf + used, sizeof(buf) - used, "%s%s", i ? "; " : "", v.agesa[i]);
	}
	fw_inventory_set_version(inv, "agesa", buf, "AGESA! marker");
	unsigned b3, b2, b1, b0;
	if (v.sev[0] && sscanf(v.sev, "%x.%x.%x.%x", &b3, &b2, &b1, &b0) == 4) {
		/* header version bytes: build, API minor, API major */
		snprintf(buf, sizeof(buf), "%u.%u build %u", b2, b1, b0);
		fw_inventory_set_version(inv, "sev_firmware", buf, "PSP entry 0x39");
	}
	buf[0] = '\0';
	for (size_t i = 0; i < v.nucode; i++) {
		size_t used = strlen(buf);
		snprintf(buf + used, sizeof(buf) - used, "%s0x%08X", i ? ", " : "", v.ucode[i].patch_id);
	}
	fw_inventory_set_version(inv, "microcode", buf, "BIOS directory entries 0x66");
}

/* Firmware the PSP loads, by PSP directory entry type, versioned by its PSP header (in the form
 * `fwlens psp` prints: the header's version bytes, most significant first). */
static const struct {
	uint8_t type;
	const char *key;
} psp_versions[] = {
	{0x01, "psp_bootloader"}, {0x02, "psp_trusted_os"}, {0x08, "smu_firmware"},
	{0x30, "abl"},            {0x42, "dxio_firmware"},  {0x5D, "mpio_firmware"},
};

static void add_psp_version(struct fw_inventory *inv, const struct fw_node *n)
{
	const struct fw_amd_entry *e = n->ext;
	if (!e || e->bios || e->combo || !e->version[0])
		return;
	for (size_t i = 0; i < sizeof(psp_versions) / sizeof(psp_versions[0]); i++)
		if (psp_versions[i].type == e->type && !fw_inventory_version(inv, psp_versions[i].key)) {
			char where[32];
			snprintf(where, sizeof(where), "PSP entry 0x%02X", e->type);
			fw_inventory_set_version(inv, psp_versions[i].key, e->version, where);
		}
}

static bool visit(struct fw_node *n, void *ctx)
{
	struct walk *w = ctx;
	if (n->kind == FW_NODE_FILE)
		add_module(w, n);
	else if (n->kind == FW_NODE_PSP_ENTRY)
		add_psp_version(w->inv, n);
	return true;
}

void fw_inventory_build(const struct fw_tree *t, struct fw_inventory *out)
{
	memset(out, 0, sizeof(*out));
	fw_arena_init(&out->arena);
	if (!t || !t->root)
		return;
	struct walk w = {out, 0};
	add_versions(out, t);
	fw_node_walk(t->root, visit, &w);
	number_instances(out);
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
