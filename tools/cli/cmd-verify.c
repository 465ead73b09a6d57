/* fwlens verify: check the signatures of an AMI Aptio signed capsule (ASUS .CAP). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capsule/aptio.h"
#include "capsule/capsule.h"
#include "capsule/signature.h"
#include "capsule/detect.h"
#include "cli.h"
#include "emit.h"
#include "parsers/file.h"
#include "tools/query/source.h"

static json_t *area_json(const struct fw_verify_area *a)
{
	json_t *o = json_object();
	json_object_set_new(o, "what", json_string(a->what));
	if (a->index >= 0)
		json_object_set_new(o, "index", json_integer(a->index));
	json_object_set_new(o, "offset", fw_cli_json_offset(a->offset));
	json_object_set_new(o, "size", json_integer((json_int_t)a->size));
	json_object_set_new(o, "signed", json_boolean(a->is_signed));
	if (a->index >= 0) {
		char flags[160];
		json_object_set_new(o, "image_offset", json_integer(a->image_offset));
		json_object_set_new(o, "type", json_string(a->type == FW_ROM_AREA_TYPE_FV ? "FV" : a->type == FW_ROM_AREA_TYPE_RAW ? "Raw" : "?"));
		json_object_set_new(o, "attributes", json_integer(a->attributes));
		json_object_set_new(o, "attributes_text", json_string(fw_flags_str(&fw_rom_area_attribute_names, a->attributes, flags, sizeof(flags))));
	}
	json_object_set_new(o, "present", json_boolean(a->present));
	if (a->present) {
		json_object_set_new(o, "erased", json_boolean(a->erased));
		json_object_set_new(o, "sha256", json_string(a->sha256));
	}
	if (a->manifest_match >= 0)
		json_object_set_new(o, "manifest_match", json_boolean(a->manifest_match));
	return o;
}

static json_t *report_json(const char *path, const struct fw_capsule *c, const struct fw_verify_report *r)
{
	json_t *doc = json_object();
	char flags[256];
	json_object_set_new(doc, "input", json_string(path));
	json_t *cap = json_object();
	json_object_set_new(cap, "type", json_string(fw_capsule_kind_name(c->kind)));
	json_object_set_new(cap, "flags", json_integer(c->flags));
	json_object_set_new(cap, "flags_text", json_string(fw_flags_str(&fw_capsule_flag_names, c->flags, flags, sizeof(flags))));
	json_object_set_new(cap, "certificate", json_string(c->cert_form == FW_CERT_PKCS7 ? "PKCS7" : "RSA2048_SHA256"));
	json_object_set_new(cap, "rom_image_offset", json_integer(c->rom_image_offset));
	json_object_set_new(cap, "rom_layout_offset", json_integer(c->rom_layout_offset));
	json_object_set_new(cap, "manifest", json_boolean(c->manifest));
	json_object_set_new(doc, "capsule", cap);
	json_object_set_new(doc, "valid", json_boolean(r->valid));
	if (r->platform_key.found) {
		json_t *k = json_object();
		json_object_set_new(k, "sha256", json_string(r->platform_key.sha256));
		json_object_set_new(k, "form", json_string(r->platform_key.hash_only ? "SHA-256 of the modulus" : "modulus"));
		json_object_set_new(k, "offset", fw_cli_json_offset(r->platform_key.offset));
		json_object_set_new(k, "matches", r->platform_key.matches ? json_string(r->platform_key.matches) : json_null());
		json_object_set_new(doc, "platform_key", k);
	}
	if (r->key_required) {
		json_t *k = json_object();
		json_object_set_new(k, "sha256", json_string(r->key_sha256));
		json_object_set_new(k, "matched", json_boolean(r->key_matched));
		json_object_set_new(k, "role", r->key_role ? json_string(r->key_role) : json_null());
		json_object_set_new(doc, "key", k);
	}
	json_t *sigs = json_array();
	for (size_t i = 0; i < r->nsigs; i++) {
		const struct fw_verify_sig *s = &r->sigs[i];
		json_t *o = json_object(), *areas = json_array();
		json_object_set_new(o, "role", json_string(s->role));
		json_object_set_new(o, "scheme", json_string(s->scheme));
		json_object_set_new(o, "key_sha256", s->key_sha256[0] ? json_string(s->key_sha256) : json_null());
		if (s->key_bits)
			json_object_set_new(o, "key_bits", json_integer(s->key_bits));
		json_object_set_new(o, "valid", json_boolean(s->valid));
		json_object_set_new(o, "well_formed", json_boolean(s->well_formed));
		if (s->salt_len >= 0)
			json_object_set_new(o, "salt_length", json_integer(s->salt_len));
		json_object_set_new(o, "digest", s->digest[0] ? json_string(s->digest) : json_null());
		if (s->signer[0])
			json_object_set_new(o, "signer", json_string(s->signer));
		if (s->detail[0])
			json_object_set_new(o, "detail", json_string(s->detail));
		for (size_t k = 0; k < s->nareas; k++)
			json_array_append_new(areas, area_json(&s->areas[k]));
		json_object_set_new(o, "areas", areas);
		json_array_append_new(sigs, o);
	}
	json_object_set_new(doc, "signatures", sigs);
	return doc;
}

static void report_text(struct fw_cli *cli, const struct fw_capsule *c, const struct fw_verify_report *r)
{
	FILE *f = fw_cli_out(cli);
	const char *bold = fw_cli_color(cli, "bold"), *dim = fw_cli_color(cli, "dim"), *reset = fw_cli_color(cli, "reset");
	const char *green = fw_cli_color(cli, "green"), *red = fw_cli_color(cli, "red");
	char flags[256];
	fprintf(f, "%scapsule%s  %s, %s certificate, flags 0x%08X (%s)\n", bold, reset, fw_capsule_kind_name(c->kind),
		c->cert_form == FW_CERT_PKCS7 ? "PKCS#7" : "RSA2048_SHA256", c->flags,
		fw_flags_str(&fw_capsule_flag_names, c->flags, flags, sizeof(flags)));
	for (size_t i = 0; i < r->nsigs; i++) {
		const struct fw_verify_sig *s = &r->sigs[i];
		fprintf(f, "\n%s%s signature%s  %s", bold, s->role, reset, s->scheme);
		if (s->salt_len >= 0)
			fprintf(f, " (salt %d)", s->salt_len);
		fprintf(f, "  %s%s%s\n", s->valid ? green : red, s->valid ? "valid" : "INVALID", reset);
		if (s->key_sha256[0])
			fprintf(f, "  key     RSA-%u, modulus sha256 %s\n", s->key_bits ? s->key_bits : 2048, s->key_sha256);
		if (s->signer[0])
			fprintf(f, "  signer  %s\n", s->signer);
		if (s->digest[0])
			fprintf(f, "  digest  %s\n", s->digest);
		if (s->detail[0])
			fprintf(f, "  why     %s\n", s->detail);
		fprintf(f, "  %s%-4s %-12s %-10s %-8s %-5s %-34s %s%s\n", dim, "#", "OFFSET", "SIZE", "SIGNED", "TYPE", "WHAT",
			"SHA-256", reset);
		for (size_t k = 0; k < s->nareas; k++) {
			const struct fw_verify_area *a = &s->areas[k];
			char idx[8] = "-", what[64];
			if (a->index >= 0) {
				snprintf(idx, sizeof(idx), "%d", a->index);
				snprintf(what, sizeof(what), "%s", fw_flags_str(&fw_rom_area_attribute_names, a->attributes, flags, sizeof(flags)));
			} else {
				snprintf(what, sizeof(what), "%s", a->what);
			}
			char off[24];
			if (a->offset == FW_OFFSET_UNKNOWN)
				snprintf(off, sizeof(off), "-");
			else
				snprintf(off, sizeof(off), "0x%llX", (unsigned long long)a->offset);
			fprintf(f, "  %-4s %-12s 0x%-8llX %-8s %-5s %-34s %s%s%s\n", idx, off, (unsigned long long)a->size,
				a->is_signed ? "signed" : "-",
				a->index < 0 ? "" : a->type == FW_ROM_AREA_TYPE_FV ? "FV" : a->type == FW_ROM_AREA_TYPE_RAW ? "Raw" : "?", what,
				a->present ? a->sha256 : "(outside the file)", a->present && a->erased ? "  erased" : "",
				a->manifest_match == 0 ? "  DIFFERS FROM MANIFEST" : "");
		}
	}
	if (r->platform_key.found)
		fprintf(f, "\n%splatform key%s  FWKEY file at 0x%llX, modulus sha256 %s%s: %s%s%s\n", bold, reset,
			(unsigned long long)r->platform_key.offset, r->platform_key.sha256,
			r->platform_key.hash_only ? " (stored as a hash)" : "",
			r->platform_key.matches ? green : red,
			r->platform_key.matches ? (strcmp(r->platform_key.matches, "root") == 0 ? "the root key" : "the signing key")
						: "matches no key of the certificate",
			reset);
	fprintf(f, "\n%sverdict%s  %s%s%s", bold, reset, r->valid ? green : red, r->valid ? "valid" : "INVALID", reset);
	if (r->key_required)
		fprintf(f, " (required key %s%s%s)", r->key_matched ? "found as the " : "not found", r->key_matched ? r->key_role : "",
			r->key_matched ? " key" : "");
	fputc('\n', f);
}

/* A flash image may carry its signature block as the FFS file FwCapsuleHdr (AMI
 * FWCAPSULE_FILE_FORMAT 0): the header sits at the start of the file's section, and the ROM it
 * signs is the whole image. */
