/* Kernel command line options as a plan (plan-kernel-arg.h). */
#include "plan-kernel-arg.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plan.h"

#define WORDS_MAX 512 /* words of one command line considered */

const char *fw_boot_loader_name(enum fw_boot_loader l)
{
	switch (l) {
	case FW_LOADER_PROXMOX: return "proxmox-boot-tool";
	case FW_LOADER_GRUB: return "grub";
	case FW_LOADER_KERNEL_INSTALL: return "kernel-install";
	}
	return "?";
}

static const char *refresh_command(enum fw_boot_loader l)
{
	switch (l) {
	case FW_LOADER_PROXMOX: return "proxmox-boot-tool refresh";
	case FW_LOADER_GRUB: return "update-grub";
	case FW_LOADER_KERNEL_INSTALL: return "kernel-install add KVER IMAGE (the running kernel)";
	}
	return "?";
}

/* An option word the plan can carry: printable ASCII without blanks, quotes, backslash, '$' or
 * '`' (the script and GRUB's shell-sourced file hold it inside double quotes). */
static bool plain_word(const char *w, size_t *bad)
{
	for (size_t i = 0; w[i]; i++) {
		unsigned char c = (unsigned char)w[i];
		if (c <= 0x20 || c >= 0x7F || strchr("\"'\\$`", c)) {
			*bad = i;
			return false;
		}
	}
	return w[0] != '\0' && w[0] != '=';
}

/* What the kernel keys an occurrence by: the name with '-' as '_', and for the options read once
 * per occurrence (pci=, console=) the sub-option too. */
static void ident(const char *word, size_t len, char *out, size_t cap)
{
	size_t k = 0;
	const char *eq = memchr(word, '=', len);
	size_t name = eq ? (size_t)(eq - word) : len;
	for (size_t i = 0; i < name && k + 1 < cap; i++)
		out[k++] = word[i] == '-' ? '_' : word[i];
	out[k] = '\0';
	if (eq && (strcmp(out, "pci") == 0 || strcmp(out, "console") == 0)) {
		const char *v = eq + 1, *end = word + len;
		const char *sub = memchr(v, '=', (size_t)(end - v));
		size_t sl = (size_t)((sub ? sub : end) - v);
		snprintf(out + k, cap - k, "=%.*s", (int)sl, v);
	}
}

struct words {
	const char *w[WORDS_MAX];
	size_t len[WORDS_MAX];
	size_t n;
};

static void split(const char *line, struct words *ws)
{
	ws->n = 0;
	for (const char *p = line; *p && ws->n < WORDS_MAX;) {
		while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
			p++;
		if (!*p)
			break;
		const char *s = p;
		while (*p && !strchr(" \t\n\r", *p))
			p++;
		ws->w[ws->n] = s;
		ws->len[ws->n++] = (size_t)(p - s);
	}
}

/* Whether the occurrence `w` is one a removal `spec` takes away: by name when spec has no '=',
 * else the same sub-option (pci=, console=) or the same word. */
static bool removes(const char *spec, const char *w, size_t len)
{
	char a[256], b[256];
	ident(w, len, a, sizeof(a));
	if (!strchr(spec, '=')) {
		ident(spec, strlen(spec), b, sizeof(b));
		char *eq = strchr(a, '=');
		if (eq)
			*eq = '\0';
		return strcmp(a, b) == 0;
	}
	ident(spec, strlen(spec), b, sizeof(b));
	if (strchr(b, '='))
		return strcmp(a, b) == 0;
	return strlen(spec) == len && memcmp(spec, w, len) == 0;
}

bool fw_karg_line_has(const char *line, const struct fw_karg *a)
{
	struct words ws;
	split(line ? line : "", &ws);
	if (a->remove) {
		for (size_t i = 0; i < ws.n; i++)
			if (removes(a->word, ws.w[i], ws.len[i]))
				return false;
		return true;
	}
	char want[256], got[256];
	ident(a->word, strlen(a->word), want, sizeof(want));
	const char *last = NULL;
	size_t lastlen = 0;
	for (size_t i = 0; i < ws.n; i++) {
		ident(ws.w[i], ws.len[i], got, sizeof(got));
		if (strcmp(got, want) == 0)
			last = ws.w[i], lastlen = ws.len[i];
	}
	return last && lastlen == strlen(a->word) && memcmp(last, a->word, lastlen) == 0;
}

