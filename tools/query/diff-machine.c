/* What inventories and running machines hold: versions, modules, EFI variables and the kernel side
 * (command line, kvm_amd, /dev/sev, IOMMU groups). */
#include "diff-internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "parsers/hash.h"
#include "parsers/strmap.h"

/* ---- versions ---- */

void fw_diff_versions(struct fw_diff *d, struct fw_inventory *ia, struct fw_inventory *ib)
{
	for (size_t i = 0; i < ia->nversions; i++) {
		const struct fw_version_fact *va = &ia->versions[i], *vb = fw_inventory_version(ib, va->key);
		if (!vb)
			fw_diff_add_entry(d, "versions", NULL, FW_DIFF_REMOVED, va->key, va->value, NULL);
		else if (strcmp(va->value, vb->value) != 0)
			fw_diff_add_entry(d, "versions", NULL, FW_DIFF_CHANGED, va->key, va->value, vb->value);
	}
	for (size_t i = 0; i < ib->nversions; i++)
		if (!fw_inventory_version(ia, ib->versions[i].key))
			fw_diff_add_entry(d, "versions", NULL, FW_DIFF_ADDED, ib->versions[i].key, NULL, ib->versions[i].value);
}

/* ---- modules ---- */

static bool module_wanted(const struct fw_module *m, const char *want)
{
	if (!want)
		return true;
	if (m->name && strcasecmp(m->name, want) == 0)
		return true;
	char g[FW_GUID_STR_LEN];
	fw_guid_format(&m->guid, g);
	size_t n = strlen(want);
	return n >= 4 && strncasecmp(g, want, n) == 0;
}

static const char *module_key(const struct fw_module *m, char *buf, size_t len)
{
	char g[FW_GUID_STR_LEN];
	snprintf(buf, len, "%s#%u", fw_guid_format(&m->guid, g), m->instance);
	return buf;
}

/* The volume a module lies in, by its offset in the input ("volume @0x1000000"); a volume inside
 * compressed data is named by the one around it that has an offset. */
static const char *module_volume(struct fw_arena *ar, const struct fw_module *m)
{
	for (const struct fw_node *n = m->node ? m->node->parent : NULL; n; n = n->parent)
		if (n->kind == FW_NODE_VOLUME && n->offset != FW_OFFSET_UNKNOWN)
			return fw_arena_printf(ar, "volume @0x%llX", (unsigned long long)n->offset);
	return NULL;
}

static void module_entry(struct fw_diff *d, enum fw_diff_kind kind, struct fw_module *a, struct fw_module *b)
{
	struct fw_module *m = b ? b : a;
	char g[FW_GUID_STR_LEN];
	struct fw_diff_entry *e = fw_diff_add_entry(d, "modules", NULL, kind, fw_guid_format(&m->guid, g),
					a ? fw_module_sha256(a) : NULL, b ? fw_module_sha256(b) : NULL);
	e->name = m->name ? fw_arena_strdup(&d->arena, m->name) : NULL;
	e->where = module_volume(&d->arena, m);
	if (kind != FW_DIFF_CHANGED)
		return;
	struct fw_diff_fields f = {.n = 0};
	struct fw_arena *ar = &d->arena;
	if (!fw_guid_eq(&a->guid, &b->guid))
		fw_diff_field(&f, "GUID", fw_arena_strdup(ar, fw_guid_format(&a->guid, g)), fw_arena_strdup(ar, fw_guid_format(&b->guid, g)),
		      NULL);
	if (!fw_diff_str_eq(a->name, b->name))
		fw_diff_field(&f, "name", a->name ? a->name : "(none)", b->name ? b->name : "(none)", NULL);
	if (!fw_diff_str_eq(a->version, b->version))
		fw_diff_field(&f, "version", a->version ? a->version : "(none)", b->version ? b->version : "(none)", NULL);
	if (a->len != b->len)
		fw_diff_field(&f, "size", fw_arena_printf(ar, "%zu", a->len), fw_arena_printf(ar, "%zu", b->len), NULL);
	fw_diff_field(&f, "sha256", fw_module_sha256(a), fw_module_sha256(b), NULL);
	e->fields = fw_diff_keep_fields(d, &f);
	e->nfields = f.n;
}

