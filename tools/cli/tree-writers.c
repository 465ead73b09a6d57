/* Tree writers: the text table (side by side with `UEFIExtract FILE report`) and XML. */
#include "tree-writers.h"

#include <inttypes.h>
#include <libxml/xmlwriter.h>
#include <stdlib.h>
#include <string.h>

#include "output-text.h"
#include "parsers/hash.h"
#include "parsers/utf8.h"
#include "tools/cli/tree-json.h"
#include "tools/query/source.h"
#include "tools/query/xml-init.h"

bool fw_cli_open_firmware(struct fw_cli *cli, const char *path, unsigned flags, struct fw_firmware *fw, int *rc)
{
	struct fw_open_options o = {flags, NULL};
	struct fw_error err;
	fw_error_clear(&err);
	if (!fw_source_open_firmware(path, &o, fw, &err)) {
		*rc = fw_cli_fail(cli, &err);
		return false;
	}
	fw_log_info(cli, "%s: %zu bytes, %zu nodes, %llu bytes inflated, %zu diagnostics", path, fw->tree->input_len,
		    fw->tree->node_count, (unsigned long long)fw->tree->decompressed_total, fw->tree->diag_count);
	return true;
}

const char *fw_node_kind_title(enum fw_node_kind k)
{
	switch (k) {
	case FW_NODE_CAPSULE: return "Capsule";
	case FW_NODE_IMAGE: return "Image";
	case FW_NODE_REGION: return "Region";
	case FW_NODE_VOLUME: return "Volume";
	case FW_NODE_FILE: return "File";
	case FW_NODE_SECTION: return "Section";
	case FW_NODE_NVRAM_STORE: return "NVRAM store";
	case FW_NODE_VARIABLE: return "Variable";
	case FW_NODE_PSP_DIRECTORY: return "PSP directory";
	case FW_NODE_PSP_ENTRY: return "PSP entry";
	case FW_NODE_PADDING: return "Padding";
	case FW_NODE_FREE_SPACE: return "Free space";
	case FW_NODE_KIND_COUNT: break;
	}
	return "Unknown";
}

const char *fw_node_label(const struct fw_node *n, char *buf, size_t len)
{
	const char *type = n->type ? n->type : "";
	if (n->kind == FW_NODE_FILE && strcmp(type, "Pad") == 0)
		snprintf(buf, len, "Padding file");
	else if (n->has_guid)
		fw_guid_format(&n->guid, buf);
	else if (n->kind == FW_NODE_SECTION)
		snprintf(buf, len, "%s section", type);
	else if (n->kind == FW_NODE_PADDING)
		snprintf(buf, len, "%s", strcmp(type, "Non-UEFI data") == 0 ? "Non-UEFI data" : "Padding");
	else if (n->kind == FW_NODE_FREE_SPACE)
		snprintf(buf, len, "%s", n->parent && n->parent->kind == FW_NODE_VOLUME ? "Volume free space" : "Free space");
	else if (n->kind == FW_NODE_IMAGE)
		snprintf(buf, len, "%s image", type);
	else
		snprintf(buf, len, "%s", type[0] ? type : fw_node_kind_title(n->kind));
	return buf;
}

struct text_ctx {
	FILE *f;
	const struct fw_tree_text_opts *o;
	unsigned base_depth;
};

