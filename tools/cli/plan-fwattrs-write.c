/* fwlens plan on a host whose BIOS settings are the firmware-attributes class: the change set as
 * text, JSON, a script of `fwupdmgr set-bios-setting` calls, or a script of sysfs writes of
 * current_value (tools/query/plan-fwattrs.h). Both scripts check each attribute's current value
 * first and run dry unless given --apply. Every string from the machine or a file name goes through
 * escape-shell.h: a single-quoted word, or a comment made one line with visible escapes. */
#include <stdio.h>
#include <string.h>

#include "emit.h"
#include "escape-shell.h"
#include "plan-fwattrs-write.h"
#include "tools/query/plan-fwattrs.h"

struct shown {
	const struct fw_fwattr_plan *p;
	const char *source;
	bool sysfs; /* the script writes sysfs files instead of calling fwupdmgr */
};

static json_t *document(const void *ctx)
{
	const struct shown *s = ctx;
	json_t *doc = json_object(), *arr = json_array();
	json_object_set_new(doc, "source", json_string(s->source));
	json_object_set_new(doc, "kind", json_string("firmware-attributes"));
	for (size_t i = 0; i < s->p->n; i++) {
		const struct fw_fwattr_change *c = &s->p->changes[i];
		json_t *o = json_object();
		json_object_set_new(o, "setting", json_string(c->a->name));
		json_object_set_new(o, "display_name", c->a->display_name ? json_string(c->a->display_name) : json_null());
		json_object_set_new(o, "driver", json_string(c->a->driver));
		json_object_set_new(o, "old", c->a->current ? json_string(c->a->current) : json_null());
		json_object_set_new(o, "new", json_string(c->value));
		json_object_set_new(o, "change", json_boolean(c->change));
		json_object_set_new(o, "sysfs", json_string(c->a->path));
		json_object_set_new(o, "requested", json_string(c->given));
		json_array_append_new(arr, o);
	}
	json_object_set_new(doc, "changes", arr);
	return doc;
}

static void text(struct fw_cli *cli, const void *ctx)
{
	const struct shown *s = ctx;
	FILE *f = fw_cli_out(cli);
	fw_put_visible_format(f, "Plan for %s: %zu firmware-attributes setting%s", s->source, s->p->n, s->p->n == 1 ? "" : "s");
	fputc('\n', f);
	for (size_t i = 0; i < s->p->n; i++) {
		const struct fw_fwattr_change *c = &s->p->changes[i];
		fw_put_visible_format(f, "  %zu. %s (%s, %s): %s -> %s%s", i + 1, c->a->name,
				      c->a->display_name ? c->a->display_name : "", c->a->driver,
				      c->a->current ? c->a->current : "?", c->value, c->change ? "" : "  (in effect already)");
		fputc('\n', f);
	}
	fprintf(f, "Write it with --format fwupdmgr (fwupdmgr set-bios-setting) or --format sysfs (current_value files).\n");
}

static const char script_prologue[] =
	"set -u\n"
	"CLASS=${CLASS:-/sys/class/firmware-attributes}\n"
	FW_SCRIPT_APPLY_ARGUMENT
	"fail=0\n"
	"\n"
	"# change DRIVER NAME OLD NEW: the current value must still be OLD\n"
	"change() {\n"
	"\tf=\"$CLASS/$1/attributes/$2/current_value\"\n"
	"\tif [ ! -r \"$f\" ]; then\n"
	"\t\techo \"$2: $f is not readable\" >&2; fail=1; return\n"
	"\tfi\n"
	"\tcur=$(cat \"$f\")\n"
	"\tif [ \"$cur\" = \"$4\" ]; then\n"
	"\t\techo \"$2: already set to '$4'\"; return\n"
	"\tfi\n"
	"\tif [ \"$cur\" != \"$3\" ]; then\n"
	"\t\techo \"$2: the current value is '$cur', not the plan's '$3': not changed (make a new plan)\" >&2; fail=1; return\n"
	"\tfi\n"
	"\tif [ \"$apply\" = 0 ]; then\n"
	"\t\techo \"$2: '$3' as planned; would set '$4' (dry run: give --apply)\"; return\n"
	"\tfi\n";

