/* `fwlens acpi` text output: a table list, then notes per decoded table with names for every
 * flag, then the diagnostics. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "acpi-write.h"
#include "acpi/fields.h"
#include "output-text.h"

struct out {
	FILE *f;
	struct fw_cli *cli;
};

static const char *C(const struct out *o, const char *what)
{
	return fw_cli_color(o->cli, what);
}

static const char *flags_str(const struct fw_bitfields *names, uint64_t v, char *buf, size_t len)
{
	if (!v)
		return "none";
	return fw_flags_str(names, v, buf, len);
}

/* An N x N distance matrix with row and column numbers (SLIT, CDIT). */
static void matrix_text(const struct out *o, const uint8_t *matrix, size_t n)
{
	if (!n)
		return;
	fprintf(o->f, "        ");
	for (size_t k = 0; k < n; k++)
		fprintf(o->f, " %4zu", k);
	fputc('\n', o->f);
	for (size_t i = 0; i < n; i++) {
		fprintf(o->f, "    %3zu ", i);
		for (size_t k = 0; k < n; k++)
			fprintf(o->f, " %4u", matrix[i * n + k]);
		fputc('\n', o->f);
	}
}

/* --- tables described by their layout ------------------------------------------------------------ */

/* Opaque bytes that are all zero say nothing: left out of the text. */
static bool all_zero(const struct fw_acpi_value *v)
{
	if (v->field->type != FW_FT_BYTES)
		return false;
	for (size_t i = 0; i < v->field->len; i++)
		if (v->p[i])
			return false;
	return true;
}

/* "Name value (names)"; nested fields as "Outer.Name". */
static void value_text(const struct out *o, const struct fw_acpi_value *v, const char *sep)
{
	char buf[256], names[512];
	const char *n = fw_acpi_value_names(v, names, sizeof(names));
	fprintf(o->f, "%s%s%s%s%s", v->parent ? v->parent->name : "", v->parent ? "." : "", v->field->name, sep,
		fw_acpi_value_str(v, buf, sizeof(buf)));
	if (n && *n)
		fprintf(o->f, " (%s)", n);
}

/* Text pieces put into a line without printf (a view's text is thousands of small pieces): each
 * returns how many bytes it wrote into out[len], always NUL-terminated. */
static size_t put(char *out, size_t len, const char *s, size_t n)
{
	if (!len)
		return 0;
	if (n >= len)
		n = len - 1;
	memcpy(out, s, n);
	out[n] = '\0';
	return n;
}

/* s in a field of |width| characters: right-aligned, or left-aligned when width < 0; pad is ' '
 * or '0' (numbers). */
static size_t put_padded(char *out, size_t len, const char *s, size_t n, int width, char pad)
{
	size_t w = (size_t)(width < 0 ? -(long)width : width), k = 0;
	size_t fill = w > n ? w - n : 0;
	if (width > 0)
		for (; fill && k + 1 < len; fill--)
			out[k++] = pad;
	k += put(out + k, len - k, s, n);
	if (width < 0)
		for (; fill && k + 1 < len; fill--)
			out[k++] = ' ';
	if (k < len)
		out[k] = '\0';
	return k;
}

/* One "{Name...}" of a view's text line (acpi/fields.h) into `out`; false when the value is
 * absent. */
static bool placeholder(const struct out *o, const struct fw_acpi_table *t, size_t part, const struct fw_acpi_shape *sh,
			const char *name, const char *fmt, char *out, size_t len)
{
	const struct fw_acpi_value *v;
	struct fw_acpi_derived dv;
	char buf[512];
	out[0] = '\0';
	if (name[0] == '#') {
		const char *c = C(o, name + 1);
		put(out, len, c, strlen(c));
		return true;
	}
	if (!fw_acpi_show_value(t, part, sh, name, &v, &dv))
		return false;
	if (!fmt) {
		const char *s = v ? fw_acpi_value_str(v, buf, sizeof(buf)) : dv.s;
		if (!s) {
			fw_acpi_num(buf, dv.u, 10, false);
			s = buf;
		}
		put(out, len, s, strlen(s));
	} else if (!strcmp(fmt, "list")) {
		size_t k = 0;
		for (size_t i = 0; i < dv.nlist && k + 1 < len; i++) {
			buf[0] = ' ';
			size_t n = fw_acpi_num(buf + 1, fw_le32(dv.list + 4 * i), 10, false);
			k += put(out + k, len - k, buf, n + 1);
		}
	} else if (!strcmp(fmt, "bits")) {
		const char *s = fw_bitfields_str(dv.u, dv.bits, buf, sizeof(buf));
		put(out, len, s, strlen(s));
	} else if (!strcmp(fmt, "names")) {
		const char *s = flags_str(v ? v->field->names : dv.bits, dv.u, buf, sizeof(buf));
		put(out, len, s, strlen(s));
	} else if (!strncmp(fmt, "name", 4)) {
		const char *n = v ? fw_acpi_value_names(v, buf, sizeof(buf)) : dv.s;
		if (!n)
			n = fmt[4] == '|' ? fmt + 5 : "";
		put(out, len, n, strlen(n));
	} else {
		/* text around one conversion: "%04x", "%u", "%-12s", " -> %s" */
		const char *pct = strchr(fmt, '%'), *q = pct ? pct + 1 : fmt;
		bool zero = *q == '0';
		int width = (int)strtol(q, (char **)&q, 10);
		char conv = *q;
		const char *after = *q ? q + 1 : q;
		size_t k = put(out, len, fmt, pct ? (size_t)(pct - fmt) : 0);
		const char *s;
		size_t n;
		if (conv == 's') {
			s = dv.s ? dv.s : v ? fw_acpi_value_str(v, buf, sizeof(buf)) : "";
			n = strlen(s);
		} else {
			n = fw_acpi_num(buf, dv.u, conv == 'x' || conv == 'X' ? 16 : 10, conv == 'X');
			s = buf;
		}
		k += put_padded(out + k, len - k, s, n, width, zero && conv != 's' ? '0' : ' ');
		put(out + k, len - k, after, strlen(after));
	}
	return true;
}

