/* fwlens settings: every setup question of a BIOS as a flat list in menu order, with storage,
 * defaults and (with --vars) current values. */
#include <inttypes.h>
#include <string.h>

#include "emit.h"
#include "escape-shell.h"
#include "ifr-writers.h"
#include "output-text.h"
#include "plan-writers.h"
#include "query-writers.h"
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

/* Where a bound value came from, on each setting that has one. */
static json_t *with_source(json_t *o, const struct fw_setting *st, const char *cs_text)
{
	if (st->has_current)
		json_object_set_new(o, "current_source", json_string(cs_text));
	return o;
}

/* Settings of several modules (two AMD CBS modules, one per CPU generation, beside AMI Setup) are
 * listed module by module, and each menu section names its module. */
static bool several_modules(const struct fw_settings *s)
{
	for (uint32_t i = 1; i < s->n; i++)
		if (s->items[i].fp->module != s->items[0].fp->module)
			return true;
	return false;
}

static const char *module_label(const struct fw_hii_module *m, char *buf, size_t len)
{
	char g[40];
	if (m->name && m->has_guid)
		snprintf(buf, len, "%s (%s)", m->name, fw_guid_format(&m->guid, g));
	else
		snprintf(buf, len, "%s", m->name ? m->name : m->has_guid ? fw_guid_format(&m->guid, g) : "unnamed module");
	return buf;
}

static uint32_t settings_of_module(const struct fw_settings *s, uint32_t from)
{
	uint32_t n = 0;
	for (uint32_t i = from; i < s->n && s->items[i].fp->module == s->items[from].fp->module; i++)
		n++;
	return n;
}

static void write_text(struct fw_cli *cli, const struct fw_settings *s, const char *cs_text)
{
	FILE *f = fw_cli_out(cli);
	const char *last = NULL;
	const struct fw_hii_module *last_module = NULL;
	bool modules = several_modules(s);
	const char *b = fw_cli_color(cli, "bold"), *r = fw_cli_color(cli, "reset"), *dim = fw_cli_color(cli, "dim");
	const char *red = fw_cli_color(cli, "red"), *yel = fw_cli_color(cli, "yellow");
	for (uint32_t i = 0; i < s->n; i++) {
		const struct fw_setting *st = &s->items[i];
		const char *path = st->npaths ? st->paths[0] : "(not reachable from a menu)";
		if (modules && st->fp->module != last_module) {
			char mb[160];
			fprintf(f, "%s%s== module %s: %u settings ==%s\n", last ? "\n" : "", b,
				module_label(st->fp->module, mb, sizeof(mb)), settings_of_module(s, i), r);
			last_module = st->fp->module;
			last = NULL;
			fputc('\n', f);
		}
		if (!last || strcmp(last, path) != 0) {
			/* menu titles and module names come from the image: one line each */
			fprintf(f, "%s%s", last ? "\n" : "", b);
			fw_ifr_put_line(f, path);
			fputs(r, f);
			if (modules) {
				fprintf(f, "  %s[", dim);
				fw_ifr_put_line(f, st->fp->module->name ? st->fp->module->name : "unnamed module");
				fprintf(f, "]%s", r);
			}
			fputc('\n', f);
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
				if (def && strcmp(def, cur) != 0) {
					fprintf(f, "  %s(default ", dim);
					fw_ifr_put_line(f, def);
					fprintf(f, ")%s", r);
				}
			} else {
				fprintf(f, "%s(no value)%s", dim, r);
				if (def) {
					fprintf(f, "  %s(default ", dim);
					fw_ifr_put_line(f, def);
					fprintf(f, ")%s", r);
				}
			}
		} else {
			fw_ifr_put_line(f, def ? def : "-");
			fprintf(f, "  %s(default)%s", dim, r);
		}
		fprintf(f, "  %s[", dim);
		where(f, st);
		fprintf(f, ", qid 0x%X", st->q->question_id);
		if (st->keyword) {
			fputs(", ", f);
			fw_ifr_put_line(f, st->keyword);
		}
		fprintf(f, "]%s", r);
		if (st->hidden == 1)
			fprintf(f, "  %shidden%s", yel, r);
		else if (st->grayed == 1)
			fprintf(f, "  %sgrayed out%s", yel, r);
		fputc('\n', f);
		if (cli->verbose) {
			for (uint32_t k = 0; k < st->nconds; k++)
				fprintf(f, "      %s %s\n", fw_ifr_cond_kind_name(st->conds[k].cond->kind), fw_setting_cond_text(&st->conds[k]));
		}
	}
	if (s->bound)
		fprintf(f, "\n%u settings; values bound from %u of them\n", s->n, s->bound_vars);
	else
		fprintf(f, "\n%u settings\n", s->n);
	fprintf(f, "current values: %s\n", cs_text);
}

