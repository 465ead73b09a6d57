/* Notes the admin owns: rewriting a notes file keeps every line the admin wrote.
 *
 * Inside <!-- fwlens:keep NAME --> blocks the text is the admin's (fw_notes_keep_user_blocks).
 * Outside them, fwlens tells its own lines from the admin's by the last line it writes, a
 * comment holding a short hash of each line it generated. A line of the old file whose hash is
 * not there (one the admin added, or a generated line the admin edited) is kept in place: after
 * the line before it when the new notes still have that line, else at the end of the section it
 * was in. A file that holds no such comment (written by hand or by an older fwlens), or a kept
 * line whose section the new notes lack, cannot be merged: the caller refuses and leaves the
 * file as it is. */
#include "notes.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define KEEP_OPEN "<!-- fwlens:keep "
#define KEEP_CLOSE "<!-- fwlens:end "
#define TRAILER "<!-- fwlens:generated "
#define HASH_DIGITS 12

struct line {
	const char *p;
	size_t n;
	bool in_block; /* inside a keep block: the admin's, merged by name */
};

struct lines {
	struct line *v;
	size_t n, cap;
};

static void split(const char *text, size_t len, struct lines *out)
{
	memset(out, 0, sizeof(*out));
	bool in_block = false;
	for (const char *p = text, *end = text + len; p < end;) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = (size_t)((nl ? nl : end) - p);
		if (out->n == out->cap) {
			out->cap = out->cap ? out->cap * 2 : 256;
			out->v = fw_xrealloc(out->v, out->cap * sizeof(*out->v));
		}
		bool opens = n >= strlen(KEEP_OPEN) && memcmp(p, KEEP_OPEN, strlen(KEEP_OPEN)) == 0;
		bool closes = n >= strlen(KEEP_CLOSE) && memcmp(p, KEEP_CLOSE, strlen(KEEP_CLOSE)) == 0;
		if (closes)
			in_block = false;
		out->v[out->n++] = (struct line){p, n, in_block};
		if (opens)
			in_block = true;
		p = nl ? nl + 1 : end;
	}
}

/* FNV-1a, 64 bits, shown as its low 48: a line of the admin's has one chance in 2^48 per
 * generated line to pass for fwlens's. */
static uint64_t line_hash(const struct line *l)
{
	uint64_t h = 0xcbf29ce484222325ULL;
	for (size_t i = 0; i < l->n; i++)
		h = (h ^ (unsigned char)l->p[i]) * 0x100000001b3ULL;
	return h & 0xFFFFFFFFFFFFULL;
}

static bool is_trailer(const struct line *l)
{
	return l->n >= strlen(TRAILER) && memcmp(l->p, TRAILER, strlen(TRAILER)) == 0;
}

static bool is_blank(const struct line *l)
{
	return l->n == 0;
}

static bool is_heading(const struct line *l)
{
	return l->n >= 2 && l->p[0] == '#';
}

static unsigned level(const struct line *l)
{
	unsigned n = 0;
	while (n < l->n && l->p[n] == '#')
		n++;
	return n;
}

