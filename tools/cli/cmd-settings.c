/* fwlens settings: every setup question of a BIOS as a flat list in menu order, with storage,
 * defaults and (with --vars) current values. */
#include <inttypes.h>
#include <string.h>

#include "ifr-writers.h"
#include "output-text.h"
#include "record-key.h"

static const char *default_text(const struct fw_setting *st, char *buf, size_t len)
{
	for (uint32_t i = 0; i < st->ndefaults; i++) {
		const struct fw_setting_default *d = &st->defaults[i];
		if (d->store_id != 0)
			continue;
		if (d->text)
			return d->text;
		if (d->has_value) {
			snprintf(buf, len, "%" PRIu64, d->value);
			return buf;
		}
		return d->expr;
	}
	return NULL;
}

static const char *current_text(const struct fw_setting *st, char *buf, size_t len)
{
	if (!st->has_current)
		return NULL;
	if (st->current_text)
		return st->current_text;
	switch (st->q->kind) {
	case FW_IFR_K_ONE_OF: case FW_IFR_K_NUMERIC: case FW_IFR_K_CHECKBOX:
		snprintf(buf, len, "%" PRIu64, st->current);
		return buf;
	default: {
		size_t o = 0;
		for (uint32_t i = 0; i < st->current_len && o + 3 < len; i++)
			o += (size_t)snprintf(buf + o, len - o, "%02X", st->current_raw[i]);
		buf[o] = '\0';
		return buf;
	}
	}
}

static void where(FILE *f, const struct fw_setting *st)
{
	const struct fw_ifr_question *q = st->q;
	const char *vs = st->varstore_name ? st->varstore_name : "?";
	if (q->bit_field)
		fprintf(f, "%s bit %u:%u", vs, q->bit_offset, q->bit_width);
	else
		fprintf(f, "%s+0x%X/%u", vs, q->var_info, q->width);
}

/* ---- text ---- */

static void write_text(struct fw_cli *cli, const struct fw_settings *s)
{
	FILE *f = fw_cli_out(cli);
	const char *last = NULL;
	const char *b = fw_cli_color(cli, "bold"), *r = fw_cli_color(cli, "reset"), *dim = fw_cli_color(cli, "dim");
	const char *red = fw_cli_color(cli, "red"), *yel = fw_cli_color(cli, "yellow");
	for (uint32_t i = 0; i < s->n; i++) {
		const struct fw_setting *st = &s->items[i];
		const char *path = st->npaths ? st->paths[0] : "(not reachable from a menu)";
		if (!last || strcmp(last, path) != 0) {
			fprintf(f, "%s%s%s%s\n", last ? "\n" : "", b, path, r);
			last = path;
		}
		char db[32], cb[80];
		const char *def = default_text(st, db, sizeof(db));
		const char *cur = current_text(st, cb, sizeof(cb));
		fputs("  ", f);
		fw_ifr_put_line(f, st->prompt);
		fputs(" = ", f);
		if (s->bound) {
			if (cur) {
				fprintf(f, "%s", !st->current_valid ? red : "");
				fw_ifr_put_line(f, cur);
				fprintf(f, "%s%s", !st->current_valid ? " (not an option)" : "", !st->current_valid ? r : "");
				if (def && strcmp(def, cur) != 0)
					fprintf(f, "  %s(default %s)%s", dim, def, r);
			} else {
				fprintf(f, "%s(no value)%s", dim, r);
				if (def)
					fprintf(f, "  %s(default %s)%s", dim, def, r);
			}
		} else {
			fputs(def ? def : "-", f);
			fprintf(f, "  %s(default)%s", dim, r);
		}
		fprintf(f, "  %s[", dim);
		where(f, st);
		fprintf(f, ", qid 0x%X]%s", st->q->question_id, r);
		if (st->hidden == 1)
			fprintf(f, "  %shidden%s", yel, r);
		else if (st->grayed == 1)
			fprintf(f, "  %sgrayed out%s", yel, r);
		fputc('\n', f);
		if (cli->verbose) {
			for (uint32_t k = 0; k < st->nconds; k++)
				fprintf(f, "      %s %s\n", fw_ifr_cond_kind_name(st->conds[k].cond->kind), st->conds[k].text);
		}
	}
	if (s->bound)
		fprintf(f, "\n%u settings; values bound from %u of them\n", s->n, s->bound_vars);
	else
		fprintf(f, "\n%u settings\n", s->n);
}