/* ---- AMI SCE export layout ---- */

/* Every question is checked first: one the format cannot carry refuses the script, unwritten. */
static int write_sce(struct fw_cli *cli, const struct fw_settings *s)
{
	char cb[80];
	struct fw_error err;
	fw_error_clear(&err);
	for (uint32_t i = 0; i < s->n; i++)
		if (!fw_sce_check_question(&s->items[i], s->items[i].has_current, current_text(&s->items[i], cb, sizeof(cb)), &err))
			return fw_cli_fail(cli, &err);
	FILE *f = fw_cli_out(cli);
	const char *base = strrchr(cli->argv[0], '/');
	fw_script_comment(f, "//", "Script File Name : %s", base ? base + 1 : cli->argv[0]);
	fprintf(f, "// Written by fwlens %s in the layout of an AMISCE export\n", FWLENS_VERSION);
	fprintf(f, "// No HIICrc32 line: AMISCE computes it from the live HII database\n");
	fprintf(f, "// Each Offset line names its variable: // Name GUID\n\n");
	for (uint32_t i = 0; i < s->n; i++) {
		const struct fw_setting *st = &s->items[i];
		fw_sce_write_question(f, st, st->has_current, st->current, current_text(st, cb, sizeof(cb)));
	}
	return 0;
}

/* ---- markdown ---- */

static void write_markdown(struct fw_cli *cli, const struct fw_settings *s, const char *cs_text)
{
	FILE *f = fw_cli_out(cli);
	const char *last = NULL;
	const char *base = strrchr(cli->argv[0], '/');
	fputs("# Settings of ", f);
	fw_md_cell(f, base ? base + 1 : cli->argv[0]);
	fputs("\n\nCurrent values: ", f);
	fw_md_cell(f, cs_text);
	fputc('\n', f);
	const struct fw_hii_module *last_module = NULL;
	bool modules = several_modules(s);
	for (uint32_t i = 0; i < s->n; i++) {
		const struct fw_setting *st = &s->items[i];
		const char *path = st->npaths ? st->paths[0] : "(not reachable from a menu)";
		if (modules && st->fp->module != last_module) {
			char mb[160];
			fprintf(f, "\n## Module ");
			fw_md_cell(f, module_label(st->fp->module, mb, sizeof(mb)));
			fprintf(f, "\n\n%u settings.\n", settings_of_module(s, i));
			last_module = st->fp->module;
			last = NULL;
		}
		if (!last || strcmp(last, path) != 0) {
			fprintf(f, "\n%s ", modules ? "###" : "##");
			fw_md_cell(f, path);
			if (modules) {
				fputs(" (", f);
				fw_md_cell(f, st->fp->module->name ? st->fp->module->name : "unnamed module");
				fputc(')', f);
			}
			fputs("\n\n", f);
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
			fw_md_cell(f, fw_setting_cond_text(&st->conds[k]));
		}
		fputs(" |\n", f);
	}
}

/* ---- a settings list (an AMISCE export, JSON saved earlier) ---- */

