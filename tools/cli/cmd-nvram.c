/* fwlens nvram: the variable stores in a firmware input (AMI NVAR, EDK2 VSS/VSS2, efivarfs files,
 * folders and tar archives) with their variables, and with --secureboot the certificates and
 * hashes of the Secure Boot databases. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capsule/detect.h"
#include "cli.h"
#include "emit.h"
#include "parsers/file.h"
#include "parsers/hash.h"
#include "parsers/nvar.h"
#include "parsers/nvram.h"
#include "parsers/sigdb.h"
#include "parsers/tar.h"
#include "parsers/vss.h"
#include "tools/query/vars-input.h"

/* Variables larger than this are listed with their SHA-256 instead of their data. */
#define DATA_HEX_MAX (64 * 1024)

/* ---- the model: stores and their variables in tree order ------------------------------------ */

struct store_ref {
	struct fw_node *store;
	struct fw_variable **vars;
	size_t count, cap;
};

struct listing {
	struct store_ref *stores;
	size_t count, cap;
	bool all;
	const char *name;
	bool secureboot;
};

static struct fw_node *store_of(struct fw_node *n)
{
	for (n = n->parent; n; n = n->parent)
		if (n->kind == FW_NODE_NVRAM_STORE)
			return n;
	return NULL;
}

static bool wanted(const struct listing *l, const struct fw_variable *v)
{
	if (!l->all && v->state != FW_VAR_STATE_VALID)
		return false;
	if (l->name && strcmp(l->name, v->name) != 0)
		return false;
	return !l->secureboot || fw_sigdb_is_database(v->name, &v->guid);
}

static bool collect_visit(struct fw_node *n, void *ctx)
{
	struct listing *l = ctx;
	if (n->kind == FW_NODE_NVRAM_STORE) {
		if (l->count == l->cap) {
			l->cap = l->cap ? l->cap * 2 : 8;
			l->stores = fw_xrealloc(l->stores, l->cap * sizeof(*l->stores));
		}
		l->stores[l->count++] = (struct store_ref){n, NULL, 0, 0};
	} else if (n->kind == FW_NODE_VARIABLE && n->ext && wanted(l, n->ext)) {
		struct fw_node *s = store_of(n);
		for (size_t i = l->count; s && i-- > 0;) {
			struct store_ref *r = &l->stores[i];
			if (r->store != s)
				continue;
			if (r->count == r->cap) {
				r->cap = r->cap ? r->cap * 2 : 16;
				r->vars = fw_xrealloc(r->vars, r->cap * sizeof(*r->vars));
			}
			r->vars[r->count++] = n->ext;
			break;
		}
	}
	return true;
}

static void listing_free(struct listing *l)
{
	for (size_t i = 0; i < l->count; i++)
		free(l->stores[i].vars);
	free(l->stores);
}

static const char *store_name(const struct fw_node *s)
{
	return s->name ? s->name : NULL;
}

/* The FFS file a store lives in (stores inside compressed defaults files have no offset). */
static const struct fw_node *file_of(const struct fw_node *n)
{
	for (n = n->parent; n; n = n->parent)
		if (n->kind == FW_NODE_FILE && n->has_guid)
			return n;
	return NULL;
}

/* ---- JSON ------------------------------------------------------------------------------------- */

static json_t *json_guid(const struct fw_guid *g)
{
	char s[FW_GUID_STR_LEN];
	return json_string(fw_guid_format(g, s));
}

static json_t *json_hex(const uint8_t *p, size_t n)
{
	char *h = fw_xmalloc(2 * n + 1);
	fw_hex(p, n, h);
	json_t *j = json_string(h);
	free(h);
	return j;
}

