/* Loading, validating and matching the topic rules. */
#include "topics.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <libxml/parser.h>
#include <libxml/tree.h>
#include <libxml/xmlschemas.h>
#include <stdlib.h>
#include <string.h>

#include "parsers/env.h"
#include "parsers/file.h"
#include "parsers/nearest.h"
#include "user-regex.h"
#include "xml-init.h"

static const char builtin_rules[] =
#include "rules-topics.xml.inc"
	;
/* the SHA-256 of builtin_rules' bytes, taken when they were built in */
static const char builtin_rules_sha256[] =
#include "rules-topics.xml.sha256.inc"
	;
static const char builtin_schema[] =
#include "rules-topics.xsd.inc"
	;

char *fw_topic_normalise(const char *s, char *buf, size_t len)
{
	size_t k = 0;
	bool space = false;
	for (; s && *s && k + 1 < len; s++) {
		unsigned char c = (unsigned char)*s;
		if (isspace(c)) {
			space = k > 0;
			continue;
		}
		if (space && k + 2 < len)
			buf[k++] = ' ';
		space = false;
		buf[k++] = (char)tolower(c);
	}
	buf[k] = '\0';
	return buf;
}

static char *node_text(xmlNodePtr n)
{
	xmlChar *c = xmlNodeGetContent(n);
	char *s = fw_xstrdup(c ? (const char *)c : "");
	xmlFree(c);
	/* explanations are written wrapped in the file: join the lines */
	for (char *p = s; *p; p++)
		if (*p == '\n' || *p == '\t')
			*p = ' ';
	return s;
}

static char *attr(xmlNodePtr n, const char *name)
{
	xmlChar *v = xmlGetProp(n, BAD_CAST name);
	char *s = v ? fw_xstrdup((const char *)v) : NULL;
	xmlFree(v);
	return s;
}

static struct fw_regex *compile(const char *src, const char *where, struct fw_error *err)
{
	struct fw_regex *re = fw_xcalloc(1, sizeof(*re));
	if (!fw_regex_compile(re, src, err)) {
		free(re);
		fw_error_prefix(err, "%s: ", where);
		return NULL;
	}
	return re;
}

static void free_re(struct fw_regex *re)
{
	if (re) {
		fw_regex_free(re);
		free(re);
	}
}

static bool is(xmlNodePtr n, const char *name)
{
	return n->type == XML_ELEMENT_NODE && xmlStrcmp(n->name, BAD_CAST name) == 0;
}

static bool load_setting(xmlNodePtr n, struct fw_topic_setting_rule *r, const char *where, struct fw_error *err)
{
	r->id = attr(n, "id");
	size_t cap = 0;
	for (xmlNodePtr c = n->children; c; c = c->next) {
		if (c->type != XML_ELEMENT_NODE)
			continue;
		char *text = node_text(c);
		char ctx[256];
		snprintf(ctx, sizeof(ctx), "%s: rule %s (line %ld)", where, r->id, xmlGetLineNo(c));
		struct fw_regex **slot = is(c, "prompt-regex")           ? &r->prompt_re
				 : is(c, "help-regex")           ? &r->help_re
				 : is(c, "option-regex")         ? &r->option_re
				 : is(c, "varstore-regex")       ? &r->varstore_re
				 : is(c, "path-regex")           ? &r->path_re
				 : is(c, "exclude-prompt-regex") ? &r->exclude_re
								 : NULL;
		if (is(c, "prompt")) {
			char norm[512];
			if (r->nprompts == cap) {
				cap = cap ? cap * 2 : 4;
				r->prompts = fw_xrealloc(r->prompts, cap * sizeof(char *));
			}
			r->prompts[r->nprompts++] = fw_xstrdup(fw_topic_normalise(text, norm, sizeof(norm)));
		} else if (is(c, "why")) {
			free(r->why);
			r->why = fw_xstrdup(text);
		} else if (slot) {
			*slot = compile(text, ctx, err);
			if (!*slot) {
				free(text);
				return false;
			}
		}
		free(text);
	}
	return true;
}

static bool load_fact(xmlNodePtr n, struct fw_topic_fact_rule *f, const char *where, struct fw_error *err)
{
	f->id = attr(n, "id");
	f->kind = attr(n, "kind");
	f->name = attr(n, "name");
	f->pattern = attr(n, "pattern");
	for (xmlNodePtr c = n->children; c; c = c->next)
		if (is(c, "why"))
			f->why = node_text(c);
	if (f->pattern) {
		char ctx[256];
		snprintf(ctx, sizeof(ctx), "%s: fact %s (line %ld)", where, f->id, xmlGetLineNo(n));
		f->re = compile(f->pattern, ctx, err);
		if (!f->re)
			return false;
	}
	return true;
}