static json_t *list_document(const void *ctx)
{
	const struct fw_ifr_cli_forms *forms = ctx;
	struct fw_setlist *l = forms->list;
	struct fw_source *src = (struct fw_source *)&forms->src;
	json_t *doc = json_object(), *arr = json_array();
	json_object_set_new(doc, "current_source", fw_cli_json_current_source(fw_source_current(src), fw_source_current_text(src)));
	if (src->hii_crc)
		json_object_set_new(doc, "hii_crc32", json_string(src->hii_crc));
	for (size_t i = 0; i < l->n; i++)
		json_array_append_new(arr, fw_query_json_setting(l, &l->items[i]));
	json_object_set_new(doc, "settings", arr);
	return doc;
}

static void list_jsonl(struct fw_cli *cli, const void *ctx)
{
	struct fw_setlist *l = ((const struct fw_ifr_cli_forms *)ctx)->list;
	struct fw_record_key key;
	fw_record_key_init(&key, cli->argv[0], NULL);
	for (size_t i = 0; i < l->n; i++)
		fw_cli_print_jsonl(cli, fw_record_key_wrap(&key, fw_query_json_setting(l, &l->items[i])));
	fw_record_key_free(&key);
}

static void list_text(struct fw_cli *cli, const void *ctx)
{
	const struct fw_ifr_cli_forms *forms = ctx;
	struct fw_setlist *l = forms->list;
	FILE *f = fw_cli_out(cli);
	const char *dim = fw_cli_color(cli, "dim"), *r = fw_cli_color(cli, "reset");
	for (size_t i = 0; i < l->n; i++) {
		const struct fw_setlist_item *it = &l->items[i];
		char cb[64], db[64], wb[128];
		const char *cur = fw_setlist_current_text(it, cb, sizeof(cb)), *def = fw_setlist_default_text(it, db, sizeof(db));
		fputs("  ", f);
		fw_ifr_put_line(f, it->prompt);
		fputs(" = ", f);
		fw_ifr_put_line(f, cur ? cur : "(no value)");
		if (def && (!cur || strcmp(def, cur) != 0)) {
			fprintf(f, "  %s(default ", dim);
			fw_ifr_put_line(f, def);
			fprintf(f, ")%s", r);
		}
		fprintf(f, "  %s[%s, qid 0x%X", dim, fw_query_where(it, wb, sizeof(wb)), it->question_id);
		if (it->keyword) {
			fputs(", ", f);
			fw_ifr_put_line(f, it->keyword);
		}
		fprintf(f, "]%s\n", r);
	}
	fprintf(f, "\n%zu settings\n", l->n);
	if (forms->src.hii_crc)
		fprintf(f, "HIICrc32 %s\n", forms->src.hii_crc);
	fprintf(f, "current values: %s\n", fw_source_current_text((struct fw_source *)&forms->src));
}

/* the forms' own formats: records read back have no forms to write them from */
static int list_refuses(struct fw_cli *cli, const void *ctx)
{
	return fw_cli_usage_error(cli, "a settings list prints as text, json, jsonl or xml");
}

/* an AMISCE export written back in its own layout, byte for byte */
static int list_sce(struct fw_cli *cli, const void *ctx)
{
	const struct fw_ifr_cli_forms *forms = ctx;
	if (!forms->src.have_amisce || forms->src.opt.vars || fw_cli_opt(cli, "module"))
		return fw_cli_usage_error(cli, "a settings list prints as text, json, jsonl or xml (sce: an AMISCE export on its own)");
	const struct fw_amisce *a = &forms->src.amisce;
	size_t lines = a->nhead;
	for (size_t i = 0; i < a->n; i++)
		lines += a->q[i].nlines;
	fw_log_info(cli, "%s: %zu lines, %zu spelled from the decoded fields, %zu kept as written (comments, other forms)",
		    cli->argv[0], lines, lines - a->raw_lines, a->raw_lines);
	fw_sce_write_export(cli, a, NULL, 0);
	return 0;
}

