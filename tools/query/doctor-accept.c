/* Accepted checks: an admin's "known, decided, do not fail on it" for a check's verdict, kept
 * only while the evidence is of the kinds it was accepted for (doctor.h). */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "doctor.h"
#include "parsers/hash.h"

/* One evidence item as a kind: counts, times and addresses masked, the rest kept (device
 * addresses, error codes, names). A leading "[ 7602.300100]" or "[7602.300100 s]" stamp goes. */
static void kind_of(const char *from, const char *text, char *out, size_t len)
{
	size_t n = (size_t)snprintf(out, len, "%s|", from);
	const char *p = text;
	if (*p == '[' && strchr(p, ']'))
		p = strchr(p, ']') + 1;
	while (*p && n + 8 < len) {
		bool start = p == text || !isalnum((unsigned char)p[-1]);
		if (start && p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
			size_t h = 0;
			while (isxdigit((unsigned char)p[2 + h]))
				h++;
			if (h > 4 && !isalnum((unsigned char)p[2 + h])) {
				n += (size_t)snprintf(out + n, len - n, "0x#");
				p += 2 + h;
				continue;
			}
		}
		if (start && isdigit((unsigned char)*p)) {
			/* a decimal number (with a fraction) that is not part of a device address or code */
			const char *q = p;
			while (isdigit((unsigned char)*q))
				q++;
			if (*q == '.' && isdigit((unsigned char)q[1]))
				for (q++; isdigit((unsigned char)*q); q++)
					;
			if (!isalnum((unsigned char)*q) && *q != ':' && *q != 'x' && !(*q == '.' && isalnum((unsigned char)q[1]))) {
				out[n++] = '#';
				p = q;
				continue;
			}
			/* the whole token as it is */
			while (*p && (isalnum((unsigned char)*p) || *p == ':' || *p == '.') && n + 2 < len)
				out[n++] = *p++;
			continue;
		}
		out[n++] = *p++;
	}
	out[n] = '\0';
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

void fw_doctor_fingerprint(const struct fw_check_result *r, char out[13])
{
	size_t n = json_array_size(r->evidence), k = 0, total = 0;
	char **kinds = fw_xcalloc(n ? n : 1, sizeof(*kinds));
	size_t i;
	json_t *e;
	json_array_foreach(r->evidence, i, e)
	{
		if (strcmp(fw_evidence_kind(e), FW_EVIDENCE_ACCEPTED) == 0)
			continue;
		char buf[1200];
		kind_of(fw_evidence_from(e), fw_evidence_text(e), buf, sizeof(buf));
		kinds[k++] = fw_xstrdup(buf);
	}
	qsort(kinds, k, sizeof(*kinds), cmp_str);
	for (i = 0; i < k; i++)
		total += strlen(kinds[i]) + 1;
	char *all = fw_xmalloc(total + 1), *w = all;
	for (i = 0; i < k; i++) {
		if (i && strcmp(kinds[i], kinds[i - 1]) == 0)
			continue;
		size_t l = strlen(kinds[i]);
		memcpy(w, kinds[i], l);
		w += l;
		*w++ = '\n';
	}
	char hex[FW_SHA256_HEX_LEN];
	fw_sha256_hex((const uint8_t *)all, (size_t)(w - all), hex);
	snprintf(out, 13, "%.12s", hex);
	for (i = 0; i < k; i++)
		free(kinds[i]);
	free(kinds);
	free(all);
}

static void push(struct fw_doctor_accept **list, size_t *n, const char *check, size_t clen, const char *sha,
		 const char *reason, const char *from)
{
	*list = fw_xrealloc(*list, (*n + 1) * sizeof(**list));
	struct fw_doctor_accept *a = &(*list)[(*n)++];
	a->check = fw_xstrndup(check, clen);
	a->sha = sha ? fw_xstrdup(sha) : NULL;
	a->reason = fw_xstrdup(reason);
	a->from = fw_xstrdup(from);
}

static bool id_char(char c)
{
	return islower((unsigned char)c) || isdigit((unsigned char)c) || c == '-';
}

bool fw_doctor_accept_parse(const char *text, const char *from, struct fw_doctor_accept **list, size_t *n, char *err,
			    size_t errlen)
{
	unsigned lineno = 0;
	for (const char *line = text; *line;) {
		size_t len = strcspn(line, "\n");
		lineno++;
		char buf[1024];
		if (len >= sizeof(buf)) {
			snprintf(err, errlen, "%s line %u: longer than %zu bytes", from, lineno, sizeof(buf) - 1);
			return false;
		}
		snprintf(buf, sizeof(buf), "%.*s", (int)len, line);
		line += len + (line[len] ? 1 : 0);
		char *p = buf;
		while (*p == ' ' || *p == '\t')
			p++;
		size_t end = strlen(p);
		while (end && (p[end - 1] == ' ' || p[end - 1] == '\t' || p[end - 1] == '\r'))
			p[--end] = '\0';
		if (!*p || *p == '#')
			continue;
		size_t clen = 0;
		while (id_char(p[clen]))
			clen++;
		if (clen && !p[clen]) {
			snprintf(err, errlen, "%s line %u: %s has no reason", from, lineno, p);
			return false;
		}
		if (!clen || (p[clen] != ' ' && p[clen] != '\t')) {
			snprintf(err, errlen, "%s line %u: expected \"CHECK [sha=FINGERPRINT] REASON\" (CHECK a check id)", from,
				 lineno);
			return false;
		}
		char *rest = p + clen;
		while (*rest == ' ' || *rest == '\t')
			rest++;
		char sha[13] = "";
		if (strncmp(rest, "sha=", 4) == 0) {
			size_t h = 0;
			while (isxdigit((unsigned char)rest[4 + h]))
				h++;
			if (h != 12 || (rest[16] && rest[16] != ' ' && rest[16] != '\t')) {
				snprintf(err, errlen, "%s line %u: sha= takes the 12 hex digits doctor --accept-line prints", from,
					 lineno);
				return false;
			}
			snprintf(sha, sizeof(sha), "%.12s", rest + 4);
			rest += 16;
			while (*rest == ' ' || *rest == '\t')
				rest++;
		}
		if (!*rest) {
			snprintf(err, errlen, "%s line %u: %.*s has no reason", from, lineno, (int)clen, p);
			return false;
		}
		char where[600];
		snprintf(where, sizeof(where), "%s:%u", from, lineno);
		push(list, n, p, clen, sha[0] ? sha : NULL, rest, where);
	}
	return true;
}

bool fw_doctor_accept_arg(const char *arg, struct fw_doctor_accept **list, size_t *n, char *err, size_t errlen)
{
	const char *eq = strchr(arg, '=');
	size_t clen = 0;
	while (id_char(arg[clen]))
		clen++;
	if (!eq || (size_t)(eq - arg) != clen || !clen || !eq[1]) {
		snprintf(err, errlen, "--accept takes CHECK=REASON (a check id, then why), not '%s'", arg);
		return false;
	}
	push(list, n, arg, clen, NULL, eq + 1, "--accept");
	return true;
}

void fw_doctor_accepts_free(struct fw_doctor_accept *list, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(list[i].check);
		free(list[i].reason);
		free(list[i].sha);
		free(list[i].from);
	}
	free(list);
}

