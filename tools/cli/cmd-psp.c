/* fwlens psp: the AMD flash layout of an image (EFS, PSP/BIOS/combo directories of both levels,
 * their entries and checksums) and the versions it carries. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capsule/amd-flash.h"
#include "capsule/amd-psp.h"
#include "capsule/detect.h"
#include "capsule/version.h"
#include "cli.h"
#include "emit.h"
#include "parsers/hash.h"
#include "tools/query/sev-version.h"
#include "tools/query/source.h"

struct psp_run {
	struct fw_cli *cli;
	struct fw_tree *t;
	bool inflate;
	size_t efs, dirs, entries, bad_checksums, problems;
};

static const char *mode_text(unsigned m)
{
	static const char *const names[] = {"x86 physical", "flash offset", "directory relative", "slot relative"};
	return m < 4 ? names[m] : "?";
}

static const char *cookie_of(const struct fw_node *n)
{
	return n->type;
}

static bool is_warning(const struct fw_node *n)
{
	for (const struct fw_diag *d = n->diags; d; d = d->next)
		if (d->severity != FW_DIAG_INFO)
			return true;
	return false;
}

static json_t *diags_json(const struct fw_node *n)
{
	json_t *a = json_array();
	for (const struct fw_diag *d = n->diags; d; d = d->next)
		json_array_append_new(a, json_string(d->msg));
	return a;
}

/* Inflate a compressed entry when asked: size and SHA-256 of the plain bytes. */
static void inflated_facts(struct psp_run *r, const struct fw_node *n, size_t *len, char sha[FW_SHA256_HEX_LEN], char *why,
			   size_t why_len)
{
	struct fw_view out;
	struct fw_error err;
	*len = 0;
	sha[0] = why[0] = '\0';
	if (fw_amd_entry_inflate(r->t, n, &out, &err)) {
		*len = out.len;
		fw_sha256_hex(out.p, out.len, sha);
	} else {
		snprintf(why, why_len, "%s", err.msg);
	}
}

static json_t *dir_json(struct psp_run *r, const struct fw_node *d);

static json_t *entry_json(struct psp_run *r, const struct fw_node *n)
{
	const struct fw_amd_entry *e = n->ext;
	json_t *o = json_object();
	r->entries++;
	if (e->combo) {
		json_object_set_new(o, "combo", json_true());
		json_object_set_new(o, "id_select", json_string(e->id_select ? "chip family ID" : "PSP ID"));
		json_object_set_new(o, "id", json_integer(e->id));
		json_object_set_new(o, "location", json_integer((json_int_t)e->address));
	} else {
		json_object_set_new(o, "type", json_integer(e->type));
		json_object_set_new(o, "type_name", e->name ? json_string(e->name) : json_null());
		json_object_set_new(o, "subprogram", json_integer(e->subprogram));
		json_object_set_new(o, "instance", json_integer(e->instance));
		json_object_set_new(o, "flags", json_integer(e->flags));
		if (e->bios)
			json_object_set_new(o, "region_type", json_integer(e->region_type));
		if (e->inline_value) {
			json_object_set_new(o, "value", json_integer((json_int_t)e->address));
		} else {
			json_object_set_new(o, "size", json_integer(e->size));
			json_object_set_new(o, "location", json_integer((json_int_t)e->address));
			json_object_set_new(o, "address_mode", json_string(mode_text(e->address_mode)));
			json_object_set_new(o, "offset", e->located ? fw_cli_json_offset(n->offset) : json_null());
		}
		if (e->bios && e->destination != UINT64_MAX)
			json_object_set_new(o, "destination", json_integer((json_int_t)e->destination));
		if (e->version[0])
			json_object_set_new(o, "version", json_string(e->version));
		json_object_set_new(o, "compressed", json_boolean(e->compressed));
		const struct fw_field_value *f = fw_node_field_get(n, "PatchId");
		if (f)
			json_object_set_new(o, "microcode_patch", json_integer((json_int_t)f->v.u));
		if (r->inflate && e->compressed && e->located) {
			size_t len;
			char sha[FW_SHA256_HEX_LEN], why[FW_ERROR_MSG_MAX];
			inflated_facts(r, n, &len, sha, why, sizeof(why));
			if (sha[0]) {
				json_object_set_new(o, "inflated_size", json_integer((json_int_t)len));
				json_object_set_new(o, "inflated_sha256", json_string(sha));
			} else {
				json_object_set_new(o, "inflate_error", json_string(why));
			}
		}
	}
	const struct fw_field_value *same = fw_node_field_get(n, "SameAs");
	if (same)
		json_object_set_new(o, "same_as", json_integer((json_int_t)same->v.u));
	if (n->first_child && n->first_child->kind == FW_NODE_PSP_DIRECTORY)
		json_object_set_new(o, "directory", dir_json(r, n->first_child));
	if (n->diags) {
		r->problems += is_warning(n);
		json_object_set_new(o, "diagnostics", diags_json(n));
	}
	return o;
}