static void schema_error(void *ctx, const char *fmt, ...)
{
	/* keep the first message only: one line is what the user gets */
	char *buf = ctx;
	if (buf[0])
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, 512, fmt, ap);
	va_end(ap);
	buf[strcspn(buf, "\n")] = '\0';
}

static bool validate(xmlDocPtr doc, const char *name, struct fw_error *err)
{
	char msg[512] = "";
	xmlSchemaParserCtxtPtr pc = xmlSchemaNewMemParserCtxt(builtin_schema, (int)sizeof(builtin_schema) - 1);
	xmlSchemaPtr schema = pc ? xmlSchemaParse(pc) : NULL;
	xmlSchemaValidCtxtPtr vc = schema ? xmlSchemaNewValidCtxt(schema) : NULL;
	bool ok = false;
	if (vc) {
		xmlSchemaSetValidErrors(vc, schema_error, schema_error, msg);
		ok = xmlSchemaValidateDoc(vc, doc) == 0;
	} else {
		snprintf(msg, sizeof(msg), "the built-in schema does not load");
	}
	if (vc)
		xmlSchemaFreeValidCtxt(vc);
	if (schema)
		xmlSchemaFree(schema);
	if (pc)
		xmlSchemaFreeParserCtxt(pc);
	if (!ok)
		fw_error_set(err, FW_E_INVALID, "%s: does not follow topics.xsd: %s", name, msg[0] ? msg : "invalid");
	return ok;
}

/* A profile (the schema checked its shape). */
static void load_profile(xmlNodePtr t, struct fw_topics *out)
{
	out->profiles = fw_xrealloc(out->profiles, (out->nprofiles + 1) * sizeof(*out->profiles));
	struct fw_profile *p = &out->profiles[out->nprofiles++];
	memset(p, 0, sizeof(*p));
	p->name = attr(t, "name");
	p->title = attr(t, "title");
	for (xmlNodePtr c = t->children; c; c = c->next) {
		if (!is(c, "goal"))
			continue;
		p->goals = fw_xrealloc(p->goals, (p->ngoals + 1) * sizeof(*p->goals));
		struct fw_profile_goal *g = &p->goals[p->ngoals++];
		memset(g, 0, sizeof(*g));
		g->prompt = attr(c, "prompt");
		g->value = attr(c, "value");
		g->check = attr(c, "check");
		char *min = attr(c, "min");
		if (min) {
			g->has_min = true;
			g->min = strtoull(min, NULL, 10);
			free(min);
		}
		for (xmlNodePtr w = c->children; w; w = w->next)
			if (is(w, "why"))
				g->why = node_text(w);
	}
}

const struct fw_profile *fw_topics_profile(const struct fw_topics *t, const char *name)
{
	for (size_t i = 0; i < t->nprofiles; i++)
		if (strcmp(t->profiles[i].name, name) == 0)
			return &t->profiles[i];
	return NULL;
}