/* ---- AMI SCE export layout ---- */

static void sce_value(FILE *f, const struct fw_setting *st, uint64_t v)
{
	fprintf(f, "[%0*" PRIX64 "]", (int)(st->q->width ? st->q->width * 2 : 2), v);
}

static void write_sce(struct fw_cli *cli, const struct fw_settings *s)
{
	FILE *f = fw_cli_out(cli);
	const char *base = strrchr(cli->argv[0], '/');
	fprintf(f, "// Script File Name : %s\n", base ? base + 1 : cli->argv[0]);
	fprintf(f, "// Written by fwlens %s in the layout of an AMISCE export\n", FWLENS_VERSION);
	fprintf(f, "// No HIICrc32 line: AMISCE computes it from the live HII database\n");
	fprintf(f, "// Each Offset line names its variable: // Name GUID\n\n");
	for (uint32_t i = 0; i < s->n; i++) {
		const struct fw_setting *st = &s->items[i];
		const struct fw_ifr_question *q = st->q;
		char g[FW_GUID_STR_LEN];
		fputs("Setup Question\t= ", f);
		fw_ifr_put_line(f, st->prompt);
		fputs("\nHelp String\t= ", f);
		fw_ifr_put_line(f, st->help);
		fprintf(f, "\nToken\t=%X\t// Do NOT change this line\n", q->question_id);
		fprintf(f, "Offset\t=%X\t// %s %s", q->bit_field ? q->bit_offset / 8 : q->var_info,
			st->varstore_name ? st->varstore_name : "?", st->vs ? fw_guid_format(&st->vs->guid, g) : "");
		if (q->bit_field)
			fprintf(f, " bits %u:%u", q->bit_offset, q->bit_width);
		fprintf(f, "\nWidth\t=%02X\n", q->width);
		const struct fw_setting_default *d0 = NULL;
		for (uint32_t k = 0; k < st->ndefaults; k++)
			if (st->defaults[k].store_id == 0 && st->defaults[k].has_value)
				d0 = &st->defaults[k];
		if (q->kind == FW_IFR_K_ONE_OF || q->kind == FW_IFR_K_CHECKBOX) {
			bool checkbox = q->kind == FW_IFR_K_CHECKBOX;
			if (d0) {
				fputs("BIOS Default\t=", f);
				sce_value(f, st, d0->value);
				fprintf(f, "%s \n", d0->text ? d0->text : "");
			}
			uint64_t mark = st->has_current ? st->current : d0 ? d0->value : UINT64_MAX;
			uint32_t n = checkbox ? 2 : st->noptions;
			for (uint32_t k = 0; k < n; k++) {
				uint64_t v = checkbox ? k : st->options[k].opt->value.u;
				const char *t = checkbox ? (k ? "Enabled" : "Disabled") : st->options[k].text;
				fputs(k ? "         " : "Options\t=", f);
				if (v == mark)
					fputc('*', f);
				sce_value(f, st, v);
				fw_ifr_put_line(f, t);
				fputs(k ? "\n" : "\t// Move \"*\" to the desired Option\n", f);
			}
		} else if (q->kind == FW_IFR_K_NUMERIC) {
			if (d0)
				fprintf(f, "BIOS Default\t=<%" PRIu64 "> \n", d0->value);
			uint64_t v = st->has_current ? st->current : d0 ? d0->value : q->min;
			fprintf(f, "Value\t=<%" PRIu64 ">\n", v);
		} else if (q->kind == FW_IFR_K_STRING || q->kind == FW_IFR_K_PASSWORD) {
			fprintf(f, "Value\t=\"%s\"\n", st->has_current && st->current_text ? st->current_text : "");
		} else {
			char cb[80];
			const char *cur = current_text(st, cb, sizeof(cb));
			fprintf(f, "Value\t=<%s>\n", cur ? cur : "");
		}
		fputc('\n', f);
	}
}