static json_t *dir_json(struct psp_run *r, const struct fw_node *d)
{
	const struct fw_amd_dir *m = d->ext;
	json_t *o = json_object(), *entries = json_array();
	r->dirs++;
	json_object_set_new(o, "cookie", json_string(cookie_of(d)));
	json_object_set_new(o, "offset", fw_cli_json_offset(d->offset));
	json_object_set_new(o, "level", json_integer(m->level2 ? 2 : 1));
	json_object_set_new(o, "combo", json_boolean(m->combo));
	json_object_set_new(o, "entries_declared", json_integer(m->num_entries));
	json_object_set_new(o, "checksum", json_integer(m->checksum));
	bool checked = fw_node_field_get(d, "Checksum valid") != NULL;
	json_object_set_new(o, "checksum_computed", checked ? json_integer(m->checksum_computed) : json_null());
	json_object_set_new(o, "checksum_valid", checked ? json_boolean(m->checksum_ok) : json_null());
	if (checked && !m->checksum_ok)
		r->bad_checksums++;
	if (!m->combo) {
		json_object_set_new(o, "additional_info", json_integer(m->additional_info));
		json_object_set_new(o, "address_mode", json_string(mode_text(m->address_mode)));
	}
	for (const struct fw_node *c = d->first_child; c; c = c->next)
		if (c->kind == FW_NODE_PSP_ENTRY)
			json_array_append_new(entries, entry_json(r, c));
	json_object_set_new(o, "entries", entries);
	if (d->diags) {
		r->problems += is_warning(d);
		json_object_set_new(o, "diagnostics", diags_json(d));
	}
	return o;
}

static json_t *versions_json(const struct fw_versions *v)
{
	json_t *o = json_object(), *ag = json_array(), *uc = json_array();
	for (size_t i = 0; i < v->nagesa; i++)
		json_array_append_new(ag, json_string(v->agesa[i]));
	json_object_set_new(o, "agesa", ag);
	if (v->has_fid) {
		json_t *b = json_object();
		json_object_set_new(b, "tag", json_string(v->bios_tag));
		json_object_set_new(b, "project_version", json_string(v->project_version));
		json_object_set_new(b, "core_version", json_string(v->core_version));
		json_object_set_new(b, "build_date", v->build_date[0] ? json_string(v->build_date) : json_null());
		json_object_set_new(b, "offset", fw_cli_json_offset(v->fid_offset));
		json_object_set_new(o, "bios", b);
	} else {
		json_object_set_new(o, "bios", json_null());
	}
	json_object_set_new(o, "sev", v->sev[0] ? json_string(v->sev) : json_null());
	struct fw_sev_fw fw;
	if (fw_sev_fw_from_header(v->sev, &fw)) {
		/* the version as the kernel prints it once this firmware runs ("SEV API:1.55 build:21") */
		char t[48];
		json_t *sf = json_object();
		json_object_set_new(sf, "api_major", json_integer(fw.major));
		json_object_set_new(sf, "api_minor", json_integer(fw.minor));
		json_object_set_new(sf, "build", json_integer(fw.build));
		json_object_set_new(sf, "text", json_string(fw_sev_fw_text(&fw, t, sizeof(t))));
		json_object_set_new(o, "sev_firmware", sf);
	} else {
		json_object_set_new(o, "sev_firmware", json_null());
	}
	for (size_t i = 0; i < v->nucode; i++) {
		json_t *m = json_object();
		char date[11];
		const struct fw_microcode_patch *p = &v->ucode[i];
		json_object_set_new(m, "patch_id", json_integer(p->patch_id));
		json_object_set_new(m, "processor_rev", json_integer(p->processor_rev));
		json_object_set_new(m, "date", fw_microcode_date(p->date, date) ? json_string(date) : json_null());
		json_object_set_new(m, "data_code", json_integer(p->date));
		json_object_set_new(m, "offset", fw_cli_json_offset(p->offset));
		json_array_append_new(uc, m);
	}
	json_object_set_new(o, "microcode", uc);
	return o;
}

/* ---- text ------------------------------------------------------------------------------------ */

static void text_dir(struct psp_run *r, const struct fw_node *d, int indent);