static bool same(const struct line *a, const struct line *b)
{
	return a->n == b->n && memcmp(a->p, b->p, a->n) == 0;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

/* The hashes the trailer lists, sorted; false when it is not one fwlens writes. */
static bool read_trailer(const struct line *l, uint64_t **out, size_t *n)
{
	*out = NULL;
	*n = 0;
	const char *p = l->p + strlen(TRAILER), *end = l->p + l->n;
	if (end - p < 4 || memcmp(end - 4, " -->", 4) != 0)
		return false;
	end -= 4;
	while (p < end) {
		while (p < end && *p == ' ')
			p++;
		if (p == end)
			break;
		uint64_t v = 0;
		size_t k = 0;
		for (; p < end && *p != ' '; p++, k++) {
			int d = *p >= '0' && *p <= '9' ? *p - '0' : *p >= 'a' && *p <= 'f' ? *p - 'a' + 10 : -1;
			if (d < 0 || k >= HASH_DIGITS) {
				free(*out);
				return false;
			}
			v = v * 16 + (uint64_t)d;
		}
		*out = fw_xrealloc(*out, (*n + 1) * sizeof(**out));
		(*out)[(*n)++] = v;
	}
	qsort(*out, *n, sizeof(**out), cmp_u64);
	return true;
}

struct insert {
	size_t after; /* index in the new lines; SIZE_MAX: before the first */
	size_t from, to; /* old lines [from, to) */
	bool blank_after; /* a blank line followed them in the old file */
};

/* Where in the new lines the old run starting at `run` goes; false when nowhere. */
static bool place(const struct lines *old, size_t run, const uint64_t *gen, size_t ngen, const struct lines *fresh,
		  size_t *cursor, size_t *after)
{
	/* the nearest generated line before the run that is not blank, and the blank lines between */
	size_t blanks = 0;
	size_t a = run;
	while (a > 0) {
		a--;
		const struct line *l = &old->v[a];
		uint64_t h = line_hash(l);
		bool generated = !l->in_block && bsearch(&h, gen, ngen, sizeof(*gen), cmp_u64);
		if (generated && is_blank(l)) {
			blanks++;
			continue;
		}
		if (generated || l->in_block || (a + 1 < old->n && old->v[a + 1].in_block))
			break;
	}
	if (run == 0 || (a == 0 && is_blank(&old->v[0]))) {
		*after = SIZE_MAX;
		return true;
	}
	const struct line *anchor = &old->v[a];
	if (!anchor->in_block) {
		for (size_t j = *cursor; j < fresh->n; j++)
			if (!fresh->v[j].in_block && same(&fresh->v[j], anchor)) {
				size_t k = 0;
				while (k < blanks && j + 1 < fresh->n && is_blank(&fresh->v[j + 1]))
					j++, k++;
				*after = j;
				*cursor = j;
				return true;
			}
	}
	/* the line before it changed: the end of the section it was in, or of the section around
	 * that one when the new notes lack it */
	size_t h = a + 1;
	unsigned below = UINT32_MAX;
	for (; h > 0; h--) {
		const struct line *hd = &old->v[h - 1];
		if (!is_heading(hd) || level(hd) >= below)
			continue;
		for (size_t j = 0; j < fresh->n; j++)
			if (same(&fresh->v[j], hd)) {
				size_t e = j + 1;
				while (e < fresh->n && !(is_heading(&fresh->v[e]) && level(&fresh->v[e]) <= level(hd)) &&
				       !is_trailer(&fresh->v[e]))
					e++;
				while (e > j + 1 && is_blank(&fresh->v[e - 1]))
					e--;
				*after = e - 1;
				if (*cursor < e - 1)
					*cursor = e - 1;
				return true;
			}
		below = level(hd);
	}
	return false;
}

static void put(char **buf, size_t *len, size_t *cap, const char *p, size_t n)
{
	if (*len + n + 1 > *cap) {
		*cap = (*len + n + 1) * 2;
		*buf = fw_xrealloc(*buf, *cap);
	}
	memcpy(*buf + *len, p, n);
	*len += n;
	(*buf)[*len] = '\0';
}

/* An admin's run of lines, with the blank line that followed it when the new text has none there. */
static void put_run(char **buf, size_t *len, size_t *cap, const struct lines *ol, const struct insert *in, bool next_text)
{
	for (size_t j = in->from; j < in->to; j++) {
		put(buf, len, cap, ol->v[j].p, ol->v[j].n);
		put(buf, len, cap, "\n", 1);
	}
	if (in->blank_after && next_text)
		put(buf, len, cap, "\n", 1);
}

bool fw_notes_merge(const char *old, size_t oldlen, const char *path, const char *fresh, size_t freshlen, char **out,
		    size_t *outlen, size_t *kept, struct fw_error *err)
{
	*out = NULL;
	*outlen = 0;
	*kept = 0;
	size_t mlen = 0;
	char *merged = fw_notes_keep_user_blocks(old, oldlen, fresh, freshlen, &mlen);
	struct lines nl, ol = {0};
	split(merged, mlen, &nl);
	uint64_t *gen = NULL;
	size_t ngen = 0;
	struct insert *ins = NULL;
	size_t nins = 0;
	bool ok = true;
	if (old && oldlen) {
		split(old, oldlen, &ol);
		const struct line *tr = NULL;
		for (size_t i = ol.n; i-- > 0 && !tr;)
			if (is_trailer(&ol.v[i]))
				tr = &ol.v[i];
		bool anything = false;
		for (size_t i = 0; i < ol.n && !anything; i++)
			anything = !ol.v[i].in_block && !is_blank(&ol.v[i]);
		if (!tr && anything) {
			ok = fw_error_set(err, FW_E_UNWRITABLE,
					  "%s: no \"" TRAILER "...\" line, so which of its lines are yours is not known (written by "
					  "hand or by an older fwlens): move your text into <!-- fwlens:keep NAME --> blocks, or "
					  "write the notes to another file; %s is left as it is", path, path);
		} else if (tr && !read_trailer(tr, &gen, &ngen)) {
			ok = fw_error_set(err, FW_E_UNWRITABLE, "%s: line %zu: the fwlens:generated line is damaged: which lines "
								"are yours is not known; %s is left as it is",
					  path, (size_t)(tr - ol.v) + 1, path);
		}
		size_t cursor = 0;
		for (size_t i = 0; ok && tr && i < ol.n;) {
			const struct line *l = &ol.v[i];
			uint64_t h = line_hash(l);
			if (l->in_block || is_trailer(l) || bsearch(&h, gen, ngen, sizeof(*gen), cmp_u64)) {
				i++;
				continue;
			}
			/* the admin's lines from here to the next generated line */
			size_t to = i;
			while (to < ol.n && !ol.v[to].in_block && !is_trailer(&ol.v[to])) {
				uint64_t t = line_hash(&ol.v[to]);
				if (bsearch(&t, gen, ngen, sizeof(*gen), cmp_u64))
					break;
				to++;
			}
			size_t after;
			if (!place(&ol, i, gen, ngen, &nl, &cursor, &after)) {
				ok = fw_error_set(err, FW_E_UNWRITABLE,
						  "%s: line %zu (%.*s%s) is yours, and the new notes have no place for it (its section is "
						  "gone): move it into a <!-- fwlens:keep NAME --> block; %s is left as it is",
						  path, i + 1, (int)(l->n > 60 ? 60 : l->n), l->p, l->n > 60 ? "..." : "", path);
				break;
			}
			ins = fw_xrealloc(ins, (nins + 1) * sizeof(*ins));
			ins[nins++] = (struct insert){after, i, to, to < ol.n && is_blank(&ol.v[to])};
			*kept += to - i;
			i = to;
		}
	}
	char *buf = NULL;
	size_t len = 0, cap = 0;
	if (ok) {
		/* the new lines with the admin's runs after their anchors, in the old order */
		for (size_t k = 0; k < nins; k++)
			if (ins[k].after == SIZE_MAX)
				put_run(&buf, &len, &cap, &ol, &ins[k], nl.n && !is_blank(&nl.v[0]));
		uint64_t *mine = NULL;
		size_t nmine = 0;
		for (size_t i = 0; i < nl.n; i++) {
			const struct line *l = &nl.v[i];
			if (is_trailer(l))
				continue;
			if (i + 1 < nl.n || l->n) { /* the text's last line end is not a line */
				put(&buf, &len, &cap, l->p, l->n);
				put(&buf, &len, &cap, "\n", 1);
				if (!l->in_block) {
					mine = fw_xrealloc(mine, (nmine + 1) * sizeof(*mine));
					mine[nmine++] = line_hash(l);
				}
			}
			for (size_t k = 0; k < nins; k++)
				if (ins[k].after == i)
					put_run(&buf, &len, &cap, &ol, &ins[k], i + 1 < nl.n && !is_blank(&nl.v[i + 1]));
		}
		/* the trailer of a file (standard output is not rewritten): each generated line's hash
		 * once, in sorted order */
		qsort(mine, nmine, sizeof(*mine), cmp_u64);
		if (path)
			put(&buf, &len, &cap, TRAILER, strlen(TRAILER));
		for (size_t i = 0; path && i < nmine; i++) {
			if (i && mine[i] == mine[i - 1])
				continue;
			char hex[HASH_DIGITS + 2];
			snprintf(hex, sizeof(hex), "%0*" PRIx64 " ", HASH_DIGITS, mine[i]);
			put(&buf, &len, &cap, hex, strlen(hex));
		}
		if (path)
			put(&buf, &len, &cap, "-->\n", 4);
		if (!buf)
			put(&buf, &len, &cap, "", 0);
		free(mine);
	}
	free(ins);
	free(gen);
	free(ol.v);
	free(nl.v);
	free(merged);
	*out = buf;
	*outlen = len;
	return ok;
}
