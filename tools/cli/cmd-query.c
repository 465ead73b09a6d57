/* fwlens query: the settings (and on a machine, the facts) that bear on chosen topics. */
#include <stdlib.h>
#include <string.h>

#include "cache-options.h"
#include "emit.h"
#include "output-text.h"
#include "query-writers.h"
#include "record-key.h"

static void write_text(struct fw_cli *cli, struct fw_setlist *l, const struct fw_topic *const *sel, size_t nsel,
		       const struct fw_hits *hits, const struct fw_fact_answers *facts)
{
	FILE *f = fw_cli_out(cli);
	const char *b = fw_cli_color(cli, "bold"), *r = fw_cli_color(cli, "reset");
	for (size_t t = 0; t < nsel; t++) {
		size_t n = 0;
		for (size_t i = 0; i < hits->n; i++)
			for (size_t k = 0; k < hits->items[i].nreasons; k++)
				n += strcmp(hits->items[i].reasons[k].topic, sel[t]->name) == 0;
		fprintf(f, "%s%s%s: %s (%zu setting%s)\n", b, sel[t]->name, r, sel[t]->title, n, n == 1 ? "" : "s");
		bool modules = fw_query_hits_span_modules(hits);
		const char *last = NULL;
		for (size_t i = 0; i < hits->n; i++)
			for (size_t k = 0; k < hits->items[i].nreasons; k++)
				if (strcmp(hits->items[i].reasons[k].topic, sel[t]->name) == 0) {
					const char *m = fw_query_module_of(hits->items[i].it);
					if (modules && (!last || strcmp(last, m) != 0))
						fw_query_text_module(cli, hits->items[i].it);
					last = m;
					fw_query_text_setting(cli, l, hits->items[i].it, hits->items[i].reasons[k].why);
				}
		bool any = false;
		for (size_t i = 0; facts && i < facts->n; i++) {
			const struct fw_fact_answer *a = &facts->items[i];
			if (a->topic != sel[t])
				continue;
			if (!any)
				fprintf(f, "  %smachine%s\n", fw_cli_color(cli, "dim"), r);
			any = true;
			fprintf(f, "  %s%-8s%s %s %s: %s\n", a->state == FW_FACT_PRESENT ? fw_cli_color(cli, "green")
							  : a->state == FW_FACT_ABSENT ? fw_cli_color(cli, "yellow")
										       : fw_cli_color(cli, "dim"),
				fw_fact_state_name(a->state), r, a->rule->kind, a->rule->name, a->summary ? a->summary : "");
			for (size_t e = 0; e < a->nevidence; e++)
				fw_text_wrap_hanging(f, a->evidence[e], "      - ", "        ", 120);
			if (a->total > a->nevidence)
				fprintf(f, "      (%zu more)\n", a->total - a->nevidence);
		}
		fputc('\n', f);
	}
	fprintf(f, "%zu of %zu settings matched\n", hits->n, l ? l->n : 0);
}

static void write_markdown(struct fw_cli *cli, struct fw_setlist *l, const struct fw_topic *const *sel, size_t nsel,
			   const struct fw_hits *hits, const struct fw_fact_answers *facts)
{
	FILE *f = fw_cli_out(cli);
	for (size_t t = 0; t < nsel; t++) {
		fprintf(f, "## %s: %s\n\n", sel[t]->name, sel[t]->title);
		bool modules = fw_query_hits_span_modules(hits);
		const char *last = NULL;
		if (!modules)
			fprintf(f, FW_QUERY_MD_HEADER, "Why");
		for (size_t i = 0; i < hits->n; i++)
			for (size_t k = 0; k < hits->items[i].nreasons; k++)
				if (strcmp(hits->items[i].reasons[k].topic, sel[t]->name) == 0) {
					const char *m = fw_query_module_of(hits->items[i].it);
					if (modules && (!last || strcmp(last, m) != 0)) {
						/* one table per module, under a heading naming it */
						fprintf(f, "%s### %s in module ", last ? "\n" : "", sel[t]->name);
						fw_md_cell(f, m);
						fputs("\n\n", f);
						fprintf(f, FW_QUERY_MD_HEADER, "Why");
					}
					last = m;
					fw_query_md_row(f, l, hits->items[i].it, hits->items[i].reasons[k].why);
				}
		bool any = false;
		for (size_t i = 0; facts && i < facts->n; i++) {
			const struct fw_fact_answer *a = &facts->items[i];
			if (a->topic != sel[t])
				continue;
			if (!any)
				fprintf(f, "\n| Machine fact | State | What it says |\n|---|---|---|\n");
			any = true;
			fputs("| ", f);
			fprintf(f, "%s ", a->rule->kind);
			fw_md_cell(f, a->rule->name);
			fprintf(f, " | %s | ", fw_fact_state_name(a->state));
			fw_md_cell(f, a->summary);
			fputs(" |\n", f);
		}
		fputc('\n', f);
	}
}