static void text_entry(struct psp_run *r, const struct fw_node *n, int indent)
{
	FILE *f = fw_cli_out(r->cli);
	const struct fw_amd_entry *e = n->ext;
	const char *dim = fw_cli_color(r->cli, "dim"), *reset = fw_cli_color(r->cli, "reset");
	char off[24] = "-", size[16] = "-", notes[256] = "";
	size_t used = 0;
	if (e->combo) {
		fprintf(f, "%*s%-5s %-34s location 0x%llX, %s 0x%08X\n", indent, "", "combo", "", (unsigned long long)e->address,
			e->id_select ? "chip family ID" : "PSP ID", e->id);
	} else {
		if (e->located)
			snprintf(off, sizeof(off), "0x%llX", (unsigned long long)n->offset);
		if (!e->inline_value)
			snprintf(size, sizeof(size), "0x%X", e->size);
		if (e->inline_value)
			used += (size_t)snprintf(notes + used, sizeof(notes) - used, "value 0x%llX ", (unsigned long long)e->address);
		const struct fw_field_value *ft = fw_node_field_get(n, "Flags text");
		if (ft)
			used += (size_t)snprintf(notes + used, sizeof(notes) - used, "%s ", ft->v.s);
		else if (e->compressed)
			used += (size_t)snprintf(notes + used, sizeof(notes) - used, "compressed ");
		const struct fw_field_value *patch = fw_node_field_get(n, "PatchId");
		if (patch)
			used += (size_t)snprintf(notes + used, sizeof(notes) - used, "patch 0x%08llX ", (unsigned long long)patch->v.u);
		if (e->instance && used < sizeof(notes))
			used += (size_t)snprintf(notes + used, sizeof(notes) - used, "instance %u ", e->instance);
		if (r->inflate && e->compressed && e->located && used < sizeof(notes)) {
			size_t len;
			char sha[FW_SHA256_HEX_LEN], why[FW_ERROR_MSG_MAX];
			inflated_facts(r, n, &len, sha, why, sizeof(why));
			if (sha[0])
				used += (size_t)snprintf(notes + used, sizeof(notes) - used, "inflates to 0x%zX bytes, sha256 %.16s... ",
							 len, sha);
			else
				used += (size_t)snprintf(notes + used, sizeof(notes) - used, "inflate: %s ", why);
		}
		char line[512];
		snprintf(line, sizeof(line), "%*s0x%02X  %-34s %-11s %-9s %-11s %s", indent, "", e->type, e->name ? e->name : "?", off,
			 size, e->version, notes);
		size_t n_line = strlen(line);
		while (n_line && line[n_line - 1] == ' ')
			line[--n_line] = '\0';
		fprintf(f, "%s\n", line);
	}
	const struct fw_field_value *same = fw_node_field_get(n, "SameAs");
	if (same)
		fprintf(f, "%*s%s-> the directory at 0x%llX, listed above%s\n", indent + 6, "", dim, (unsigned long long)same->v.u, reset);
	for (const struct fw_diag *d = n->diags; d; d = d->next)
		fprintf(f, "%*s%s%s: %s%s\n", indent + 6, "", fw_cli_color(r->cli, d->severity == FW_DIAG_INFO ? "dim" : "yellow"),
			fw_diag_severity_name(d->severity), d->msg, reset);
	if (n->first_child && n->first_child->kind == FW_NODE_PSP_DIRECTORY)
		text_dir(r, n->first_child, indent + 6);
}

static void text_dir(struct psp_run *r, const struct fw_node *d, int indent)
{
	FILE *f = fw_cli_out(r->cli);
	const struct fw_amd_dir *m = d->ext;
	const char *bold = fw_cli_color(r->cli, "bold"), *dim = fw_cli_color(r->cli, "dim"), *reset = fw_cli_color(r->cli, "reset");
	const char *green = fw_cli_color(r->cli, "green"), *red = fw_cli_color(r->cli, "red");
	fprintf(f, "%*s%s%s%s at 0x%llX: %u entr%s", indent, "", bold, cookie_of(d), reset, (unsigned long long)d->offset,
		m->num_entries, m->num_entries == 1 ? "y" : "ies");
	if (fw_node_field_get(d, "Checksum valid"))
		fprintf(f, ", checksum 0x%08X %s%s%s", m->checksum, m->checksum_ok ? green : red,
			m->checksum_ok ? "valid" : "INVALID", reset);
	if (!m->combo)
		fprintf(f, ", %s", mode_text(m->address_mode));
	fputc('\n', f);
	for (const struct fw_diag *g = d->diags; g; g = g->next)
		fprintf(f, "%*s%s%s: %s%s\n", indent + 2, "", fw_cli_color(r->cli, "yellow"), fw_diag_severity_name(g->severity),
			g->msg, reset);
	if (d->first_child && !m->combo)
		fprintf(f, "%*s%s%-5s %-34s %-11s %-9s %-11s %s%s\n", indent + 2, "", dim, "TYPE", "NAME", "OFFSET", "SIZE", "VERSION",
			"NOTES", reset);
	for (const struct fw_node *c = d->first_child; c; c = c->next)
		if (c->kind == FW_NODE_PSP_ENTRY)
			text_entry(r, c, indent + 2);
}