static bool text_visit(struct fw_node *n, void *ctx)
{
	struct text_ctx *c = ctx;
	unsigned depth = n->depth - c->base_depth;
	if (c->o->max_depth >= 0 && depth > (unsigned)c->o->max_depth)
		return true;
	char base[24], label[128];
	if (n->offset == FW_OFFSET_UNKNOWN)
		snprintf(base, sizeof(base), "  N/A   ");
	else
		snprintf(base, sizeof(base), "%08" PRIX64, n->offset);
	fprintf(c->f, " %-16s| ", fw_node_kind_title(n->kind));
	fw_text_pad(c->f, n->type ? n->type : "", 22);
	fprintf(c->f, "| %s | %08" PRIX64 " |", base, n->size);
	if (c->o->crc)
		fprintf(c->f, " %08X |", fw_crc32(n->data.p, n->data.len));
	fputc(' ', c->f);
	for (unsigned i = 0; i < depth; i++)
		fputc('-', c->f);
	fprintf(c->f, " %s", fw_node_label(n, label, sizeof(label)));
	const char *extra = n->name ? n->name : n->text;
	if (extra && (!n->has_guid || strcmp(extra, label) != 0)) {
		char *clean = fw_utf8_clean(extra, false);
		for (char *q = clean; *q; q++)
			if ((unsigned char)*q < 0x20)
				*q = ' ';
		if (strcmp(clean, label) != 0)
			fprintf(c->f, " | %s", clean);
		free(clean);
	}
	fputc('\n', c->f);
	return true;
}

void fw_tree_write_text(FILE *f, const struct fw_tree *t, const struct fw_tree_text_opts *o)
{
	fprintf(f, "      Type       |        Subtype        |   Base   |   Size   |%s   Name \n", o->crc ? "  CRC32   |" : "");
	if (!t->root)
		return;
	struct text_ctx c = {f, o, t->root->depth};
	fw_node_walk(t->root, text_visit, &c);
}

/* --- XML --------------------------------------------------------------------------------------- */

static void xml_attr(xmlTextWriterPtr w, const char *name, const char *value)
{
	char *cleaned;
	xmlTextWriterWriteAttribute(w, BAD_CAST name, BAD_CAST fw_utf8_clean_view(value, true, &cleaned));
	free(cleaned);
}

static void xml_attr_u64(xmlTextWriterPtr w, const char *name, uint64_t v, bool hex)
{
	char b[24];
	snprintf(b, sizeof(b), hex ? "0x%" PRIX64 : "%" PRIu64, v);
	xmlTextWriterWriteAttribute(w, BAD_CAST name, BAD_CAST b);
}

static const char *value_type_name(enum fw_value_type t)
{
	switch (t) {
	case FW_VAL_UINT: return "uint";
	case FW_VAL_INT: return "int";
	case FW_VAL_BOOL: return "bool";
	case FW_VAL_STR: return "string";
	case FW_VAL_GUID: return "guid";
	case FW_VAL_BYTES: return "bytes";
	}
	return "string";
}

static void xml_field(xmlTextWriterPtr w, const struct fw_field_value *f)
{
	/* text fields fit the stack buffer (fw_field_text cuts at its size); only hex of bytes is big */
	char small[4096];
	size_t cap = f->type == FW_VAL_BYTES ? f->v.bytes.n * 2 + 1 : sizeof(small);
	char *buf = cap > sizeof(small) ? fw_xmalloc(cap) : small;
	if (buf == small)
		cap = sizeof(small);
	fw_field_text(f, buf, cap);
	xmlTextWriterStartElement(w, BAD_CAST "field");
	xml_attr(w, "name", f->key);
	xml_attr(w, "type", value_type_name(f->type));
	char *cleaned;
	xmlTextWriterWriteString(w, BAD_CAST fw_utf8_clean_view(buf, true, &cleaned));
	free(cleaned);
	if (buf != small)
		free(buf);
	xmlTextWriterEndElement(w);
}

