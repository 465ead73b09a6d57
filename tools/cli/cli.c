/* Command dispatch, logging, errors, colours and the JSON, JSONL and XML document printers shared
 * by every command. Options are in options.c, output files in output-file.c, the text filter in
 * text-filter.c, progress in progress.c. */
#include "cli-internal.h"

#include <libxml/xmlmemory.h>
#include <libxml/tree.h>
#include <libxml/xmlsave.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "parsers/utf8.h"
#include "term-escape.h"
#include "tools/query/xml-init.h"

/* --- logging --------------------------------------------------------------------------------- */

/* A diagnostic is one line whatever names it quotes: line feeds, escape sequences and bytes that
 * are not UTF-8 in a hostile name are shown escaped (term-escape.h). */
static void put_message(const char *msg)
{
	fw_term_escape(stderr, msg, strlen(msg), 0, true);
	fputc('\n', stderr);
}

static void vlog(const struct fw_cli *cli, const char *prefix, const char *color, const char *fmt, va_list ap)
{
	bool c = cli && cli->err_color;
	char msg[FW_ERROR_MSG_MAX];
	vsnprintf(msg, sizeof(msg), fmt, ap);
	fw_cli_stderr_begin();
	fprintf(stderr, "%sfwlens%s%s: %s%s", c ? color : "", cli && cli->cmd ? " " : "",
		cli && cli->cmd ? cli->cmd->name : "", prefix, c ? "\033[0m" : "");
	put_message(msg);
	fw_cli_stderr_end();
}

void fw_log_warn(const struct fw_cli *cli, const char *fmt, ...)
{
	if (cli && cli->quiet)
		return;
	va_list ap;
	va_start(ap, fmt);
	vlog(cli, "warning: ", "\033[33m", fmt, ap);
	va_end(ap);
}

void fw_log_info(const struct fw_cli *cli, const char *fmt, ...)
{
	if (!cli || cli->verbose < 1 || cli->quiet)
		return;
	va_list ap;
	va_start(ap, fmt);
	vlog(cli, "", "\033[2m", fmt, ap);
	va_end(ap);
}

void fw_log_debug(const struct fw_cli *cli, const char *fmt, ...)
{
	if (!cli || cli->verbose < 2 || cli->quiet)
		return;
	va_list ap;
	va_start(ap, fmt);
	vlog(cli, "debug: ", "\033[2m", fmt, ap);
	va_end(ap);
}

json_t *fw_cli_json_offset(uint64_t offset)
{
	return offset == UINT64_MAX ? json_null() : json_integer((json_int_t)offset);
}

int fw_cli_fail(struct fw_cli *cli, const struct fw_error *err)
{
	bool c = cli && cli->err_color;
	fw_cli_stderr_begin();
	fprintf(stderr, "%sfwlens%s%s: error:%s ", c ? "\033[31m" : "", cli && cli->cmd ? " " : "",
		cli && cli->cmd ? cli->cmd->name : "", c ? "\033[0m" : "");
	put_message(err->msg[0] ? err->msg : fw_error_code_name(err->code));
	fw_cli_stderr_end();
	return fw_error_exit_code(err);
}

int fw_cli_usage_error(struct fw_cli *cli, const char *fmt, ...)
{
	char msg[FW_ERROR_MSG_MAX];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	fw_cli_stderr_begin();
	fprintf(stderr, "fwlens%s%s: ", cli && cli->cmd ? " " : "", cli && cli->cmd ? cli->cmd->name : "");
	put_message(msg);
	if (cli && cli->cmd)
		fprintf(stderr, "usage: fwlens %s %s\n(see 'fwlens help %s')\n", cli->cmd->name, cli->cmd->synopsis,
			cli->cmd->name);
	fw_cli_stderr_end();
	return FW_EXIT_USAGE;
}