static bool module_same(const struct fw_module *a, const struct fw_module *b)
{
	return a->len == b->len && memcmp(a->data, b->data, a->len) == 0 && fw_diff_str_eq(a->name, b->name);
}

static void node_push(struct fw_diff_nodes *l, const struct fw_module *m)
{
	l->v = fw_diff_grow(l->v, &l->cap, l->n, sizeof(*l->v));
	l->v[l->n++] = m->node;
}

/* A module with several copies (a backup volume repeats them) is listed once per copy with the
 * copy's volume, or once for all copies when each changed the same way (same kind, same bytes
 * before and after). The first copy's entry is marked, the others dropped. */
static bool has_copies(const struct fw_inventory *inv, const struct fw_guid *g)
{
	size_t n = 0;
	for (size_t i = 0; i < inv->nmodules && n < 2; i++)
		n += fw_guid_eq(&inv->modules[i].guid, g);
	return n > 1;
}

static bool same_change(const struct fw_diff_entry *x, const struct fw_diff_entry *e)
{
	if (x->kind != e->kind || !fw_diff_str_eq(x->old_value, e->old_value) || !fw_diff_str_eq(x->new_value, e->new_value) ||
	    x->nfields != e->nfields)
		return false;
	for (size_t k = 0; k < x->nfields; k++)
		if (!fw_diff_str_eq(x->fields[k].old_value, e->fields[k].old_value) ||
		    !fw_diff_str_eq(x->fields[k].new_value, e->fields[k].new_value))
			return false;
	return true;
}

static void module_copies(struct fw_diff *d, size_t first, const struct fw_inventory *ia, const struct fw_inventory *ib)
{
	for (size_t i = first; i < d->nentries; i++) {
		struct fw_guid g;
		d->entries[i].copies = fw_guid_parse(d->entries[i].key, &g) && (has_copies(ia, &g) || has_copies(ib, &g));
	}
}

/* Entries [first, n) whose `copies` is set: one entry for all copies of a key when each changed
 * the same way, else one per copy (each with its own `where`). */
static void merge_copies(struct fw_diff *d, size_t first)
{
	size_t n = d->nentries - first;
	if (!n)
		return;
	/* decide for every entry first, then compact */
	char *drop = fw_xcalloc(n, 1);
	for (size_t i = first; i < d->nentries; i++) {
		struct fw_diff_entry *e = &d->entries[i];
		if (!e->copies || drop[i - first])
			continue;
		size_t same = 0, all = 0;
		for (size_t j = first; j < d->nentries; j++) {
			const struct fw_diff_entry *x = &d->entries[j];
			if (!x->copies || strcmp(x->key, e->key) != 0)
				continue;
			all++;
			same += same_change(x, e);
		}
		if (all < 2 || same != all)
			continue;
		for (size_t j = i + 1; j < d->nentries; j++)
			if (d->entries[j].copies && strcmp(d->entries[j].key, e->key) == 0)
				drop[j - first] = 1;
		e->where = all == 2 ? "both copies" : fw_arena_printf(&d->arena, "all %zu copies", all);
	}
	size_t kept = first;
	for (size_t i = first; i < d->nentries; i++)
		if (!drop[i - first])
			d->entries[kept++] = d->entries[i];
	d->nentries = kept;
	free(drop);
}

