/* fwlens plan --kernel-arg / --remove-kernel-arg: the boot loader's file edited by a POSIX shell
 * script (text and --format sh), the plan as JSON, and --verify of a saved plan against the
 * running command line (tools/query/plan-kernel-arg.h). The script compares each planned line
 * with the live file: all as planned old -> it may write; all as planned new -> "already set",
 * exit 0; anything else -> it refuses and writes nothing. Every string from the machine goes
 * through escape-shell.h. */
#include <stdio.h>
#include <string.h>

#include "emit.h"
#include "escape-shell.h"
#include "plan-kernel-arg-write.h"
#include "tools/query/plan.h"
#include "tools/query/plan-kernel-arg.h"

struct shown {
	const struct fw_karg_plan *p;
	const struct fw_source *src;
};

static json_t *document(const void *ctx)
{
	const struct shown *s = ctx;
	return fw_karg_plan_json(s->p, s->src->path, fw_plan_made_json(s->src));
}

static void options_line(FILE *f, const struct fw_karg_plan *p)
{
	for (size_t k = 0; k < p->n; k++) {
		fputs(k ? " " : "", f);
		fputs(p->args[k].remove ? "-" : "", f);
		fputs(p->args[k].word, f); /* checked plain: printable ASCII, no quotes */
	}
}

/* How the loader is made to read the file: a function of the script. */
static void refresh_function(FILE *f, enum fw_boot_loader l)
{
	fputs("refresh() {\n", f);
	switch (l) {
	case FW_LOADER_PROXMOX:
		fputs("\tcommand -v proxmox-boot-tool >/dev/null 2>&1 || { echo \"proxmox-boot-tool not found\" >&2; return 1; }\n"
		      "\tproxmox-boot-tool refresh\n",
		      f);
		break;
	case FW_LOADER_GRUB:
		fputs("\tcommand -v update-grub >/dev/null 2>&1 || { echo \"update-grub not found (grub2-mkconfig -o "
		      "/boot/grub2/grub.cfg on distributions without it)\" >&2; return 1; }\n"
		      "\tupdate-grub\n",
		      f);
		break;
	case FW_LOADER_KERNEL_INSTALL:
		fputs("\tcommand -v kernel-install >/dev/null 2>&1 || { echo \"kernel-install not found\" >&2; return 1; }\n"
		      "\tkver=$(uname -r)\n"
		      "\timg=\n"
		      "\tfor i in \"$ROOT/usr/lib/modules/$kver/vmlinuz\" \"$ROOT/boot/vmlinuz-$kver\"; do\n"
		      "\t\tif [ -f \"$i\" ]; then img=$i; break; fi\n"
		      "\tdone\n"
		      "\t[ -n \"$img\" ] || { echo \"no image of the running kernel $kver in /usr/lib/modules or /boot\" >&2; return 1; }\n"
		      "\tkernel-install add \"$kver\" \"$img\"\n",
		      f);
		break;
	}
	fputs("}\n\n", f);
}