static int script(struct fw_cli *cli, const void *ctx)
{
	const struct shown *s = ctx;
	FILE *f = fw_cli_out(cli);
	fputs("#!/bin/sh\n", f);
	fw_script_comment(f, "#", "Written by fwlens %s: the change set for %s as %s.", FWLENS_VERSION, s->source,
			  s->sysfs ? "writes of firmware-attributes current_value files" : "fwupdmgr set-bios-setting calls");
	fprintf(f, "#   sh THIS-FILE           dry run: checks each setting's current value, changes nothing\n"
		   "#   sh THIS-FILE --apply   changes the settings whose current value is still the planned old one\n"
		   "# A BIOS admin password, when set, must be given first (fwupdmgr asks; for sysfs, write it to\n"
		   "# CLASS/DRIVER/authentication/Admin/current_password). The values take effect at the next boot\n"
		   "# (CLASS/DRIVER/attributes/pending_reboot says 1).\n");
	for (size_t i = 0; i < s->p->n; i++) {
		const struct fw_fwattr_change *c = &s->p->changes[i];
		fw_script_comment(f, "#", "  %zu. %s (%s): %s -> %s%s", i + 1, c->a->name,
				  c->a->display_name ? c->a->display_name : "", c->a->current ? c->a->current : "?",
				  c->value, c->change ? "" : "  (in effect already: not written)");
	}
	fprintf(f, "\n%s", script_prologue);
	if (s->sysfs)
		fputs("\tif ! printf '%s' \"$4\" >\"$f\"; then\n"
		      "\t\techo \"$2: the write of $f failed\" >&2; fail=1; return\n"
		      "\tfi\n",
		      f);
	else
		fputs("\tif ! fwupdmgr set-bios-setting \"$2\" \"$4\"; then\n"
		      "\t\techo \"$2: fwupdmgr set-bios-setting failed\" >&2; fail=1; return\n"
		      "\tfi\n",
		      f);
	fputs("\techo \"$2: set to '$4'\"\n}\n\n", f);
	for (size_t i = 0; i < s->p->n; i++) {
		const struct fw_fwattr_change *c = &s->p->changes[i];
		if (!c->change)
			continue;
		const char *args[] = {c->a->driver, c->a->name, c->a->current ? c->a->current : "", c->value};
		fputs("change", f);
		for (size_t k = 0; k < sizeof(args) / sizeof(args[0]); k++) {
			fputc(' ', f);
			fw_sh_quote(f, args[k]);
		}
		fputc('\n', f);
	}
	fputs("exit $fail\n", f);
	return 0;
}

/* --format fwupdmgr or sysfs: the same checks, one way of changing a value or the other */
static int script_as_format(struct fw_cli *cli, const void *ctx)
{
	struct shown s = *(const struct shown *)ctx;
	s.sysfs = fw_cli_format_is(cli, "sysfs");
	return script(cli, &s);
}

static int refuse(struct fw_cli *cli, const void *ctx)
{
	return fw_cli_usage_error(cli, "a firmware-attributes host has no forms: write the plan with --format fwupdmgr, "
				       "sysfs, text or json");
}

static const struct fw_emit_writer writers[] = {{"fwupdmgr", script_as_format}, {"sysfs", script_as_format},
						{"sce", refuse}, {"redfish", refuse}, {"efivarfs", refuse}, {NULL, NULL}};

int fw_plan_fwattrs_run(struct fw_cli *cli, struct fw_source *src, const char *const *sets, size_t nsets,
			const char *module)
{
	struct fw_fwattr_plan p;
	struct fw_error err;
	fw_error_clear(&err);
	if (!fw_fwattr_plan_init(&p, src->machine, &err)) {
		fw_fwattr_plan_free(&p);
		return fw_cli_fail(cli, &err);
	}
	for (size_t i = 0; i < nsets; i++) {
		char *setting = fw_xstrdup(sets[i]), *eq = strchr(setting, '=');
		*eq = 0;
		bool ok = fw_fwattr_plan_add(&p, setting, eq + 1, module, &err);
		free(setting);
		if (!ok) {
			fw_fwattr_plan_free(&p);
			return fw_cli_fail(cli, &err);
		}
	}
	struct shown shown = {&p, src->path, false};
	int rc = fw_cli_emit(cli, &(struct fw_emit){"plan", document, text, NULL, NULL, &shown, writers});
	fw_fwattr_plan_free(&p);
	return rc;
}