void fw_diff_modules(struct fw_diff *d, struct fw_inventory *ia, struct fw_inventory *ib, const struct fw_diff_options *o,
			 struct fw_diff_nodes *da, struct fw_diff_nodes *db)
{
	size_t first = d->nentries;
	struct fw_strmap mb;
	fw_strmap_init(&mb);
	char key[64];
	size_t nb = 0, na = 0;
	struct fw_module *only_a = NULL, *only_b = NULL;
	bool *used = fw_xcalloc(ib->nmodules ? ib->nmodules : 1, sizeof(bool));
	for (size_t i = 0; i < ib->nmodules; i++)
		if (module_wanted(&ib->modules[i], o ? o->module_b : NULL)) {
			fw_strmap_put(&mb, module_key(&ib->modules[i], key, sizeof(key)), &ib->modules[i]);
			nb++;
			only_b = &ib->modules[i];
		}
	for (size_t i = 0; i < ia->nmodules; i++)
		if (module_wanted(&ia->modules[i], o ? o->module_a : NULL)) {
			na++;
			only_a = &ia->modules[i];
		}
	/* --module on each side naming different modules: compare those two */
	if (o && (o->module_a || o->module_b) && na == 1 && nb == 1 && !fw_guid_eq(&only_a->guid, &only_b->guid)) {
		if (!module_same(only_a, only_b)) {
			module_entry(d, FW_DIFF_CHANGED, only_a, only_b);
			node_push(da, only_a);
			node_push(db, only_b);
		}
		fw_strmap_free(&mb);
		free(used);
		module_copies(d, first, ia, ib);
	merge_copies(d, first);
		return;
	}
	for (size_t i = 0; i < ia->nmodules; i++) {
		struct fw_module *a = &ia->modules[i];
		if (!module_wanted(a, o ? o->module_a : NULL))
			continue;
		struct fw_module *b = fw_strmap_get(&mb, module_key(a, key, sizeof(key)));
		if (!b) {
			module_entry(d, FW_DIFF_REMOVED, a, NULL);
			node_push(da, a);
			continue;
		}
		used[b - ib->modules] = true;
		if (!module_same(a, b)) {
			module_entry(d, FW_DIFF_CHANGED, a, b);
			node_push(da, a);
			node_push(db, b);
		}
	}
	for (size_t i = 0; i < ib->nmodules; i++)
		if (!used[i] && module_wanted(&ib->modules[i], o ? o->module_b : NULL)) {
			module_entry(d, FW_DIFF_ADDED, NULL, &ib->modules[i]);
			node_push(db, &ib->modules[i]);
		}
	fw_strmap_free(&mb);
	free(used);
	module_copies(d, first, ia, ib);
	merge_copies(d, first);
}

/* ---- EFI variables ---- */

static const char *var_key(const struct fw_variable *v, char *buf, size_t len)
{
	char g[FW_GUID_STR_LEN];
	snprintf(buf, len, "%s %s%s%s", v->name, fw_guid_format(&v->guid, g), v->store && strcmp(v->store, "efivarfs") ? " in " : "",
		 v->store && strcmp(v->store, "efivarfs") ? v->store : "");
	return buf;
}

/* Stores of one image can hold a variable twice (the NVRAM volume and its backup, two defaults
 * stores): the n-th record of a key on one side is paired with the n-th on the other. */
static const char *nth_key(struct fw_strmap *count, const char *key, char *buf, size_t len, unsigned *nth)
{
	uintptr_t n = (uintptr_t)fw_strmap_get(count, key);
	fw_strmap_put(count, key, (void *)(n + 1));
	*nth = (unsigned)n;
	snprintf(buf, len, "%s#%u", key, (unsigned)n);
	return buf;
}

static void var_where(struct fw_diff *d, struct fw_diff_entry *e, const struct fw_variable *v, unsigned nth,
		      bool copies)
{
	e->copies = copies;
	if (copies)
		e->where = v->offset != FW_OFFSET_UNKNOWN
				   ? fw_arena_printf(&d->arena, "copy %u, record @0x%llX", nth + 1, (unsigned long long)v->offset)
				   : fw_arena_printf(&d->arena, "copy %u", nth + 1);
}