/* --list-topics: the topics of the rules */
static json_t *topic_json(const struct fw_topics *topics, const struct fw_topic *t, bool lines)
{
	json_t *o = json_object();
	if (lines)
		json_object_set_new(o, "source", json_string(topics->source));
	json_object_set_new(o, "name", json_string(t->name));
	json_object_set_new(o, "title", json_string(t->title));
	json_object_set_new(o, "description", t->description ? json_string(t->description) : json_null());
	json_object_set_new(o, "setting_rules", json_integer((json_int_t)t->nsettings));
	json_object_set_new(o, "fact_rules", json_integer((json_int_t)t->nfacts));
	return o;
}

static json_t *topics_document(const void *ctx)
{
	const struct fw_topics *topics = ctx;
	json_t *doc = json_object(), *arr = json_array();
	for (size_t i = 0; i < topics->count; i++)
		json_array_append_new(arr, topic_json(topics, &topics->topics[i], false));
	json_object_set_new(doc, "rules", json_string(topics->source));
	json_object_set_new(doc, "topics", arr);
	return doc;
}

static void topics_jsonl(struct fw_cli *cli, const void *ctx)
{
	const struct fw_topics *topics = ctx;
	for (size_t i = 0; i < topics->count; i++)
		fw_cli_print_jsonl(cli, topic_json(topics, &topics->topics[i], true));
}

static void topics_text(struct fw_cli *cli, const void *ctx)
{
	const struct fw_topics *topics = ctx;
	FILE *f = fw_cli_out(cli);
	for (size_t i = 0; i < topics->count; i++)
		fprintf(f, "%-16s %s (%zu setting rules, %zu facts)\n", topics->topics[i].name, topics->topics[i].title,
			topics->topics[i].nsettings, topics->topics[i].nfacts);
}

/* the answer: settings matched and machine facts, per topic */
struct answered {
	struct fw_source *src;
	struct fw_setlist *l;
	const struct fw_topic **sel;
	size_t nsel;
	const struct fw_hits *hits;
	const struct fw_fact_answers *facts;
	struct fw_record_key *key;
	const char *source;
};

static json_t *answered_document(const void *ctx)
{
	const struct answered *s = ctx;
	json_t *doc = json_object(), *arr = json_array(), *tops = json_array();
	json_object_set_new(doc, "source", json_string(s->source));
	for (size_t t = 0; t < s->nsel; t++)
		json_array_append_new(tops, json_string(s->sel[t]->name));
	json_object_set_new(doc, "topics", tops);
	json_object_set_new(doc, "current_source",
			    fw_cli_json_current_source(fw_source_current(s->src), fw_source_current_text(s->src)));
	for (size_t i = 0; i < s->hits->n; i++)
		json_array_append_new(arr, fw_query_json_hit(s->l, &s->hits->items[i]));
	json_object_set_new(doc, "matches", arr);
	if (s->src->kind == FW_SOURCE_MACHINE) {
		json_t *fa = json_array();
		for (size_t i = 0; i < s->facts->n; i++)
			json_array_append_new(fa, fw_query_json_fact(&s->facts->items[i]));
		json_object_set_new(doc, "facts", fa);
	}
	return doc;
}

static void answered_jsonl(struct fw_cli *cli, const void *ctx)
{
	const struct answered *s = ctx;
	for (size_t i = 0; i < s->hits->n; i++)
		fw_cli_print_jsonl(cli, fw_record_key_wrap(s->key, fw_query_json_hit(s->l, &s->hits->items[i])));
	for (size_t i = 0; i < s->facts->n; i++) {
		json_t *o = fw_query_json_fact(&s->facts->items[i]);
		json_object_set_new(o, "fact", json_true());
		fw_cli_print_jsonl(cli, fw_record_key_wrap(s->key, o));
	}
}

static void answered_markdown(struct fw_cli *cli, const void *ctx)
{
	const struct answered *s = ctx;
	write_markdown(cli, s->l, s->sel, s->nsel, s->hits, s->facts);
}

static void answered_text(struct fw_cli *cli, const void *ctx)
{
	const struct answered *s = ctx;
	write_text(cli, s->l, s->sel, s->nsel, s->hits, s->facts);
}

