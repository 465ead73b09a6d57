/* fwlens ifr: the HII forms of a BIOS image, module or package blob as a form tree. */
#include <inttypes.h>
#include <string.h>

#include "emit.h"
#include "ifr-writers.h"
#include "output-text.h"

void fw_ifr_put_line(FILE *f, const char *s)
{
	bool space = false;
	for (const char *c = s; *c; c++) {
		if (*c == '\r' || *c == '\n') {
			space = true;
			continue;
		}
		if (space) {
			fputc(' ', f);
			space = false;
		}
		fputc(*c, f);
	}
}

/* Forms of --module in `in`, or the exit code of the error saying there are none. */
static int check_forms(struct fw_cli *cli, const char *path, struct fw_hii_input *in)
{
	struct fw_error err;
	fw_error_clear(&err);
	const char *mod = fw_cli_opt(cli, "module");
	uint32_t forms = 0;
	for (uint32_t m = 0; m < in->db.nmodules; m++)
		if (!mod || fw_hii_module_matches(in->db.modules[m], mod))
			forms += in->db.modules[m]->nforms;
	if (!forms) {
		if (mod)
			fw_error_set(&err, FW_E_NOT_FOUND, "%s: no module matching \"%s\" has HII forms", path, mod);
		else
			fw_error_set(&err, FW_E_NOT_FOUND, "%s: no HII form package found (%u module(s) with strings only)",
				     path, in->db.string_only);
		return fw_cli_fail(cli, &err);
	}
	fw_log_info(cli, "%u module(s) with forms, %u formset(s), from %s", in->db.nmodules, forms, in->how);
	return 0;
}

int fw_ifr_cli_open(struct fw_cli *cli, struct fw_hii_input *in)
{
	struct fw_hii_options o = {.lang = fw_cli_opt(cli, "lang")};
	struct fw_error err;
	fw_error_clear(&err);
	if (!fw_source_open_hii(cli->argv[0], &o, in, &err))
		return fw_cli_fail(cli, &err);
	int rc = check_forms(cli, cli->argv[0], in);
	if (rc)
		fw_hii_close(in);
	return rc;
}

int fw_ifr_cli_forms_open(struct fw_cli *cli, struct fw_ifr_cli_forms *f, bool values)
{
	memset(f, 0, sizeof(*f));
	const char *path = cli->argv[0];
	const char *module = fw_cli_opt(cli, "module");
	bool machine = fw_source_recognise(path, FW_ACCEPT_MACHINE) != FW_INPUT_UNKNOWN;
	if (!machine && !values) {
		int rc = fw_ifr_cli_open(cli, &f->own);
		if (rc)
			return rc;
		if (fw_cli_opt(cli, "image"))
			fw_log_warn(cli, "--image is for machines; %s is firmware already", path);
		f->in = &f->own;
		fw_settings_build(&f->in->db, module, &f->settings_own);
		f->settings = &f->settings_own;
		return 0;
	}
	struct fw_source_options so = {.image = fw_cli_opt(cli, "image"), .lang = fw_cli_opt(cli, "lang"), .module = module,
				       .vars = fw_cli_opt(cli, "vars")};
	struct fw_error err;
	fw_error_clear(&err);
	if (!fw_source_open(path, &so, &f->src, &err))
		return fw_cli_fail(cli, &err);
	f->machine = true;
	if (f->src.kind == FW_SOURCE_FIRMWARE) {
		int rc = check_forms(cli, path, &f->src.hii);
		if (rc) {
			fw_source_close(&f->src);
			return rc;
		}
	}
	if (f->src.kind == FW_SOURCE_LIST && values) {
		/* a settings list (JSON, an AMISCE export): records, not forms */
		f->list = fw_source_setlist(&f->src);
		return 0;
	}
	f->settings = f->src.kind == FW_SOURCE_LIST ? NULL : fw_source_settings(&f->src);
	for (size_t i = 0; i < f->src.nwarnings; i++)
		fw_log_warn(cli, "%s", f->src.warnings[i]);
	if (!f->settings && values && f->src.kind == FW_SOURCE_MACHINE && (f->list = fw_source_setlist(&f->src)))
		return 0; /* no forms, but the kernel driver's firmware-attributes list the settings */
	if (!f->settings) {
		if (f->src.kind == FW_SOURCE_MACHINE)
			fw_error_set(&err, FW_E_NOT_FOUND, "%s: no BIOS forms%s%s for this machine (give --image FILE, or capture the "
				     "snapshot with --image)%s", path, module ? " for module " : "", module ? module : "",
				     !values ? "" : f->src.fwattr_count < 0 ? "; it has no firmware-attributes class either"
						    : "; its firmware-attributes class is empty");
		else
			fw_error_set(&err, FW_E_INVALID, "%s: a settings list has no forms to show", path);
		fw_source_close(&f->src);
		return fw_cli_fail(cli, &err);
	}
	f->in = &f->src.hii;
	fw_log_info(cli, "forms from %s; %u settings found their variable; current values: %s",
		    f->src.image_name ? f->src.image_name : path, f->settings->bound_vars, fw_source_current_text(&f->src));
	return 0;
}

