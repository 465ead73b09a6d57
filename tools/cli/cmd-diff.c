/* fwlens diff: what changed between two BIOS images, modules, settings lists or machines. */
#include <stdlib.h>
#include <string.h>

#include "cache-options.h"
#include "diff-jsonl.h"
#include "diff-writers.h"
#include "emit.h"
#include "query-writers.h"

/* The comparison of two sources, old and new. */
struct compared {
	struct fw_source *src[2];
	struct fw_setlist *la, *lb;
	const struct fw_diff *d;
	const char *path[2];
};

static void compared_jsonl(struct fw_cli *cli, const void *ctx)
{
	const struct compared *s = ctx;
	json_t *body = fw_diff_json(s->d, s->la, s->lb);
	struct fw_record_key ka, kb;
	fw_record_key_init(&ka, s->path[0], s->src[0]->kind == FW_SOURCE_MACHINE ? s->src[0]->machine : NULL);
	fw_record_key_init(&kb, s->path[1], s->src[1]->kind == FW_SOURCE_MACHINE ? s->src[1]->machine : NULL);
	fw_diff_print_jsonl(cli, body, &ka, &kb);
	fw_record_key_free(&ka);
	fw_record_key_free(&kb);
	json_decref(body);
}

static json_t *compared_document(const void *ctx)
{
	const struct compared *c = ctx;
	json_t *doc = json_object(), *body = fw_diff_json(c->d, c->la, c->lb);
	json_t *sides = json_object();
	for (int i = 0; i < 2; i++) {
		struct fw_source *src = c->src[i];
		json_t *s = json_object();
		json_object_set_new(s, "path", json_string(c->path[i]));
		json_object_set_new(s, "kind", json_string(fw_source_kind_name(src->kind)));
		json_object_set_new(s, "image", src->image_name ? json_string(src->image_name) : json_null());
		if (src->kind != FW_SOURCE_LIST)
			json_object_set_new(s, "current_source",
					    fw_cli_json_current_source(fw_source_current(src), fw_source_current_text(src)));
		json_object_set_new(sides, i ? "new" : "old", s);
	}
	json_object_set_new(doc, "sources", sides);
	const char *k;
	json_t *v;
	json_object_foreach(body, k, v) json_object_set(doc, k, v);
	json_decref(body);
	return doc;
}

static void compared_markdown(struct fw_cli *cli, const void *ctx)
{
	const struct compared *s = ctx;
	FILE *f = fw_cli_out(cli);
	fprintf(f, "# Changes from %s to %s\n\n", s->path[0], s->path[1]);
	fw_diff_markdown(f, s->d, 2);
}

static void compared_text(struct fw_cli *cli, const void *ctx)
{
	const struct compared *s = ctx;
	fw_diff_text(cli, s->d, s->path[0], s->path[1]);
}

static int run_diff(struct fw_cli *cli)
{
	const char *module = fw_cli_opt(cli, "module");
	struct fw_diff_options o = {
		.module_a = fw_cli_opt(cli, "module-a") ? fw_cli_opt(cli, "module-a") : module,
		.module_b = fw_cli_opt(cli, "module-b") ? fw_cli_opt(cli, "module-b") : module,
		.no_values = fw_cli_flag(cli, "no-values"),
	};
	struct fw_topics topics = {0};
	const struct fw_topic **sel = NULL;
	if (fw_cli_opt(cli, "topic")) {
		struct fw_error err;
		if (!fw_topics_load(fw_cli_opt(cli, "rules"), &topics, &err) ||
		    !fw_topics_select(&topics, fw_cli_opt(cli, "topic"), &sel, &o.ntopics, &err)) {
			fw_topics_free(&topics);
			return fw_cli_fail(cli, &err);
		}
		o.topics = sel;
	}
	const char *image = fw_cli_opt(cli, "image");
	if (strcmp(cli->argv[0], "-") == 0 && strcmp(cli->argv[1], "-") == 0)
		return fw_cli_usage_error(cli, "only one side can be read from standard input");
	struct fw_source_options oa = {.image = fw_cli_opt(cli, "image-a") ? fw_cli_opt(cli, "image-a") : image,
				       .lang = fw_cli_opt(cli, "lang"), .vars = fw_cli_opt(cli, "vars-a")};
	struct fw_source_options ob = {.image = fw_cli_opt(cli, "image-b") ? fw_cli_opt(cli, "image-b") : image,
				       .lang = fw_cli_opt(cli, "lang"), .vars = fw_cli_opt(cli, "vars-b")};
	fw_cli_cache_setup(cli, &oa); /* --image-dir; diff compares whole images, so no cache */
	fw_cli_cache_setup(cli, &ob);
	const char *paths[2] = {cli->argv[0], cli->argv[1]};
	const struct fw_source_options *opts[2] = {&oa, &ob};
	struct fw_source srcs[2];
	struct fw_error errs[2];
	fw_cli_progress(cli, "diff: reading both sides", 0, 0);
	if (!fw_source_open_pair(paths, opts, srcs, errs)) {
		fw_cli_progress_done(cli);
		free(sel);
		fw_topics_free(&topics);
		return fw_cli_fail(cli, errs[0].code != FW_OK ? &errs[0] : &errs[1]);
	}
	struct fw_source *a = &srcs[0], *b = &srcs[1];
	int rc;
	struct fw_diff d;
	fw_cli_progress(cli, "diff: comparing", 0, 0);
	fw_diff_run(a, b, &o, &d);
	fw_cli_progress_done(cli);
	fw_query_cli_warnings(cli, a, cli->argv[0]);
	fw_query_cli_warnings(cli, b, cli->argv[1]);
	for (size_t i = 0; i < d.nnotes; i++)
		fw_log_warn(cli, "%s", d.notes[i]);
	if (!d.have_settings && (o.module_a || o.module_b))
		fw_log_warn(cli, "no settings compared: --module matched no setup forms on %s",
			    fw_source_setlist(a) && fw_source_setlist(a)->n ? cli->argv[1] : cli->argv[0]);
	struct fw_setlist *la = fw_source_setlist(a), *lb = fw_source_setlist(b);
	struct compared shown = {{a, b}, la, lb, &d, {cli->argv[0], cli->argv[1]}};
	fw_cli_emit(cli, &(struct fw_emit){"diff", compared_document, compared_text, compared_markdown, compared_jsonl, &shown,
					   NULL});
	rc = fw_diff_count(&d) ? FW_EXIT_DIFFERENT : 0;
	fw_diff_free(&d);
	fw_source_close(a);
	fw_source_close(b);
	free(sel);
	fw_topics_free(&topics);
	return rc;
}