static int script(struct fw_cli *cli, const void *ctx)
{
	const struct shown *s = ctx;
	const struct fw_karg_plan *p = s->p;
	FILE *f = fw_cli_out(cli);
	fputs("#!/bin/sh\n# shellcheck disable=SC2016 # the machine's text is single-quoted to stay data\n", f);
	fw_script_comment(f, "#", "Written by fwlens %s: kernel command line options for %s.", FWLENS_VERSION, s->src->path);
	fw_script_comment(f, "#", "Boot loader: %s, because %s.", fw_boot_loader_name(p->loader), p->loader_why);
	fw_script_comment(f, "#", "It edits /%s, then runs %s; the options take effect at the next boot.", p->file, p->refresh);
	for (size_t k = 0; k < p->n; k++)
		fw_script_comment(f, "#", "  %s %s  (in the file: %s; running now: %s)", p->args[k].remove ? "remove" : "add",
				  p->args[k].word, p->args[k].in_file ? "yes" : "no", p->args[k].running ? "yes" : "no");
	fputs("#   sh THIS-FILE           dry run: compares the file with the plan, changes nothing\n"
	      "#   sh THIS-FILE --apply   saves a backup, writes the planned lines, reads them back and runs the\n"
	      "#                          boot loader's command; a second run says \"already set\"\n"
	      "# A line that is neither the plan's old nor its new text refuses the whole plan (make a new plan).\n"
	      "# FWLENS_ROOT (default empty: /) is put before the file's path, for a copied root; BACKUP (default\n"
	      "# ./fwlens-cmdline-backup) is where the old file is saved. After the reboot:\n"
	      "#   fwlens plan / --verify PLAN.json   (the plan written with --format json)\n\n",
	      f);
	fputs("set -u\nROOT=${FWLENS_ROOT:-}\nBACKUP=${BACKUP:-./fwlens-cmdline-backup}\n" FW_SCRIPT_APPLY_ARGUMENT, f);
	fputs("file=\"$ROOT\"/", f);
	fw_sh_quote(f, p->file);
	fputs("\noptions=", f);
	char *opts = NULL;
	size_t optlen = 0;
	FILE *m = open_memstream(&opts, &optlen);
	options_line(m, p);
	fclose(m);
	fw_sh_quote(f, opts);
	free(opts);
	fputs("\npending=0\nrefused=0\n\n"
	      "# line_is N TEXT: line N of the file is TEXT\n"
	      "line_is() { [ -f \"$file\" ] && [ \"$(sed -n \"$1p\" \"$file\")\" = \"$2\" ]; }\n\n",
	      f);
	refresh_function(f, p->loader);
	/* the new file: planned lines replaced, a missing line appended */
	fputs("new_text() {\n", f);
	if (p->nedits && !(p->nedits == 1 && p->edits[0].line == 0 && p->loader != FW_LOADER_GRUB)) {
		fputs("\tn=0\n\twhile IFS= read -r l || [ -n \"$l\" ]; do\n\t\tn=$((n + 1))\n\t\tcase $n in\n", f);
		for (size_t e = 0; e < p->nedits; e++)
			if (p->edits[e].line) {
				fprintf(f, "\t\t%u) printf '%%s\\n' ", p->edits[e].line);
				fw_sh_quote(f, p->edits[e].new_);
				fputs(" ;;\n", f);
			}
		fputs("\t\t*) printf '%s\\n' \"$l\" ;;\n\t\tesac\n\tdone <\"$file\"\n", f);
	}
	for (size_t e = 0; e < p->nedits; e++)
		if (!p->edits[e].line) {
			fputs("\tprintf '%s\\n' ", f);
			fw_sh_quote(f, p->edits[e].new_);
			fputc('\n', f);
		}
	fputs("\t:\n}\n\n", f);
	/* each planned line: still the old text, the new one already, or something else */
	for (size_t e = 0; e < p->nedits; e++) {
		const struct fw_karg_edit *ed = &p->edits[e];
		if (ed->line) {
			fprintf(f, "if line_is %u ", ed->line);
			fw_sh_quote(f, ed->old);
			fprintf(f, "; then\n\tpending=$((pending + 1))\n\techo \"line %u of $file: \"", ed->line);
			fw_sh_quote(f, ed->old);
			fputs("\" -> \"", f);
			fw_sh_quote(f, ed->new_);
			fprintf(f, "\nelif line_is %u ", ed->line);
			fw_sh_quote(f, ed->new_);
			fprintf(f, "; then\n\t:\nelse\n\techo \"line %u of $file is neither the plan's old nor its new text: "
				   "not changed (make a new plan)\" >&2\n\trefused=1\nfi\n",
				ed->line);
		} else if (p->loader == FW_LOADER_GRUB) {
			fputs("if [ ! -f \"$file\" ]; then\n\techo \"$file is missing\" >&2\n\trefused=1\nelif ! grep -Fxq -- ", f);
			fw_sh_quote(f, ed->new_);
			fputs(" \"$file\"; then\n\tpending=$((pending + 1))\n\techo \"$file: append \"", f);
			fw_sh_quote(f, ed->new_);
			fputs("\nfi\n", f);
		} else {
			fputs("if [ ! -e \"$file\" ]; then\n\tpending=$((pending + 1))\n\techo \"$file: create with \"", f);
			fw_sh_quote(f, ed->new_);
			fputs("\nelif [ \"$(cat \"$file\")\" != ", f);
			fw_sh_quote(f, ed->new_);
			fputs(" ]; then\n\techo \"$file exists now, and the plan expected to create it: not changed (make a "
			      "new plan)\" >&2\n\trefused=1\nfi\n",
			      f);
		}
	}
	fputs("[ \"$refused\" = 0 ] || exit 1\n"
	      "if [ \"$pending\" = 0 ]; then\n"
	      "\techo \"already set: $options in $file\"\n"
	      "\texit 0\n"
	      "fi\n",
	      f);
	fprintf(f, "if [ \"$apply\" = 0 ]; then\n"
		   "\techo \"dry run: would save $file in $BACKUP, write the lines above and run %s (give --apply)\"\n"
		   "\texit 0\n"
		   "fi\n",
		p->loader == FW_LOADER_KERNEL_INSTALL ? "kernel-install add" : p->refresh);
	fputs("mkdir -p \"$BACKUP\" || exit 4\n"
	      "if [ -e \"$file\" ] && ! cp -p \"$file\" \"$BACKUP/\"; then\n"
	      "\techo \"cannot save $file in $BACKUP: not changed\" >&2\n"
	      "\texit 4\n"
	      "fi\n"
	      "# written beside the file and renamed over it: the file is whole at every moment\n"
	      "new=\"$file.fwlens-new\"\n"
	      "[ -e \"$file\" ] || mkdir -p \"${file%/*}\" || exit 4\n"
	      "if ! { { [ ! -e \"$file\" ] || cp -p \"$file\" \"$new\"; } && new_text >\"$new\" && mv -f \"$new\" \"$file\"; }; then\n"
	      "\trm -f \"$new\"\n"
	      "\techo \"writing $file failed: not changed; backup in $BACKUP\" >&2\n"
	      "\texit 4\n"
	      "fi\n",
	      f);
	for (size_t e = 0; e < p->nedits; e++) {
		const struct fw_karg_edit *ed = &p->edits[e];
		if (ed->line)
			fprintf(f, "line_is %u ", ed->line);
		else
			fputs("grep -Fxq -- ", f);
		fw_sh_quote(f, ed->new_);
		fputs(ed->line ? "" : " \"$file\"", f);
		fputs(" || { echo \"$file does not read back as written; backup in $BACKUP\" >&2; exit 1; }\n", f);
	}
	fputs("echo \"written: $options in $file (backup in $BACKUP)\"\n"
	      "if ! refresh; then\n",
	      f);
	fprintf(f, "\techo \"$file is written, but %s failed: run it by hand before rebooting\" >&2\n"
		   "\texit 1\n"
		   "fi\n"
		   "echo \"the options take effect at the next boot\"\n",
		p->loader == FW_LOADER_KERNEL_INSTALL ? "kernel-install add" : p->refresh);
	return 0;
}