void fw_ifr_cli_forms_close(struct fw_ifr_cli_forms *f)
{
	if (f->machine) {
		fw_source_close(&f->src);
	} else {
		fw_settings_free(&f->settings_own);
		fw_hii_close(&f->own);
	}
	memset(f, 0, sizeof(*f));
}

/* ---- text ---- */

static const char *text_of(const struct fw_hii_form_pkg *fp, uint16_t id)
{
	return fw_hii_string_or(fp, id, "<missing string>");
}

static void storage(FILE *f, const struct fw_setting *st)
{
	const struct fw_ifr_question *q = st->q;
	if (!q->varstore_id || !q->width)
		return;
	const char *vs = st->varstore_name ? st->varstore_name : "?";
	if (q->bit_field)
		fprintf(f, "  [%s bit %u:%u]", vs, q->bit_offset, q->bit_width);
	else if (st->vs && st->vs->kind == FW_IFR_VS_NAME_VALUE)
		fprintf(f, "  [%s, %u byte%s]", vs, q->width, q->width == 1 ? "" : "s");
	else
		fprintf(f, "  [%s+0x%X, %u byte%s]", vs, q->var_info, q->width, q->width == 1 ? "" : "s");
}

static void options_line(FILE *f, const struct fw_setting *st, const char *indent)
{
	if (!st->noptions)
		return;
	fprintf(f, "%s", indent);
	for (uint32_t i = 0; i < st->noptions; i++) {
		const struct fw_setting_option *o = &st->options[i];
		fprintf(f, "%s%" PRIu64 "=", i ? ", " : "", o->opt->value.u);
		fw_ifr_put_line(f, o->text);
		if (o->opt->flags & FW_IFR_OPTION_DEFAULT)
			fputc('*', f);
		if (o->cond)
			fprintf(f, " (unless %s)", fw_setting_option_cond_text(o));
	}
	fputc('\n', f);
}

static void question_text(FILE *f, struct fw_cli *cli, const struct fw_setting *st, unsigned indent)
{
	const struct fw_ifr_question *q = st->q;
	const char *b = fw_cli_color(cli, "bold"), *r = fw_cli_color(cli, "reset"), *dim = fw_cli_color(cli, "dim");
	fprintf(f, "%*s%-9s %s", indent, "", fw_ifr_kind_name(q->kind), b);
	fw_ifr_put_line(f, st->prompt);
	fprintf(f, "%s  %sqid 0x%X%s", r, dim, q->question_id, r);
	storage(f, st);
	if (q->kind == FW_IFR_K_NUMERIC)
		fprintf(f, "  %" PRIu64 "..%" PRIu64 " step %" PRIu64, q->min, q->max, q->step);
	if (q->kind == FW_IFR_K_REF && q->has_ref_form)
		fprintf(f, "  -> form 0x%X", q->ref_form_id);
	for (uint32_t i = 0; i < st->ndefaults; i++) {
		const struct fw_setting_default *d = &st->defaults[i];
		fprintf(f, "  %s default ", d->store_id == 0 ? "" : d->store);
		if (d->text)
			fw_ifr_put_line(f, d->text);
		else if (d->has_value)
			fprintf(f, "%" PRIu64, d->value);
		else
			fprintf(f, "= %s", d->expr ? d->expr : "?");
	}
	fputc('\n', f);
	char pad[64];
	snprintf(pad, sizeof(pad), "%*s", indent + 10, "");
	options_line(f, st, pad);
	for (uint32_t i = 0; i < st->nconds; i++) {
		const struct fw_setting_cond *c = &st->conds[i];
		fprintf(f, "%s%s%s %s%s\n", pad, fw_cli_color(cli, "yellow"), fw_ifr_cond_kind_name(c->cond->kind), fw_setting_cond_text(c), r);
	}
	for (uint32_t i = 0; i < st->nchecks; i++) {
		const struct fw_setting_cond *c = &st->checks[i];
		fprintf(f, "%s%s %s", pad, fw_ifr_cond_kind_name(c->cond->kind), fw_setting_cond_text(c));
		if (c->message) {
			fputs(": \"", f);
			fw_ifr_put_line(f, c->message);
			fputc('"', f);
		}
		fputc('\n', f);
	}
}

