/* Stored versus running: the kernel command line and module options configured for the next boot
 * (/etc/kernel/cmdline, GRUB_CMDLINE_LINUX* in /etc/default/grub, "options" lines in
 * /etc/modprobe.d) against the ones the running kernel uses (/proc/cmdline,
 * /sys/module/MODULE/parameters). A difference is a change waiting for a reboot: status pending,
 * with both sides as evidence. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "doctor-checks.h"

#define MAX_TOKENS 128

/* Split a command line into tokens (double quotes group, as the kernel reads them). */
static size_t tokens(const char *s, char out[][160], size_t max)
{
	size_t n = 0;
	while (*s && n < max) {
		while (isspace((unsigned char)*s))
			s++;
		if (!*s)
			break;
		size_t k = 0;
		bool quoted = false;
		while (*s && (quoted || !isspace((unsigned char)*s))) {
			if (*s == '"')
				quoted = !quoted;
			else if (k + 1 < 160)
				out[n][k++] = *s;
			s++;
		}
		out[n][k] = '\0';
		n++;
	}
	return n;
}

/* The value of `KEY=` in /etc/default/grub: the last assignment not commented out, its quotes
 * removed; NULL when absent. */
static char *grub_value(const char *text, const char *key)
{
	char *val = NULL;
	size_t kl = strlen(key);
	for (const char *l = text; *l; l += strcspn(l, "\n") + (l[strcspn(l, "\n")] ? 1 : 0)) {
		const char *p = l;
		while (*p == ' ' || *p == '\t')
			p++;
		if (strncmp(p, key, kl) != 0 || p[kl] != '=')
			continue;
		p += kl + 1;
		size_t len = strcspn(p, "\n");
		char q = *p == '"' || *p == '\'' ? *p : 0;
		if (q) {
			p++;
			const char *close = memchr(p, q, len - 1);
			len = close ? (size_t)(close - p) : len - 1;
		}
		free(val);
		val = fw_xstrndup(p, len);
	}
	return val;
}

/* Options the boot loader adds itself, or that name the boot files rather than a setting. */
static bool loader_token(const char *t, bool grub)
{
	static const char *const always[] = {"BOOT_IMAGE=", "initrd="};
	for (size_t i = 0; i < 2; i++)
		if (strncmp(t, always[i], strlen(always[i])) == 0)
			return true;
	return grub && (strncmp(t, "root=", 5) == 0 || strcmp(t, "ro") == 0 || strcmp(t, "rw") == 0);
}

static bool has_token(char set[][160], size_t n, const char *t)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(set[i], t) == 0)
			return true;
	return false;
}

/* Compare the stored command line with the running one; returns the differences found. */
static size_t compare_cmdline(const struct fw_doctor_ctx *ctx, struct fw_check_result *r, bool *known)
{
	const struct fw_host *h = ctx->host;
	char *stored = fw_machine_read_text(h->machine, "etc/kernel/cmdline");
	const char *from = "etc/kernel/cmdline";
	bool grub = false;
	if (!stored) {
		char *g = fw_machine_read_text(h->machine, "etc/default/grub");
		if (g) {
			char *a = grub_value(g, "GRUB_CMDLINE_LINUX"), *b = grub_value(g, "GRUB_CMDLINE_LINUX_DEFAULT");
			if (a || b)
				stored = fw_xasprintf("%s %s", a ? a : "", b ? b : "");
			free(a);
			free(b);
			free(g);
			from = "etc/default/grub";
			grub = true;
		}
	}
	if (!stored || !h->cmdline) {
		free(stored);
		return 0;
	}
	*known = true;
	static char s[MAX_TOKENS][160], run[MAX_TOKENS][160];
	size_t ns = tokens(stored, s, MAX_TOKENS), nr = tokens(h->cmdline, run, MAX_TOKENS), diff = 0;
	stored[strcspn(stored, "\n")] = '\0';
	fw_check_evidence(r, FW_EVIDENCE_FILE, from, "stored for the next boot%s: %s",
			  grub ? " (GRUB_CMDLINE_LINUX and GRUB_CMDLINE_LINUX_DEFAULT)" : "", stored);
	fw_check_evidence(r, FW_EVIDENCE_FILE, "proc/cmdline", "running: %.*s", (int)strcspn(h->cmdline, "\n"), h->cmdline);
	char added[1024] = "", dropped[1024] = "";
	for (size_t i = 0; i < ns; i++)
		if (!loader_token(s[i], grub) && !has_token(run, nr, s[i])) {
			size_t used = strlen(added);
			snprintf(added + used, sizeof(added) - used, "%s%s", used ? " " : "", s[i]);
			diff++;
		}
	for (size_t i = 0; i < nr; i++)
		if (!loader_token(run[i], grub) && !has_token(s, ns, run[i])) {
			size_t used = strlen(dropped);
			snprintf(dropped + used, sizeof(dropped) - used, "%s%s", used ? " " : "", run[i]);
			diff++;
		}
	if (added[0])
		fw_check_evidence(r, FW_EVIDENCE_FILE, from, "the next boot adds: %s", added);
	if (dropped[0])
		fw_check_evidence(r, FW_EVIDENCE_FILE, from, "the next boot drops: %s", dropped);
	free(stored);
	return diff;
}