bool fw_topics_load_buffer(const char *xml, size_t len, const char *name, struct fw_topics *out,
			   struct fw_error *err)
{
	memset(out, 0, sizeof(*out));
	if (len > 16u << 20)
		return fw_error_set(err, FW_E_LIMIT, "%s: rules file larger than 16 MiB", name);
	fw_xml_init();
	/* no network, no entity expansion from outside, no DTD loading */
	xmlDocPtr doc = xmlReadMemory(xml, (int)len, name, NULL, XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING);
	if (!doc) {
		const xmlError *e = xmlGetLastError();
		return fw_error_set(err, FW_E_INVALID, "%s: not well-formed XML%s%s", name, e && e->message ? ": " : "",
				    e && e->message ? e->message : "");
	}
	if (!validate(doc, name, err)) {
		xmlFreeDoc(doc);
		return false;
	}
	out->source = fw_xstrdup(name);
	xmlNodePtr root = xmlDocGetRootElement(doc);
	size_t cap = 0;
	bool ok = true;
	for (xmlNodePtr t = root->children; t && ok; t = t->next) {
		if (is(t, "profile")) {
			load_profile(t, out);
			continue;
		}
		if (!is(t, "topic"))
			continue;
		if (out->count == cap) {
			cap = cap ? cap * 2 : 8;
			out->topics = fw_xrealloc(out->topics, cap * sizeof(*out->topics));
		}
		struct fw_topic *tp = &out->topics[out->count++];
		memset(tp, 0, sizeof(*tp));
		tp->name = attr(t, "name");
		tp->title = attr(t, "title");
		size_t scap = 0, fcap = 0;
		for (xmlNodePtr c = t->children; c && ok; c = c->next) {
			if (is(c, "description")) {
				tp->description = node_text(c);
			} else if (is(c, "setting")) {
				if (tp->nsettings == scap) {
					scap = scap ? scap * 2 : 8;
					tp->settings = fw_xrealloc(tp->settings, scap * sizeof(*tp->settings));
				}
				memset(&tp->settings[tp->nsettings], 0, sizeof(tp->settings[0]));
				ok = load_setting(c, &tp->settings[tp->nsettings++], name, err);
			} else if (is(c, "fact")) {
				if (tp->nfacts == fcap) {
					fcap = fcap ? fcap * 2 : 8;
					tp->facts = fw_xrealloc(tp->facts, fcap * sizeof(*tp->facts));
				}
				memset(&tp->facts[tp->nfacts], 0, sizeof(tp->facts[0]));
				ok = load_fact(c, &tp->facts[tp->nfacts++], name, err);
			}
		}
	}
	xmlFreeDoc(doc);
	if (!ok)
		fw_topics_free(out);
	return ok;
}

bool fw_topics_load(const char *path, struct fw_topics *out, struct fw_error *err)
{
	if (!path || !*path)
		path = fw_env()->rules;
	if (!path || !*path)
		return fw_topics_load_buffer(builtin_rules, sizeof(builtin_rules) - 1, "built-in", out, err);
	struct fw_file f;
	if (!fw_file_read(path, 16u << 20, &f, err))
		return false;
	bool ok = fw_topics_load_buffer((const char *)f.data, f.len, path, out, err);
	fw_file_close(&f);
	return ok;
}

bool fw_topics_rules_sha256(const char *path, char out[FW_SHA256_HEX_LEN], struct fw_error *err)
{
	if (!path || !*path)
		path = fw_env()->rules;
	if (!path || !*path) {
		snprintf(out, FW_SHA256_HEX_LEN, "%s", builtin_rules_sha256);
		return true;
	}
	struct fw_file f;
	if (!fw_file_read(path, 16u << 20, &f, err))
		return false;
	fw_sha256_hex(f.data, f.len, out);
	fw_file_close(&f);
	return true;
}

void fw_topics_free(struct fw_topics *t)
{
	for (size_t i = 0; i < t->count; i++) {
		struct fw_topic *tp = &t->topics[i];
		for (size_t k = 0; k < tp->nsettings; k++) {
			struct fw_topic_setting_rule *r = &tp->settings[k];
			free(r->id);
			free(r->why);
			for (size_t p = 0; p < r->nprompts; p++)
				free(r->prompts[p]);
			free(r->prompts);
			free_re(r->prompt_re);
			free_re(r->help_re);
			free_re(r->option_re);
			free_re(r->varstore_re);
			free_re(r->path_re);
			free_re(r->exclude_re);
		}
		for (size_t k = 0; k < tp->nfacts; k++) {
			struct fw_topic_fact_rule *f = &tp->facts[k];
			free(f->id);
			free(f->kind);
			free(f->name);
			free(f->pattern);
			free(f->why);
			free_re(f->re);
		}
		free(tp->settings);
		free(tp->facts);
		free(tp->name);
		free(tp->title);
		free(tp->description);
	}
	for (size_t i = 0; i < t->nprofiles; i++) {
		struct fw_profile *p = &t->profiles[i];
		for (size_t k = 0; k < p->ngoals; k++) {
			free(p->goals[k].prompt);
			free(p->goals[k].value);
			free(p->goals[k].check);
			free(p->goals[k].why);
		}
		free(p->goals);
		free(p->name);
		free(p->title);
	}
	free(t->profiles);
	free(t->topics);
	free(t->source);
	memset(t, 0, sizeof(*t));
}

const struct fw_topic *fw_topics_find(const struct fw_topics *t, const char *name)
{
	for (size_t i = 0; i < t->count; i++)
		if (strcmp(t->topics[i].name, name) == 0)
			return &t->topics[i];
	return NULL;
}

static bool re_ok(struct fw_regex *re, const char *s)
{
	return !re || (s && fw_regex_match(re, s));
}

