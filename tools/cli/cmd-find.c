/* fwlens find: setup options whose prompt, help, option texts or varstore match a regex. */
#include <stdlib.h>
#include <string.h>

#include "cache-options.h"
#include "emit.h"
#include "ifr-writers.h"
#include "query-writers.h"
#include "record-key.h"
#include "parsers/nearest.h"

/* What the writers describe: the source, the pattern, the settings and the matches. */
struct found {
	const char *source, *pattern;
	struct fw_setlist *l; /* the query writers take it non-const */
	const struct fw_hits *hits;
	const struct fw_record_key *key;
	struct fw_source *src; /* where current values came from */
};

static json_t *found_document(const void *ctx)
{
	const struct found *x = ctx;
	json_t *doc = json_object(), *arr = json_array();
	json_object_set_new(doc, "source", json_string(x->source));
	json_object_set_new(doc, "pattern", json_string(x->pattern));
	json_object_set_new(doc, "current_source",
			    fw_cli_json_current_source(fw_source_current(x->src), fw_source_current_text(x->src)));
	for (size_t i = 0; i < x->hits->n; i++)
		json_array_append_new(arr, fw_query_json_hit(x->l, &x->hits->items[i]));
	json_object_set_new(doc, "matches", arr);
	return doc;
}

static void found_jsonl(struct fw_cli *cli, const void *ctx)
{
	const struct found *x = ctx;
	for (size_t i = 0; i < x->hits->n; i++)
		fw_cli_print_jsonl(cli, fw_record_key_wrap(x->key, fw_query_json_hit(x->l, &x->hits->items[i])));
}

static void found_markdown(struct fw_cli *cli, const void *ctx)
{
	const struct found *x = ctx;
	FILE *f = fw_cli_out(cli);
	bool modules = fw_query_hits_span_modules(x->hits);
	const char *last = NULL;
	if (!modules)
		fprintf(f, FW_QUERY_MD_HEADER, "Matched");
	for (size_t i = 0; i < x->hits->n; i++) {
		const char *m = fw_query_module_of(x->hits->items[i].it);
		if (modules && (!last || strcmp(last, m) != 0)) {
			/* one table per module, under a heading naming it */
			fprintf(f, "%s## Module ", last ? "\n" : "");
			fw_md_cell(f, m);
			fputs("\n\n", f);
			fprintf(f, FW_QUERY_MD_HEADER, "Matched");
		}
		last = m;
		char matched[256] = "";
		for (size_t k = 0; k < x->hits->items[i].nreasons; k++) {
			size_t used = strlen(matched);
			snprintf(matched + used, sizeof(matched) - used, "%s%s", k ? ", " : "", x->hits->items[i].reasons[k].rule);
		}
		fw_query_md_row(f, x->l, x->hits->items[i].it, matched);
	}
}

static void found_text(struct fw_cli *cli, const void *ctx)
{
	const struct found *x = ctx;
	bool modules = fw_query_hits_span_modules(x->hits);
	const char *last = NULL;
	for (size_t i = 0; i < x->hits->n; i++) {
		const char *m = fw_query_module_of(x->hits->items[i].it);
		if (modules && (!last || strcmp(last, m) != 0))
			fw_query_text_module(cli, x->hits->items[i].it);
		last = m;
		char why[512] = "";
		for (size_t k = 0; k < x->hits->items[i].nreasons; k++) {
			size_t used = strlen(why);
			snprintf(why + used, sizeof(why) - used, "%s%s", k ? ", " : "", x->hits->items[i].reasons[k].why);
		}
		fw_query_text_setting(cli, x->l, x->hits->items[i].it, NULL);
		/* the reasons quote the matched texts, which may hold line feeds: one line, as the setting's */
		FILE *f = fw_cli_out(cli);
		fprintf(f, "      %smatched: ", fw_cli_color(cli, "dim"));
		fw_ifr_put_line(f, why);
		fprintf(f, "%s\n", fw_cli_color(cli, "reset"));
	}
	fprintf(fw_cli_out(cli), "%s%zu of %zu settings match /%s/\n", x->hits->n ? "\n" : "", x->hits->n, x->l->n, x->pattern);
	fprintf(fw_cli_out(cli), "current values: %s\n", fw_source_current_text(x->src));
}