/* `line` with the occurrences the plan replaces or removes left out, and (append) the added
 * options the line does not have yet at the end. `whole` is the command line the kernel sees,
 * which decides what is had already. */
static char *edit_words(const char *line, const char *whole, const struct fw_karg_plan *p, bool append)
{
	struct words ws;
	split(line, &ws);
	size_t cap = strlen(line) + 2;
	for (size_t k = 0; k < p->n; k++)
		cap += strlen(p->args[k].word) + 1;
	char *out = fw_xmalloc(cap);
	out[0] = '\0';
	for (size_t i = 0; i < ws.n; i++) {
		bool drop = false;
		for (size_t k = 0; k < p->n && !drop; k++) {
			const struct fw_karg *a = &p->args[k];
			if (fw_karg_line_has(whole, a))
				continue; /* in place: its occurrences stay as they are */
			if (a->remove) {
				drop = removes(a->word, ws.w[i], ws.len[i]);
			} else {
				char x[256], y[256];
				ident(a->word, strlen(a->word), x, sizeof(x));
				ident(ws.w[i], ws.len[i], y, sizeof(y));
				drop = strcmp(x, y) == 0;
			}
		}
		if (!drop)
			snprintf(out + strlen(out), cap - strlen(out), "%s%.*s", out[0] ? " " : "", (int)ws.len[i], ws.w[i]);
	}
	for (size_t k = 0; append && k < p->n; k++)
		if (!p->args[k].remove && !fw_karg_line_has(whole, &p->args[k]))
			snprintf(out + strlen(out), cap - strlen(out), "%s%s", out[0] ? " " : "", p->args[k].word);
	return out;
}

/* The running command line without what the boot loader adds (BOOT_IMAGE=, initrd=). */
static char *running_options(const char *cmdline)
{
	struct words ws;
	split(cmdline, &ws);
	char *out = fw_xmalloc(strlen(cmdline) + 1);
	out[0] = '\0';
	for (size_t i = 0; i < ws.n; i++) {
		if ((ws.len[i] >= 11 && memcmp(ws.w[i], "BOOT_IMAGE=", 11) == 0) ||
		    (ws.len[i] >= 7 && memcmp(ws.w[i], "initrd=", 7) == 0))
			continue;
		size_t used = strlen(out);
		snprintf(out + used, strlen(cmdline) + 1 - used, "%s%.*s", used ? " " : "", (int)ws.len[i], ws.w[i]);
	}
	return out;
}

/* Same words in the same order (blanks between them do not count). */
static bool same_words(const char *a, const char *b)
{
	struct words x, y;
	split(a, &x);
	split(b, &y);
	if (x.n != y.n)
		return false;
	for (size_t i = 0; i < x.n; i++)
		if (x.len[i] != y.len[i] || memcmp(x.w[i], y.w[i], x.len[i]) != 0)
			return false;
	return true;
}

/* A GRUB variable line: its number, text and value; the value must be a plain string. */
struct grub_var {
	unsigned line;
	char *text, *value;
};

static bool grub_value(const char *rel, unsigned ln, const char *name, const char *rhs, char **value, struct fw_error *err)
{
	char q = rhs[0] == '"' || rhs[0] == '\'' ? rhs[0] : 0;
	const char *v = rhs + (q ? 1 : 0);
	const char *end = q ? strchr(v, q) : v + strcspn(v, " \t#");
	if (!end)
		return fw_error_set(err, FW_E_INVALID, "%s line %u: %s has no closing quote: edit it by hand", rel, ln, name);
	const char *rest = end + (q ? 1 : 0);
	rest += strspn(rest, " \t");
	if (*rest && *rest != '#')
		return fw_error_set(err, FW_E_INVALID, "%s line %u: %s is followed by more shell text: edit it by hand", rel,
				    ln, name);
	for (const char *c = v; c < end; c++)
		if ((unsigned char)*c < 0x20 || strchr("\"'\\$`", *c))
			return fw_error_set(err, FW_E_INVALID, "%s line %u: %s is not a plain string (byte %u is '%c'): edit "
					    "it by hand", rel, ln, name, (unsigned)(c - rhs), *c >= 0x20 ? *c : '?');
	*value = fw_xstrndup(v, (size_t)(end - v));
	return true;
}

