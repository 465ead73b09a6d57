/* NVRAM variable model shared by every store format. */
#include "nvram.h"

#include <stdlib.h>
#include <string.h>

#include "ucs2.h"
#include "vss.h"

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

struct fw_variable *fw_variable_new(struct fw_tree *t)
{
	struct fw_variable *v = fw_arena_alloc(&t->arena, sizeof(*v));
	v->offset = FW_OFFSET_UNKNOWN;
	v->name = "";
	return v;
}

struct fw_node *fw_nvram_add_variable(struct fw_tree *t, struct fw_node *parent, const char *type,
				      const struct fw_view *record, struct fw_variable *var, struct fw_error *err)
{
	struct fw_node *n = fw_node_add(t, parent, FW_NODE_VARIABLE, type, record, err);
	if (!n)
		return NULL;
	n->ext = var;
	var->node = n;
	if (record)
		var->offset = record->base;
	if (var->name && var->name[0])
		n->name = var->name;
	if (var->state != FW_VAR_STATE_INVALID || !fw_guid_is_zero(&var->guid)) {
		fw_node_set_guid(n, &var->guid);
		n->text = fw_guid_name(&var->guid);
	}
	char attrs[64];
	fw_node_field_str(t, n, "VariableState", fw_var_state_name(var->state));
	fw_node_field_uint(t, n, "EfiAttributes", var->attributes, FW_FMT_HEX);
	fw_node_field_str(t, n, "EfiAttributes flags", fw_efi_attributes_str(var->attributes, attrs, sizeof(attrs)));
	fw_node_field_uint(t, n, "DataSize", var->size, FW_FMT_HEX);
	return n;
}

const char *fw_nvram_name_8bit(struct fw_tree *t, const uint8_t *p, size_t n)
{
	if (n > t->limits.max_string)
		n = t->limits.max_string;
	return fw_char8_to_utf8_buf(p, n, fw_arena_alloc(&t->arena, n * 2 + 1), n * 2 + 1);
}

const char *fw_nvram_name_ucs2(struct fw_tree *t, const uint8_t *p, size_t units)
{
	if (units > t->limits.max_string)
		units = t->limits.max_string;
	size_t cap = units * 3 + 1;
	char *out = fw_arena_alloc(&t->arena, cap);
	return fw_ucs2_to_utf8_buf(p, units, out, cap);
}