static json_t *signatures_json(const struct fw_variable *v)
{
	struct fw_sigdb db;
	struct fw_error err;
	struct fw_view data = fw_view_make(v->data, v->size, v->node && v->node->body.len == v->size ? v->node->body.base : FW_OFFSET_UNKNOWN);
	json_t *arr = json_array();
	if (!fw_sigdb_parse(&data, &db, &err)) {
		json_t *e = json_object();
		json_object_set_new(e, "error", json_string(err.msg));
		json_array_append_new(arr, e);
		return arr;
	}
	for (size_t i = 0; i < db.count; i++) {
		const struct fw_sigdb_entry *s = &db.items[i];
		json_t *e = json_object();
		json_object_set_new(e, "type", s->type_name ? json_string(s->type_name) : json_guid(&s->type));
		json_object_set_new(e, "owner", json_guid(&s->owner));
		json_object_set_new(e, "offset", fw_cli_json_offset(s->offset));
		json_object_set_new(e, "size", json_integer((json_int_t)s->size));
		if (s->x509) {
			json_object_set_new(e, "subject", json_string(s->subject));
			json_object_set_new(e, "issuer", json_string(s->issuer));
			json_object_set_new(e, "serial", json_string(s->serial));
			json_object_set_new(e, "not_before", json_string(s->not_before));
			json_object_set_new(e, "not_after", json_string(s->not_after));
			if (s->key)
				json_object_set_new(e, "key", json_string(s->key));
			json_object_set_new(e, "sha256", json_string(s->sha256));
		} else if (!s->problem && s->type_name) {
			json_object_set_new(e, "hash", json_hex(s->data, s->size));
		} else if (s->sha256[0]) {
			json_object_set_new(e, "sha256", json_string(s->sha256));
		}
		if (s->problem)
			json_object_set_new(e, "error", json_string(s->problem));
		json_array_append_new(arr, e);
	}
	fw_sigdb_free(&db);
	return arr;
}

static json_t *variable_json(const struct fw_variable *v, bool secureboot)
{
	json_t *o = json_object();
	char attrs[64];
	json_object_set_new(o, "name", json_string(v->name));
	json_object_set_new(o, "guid", json_guid(&v->guid));
	const char *gname = fw_guid_name(&v->guid);
	if (gname)
		json_object_set_new(o, "guid_name", json_string(gname));
	json_object_set_new(o, "attributes", json_integer(v->attributes));
	json_object_set_new(o, "attributes_text", json_string(fw_efi_attributes_str(v->attributes, attrs, sizeof(attrs))));
	json_object_set_new(o, "size", json_integer((json_int_t)v->size));
	json_object_set_new(o, "state", json_string(fw_var_state_name(v->state)));
	if (v->size <= DATA_HEX_MAX) {
		json_object_set_new(o, "data", json_hex(v->data, v->size));
	} else {
		char h[FW_SHA256_HEX_LEN];
		json_object_set_new(o, "data", json_null());
		json_object_set_new(o, "data_sha256", json_string(fw_sha256_hex(v->data, v->size, h)));
	}
	json_object_set_new(o, "offset", fw_cli_json_offset(v->offset));
	if (v->node)
		json_object_set_new(o, "record_size", json_integer((json_int_t)v->node->size));
	if (v->node && v->node->type)
		json_object_set_new(o, "record", json_string(v->node->type));
	if (secureboot && v->state == FW_VAR_STATE_VALID)
		json_object_set_new(o, "signatures", signatures_json(v));
	return o;
}

static json_t *listing_json(const struct listing *l, const char *path)
{
	json_t *doc = json_object(), *stores = json_array();
	json_object_set_new(doc, "input", json_string(path));
	for (size_t i = 0; i < l->count; i++) {
		const struct store_ref *r = &l->stores[i];
		if ((l->name || l->secureboot) && !r->count)
			continue;
		json_t *s = json_object(), *vars = json_array();
		json_object_set_new(s, "kind", json_string(r->store->type));
		if (store_name(r->store))
			json_object_set_new(s, "name", json_string(store_name(r->store)));
		json_object_set_new(s, "offset", fw_cli_json_offset(r->store->offset));
		json_object_set_new(s, "size", json_integer((json_int_t)r->store->size));
		const struct fw_node *file = file_of(r->store);
		if (file) {
			json_object_set_new(s, "file", json_guid(&file->guid));
			if (file->name)
				json_object_set_new(s, "file_name", json_string(file->name));
		}
		for (size_t k = 0; k < r->count; k++)
			json_array_append_new(vars, variable_json(r->vars[k], l->secureboot));
		json_object_set_new(s, "variables", vars);
		json_array_append_new(stores, s);
	}
	json_object_set_new(doc, "stores", stores);
	return doc;
}

/* ---- text ------------------------------------------------------------------------------------- */

