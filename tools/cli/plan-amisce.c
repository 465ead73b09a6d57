/* Planning over an AMISCE export on its own. The export holds each question's current value,
 * options, token, offset and width, but not the forms' conditions (what hides or locks a
 * question): such a plan changes exactly the questions asked for and says that it could not
 * look for dependencies. Its SCE form is the export itself with the new "*" marks, which
 * SCEWIN/SCELNX /i imports; the other lines stay byte for byte. */
#include "plan-amisce.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "emit.h"
#include "escape-shell.h"
#include "ifr-writers.h"

#define MAX_CHANGES 256

struct export_plan {
	const struct fw_amisce *a;
	const char *path;
	struct fw_sce_change ch[MAX_CHANGES];
	const char *given[MAX_CHANGES];
	size_t n;
};

static bool same_storage(const struct fw_amisce_question *a, const struct fw_amisce_question *b)
{
	return a->token == b->token && a->offset == b->offset && a->width == b->width;
}

static const char *value_text(const struct fw_amisce_question *q, uint64_t v, char *buf, size_t len)
{
	for (uint32_t i = 0; i < q->noptions; i++)
		if (q->options[i].value == v)
			return q->options[i].text;
	snprintf(buf, len, "%" PRIu64, v);
	return buf;
}

static const char *old_text(const struct fw_amisce_question *q, char *buf, size_t len)
{
	uint64_t v;
	return fw_amisce_current(q, &v) ? value_text(q, v, buf, len) : "not known";
}

static json_t *document(const void *ctx)
{
	const struct export_plan *p = ctx;
	json_t *doc = json_object(), *arr = json_array();
	json_object_set_new(doc, "source", json_string(p->path));
	json_object_set_new(doc, "source_kind", json_string("amisce"));
	json_object_set_new(doc, "hii_crc32", p->a->hii_crc ? json_string(p->a->hii_crc) : json_null());
	json_object_set_new(doc, "dependencies", json_string("not known: an AMISCE export holds no suppress-if or gray-out-if"));
	for (size_t i = 0; i < p->n; i++) {
		const struct fw_amisce_question *q = p->ch[i].q;
		char b1[32], b2[32];
		uint64_t old;
		bool has_old = fw_amisce_current(q, &old);
		json_t *e = json_object();
		json_object_set_new(e, "given", json_string(p->given[i]));
		json_object_set_new(e, "prompt", json_string(q->prompt));
		json_object_set_new(e, "keyword", q->keyword ? json_string(q->keyword) : json_null());
		json_object_set_new(e, "token", json_integer(q->token));
		json_object_set_new(e, "offset", q->has_offset ? json_integer(q->offset) : json_null());
		json_object_set_new(e, "width", q->has_width ? json_integer(q->width) : json_null());
		json_object_set_new(e, "line", json_integer((json_int_t)q->line));
		json_object_set_new(e, "old_value", has_old ? json_integer((json_int_t)old) : json_null());
		json_object_set_new(e, "old", json_string(old_text(q, b1, sizeof(b1))));
		json_object_set_new(e, "new_value", json_integer((json_int_t)p->ch[i].value));
		json_object_set_new(e, "new", json_string(value_text(q, p->ch[i].value, b2, sizeof(b2))));
		json_object_set_new(e, "change", json_boolean(!has_old || old != p->ch[i].value));
		json_array_append_new(arr, e);
	}
	json_object_set_new(doc, "entries", arr);
	return doc;
}

static void text(struct fw_cli *cli, const void *ctx)
{
	const struct export_plan *p = ctx;
	FILE *f = fw_cli_out(cli);
	size_t changes = 0;
	/* prompts and option texts come from the export: one visible line each */
	fw_put_visible_format(f, "Plan over the AMISCE export %s (HIICrc32 %s)", p->path, p->a->hii_crc ? p->a->hii_crc : "none");
	fputc('\n', f);
	for (size_t i = 0; i < p->n; i++) {
		const struct fw_amisce_question *q = p->ch[i].q;
		char b1[32], b2[32];
		uint64_t old;
		bool change = !fw_amisce_current(q, &old) || old != p->ch[i].value;
		changes += change;
		fw_put_visible_format(f, "  %s: %s -> %s%s  [Token %X, Offset %X, Width %u, line %zu]", q->prompt,
				      old_text(q, b1, sizeof(b1)), value_text(q, p->ch[i].value, b2, sizeof(b2)),
				      change ? "" : " (already set)", q->token, q->offset, q->width, q->line);
		fputc('\n', f);
	}
	fprintf(f, "\n%zu setting%s, %zu to change\n", p->n, p->n == 1 ? "" : "s", changes);
	fputs("note: dependencies not known: an AMISCE export holds no suppress-if or gray-out-if (plan with the BIOS image "
	      "and --vars EXPORT for them)\n", f);
}

