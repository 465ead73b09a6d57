/* One question in the layout of an AMISCE export (SCEWIN/SCELNX /o), which its /i import reads
 * back: Setup Question, Map String (x-UEFI keyword), Help String, Token, Offset, Width, BIOS
 * Default, then Options with "*" on the value (one-of, checkbox) or Value (numbers, strings).
 * Used by `settings --format sce` (the current values) and `plan --format sce` (the new ones).
 *
 * Every field is one line. A prompt, keyword, option text, default text or string value that
 * the format cannot carry as it is (a line break or another control character, bytes that are
 * not UTF-8, a " //" an importer takes for a comment) refuses the question: written otherwise it
 * would name another setting or value, or add lines of its own (a forged Setup Question). Help
 * texts are layout, not values: their line breaks fold to spaces, as AMISCE writes them. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "escape-shell.h"
#include "ifr-writers.h"
#include "tools/query/amisce.h"

static void sce_value(FILE *f, const struct fw_setting *st, uint64_t v)
{
	fprintf(f, "[%0*" PRIX64 "]", (int)(st->q->width ? st->q->width * 2 : 2), v);
}

/* Why `text` cannot be one field (NULL when it can); `comment_cut`: the reader ends this field at
 * a "//" that starts it or follows a blank (options, defaults, numbers). */
static const char *field_problem(const char *text, bool comment_cut, char *buf, size_t len)
{
	size_t at;
	char what[12];
	if (!fw_text_one_line(text, &at, what)) {
		snprintf(buf, len, "holds %s at byte %zu", what, at);
		return buf;
	}
	if (comment_cut)
		for (const char *c = strstr(text, "//"); c; c = strstr(c + 1, "//"))
			if (c == text || c[-1] == ' ') {
				snprintf(buf, len, "holds \"//\" at byte %zu, which an importer reads as a comment", (size_t)(c - text));
				return buf;
			}
	return NULL;
}

static bool refuse(const struct fw_setting *st, const char *field, const char *problem, struct fw_error *err)
{
	char *prompt = fw_visible_dup(st->prompt), *vs = fw_visible_dup(st->varstore_name ? st->varstore_name : "?");
	fw_error_set(err, FW_E_UNWRITABLE, "setting '%s' (question 0x%X, %s+0x%X): its %s %s: an AMISCE script cannot carry it",
		     prompt, st->q->question_id, vs, st->q->bit_field ? st->q->bit_offset / 8 : st->q->var_info, field, problem);
	free(prompt);
	free(vs);
	return false;
}

static const struct fw_setting_default *standard_default(const struct fw_setting *st)
{
	const struct fw_setting_default *d0 = NULL;
	for (uint32_t k = 0; k < st->ndefaults; k++)
		if (st->defaults[k].store_id == 0 && st->defaults[k].has_value)
			d0 = &st->defaults[k];
	return d0;
}

bool fw_sce_check_question(const struct fw_setting *st, bool has_value, const char *value_text, struct fw_error *err)
{
	const struct fw_ifr_question *q = st->q;
	char buf[96];
	const char *why;
	if ((why = field_problem(st->prompt, false, buf, sizeof(buf))))
		return refuse(st, "prompt", why, err);
	if (st->keyword && (why = field_problem(st->keyword, false, buf, sizeof(buf))))
		return refuse(st, "x-UEFI keyword", why, err);
	if (q->kind == FW_IFR_K_ONE_OF) {
		for (uint32_t k = 0; k < st->noptions; k++)
			if ((why = field_problem(st->options[k].text, true, buf, sizeof(buf)))) {
				char *field = fw_xasprintf("option 0x%" PRIX64 " text", st->options[k].opt->value.u);
				refuse(st, field, why, err);
				free(field);
				return false;
			}
		const struct fw_setting_default *d0 = standard_default(st);
		if (d0 && d0->text && (why = field_problem(d0->text, true, buf, sizeof(buf))))
			return refuse(st, "default text", why, err);
	} else if (q->kind != FW_IFR_K_CHECKBOX && q->kind != FW_IFR_K_NUMERIC && has_value && value_text) {
		/* strings end at the line's last quote; other values at a '>' or a comment */
		bool quoted = q->kind == FW_IFR_K_STRING || q->kind == FW_IFR_K_PASSWORD;
		if ((why = field_problem(value_text, !quoted, buf, sizeof(buf))))
			return refuse(st, "value", why, err);
		if (!quoted && strchr(value_text, '>'))
			return refuse(st, "value", "holds '>', which ends a Value field", err);
	}
	return true;
}