static void print_offset(FILE *f, uint64_t off)
{
	if (off == FW_OFFSET_UNKNOWN)
		fprintf(f, "%-10s", "-");
	else
		fprintf(f, "0x%-8llX", (unsigned long long)off);
}

static void print_signatures(struct fw_cli *cli, const struct fw_variable *v)
{
	FILE *f = fw_cli_out(cli);
	struct fw_sigdb db;
	struct fw_error err;
	struct fw_view data = fw_view_make(v->data, v->size, FW_OFFSET_UNKNOWN);
	const char *dim = fw_cli_color(cli, "dim"), *reset = fw_cli_color(cli, "reset");
	if (!fw_sigdb_parse(&data, &db, &err)) {
		fprintf(f, "      %s\n", err.msg);
		return;
	}
	for (size_t i = 0; i < db.count; i++) {
		const struct fw_sigdb_entry *s = &db.items[i];
		char owner[FW_GUID_STR_LEN];
		fw_guid_format(&s->owner, owner);
		if (s->x509) {
			fprintf(f, "      X509   %s\n", s->subject);
			fprintf(f, "             %sissuer%s  %s\n", dim, reset, s->issuer);
			fprintf(f, "             %svalid%s   %s .. %s   %s\n", dim, reset, s->not_before, s->not_after,
				s->key ? s->key : "");
			fprintf(f, "             %ssha256%s  %s   %sowner%s %s\n", dim, reset, s->sha256, dim, reset, owner);
		} else if (s->problem) {
			fprintf(f, "      %-6s %s\n", s->type_name ? s->type_name : "?", s->problem);
		} else {
			char *h = fw_xmalloc(2 * s->size + 1);
			fw_hex(s->data, s->size > 64 ? 64 : s->size, h);
			fprintf(f, "      %-6s %s%s   %sowner%s %s\n", s->type_name ? s->type_name : "?", h,
				s->size > 64 ? "..." : "", dim, reset, owner);
			free(h);
		}
	}
	fw_sigdb_free(&db);
}

static void listing_text(struct fw_cli *cli, const struct listing *l)
{
	FILE *f = fw_cli_out(cli);
	const char *bold = fw_cli_color(cli, "bold"), *dim = fw_cli_color(cli, "dim"), *reset = fw_cli_color(cli, "reset");
	bool first = true;
	for (size_t i = 0; i < l->count; i++) {
		const struct store_ref *r = &l->stores[i];
		if ((l->name || l->secureboot) && !r->count)
			continue;
		if (!first)
			fputc('\n', f);
		first = false;
		fprintf(f, "%s%s store%s%s%s", bold, r->store->type, store_name(r->store) ? " " : "",
			store_name(r->store) ? store_name(r->store) : "", reset);
		const struct fw_node *file = file_of(r->store);
		if (r->store->offset != FW_OFFSET_UNKNOWN) {
			fprintf(f, " at 0x%llX", (unsigned long long)r->store->offset);
		} else if (file) {
			char g[FW_GUID_STR_LEN];
			fprintf(f, " in file %s%s%s%s", fw_guid_format(&file->guid, g), file->name ? " (" : "",
				file->name ? file->name : "", file->name ? ")" : "");
		}
		fprintf(f, ", %zu variable%s%s\n", r->count, r->count == 1 ? "" : "s", l->all ? " and versions" : "");
		if (!r->count)
			continue;
		fprintf(f, "  %s%-10s %-11s %7s  %-36s  %s%s%s\n", dim, "OFFSET", "ATTRIBUTES", "SIZE", "GUID", "NAME",
			l->all ? "  STATE" : "", reset);
		for (size_t k = 0; k < r->count; k++) {
			const struct fw_variable *v = r->vars[k];
			char attrs[64], g[FW_GUID_STR_LEN];
			fputs("  ", f);
			print_offset(f, v->offset);
			fprintf(f, " %-11s %7zu  %s  %s", fw_efi_attributes_str(v->attributes, attrs, sizeof(attrs)), v->size,
				fw_guid_format(&v->guid, g), v->name[0] ? v->name : "-");
			if (l->all)
				fprintf(f, "  %s", fw_var_state_name(v->state));
			fputc('\n', f);
			if (l->secureboot && v->state == FW_VAR_STATE_VALID)
				print_signatures(cli, v);
		}
	}
	if (first)
		fprintf(f, "no variables%s\n", l->name ? " by that name" : l->secureboot ? " that hold Secure Boot databases" : "");
}