static const struct fw_node *embedded_header(const struct fw_firmware *fw, struct fw_view *hdr)
{
	const struct fw_node *file = fw_node_find_guid(fw->tree->root, &fw_guid_ami_fw_capsule_hdr_file, FW_NODE_FILE);
	for (const struct fw_node *s = file ? file->first_child : NULL; s; s = s->next) {
		for (size_t off = 0; off <= 0x20 && off + FW_APTIO_CAPSULE_HEADER_SIZE <= s->body.len; off += 4) {
			if (memcmp(s->body.p + off, fw_guid_capsule_aptio_signed.b, 16) == 0) {
				fw_rd_tail(&s->body, off, hdr, NULL);
				return file;
			}
		}
	}
	return NULL;
}

/* What the writers describe: the input, its capsule and the verdict. */
struct verdict {
	const char *path;
	const struct fw_capsule *capsule;
	const struct fw_verify_report *report;
};

static json_t *verdict_document(const void *ctx)
{
	const struct verdict *v = ctx;
	return report_json(v->path, v->capsule, v->report);
}

static void verdict_text(struct fw_cli *cli, const void *ctx)
{
	const struct verdict *v = ctx;
	if (!cli->quiet)
		report_text(cli, v->capsule, v->report);
}

static int run_verify(struct fw_cli *cli)
{
	const char *path = cli->argv[0], *key_path = fw_cli_opt(cli, "key");
	struct fw_error err;
	fw_error_clear(&err);
	struct fw_pubkey key;
	if (key_path && !fw_pubkey_load_pem(key_path, &key, &err))
		return fw_cli_fail(cli, &err);
	struct fw_firmware fw;
	memset(&fw, 0, sizeof(fw));
	struct fw_file file;
	if (!fw_file_open(path, &file, &err))
		return fw_cli_fail(cli, &err);
	if (!fw_firmware_unwrap(&file, &err)) { /* the capsule of a vendor download */
		fw_file_close(&file);
		return fw_cli_fail(cli, &err);
	}
	struct fw_view v = fw_view_make(file.data, file.len, 0);
	struct fw_tree *t = fw_tree_new(NULL);
	int rc = FW_EXIT_OK;
	struct fw_node *n = NULL;
	struct fw_view payload;
	struct fw_capsule model;
	const struct fw_capsule *c = NULL;
	if (fw_input_recognise_bytes(file.data, file.len, NULL, FW_INPUT_BIT(FW_INPUT_CAPSULE)) == FW_INPUT_CAPSULE) {
		n = fw_capsule_parse(t, NULL, &v, &payload, &err);
		c = fw_capsule_of(n);
	} else if (!fw_source_open_firmware(path, NULL, &fw, &err)) {
		if (err.code != FW_E_IO && err.code != FW_E_LIMIT) {
			char why[FW_ERROR_MSG_MAX];
			snprintf(why, sizeof(why), "%s", err.msg);
			fw_error_set(&err, FW_E_UNSUPPORTED, "not a signed capsule: %s", why);
		}
	} else {
		struct fw_view hdr;
		const struct fw_node *holder = embedded_header(&fw, &hdr);
		if (!holder) {
			fw_error_set(&err, FW_E_UNSUPPORTED, "%s: not a signed capsule (no capsule header at offset 0, no FwCapsuleHdr "
				     "file in the image)", path);
		} else if ((n = fw_capsule_parse(t, NULL, &hdr, &payload, &err))) {
			model = *fw_capsule_of(n);
			model.payload = fw_view_make(fw.tree->input, fw.tree->input_len, 0);
			c = &model;
			fw_log_info(cli, "the signature block is the FwCapsuleHdr file at %s", hdr.base == FW_OFFSET_UNKNOWN ?
				    "an offset inside compressed data" : fw_offset_str(holder->offset, (char[24]){0}, 24));
		}
	}
	struct fw_verify_report r;
	memset(&r, 0, sizeof(r));
	if (!c || !fw_capsule_verify(c, key_path ? &key : NULL, &r, &err)) {
		if (c && c->cert_form == FW_CERT_UNKNOWN && !c->cert_length)
			fw_error_set(&err, FW_E_UNSUPPORTED, "the capsule header carries an empty certificate (an unsigned template)");
		if (err.msg[0] && !strstr(err.msg, path))
			fw_error_prefix(&err, "%s: ", path);
		rc = fw_cli_fail(cli, &err);
		goto out;
	}
	struct verdict shown = {path, c, &r};
	fw_cli_emit(cli, &(struct fw_emit){"verify", verdict_document, verdict_text, NULL, NULL, &shown, NULL});
	rc = r.valid ? FW_EXIT_OK : FW_EXIT_DIFFERENT;
out:
	fw_verify_report_free(&r);
	fw_tree_free(t);
	fw_firmware_close(&fw);
	fw_file_close(&file);
	return rc;
}