/* The last assignment of `name` in the file (the shell that sources it keeps the last). */
static bool grub_find(const char *rel, const char *text, const char *name, struct grub_var *out, struct fw_error *err)
{
	memset(out, 0, sizeof(*out));
	unsigned ln = 0;
	for (const char *p = text; *p;) {
		const char *eol = strchr(p, '\n');
		size_t len = eol ? (size_t)(eol - p) : strlen(p);
		ln++;
		char *line = fw_xstrndup(p, len);
		const char *s = line + strspn(line, " \t");
		if (strncmp(s, "export ", 7) == 0)
			s += 7 + strspn(s + 7, " \t");
		size_t nl = strlen(name);
		if (strncmp(s, name, nl) == 0 && s[nl] == '=') {
			char *value = NULL;
			if (!grub_value(rel, ln, name, s + nl + 1, &value, err)) {
				free(line);
				free(out->text), free(out->value);
				return false;
			}
			free(out->text), free(out->value);
			out->line = ln, out->text = line, out->value = value;
		} else {
			free(line);
		}
		p += len + (eol ? 1 : 0);
	}
	return true;
}

static void add_edit(struct fw_karg_plan *p, unsigned line, const char *old, char *new_)
{
	struct fw_karg_edit *e = &p->edits[p->nedits++];
	e->line = line;
	e->old = old ? fw_xstrdup(old) : NULL;
	e->new_ = new_;
}

/* GRUB: GRUB_CMDLINE_LINUX then GRUB_CMDLINE_LINUX_DEFAULT make the command line; removals and
 * replaced occurrences leave both, additions go to the second. */
static bool plan_grub(struct fw_karg_plan *p, const char *text, struct fw_error *err)
{
	struct grub_var lin, def;
	if (!grub_find(p->file, text, "GRUB_CMDLINE_LINUX", &lin, err))
		return false;
	if (!grub_find(p->file, text, "GRUB_CMDLINE_LINUX_DEFAULT", &def, err)) {
		free(lin.text), free(lin.value);
		return false;
	}
	char *whole = fw_xasprintf("%s %s", lin.value ? lin.value : "", def.value ? def.value : "");
	for (size_t k = 0; k < p->n; k++)
		p->args[k].in_file = fw_karg_line_has(whole, &p->args[k]);
	if (lin.text) {
		char *v = edit_words(lin.value, whole, p, false);
		if (strcmp(v, lin.value) != 0)
			add_edit(p, lin.line, lin.text, fw_xasprintf("GRUB_CMDLINE_LINUX=\"%s\"", v));
		free(v);
	}
	char *v = edit_words(def.value ? def.value : "", whole, p, true);
	/* no such line: one is appended, when something is added */
	if (def.text ? strcmp(v, def.value) != 0 : v[0] != '\0')
		add_edit(p, def.line, def.text, fw_xasprintf("GRUB_CMDLINE_LINUX_DEFAULT=\"%s\"", v));
	for (size_t e = 0; e < p->nedits; e++)
		for (const char *c = p->edits[e].old; c && *c; c++)
			if ((unsigned char)*c < 0x20 && *c != '\t') {
				free(v), free(whole), free(lin.text), free(lin.value), free(def.text), free(def.value);
				return fw_error_set(err, FW_E_INVALID, "%s line %u: a control character: edit it by hand", p->file,
						    p->edits[e].line);
			}
	free(v);
	free(whole);
	free(lin.text), free(lin.value), free(def.text), free(def.value);
	return true;
}

/* A cmdline file (proxmox-boot-tool, kernel-install): one line of options. `text` NULL: the
 * file is created from the running command line, as kernel-install falls back to it. */