/* Warnings found while decoding go to stderr (-q silences them). */
static bool warn_visit(struct fw_node *n, void *ctx)
{
	struct fw_cli *cli = ctx;
	for (const struct fw_diag *d = n->diags; d; d = d->next) {
		if (d->severity == FW_DIAG_INFO)
			continue;
		if (d->offset != FW_OFFSET_UNKNOWN)
			fw_log_warn(cli, "at 0x%llX: %s", (unsigned long long)d->offset, d->msg);
		else
			fw_log_warn(cli, "%s", d->msg);
	}
	return true;
}

struct shown {
	const struct listing *l;
	const char *path;
};

static json_t *shown_document(const void *ctx)
{
	const struct shown *s = ctx;
	return listing_json(s->l, s->path);
}

static void shown_text(struct fw_cli *cli, const void *ctx)
{
	listing_text(cli, ((const struct shown *)ctx)->l);
}

static int run_nvram(struct fw_cli *cli)
{
	const char *path = cli->argv[0];
	struct fw_vars_input in;
	struct fw_error err;
	fw_error_clear(&err);
	if (!fw_vars_input_open(path, &in, &err)) {
		fw_vars_input_close(&in);
		return fw_cli_fail(cli, &err);
	}
	struct listing l = {.all = fw_cli_flag(cli, "all-versions"), .name = fw_cli_opt(cli, "name"),
			    .secureboot = fw_cli_flag(cli, "secureboot")};
	if (in.tree->root)
		fw_node_walk(in.tree->root, collect_visit, &l);
	if (!l.count) {
		listing_free(&l);
		fw_vars_input_close(&in);
		fw_error_set(&err, FW_E_NOT_FOUND, "%s: no NVRAM store found", path);
		return fw_cli_fail(cli, &err);
	}
	struct shown shown = {&l, path};
	fw_cli_emit(cli, &(struct fw_emit){"nvram", shown_document, shown_text, NULL, NULL, &shown, NULL});
	fw_node_walk(in.tree->root, warn_visit, cli);
	listing_free(&l);
	fw_vars_input_close(&in);
	return 0;
}

static const struct fw_option nvram_options[] = {
	{"all-versions", 'a', NULL, "also list older versions, deleted and broken records", NULL},
	{"secureboot", 0, NULL, "only the Secure Boot databases (PK, KEK, db, dbx, ...), with their certificates and hashes", NULL},
	{"name", 'n', "NAME", "only variables with this name", NULL},
	{0},
};

FW_COMMAND(nvram,
	.synopsis = "FILE|DIR [--all-versions] [--secureboot] [--name NAME] [--format text|json|xml]",
	.summary = "List the NVRAM variable stores and variables of a firmware input",
	.description =
		"Decodes AMI NVAR stores (with their StdDefaults and MfgDefaults stores), EDK2 VSS, VSS2 and "
		"authenticated variable stores with the fault-tolerant-write block, single efivarfs files "
		"(Name-guid), an efivarfs folder such as /sys/firmware/efi/efivars, and tar archives of one.\n\n"
		"By default only the live version of each variable is listed; --all-versions adds the older "
		"versions an NVAR store keeps through its links, deleted variables and records that cannot be "
		"decoded, each with its state. Data is printed as hex in JSON for variables up to 64 KiB "
		"(larger ones get data_sha256).\n\n"
		"--secureboot keeps the signature databases and decodes their EFI_SIGNATURE_LISTs: X.509 "
		"certificates with subject, issuer, validity, key and SHA-256, and hash entries.",
	.formats = "text,json,xml",
	.options = nvram_options,
	.examples = "fwlens nvram /usr/share/OVMF/OVMF_VARS_4M.ms.fd --secureboot\n"
		    "fwlens nvram /sys/firmware/efi/efivars --name Setup --format json\n"
		    "fwlens nvram nvram.bin --all-versions",
	.min_args = 1, .max_args = 1, .run = run_nvram, .order = 40);