const struct fw_topic_setting_rule *fw_topic_match(const struct fw_topic *t, const struct fw_topic_subject *s)
{
	char norm[512];
	fw_topic_normalise(s->prompt, norm, sizeof(norm));
	for (size_t i = 0; i < t->nsettings; i++) {
		const struct fw_topic_setting_rule *r = &t->settings[i];
		if (r->nprompts) {
			bool any = false;
			for (size_t p = 0; p < r->nprompts && !any; p++)
				any = strcmp(r->prompts[p], norm) == 0;
			if (!any)
				continue;
		}
		if (!re_ok(r->prompt_re, s->prompt) || !re_ok(r->help_re, s->help) || !re_ok(r->varstore_re, s->varstore) ||
		    !re_ok(r->path_re, s->path))
			continue;
		if (r->exclude_re && s->prompt && fw_regex_match(r->exclude_re, s->prompt))
			continue;
		if (r->option_re) {
			bool any = false;
			for (size_t o = 0; o < s->noptions && !any; o++)
				any = fw_regex_match(r->option_re, s->options[o]);
			if (!any)
				continue;
		}
		return r;
	}
	return NULL;
}

static bool limit_ok(const struct fw_regex *re, const char *topic, const char *rule, struct fw_error *err)
{
	if (!re || !re->limit_hit)
		return true;
	fw_regex_limit_error(re, FW_E_INVALID, err);
	fw_error_prefix(err, "topic %s, rule %s: ", topic, rule ? rule : "(no id)");
	return false;
}

bool fw_topics_limits_ok(const struct fw_topic *const *topics, size_t n, struct fw_error *err)
{
	for (size_t t = 0; t < n; t++) {
		const struct fw_topic *tp = topics[t];
		for (size_t i = 0; i < tp->nsettings; i++) {
			const struct fw_topic_setting_rule *r = &tp->settings[i];
			const struct fw_regex *all[] = {r->prompt_re, r->help_re, r->option_re, r->varstore_re, r->path_re,
							r->exclude_re};
			for (size_t k = 0; k < sizeof(all) / sizeof(all[0]); k++)
				if (!limit_ok(all[k], tp->name, r->id, err))
					return false;
		}
		for (size_t i = 0; i < tp->nfacts; i++)
			if (!limit_ok(tp->facts[i].re, tp->name, tp->facts[i].id, err))
				return false;
	}
	return true;
}

bool fw_topics_select(const struct fw_topics *t, const char *csv, const struct fw_topic ***out, size_t *n,
		      struct fw_error *err)
{
	*out = NULL;
	*n = 0;
	if (!csv || strcmp(csv, "all") == 0) {
		*out = fw_xcalloc(t->count ? t->count : 1, sizeof(**out));
		for (size_t i = 0; i < t->count; i++)
			(*out)[(*n)++] = &t->topics[i];
		return true;
	}
	char *copy = fw_xstrdup(csv), *save = NULL;
	size_t cap = 0;
	for (char *name = strtok_r(copy, ",", &save); name; name = strtok_r(NULL, ",", &save)) {
		while (*name == ' ')
			name++;
		const struct fw_topic *tp = fw_topics_find(t, name);
		if (!tp) {
			char known[512] = "";
			for (size_t i = 0; i < t->count; i++) {
				strncat(known, i ? ", " : "", sizeof(known) - strlen(known) - 1);
				strncat(known, t->topics[i].name, sizeof(known) - strlen(known) - 1);
			}
			const char *names[64];
			size_t nn = 0;
			for (size_t i = 0; i < t->count && nn < 64; i++)
				names[nn++] = t->topics[i].name;
			const char *near = fw_nearest(name, names, nn);
			if (near)
				fw_error_set(err, FW_E_USAGE, "unknown topic '%s'; did you mean '%s'? (topics: %s)", name, near, known);
			else
				fw_error_set(err, FW_E_USAGE, "unknown topic '%s' (topics: %s)", name, known);
			free(copy);
			free(*out);
			*out = NULL;
			*n = 0;
			return false;
		}
		bool dup = false;
		for (size_t i = 0; i < *n; i++)
			dup = dup || (*out)[i] == tp;
		if (dup)
			continue;
		if (*n == cap) {
			cap = cap ? cap * 2 : 8;
			*out = fw_xrealloc(*out, cap * sizeof(**out));
		}
		(*out)[(*n)++] = tp;
	}
	free(copy);
	return true;
}