static void as_text(struct fw_cli *cli, const void *ctx)
{
	script(cli, ctx);
}

static int refuse(struct fw_cli *cli, const void *ctx)
{
	(void)ctx;
	return fw_cli_usage_error(cli, "a kernel option plan is written as text or sh (the script) or json");
}

static const struct fw_emit_writer writers[] = {{"sh", script}, {"sce", refuse}, {"redfish", refuse},
						{"efivarfs", refuse}, {"fwupdmgr", refuse}, {"sysfs", refuse},
						{NULL, NULL}};

int fw_plan_karg_run(struct fw_cli *cli, struct fw_source *src, const char *const *add, size_t nadd,
		     const char *const *rm, size_t nrm)
{
	struct fw_error err;
	fw_error_clear(&err);
	if (src->kind != FW_SOURCE_MACHINE || !src->have_host)
		return fw_cli_usage_error(cli, "--kernel-arg needs a machine (a root folder or snapshot), not %s", src->path);
	struct fw_karg_plan p;
	if (!fw_karg_plan_make(src->machine, &src->host, add, nadd, rm, nrm, &p, &err))
		return fw_cli_fail(cli, &err);
	char *why = fw_visible_dup(p.loader_why);
	fw_log_info(cli, "boot loader %s: %s", fw_boot_loader_name(p.loader), why);
	free(why);
	struct shown s = {&p, src};
	int rc = fw_cli_emit(cli, &(struct fw_emit){"plan", document, as_text, NULL, NULL, &s, writers});
	fw_karg_plan_free(&p);
	return rc;
}

