/* NVRAM variable model shared by every store format. */
#include "nvram.h"

#include <stdlib.h>
#include <string.h>

const char *fw_var_state_name(enum fw_var_state s)
{
	switch (s) {
	case FW_VAR_STATE_VALID: return "valid";
	case FW_VAR_STATE_DELETED: return "deleted";
	case FW_VAR_STATE_INVALID: return "invalid";
	}
	return "invalid";
}

static void push(struct fw_varlist *l, struct fw_variable *v)
{
	if (l->count == l->cap) {
		l->cap = l->cap ? l->cap * 2 : 64;
		l->items = fw_xrealloc(l->items, l->cap * sizeof(*l->items));
	}
	l->items[l->count++] = v;
}

struct collect_ctx {
	bool all;
	struct fw_varlist *out;
};

static bool collect_visit(struct fw_node *n, void *ctx)
{
	struct collect_ctx *c = ctx;
	if (n->kind == FW_NODE_VARIABLE && n->ext) {
		struct fw_variable *v = n->ext;
		if (c->all || v->state == FW_VAR_STATE_VALID)
			push(c->out, v);
	}
	return true;
}

void fw_nvram_collect(struct fw_node *root, bool all_versions, struct fw_varlist *out)
{
	struct collect_ctx c = {all_versions, out};
	if (root)
		fw_node_walk(root, collect_visit, &c);
}

const struct fw_variable *fw_nvram_find(const struct fw_varlist *l, const char *name, const struct fw_guid *g)
{
	for (size_t i = 0; i < l->count; i++) {
		const struct fw_variable *v = l->items[i];
		if (v->state != FW_VAR_STATE_VALID || strcmp(v->name, name) != 0)
			continue;
		if (v->store && (strcmp(v->store, "StdDefaults") == 0 || strcmp(v->store, "MfgDefaults") == 0))
			continue;
		if (!g || fw_guid_eq(&v->guid, g))
			return v;
	}
	return NULL;
}

void fw_varlist_free(struct fw_varlist *l)
{
	free(l->items);
	memset(l, 0, sizeof(*l));
}

/* Store parsers not yet implemented report so; the NVRAM work replaces these. */
bool fw_nvar_parse_store(struct fw_tree *t, struct fw_node *parent, const struct fw_view *v, struct fw_error *err)
{
	(void)t, (void)parent, (void)v;
	return fw_error_set(err, FW_E_UNSUPPORTED, "NVAR stores are not decoded yet");
}

bool fw_vss_parse_store(struct fw_tree *t, struct fw_node *parent, const struct fw_view *v, struct fw_error *err)
{
	(void)t, (void)parent, (void)v;
	return fw_error_set(err, FW_E_UNSUPPORTED, "VSS stores are not decoded yet");
}

bool fw_efivarfs_parse_file(struct fw_tree *t, struct fw_node *parent, const char *file_name, const struct fw_view *v,
			    struct fw_error *err)
{
	(void)t, (void)parent, (void)file_name, (void)v;
	return fw_error_set(err, FW_E_UNSUPPORTED, "efivarfs files are not decoded yet");
}

bool fw_efivarfs_load(const char *path, struct fw_tree *t, struct fw_error *err)
{
	(void)t;
	return fw_error_set(err, FW_E_UNSUPPORTED, "%s: efivarfs folders are not decoded yet", path);
}