static int run_find(struct fw_cli *cli)
{
	unsigned fields = FW_FIND_ALL;
	const char *in = fw_cli_opt(cli, "in");
	if (in && !fw_find_fields_parse(in, &fields)) {
		char hint[160];
		return fw_cli_usage_error(cli, "--in takes prompt, help, option, varstore, keyword (comma-separated), not '%s'%s",
					  in, fw_nearest_hint(in, "prompt,help,option,varstore,keyword", hint, sizeof(hint)));
	}
	struct fw_source src;
	int rc = fw_query_cli_open(cli, cli->argv[0], fw_cli_opt(cli, "image"), &src);
	if (rc)
		return rc;
	struct fw_error err;
	fw_error_clear(&err);
	struct fw_setlist *l = fw_query_cli_settings(cli, &src, fw_cli_opt(cli, "module"), &err);
	struct fw_hits hits;
	if (!l || !fw_find(l, cli->argv[1], fields, &hits, &err)) {
		fw_query_cli_warnings(cli, &src, NULL);
		fw_source_close(&src);
		return fw_cli_fail(cli, &err);
	}
	fw_query_cli_warnings(cli, &src, NULL);
	struct fw_record_key key;
	fw_record_key_init(&key, cli->argv[0], src.kind == FW_SOURCE_MACHINE ? src.machine : NULL);
	struct found shown = {cli->argv[0], cli->argv[1], l, &hits, &key, &src};
	fw_cli_emit(cli, &(struct fw_emit){"find", found_document, found_text, found_markdown, found_jsonl, &shown, NULL});
	rc = hits.n ? 0 : FW_EXIT_DIFFERENT;
	fw_record_key_free(&key);
	fw_hits_free(&hits);
	fw_source_close(&src);
	return rc;
}

static const struct fw_option find_options[] = {
	{"in", 0, "FIELD[,FIELD]", "where to look: prompt, help, option, varstore, keyword (comma-separated; default all)",
	 "prompt,help,option,varstore,keyword"},
	{"image", 0, "FILE", "BIOS image whose forms decode a machine's stored settings", NULL},
	FW_CACHE_OPTIONS,
	{"module", 'm', "NAME|GUID", "only settings of this module", NULL},
	{"vars", 'V', "VARS", "current values from here: anything `fwlens nvram` reads (efivarfs folder or tar, NVRAM store or volume, whole image)", NULL},
	{"lang", 'l', "LANG", "display language of setup strings (default en-US)", NULL},
	{0},
};

FW_COMMAND(find,
	.synopsis = "SRC REGEX [--in prompt,help,option,varstore,keyword] [--image FILE] [--vars VARS] [--module NAME] [--format text|json|jsonl|xml|markdown]",
	.summary = "Find setup options by a regular expression over prompts, keywords, help texts, option texts and varstores",
	.description =
		"SRC is a BIOS image, capsule or module, a machine (snapshot or root folder, with --image or an image "
		"stored in the snapshot), or - for a settings list in JSON on standard input. REGEX is a POSIX extended "
		"regular expression matched without regard to case (through PCRE2: back-references and \\d are "
		"accepted; a pattern that needs more than a million backtracking steps on one text is an error, "
		"exit 2). Each match shows the menu path, module, varstore name and GUID, offset and width, options, "
		"default, current value when known, the condition that hides or grays it out, its x-UEFI keyword, and "
		"which fields matched.\n\n"
		"Current values come from the source's own variables (the image's NVRAM store, the machine's efivars) "
		"or from --vars; the output names which (current_source).\n\n"
		"Exit status 1 when nothing matched, as grep does.",
	.formats = "text,json,jsonl,xml,markdown",
	.options = find_options,
	.examples = "fwlens find BIOS.CAP 'ASID'  # every option about SEV ASIDs\n"
		    "fwlens find BIOS.CAP '^(SMEE|TSME)$' --in prompt --format json\n"
		    "fwlens find host.fwsnap 'Above 4G' --image BIOS.CAP  # with the machine's current value",
	.min_args = 2, .max_args = 2, .run = run_find, .order = 32);