static bool plan_cmdline_file(struct fw_karg_plan *p, const char *text, struct fw_error *err)
{
	char *line;
	if (text) {
		size_t len = strcspn(text, "\n");
		line = fw_xstrndup(text, len);
		if (text[len] && text[len + 1 + strspn(text + len + 1, " \t\n")]) {
			free(line);
			return fw_error_set(err, FW_E_INVALID, "%s holds more than one line: edit it by hand", p->file);
		}
		for (size_t i = 0; line[i]; i++)
			if ((unsigned char)line[i] < 0x20 && line[i] != '\t') {
				free(line);
				return fw_error_set(err, FW_E_INVALID, "%s: a control character at byte %zu: edit it by hand", p->file, i);
			}
		if (strchr(line, '"')) {
			free(line);
			return fw_error_set(err, FW_E_INVALID, "%s holds a quoted option (\"): edit it by hand", p->file);
		}
	} else {
		line = running_options(p->running);
	}
	for (size_t k = 0; k < p->n; k++)
		p->args[k].in_file = text && fw_karg_line_has(line, &p->args[k]);
	char *v = edit_words(line, line, p, true);
	if (!text || strcmp(v, line) != 0)
		add_edit(p, text ? 1 : 0, text ? line : NULL, v);
	else
		free(v);
	free(line);
	return true;
}

static bool loader_entries(struct fw_machine *m, const char **where)
{
	static const char *const dirs[] = {"boot/loader/entries", "efi/loader/entries", "boot/efi/loader/entries"};
	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++)
		if (fw_machine_exists(m, dirs[i])) {
			*where = dirs[i];
			return true;
		}
	return false;
}

/* Which loader, and why. Both a cmdline file and GRUB's: the one holding the running options. */
static bool pick_loader(struct fw_machine *m, const struct fw_host *h, struct fw_karg_plan *p, char **text,
			struct fw_error *err)
{
	struct fw_blob gb;
	struct fw_error ignored;
	/* as read: the script compares lines byte for byte */
	char *cmdline_file = fw_machine_read(m, "etc/kernel/cmdline", &gb, &ignored)
				     ? fw_xstrndup((const char *)gb.data, gb.len) : NULL;
	char *grub = fw_machine_read(m, "etc/default/grub", &gb, &ignored) ? fw_xstrndup((const char *)gb.data, gb.len) : NULL;
	char *running = p->running ? running_options(p->running) : NULL;
	const char *pve = fw_machine_exists(m, "etc/kernel/proxmox-boot-uuids") ? "etc/kernel/proxmox-boot-uuids"
			  : fw_machine_exists(m, "usr/sbin/proxmox-boot-tool")  ? "usr/sbin/proxmox-boot-tool"
			  : fw_machine_exists(m, "etc/pve")                     ? "etc/pve"
			  : h->kernel_release && strstr(h->kernel_release, "-pve") ? "the kernel release (-pve)"
										 : NULL;
	bool use_grub = grub && !cmdline_file;
	char *note = fw_xstrdup("");
	if (grub && cmdline_file && running) {
		struct grub_var lin, def;
		struct fw_error e2;
		char *gline = NULL;
		if (grub_find("etc/default/grub", grub, "GRUB_CMDLINE_LINUX", &lin, &e2)) {
			if (grub_find("etc/default/grub", grub, "GRUB_CMDLINE_LINUX_DEFAULT", &def, &e2)) {
				gline = fw_xasprintf("%s %s", lin.value ? lin.value : "", def.value ? def.value : "");
				free(def.text), free(def.value);
			}
			free(lin.text), free(lin.value);
		}
		bool c_ok = same_words(cmdline_file, running), g_ok = gline && same_words(gline, running);
		use_grub = g_ok && !c_ok;
		free(note);
		note = fw_xasprintf("; of etc/kernel/cmdline and etc/default/grub, %s the running options (proc/cmdline "
				    "without BOOT_IMAGE and initrd)",
				    c_ok && !g_ok   ? "etc/kernel/cmdline holds"
				    : g_ok && !c_ok ? "etc/default/grub holds"
				    : c_ok          ? "both hold"
						    : "neither holds");
		free(gline);
	}
	const char *entries = NULL;
	if (cmdline_file && !use_grub) {
		p->loader = pve ? FW_LOADER_PROXMOX : FW_LOADER_KERNEL_INSTALL;
		p->loader_why = pve ? fw_xasprintf("etc/kernel/cmdline present and Proxmox (%s): proxmox-boot-tool copies it "
						   "to the boot loader%s", pve, note)
				    : fw_xasprintf("etc/kernel/cmdline present and no sign of Proxmox (etc/pve, "
						   "etc/kernel/proxmox-boot-uuids): kernel-install reads it%s", note);
		p->file = fw_xstrdup("etc/kernel/cmdline");
		*text = cmdline_file, cmdline_file = NULL;
	} else if (grub) {
		p->loader = FW_LOADER_GRUB;
		p->loader_why = fw_xasprintf("etc/default/grub present%s%s", cmdline_file ? "" : " and no etc/kernel/cmdline",
					     note);
		p->file = fw_xstrdup("etc/default/grub");
		*text = grub, grub = NULL;
	} else if (loader_entries(m, &entries)) {
		if (!p->running) {
			free(note), free(running);
			return fw_error_set(err, FW_E_NOT_FOUND, "%s holds systemd-boot entries but neither etc/kernel/cmdline "
					    "nor proc/cmdline is captured: the options to start from are not known", entries);
		}
		p->loader = FW_LOADER_KERNEL_INSTALL;
		p->loader_why = fw_xasprintf("%s (systemd-boot entries) and no etc/kernel/cmdline: kernel-install reads "
					     "the running command line, so the plan creates etc/kernel/cmdline from it",
					     entries);
		p->file = fw_xstrdup("etc/kernel/cmdline");
	} else {
		free(note), free(running);
		return fw_error_set(err, FW_E_NOT_FOUND, "no boot loader configuration in %s: looked for etc/kernel/cmdline "
				    "(proxmox-boot-tool, kernel-install), etc/default/grub (GRUB) and boot/loader/entries, "
				    "efi/loader/entries (systemd-boot)", fw_machine_path(m));
	}
	p->refresh = refresh_command(p->loader);
	free(cmdline_file), free(grub), free(note), free(running);
	return true;
}

