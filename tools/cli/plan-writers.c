/* Writers of `fwlens plan`: one function per form the admin's tools take. */
#include "plan-writers.h"
#include "redfish-names.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "escape-shell.h"
#include "ifr-writers.h"
#include "output-text.h"
#include "parsers/file.h"
#include "query-writers.h"

void plan_say(const struct fw_cli *cli, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	/* prompts and keywords come from the image: one line, controls as visible escapes */
	fprintf(stderr, "fwlens %s: error: ", cli->cmd->name);
	fw_put_visible_vformat(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
}

static json_t *str_or_null(const char *s)
{
	return s ? json_string(s) : json_null();
}

static json_t *hex_string(uint64_t v)
{
	char b[24];
	snprintf(b, sizeof(b), "0x%" PRIX64, v);
	return json_string(b);
}

static json_t *raw_json(const uint8_t *p, uint32_t n)
{
	char b[2 * FW_PLAN_MAX_RAW + 1];
	for (uint32_t i = 0; i < n; i++)
		snprintf(b + 2 * i, 3, "%02X", p[i]);
	b[2 * n] = '\0';
	return json_string(b);
}

static const char *module_name(const struct fw_setting *st)
{
	return st->fp->module->name;
}

json_t *fw_plan_entry_json(struct fw_plan *p, size_t i)
{
	const struct fw_plan_entry *e = &p->entries[i];
	const struct fw_setting *st = e->st;
	const struct fw_ifr_question *q = st->q;
	char g[FW_GUID_STR_LEN];
	json_t *o = json_object();
	json_object_set_new(o, "order", json_integer((json_int_t)i + 1));
	json_object_set_new(o, "prompt", json_string(st->prompt));
	json_object_set_new(o, "keyword", str_or_null(st->keyword));
	json_object_set_new(o, "module", st->fp->module->has_guid ? json_string(fw_guid_format(&st->fp->module->guid, g))
								 : json_null());
	json_object_set_new(o, "module_name", str_or_null(module_name(st)));
	json_object_set_new(o, "path", str_or_null(st->npaths ? st->paths[0] : NULL));
	json_object_set_new(o, "question_id", json_integer(q->question_id));
	json_object_set_new(o, "varstore", json_string(st->varstore_name));
	json_object_set_new(o, "varstore_guid", json_string(fw_guid_format(&st->vs->guid, g)));
	uint32_t off = q->bit_field ? q->bit_offset / 8 : q->var_info;
	json_object_set_new(o, "offset", json_integer(off));
	json_object_set_new(o, "offset_hex", hex_string(off));
	json_object_set_new(o, "width", json_integer(q->width));
	if (q->bit_field) {
		json_object_set_new(o, "bit_offset", json_integer(q->bit_offset));
		json_object_set_new(o, "bit_width", json_integer(q->bit_width));
	}
	json_t *old = json_null();
	if (e->has_old) {
		old = json_object();
		json_object_set_new(old, "text", json_string(e->old_text));
		json_object_set_new(old, "value", json_integer((json_int_t)e->old));
		json_object_set_new(old, "raw", e->has_raw ? raw_json(e->old_raw, e->raw_len) : json_null());
	}
	json_object_set_new(o, "old", old);
	json_t *nv = json_object();
	json_object_set_new(nv, "text", json_string(e->value_text));
	json_object_set_new(nv, "value", json_integer((json_int_t)e->value));
	json_object_set_new(nv, "raw", e->has_raw || !q->bit_field ? raw_json(e->new_raw, e->raw_len) : json_null());
	json_object_set_new(o, "new", nv);
	json_object_set_new(o, "old_source", json_string(e->has_old ? p->current_source : "none: no current value"));
	json_object_set_new(o, "change", json_boolean(e->change));
	json_object_set_new(o, "reason", json_string(e->reason));
	json_object_set_new(o, "dependency", json_boolean(e->dependency));
	json_object_set_new(o, "unlocks", str_or_null(e->unlocks));
	json_object_set_new(o, "check", str_or_null(e->check));
	json_object_set_new(o, "efivarfs_refused", str_or_null(e->efivarfs_refused));
	return o;
}

json_t *fw_plan_json(struct fw_plan *p, const char *profile)
{
	json_t *doc = json_object(), *arr = json_array(), *notes = json_array();
	json_object_set_new(doc, "source", json_string(p->src->path));
	json_object_set_new(doc, "image", str_or_null(p->src->image_name ? p->src->image_name : p->src->kind == FW_SOURCE_FIRMWARE
													     ? p->src->path
													     : NULL));
	json_object_set_new(doc, "image_sha256", p->image_sha256[0] ? json_string(p->image_sha256) : json_null());
	json_object_set_new(doc, "current_source",
			    fw_cli_json_current_source(fw_source_current(p->src), fw_source_current_text(p->src)));
	json_object_set_new(doc, "profile", str_or_null(profile));
	json_object_set_new(doc, "hii_crc32", str_or_null(p->src->hii_crc));
	json_object_set_new(doc, "made", fw_plan_made_json(p->src));
	for (size_t i = 0; i < p->n; i++)
		json_array_append_new(arr, fw_plan_entry_json(p, i));
	json_object_set_new(doc, "entries", arr);
	for (size_t i = 0; i < p->nnotes; i++)
		json_array_append_new(notes, json_string(p->notes[i]));
	json_object_set_new(doc, "notes", notes);
	return doc;
}

/* ---- text ---- */

/* Text from the image or machine on one line, controls shown as visible escapes. */
#define put fw_put_visible_format

void fw_plan_write_text(struct fw_cli *cli, struct fw_plan *p)
{
	FILE *f = fw_cli_out(cli);
	const char *b = fw_cli_color(cli, "bold"), *r = fw_cli_color(cli, "reset"), *dim = fw_cli_color(cli, "dim");
	put(f, "Plan for %s%s%s", p->src->path, p->src->image_name ? ", forms from " : "",
	    p->src->image_name ? p->src->image_name : "");
	fputc('\n', f);
	put(f, "old values from %s", p->current_source);
	fputs("\n\n", f);
	size_t changes = 0;
	for (size_t i = 0; i < p->n; i++) {
		const struct fw_plan_entry *e = &p->entries[i];
		const struct fw_setting *st = e->st;
		changes += e->change;
		fprintf(f, "%2zu. %s", i + 1, b);
		put(f, "%s", st->prompt);
		fputs(r, f);
		put(f, "  %s -> %s%s", e->has_old ? e->old_text : "(unknown)", e->value_text, e->change ? "" : "  (already in effect)");
		fprintf(f, "\n      %s", dim);
		put(f, "%s  |  %s  |  %s+0x%X/%u", st->npaths ? st->paths[0] : "(not reachable from a menu)",
		    module_name(st) ? module_name(st) : "?", st->varstore_name,
		    st->q->bit_field ? st->q->bit_offset / 8 : st->q->var_info, st->q->width);
		if (st->keyword)
			put(f, "  |  keyword %s", st->keyword);
		fprintf(f, "%s\n", r);
		char *line = fw_xasprintf("why: %s%s%s%s", e->reason, e->check ? " (satisfies doctor check " : "",
					  e->check ? e->check : "", e->check ? ")" : "");
		char *shown = fw_visible_dup(line);
		fw_text_wrap_hanging(f, shown, "      ", "           ", 100);
		free(shown);
		free(line);
	}
	fprintf(f, "\n%zu setting%s, %zu to change\n", p->n, p->n == 1 ? "" : "s", changes);
	for (size_t i = 0; i < p->nnotes; i++) {
		put(f, "note: %s", p->notes[i]);
		fputc('\n', f);
	}
}

/* ---- AMISCE import script ---- */

/* A HIICrc32 from an export given with --vars: written only as the one-line hex field it must be. */
static bool hii_crc_ok(const char *crc)
{
	size_t n = strspn(crc, "0123456789abcdefABCDEF");
	return n >= 1 && n <= 8 && crc[n] == '\0';
}

int fw_plan_write_sce(struct fw_cli *cli, struct fw_plan *p, const char *hii_crc)
{
	struct fw_error err;
	fw_error_clear(&err);
	for (size_t i = 0; i < p->n; i++)
		if (!fw_sce_check_question(p->entries[i].st, true, p->entries[i].value_text, &err))
			return fw_cli_fail(cli, &err);
	if (hii_crc && !hii_crc_ok(hii_crc)) {
		char *shown = fw_visible_dup(hii_crc);
		fw_error_set(&err, FW_E_UNWRITABLE, "HIICrc32 '%s' of the current values is not 1 to 8 hex digits: an AMISCE "
						    "script cannot carry it", shown);
		free(shown);
		return fw_cli_fail(cli, &err);
	}
	/* the line ends of the export the old values came from (AMISCE writes CRLF): written to memory
	 * first, then each line end as the export has it */
	const char *eol = p->src->have_amisce && p->src->amisce.eol ? p->src->amisce.eol : "\n";
	char *mem = NULL;
	size_t memlen = 0;
	FILE *out = fw_cli_out(cli), *f = strcmp(eol, "\n") != 0 ? open_memstream(&mem, &memlen) : NULL;
	if (!f)
		f = out;
	fw_script_comment(f, "//", "Script File Name : %s", cli->output_path ? cli->output_path : "plan.txt");
	fw_script_comment(f, "//", "Written by fwlens %s: a change set for %s in the layout of an AMISCE export",
			  FWLENS_VERSION, p->src->path);
	fprintf(f, "// Import: SCEWIN_64 /i /s FILE (Windows) or SCELNX_64 /i /s FILE (Linux); only these questions change\n");
	if (hii_crc)
		fprintf(f, "HIICrc32= %s\n\n", hii_crc);
	else {
		fw_script_comment(f, "//", "No HIICrc32 line: not known from %s (an AMISCE export given with --vars carries it)",
				  p->src->path);
		fputc('\n', f);
	}
	for (size_t i = 0; i < p->n; i++)
		fw_sce_write_question(f, p->entries[i].st, true, p->entries[i].value, p->entries[i].value_text);
	if (f != out) {
		fclose(f);
		for (size_t i = 0; i < memlen; i++)
			if (mem[i] == '\n')
				fputs(eol, out);
			else
				fputc(mem[i], out);
		free(mem);
	}
	return 0;
}

/* ---- Redfish ---- */

/* The attribute value a BMC takes: an option's text for enumerations, a number for integers. */
static json_t *redfish_value(const struct fw_plan_entry *e)
{
	if (e->st->q->kind == FW_IFR_K_NUMERIC)
		return json_integer((json_int_t)e->value);
	return json_string(e->value_text);
}

/* "'SR-IOV Support' (question 0x1A2, Setup+0x40)": which of several settings is meant; a long
 * prompt is cut at a character boundary so the question id still shows. */
static const char *setting_name(const struct fw_setting *st, char *buf, size_t len)
{
	size_t n = strlen(st->prompt), keep = n;
	if (n > 80)
		for (keep = 77; keep > 0 && (st->prompt[keep] & 0xC0) == 0x80; keep--)
			;
	snprintf(buf, len, "'%.*s%s' (question 0x%X, %s+0x%X)", (int)keep, st->prompt, keep < n ? "..." : "",
		 st->q->question_id, st->varstore_name ? st->varstore_name : "?",
		 st->q->bit_field ? st->q->bit_offset / 8 : st->q->var_info);
	return buf;
}

int fw_plan_write_redfish(struct fw_cli *cli, struct fw_plan *p, const char *registry_path)
{
	json_t *reg = NULL;
	if (registry_path) {
		json_error_t je;
		struct fw_file file;
		struct fw_error err;
		fw_error_clear(&err);
		if (!fw_file_read(registry_path, 64u << 20, &file, &err))
			return fw_cli_fail(cli, &err);
		reg = json_loadb((const char *)file.data, file.len, 0, &je);
		fw_file_close(&file);
		if (!reg || !json_is_array(json_object_get(json_object_get(reg, "RegistryEntries"), "Attributes"))) {
			fw_error_set(&err, FW_E_INVALID, "%s: not a BIOS AttributeRegistry (%s at line %d)", registry_path,
				     reg ? "no RegistryEntries.Attributes" : je.text, je.line);
			json_decref(reg);
			return fw_cli_fail(cli, &err);
		}
	}
	json_t *attrs = json_object();
	int bad = 0, clash = 0;
	if (!reg) /* said on every run: the body is only right for a BMC of this convention */
		fw_log_warn(cli, "Redfish names: the forms' x-UEFI keywords, the names AMI MegaRAC BMCs give BIOS attributes "
				 "(not checked: other BMCs drop the CPU-generation suffix or number the names; give the BMC's "
				 "AttributeRegistry with --registry FILE to map through it)");
	const char **names = fw_xcalloc(p->n + 1, sizeof(*names));
	for (size_t i = 0; i < p->n; i++) {
		const struct fw_plan_entry *e = &p->entries[i];
		const char *name = e->st->keyword;
		char a[200], b[200], how[400];
		json_t *v = redfish_value(e);
		if (reg) {
			const json_t *attr = fw_redfish_find_attribute(reg, e->st, how, sizeof(how));
			if (!attr) {
				plan_say(cli, "%s: the registry %s lacks this planned setting: %s", setting_name(e->st, a, sizeof(a)),
					 registry_path, how);
				bad++;
				json_decref(v);
				continue;
			}
			name = json_string_value(json_object_get(attr, "AttributeName"));
			if (json_is_true(json_object_get(attr, "ReadOnly"))) {
				plan_say(cli, "Redfish attribute %s (%s) is read-only in the registry", name, e->st->prompt);
				bad++;
				json_decref(v);
				continue;
			}
			char why[300];
			json_t *mapped = fw_redfish_map_value(attr, e->st, e->value_text, e->st->q->kind == FW_IFR_K_NUMERIC,
							      (long long)e->value, why, sizeof(why));
			json_decref(v);
			if (!mapped) {
				plan_say(cli, "Redfish attribute %s (%s): %s", name, e->st->prompt, why);
				bad++;
				continue;
			}
			v = mapped;
			fw_log_info(cli, "%s -> Redfish attribute %s, found %s", e->st->prompt, name, how);
		} else if (!name) {
			plan_say(cli, "%s has no x-UEFI keyword: a BMC cannot name it as a Redfish attribute", e->st->prompt);
			bad++;
			json_decref(v);
			continue;
		}
		size_t first = i;
		for (size_t k = 0; k < i && first == i; k++)
			if (names[k] && strcmp(names[k], name) == 0)
				first = k;
		if (first < i) {
			plan_say(cli, "Redfish attribute %s names two planned settings, %s and %s: one body cannot set both "
				      "(plan one of them in a second body, or use --format sce or efivarfs)",
				 name, setting_name(p->entries[first].st, a, sizeof(a)), setting_name(e->st, b, sizeof(b)));
			clash++;
			json_decref(v);
			continue;
		}
		names[i] = name;
		json_object_set_new(attrs, name, v);
	}
	free(names);
	json_decref(reg);
	if (bad || clash) {
		json_decref(attrs);
		return bad ? FW_EXIT_BAD_INPUT : FW_EXIT_UNWRITABLE;
	}
	json_t *doc = json_object();
	json_object_set_new(doc, "Attributes", attrs);
	fw_cli_print_json(cli, doc);
	return 0;
}


/* ---- efivarfs ---- */

struct var_change {
	const struct fw_variable *v;
	uint8_t *now;  /* attributes + data, with the planned bytes */
	size_t len;
};

static void put_hex(FILE *f, const uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		fprintf(f, "%02x", p[i]);
}

/* printf %b form: "\0NNN" per byte, so the script's own printf makes the bytes. */
static void put_octal(FILE *f, const uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		fprintf(f, "\\0%03o", p[i]);
}

static void guid_lower(const struct fw_guid *g, char *out)
{
	fw_guid_format(g, out);
	for (char *c = out; *c; c++)
		if (*c >= 'A' && *c <= 'F')
			*c = (char)(*c - 'A' + 'a');
}

static const char efivarfs_prologue[] =
	"# shellcheck disable=SC2317 # the functions are not called when every planned value is in effect already\n"
	"set -u\n"
	"EFIVARS=${EFIVARS:-/sys/firmware/efi/efivars}\n"
	"BACKUP=${BACKUP:-./fwlens-efivars-backup}\n"
	FW_SCRIPT_APPLY_ARGUMENT
	"# the dry run creates no file, not even a temporary one\n"
	"tmp=\n"
	"if [ \"$apply\" = 1 ]; then\n"
	"\ttmp=$(mktemp) || exit 4\n"
	"\ttrap 'rm -f \"$tmp\"' EXIT\n"
	"fi\n"
	"fail=0\n"
	"\n"
	"hexof() { od -An -v -tx1 \"$1\" | tr -d ' \\n'; }\n"
	"\n"
	"# change_var NAME-GUID OLD-HEX NEW-HEX NEW-BYTES-AS-PRINTF-%b-OCTAL SIZE\n"
	"change_var() {\n"
	"\tf=\"$EFIVARS/$1\"\n"
	"\tif [ ! -f \"$f\" ]; then\n"
	"\t\techo \"$1: not in $EFIVARS\" >&2; fail=1; return\n"
	"\tfi\n"
	"\tcur=$(hexof \"$f\")\n"
	"\tif [ \"$cur\" = \"$3\" ]; then\n"
	"\t\techo \"$1: already set (holds the planned bytes)\"; return\n"
	"\tfi\n"
	"\tif [ \"$cur\" != \"$2\" ]; then\n"
	"\t\techo \"$1: current bytes differ from the plan's old bytes: not written (make a new plan)\" >&2; fail=1; return\n"
	"\tfi\n"
	"\tif [ \"$apply\" = 0 ]; then\n"
	"\t\techo \"$1: old bytes match; would write $5 bytes (dry run: give --apply)\"; return\n"
	"\tfi\n"
	"\tif ! { mkdir -p \"$BACKUP\" && cp -p \"$f\" \"$BACKUP/$1\"; }; then\n"
	"\t\techo \"$1: cannot save a backup in $BACKUP: not written\" >&2; fail=1; return\n"
	"\tfi\n"
	"\tprintf '%b' \"$4\" >\"$tmp\"\n"
	"\tif [ \"$(hexof \"$tmp\")\" != \"$3\" ]; then\n"
	"\t\techo \"$1: the new bytes did not come out as planned: not written\" >&2; fail=1; return\n"
	"\tfi\n"
	"\t# Linux makes efivarfs files of variables it does not know immutable: lift the flag (chattr,\n"
	"\t# e2fsprogs), write attributes and data in one write, and set the flag again afterwards\n"
	"\timmutable=0\n"
	"\tcase $(lsattr -d \"$f\" 2>/dev/null | cut -d' ' -f1) in\n"
	"\t*i*) immutable=1 ;;\n"
	"\tesac\n"
	"\tif [ $immutable = 1 ] && ! chattr -i \"$f\"; then\n"
	"\t\techo \"$1: immutable and chattr -i failed (is chattr installed?): not written\" >&2; fail=1; return\n"
	"\tfi\n"
	"\tif ! dd if=\"$tmp\" of=\"$f\" bs=\"$5\" count=1 conv=notrunc 2>/dev/null; then\n"
	"\t\techo \"$1: write failed (immutable? chattr -i \\\"$f\\\" first); backup in $BACKUP/$1\" >&2; fail=1\n"
	"\t\t[ $immutable = 1 ] && chattr +i \"$f\"\n"
	"\t\treturn\n"
	"\tfi\n"
	"\t[ $immutable = 1 ] && chattr +i \"$f\"\n"
	"\tif [ \"$(hexof \"$f\")\" != \"$3\" ]; then\n"
	"\t\techo \"$1: read back differs from what was written; backup in $BACKUP/$1\" >&2; fail=1; return\n"
	"\tfi\n"
	"\techo \"$1: written and read back; backup in $BACKUP/$1\"\n"
	"}\n\n";

int fw_plan_write_efivarfs(struct fw_cli *cli, struct fw_plan *p)
{
	FILE *f = fw_cli_out(cli);
	struct var_change *vc = fw_xcalloc(p->n + 1, sizeof(*vc));
	size_t nv = 0, refused = 0;
	for (size_t i = 0; i < p->n; i++) {
		const struct fw_plan_entry *e = &p->entries[i];
		if (e->efivarfs_refused) {
			char *prompt = fw_visible_dup(e->st->prompt);
			fw_log_warn(cli, "%s: refused for efivarfs: %s", prompt, e->efivarfs_refused);
			free(prompt);
			refused++;
			continue;
		}
		const struct fw_variable *v = e->st->var;
		size_t k = 0;
		while (k < nv && vc[k].v != v)
			k++;
		if (k == nv) {
			vc[nv].v = v;
			vc[nv].len = 4 + v->size;
			vc[nv].now = fw_xmalloc(vc[nv].len);
			for (int b = 0; b < 4; b++)
				vc[nv].now[b] = (uint8_t)(v->attributes >> (8 * b));
			memcpy(vc[nv].now + 4, v->data, v->size);
			nv++;
		}
		uint32_t off = e->st->q->bit_field ? e->st->q->bit_offset / 8 : e->st->q->var_info;
		if (e->has_raw && off + e->raw_len <= v->size)
			memcpy(vc[k].now + 4 + off, e->new_raw, e->raw_len);
	}
	/* every string from the image, the machine or a file name goes into a one-line comment */
	fprintf(f, "#!/bin/sh\n");
	fw_script_comment(f, "#", "Written by fwlens %s: the change set for %s as efivarfs writes.", FWLENS_VERSION,
			  p->src->path);
	fw_script_comment(f, "#", "Old values from %s.", p->current_source);
	fprintf(f, "#   sh THIS-FILE           dry run: checks each variable's current bytes, writes nothing\n");
	fprintf(f, "#   sh THIS-FILE --apply   per variable: old bytes checked, backup saved, immutable flag lifted,\n");
	fprintf(f, "#                          attributes and data written in one write, read back and compared\n");
	fprintf(f, "# EFIVARS (default /sys/firmware/efi/efivars) and BACKUP (default ./fwlens-efivars-backup) may be set.\n");
	fprintf(f, "# The new values take effect at the next boot.\n");
	for (size_t i = 0; i < p->n; i++) {
		const struct fw_plan_entry *e = &p->entries[i];
		fw_script_comment(f, "#", "  %zu. %s: %s -> %s%s%s", i + 1, e->st->prompt, e->has_old ? e->old_text : "?",
				  e->value_text, e->efivarfs_refused ? "  REFUSED: " : "",
				  e->efivarfs_refused ? e->efivarfs_refused : "");
	}
	fprintf(f, "\n%s", efivarfs_prologue);
	for (size_t k = 0; k < nv; k++) {
		const struct fw_variable *v = vc[k].v;
		char g[FW_GUID_STR_LEN];
		guid_lower(&v->guid, g);
		uint8_t *old = fw_xmalloc(vc[k].len);
		memcpy(old, vc[k].now, 4);
		memcpy(old + 4, v->data, v->size);
		if (memcmp(old, vc[k].now, vc[k].len) == 0) {
			fw_script_comment(f, "#", "%s-%s: every planned value is in effect already; not written", v->name, g);
			fputc('\n', f);
			free(old);
			free(vc[k].now);
			continue;
		}
		char *file = fw_xasprintf("%s-%s", v->name, g);
		fputs("change_var ", f);
		fw_sh_quote(f, file);
		fputs(" \\\n\t'", f);
		free(file);
		put_hex(f, old, vc[k].len);
		fputs("' \\\n\t'", f);
		put_hex(f, vc[k].now, vc[k].len);
		fputs("' \\\n\t'", f);
		put_octal(f, vc[k].now, vc[k].len);
		fprintf(f, "' %zu\n\n", vc[k].len);
		free(old);
		free(vc[k].now);
	}
	free(vc);
	fprintf(f, "exit $fail\n");
	(void)refused;
	return 0;
}