static int run_query(struct fw_cli *cli)
{
	struct fw_topics topics;
	struct fw_error err;
	fw_error_clear(&err);
	if (!fw_topics_load(fw_cli_opt(cli, "rules"), &topics, &err))
		return fw_cli_fail(cli, &err);
	if (fw_cli_flag(cli, "list-topics")) {
		fw_cli_emit(cli, &(struct fw_emit){"topics", topics_document, topics_text, NULL, topics_jsonl, &topics, NULL});
		fw_topics_free(&topics);
		return 0;
	}
	if (cli->argc != 1) {
		fw_topics_free(&topics);
		return fw_cli_usage_error(cli, "query takes one SRC");
	}
	const struct fw_topic **sel;
	size_t nsel;
	if (!fw_topics_select(&topics, fw_cli_opt(cli, "topic"), &sel, &nsel, &err)) {
		fw_topics_free(&topics);
		return fw_cli_fail(cli, &err);
	}
	struct fw_source src;
	int rc = fw_query_cli_open(cli, cli->argv[0], fw_cli_opt(cli, "image"), &src);
	if (rc) {
		free(sel);
		fw_topics_free(&topics);
		return rc;
	}
	/* a machine without forms still has its facts; firmware without forms has nothing */
	struct fw_setlist *l = fw_query_cli_settings(cli, &src, fw_cli_opt(cli, "module"), &err);
	if (!l && src.kind != FW_SOURCE_MACHINE) {
		rc = fw_cli_fail(cli, &err);
		goto out;
	}
	if (!l && src.nwarnings == 0) /* else the source has said why already */
		fw_log_warn(cli, "%s", err.msg);
	struct fw_hits hits = {0};
	fw_arena_init(&hits.arena);
	if (l) {
		fw_arena_free(&hits.arena);
		/* the matches the cache remembered for the whole list and these rules, else matched now */
		bool whole = !fw_cli_opt(cli, "module") && !src.opt.module &&
			     strcmp(src.cached.matches.lang ? src.cached.matches.lang : "", src.opt.lang ? src.opt.lang : "") == 0;
		if (src.from_cache && whole && fw_query_from_cache(l, sel, nsel, &src.cached.matches, &hits))
			fw_log_info(cli, "topic matches from the cache");
		else
			fw_query(l, sel, nsel, &hits);
	}
	struct fw_fact_answers facts;
	fw_facts_answer(&src, sel, nsel, &facts);
	if (!fw_topics_limits_ok(sel, nsel, &err)) {
		fw_hits_free(&hits);
		fw_fact_answers_free(&facts);
		rc = fw_cli_fail(cli, &err);
		goto out;
	}
	fw_query_cli_warnings(cli, &src, NULL);
	struct fw_record_key key;
	fw_record_key_init(&key, cli->argv[0], src.kind == FW_SOURCE_MACHINE ? src.machine : NULL);
	struct answered shown = {&src, l, sel, nsel, &hits, &facts, &key, cli->argv[0]};
	fw_cli_emit(cli, &(struct fw_emit){"query", answered_document, answered_text, answered_markdown, answered_jsonl, &shown,
					   NULL});
	rc = hits.n || facts.n ? 0 : FW_EXIT_DIFFERENT;
	fw_record_key_free(&key);
	fw_fact_answers_free(&facts);
	fw_hits_free(&hits);
out:
	fw_source_close(&src);
	free(sel);
	fw_topics_free(&topics);
	return rc;
}

static const struct fw_option query_options[] = {
	{"topic", 't', "T[,T]", "topics to answer (default: all); see --list-topics", "@topics"},
	{"rules", 0, "FILE", "topic rules file instead of the built-in one (validated against topics.xsd)", NULL},
	{"list-topics", 0, NULL, "list the topics of the rules and exit", NULL},
	{"image", 0, "FILE", "BIOS image whose forms decode a machine's stored settings", NULL},
	{"vars", 'V', "VARS", "current values from here: anything `fwlens nvram` reads (efivarfs folder or tar, NVRAM store or volume, whole image)", NULL},
	{"module", 'm', "NAME|GUID", "only settings of this module", NULL},
	{"lang", 'l', "LANG", "display language of setup strings (default en-US)", NULL},
	FW_CACHE_OPTIONS,
	{0},
};

FW_COMMAND(query,
	.synopsis = "SRC [--topic T[,T]] [--rules FILE] [--image FILE] [--module NAME] [--format text|json|jsonl|xml|markdown]",
	.summary = "Show the setup options (and machine facts) that bear on IOMMU, SEV-SNP, ACS, P2P, NUMA, PCIe, virtualization",
	.description =
		"SRC is a BIOS image, capsule or module, a machine (snapshot or root folder; its settings need --image or "
		"an image stored in the snapshot), or - for a settings list in JSON on standard input (the output of "
		"`fwlens settings --format json`). The topic rules (built in, or --rules FILE; $FWLENS_RULES) say which "
		"prompts, help texts, option texts and varstores belong to each topic, and why. Each match shows its "
		"topics, menu path, module, varstore name and GUID, offset and width, options, default, current value "
		"when known, the condition that hides or grays it out, and the rule's explanation. A setting that "
		"belongs to several topics is listed under each in text and markdown, once in JSON.\n\n"
		"On a machine the topic facts are answered too: kernel options, kernel log lines, kvm_amd parameters, "
		"ACPI tables, ACS bits on the bridges above the GPUs, GPU links, IOMMU group types, CPU flags and "
		"device nodes.\n\n"
		"Exit status 1 when nothing matched.",
	.formats = "text,json,jsonl,xml,markdown",
	.options = query_options,
	.examples = "fwlens query BIOS.CAP --topic sev-snp,iommu  # the SNP and IOMMU options with varstore offsets\n"
		    "fwlens query host.fwsnap --topic p2p  # P2P settings with current values, ACS bits, faults\n"
		    "fwlens settings BIOS.CAP --format json | fwlens query - --topic numa\n"
		    "fwlens query --list-topics",
	.min_args = 0, .max_args = 1, .run = run_query, .order = 33);