bool fw_karg_plan_make(struct fw_machine *m, const struct fw_host *h, const char *const *add, size_t nadd,
		       const char *const *rm, size_t nrm, struct fw_karg_plan *out, struct fw_error *err)
{
	memset(out, 0, sizeof(*out));
	if (nadd + nrm > FW_KARG_MAX)
		return fw_error_set(err, FW_E_USAGE, "more than %d kernel options in one plan", FW_KARG_MAX);
	for (size_t i = 0; i < nadd + nrm; i++) {
		const char *w = i < nadd ? add[i] : rm[i - nadd];
		size_t bad = 0;
		if (!plain_word(w, &bad))
			return fw_error_set(err, FW_E_USAGE, "kernel option '%s': %s", w,
					    !w[0] || w[0] == '=' ? "give NAME or NAME=VALUE"
								 : "blanks, quotes, backslash, '$', '`' and control characters are refused");
		for (size_t k = 0; k < out->n; k++) {
			char a[256], b[256];
			ident(w, strlen(w), a, sizeof(a));
			ident(out->args[k].word, strlen(out->args[k].word), b, sizeof(b));
			if (strcmp(a, b) == 0 && (strcmp(w, out->args[k].word) != 0 || out->args[k].remove != (i >= nadd))) {
				fw_karg_plan_free(out);
				return fw_error_set(err, FW_E_USAGE, "kernel option '%s' is asked both as '%s' and as '%s%s'", a,
						    out->args[k].word, i >= nadd ? "removed " : "", w);
			}
		}
		out->args[out->n].word = fw_xstrdup(w);
		out->args[out->n++].remove = i >= nadd;
	}
	out->running = h->cmdline ? fw_xstrdup(h->cmdline) : NULL;
	for (size_t k = 0; k < out->n; k++)
		out->args[k].running = out->running && fw_karg_line_has(out->running, &out->args[k]);
	char *text = NULL;
	if (!pick_loader(m, h, out, &text, err)) {
		fw_karg_plan_free(out);
		return false;
	}
	bool ok = out->loader == FW_LOADER_GRUB ? plan_grub(out, text, err) : plan_cmdline_file(out, text, err);
	free(text);
	if (!ok)
		fw_karg_plan_free(out);
	return ok;
}