static const struct fw_option verify_options[] = {
	{"key", 'k', "PEM", "also require this RSA key (public key, certificate or private key in PEM) to have signed it", NULL},
	{0},
};

FW_COMMAND(verify,
	.synopsis = "FILE [--key PEM] [--format text|json|xml]",
	.summary = "Check the signatures of an AMI Aptio signed capsule",
	.description =
		"Recomputes the SHA-256 digest an AMI signed capsule (an ASUS .CAP) signs: the ROM areas its map "
		"marks signed, in map order, then the capsule header when its flags say so, then the map itself. "
		"Checks the firmware signature (RSASSA-PSS or PKCS#1 v1.5 as the flags say, or PKCS#7) with the "
		"signing key, and every root-key signature over the signing certificate. The report lists every ROM "
		"area with its SHA-256, says which are signed, and names signed areas that are missing from the file "
		"or erased (all 0xFF).\n\n"
		"The platform key a machine trusts is not in the capsule; keys are reported by the SHA-256 of their "
		"modulus. --key PEM also requires that key, as the signing key or as a root key whose signature "
		"holds.\n\n"
		"A flash image without a capsule header is checked through the signature block AMI can embed as the "
		"FFS file FwCapsuleHdr (414D94AD-998D-47D2-BFCD-4E882241DE32); its ROM areas are then offsets in "
		"the image.\n\n"
		"Exit status: 0 valid, 1 invalid, 3 not a signed capsule or a damaged header.",
	.formats = "text,json,xml",
	.options = verify_options,
	.examples = "fwlens verify ESC8000A-E13-1104.CAP\n"
		    "fwlens verify --key platform.pem --format json ESC8000A-E13-1104.CAP",
	.min_args = 1, .max_args = 1, .run = run_verify, .order = 30);