static const struct fw_emit_writer list_writers[] = {
	{"sce", list_sce}, {"markdown", list_refuses}, {"redfish-registry", list_refuses}, {NULL, NULL}};

static int write_list(struct fw_cli *cli, struct fw_ifr_cli_forms *forms)
{
	const char *module = fw_cli_opt(cli, "module");
	if (module && !fw_setlist_keep_module(forms->list, module)) {
		struct fw_error err;
		fw_error_set(&err, FW_E_NOT_FOUND, "%s: no settings of module \"%s\"", cli->argv[0], module);
		return fw_cli_fail(cli, &err);
	}
	return fw_cli_emit(cli, &(struct fw_emit){"settings", list_document, list_text, NULL, list_jsonl, forms, list_writers});
}

/* ---- the settings of forms ---- */

struct shown {
	const struct fw_settings *s;
	struct fw_source *src;
};

static json_t *settings_document(const void *ctx)
{
	const struct shown *sh = ctx;
	const struct fw_settings *s = sh->s;
	const char *cs_text = fw_source_current_text(sh->src);
	json_t *doc = json_object(), *arr = json_array();
	for (uint32_t i = 0; i < s->n; i++)
		json_array_append_new(arr, with_source(fw_ifr_json_question(&s->items[i], s->bound), &s->items[i], cs_text));
	json_object_set_new(doc, "current_source", fw_cli_json_current_source(fw_source_current(sh->src), cs_text));
	json_object_set_new(doc, "settings", arr);
	return doc;
}

static void settings_jsonl(struct fw_cli *cli, const void *ctx)
{
	const struct shown *sh = ctx;
	const struct fw_settings *s = sh->s;
	const char *cs_text = fw_source_current_text(sh->src);
	struct fw_record_key key;
	fw_record_key_init(&key, cli->argv[0], sh->src->kind == FW_SOURCE_MACHINE ? sh->src->machine : NULL);
	for (uint32_t i = 0; i < s->n; i++)
		fw_cli_print_jsonl(cli, fw_record_key_wrap(&key, with_source(fw_ifr_json_question(&s->items[i], s->bound),
									      &s->items[i], cs_text)));
	fw_record_key_free(&key);
}

static void settings_text(struct fw_cli *cli, const void *ctx)
{
	const struct shown *sh = ctx;
	write_text(cli, sh->s, fw_source_current_text(sh->src));
}

static void settings_markdown(struct fw_cli *cli, const void *ctx)
{
	const struct shown *sh = ctx;
	write_markdown(cli, sh->s, fw_source_current_text(sh->src));
}

static int settings_sce(struct fw_cli *cli, const void *ctx)
{
	return write_sce(cli, ((const struct shown *)ctx)->s);
}

static int settings_registry(struct fw_cli *cli, const void *ctx)
{
	const char *base = strrchr(cli->argv[0], '/');
	fw_cli_print_json(cli, fw_redfish_registry_json(((const struct shown *)ctx)->s, base ? base + 1 : cli->argv[0]));
	return 0;
}

static const struct fw_emit_writer settings_writers[] = {
	{"sce", settings_sce}, {"redfish-registry", settings_registry}, {NULL, NULL}};

static int run_settings(struct fw_cli *cli)
{
	struct fw_ifr_cli_forms forms;
	int rc = fw_ifr_cli_forms_open(cli, &forms, true);
	if (rc)
		return rc;
	if (forms.list) {
		rc = write_list(cli, &forms);
		fw_ifr_cli_forms_close(&forms);
		return rc;
	}
	struct shown shown = {forms.settings, &forms.src};
	/* where current values come from is settled before any writer runs (it loads the variables) */
	fw_source_current(&forms.src);
	fw_source_current_text(&forms.src);
	rc = fw_cli_emit(cli, &(struct fw_emit){"settings", settings_document, settings_text, settings_markdown, settings_jsonl,
						&shown, settings_writers});
	fw_ifr_cli_forms_close(&forms);
	return rc;
}