void fw_diff_variables(struct fw_diff *d, const struct fw_varlist *va, const struct fw_varlist *vb)
{
	size_t first = d->nentries;
	struct fw_strmap mb, na, nb;
	fw_strmap_init(&mb);
	fw_strmap_init(&na);
	fw_strmap_init(&nb);
	char key[512], nkey[530];
	unsigned nth;
	for (size_t i = 0; i < vb->count; i++)
		fw_strmap_put(&mb, nth_key(&nb, var_key(vb->items[i], key, sizeof(key)), nkey, sizeof(nkey), &nth),
			      vb->items[i]);
	struct fw_strmap seen, ca;
	fw_strmap_init(&seen);
	fw_strmap_init(&ca);
	for (size_t i = 0; i < va->count; i++)
		nth_key(&ca, var_key(va->items[i], key, sizeof(key)), nkey, sizeof(nkey), &nth);
	char sha_a[FW_SHA256_HEX_LEN], sha_b[FW_SHA256_HEX_LEN];
	for (size_t i = 0; i < va->count; i++) {
		const struct fw_variable *a = va->items[i];
		var_key(a, key, sizeof(key));
		bool copies = (uintptr_t)fw_strmap_get(&ca, key) > 1 || (uintptr_t)fw_strmap_get(&nb, key) > 1;
		nth_key(&na, key, nkey, sizeof(nkey), &nth);
		fw_strmap_put(&seen, nkey, (void *)a);
		const struct fw_variable *b = fw_strmap_get(&mb, nkey);
		if (!b) {
			struct fw_diff_entry *e = fw_diff_add_entry(d, "variables", NULL, FW_DIFF_REMOVED, key,
								    fw_arena_printf(&d->arena, "%zu bytes", a->size), NULL);
			var_where(d, e, a, nth, copies);
			continue;
		}
		if (a->size == b->size && memcmp(a->data, b->data, a->size) == 0 && a->attributes == b->attributes)
			continue;
		struct fw_diff_entry *e = fw_diff_add_entry(d, "variables", NULL, FW_DIFF_CHANGED, key, NULL, NULL);
		var_where(d, e, b, nth, copies);
		struct fw_diff_fields f = {.n = 0};
		if (a->size != b->size)
			fw_diff_field(&f, "size", fw_arena_printf(&d->arena, "%zu", a->size), fw_arena_printf(&d->arena, "%zu", b->size), NULL);
		if (a->attributes != b->attributes)
			fw_diff_field(&f, "attributes", fw_arena_printf(&d->arena, "0x%X", a->attributes),
			      fw_arena_printf(&d->arena, "0x%X", b->attributes), NULL);
		fw_diff_field(&f, "sha256", fw_arena_strdup(&d->arena, fw_sha256_hex(a->data, a->size, sha_a)),
		      fw_arena_strdup(&d->arena, fw_sha256_hex(b->data, b->size, sha_b)), NULL);
		e->fields = fw_diff_keep_fields(d, &f);
		e->nfields = f.n;
	}
	struct fw_strmap nb2;
	fw_strmap_init(&nb2);
	for (size_t i = 0; i < vb->count; i++) {
		const struct fw_variable *b = vb->items[i];
		var_key(b, key, sizeof(key));
		bool copies = (uintptr_t)fw_strmap_get(&ca, key) > 1 || (uintptr_t)fw_strmap_get(&nb, key) > 1;
		if (!fw_strmap_has(&seen, nth_key(&nb2, key, nkey, sizeof(nkey), &nth))) {
			struct fw_diff_entry *e = fw_diff_add_entry(d, "variables", NULL, FW_DIFF_ADDED, key, NULL,
								    fw_arena_printf(&d->arena, "%zu bytes", b->size));
			var_where(d, e, b, nth, copies);
		}
	}
	merge_copies(d, first);
	fw_strmap_free(&nb2);
	fw_strmap_free(&ca);
	fw_strmap_free(&seen);
	fw_strmap_free(&na);
	fw_strmap_free(&nb);
	fw_strmap_free(&mb);
}

/* ---- kernel side of two machines ---- */

/* All values of one option, as the kernel sees them ("iommu=pt", "amd_iommu=on off"). */
static const char *option_values(struct fw_arena *ar, const struct fw_host *h, const char *key)
{
	char buf[1024] = "";
	size_t used = 0;
	bool any = false;
	for (size_t i = 0; i < h->noptions && used + 1 < sizeof(buf); i++) {
		if (strcmp(h->options[i].key, key) != 0)
			continue;
		any = true;
		used += (size_t)snprintf(buf + used, sizeof(buf) - used, "%s%s%s%s", used ? " " : "", key,
					 h->options[i].value ? "=" : "", h->options[i].value ? h->options[i].value : "");
	}
	return any ? fw_arena_strdup(ar, buf) : NULL;
}

