/* fwlens info: what a firmware input is, and its headline facts. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "emit.h"
#include "parsers/hash.h"
#include "tools/cli/tree-json.h"
#include "tree-writers.h"

#define MAX_ALGOS 16

struct algo_count {
	const char *name;
	size_t count;
};

struct info {
	size_t volumes, files, sections, nvram_stores, variables;
	size_t compressed, compressed_failed;
	struct algo_count algos[MAX_ALGOS];
	size_t nalgos;
	size_t diags[3];
	struct fw_node *hii[4096];
	size_t nhii;
};

static void count_algo(struct info *in, const char *name)
{
	for (size_t i = 0; i < in->nalgos; i++)
		if (strcmp(in->algos[i].name, name) == 0) {
			in->algos[i].count++;
			return;
		}
	if (in->nalgos < MAX_ALGOS)
		in->algos[in->nalgos++] = (struct algo_count){name, 1};
}

static bool info_visit(struct fw_node *n, void *ctx)
{
	struct info *in = ctx;
	switch (n->kind) {
	case FW_NODE_VOLUME: in->volumes++; break;
	case FW_NODE_FILE: in->files++; break;
	case FW_NODE_SECTION: in->sections++; break;
	case FW_NODE_NVRAM_STORE: in->nvram_stores++; break;
	case FW_NODE_VARIABLE: in->variables++; break;
	default: break;
	}
	const struct fw_field_value *algo = fw_node_field_get(n, "Algorithm");
	if (n->kind == FW_NODE_SECTION && algo && algo->type == FW_VAL_STR && strcmp(algo->v.s, "none") != 0) {
		in->compressed++;
		if (!(n->flags & FW_NODE_F_COMPRESSED))
			in->compressed_failed++;
		count_algo(in, algo->v.s);
	}
	for (const struct fw_diag *d = n->diags; d; d = d->next)
		in->diags[d->severity]++;
	if (n->flags & FW_NODE_F_HAS_HII) {
		/* count the module (file) once */
		struct fw_node *mod = n;
		while (mod->parent && mod->kind != FW_NODE_FILE)
			mod = mod->parent;
		bool seen = false;
		for (size_t i = 0; i < in->nhii && !seen; i++)
			seen = in->hii[i] == mod;
		if (!seen && in->nhii < sizeof(in->hii) / sizeof(in->hii[0]))
			in->hii[in->nhii++] = mod;
	}
	return true;
}

static const char *module_name(const struct fw_node *n, char *buf, size_t len)
{
	if (n->name)
		return n->name;
	if (n->has_guid)
		return fw_guid_format(&n->guid, buf);
	snprintf(buf, len, "%s", n->type ? n->type : "?");
	return buf;
}

static void human_size(uint64_t n, char *buf, size_t len)
{
	if (n >= (1u << 20))
		snprintf(buf, len, "%.1f MiB", (double)n / (1u << 20));
	else if (n >= 1024)
		snprintf(buf, len, "%.1f KiB", (double)n / 1024);
	else
		snprintf(buf, len, "%" PRIu64 " bytes", n);
}

static json_t *info_json(const struct fw_firmware *fw, const struct info *in, const char *sha)
{
	const struct fw_tree *t = fw->tree;
	json_t *doc = json_object();
	json_t *input = json_object();
	json_object_set_new(input, "path", t->input_path ? json_string(t->input_path) : json_null());
	json_object_set_new(input, "size", json_integer((json_int_t)t->input_len));
	json_object_set_new(input, "sha256", json_string(sha));
	json_object_set_new(input, "kind", json_string(fw_input_kind_name(fw->kind)));
	json_object_set_new(doc, "input", input);
	json_object_set_new(doc, "type", json_string(t->root && t->root->type ? t->root->type : ""));
	if (t->root && t->root->name)
		json_object_set_new(doc, "name", json_string(t->root->name));
	json_object_set_new(doc, "volumes", json_integer((json_int_t)in->volumes));
	json_object_set_new(doc, "files", json_integer((json_int_t)in->files));
	json_object_set_new(doc, "sections", json_integer((json_int_t)in->sections));
	json_t *comp = json_object();
	json_object_set_new(comp, "sections", json_integer((json_int_t)in->compressed));
	json_object_set_new(comp, "not_decompressed", json_integer((json_int_t)in->compressed_failed));
	json_t *by = json_object();
	for (size_t i = 0; i < in->nalgos; i++)
		json_object_set_new(by, in->algos[i].name, json_integer((json_int_t)in->algos[i].count));
	json_object_set_new(comp, "by_algorithm", by);
	json_object_set_new(comp, "decompressed_bytes", json_integer((json_int_t)t->decompressed_total));
	json_object_set_new(doc, "compressed", comp);
	json_t *hii = json_array();
	for (size_t i = 0; i < in->nhii; i++) {
		json_t *m = json_object();
		char g[FW_GUID_STR_LEN];
		if (in->hii[i]->has_guid)
			json_object_set_new(m, "guid", json_string(fw_guid_format(&in->hii[i]->guid, g)));
		if (in->hii[i]->name)
			json_object_set_new(m, "name", json_string(in->hii[i]->name));
		json_array_append_new(hii, m);
	}
	json_object_set_new(doc, "hii_modules", hii);
	json_object_set_new(doc, "nvram_stores", json_integer((json_int_t)in->nvram_stores));
	json_object_set_new(doc, "variables", json_integer((json_int_t)in->variables));
	json_t *d = json_object();
	json_object_set_new(d, "errors", json_integer((json_int_t)in->diags[FW_DIAG_ERROR]));
	json_object_set_new(d, "warnings", json_integer((json_int_t)in->diags[FW_DIAG_WARN]));
	json_object_set_new(d, "info", json_integer((json_int_t)in->diags[FW_DIAG_INFO]));
	json_object_set_new(doc, "diagnostics", d);
	return doc;
}