/* A view's text line with its values in place; false when the line is left out. */
static bool render_line(const struct out *o, const struct fw_acpi_table *t, size_t part, const struct fw_acpi_shape *sh,
			const char *line, char *out, size_t len)
{
	size_t k = 0;
	out[0] = '\0';
	if (!strncmp(line, "{!", 2)) {
		const struct fw_acpi_value *v;
		struct fw_acpi_derived dv;
		const char *end = strchr(line, '}');
		char name[64];
		put(name, sizeof(name), line + 2, (size_t)(end - line - 2));
		if (!fw_acpi_show_value(t, part, sh, name, &v, &dv) || !dv.u)
			return false;
		line = end + 1;
	}
	for (const char *p = line; *p && k + 1 < len;) {
		if (*p != '{') {
			size_t n = strcspn(p, "{");
			k += put(out + k, len - k, p, n);
			p += n;
			continue;
		}
		const char *end = strchr(p, '}');
		bool optional = p[1] == '?';
		const char *name = p + 1 + optional, *colon = memchr(name, ':', (size_t)(end - name));
		char nm[64], fmt[64];
		put(nm, sizeof(nm), name, (size_t)((colon ? colon : end) - name));
		if (colon)
			put(fmt, sizeof(fmt), colon + 1, (size_t)(end - colon - 1));
		if (!placeholder(o, t, part, sh, nm, colon ? fmt : NULL, out + k, len - k) && !optional)
			return false;
		k += strlen(out + k);
		p = end + 1;
	}
	return true;
}

static void shape_text(const struct out *o, const struct fw_acpi_table *t, size_t part, const struct fw_acpi_shape *sh);

/* A "{*Name}" line: the text of the parts a FW_AS_PARTS show lists, or derived lines. */
static void lines_text(const struct out *o, const struct fw_acpi_table *t, size_t part, const struct fw_acpi_shape *sh,
		       const char *line)
{
	char name[64];
	snprintf(name, sizeof(name), "%.*s", (int)strcspn(line + 2, "}"), line + 2);
	for (size_t i = 0; i < sh->nshow; i++)
		if (sh->show[i].as == FW_AS_PARTS && !strcmp(sh->show[i].name, name)) {
			const struct fw_acpi_doc *d = t->doc;
			for (size_t k = 1; k < d->nparts; k++) {
				if (d->parts[k].within != part || !d->parts[k].layout || strcmp(d->parts[k].layout->name, name))
					continue;
				const struct fw_acpi_shape *ps = fw_acpi_listed_shape(t, k);
				if (ps)
					shape_text(o, t, k, ps);
			}
			return;
		}
	const struct fw_acpi_value *v;
	struct fw_acpi_derived dv;
	if (fw_acpi_show_value(t, part, sh, name, &v, &dv))
		for (size_t i = 0; i < dv.nlines; i++)
			fprintf(o->f, "  %*s%s\n", (int)dv.indent, "", dv.lines[i]);
}

static void shape_text(const struct out *o, const struct fw_acpi_table *t, size_t part, const struct fw_acpi_shape *sh)
{
	char line[2048];
	for (const char *const *l = sh->text; l && *l; l++)
		if (!**l)
			fputc('\n', o->f);
		else if (!strncmp(*l, "{*", 2))
			lines_text(o, t, part, sh, *l);
		else if (render_line(o, t, part, sh, *l, line, sizeof(line))) {
			fputs("  ", o->f);
			fputs(line, o->f);
			fputc('\n', o->f);
		}
}