static void formset_text(FILE *f, struct fw_cli *cli, struct fw_settings *s, const struct fw_hii_form_pkg *fp)
{
	const struct fw_ifr_formset *fs = &fp->fs;
	const struct fw_hii_module *m = fp->module;
	const char *b = fw_cli_color(cli, "bold"), *r = fw_cli_color(cli, "reset");
	char g[FW_GUID_STR_LEN], mg[FW_GUID_STR_LEN];
	fprintf(f, "%sFormSet \"", b);
	fw_ifr_put_line(f, text_of(fp, fs->title));
	fprintf(f, "\"%s %s\n", r, fw_guid_format(&fs->guid, g));
	fprintf(f, "  module      %s%s%s%s, form package @0x%zX (0x%zX bytes)\n", m->name ? m->name : "(unnamed)",
		m->has_guid ? " " : "", m->has_guid ? fw_guid_format(&m->guid, mg) : "", "", fp->offset, fs->package.len);
	const char *langs[64];
	uint32_t nl = fw_hii_languages(fp, langs, 64);
	fprintf(f, "  strings     ");
	if (fp->group < 0) {
		fprintf(f, "none found: prompts are missing\n");
	} else {
		const struct fw_hii_group *grp = &m->groups[fp->group];
		fprintf(f, "%s, %s", fp->strings.language ? fp->strings.language : "?", grp->kind);
		fprintf(f, " @0x%zX of %u language%s (", grp->offset, nl, nl == 1 ? "" : "s");
		for (uint32_t i = 0; i < nl; i++)
			fprintf(f, "%s%s", i ? " " : "", langs[i]);
		fprintf(f, ")\n");
		if (fp->pairing == FW_HII_PAIR_PACKAGE_LIST)
			fprintf(f, "  pairing     package list: the form package and these strings are in one package list\n");
		else
			fprintf(f, "  pairing     coverage: %u of %u string ids have text; %u candidate group%s, %u cover all; %zu bytes away\n",
				fp->ids_covered, fp->ids_used, fp->candidates, fp->candidates == 1 ? "" : "s", fp->full_cover,
				fp->distance);
	}
	for (uint32_t i = 0; i < fs->nvarstores; i++) {
		const struct fw_ifr_varstore *vs = &fs->varstores[i];
		fprintf(f, "  varstore    0x%04X ", vs->id);
		fw_text_pad(f, vs->name ? vs->name : "-", 20);
		fprintf(f, " %s %s", fw_guid_format(&vs->guid, g), fw_ifr_varstore_kind_name(vs->kind));
		if (vs->has_size)
			fprintf(f, ", 0x%X bytes", vs->size);
		fputc('\n', f);
	}
	for (uint32_t i = 0; i < fs->ndefaultstores; i++) {
		char buf[32];
		const char *n = fw_hii_string_or(fp, fs->defaultstores[i].name, "");
		fprintf(f, "  defaults    0x%X %s%s%s\n", fs->defaultstores[i].id,
			fw_ifr_default_id_name(fs->defaultstores[i].id, buf, sizeof(buf)), *n ? " " : "", n);
	}
	for (const struct fw_ifr_diag *d = fs->diags; d; d = d->next)
		fprintf(f, "  %swarning%s     +0x%X: %s\n", fw_cli_color(cli, "yellow"), r, d->offset, d->msg);
	for (uint32_t i = 0; i < fs->nforms; i++) {
		const struct fw_ifr_form *form = &fs->forms[i];
		const char **paths = NULL;
		uint32_t np = fw_settings_form_paths(s, fp, form->id, &paths);
		fprintf(f, "\n  %sForm 0x%X \"", b, form->id);
		fw_ifr_put_line(f, text_of(fp, form->title));
		fprintf(f, "\"%s", r);
		if (np) { /* the path joins form titles, which may hold line feeds */
			fprintf(f, "  %s", fw_cli_color(cli, "dim"));
			fw_ifr_put_line(f, paths[0]);
			fputs(r, f);
		}
		if (np > 1)
			fprintf(f, " (+%u more path%s)", np - 1, np == 2 ? "" : "s");
		fputc('\n', f);
		for (const struct fw_ifr_question *q = form->first; q; q = q->next_in_form) {
			if (q->is_question) {
				struct fw_setting st;
				fw_settings_describe(s, fp, q, &st);
				question_text(f, cli, &st, 4);
				continue;
			}
			fprintf(f, "    %-9s ", fw_ifr_kind_name(q->kind));
			fw_ifr_put_line(f, text_of(fp, q->prompt));
			if (q->kind == FW_IFR_K_TEXT && q->text2) {
				fputs(": ", f);
				fw_ifr_put_line(f, text_of(fp, q->text2));
			}
			fputc('\n', f);
		}
	}
	fputc('\n', f);
}