void fw_sce_write_question(FILE *f, const struct fw_setting *st, bool has_value, uint64_t value, const char *value_text)
{
	const struct fw_ifr_question *q = st->q;
	char g[FW_GUID_STR_LEN];
	/* fw_put_visible leaves checked fields as they are and keeps anything unchecked on its line */
	fputs("Setup Question\t= ", f);
	fw_put_visible(f, st->prompt);
	if (st->keyword) {
		fputs("\nMap String\t= ", f);
		fw_put_visible(f, st->keyword);
	}
	fputs("\nHelp String\t= ", f);
	fw_put_visible_folded(f, fw_setting_help(st));
	fprintf(f, "\nToken\t=%X\t// Do NOT change this line\n", q->question_id);
	fprintf(f, "Offset\t=%X\t// ", q->bit_field ? q->bit_offset / 8 : q->var_info);
	fw_put_visible(f, st->varstore_name ? st->varstore_name : "?");
	fprintf(f, " %s", st->vs ? fw_guid_format(&st->vs->guid, g) : "");
	if (q->bit_field)
		fprintf(f, " bits %u:%u", q->bit_offset, q->bit_width);
	fprintf(f, "\nWidth\t=%02X\n", q->width);
	const struct fw_setting_default *d0 = standard_default(st);
	if (q->kind == FW_IFR_K_ONE_OF || q->kind == FW_IFR_K_CHECKBOX) {
		bool checkbox = q->kind == FW_IFR_K_CHECKBOX;
		if (d0) {
			fputs("BIOS Default\t=", f);
			sce_value(f, st, d0->value);
			fw_put_visible(f, d0->text ? d0->text : "");
			fputs(" \n", f);
		}
		uint64_t mark = has_value ? value : d0 ? d0->value : UINT64_MAX;
		uint32_t n = checkbox ? 2 : st->noptions;
		for (uint32_t k = 0; k < n; k++) {
			uint64_t v = checkbox ? k : st->options[k].opt->value.u;
			const char *t = checkbox ? (k ? "Enabled" : "Disabled") : st->options[k].text;
			fputs(k ? "         " : "Options\t=", f);
			if (v == mark)
				fputc('*', f);
			sce_value(f, st, v);
			fw_put_visible(f, t);
			fputs(k ? "\n" : "\t// Move \"*\" to the desired Option\n", f);
		}
	} else if (q->kind == FW_IFR_K_NUMERIC) {
		if (d0)
			fprintf(f, "BIOS Default\t=<%" PRIu64 "> \n", d0->value);
		uint64_t v = has_value ? value : d0 ? d0->value : q->min;
		fprintf(f, "Value\t=<%" PRIu64 ">\n", v);
	} else if (q->kind == FW_IFR_K_STRING || q->kind == FW_IFR_K_PASSWORD) {
		fputs("Value\t=\"", f);
		fw_put_visible(f, has_value && value_text ? value_text : "");
		fputs("\"\n", f);
	} else {
		fputs("Value\t=<", f);
		fw_put_visible(f, value_text ? value_text : "");
		fputs(">\n", f);
	}
	fputc('\n', f);
}

/* The export's own lines go back as they were read (the fields spell them, or their kept bytes):
 * nothing is added that the export did not hold, so no text of it can forge a line. Its text is
 * in the Windows code page (Latin-1 bytes): a file or pipe gets those bytes as they are, a
 * terminal sees them through the text filter's escapes. */
void fw_sce_write_export(struct fw_cli *cli, const struct fw_amisce *a, const struct fw_sce_change *ch, size_t nch)
{
	bool to_terminal = (!cli->output_path || strcmp(cli->output_path, "-") == 0) && isatty(STDOUT_FILENO);
	FILE *f = to_terminal ? fw_cli_out(cli) : fw_cli_out_bytes(cli);
	char *buf = NULL;
	size_t len = 0, cap = 0;
	size_t total = a->nhead, done = 0;
	for (size_t i = 0; i < a->n; i++)
		total += a->q[i].nlines;
	for (size_t i = 0; i <= a->n; i++) {
		const struct fw_amisce_question *q = i ? &a->q[i - 1] : NULL;
		const struct fw_amisce_line *lines = q ? q->lines : a->head;
		uint32_t n = q ? q->nlines : a->nhead;
		const uint64_t *mark = NULL;
		for (size_t c = 0; q && c < nch; c++)
			if (ch[c].q == q)
				mark = &ch[c].value;
		for (uint32_t k = 0; k < n; k++) {
			const struct fw_amisce_line *l = &lines[k];
			bool moved = mark && (l->kind == FW_AMISCE_L_OPTION || (l->kind == FW_AMISCE_L_VALUE && q->has_value));
			len = 0;
			fw_amisce_line_text(a, q, l, moved ? mark : NULL, &buf, &len, &cap);
			fwrite(buf, 1, len, f);
			if (++done < total || a->last_eol)
				fputs(a->eol, f);
		}
	}
	free(buf);
}