void fw_cli_print_json(struct fw_cli *cli, json_t *doc)
{
	FILE *f = fw_cli_out(cli);
	fw_json_dumpf(doc, f, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	fputc('\n', f);
	json_decref(doc);
}

void fw_cli_print_jsonl(struct fw_cli *cli, json_t *value)
{
	FILE *f = fw_cli_out(cli);
	fw_json_dumpf(value, f, JSON_COMPACT | JSON_PRESERVE_ORDER);
	fputc('\n', f);
	json_decref(value);
}

static void xml_name(const char *key, char *out, size_t len)
{
	size_t k = 0;
	for (const char *p = key; *p && k + 1 < len; p++) {
		unsigned char c = (unsigned char)*p;
		bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' ||
			  (k > 0 && ((c >= '0' && c <= '9') || c == '-' || c == '.'));
		out[k++] = ok ? (char)c : '_';
	}
	if (k == 0)
		out[k++] = '_';
	out[k] = '\0';
}

static void singular(const char *key, char *out, size_t len)
{
	size_t n = strlen(key);
	if (n > 3 && strcmp(key + n - 3, "ies") == 0)
		snprintf(out, len, "%.*sy", (int)(n - 3), key);
	else if (n > 6 && strcmp(key + n - 6, "ndices") == 0)
		snprintf(out, len, "%.*sndex", (int)(n - 6), key);
	else if (n > 4 && (strcmp(key + n - 4, "sses") == 0 || strcmp(key + n - 4, "ches") == 0))
		snprintf(out, len, "%.*s", (int)(n - 2), key);
	else if (n > 1 && key[n - 1] == 's' && key[n - 2] != 's')
		snprintf(out, len, "%.*s", (int)(n - 1), key);
	else if (strcmp(key, "children") == 0)
		snprintf(out, len, "node");
	else
		snprintf(out, len, "item");
}

/* The member's own name when it is not an XML name (keys may come from firmware). */
static void xml_key(xmlNodePtr el, const char *key)
{
	char *cleaned = NULL;
	xmlNewProp(el, BAD_CAST "key", BAD_CAST fw_utf8_clean_view(key, true, &cleaned));
	free(cleaned);
}

static void json_to_xml(xmlNodePtr parent, const char *key, json_t *v)
{
	char name[128];
	xml_name(key, name, sizeof(name));
	if (json_is_array(v)) {
		char item[128];
		singular(name, item, sizeof(item));
		xmlNodePtr list = xmlNewChild(parent, NULL, BAD_CAST name, NULL);
		size_t i;
		json_t *e;
		json_array_foreach(v, i, e) json_to_xml(list, item, e);
		return;
	}
	if (json_is_object(v)) {
		xmlNodePtr el = xmlNewChild(parent, NULL, BAD_CAST name, NULL);
		if (strcmp(name, key) != 0)
			xml_key(el, key);
		const char *k;
		json_t *e;
		json_object_foreach(v, k, e) json_to_xml(el, k, e);
		return;
	}
	char buf[64];
	const char *text = NULL;
	if (json_is_string(v))
		text = json_string_value(v);
	else if (json_is_integer(v)) {
		snprintf(buf, sizeof(buf), "%lld", (long long)json_integer_value(v));
		text = buf;
	} else if (json_is_real(v)) {
		snprintf(buf, sizeof(buf), "%g", json_real_value(v));
		text = buf;
	} else if (json_is_true(v))
		text = "true";
	else if (json_is_false(v))
		text = "false";
	/* the characters XML 1.0 forbids (C0 controls but tab, LF and CR) become U+FFFD */
	char *cleaned = NULL;
	xmlNodePtr el = xmlNewTextChild(parent, NULL, BAD_CAST name, text ? BAD_CAST fw_utf8_clean_view(text, true, &cleaned) : NULL);
	free(cleaned);
	if (strcmp(name, key) != 0)
		xml_key(el, key);
	if (json_is_null(v))
		xmlNewProp(el, BAD_CAST "null", BAD_CAST "true");
}

void fw_cli_print_json_as_xml(struct fw_cli *cli, json_t *doc, const char *root_name)
{
	fw_xml_init();
	fw_json_make_utf8(doc); /* NAME_hex members for strings that are not UTF-8, as in JSON */
	xmlDocPtr x = xmlNewDoc(BAD_CAST "1.0");
	xmlNodePtr root = xmlNewNode(NULL, BAD_CAST root_name);
	xmlDocSetRootElement(x, root);
	if (json_is_object(doc)) {
		const char *k;
		json_t *e;
		json_object_foreach(doc, k, e) json_to_xml(root, k, e);
	} else {
		json_to_xml(root, "value", doc);
	}
	xmlChar *mem = NULL;
	int size = 0;
	xmlDocDumpFormatMemoryEnc(x, &mem, &size, "UTF-8", 1);
	fwrite(mem, 1, (size_t)size, fw_cli_out(cli));
	xmlFree(mem);
	xmlFreeDoc(x);
	json_decref(doc);
}

void fw_cli_print_json_stream(struct fw_cli *cli, const struct fw_json_stream *s)
{
	FILE *f = fw_cli_out(cli);
	fw_json_stream_dumpf(s, f, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	fputc('\n', f);
}

/* libxml2's formatted layout (xmlsave.c), written piece by piece: each child of an element
 * whose children are all elements on a line of its own, indented two spaces a level; the list's
 * items are converted, written and freed one at a time. */
struct xml_stream {
	xmlOutputBufferPtr out;
	xmlDocPtr doc;
	const struct fw_json_stream *s;
};

static void xml_indent(struct xml_stream *x, int level)
{
	for (int i = 0; i < level && i < 30; i++) /* libxml2 indents no deeper than 30 levels */
		xmlOutputBufferWriteString(x->out, "  ");
}

/* The start tag of el as libxml2 writes it (its attributes too): el's copy without children,
 * which dumps as <name .../>, with the "/>" made ">". */
static void xml_start_tag(struct xml_stream *x, xmlNodePtr el)
{
	xmlNodePtr bare = xmlDocCopyNode(el, x->doc, 2);
	xmlBufferPtr b = xmlBufferCreate();
	xmlNodeDump(b, x->doc, bare, 0, 0);
	const char *t = (const char *)xmlBufferContent(b);
	int n = xmlBufferLength(b);
	xmlOutputBufferWrite(x->out, n >= 2 ? n - 2 : n, t);
	xmlOutputBufferWriteString(x->out, ">");
	xmlBufferFree(b);
	xmlFreeNode(bare);
}

static void xml_end_tag(struct xml_stream *x, xmlNodePtr el, int level)
{
	xml_indent(x, level);
	xmlOutputBufferWriteString(x->out, "</");
	xmlOutputBufferWriteString(x->out, (const char *)el->name);
	xmlOutputBufferWriteString(x->out, ">");
}

static void xml_stream_element(struct xml_stream *x, xmlNodePtr el, int level, xmlNodePtr list, size_t outer);

/* The members of o as children of el, but the array named `list`: an empty element in its
 * place, returned (NULL when o has no such array), for its items to be streamed into. */
static xmlNodePtr members_to_xml(xmlNodePtr el, json_t *o, const char *list)
{
	xmlNodePtr at = NULL;
	const char *k;
	json_t *e;
	json_object_foreach(o, k, e) {
		if (!at && strcmp(k, list) == 0 && json_is_array(e)) {
			char name[128];
			xml_name(k, name, sizeof(name));
			at = xmlNewChild(el, NULL, BAD_CAST name, NULL);
		} else {
			json_to_xml(el, k, e);
		}
	}
	return at;
}

/* The list element at `level`: the stream's items (outer (size_t)-1) or the sub list's of the
 * item whose cursor is `outer`, each converted under it, written and freed. */
static void xml_stream_list(struct xml_stream *x, xmlNodePtr list, int level, size_t outer)
{
	const struct fw_json_stream *s = x->s;
	bool top = outer == (size_t)-1;
	size_t pos = 0;
	json_t *item = top ? s->next(s->ctx, &pos) : s->sub_next(s->ctx, outer, &pos);
	if (!item) {
		xmlNodeDumpOutput(x->out, x->doc, list, level, 1, "UTF-8");
		return;
	}
	char name[128];
	singular((const char *)list->name, name, sizeof(name));
	xml_start_tag(x, list);
	xmlOutputBufferWriteString(x->out, "\n");
	while (item) {
		fw_json_make_utf8(item);
		bool sub = top && s->sublist && json_is_object(item);
		xmlNodePtr el, inner = NULL;
		if (sub) {
			/* the item's members but its own list, which is streamed in its place */
			el = xmlNewChild(list, NULL, BAD_CAST name, NULL); /* a clean name: no "key" attribute */
			inner = members_to_xml(el, item, s->sublist);
		} else {
			json_to_xml(list, name, item);
			el = list->last;
		}
		json_decref(item);
		xml_indent(x, level + 1);
		if (sub && inner)
			xml_stream_element(x, el, level + 1, inner, pos);
		else
			xmlNodeDumpOutput(x->out, x->doc, el, level + 1, 1, "UTF-8");
		xmlOutputBufferWriteString(x->out, "\n");
		xmlUnlinkNode(el);
		xmlFreeNode(el);
		item = top ? s->next(s->ctx, &pos) : s->sub_next(s->ctx, outer, &pos);
	}
	xml_end_tag(x, list, level);
}

/* el (all of whose children are elements) at `level`, its child `list` streamed. */
static void xml_stream_element(struct xml_stream *x, xmlNodePtr el, int level, xmlNodePtr list, size_t outer)
{
	if (!el->children) {
		xmlNodeDumpOutput(x->out, x->doc, el, level, 1, "UTF-8");
		return;
	}
	xml_start_tag(x, el);
	xmlOutputBufferWriteString(x->out, "\n");
	for (xmlNodePtr c = el->children; c; c = c->next) {
		xml_indent(x, level + 1);
		if (c == list)
			xml_stream_list(x, c, level + 1, outer);
		else
			xmlNodeDumpOutput(x->out, x->doc, c, level + 1, 1, "UTF-8");
		xmlOutputBufferWriteString(x->out, "\n");
	}
	xml_end_tag(x, el, level);
}

void fw_cli_print_json_stream_as_xml(struct fw_cli *cli, const struct fw_json_stream *s, const char *root_name)
{
	fw_xml_init();
	json_t *head = s->head;
	fw_json_make_utf8(head);
	xmlDocPtr doc = xmlNewDoc(BAD_CAST "1.0");
	doc->encoding = xmlStrdup(BAD_CAST "UTF-8"); /* as a whole-document dump sets it: raw UTF-8 in attributes */
	xmlNodePtr root = xmlNewNode(NULL, BAD_CAST root_name);
	xmlDocSetRootElement(doc, root);
	xmlNodePtr list = members_to_xml(root, head, s->list);
	json_decref(head);
	struct xml_stream x = {xmlOutputBufferCreateFile(fw_cli_out(cli), NULL), doc, s};
	xmlOutputBufferWriteString(x.out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
	xml_stream_element(&x, root, 0, list, (size_t)-1);
	xmlOutputBufferWriteString(x.out, "\n");
	xmlOutputBufferClose(x.out);
	xmlFreeDoc(doc);
}

/* --- dispatch -------------------------------------------------------------------------------- */

static void print_version(void)
{
	printf("fwlens %s\n", FWLENS_VERSION);
}

int fw_cli_main(int argc, char **argv)
{
	/* jansson and libxml2 allocate through the same helpers: out of memory is one line and exit 4
	 * there too, not a NULL dereferenced deep inside a library */
	json_set_alloc_funcs(fw_xmalloc, free);
	xmlMemSetup(free, fw_xmalloc, fw_xrealloc, fw_xstrdup);
	struct fw_cli cli;
	memset(&cli, 0, sizeof(cli));
	cli.err_color = fw_cli_color_wanted(NULL, STDERR_FILENO);
	if (argc < 2) {
		fw_cli_print_usage(stderr);
		return FW_EXIT_USAGE;
	}
	const char *name = argv[1];
	if (strcmp(name, "--help") == 0 || strcmp(name, "-h") == 0) {
		fw_cli_print_usage(stdout);
		return FW_EXIT_OK;
	}
	if (strcmp(name, "--version") == 0 || strcmp(name, "-V") == 0)
		name = "version";
	cli.cmd = fw_cli_find(name);
	if (!cli.cmd) {
		char *shown = fw_term_escape_string(name, 0);
		fprintf(stderr, "fwlens: '%s' is not a fwlens command. See 'fwlens help'.\n", shown);
		free(shown);
		fw_cli_suggest_command(name);
		return FW_EXIT_USAGE;
	}
	char program[64];
	snprintf(program, sizeof(program), "fwlens %s", cli.cmd->name);
	fw_error_set_program(program);
	fw_cli_catch_signals();
	int rc = fw_cli_parse_args(&cli, argc - 2, argv + 2);
	if (rc != 0) {
		rc = rc < 0 ? fw_cli_finish_output(&cli, FW_EXIT_OK) : rc;
		goto out;
	}
	struct fw_error err;
	fw_error_clear(&err);
	if (!fw_cli_open_output(&cli, &err)) {
		rc = fw_cli_fail(&cli, &err);
		goto out;
	}
	if (fw_cli_text_format(&cli))
		fw_cli_open_text_filter(&cli);
	fw_log_debug(&cli, "format %s, output %s, colour %s, progress %s", cli.format ? cli.format : "-",
		     cli.output_path ? cli.output_path : "standard output", cli.color ? "on" : "off",
		     cli.show_progress ? "on a terminal" : "off");
	struct timespec t0;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	rc = cli.cmd->run(&cli);
	fw_cli_progress_done(&cli);
	rc = fw_cli_finish_output(&cli, rc);
	fw_log_info(&cli, "done in %.2f s, exit status %d", fw_cli_seconds_since(&t0), rc);
out:
	free(cli.values);
	free(cli.given);
	free(cli.counts);
	free(cli.argv);
	(void)print_version;
	return rc;
}