/* The context is the settings (the formset writers take them unqualified). JSON and XML are
 * written a form at a time. */
static json_t *forms_head(const void *ctx)
{
	json_t *doc = json_object();
	json_object_set_new(doc, "formsets", json_array());
	return doc;
}

static json_t *forms_next(const void *ctx, size_t *pos)
{
	struct fw_settings *sp = (struct fw_settings *)ctx;
	if (*pos >= sp->nfsets)
		return NULL;
	return fw_ifr_json_formset_head(sp, fw_settings_formset_at(sp, (uint32_t)(*pos)++));
}

/* the forms of the formset forms_next gave last (its cursor is one past it) */
static json_t *forms_form_next(const void *ctx, size_t item, size_t *pos)
{
	struct fw_settings *sp = (struct fw_settings *)ctx;
	const struct fw_hii_form_pkg *fp = fw_settings_formset_at(sp, (uint32_t)(item - 1));
	if (*pos >= fp->fs.nforms)
		return NULL;
	return fw_ifr_json_form(sp, fp, (uint32_t)(*pos)++);
}

static const struct fw_emit_stream forms_stream = {
	.head = forms_head, .list = "formsets", .next = forms_next, .sublist = "forms", .sub_next = forms_form_next};

static void forms_text(struct fw_cli *cli, const void *ctx)
{
	struct fw_settings *sp = (struct fw_settings *)ctx;
	for (uint32_t i = 0; i < sp->nfsets; i++)
		formset_text(fw_cli_out(cli), cli, sp, fw_settings_formset_at(sp, i));
}

/* the text IFRExtractor writes, for tools that read it */
static int forms_ifrextractor(struct fw_cli *cli, const void *ctx)
{
	const struct fw_settings *sp = ctx;
	for (uint32_t i = 0; i < sp->nfsets; i++)
		fw_ifrx_write(fw_cli_out(cli), fw_settings_formset_at(sp, i));
	return 0;
}

static const struct fw_emit_writer forms_writers[] = {{"ifrextractor", forms_ifrextractor}, {NULL, NULL}};

static int run_ifr(struct fw_cli *cli)
{
	struct fw_ifr_cli_forms forms;
	int rc = fw_ifr_cli_forms_open(cli, &forms, false);
	if (rc)
		return rc;
	fw_cli_emit_stream(cli, &(struct fw_emit){"ifr", NULL, forms_text, NULL, NULL, forms.settings, forms_writers}, &forms_stream);
	fw_ifr_cli_forms_close(&forms);
	return 0;
}

static const struct fw_option ifr_options[] = {
	{"module", 'm', "NAME|GUID", "only the module with this name or FFS file GUID (a GUID prefix is enough)", NULL},
	{"lang", 'l', "LANG", "display language, default en-US; a missing string falls back to en-US per id", NULL},
	{"image", 0, "FILE", "for a machine: the BIOS image whose forms to show (default: the one stored in the snapshot)", NULL},
	{0},
};

FW_COMMAND(ifr,
	.synopsis = "SRC [--module NAME|GUID] [--lang LANG] [--image FILE] [--format text|json|xml|ifrextractor]",
	.summary = "Decode the HII setup forms of a BIOS image, module or package blob",
	.description = "Finds every HII form package in FILE (a whole image or capsule, an FFS file, a UEFITool "
		       ".sct section file, a PE32 module or a raw package blob), validates it, pairs it with the "
		       "string packages that hold its text and says how that pairing was chosen. Each formset is "
		       "printed as forms with their questions: question id, varstore and offset, width, options, "
		       "defaults per default store, and the suppress-if/gray-out-if conditions as readable "
		       "expressions over question prompts.\n\n"
		       "SRC may also be a machine (a snapshot or a root folder): the forms are those of --image or of the "
		       "image stored in the snapshot, with the current values read from the machine's EFI variables.\n\n"
		       "--format ifrextractor prints one line per opcode in the shapes of IFRExtractor-RS 1.6.0 "
		       "(sizes in bits, option values in decimal) for scripts written against that tool.",
	.formats = "text,json,xml,ifrextractor",
	.options = ifr_options,
	.examples = "fwlens ifr Setup.sct  # the Setup forms as a readable tree\n"
		    "fwlens ifr BIOS.CAP --module CbsSetupDxeSHP --format json  # one module as JSON\n"
		    "fwlens ifr Setup.sct --lang fr-FR  # French prompts, English where a string is missing\n"
		    "fwlens ifr body.efi --format ifrextractor > body.ifr.txt  # IFRExtractor-RS line shapes",
	.min_args = 1, .max_args = 1, .run = run_ifr, .order = 30);