static const struct fw_option settings_options[] = {
	{"vars", 'V', "VARS", "current values from here: anything `fwlens nvram` reads (an efivarfs folder or tar, an efivarfs file, an NVRAM store or volume, a whole image)", NULL},
	{"module", 'm', "NAME|GUID", "only the module with this name or FFS file GUID", NULL},
	{"lang", 'l', "LANG", "display language, default en-US (per-id fallback to en-US)", NULL},
	{"image", 0, "FILE", "for a machine: the BIOS image whose forms decode its variables (default: the one stored in the snapshot)", NULL},
	{0},
};

FW_COMMAND(settings,
	.synopsis = "SRC [--vars VARS] [--image FILE] [--module NAME|GUID] [--lang LANG] [--format text|json|jsonl|xml|sce|markdown|redfish-registry]",
	.summary = "List every setup option of a BIOS in menu order, with defaults and current values",
	.description = "Flattens the HII forms of FILE into one list in menu order: the menu path, the prompt, "
		       "the varstore (name and GUID), offset and width a setup_var-style tool needs, the options "
		       "with their values, the default per default store and the conditions that hide or gray "
		       "out the option. A question reachable from several menus is listed once with every path.\n\n"
		       "Current values come from the image's own NVRAM store, or from --vars: anything `fwlens nvram` "
		       "reads (an efivarfs folder or its tar, an efivarfs file, an NVRAM store, volume or whole image). "
		       "Each is shown next to the default, and values that are not one of the options are flagged; "
		       "conditions are evaluated, so an option hidden in the setup UI is told apart from one that is set. "
		       "The output says where the values came from (current_source). Each option also shows its x-UEFI "
		       "keyword (the x-UEFI-AMI string, the name an AMI BMC gives it as a Redfish attribute) when the "
		       "forms carry one.\n\n"
		       "SRC may also be a machine (a snapshot or a root folder): its EFI variables give the current values, "
		       "decoded with the forms of --image or of the image stored in the snapshot.\n\n"
		       "--format sce writes the layout of an AMISCE export (Setup Question, Help String, Token, "
		       "Offset, Width, BIOS Default, Options with * on the current value; a question whose prompt, keyword, "
		       "option or default text holds a line break, another control character or bytes that are not UTF-8 "
		       "refuses it with exit status 5 naming the setting); an AMISCE export as SRC is written back byte for "
		       "byte (its line ends, header, comments and layout as read); --format redfish-registry the "
		       "BIOS AttributeRegistry a BMC would publish for these forms (attributes named by the x-UEFI keywords, "
		       "MenuPath ./Setup/Advanced/..., Menus, DefaultValue, ResetRequired, and Map Dependencies made from "
		       "the suppress-if, disable-if and gray-out-if conditions; those it cannot express are counted and listed "
		       "under Oem.fwlens), for checking `fwlens plan --format redfish` bodies offline.",
	.formats = "text,json,jsonl,xml,sce,markdown,redfish-registry",
	.options = settings_options,
	.examples = "fwlens settings Setup.sct  # every option with its default\n"
		    "fwlens settings BIOS.CAP --vars /sys/firmware/efi/efivars  # current values of this machine\n"
		    "fwlens settings BIOS.CAP --format sce > nvram.txt  # AMISCE-style export\n"
		    "fwlens settings BIOS.CAP --format redfish-registry > registry.json  # what a BMC would publish\n"
		    "fwlens settings host.fwsnap --format markdown  # a captured machine's settings (image in the snapshot)\n"
		    "fwlens settings BIOS.CAP --format jsonl | grep SMEE  # one JSON object per option",
	.min_args = 1, .max_args = 1, .run = run_settings, .order = 31);