/* ---- markdown ---- */

static void write_markdown(struct fw_cli *cli, const struct fw_settings *s)
{
	FILE *f = fw_cli_out(cli);
	const char *last = NULL;
	const char *base = strrchr(cli->argv[0], '/');
	fprintf(f, "# Settings of %s\n", base ? base + 1 : cli->argv[0]);
	for (uint32_t i = 0; i < s->n; i++) {
		const struct fw_setting *st = &s->items[i];
		const char *path = st->npaths ? st->paths[0] : "(not reachable from a menu)";
		if (!last || strcmp(last, path) != 0) {
			fprintf(f, "\n## %s\n\n", path);
			fprintf(f, s->bound ? "| Setting | Current | Default | Options | Varstore | Offset | Width | Conditions |\n"
					      "|---|---|---|---|---|---|---|---|\n"
					    : "| Setting | Default | Options | Varstore | Offset | Width | Conditions |\n"
					      "|---|---|---|---|---|---|---|\n");
			last = path;
		}
		char db[32], cb[80];
		fputs("| ", f);
		fw_md_cell(f, st->prompt);
		if (s->bound) {
			fputs(" | ", f);
			fw_md_cell(f, current_text(st, cb, sizeof(cb)));
			if (st->has_current && !st->current_valid)
				fputs(" (not an option)", f);
		}
		fputs(" | ", f);
		fw_md_cell(f, default_text(st, db, sizeof(db)));
		fputs(" | ", f);
		for (uint32_t k = 0; k < st->noptions; k++) {
			fprintf(f, "%s%" PRIu64 " ", k ? ", " : "", st->options[k].opt->value.u);
			fw_md_cell(f, st->options[k].text);
		}
		if (st->q->kind == FW_IFR_K_NUMERIC)
			fprintf(f, "%" PRIu64 "..%" PRIu64, st->q->min, st->q->max);
		fputs(" | ", f);
		fw_md_cell(f, st->varstore_name);
		if (st->q->bit_field)
			fprintf(f, " | bit %u | %u bits | ", st->q->bit_offset, st->q->bit_width);
		else
			fprintf(f, " | 0x%X | %u | ", st->q->var_info, st->q->width);
		for (uint32_t k = 0; k < st->nconds; k++) {
			fprintf(f, "%s%s ", k ? "; " : "", fw_ifr_cond_kind_name(st->conds[k].cond->kind));
			fw_md_cell(f, st->conds[k].text);
		}
		fputs(" |\n", f);
	}
}