/* every copy of a planned question gets its "*" moved, so the import sees one value */
static int sce(struct fw_cli *cli, const void *ctx)
{
	const struct export_plan *p = ctx;
	struct fw_sce_change *all = NULL;
	size_t n = 0;
	for (size_t i = 0; i < p->a->n; i++)
		for (size_t k = 0; k < p->n; k++)
			if (same_storage(&p->a->q[i], p->ch[k].q)) {
				all = fw_xrealloc(all, (n + 1) * sizeof(*all));
				all[n++] = (struct fw_sce_change){&p->a->q[i], p->ch[k].value};
			}
	fw_sce_write_export(cli, p->a, all, n);
	free(all);
	return 0;
}

static int refused(struct fw_cli *cli, const void *ctx)
{
	return fw_cli_usage_error(cli, "a plan over an AMISCE export alone writes text, json or sce (for redfish or efivarfs "
				       "give the BIOS image, with --vars EXPORT for the current values)");
}

static const struct fw_emit_writer writers[] = {{"sce", sce}, {"redfish", refused}, {"efivarfs", refused},
						{"jsonl", refused}, {"fwupdmgr", refused}, {"sysfs", refused},
						{NULL, NULL}};

int fw_plan_amisce_run(struct fw_cli *cli, struct fw_source *src, const char *const *sets, size_t nsets)
{
	struct export_plan p = {&src->amisce, src->path, {{0}}, {0}, 0};
	struct fw_error err;
	fw_error_clear(&err);
	for (size_t i = 0; i < nsets && i < MAX_CHANGES; i++) {
		char *setting = fw_xstrdup(sets[i]), *eq = strchr(setting, '=');
		*eq = '\0';
		const struct fw_amisce_question *m[8];
		size_t nm;
		const struct fw_amisce_question *q = fw_amisce_find(p.a, setting, &nm, m, 8);
		/* AMISCE lists a question once per form it is in: copies with one token and storage are one setting */
		bool copies = nm > 1 && nm <= 8;
		for (size_t k = 1; copies && k < nm; k++)
			copies = same_storage(m[0], m[k]);
		if (copies)
			q = m[0];
		uint64_t v = 0;
		bool ok = q && fw_amisce_parse_value(q, eq + 1, &v, &err);
		if (!q) {
			char *shown = fw_visible_dup(setting);
			fw_error_set(&err, FW_E_USAGE, "%s: %s '%s'%s", src->path, nm ? "several questions match" : "no question matches",
				     shown, nm ? " (name it by its token, 0xTOKEN)" : "");
			free(shown);
		}
		bool again = false;
		for (size_t k = 0; ok && k < p.n; k++)
			if (p.ch[k].q == q && p.ch[k].value != v) {
				fw_error_set(&err, FW_E_USAGE, "%s: asked for twice with different values", q->prompt);
				ok = false;
			} else if (p.ch[k].q == q) {
				again = true;
			}
		free(setting);
		if (!ok) {
			int rc = fw_cli_fail(cli, &err);
			for (size_t k = 0; !q && k < nm && k < 8; k++) {
				fw_put_visible_format(stderr, "candidate: %s  |  Token %X  |  Offset %X  |  line %zu", m[k]->prompt,
						      m[k]->token, m[k]->offset, m[k]->line);
				fputc('\n', stderr);
			}
			return rc;
		}
		if (again)
			continue;
		if (p.n == MAX_CHANGES) {
			fw_error_set(&err, FW_E_USAGE, "more than %d settings in one plan", MAX_CHANGES);
			return fw_cli_fail(cli, &err);
		}
		p.ch[p.n] = (struct fw_sce_change){q, v};
		p.given[p.n++] = sets[i];
	}
	return fw_cli_emit(cli, &(struct fw_emit){"plan", document, text, NULL, NULL, &p, writers});
}
