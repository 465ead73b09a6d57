/* One question in the layout of an AMISCE export (SCEWIN/SCELNX /o), which its /i import reads
 * back: Setup Question, Map String (x-UEFI keyword), Help String, Token, Offset, Width, BIOS
 * Default, then Options with "*" on the value (one-of, checkbox) or Value (numbers, strings).
 * Used by `settings --format sce` (the current values) and `plan --format sce` (the new ones). */
#include <inttypes.h>

#include "ifr-writers.h"

static void sce_value(FILE *f, const struct fw_setting *st, uint64_t v)
{
	fprintf(f, "[%0*" PRIX64 "]", (int)(st->q->width ? st->q->width * 2 : 2), v);
}

void fw_sce_write_question(FILE *f, const struct fw_setting *st, bool has_value, uint64_t value, const char *value_text)
{
	const struct fw_ifr_question *q = st->q;
	char g[FW_GUID_STR_LEN];
	fputs("Setup Question\t= ", f);
	fw_ifr_put_line(f, st->prompt);
	if (st->keyword) {
		fputs("\nMap String\t= ", f);
		fw_ifr_put_line(f, st->keyword);
	}
	fputs("\nHelp String\t= ", f);
	fw_ifr_put_line(f, fw_setting_help(st));
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
		uint64_t mark = has_value ? value : d0 ? d0->value : UINT64_MAX;
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
		uint64_t v = has_value ? value : d0 ? d0->value : q->min;
		fprintf(f, "Value\t=<%" PRIu64 ">\n", v);
	} else if (q->kind == FW_IFR_K_STRING || q->kind == FW_IFR_K_PASSWORD) {
		fprintf(f, "Value\t=\"%s\"\n", has_value && value_text ? value_text : "");
	} else {
		fprintf(f, "Value\t=<%s>\n", value_text ? value_text : "");
	}
	fputc('\n', f);
}