static void info_text(struct fw_cli *cli, const struct fw_firmware *fw, const struct info *in, const char *sha)
{
	FILE *f = fw_cli_out(cli);
	const struct fw_tree *t = fw->tree;
	const char *b = fw_cli_color(cli, "bold"), *r = fw_cli_color(cli, "reset");
	char size[32], buf[FW_GUID_STR_LEN];
	human_size(t->input_len, size, sizeof(size));
	fprintf(f, "%s%s%s\n", b, t->input_path ? t->input_path : "(input)", r);
	fprintf(f, "  kind            %s", fw_input_kind_name(fw->kind));
	if (t->root && t->root->type && t->root->type[0])
		fprintf(f, " (%s%s%s)", t->root->type, t->root->name ? ", " : "", t->root->name ? t->root->name : "");
	fprintf(f, "\n  size            %zu bytes (%s)\n", t->input_len, size);
	fprintf(f, "  sha256          %s\n", sha);
	fprintf(f, "  volumes         %zu\n", in->volumes);
	fprintf(f, "  files           %zu\n", in->files);
	fprintf(f, "  sections        %zu\n", in->sections);
	fprintf(f, "  compressed      %zu section%s", in->compressed, in->compressed == 1 ? "" : "s");
	for (size_t i = 0; i < in->nalgos; i++)
		fprintf(f, "%s%zu %s", i ? ", " : " (", in->algos[i].count, in->algos[i].name);
	human_size(t->decompressed_total, size, sizeof(size));
	fprintf(f, "%s, %s inflated", in->nalgos ? ")" : "", size);
	if (in->compressed_failed)
		fprintf(f, ", %zu not decompressed", in->compressed_failed);
	/* named modules first: they say more than GUIDs */
	fprintf(f, "\n  HII modules     %zu", in->nhii);
	size_t shown = 0;
	for (int pass = 0; pass < 2; pass++)
		for (size_t i = 0; i < in->nhii && shown < 8; i++)
			if ((in->hii[i]->name != NULL) == (pass == 0))
				fprintf(f, "%s%s", shown++ ? ", " : " (", module_name(in->hii[i], buf, sizeof(buf)));
	fprintf(f, "%s\n", in->nhii > shown ? ", ...)" : in->nhii ? ")" : "");
	fprintf(f, "  NVRAM stores    %zu (%zu variable record%s)\n", in->nvram_stores, in->variables,
		in->variables == 1 ? "" : "s");
	fprintf(f, "  diagnostics     %zu error%s, %zu warning%s\n", in->diags[FW_DIAG_ERROR],
		in->diags[FW_DIAG_ERROR] == 1 ? "" : "s", in->diags[FW_DIAG_WARN], in->diags[FW_DIAG_WARN] == 1 ? "" : "s");
}

/* What the writers describe: the input, what the walk found, its hash. */
struct shown {
	const struct fw_firmware *fw;
	const struct info *in;
	const char *sha;
};

static json_t *shown_document(const void *ctx)
{
	const struct shown *s = ctx;
	return info_json(s->fw, s->in, s->sha);
}

static void shown_text(struct fw_cli *cli, const void *ctx)
{
	const struct shown *s = ctx;
	info_text(cli, s->fw, s->in, s->sha);
}

static int run_info(struct fw_cli *cli)
{
	struct fw_firmware fw;
	int rc;
	if (!fw_cli_open_firmware(cli, cli->argv[0], 0, &fw, &rc))
		return rc;
	struct info *in = fw_xcalloc(1, sizeof(*in));
	if (fw.tree->root)
		fw_node_walk(fw.tree->root, info_visit, in);
	char sha[FW_SHA256_HEX_LEN];
	fw_sha256_hex(fw.tree->input, fw.tree->input_len, sha);
	struct shown shown = {&fw, in, sha};
	fw_cli_emit(cli, &(struct fw_emit){"info", shown_document, shown_text, NULL, NULL, &shown, NULL});
	free(in);
	fw_firmware_close(&fw);
	return 0;
}

FW_COMMAND(info,
	.synopsis = "FILE [--format text|json|xml]",
	.summary = "Say what a firmware input is and count what it holds",
	.description =
		"Identifies FILE (capsule, flash image, volume, FFS file, section, PE image, NVRAM store or "
		"efivarfs file) and prints its size and SHA-256 with the headline counts: firmware volumes, "
		"FFS files, sections, compressed sections by algorithm with the bytes they inflate to, the "
		"modules that carry HII forms (the ones `fwlens ifr` decodes), NVRAM stores and variable "
		"records, and how many problems the parse found (see `fwlens tree` for where).\n\n"
		"JSON: {\"input\": {path, size, sha256, kind}, \"type\", \"name\"?, \"volumes\", \"files\", "
		"\"sections\", \"compressed\": {sections, not_decompressed, by_algorithm, decompressed_bytes}, "
		"\"hii_modules\": [{guid, name?}], \"nvram_stores\", \"variables\", \"diagnostics\": {errors, "
		"warnings, info}}.",
	.formats = "text,json,xml",
	.examples = "fwlens info BIOS.CAP\nfwlens info OVMF_CODE.fd --format json",
	.min_args = 1, .max_args = 1, .run = run_info, .order = 5);