void fw_doctor_apply_accepts(const struct fw_doctor_ctx *ctx, struct fw_check_result *r)
{
	r->judged = r->status;
	fw_doctor_fingerprint(r, r->fingerprint);
	if (r->status != FW_CHECK_WARN && r->status != FW_CHECK_FAIL && r->status != FW_CHECK_PENDING)
		return;
	/* the last matching acceptance wins, as a later line overrides an earlier one */
	const struct fw_doctor_accept *a = NULL;
	for (size_t i = 0; i < ctx->naccepts; i++)
		if (strcmp(ctx->accepts[i].check, r->id) == 0)
			a = &ctx->accepts[i];
	if (!a)
		return;
	if (a->sha && strcmp(a->sha, r->fingerprint) != 0) {
		fw_check_evidence(r, FW_EVIDENCE_ACCEPTED, a->from,
				  "accepted for evidence sha=%s (\"%s\"); the evidence now is sha=%s, of other kinds: reported "
				  "again",
				  a->sha, a->reason, r->fingerprint);
		return;
	}
	fw_check_evidence(r, FW_EVIDENCE_ACCEPTED, a->from, "accepted (%s, evidence sha=%s): %s",
			  fw_check_status_name(r->status), r->fingerprint, a->reason);
	r->status = FW_CHECK_ACCEPTED;
	r->accepted = fw_xstrdup(a->reason);
}

char *fw_doctor_accept_line(const struct fw_check_result *r)
{
	return fw_xasprintf("%s sha=%s REASON", r->id, r->fingerprint);
}