/* "Y"/"1"/"on" and "N"/"0"/"off" are one value each to a module parameter of type bool. */
static const char *norm(const char *v, char *buf, size_t len)
{
	snprintf(buf, len, "%.*s", (int)strcspn(v, "\n"), v);
	if (!strcmp(buf, "Y") || !strcmp(buf, "y") || !strcmp(buf, "1") || !strcmp(buf, "on") || !strcmp(buf, "true"))
		return "1";
	if (!strcmp(buf, "N") || !strcmp(buf, "n") || !strcmp(buf, "0") || !strcmp(buf, "off") || !strcmp(buf, "false"))
		return "0";
	return buf;
}

/* "options MODULE key=value ..." lines of the etc/modprobe.d .conf files against the loaded module's
 * parameters; a module not loaded has nothing running to compare with. */
static size_t compare_modprobe(const struct fw_doctor_ctx *ctx, struct fw_check_result *r, bool *known)
{
	const struct fw_host *h = ctx->host;
	struct fw_strlist files;
	size_t diff = 0;
	if (!fw_machine_list(h->machine, "etc/modprobe.d", &files))
		return 0;
	for (size_t f = 0; f < files.count; f++) {
		size_t nl = strlen(files.items[f]);
		if (nl < 5 || strcmp(files.items[f] + nl - 5, ".conf") != 0)
			continue;
		char path[512];
		snprintf(path, sizeof(path), "etc/modprobe.d/%s", files.items[f]);
		char *text = fw_machine_read_text(h->machine, path);
		for (const char *l = text ? text : ""; *l; l += strcspn(l, "\n") + (l[strcspn(l, "\n")] ? 1 : 0)) {
			char line[512], mod[64];
			snprintf(line, sizeof(line), "%.*s", (int)strcspn(l, "\n"), l);
			int used = 0;
			if (sscanf(line, " options %63s %n", mod, &used) != 1 || !used)
				continue;
			for (char *c = mod; *c; c++)
				if (*c == '-')
					*c = '_';
			char opts[MAX_TOKENS][160];
			size_t no = tokens(line + used, opts, MAX_TOKENS);
			for (size_t i = 0; i < no; i++) {
				char *eq = strchr(opts[i], '=');
				if (!eq || opts[i][0] == '#')
					break;
				*eq = '\0';
				char rel[256];
				snprintf(rel, sizeof(rel), "sys/module/%s/parameters/%s", mod, opts[i]);
				char *now = fw_machine_read_text(h->machine, rel);
				if (!now)
					continue;
				*known = true;
				char a[160], b[160];
				bool same = strcmp(norm(eq + 1, a, sizeof(a)), norm(now, b, sizeof(b))) == 0;
				fw_check_evidence(r, FW_EVIDENCE_FILE, path, "%s %s=%s stored; %s running: %.*s%s", mod, opts[i], eq + 1,
						  rel, (int)strcspn(now, "\n"), now, same ? "" : " (differs)");
				diff += !same;
				free(now);
			}
		}
		free(text);
	}
	fw_strlist_free(&files);
	return diff;
}

void fw_check_boot_pending(const struct fw_doctor_ctx *ctx, struct fw_check_result *r)
{
	if (!fw_doctor_needs_host(ctx, r))
		return;
	bool known = false;
	size_t cmd = compare_cmdline(ctx, r, &known), mod = compare_modprobe(ctx, r, &known);
	if (!known) {
		fw_check_skip(r, "etc/kernel/cmdline, etc/default/grub, etc/modprobe.d",
			      "No stored kernel command line or module option with a running value to compare was captured.");
		return;
	}
	if (!cmd && !mod) {
		fw_check_set(r, FW_CHECK_PASS,
			     "The stored kernel command line and module options are the ones the running kernel uses.", NULL);
		return;
	}
	fw_check_setf(r, FW_CHECK_PENDING,
		      "Reboot to put the stored values in effect (module options also on reloading the module), or change "
		      "the stored files back if the running values are the ones wanted.",
		      "The configuration stored for the next boot differs from what runs now (%zu command-line option%s, %zu "
		      "module option%s; see the evidence for both sides). The checks that read /proc/cmdline and "
		      "/sys/module judge the running values; their verdicts change at the next boot.",
		      cmd, cmd == 1 ? "" : "s", mod, mod == 1 ? "" : "s");
}
