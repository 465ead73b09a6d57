/* Nearest names for usage errors. */
#include "nearest.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

size_t fw_edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	if (la > 64 || lb > 64)
		return 99;
	size_t d[65][65];
	for (size_t i = 0; i <= la; i++)
		d[i][0] = i;
	for (size_t j = 0; j <= lb; j++)
		d[0][j] = j;
	for (size_t i = 1; i <= la; i++)
		for (size_t j = 1; j <= lb; j++) {
			size_t sub = d[i - 1][j - 1] + (tolower((unsigned char)a[i - 1]) != tolower((unsigned char)b[j - 1]));
			size_t del = d[i - 1][j] + 1, ins = d[i][j - 1] + 1;
			d[i][j] = sub < del ? (sub < ins ? sub : ins) : (del < ins ? del : ins);
		}
	return d[la][lb];
}

const char *fw_nearest(const char *word, const char *const *names, size_t n)
{
	if (!word || !*word)
		return NULL;
	size_t wl = strlen(word), limit = wl <= 3 ? 1 : 2;
	const char *best = NULL, *prefix_of = NULL;
	size_t best_d = limit + 1, prefixes = 0;
	for (size_t i = 0; i < n; i++) {
		size_t d = fw_edit_distance(word, names[i]);
		if (d < best_d) {
			best_d = d;
			best = names[i];
		}
		if (wl >= 3 && strncasecmp(names[i], word, wl) == 0) {
			prefixes++;
			prefix_of = names[i];
		}
	}
	if (best)
		return best;
	return prefixes == 1 ? prefix_of : NULL;
}

const char *fw_nearest_csv(const char *word, const char *csv, char *buf, size_t len)
{
	char copy[1024];
	const char *names[64];
	size_t n = 0;
	snprintf(copy, sizeof(copy), "%s", csv ? csv : "");
	for (char *save = NULL, *p = strtok_r(copy, ",", &save); p && n < 64; p = strtok_r(NULL, ",", &save))
		names[n++] = p;
	const char *near = fw_nearest(word, names, n);
	if (!near)
		return NULL;
	snprintf(buf, len, "%s", near);
	return buf;
}

const char *fw_nearest_hint(const char *word, const char *csv, char *buf, size_t len)
{
	char words[256], near[128], known[1024];
	snprintf(words, sizeof(words), "%s", word ? word : "");
	snprintf(known, sizeof(known), ",%s,", csv ? csv : "");
	buf[0] = '\0';
	for (char *save = NULL, *w = strtok_r(words, ",", &save); w; w = strtok_r(NULL, ",", &save)) {
		while (*w == ' ')
			w++;
		char probe[260];
		snprintf(probe, sizeof(probe), ",%s,", w);
		if (strstr(known, probe))
			continue;
		if (fw_nearest_csv(w, csv, near, sizeof(near))) {
			snprintf(buf, len, "; did you mean '%s'?", near);
			break;
		}
	}
	return buf;
}