static int run_settings(struct fw_cli *cli)
{
	struct fw_ifr_cli_forms forms;
	int rc = fw_ifr_cli_forms_open(cli, &forms);
	if (rc)
		return rc;
	struct fw_settings *s = forms.settings;
	struct fw_tree *vtree = NULL;
	struct fw_file vfile = {0};
	struct fw_varlist vars = {0};
	const char *src = fw_cli_opt(cli, "vars");
	if (src) {
		struct fw_error err;
		fw_error_clear(&err);
		if (!fw_settings_load_vars(src, &vtree, &vfile, &vars, &err)) {
			if (vtree)
				fw_tree_free(vtree);
			fw_file_close(&vfile);
			fw_ifr_cli_forms_close(&forms);
			return fw_cli_fail(cli, &err);
		}
		fw_settings_bind(s, &vars);
		fw_log_info(cli, "%zu variables from %s; %u settings found their variable", vars.count, src, s->bound_vars);
	}
	if (fw_cli_format_is(cli, "json") || fw_cli_format_is(cli, "xml")) {
		json_t *doc = json_object(), *arr = json_array();
		for (uint32_t i = 0; i < s->n; i++)
			json_array_append_new(arr, fw_ifr_json_question(&s->items[i], s->bound));
		json_object_set_new(doc, "settings", arr);
		if (fw_cli_format_is(cli, "json"))
			fw_cli_print_json(cli, doc);
		else
			fw_cli_print_json_as_xml(cli, doc, "settings");
	} else if (fw_cli_format_is(cli, "jsonl")) {
		struct fw_record_key key;
		fw_record_key_init(&key, cli->argv[0], forms.machine ? forms.src.machine : NULL);
		for (uint32_t i = 0; i < s->n; i++)
			fw_cli_print_jsonl(cli, fw_record_key_wrap(&key, fw_ifr_json_question(&s->items[i], s->bound)));
		fw_record_key_free(&key);
	} else if (fw_cli_format_is(cli, "sce")) {
		write_sce(cli, s);
	} else if (fw_cli_format_is(cli, "markdown")) {
		write_markdown(cli, s);
	} else {
		write_text(cli, s);
	}
	fw_varlist_free(&vars);
	if (vtree)
		fw_tree_free(vtree);
	if (vfile.data || vfile.path)
		fw_file_close(&vfile);
	fw_ifr_cli_forms_close(&forms);
	return 0;
}

static const struct fw_option settings_options[] = {
	{"vars", 'V', "VARS", "bind current values from an efivarfs folder (or its tar), an efivarfs file or an NVRAM store", NULL},
	{"module", 'm', "NAME|GUID", "only the module with this name or FFS file GUID", NULL},
	{"lang", 'l', "LANG", "display language, default en-US (per-id fallback to en-US)", NULL},
	{"image", 0, "FILE", "for a machine: the BIOS image whose forms decode its variables (default: the one stored in the snapshot)", NULL},
	{0},
};

FW_COMMAND(settings,
	.synopsis = "SRC [--vars VARS] [--image FILE] [--module NAME|GUID] [--lang LANG] [--format text|json|jsonl|xml|sce|markdown]",
	.summary = "List every setup option of a BIOS in menu order, with defaults and current values",
	.description = "Flattens the HII forms of FILE into one list in menu order: the menu path, the prompt, "
		       "the varstore (name and GUID), offset and width a setup_var-style tool needs, the options "
		       "with their values, the default per default store and the conditions that hide or gray "
		       "out the option. A question reachable from several menus is listed once with every path.\n\n"
		       "With --vars the current value of each option is read from the variables, shown next to "
		       "the default, and values that are not one of the options are flagged; conditions are "
		       "evaluated, so an option hidden in the setup UI is told apart from one that is set.\n\n"
		       "SRC may also be a machine (a snapshot or a root folder): its EFI variables give the current values, "
		       "decoded with the forms of --image or of the image stored in the snapshot.\n\n"
		       "--format sce writes the layout of an AMISCE export (Setup Question, Help String, Token, "
		       "Offset, Width, BIOS Default, Options with * on the current value).",
	.formats = "text,json,jsonl,xml,sce,markdown",
	.options = settings_options,
	.examples = "fwlens settings Setup.sct  # every option with its default\n"
		    "fwlens settings BIOS.CAP --vars /sys/firmware/efi/efivars  # current values of this machine\n"
		    "fwlens settings BIOS.CAP --format sce > nvram.txt  # AMISCE-style export\n"
		    "fwlens settings host.fwsnap --format markdown  # a captured machine's settings (image in the snapshot)\n"
		    "fwlens settings BIOS.CAP --format jsonl | grep SMEE  # one JSON object per option",
	.min_args = 1, .max_args = 1, .run = run_settings, .order = 31);