struct verified {
	const struct fw_karg_verify *v;
	const char *src, *plan;
};

static json_t *verified_document(const void *ctx)
{
	const struct verified *s = ctx;
	json_t *doc = json_object(), *arr = json_array();
	json_object_set_new(doc, "source", json_string(s->src));
	json_object_set_new(doc, "plan", json_string(s->plan));
	json_object_set_new(doc, "cmdline", json_string(s->v->cmdline));
	for (size_t i = 0; i < s->v->n; i++) {
		json_t *o = json_object();
		json_object_set_new(o, "option", json_string(s->v->items[i].word));
		json_object_set_new(o, "action", json_string(s->v->items[i].remove ? "remove" : "add"));
		json_object_set_new(o, "state", json_string(s->v->items[i].state));
		json_array_append_new(arr, o);
	}
	json_object_set_new(doc, "options", arr);
	json_object_set_new(doc, "failed", json_integer((json_int_t)s->v->failed));
	json_object_set_new(doc, "rebooted", s->v->rebooted < 0 ? json_null() : json_boolean(s->v->rebooted));
	json_object_set_new(doc, "rebooted_why", json_string(s->v->rebooted_why));
	return doc;
}

static void verified_text(struct fw_cli *cli, const void *ctx)
{
	const struct verified *s = ctx;
	FILE *f = fw_cli_out(cli);
	fw_put_visible_format(f, "Verify %s against %s (running command line from proc/cmdline)", s->plan, s->src);
	fputc('\n', f);
	fw_put_visible_format(f, "rebooted since the plan: %s (%s)",
			      s->v->rebooted < 0 ? "not known" : s->v->rebooted ? "yes" : "no", s->v->rebooted_why);
	fputc('\n', f);
	for (size_t i = 0; i < s->v->n; i++) {
		fw_put_visible_format(f, "  %-16s %s%s", s->v->items[i].state, s->v->items[i].remove ? "removed " : "",
				      s->v->items[i].word);
		fputc('\n', f);
	}
	fprintf(f, "%zu of %zu planned options in effect\n", s->v->n - s->v->failed, s->v->n);
}

int fw_plan_karg_verify(struct fw_cli *cli, struct fw_source *src, const char *path, const json_t *plan)
{
	struct fw_error err;
	fw_error_clear(&err);
	if (src->kind != FW_SOURCE_MACHINE || !src->have_host)
		return fw_cli_usage_error(cli, "a kernel option plan is verified against a machine, not %s", src->path);
	struct fw_karg_verify v;
	if (!fw_karg_verify(&src->host, src->path, plan, &v, &err))
		return fw_cli_fail(cli, &err);
	struct verified s = {&v, src->path, path};
	int rc = fw_cli_emit(cli, &(struct fw_emit){"verify", verified_document, verified_text, NULL, NULL, &s, NULL});
	if (!rc && v.failed)
		rc = v.failed == v.pending ? FW_EXIT_PENDING : FW_EXIT_DIFFERENT;
	fw_karg_verify_free(&v);
	return rc;
}