static void text_versions(struct fw_cli *cli, const struct fw_versions *v)
{
	FILE *f = fw_cli_out(cli);
	const char *bold = fw_cli_color(cli, "bold"), *reset = fw_cli_color(cli, "reset");
	fprintf(f, "%sversions%s\n", bold, reset);
	if (v->has_fid)
		fprintf(f, "  BIOS       %s %s (AMI core %s)%s%s\n", v->bios_tag, v->project_version, v->core_version,
			v->build_date[0] ? ", built " : "", v->build_date);
	else
		fprintf(f, "  BIOS       no AMI $FID found\n");
	for (size_t i = 0; i < v->nagesa; i++)
		fprintf(f, "  AGESA      %s\n", v->agesa[i]);
	if (!v->nagesa)
		fprintf(f, "  AGESA      no AGESA! version string found\n");
	struct fw_sev_fw fw;
	char t[48];
	if (fw_sev_fw_from_header(v->sev, &fw))
		fprintf(f, "  SEV        %s (SEV code header version %s)\n", fw_sev_fw_text(&fw, t, sizeof(t)), v->sev);
	else
		fprintf(f, "  SEV        %s\n", v->sev[0] ? v->sev : "no SEV firmware entry (PSP type 0x39) found");
	for (size_t i = 0; i < v->nucode; i++) {
		char s[96];
		fprintf(f, "  microcode  %s\n", fw_microcode_str(&v->ucode[i], s, sizeof(s)));
	}
	if (!v->nucode)
		fprintf(f, "  microcode  no microcode patch entry (BIOS type 0x66) found\n");
}

struct efs_list {
	const struct fw_node **items;
	size_t count, cap;
};

static bool find_efs(struct fw_node *n, void *ctx)
{
	struct efs_list *l = ctx;
	if (n->kind == FW_NODE_REGION && n->type && strcmp(n->type, "AMD EFS") == 0) {
		if (l->count == l->cap) {
			l->cap = l->cap ? l->cap * 2 : 4;
			l->items = fw_xrealloc(l->items, l->cap * sizeof(*l->items));
		}
		l->items[l->count++] = n;
	}
	return true;
}

/* What the command shows: the EFS found, with their directories, and the versions. */
struct shown {
	struct psp_run *r;
	const struct efs_list *l;
	const struct fw_versions *v;
	const char *path;
	bool flash;
};

static json_t *psp_document(const void *ctx)
{
	const struct shown *s = ctx;
	struct psp_run *r = s->r;
	const struct efs_list *lp = s->l;
	json_t *doc = json_object(), *efs = json_array();
	json_object_set_new(doc, "input", json_string(s->path));
	for (size_t i = 0; i < lp->count; i++) {
		const struct fw_node *n = lp->items[i];
		const struct fw_amd_efs *e = n->ext;
		json_t *o = json_object(), *dirs = json_array(), *ptr = json_object();
		json_object_set_new(o, "offset", fw_cli_json_offset(n->offset));
		json_object_set_new(o, "generation", json_integer(e->second_gen ? 2 : 1));
		json_object_set_new(ptr, "psp", json_integer(e->psp));
		json_object_set_new(ptr, "psp_legacy", json_integer(e->psp_legacy));
		json_t *bios = json_array();
		for (int k = 0; k < 4; k++)
			json_array_append_new(bios, json_integer(e->bios[k]));
		json_object_set_new(ptr, "bios", bios);
		json_object_set_new(ptr, "psp_backup", json_integer(e->psp_backup));
		json_object_set_new(o, "pointers", ptr);
		for (const struct fw_node *c = n->first_child; c; c = c->next)
			if (c->kind == FW_NODE_PSP_DIRECTORY)
				json_array_append_new(dirs, dir_json(r, c));
		json_object_set_new(o, "directories", dirs);
		if (n->diags)
			json_object_set_new(o, "diagnostics", diags_json(n));
		json_array_append_new(efs, o);
	}
	json_object_set_new(doc, "efs", efs);
	json_object_set_new(doc, "versions", versions_json(s->v));
	return doc;
}