static void fields_text(const struct out *o, const struct fw_acpi_table *t)
{
	const struct fw_acpi_doc *d = t->doc;
	const struct fw_acpi_view *view = d->layout->view;
	if (view) {
		/* without a list, parts are written where a "{*Name}" line of the fixed part puts them */
		for (size_t k = 0; k < (view->list_key ? d->nparts : 1); k++) {
			const struct fw_acpi_shape *sh = fw_acpi_listed_shape(t, k);
			if (sh && !d->parts[k].within)
				shape_text(o, t, k, sh);
		}
		matrix_text(o, d->matrix, d->matrix_n);
		return;
	}
	struct fw_acpi_value v;
	struct fw_acpi_values it = fw_acpi_values_of(&d->parts[0]);
	while (fw_acpi_values_next(&it, &v))
		if (!all_zero(&v)) {
			fputs("  ", o->f);
			value_text(o, &v, ": ");
			fputc('\n', o->f);
		}
	for (size_t k = 1; k < d->nparts; k++) {
		const struct fw_acpi_part *p = &d->parts[k];
		fprintf(o->f, "  @0x%03x %s", p->offset, fw_acpi_part_what(p));
		if (!p->described)
			fprintf(o->f, " (type 0x%" PRIx64 ", %u bytes)", p->type, p->length);
		bool first = true;
		it = fw_acpi_values_of(p);
		while (fw_acpi_values_next(&it, &v))
			if (!all_zero(&v)) {
				fputs(first ? ": " : ", ", o->f);
				value_text(o, &v, " ");
				first = false;
			}
		fputc('\n', o->f);
	}
	if (d->matrix) {
		fprintf(o->f, "  %u domains; distance from row to column:\n", d->matrix_n);
		matrix_text(o, d->matrix, d->matrix_n);
	}
}

/* --- the set ------------------------------------------------------------------------------------- */

static void decoded_text(const struct out *o, const struct fw_acpi_table *t)
{
	if (t->doc)
		fields_text(o, t);
}

static const char *checksum_word(const struct fw_acpi_table *t)
{
	switch (t->checksum_state) {
	case FW_ACPI_CHECKSUM_OK: return "ok";
	case FW_ACPI_CHECKSUM_BAD: return "BAD";
	case FW_ACPI_CHECKSUM_NONE: return "none";
	}
	return "?";
}

static void diags_text(const struct out *o, const struct fw_acpi_table *t)
{
	for (const struct fw_diag *d = t->diags; d; d = d->next)
		fprintf(o->f, "  %s%s%s @0x%" PRIx64 ": %s\n", C(o, d->severity == FW_DIAG_INFO ? "dim" : d->severity == FW_DIAG_WARN ? "yellow" : "red"),
			fw_diag_severity_name(d->severity), C(o, "reset"), d->offset, d->msg);
}

void fw_acpi_text_set(struct fw_cli *cli, const struct fw_acpi_set *s, const struct fw_acpi_filter *f)
{
	struct out o = {fw_cli_out(cli), cli};
	char name[16];
	fprintf(o.f, "%s: %s, %zu table%s\n\n", s->path ? s->path : "input", fw_acpi_source_name(s->source), s->ntables,
		s->ntables == 1 ? "" : "s");
	fprintf(o.f, "%s%-8s %8s %4s %-8s %-6s %-8s %s%s\n", C(&o, "bold"), "table", "length", "rev", "checksum", "OEM", "OEM table",
		"description", C(&o, "reset"));
	for (size_t i = 0; i < s->ntables; i++) {
		const struct fw_acpi_table *t = s->tables[i];
		if (!fw_acpi_filter_match(f, t))
			continue;
		fprintf(o.f, "%-8s %8u %4u %s%-8s%s ", fw_acpi_table_name(t, name, sizeof(name)), t->length, t->revision,
			C(&o, t->checksum_state == FW_ACPI_CHECKSUM_BAD ? "red" : ""), checksum_word(t), C(&o, "reset"));
		/* the OEM ids are the table's bytes: padded by display width */
		fw_text_pad(o.f, t->oem_id, 6);
		fputc(' ', o.f);
		fw_text_pad(o.f, t->oem_table_id, 9);
		fprintf(o.f, " %s%s\n", t->decoder ? t->decoder->name : "(unknown signature: left as bytes)",
			t->truncated ? " [TRUNCATED]" : "");
	}
	for (size_t i = 0; i < s->ntables; i++) {
		const struct fw_acpi_table *t = s->tables[i];
		if (!fw_acpi_filter_match(f, t))
			continue;
		bool has_model = t->model && t->decoder;
		if (!has_model && !t->diags)
			continue;
		fprintf(o.f, "\n%s%s%s: %s, %u bytes, revision %u", C(&o, "bold"), fw_acpi_table_name(t, name, sizeof(name)),
			C(&o, "reset"), t->decoder ? t->decoder->name : "unknown table", t->length, t->revision);
		if (t->oem_id[0] || t->oem_table_id[0])
			fprintf(o.f, ", OEM %s/%s", t->oem_id, t->oem_table_id);
		fputc('\n', o.f);
		if (has_model)
			decoded_text(&o, t);
		diags_text(&o, t);
	}
	if (s->diags) {
		fprintf(o.f, "\n%sinput notes%s\n", C(&o, "bold"), C(&o, "reset"));
		for (const struct fw_diag *d = s->diags; d; d = d->next)
			fprintf(o.f, "  %s: %s\n", fw_diag_severity_name(d->severity), d->msg);
	}
}