static void diff_cmdline(struct fw_diff *d, const struct fw_host *a, const struct fw_host *b)
{
	struct fw_strmap seen;
	fw_strmap_init(&seen);
	const struct fw_host *hosts[2] = {a, b};
	for (int s = 0; s < 2; s++)
		for (size_t i = 0; i < hosts[s]->noptions; i++) {
			const char *key = hosts[s]->options[i].key;
			if (fw_strmap_has(&seen, key))
				continue;
			fw_strmap_put(&seen, key, NULL);
			const char *va = option_values(&d->arena, a, key), *vb = option_values(&d->arena, b, key);
			if (fw_diff_str_eq(va, vb))
				continue;
			fw_diff_add_entry(d, "kernel", "cmdline", !va ? FW_DIFF_ADDED : !vb ? FW_DIFF_REMOVED : FW_DIFF_CHANGED, key, va, vb);
		}
	fw_strmap_free(&seen);
}

/* Groups are renumbered between boots: a group is known by its first device. */
static void diff_groups(struct fw_diff *d, const struct fw_host *a, const struct fw_host *b)
{
	struct fw_strmap mb;
	fw_strmap_init(&mb);
	for (size_t i = 0; i < b->ngroups; i++)
		if (b->groups[i].ndevices)
			fw_strmap_put(&mb, b->groups[i].devices[0], &b->groups[i]);
	struct fw_strmap seen;
	fw_strmap_init(&seen);
	for (size_t i = 0; i < a->ngroups; i++) {
		const struct fw_iommu_group *ga = &a->groups[i];
		if (!ga->ndevices)
			continue;
		fw_strmap_put(&seen, ga->devices[0], NULL);
		const struct fw_iommu_group *gb = fw_strmap_get(&mb, ga->devices[0]);
		char key[128];
		snprintf(key, sizeof(key), "%s (group %d)", ga->devices[0], gb ? gb->id : ga->id);
		if (!gb)
			fw_diff_add_entry(d, "kernel", "iommu-groups", FW_DIFF_REMOVED, key, ga->type ? ga->type : "?", NULL);
		else if (!fw_diff_str_eq(ga->type, gb->type))
			fw_diff_add_entry(d, "kernel", "iommu-groups", FW_DIFF_CHANGED, key, ga->type ? ga->type : "?",
			      gb->type ? gb->type : "?");
		else if (ga->ndevices != gb->ndevices)
			fw_diff_add_entry(d, "kernel", "iommu-groups", FW_DIFF_CHANGED, key,
			      fw_arena_printf(&d->arena, "%zu devices", ga->ndevices),
			      fw_arena_printf(&d->arena, "%zu devices", gb->ndevices));
	}
	for (size_t i = 0; i < b->ngroups; i++) {
		const struct fw_iommu_group *gb = &b->groups[i];
		if (!gb->ndevices || fw_strmap_has(&seen, gb->devices[0]))
			continue;
		char key[128];
		snprintf(key, sizeof(key), "%s (group %d)", gb->devices[0], gb->id);
		fw_diff_add_entry(d, "kernel", "iommu-groups", FW_DIFF_ADDED, key, NULL, gb->type ? gb->type : "?");
	}
	fw_strmap_free(&seen);
	fw_strmap_free(&mb);
}

void fw_diff_kernel(struct fw_diff *d, const struct fw_host *a, const struct fw_host *b)
{
	if (!fw_diff_str_eq(a->kernel_release, b->kernel_release))
		fw_diff_add_entry(d, "kernel", "release", FW_DIFF_CHANGED, "release", a->kernel_release, b->kernel_release);
	diff_cmdline(d, a, b);
	const char *names[] = {"sev", "sev_es", "sev_snp"};
	const char *va[] = {a->kvm_sev, a->kvm_sev_es, a->kvm_sev_snp}, *vb[] = {b->kvm_sev, b->kvm_sev_es, b->kvm_sev_snp};
	for (int i = 0; i < 3; i++)
		if (!fw_diff_str_eq(va[i], vb[i]))
			fw_diff_add_entry(d, "kernel", "kvm_amd", !va[i] ? FW_DIFF_ADDED : !vb[i] ? FW_DIFF_REMOVED : FW_DIFF_CHANGED,
			      names[i], va[i], vb[i]);
	if (a->dev_sev != b->dev_sev)
		fw_diff_add_entry(d, "kernel", "devices", FW_DIFF_CHANGED, "/dev/sev", a->dev_sev ? "present" : "absent",
		      b->dev_sev ? "present" : "absent");
	diff_groups(d, a, b);
}