static void xml_node(xmlTextWriterPtr w, const struct fw_node *n, bool crc)
{
	xmlTextWriterStartElement(w, BAD_CAST "node");
	xml_attr(w, "kind", fw_node_kind_name(n->kind));
	xml_attr(w, "type", n->type ? n->type : "");
	if (n->offset != FW_OFFSET_UNKNOWN) {
		xml_attr_u64(w, "offset", n->offset, false);
		xml_attr_u64(w, "offset_hex", n->offset, true);
	}
	xml_attr_u64(w, "size", n->size, false);
	xml_attr_u64(w, "header_size", n->header_size, false);
	if (n->has_guid) {
		char g[FW_GUID_STR_LEN];
		xml_attr(w, "guid", fw_guid_format(&n->guid, g));
	}
	if (n->name)
		xml_attr(w, "name", n->name);
	if (n->text)
		xml_attr(w, "text", n->text);
	if (n->flags) {
		char fl[96];
		xml_attr(w, "flags", fw_node_flags_text(n, fl, sizeof(fl)));
	}
	if (crc) {
		char c[12];
		snprintf(c, sizeof(c), "%08X", fw_crc32(n->data.p, n->data.len));
		xml_attr(w, "crc32", c);
	}
	struct fw_field_iter it;
	for (const struct fw_field_value *f = fw_field_first(&it, n); f; f = fw_field_next(&it))
		xml_field(w, f);
	for (const struct fw_diag *d = n->diags; d; d = d->next) {
		xmlTextWriterStartElement(w, BAD_CAST "diagnostic");
		xml_attr(w, "severity", fw_diag_severity_name(d->severity));
		if (d->offset != FW_OFFSET_UNKNOWN)
			xml_attr_u64(w, "offset", d->offset, false);
		char *cleaned;
		xmlTextWriterWriteString(w, BAD_CAST fw_utf8_clean_view(d->msg, true, &cleaned));
		free(cleaned);
		xmlTextWriterEndElement(w);
	}
	for (const struct fw_node *c = n->first_child; c; c = c->next)
		xml_node(w, c, crc);
	xmlTextWriterEndElement(w);
}

bool fw_tree_write_xml(FILE *f, const struct fw_tree *t, const char *kind, bool crc)
{
	fw_xml_init();
	xmlOutputBufferPtr out = xmlOutputBufferCreateFile(f, NULL);
	if (!out)
		return false;
	xmlTextWriterPtr w = xmlNewTextWriter(out);
	if (!w) {
		xmlOutputBufferClose(out);
		return false;
	}
	xmlTextWriterSetIndent(w, 1);
	xmlTextWriterSetIndentString(w, BAD_CAST "  ");
	xmlTextWriterStartDocument(w, "1.0", "UTF-8", NULL);
	xmlTextWriterStartElement(w, BAD_CAST "fwlens-tree");
	xmlTextWriterStartElement(w, BAD_CAST "input");
	if (t->input_path)
		xml_attr(w, "path", t->input_path);
	xml_attr_u64(w, "size", t->input_len, false);
	char sha[FW_SHA256_HEX_LEN];
	xml_attr(w, "sha256", fw_sha256_hex(t->input, t->input_len, sha));
	xml_attr(w, "kind", kind);
	xmlTextWriterEndElement(w);
	if (t->root)
		xml_node(w, t->root, crc);
	xmlTextWriterEndElement(w);
	bool ok = xmlTextWriterEndDocument(w) >= 0;
	xmlFreeTextWriter(w); /* flushes and closes `out`, not `f` */
	return ok;
}

struct diag_ctx {
	struct fw_cli *cli;
	size_t shown, max, total;
};

static bool diag_visit(struct fw_node *n, void *ctx)
{
	struct diag_ctx *c = ctx;
	for (const struct fw_diag *d = n->diags; d; d = d->next) {
		if (d->severity == FW_DIAG_INFO && c->cli->verbose < 1)
			continue;
		c->total++;
		if (c->shown < c->max) {
			c->shown++;
			fw_log_warn(c->cli, "%s", d->msg);
		}
	}
	return true;
}

void fw_cli_report_diagnostics(struct fw_cli *cli, const struct fw_tree *t, size_t max)
{
	if (!t->root || cli->quiet)
		return;
	struct diag_ctx c = {cli, 0, max, 0};
	fw_node_walk(t->root, diag_visit, &c);
	if (c.total > c.shown)
		fw_log_warn(cli, "%zu more diagnostics (see --format json)", c.total - c.shown);
}