void fw_karg_plan_free(struct fw_karg_plan *p)
{
	for (size_t k = 0; k < p->n; k++)
		free(p->args[k].word);
	for (size_t e = 0; e < p->nedits; e++)
		free(p->edits[e].old), free(p->edits[e].new_);
	free(p->loader_why), free(p->file), free(p->running);
	memset(p, 0, sizeof(*p));
}

json_t *fw_karg_plan_json(const struct fw_karg_plan *p, const char *source, json_t *made)
{
	json_t *doc = json_object(), *opts = json_array(), *edits = json_array();
	json_object_set_new(doc, "kind", json_string("kernel-args"));
	json_object_set_new(doc, "source", json_string(source));
	json_object_set_new(doc, "loader", json_string(fw_boot_loader_name(p->loader)));
	json_object_set_new(doc, "loader_why", json_string(p->loader_why));
	json_object_set_new(doc, "file", json_string(p->file));
	json_object_set_new(doc, "refresh", json_string(p->refresh));
	json_object_set_new(doc, "running", p->running ? json_string(p->running) : json_null());
	for (size_t k = 0; k < p->n; k++) {
		json_t *o = json_object();
		json_object_set_new(o, "option", json_string(p->args[k].word));
		json_object_set_new(o, "action", json_string(p->args[k].remove ? "remove" : "add"));
		json_object_set_new(o, "in_file", json_boolean(p->args[k].in_file));
		json_object_set_new(o, "running", json_boolean(p->args[k].running));
		json_array_append_new(opts, o);
	}
	json_object_set_new(doc, "options", opts);
	for (size_t e = 0; e < p->nedits; e++) {
		json_t *o = json_object();
		json_object_set_new(o, "line", p->edits[e].line ? json_integer(p->edits[e].line) : json_null());
		json_object_set_new(o, "old", p->edits[e].old ? json_string(p->edits[e].old) : json_null());
		json_object_set_new(o, "new", json_string(p->edits[e].new_));
		json_array_append_new(edits, o);
	}
	json_object_set_new(doc, "edits", edits);
	json_object_set_new(doc, "made", made);
	return doc;
}

bool fw_karg_verify(const struct fw_host *h, const char *src_path, const json_t *plan, struct fw_karg_verify *out,
		    struct fw_error *err)
{
	memset(out, 0, sizeof(*out));
	const json_t *opts = json_object_get(plan, "options");
	if (!json_is_array(opts) || json_array_size(opts) > FW_KARG_MAX)
		return fw_error_set(err, FW_E_INVALID, "plan: no \"options\" array of at most %d (give the JSON `fwlens plan "
				    "--kernel-arg ... --format json` wrote)", FW_KARG_MAX);
	if (!h->cmdline)
		return fw_error_set(err, FW_E_NOT_FOUND, "%s: proc/cmdline is not captured: the running options are not "
				    "known", src_path);
	out->cmdline = h->cmdline;
	out->rebooted = fw_plan_rebooted(h, src_path, plan, &out->rebooted_why);
	size_t i;
	const json_t *o;
	json_array_foreach(opts, i, o)
	{
		const char *w = json_string_value(json_object_get(o, "option"));
		const char *act = json_string_value(json_object_get(o, "action"));
		if (!w || !act || (strcmp(act, "add") != 0 && strcmp(act, "remove") != 0)) {
			fw_karg_verify_free(out);
			return fw_error_set(err, FW_E_INVALID, "plan: option %zu has no \"option\" or no \"action\" add|remove", i + 1);
		}
		struct fw_karg_check *c = &out->items[out->n++];
		c->word = fw_xstrdup(w);
		c->remove = strcmp(act, "remove") == 0;
		struct fw_karg a = {.word = c->word, .remove = c->remove};
		c->ok = fw_karg_line_has(h->cmdline, &a);
		c->state = c->ok ? "in effect" : out->rebooted == 0 ? "not yet rebooted" : c->remove ? "still present" : "missing";
		out->failed += !c->ok;
		out->pending += !c->ok && out->rebooted == 0;
	}
	return true;
}

void fw_karg_verify_free(struct fw_karg_verify *v)
{
	for (size_t i = 0; i < v->n; i++)
		free(v->items[i].word);
	free(v->rebooted_why);
	memset(v, 0, sizeof(*v));
}