static void psp_text(struct fw_cli *cli, const void *ctx)
{
	const struct shown *s = ctx;
	struct psp_run *r = s->r;
	const struct efs_list *lp = s->l;
	FILE *f = fw_cli_out(cli);
	const char *bold = fw_cli_color(cli, "bold"), *reset = fw_cli_color(cli, "reset");
	for (size_t i = 0; i < lp->count; i++) {
		const struct fw_node *n = lp->items[i];
		const struct fw_amd_efs *e = n->ext;
		fprintf(f, "%sAMD EFS%s at 0x%llX (%s generation)\n", bold, reset, (unsigned long long)n->offset,
			e->second_gen ? "second" : "first");
		for (const struct fw_diag *d = n->diags; d; d = d->next)
			fprintf(f, "  %s%s: %s%s\n", fw_cli_color(cli, "yellow"), fw_diag_severity_name(d->severity), d->msg, reset);
		for (const struct fw_node *c = n->first_child; c; c = c->next)
			if (c->kind == FW_NODE_PSP_DIRECTORY)
				text_dir(r, c, 2);
		fputc('\n', f);
	}
	if (!lp->count && s->flash)
		fprintf(f, "no AMD Embedded Firmware Structure (0x55AA55AA with a pointer to a directory) in this input\n\n");
	text_versions(cli, s->v);
}

static int run_psp(struct fw_cli *cli)
{
	const char *path = cli->argv[0];
	struct fw_firmware fw;
	struct fw_error err;
	fw_error_clear(&err);
	if (!fw_source_open_firmware(path, NULL, &fw, &err))
		return fw_cli_fail(cli, &err);
	struct psp_run r = {.cli = cli, .t = fw.tree, .inflate = fw_cli_flag(cli, "inflate")};
	struct efs_list l = {0};
	if (fw.tree->root)
		fw_node_walk(fw.tree->root, find_efs, &l);
	struct fw_versions v;
	fw_versions_collect(fw.tree, &v);
	/* a microcode file has patch levels and no EFS to look for */
	bool flash = fw.kind != FW_INPUT_AMD_MICROCODE;
	/* Without an EFS the versions still answer (an image whose PSP region was cut off keeps its
	 * AGESA string); with nothing AMD at all the input is not one this command reads. */
	if (!l.count && !v.nagesa && !v.sev[0] && !v.nucode) {
		free(l.items);
		fw_firmware_close(&fw);
		fw_error_set(&err, FW_E_NOT_FOUND, "%s: no AMD Embedded Firmware Structure, AGESA string, SEV firmware or microcode entry", path);
		return fw_cli_fail(cli, &err);
	}
	struct shown shown = {&r, &l, &v, path, flash};
	fw_cli_emit(cli, &(struct fw_emit){"psp", psp_document, psp_text, NULL, NULL, &shown, NULL});
	if (!l.count && flash)
		fw_log_warn(cli, "%s: no AMD Embedded Firmware Structure found", path);
	free(l.items);
	fw_firmware_close(&fw);
	return 0;
}

static const struct fw_option psp_options[] = {
	{"inflate", 'i', NULL, "inflate compressed entries and report their size and SHA-256", NULL},
	{0},
};

FW_COMMAND(psp,
	.synopsis = "FILE [--inflate] [--format text|json|xml]",
	.summary = "Show the AMD PSP and BIOS directories of a flash image and the versions it carries",
	.description =
		"Finds every AMD Embedded Firmware Structure of the image (a capsule's payload, a flash image or a "
		"dump), follows its PSP, BIOS and combo directories and their level 2 directories (including A/B "
		"copies), and lists every entry: type and name, sub-program, instance, where its data lies and how "
		"the address was given, the version its PSP header carries, compression. Directory checksums "
		"(Fletcher-32) are checked; entries outside the image, pointers that land on no directory and "
		"loops are reported.\n\n"
		"Versions: the AMI $FID (BIOS tag, project version, build date), AGESA version strings, the SEV "
		"firmware version (PSP entry 0x39) as the kernel prints it once it runs (header version 0.1.37.15 is "
		"API 1.55 build 21: bytes major, minor, build) and the microcode patch levels (BIOS entries 0x66).",
	.formats = "text,json,xml",
	.options = psp_options,
	.examples = "fwlens psp ESC8000A-E13-1104.CAP\nfwlens psp flash-dump.bin --inflate --format json",
	.min_args = 1, .max_args = 1, .run = run_psp, .order = 35);