static const struct fw_option diff_options[] = {
	{"module", 'm', "NAME|GUID", "compare only this module on both sides", NULL},
	{"module-a", 0, "NAME|GUID", "the module of the old side (CbsSetupDxeSTP), with --module-b for the new", NULL},
	{"module-b", 0, "NAME|GUID", "the module of the new side (CbsSetupDxeSHP)", NULL},
	{"image", 0, "FILE", "BIOS image whose forms decode both machines' settings", NULL},
	{"image-a", 0, "FILE", "BIOS image for the old machine (default: its stored image, or --image)", NULL},
	{"image-b", 0, "FILE", "BIOS image for the new machine", NULL},
	{"vars-a", 0, "VARS", "current values of the old side from here (anything `fwlens nvram` reads)", NULL},
	{"vars-b", 0, "VARS", "current values of the new side from here", NULL},
	FW_IMAGE_DIR_OPTION,
	{"no-values", 0, NULL, "leave current values out", NULL},
	{"topic", 't', "T[,T]", "only the settings of these topics, each marked with its topics; see query --list-topics", "@topics"},
	{"rules", 0, "FILE", "topic rules file instead of the built-in rules (with --topic)", NULL},
	{"lang", 'l', "LANG", "display language of setup strings (default en-US)", NULL},
	{0},
};

FW_COMMAND(diff,
	.synopsis = "OLD NEW [--module NAME | --module-a NAME --module-b NAME] [--image FILE] [--topic T[,T]] [--format text|json|jsonl|xml|markdown]",
	.summary = "Show what changed between two BIOS images, modules, settings lists or machine snapshots",
	.description =
		"OLD and NEW are each a BIOS image, capsule or module, a settings list (.json, or - for standard input), "
		"or a machine (snapshot or root folder; its settings need --image or an image stored in the snapshot).\n\n"
		"Settings are matched by what they mean, not where they sit, because offsets and formset GUIDs change "
		"between builds: by prompt and menu path, then by prompt within the same varstore family when the menu "
		"moved (reported as moved, not as removed and added). For each matched setting the options, the default "
		"of every default store, the varstore name, offset and width, the conditions and the help text are "
		"compared; settings that only shifted in their varstore are counted apart (shown with -v). With current "
		"values on both sides, changed values are listed.\n\n"
		"Also compared: varstores, modules (GUID, name, version section, SHA-256), versions (BIOS, AGESA, SEV and "
		"SMU firmware), EFI variables, and for machines the kernel command line, kvm_amd parameters and IOMMU "
		"group types.\n\n"
		"--format jsonl prints one line per difference, keyed by NEW (\"source\", and for a machine \"host\" and "
		"\"captured\") with OLD as \"baseline\", for auditing many machines against one reference.\n\n"
		"--topic limits settings and values to those of the named topics (as `query` answers them) and marks "
		"each with its topics, in every format; the other sections are unchanged.\n\n"
		"Exit status 0 when equal, 1 when they differ.",
	.formats = "text,json,jsonl,xml,markdown",
	.options = diff_options,
	.examples = "fwlens diff ESC8000A-E13-ASUS-1104.CAP ESC8000A-E13-ASUS-1201.CAP\n"
		    "fwlens diff BIOS.CAP BIOS.CAP --module-a CbsSetupDxeSTP --module-b CbsSetupDxeSHP  # Zen 4 vs Zen 5 forms\n"
		    "fwlens diff before.fwsnap after.fwsnap --format json\n"
		    "fwlens diff ESC8000A-E13-ASUS-1104.CAP ESC8000A-E13-ASUS-1201.CAP --topic sev-snp,iommu --format markdown\n"
		    "fwlens settings old.CAP --format json > old.json; fwlens diff old.json new.CAP --format markdown",
	.min_args = 2, .max_args = 2, .run = run_diff, .order = 50);
