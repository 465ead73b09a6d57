/* fwlens-mutate: deterministic mutations of real inputs, run through every command that reads
 * them (tests/cli/t9000-mutations.sh runs it in `make check`).
 *
 *   fwlens-mutate --fwlens build/fwlens --work DIR [--image CAP] [--per-input N] [--jobs N]
 *                 [--no-rss] [-v] CLASS[/N]:FILE...
 *
 * CLASS says what the file is and so which commands read it: firmware, nvram, hii, acpi (binary
 * tables), acpidump (text), aml (DSDT/SSDT), lzma/lzmaf86/tiano/efi11/brotli/zlib-amd/gzip (one
 * compressed body), snapshot, and bombs (no file: decompression bombs built here). With --image,
 * NVRAM stores also give the values of `settings CAP --vars STORE`, and snapshots are read with
 * that image's forms (settings, query, doctor).
 *
 * Mutations come from the decoded structure, not from chance: the structure is parsed with the
 * project's own decoders (node tree, ACPI set) or walked here (HII packages and IFR opcodes, ACPI
 * subtables, tar members, compressed headers), and gives
 *   - truncations at every structure boundary (start, end of header, end) and one byte short;
 *   - bit flips in every header and at spread positions;
 *   - length and count fields (values in a header equal to the structure's size, header size,
 *     body size, decompressed size, child count or a Size/Length/Num field) set to 0, 1 and
 *     all-ones;
 *   - pointers (values that locate a child or another structure) pointed past the end;
 *   - loops: directory entries pointed back at the directory that holds them;
 *   - decompression bombs: declared sizes set huge, and streams that inflate past the limits.
 * The candidates are sorted and thinned evenly to N (--per-input, or /N after the class) per kind
 * of mutation, so the selection is the same on every run and spans the whole file. The commands
 * of one mutation run --jobs at a time (default 2).
 *
 *   fwlens-mutate --write-bomb BYTES OUT
 * writes a volume whose AMD zlib section inflates to exactly BYTES (the limit tests use it).
 *
 * Each run must use less than 5 s of CPU (and end within 20 s of wall time) with exit 0, 1 or 3,
 * print only "fwlens ..." lines on stderr with at most one error line and no flood of warnings
 * (60 lines at most), never die from a signal, stay within the memory bound (the unmutated
 * input's peak RSS plus 64 MiB, or the documented one-section limit for bombs) and, for
 * `extract --all`, write nothing outside its folder. Output: "ok NAME" / "FAIL NAME: why" lines
 * for tests/run.sh and a count of runs; failing inputs are kept in WORK/failures/.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "acpi/set.h"
#include "capsule/detect.h"
#include "parsers/hash.h"
#include "parsers/section.h"
#include "parsers/view.h"
#include "samples/encoders.h"

/* A run may use 5 s of CPU; it is killed as hung after 20 s of wall time (the machine running the
 * tests may be busy: wall time alone would make the verdict depend on the load). Under
 * AddressSanitizer every memory access is checked, so inflating a half-GiB bomb costs about twice
 * the CPU: the limit doubles there, still far below what a quadratic blow-up would use. */
#if defined(__SANITIZE_ADDRESS__)
#define CPU_LIMIT_MS 10000
#else
#define CPU_LIMIT_MS 5000
#endif
#define TIME_LIMIT_MS 20000
#define MAX_ARGS 12
#define MAX_STDERR (1 << 20)
/* Commands cap their warnings (tree prints 20, then how many more): a flood is a failure. */
#define MAX_STDERR_LINES 60

/* ---- mutations ------------------------------------------------------------------------------ */

enum mkind { K_TRUNC, K_FLIP, K_LEN0, K_LEN1, K_LENMAX, K_OUTSIDE, K_LOOP, K_BOMB, K_TEXT, K__COUNT };
static const char *const kind_names[K__COUNT] = {"truncate", "bit flip", "length 0", "length 1", "length all-ones",
						 "pointer outside", "pointer loop", "bomb", "text"};

struct mut {
	enum mkind kind;
	size_t off;      /* truncation length, or where the bytes change */
	unsigned width;  /* bytes written at off (0: truncation) */
	uint8_t bytes[16];
	char what[96];
	uint8_t *whole;  /* a whole replacement input (bombs), malloc'd */
	size_t whole_len;
};

struct mlist {
	struct mut *v;
	size_t n, cap;
	size_t input_len;
};

static void add(struct mlist *l, const struct mut *m)
{
	if (m->kind != K_BOMB && m->width && m->off + m->width > l->input_len)
		return;
	if (m->kind == K_TRUNC && m->off >= l->input_len)
		return;
	if (l->n == l->cap) {
		l->cap = l->cap ? l->cap * 2 : 256;
		l->v = realloc(l->v, l->cap * sizeof(*l->v));
		if (!l->v)
			abort();
	}
	l->v[l->n++] = *m;
}

static void add_trunc(struct mlist *l, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void add_trunc(struct mlist *l, size_t len, const char *fmt, ...)
{
	struct mut m = {.kind = K_TRUNC, .off = len};
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(m.what, sizeof(m.what), fmt, ap);
	va_end(ap);
	add(l, &m);
}

/* Write `value` little-endian as `width` bytes at off. */
static void add_set(struct mlist *l, enum mkind k, size_t off, unsigned width, uint64_t value, const char *what)
{
	struct mut m = {.kind = k, .off = off, .width = width};
	for (unsigned i = 0; i < width && i < 8; i++)
		m.bytes[i] = (uint8_t)(value >> (8 * i));
	snprintf(m.what, sizeof(m.what), "%s @0x%zx: %s", kind_names[k], off, what);
	add(l, &m);
}

static void add_bytes(struct mlist *l, enum mkind k, size_t off, const void *p, unsigned n, const char *what)
{
	struct mut m = {.kind = k, .off = off, .width = n};
	memcpy(m.bytes, p, n);
	snprintf(m.what, sizeof(m.what), "%s @0x%zx: %s", kind_names[k], off, what);
	add(l, &m);
}

static void add_flip(struct mlist *l, const uint8_t *p, size_t off, unsigned bit, const char *what)
{
	if (off >= l->input_len)
		return;
	uint8_t b = p[off] ^ (uint8_t)(1u << (bit & 7));
	char w[80];
	snprintf(w, sizeof(w), "bit %u of %s", bit & 7, what);
	add_bytes(l, K_FLIP, off, &b, 1, w);
}

/* The three length mutations of a field. */
static void add_len(struct mlist *l, size_t off, unsigned width, const char *what)
{
	uint64_t ones = width >= 8 ? UINT64_MAX : ((uint64_t)1 << (8 * width)) - 1;
	add_set(l, K_LEN0, off, width, 0, what);
	add_set(l, K_LEN1, off, width, 1, what);
	add_set(l, K_LENMAX, off, width, ones, what);
}

static uint64_t get_le(const uint8_t *p, unsigned width)
{
	uint64_t v = 0;
	for (unsigned i = 0; i < width; i++)
		v |= (uint64_t)p[i] << (8 * i);
	return v;
}

/* Look in p[from, to) for little-endian fields of 2, 3 (4-aligned), 4 and 8 bytes whose value is
 * one of `vals` and add their length mutations. */
static void find_len_fields(struct mlist *l, const uint8_t *p, size_t n, size_t from, size_t to, const uint64_t *vals,
			    size_t nvals, const char *what)
{
	if (to > n)
		to = n;
	static const unsigned widths[] = {2, 3, 4, 8};
	for (size_t off = from; off < to; off += 2) {
		for (size_t w = 0; w < 4; w++) {
			unsigned width = widths[w];
			if (off + width > to || (width == 3 && (off - from) % 4) || (width >= 4 && (off - from) % 4))
				continue;
			uint64_t v = get_le(p + off, width);
			for (size_t k = 0; k < nvals; k++) {
				if (vals[k] >= 2 && v == vals[k]) {
					char buf[80];
					snprintf(buf, sizeof(buf), "%u-byte field = 0x%" PRIx64 " of %s", width, v, what);
					add_len(l, off, width, buf);
					break;
				}
			}
		}
	}
}

/* Spread bit flips: `count` positions from a fixed sequence over [from, to). */
static void add_spread_flips(struct mlist *l, const uint8_t *p, size_t from, size_t to, unsigned count, const char *what)
{
	if (to > l->input_len)
		to = l->input_len;
	if (to <= from)
		return;
	uint64_t x = 0x9E3779B97F4A7C15ull ^ (uint64_t)from;
	for (unsigned i = 0; i < count; i++) {
		x = x * 6364136223846793005ull + 1442695040888963407ull;
		add_flip(l, p, from + (size_t)((x >> 17) % (to - from)), (unsigned)(x >> 61), what);
	}
}

/* ---- firmware: the node tree ------------------------------------------------------------------ */

struct fw_walk {
	struct mlist *l;
	const uint8_t *p;
	size_t n;
	struct fw_node **nodes; /* nodes with a known offset, tree order */
	size_t nnodes, cap;
};

static bool collect_node(struct fw_node *node, void *ctx)
{
	struct fw_walk *w = ctx;
	if (node->offset == FW_OFFSET_UNKNOWN || node->offset >= w->n)
		return true;
	if (w->nnodes == w->cap) {
		w->cap = w->cap ? w->cap * 2 : 256;
		w->nodes = realloc(w->nodes, w->cap * sizeof(*w->nodes));
		if (!w->nodes)
			abort();
	}
	w->nodes[w->nnodes++] = node;
	return true;
}

static uint64_t field_uint(const struct fw_node *n, const char *key, bool *ok)
{
	const struct fw_field_value *f = fw_node_field_get(n, key);
	*ok = f && f->type == FW_VAL_UINT;
	return *ok ? f->v.u : 0;
}

/* Where a node's own record lies: a directory entry's table row, else its header (at least 16
 * and at most 64 bytes). */
static void node_record(const struct fw_node *node, size_t *from, size_t *to)
{
	bool ok;
	uint64_t row = field_uint(node, "TableOffset", &ok);
	if (ok) {
		*from = (size_t)row;
		*to = (size_t)row + 24;
		return;
	}
	size_t hs = node->header_size ? node->header_size : 16;
	if (hs > 64)
		hs = 64;
	*from = (size_t)node->offset;
	*to = (size_t)node->offset + hs;
}

static bool key_is_count_or_length(const char *k)
{
	return strstr(k, "Size") || strstr(k, "Length") || strstr(k, "Num") || strstr(k, "Count") || strstr(k, "Entries");
}

static const struct fw_node *containing_directory(const struct fw_node *n)
{
	for (const struct fw_node *p = n->parent; p; p = p->parent)
		if (p->kind == FW_NODE_PSP_DIRECTORY && p->offset != FW_OFFSET_UNKNOWN)
			return p;
	return NULL;
}

static void firmware_mutations(struct mlist *l, const uint8_t *p, size_t n)
{
	struct fw_firmware fw;
	struct fw_open_options o = {0};
	if (!fw_firmware_parse_buffer(p, n, &o, &fw, NULL))
		return;
	struct fw_walk w = {.l = l, .p = p, .n = n};
	fw_node_walk(fw.tree->root, collect_node, &w);
	/* bases a pointer may count from: the start of the file and of every image */
	size_t bases[8] = {0};
	size_t nbases = 1;
	for (size_t i = 0; i < w.nnodes && nbases < 8; i++)
		if (w.nodes[i]->kind == FW_NODE_IMAGE && w.nodes[i]->offset)
			bases[nbases++] = (size_t)w.nodes[i]->offset;

	for (size_t i = 0; i < w.nnodes; i++) {
		const struct fw_node *node = w.nodes[i];
		char what[64];
		snprintf(what, sizeof(what), "%s %s", fw_node_kind_name(node->kind), node->type ? node->type : "");
		size_t off = (size_t)node->offset, end = off + (size_t)node->size;
		/* boundaries */
		add_trunc(l, off, "truncate at the start of %s @0x%zx", what, off);
		if (node->header_size)
			add_trunc(l, off + node->header_size, "truncate after the header of %s @0x%zx", what, off);
		if (end > off && end < n) {
			add_trunc(l, end, "truncate at the end of %s @0x%zx", what, off);
			add_trunc(l, end - 1, "truncate one byte short of the end of %s @0x%zx", what, off);
		}
		size_t from, to;
		node_record(node, &from, &to);
		/* flips in the record */
		for (size_t k = from; k < to && k < n; k += 3)
			add_flip(l, p, k, (unsigned)(k * 5), what);
		/* length and count fields */
		uint64_t vals[16];
		size_t nv = 0;
		vals[nv++] = node->size;
		vals[nv++] = node->header_size;
		if (node->size > node->header_size)
			vals[nv++] = node->size - node->header_size;
		if (node->flags & FW_NODE_F_COMPRESSED)
			vals[nv++] = node->body.len;
		vals[nv++] = node->nchildren;
		struct fw_field_iter it;
		for (const struct fw_field_value *f = fw_field_first(&it, node); f && nv < 16; f = fw_field_next(&it))
			if (f->type == FW_VAL_UINT && key_is_count_or_length(f->key))
				vals[nv++] = f->v.u;
		find_len_fields(l, p, n, from, to, vals, nv, what);
		/* pointers: 4-byte values whose low 24 bits locate another node from some base */
		for (size_t k = from; k + 4 <= to && k + 4 <= n; k += 4) {
			uint32_t v = (uint32_t)get_le(p + k, 4);
			for (size_t t = 0; t < w.nnodes; t++) {
				const struct fw_node *target = w.nodes[t];
				if (target == node)
					continue;
				for (size_t b = 0; b < nbases; b++) {
					if (target->offset < bases[b] + 0x100)
						continue;
					uint32_t rel = (uint32_t)(target->offset - bases[b]);
					if ((v & 0xFFFFFFu) != (rel & 0xFFFFFFu) || (v >> 24 && (v >> 24) < 0x40 && v != rel))
						continue;
					char buf[96];
					uint32_t outside = (v & 0xFF000000u) | (uint32_t)((n - bases[b] + 0x10000) & 0xFFFFFFu);
					snprintf(buf, sizeof(buf), "0x%x (to %s @0x%" PRIx64 ") of %s", v,
						 fw_node_kind_name(target->kind), target->offset, what);
					add_set(l, K_OUTSIDE, k, 4, outside, buf);
					add_set(l, K_OUTSIDE, k, 4, 0xFFFFFFF0u, buf);
					const struct fw_node *dir = containing_directory(node);
					if (dir && dir->offset >= bases[b]) {
						uint32_t loop = (v & 0xFF000000u) | ((uint32_t)(dir->offset - bases[b]) & 0xFFFFFFu);
						if (loop != v)
							add_set(l, K_LOOP, k, 4, loop, buf);
					}
					goto next_word;
				}
			}
		next_word:;
		}
	}
	free(w.nodes);
	fw_firmware_close(&fw);
}

/* ---- HII package lists and IFR opcodes (walked here: blobs are not firmware trees) -------------- */

static void ifr_mutations(struct mlist *l, const uint8_t *p, size_t from, size_t to)
{
	for (size_t off = from; off + 2 <= to;) {
		uint8_t len = p[off + 1] & 0x7F;
		if (len < 2 || off + len > to)
			break;
		char what[48];
		snprintf(what, sizeof(what), "IFR opcode 0x%02x", p[off]);
		add_trunc(l, off, "truncate at %s @0x%zx", what, off);
		uint8_t lens[4] = {0, 1, 0x7F, (uint8_t)(p[off + 1] ^ 0x80)};
		static const enum mkind kinds[4] = {K_LEN0, K_LEN1, K_LENMAX, K_FLIP};
		static const char *const names[4] = {"length 0", "length 1", "length 127", "scope bit"};
		for (int k = 0; k < 4; k++) {
			uint8_t b = k == 3 ? lens[3] : (uint8_t)((p[off + 1] & 0x80) | lens[k]);
			char buf[64];
			snprintf(buf, sizeof(buf), "%s of %s", names[k], what);
			add_bytes(l, kinds[k], off + 1, &b, 1, buf);
		}
		if (len > 2)
			add_flip(l, p, off + 2 + (off % (len - 2)), (unsigned)off, what);
		off += len;
	}
}

static void hii_mutations(struct mlist *l, const uint8_t *p, size_t n)
{
	/* a package list: GUID, u32 length covering it, packages (u24 length, u8 type) ending with
	 * an END package exactly at its end */
	for (size_t at = 0; at + 24 + 4 <= n; at += 4) {
		uint32_t len = (uint32_t)get_le(p + at + 16, 4);
		if (len < 28 || len > n - at)
			continue;
		size_t off = at + 24, end = at + len;
		bool ok = false;
		while (off + 4 <= end) {
			uint32_t plen = (uint32_t)get_le(p + off, 3);
			if (plen < 4 || plen > end - off)
				break;
			if (p[off + 3] == 0xDF) {
				ok = off + plen == end;
				break;
			}
			off += plen;
		}
		if (!ok)
			continue;
		add_trunc(l, at + 24, "truncate after the package list header @0x%zx", at);
		add_len(l, at + 16, 4, "package list length");
		for (off = at + 24; off + 4 <= end;) {
			uint32_t plen = (uint32_t)get_le(p + off, 3);
			uint8_t type = p[off + 3];
			char what[48];
			snprintf(what, sizeof(what), "package type 0x%02x @0x%zx", type, off);
			add_trunc(l, off, "truncate at %s", what);
			add_trunc(l, off + plen - 1, "truncate one byte short of the end of %s", what);
			add_len(l, off, 3, what);
			add_flip(l, p, off + 3, 0, what);
			if (type == 0x02) /* forms: the opcodes */
				ifr_mutations(l, p, off + 4, off + plen);
			else if (type == 0x04 && plen > 0x40)
				add_spread_flips(l, p, off + 4, off + plen, 8, what);
			if (type == 0xDF)
				break;
			off += plen;
		}
		at = end - 4;
	}
}

/* ---- ACPI: tables and their subtables ---------------------------------------------------------- */

struct subtables {
	const char *sig;
	unsigned first;   /* offset of the first subtable */
	unsigned len_off; /* where its length is */
	unsigned len_width;
	unsigned fixed;   /* fixed-size entries when len_width == 0 */
};
static const struct subtables subtable_layouts[] = {
	{"IVRS", 48, 2, 2, 0}, {"SRAT", 48, 1, 1, 0}, {"APIC", 44, 1, 1, 0}, {"DMAR", 48, 2, 2, 0},
	{"HMAT", 40, 4, 4, 0}, {"CEDT", 36, 2, 2, 0}, {"MCFG", 44, 0, 0, 16}, {"XSDT", 36, 0, 0, 8},
	{"RSDT", 36, 0, 0, 4}, {"SLIT", 44, 0, 0, 0},
};

/* IVHD device entries: 4 bytes below type 0x40, 8 bytes up to 0x7F, variable for 0xF0. */
static void ivhd_entries(struct mlist *l, const uint8_t *p, size_t from, size_t to)
{
	for (size_t off = from; off + 4 <= to;) {
		uint8_t type = p[off];
		size_t size = type < 0x40 ? 4 : type < 0x80 ? 8 : 0;
		if (type == 0xF0 && off + 22 <= to)
			size = 22 + p[off + 21];
		if (!size || off + size > to)
			break;
		char what[48];
		snprintf(what, sizeof(what), "IVHD device entry type 0x%02x", type);
		add_trunc(l, off, "truncate at %s @0x%zx", what, off);
		add_flip(l, p, off, (unsigned)off, what);
		if (type == 0xF0)
			add_len(l, off + 21, 1, "UID length of an ACPI HID device entry");
		off += size;
	}
}

static void table_mutations(struct mlist *l, const uint8_t *p, size_t n, size_t at, size_t len, const char *sig)
{
	char what[32];
	snprintf(what, sizeof(what), "%.4s table @0x%zx", sig, at);
	if (len > n - at)
		len = n - at;
	add_trunc(l, at, "truncate at the start of the %s", what);
	add_trunc(l, at + 36, "truncate after the header of the %s", what);
	add_trunc(l, at + len - 1, "truncate one byte short of the end of the %s", what);
	add_len(l, at + 4, 4, what);
	add_flip(l, p, at + 9, 0, "checksum");
	add_flip(l, p, at + 8, 1, "revision");
	add_spread_flips(l, p, at + 36, at + len, 6, what);
	if (strncmp(sig, "FACP", 4) == 0) {
		static const unsigned ends[] = {116, 129, 132, 244, 268, 276};
		for (size_t i = 0; i < sizeof(ends) / sizeof(ends[0]); i++)
			if (ends[i] < len)
				add_trunc(l, at + ends[i], "truncate the FADT at revision boundary 0x%x", ends[i]);
		/* DSDT/FACS pointers */
		static const unsigned ptrs[] = {36, 40, 132, 140};
		for (size_t i = 0; i < 4; i++)
			if (ptrs[i] + 8 <= len)
				add_set(l, K_OUTSIDE, at + ptrs[i], i < 2 ? 4 : 8, 0xFFFFFFF0u, "FADT table pointer");
	}
	if (strncmp(sig, "SLIT", 4) == 0 && len >= 44) {
		add_len(l, at + 36, 8, "SLIT locality count");
		add_set(l, K_LENMAX, at + 36, 8, 0x100000, "SLIT locality count 2^20");
	}
	for (size_t i = 0; i < sizeof(subtable_layouts) / sizeof(subtable_layouts[0]); i++) {
		const struct subtables *s = &subtable_layouts[i];
		if (strncmp(sig, s->sig, 4) != 0)
			continue;
		for (size_t off = at + s->first; off < at + len;) {
			size_t size = s->fixed;
			if (s->len_width) {
				if (off + s->len_off + s->len_width > at + len)
					break;
				size = (size_t)get_le(p + off + s->len_off, s->len_width);
			}
			if (!size || off + size > at + len)
				break;
			char sub[48];
			snprintf(sub, sizeof(sub), "%.4s subtable type 0x%02x", sig, p[off]);
			add_trunc(l, off, "truncate at %s @0x%zx", sub, off);
			add_trunc(l, off + size - 1, "truncate one byte short of the end of %s @0x%zx", sub, off);
			if (s->len_width)
				add_len(l, off + s->len_off, s->len_width, sub);
			else if (s->fixed >= 8)
				add_set(l, K_OUTSIDE, off, 8, UINT64_MAX - 0xF, "table address");
			add_flip(l, p, off, (unsigned)off, sub);
			if (strncmp(sig, "IVRS", 4) == 0 && (p[off] == 0x10 || p[off] == 0x11 || p[off] == 0x40))
				ivhd_entries(l, p, off + (p[off] == 0x10 ? 24 : 40), off + size);
			off += size;
		}
	}
}

static void acpi_bin_mutations(struct mlist *l, const uint8_t *p, size_t n)
{
	struct fw_acpi_set *s = fw_acpi_set_new();
	if (fw_acpi_set_add_buffer(s, p, n, "mutate", NULL)) {
		for (size_t i = 0; i < s->ntables; i++) {
			const struct fw_acpi_table *t = s->tables[i];
			if (t->data.base == FW_OFFSET_UNKNOWN || t->data.base >= n)
				continue;
			if (strcmp(t->signature, "RSDP") == 0) {
				add_len(l, (size_t)t->data.base + 20, 4, "RSDP length");
				add_set(l, K_OUTSIDE, (size_t)t->data.base + 24, 8, UINT64_MAX - 0xF, "RSDP XSDT address");
				continue;
			}
			table_mutations(l, p, n, (size_t)t->data.base, t->length, t->signature);
		}
	}
	fw_acpi_set_free(s);
}

/* acpidump text: lines, header lines, and the hex bytes of each table's Length field. */
static void acpidump_mutations(struct mlist *l, const uint8_t *p, size_t n)
{
	size_t line = 0;
	unsigned lineno = 0;
	bool after_header = false;
	for (size_t off = 0; off < n; off++) {
		if (p[off] != '\n')
			continue;
		size_t len = off - line;
		const char *s = (const char *)p + line;
		lineno++;
		bool header = len > 6 && memmem(s, len, " @ 0x", 5) != NULL;
		if (header) {
			add_trunc(l, line, "truncate before the header on line %u", lineno);
			add_trunc(l, off + 1, "truncate after the header on line %u", lineno);
			add_bytes(l, K_TEXT, line + 1, "#", 1, "a damaged table name");
			const char *at = memmem(s, len, "0x", 2);
			if (at)
				add_bytes(l, K_TEXT, (size_t)(at - (const char *)p) + 2, "zz", 2, "a damaged address");
		} else if (after_header && len > 30 && memcmp(s, "    0000: ", 10) == 0) {
			/* bytes 4..7 of the table: its Length */
			static const char *const vals[3] = {"00 00 00 00", "01 00 00 00", "FF FF FF FF"};
			static const enum mkind kinds[3] = {K_LEN0, K_LEN1, K_LENMAX};
			for (int k = 0; k < 3; k++)
				add_bytes(l, kinds[k], line + 10 + 12, vals[k], 11, "the table Length in hex");
			add_bytes(l, K_TEXT, line + 10, "G", 1, "a hex digit");
			add_bytes(l, K_TEXT, line + 6, "?", 1, "an offset digit");
		} else if (len > 20 && lineno % 7 == 0) {
			add_trunc(l, line + len / 2, "truncate in the middle of line %u", lineno);
			add_bytes(l, K_TEXT, line + 12, "\t", 1, "a separator");
		}
		after_header = header;
		line = off + 1;
	}
	add_spread_flips(l, p, 0, n, 12, "the text");
}

/* AML tables: the header, then package lengths (a flip in the first bytes of objects). */
static void aml_mutations(struct mlist *l, const uint8_t *p, size_t n)
{
	if (n >= 36)
		table_mutations(l, p, n, 0, (size_t)get_le(p + 4, 4), (const char *)p);
	for (size_t off = 36; off < n; off += n / 24 + 1)
		add_trunc(l, off, "truncate the AML at 0x%zx", off);
	add_spread_flips(l, p, 36, n, 24, "AML");
}

/* ---- compressed bodies ---------------------------------------------------------------------- */

static void compressed_mutations(struct mlist *l, const char *algo, const uint8_t *p, size_t n)
{
	size_t hdr = 0;
	if (!strcmp(algo, "lzma") || !strcmp(algo, "lzmaf86")) {
		hdr = 13;
		add_len(l, 5, 8, "LZMA uncompressed size");
		add_set(l, K_BOMB, 5, 8, 0x20000001, "LZMA uncompressed size one past 512 MiB");
		add_set(l, K_BOMB, 1, 4, 0xFFFFFFFF, "LZMA dictionary size 4 GiB");
		add_flip(l, p, 0, 6, "LZMA properties");
	} else if (!strcmp(algo, "tiano") || !strcmp(algo, "efi11")) {
		hdr = 8;
		add_len(l, 0, 4, "compressed size");
		add_len(l, 4, 4, "original size");
		add_set(l, K_BOMB, 4, 4, 0x20000001, "original size one past 512 MiB");
	} else if (!strcmp(algo, "brotli")) {
		hdr = 16;
		add_len(l, 0, 8, "decoded size");
		add_len(l, 8, 8, "scratch size");
		add_set(l, K_BOMB, 0, 8, 0x20000001, "decoded size one past 512 MiB");
	} else if (!strcmp(algo, "zlib-amd")) {
		hdr = FW_AMD_ZLIB_HEADER_SIZE;
		add_len(l, 0x14, 4, "compressed size");
	} else if (!strcmp(algo, "gzip")) {
		hdr = 10;
		add_flip(l, p, 3, 2, "gzip flags (FEXTRA)");
		add_flip(l, p, 3, 3, "gzip flags (FNAME)");
		if (n > 8)
			add_len(l, n - 4, 4, "gzip ISIZE");
	}
	add_trunc(l, hdr, "truncate after the %s header", algo);
	if (hdr)
		add_trunc(l, hdr - 1, "truncate one byte short of the %s header", algo);
	add_trunc(l, n / 2, "truncate the %s stream in the middle", algo);
	add_trunc(l, n - 1, "truncate the last byte of the %s stream", algo);
	add_spread_flips(l, p, hdr, n, 24, "the stream");
}

/* ---- snapshots: a ustar archive --------------------------------------------------------------- */

static uint64_t octal(const uint8_t *p, size_t n)
{
	uint64_t v = 0;
	for (size_t i = 0; i < n && p[i] >= '0' && p[i] <= '7'; i++)
		v = v * 8 + (uint64_t)(p[i] - '0');
	return v;
}

static void snapshot_mutations(struct mlist *l, const uint8_t *p, size_t n)
{
	unsigned member = 0;
	for (size_t off = 0; off + 512 <= n; member++) {
		if (p[off] == 0)
			break;
		uint64_t size = octal(p + off + 124, 12);
		char name[48];
		snprintf(name, sizeof(name), "tar member %u (%.30s)", member, (const char *)p + off);
		size_t data = off + 512, end = data + (size_t)((size + 511) & ~(uint64_t)511);
		if (member < 4 || member % 11 == 0) {
			add_trunc(l, off, "truncate at the header of %s", name);
			add_trunc(l, data, "truncate after the header of %s", name);
			if (size)
				add_trunc(l, data + (size_t)size / 2, "truncate inside %s", name);
			add_bytes(l, K_LEN0, off + 124, "00000000000", 11, name);
			add_bytes(l, K_LEN1, off + 124, "00000000001", 11, name);
			add_bytes(l, K_LENMAX, off + 124, "77777777777", 11, name);
			add_bytes(l, K_FLIP, off + 156, "5", 1, "typeflag: a folder");
			add_bytes(l, K_FLIP, off + 156, "2", 1, "typeflag: a symbolic link");
			add_bytes(l, K_TEXT, off, "../../etc/passwd", 17, "a member name climbing out");
			add_flip(l, p, off + 148, 0, "the header checksum");
			/* a gzip member: its header and ISIZE */
			if (size > 18 && p[data] == 0x1F && p[data + 1] == 0x8B) {
				add_flip(l, p, data + 3, 2, "gzip flags");
				add_len(l, data + (size_t)size - 4, 4, "gzip ISIZE");
				add_spread_flips(l, p, data + 10, data + (size_t)size, 4, name);
			} else if (size) {
				add_spread_flips(l, p, data, data + (size_t)size, member == 0 ? 16 : 3, name);
			}
		}
		if (end <= off || end > n)
			break;
		off = end;
	}
}

/* ---- bombs: streams that inflate past the limits ----------------------------------------------- */

/* A zlib stream of zero bytes: one fixed-Huffman block of a literal 0 and matches of length 258
 * at distance 1 (13 bits each), so 513 MiB take 3.4 MB. */
struct bits {
	struct sbuf b;
	uint32_t acc;
	unsigned nacc;
};
static void put_bits(struct bits *w, uint32_t v, unsigned n) /* LSB first */
{
	for (unsigned i = 0; i < n; i++) {
		w->acc |= ((v >> i) & 1u) << w->nacc;
		if (++w->nacc == 8) {
			sb_put8(&w->b, (uint8_t)w->acc);
			w->acc = 0;
			w->nacc = 0;
		}
	}
}
static void put_code(struct bits *w, uint32_t code, unsigned n) /* Huffman codes MSB first */
{
	for (unsigned i = n; i-- > 0;)
		put_bits(w, (code >> i) & 1u, 1);
}

/* `total` zero bytes (at least 1): a literal 0, matches of 258, then literals for the rest. */
static uint8_t *zlib_zeros(uint64_t total, size_t *len, uint64_t *plain)
{
	struct bits w = {0};
	uint64_t matches = (total - 1) / 258, rest = (total - 1) % 258;
	sb_put8(&w.b, 0x78);
	sb_put8(&w.b, 0x01);
	put_bits(&w, 1, 1);          /* BFINAL */
	put_bits(&w, 1, 2);          /* fixed Huffman */
	put_code(&w, 0x30, 8);       /* literal 0 */
	for (uint64_t i = 0; i < matches; i++) {
		put_code(&w, 0xC5, 8); /* length 258 (code 285) */
		put_code(&w, 0, 5);    /* distance 1 (code 0) */
	}
	for (uint64_t i = 0; i < rest; i++)
		put_code(&w, 0x30, 8);
	put_code(&w, 0, 7);          /* end of block */
	if (w.nacc)
		put_bits(&w, 0, 8 - w.nacc);
	*plain = total;
	uint32_t adler = (uint32_t)((*plain % 65521) << 16 | 1); /* Adler-32 of zeros */
	sb_put8(&w.b, (uint8_t)(adler >> 24));
	sb_put8(&w.b, (uint8_t)(adler >> 16));
	sb_put8(&w.b, (uint8_t)(adler >> 8));
	sb_put8(&w.b, (uint8_t)adler);
	return sb_take(&w.b, len);
}

/* A volume holding one file whose only section is a GUID-defined AMD zlib section. */
static uint8_t *volume_with_zlib_section(const uint8_t *stream, size_t slen, size_t *len)
{
	struct sbuf body = {0};
	size_t sec = sb_put(&body, NULL, FW_SECTION_HEADER_SIZE + fw_section_guided_layout.size);
	size_t total = FW_SECTION_HEADER_SIZE + fw_section_guided_layout.size + FW_AMD_ZLIB_HEADER_SIZE + slen;
	fw_layout_put(&fw_section_layout, sb_at(&body, sec), SEC_SIZE, total);
	fw_layout_put(&fw_section_layout, sb_at(&body, sec), SEC_TYPE, FW_SECTION_GUID_DEFINED);
	uint8_t *g = sb_at(&body, sec + FW_SECTION_HEADER_SIZE);
	fw_layout_put_guid(&fw_section_guided_layout, g, SEC_GUIDED_GUID, &fw_guid_section_amd_zlib);
	fw_layout_put(&fw_section_guided_layout, g, SEC_GUIDED_DATA_OFFSET,
		      FW_SECTION_HEADER_SIZE + fw_section_guided_layout.size);
	fw_layout_put(&fw_section_guided_layout, g, SEC_GUIDED_ATTRIBUTES, FW_GUIDED_PROCESSING_REQUIRED);
	size_t h = sb_put(&body, NULL, FW_AMD_ZLIB_HEADER_SIZE);
	fw_put_le32(sb_at(&body, h + 0x14), (uint32_t)slen);
	sb_put(&body, stream, slen);
	struct fvb v;
	size_t fv_len = (body.len + 0x1000 + 0xFFF) & ~(size_t)0xFFF;
	struct fw_guid name = sample_guid("3E7B9A41-6C0D-4F2B-9A11-424F4D422101");
	fv_begin(&v, &guid_ffs2, NULL, fv_len);
	fv_add_file(&v, &name, 0x07 /* DXE driver */, 0, body.p, body.len);
	sb_free(&body);
	return fv_finish(&v, len);
}

static void bomb_inputs(struct mlist *l)
{
	/* 1. one section inflating to 513 MiB: past the 512 MiB limit of one section */
	uint64_t plain;
	size_t slen, len;
	uint8_t *z = zlib_zeros(513ull << 20, &slen, &plain);
	struct mut m = {.kind = K_BOMB};
	m.whole = volume_with_zlib_section(z, slen, &len);
	m.whole_len = len;
	snprintf(m.what, sizeof(m.what), "bomb: an AMD zlib section of %zu bytes inflating to %" PRIu64 " bytes", slen,
		 plain);
	add(l, &m);
	free(z);
	/* 2. the same stream cut short: inflates 256 MiB, then ends without its end of block */
	z = zlib_zeros(256ull << 20, &slen, &plain);
	m.whole = volume_with_zlib_section(z, slen - 8, &len);
	m.whole_len = len;
	snprintf(m.what, sizeof(m.what), "bomb: a truncated AMD zlib section inflating 256 MiB");
	add(l, &m);
	free(z);
}

/* ---- running commands ------------------------------------------------------------------------ */

struct result {
	int status;
	bool timed_out;
	long wall_ms;
	long cpu_ms;
	long rss_kb;
	char *err; /* stderr, NUL-terminated */
	size_t errlen;
};

static long now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* One child process: fwlens with stdout to /dev/null and stderr captured. */
struct job {
	char *argv[MAX_ARGS + 2];
	bool skip; /* needs --image, which was not given */
	pid_t pid;
	int fd;
	long start;
	bool running, done;
	struct result r;
};

static void job_start(struct job *j)
{
	memset(&j->r, 0, sizeof(j->r));
	j->r.err = malloc(MAX_STDERR + 1);
	int pfd[2];
	if (!j->r.err || pipe(pfd) != 0)
		abort();
	j->start = now_ms();
	pid_t pid = fork();
	if (pid < 0)
		abort();
	if (pid == 0) {
		setpgid(0, 0);
		int null = open("/dev/null", O_RDWR);
		dup2(null, 0);
		dup2(null, 1);
		dup2(pfd[1], 2);
		close(pfd[0]);
		close(pfd[1]);
		execv(j->argv[0], j->argv);
		_exit(127);
	}
	setpgid(pid, pid);
	close(pfd[1]);
	fcntl(pfd[0], F_SETFL, O_NONBLOCK);
	j->pid = pid;
	j->fd = pfd[0];
	j->running = true;
}

static void job_finish(struct job *j, bool kill_it)
{
	if (kill_it) {
		j->r.timed_out = true;
		kill(-j->pid, SIGKILL);
	}
	close(j->fd);
	struct rusage ru;
	while (wait4(j->pid, &j->r.status, 0, &ru) < 0 && errno == EINTR)
		;
	j->r.wall_ms = now_ms() - j->start;
	if (j->r.wall_ms > TIME_LIMIT_MS)
		j->r.timed_out = true;
	j->r.rss_kb = ru.ru_maxrss;
	j->r.cpu_ms = (ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000 + (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1000;
	j->r.err[j->r.errlen] = '\0';
	j->running = false;
	j->done = true;
}

/* Run the jobs, at most `parallel` at a time. A job that has closed its stderr has ended (or
 * is ending), so it is reaped then; one that is still running at the time limit is killed with
 * its process group. */
static void run_jobs(struct job *jobs, size_t n, unsigned parallel)
{
	size_t next = 0, active = 0, finished = 0;
	while (finished < n) {
		while (active < parallel && next < n) {
			if (jobs[next].skip) {
				next++, finished++;
				continue;
			}
			job_start(&jobs[next++]);
			active++;
		}
		struct pollfd pf[16];
		struct job *who[16];
		size_t np = 0;
		long wait_ms = TIME_LIMIT_MS;
		for (size_t i = 0; i < n; i++) {
			if (!jobs[i].running)
				continue;
			long left = TIME_LIMIT_MS - (now_ms() - jobs[i].start);
			if (left <= 0) {
				job_finish(&jobs[i], true);
				active--, finished++;
				continue;
			}
			if (left < wait_ms)
				wait_ms = left;
			pf[np] = (struct pollfd){jobs[i].fd, POLLIN, 0};
			who[np++] = &jobs[i];
		}
		if (!np)
			continue;
		if (poll(pf, np, (int)wait_ms) <= 0)
			continue;
		for (size_t k = 0; k < np; k++) {
			if (!pf[k].revents)
				continue;
			struct job *j = who[k];
			char buf[4096];
			ssize_t got = read(j->fd, buf, sizeof(buf));
			if (got > 0) {
				size_t room = MAX_STDERR - j->r.errlen, take = (size_t)got < room ? (size_t)got : room;
				memcpy(j->r.err + j->r.errlen, buf, take);
				j->r.errlen += take;
			} else if (got == 0 || (errno != EAGAIN && errno != EINTR)) {
				job_finish(j, false);
				active--, finished++;
			}
		}
	}
}

/* Why a run is not acceptable, or NULL. */
static const char *judge(const struct result *r, long rss_limit_kb, char *why, size_t len)
{
	if (r->timed_out) {
		snprintf(why, len, "did not end within %d s: a hang", TIME_LIMIT_MS / 1000);
		return why;
	}
	if (r->cpu_ms >= CPU_LIMIT_MS) {
		snprintf(why, len, "used %ld ms of CPU, over %d", r->cpu_ms, CPU_LIMIT_MS);
		return why;
	}
	if (WIFSIGNALED(r->status)) {
		snprintf(why, len, "killed by signal %d", WTERMSIG(r->status));
		return why;
	}
	int code = WEXITSTATUS(r->status);
	if (code != 0 && code != 1 && code != 3) {
		snprintf(why, len, "exit status %d", code);
		return why;
	}
	unsigned errors = 0, lines = 0;
	for (const char *s = r->err; *s; lines++) {
		const char *e = strchr(s, '\n');
		size_t n = e ? (size_t)(e - s) : strlen(s);
		if (n < 7 || strncmp(s, "fwlens ", 7) != 0 || n > 2000) {
			snprintf(why, len, "stray stderr line \"%.*s\"", (int)(n < 120 ? n : 120), s);
			return why;
		}
		if (memmem(s, n, ": error: ", 9))
			errors++;
		s = e ? e + 1 : s + n;
	}
	if (errors > 1) {
		snprintf(why, len, "%u error lines on stderr", errors);
		return why;
	}
	if (lines > MAX_STDERR_LINES) {
		snprintf(why, len, "%u lines on stderr (a flood of warnings)", lines);
		return why;
	}
	if (code == 3 && errors == 0) {
		snprintf(why, len, "exit status 3 without an error line");
		return why;
	}
	if (rss_limit_kb && r->rss_kb > rss_limit_kb) {
		snprintf(why, len, "peak RSS %ld KiB over the bound of %ld KiB", r->rss_kb, rss_limit_kb);
		return why;
	}
	return NULL;
}

/* ---- classes and their commands ------------------------------------------------------------- */

struct command {
	const char *args[MAX_ARGS]; /* "@" = the input, "%" = a fresh output folder, "%I" = --image */
};

static const struct command firmware_cmds[] = {
	{{"tree", "@"}},
	{{"tree", "--format", "json", "--crc", "@"}},
	{{"tree", "--format", "xml", "@"}},
	{{"info", "--format", "json", "@"}},
	{{"nvram", "--all-versions", "--format", "json", "@"}},
	{{"ifr", "--format", "json", "@"}},
	{{"settings", "--format", "sce", "@"}},
	{{"psp", "--inflate", "@"}},
	{{"verify", "@"}},
	{{"acpi", "--format", "json", "@"}},
	{{"extract", "--all", "%", "@"}},
	{{NULL}},
};
static const struct command nvram_cmds[] = {
	{{"nvram", "--all-versions", "--format", "json", "@"}},
	{{"nvram", "--secureboot", "@"}},
	{{"tree", "@"}},
	{{"info", "@"}},
	{{"settings", "%I", "--vars", "@", "--format", "json"}}, /* values bound from the mutated store */
	{{NULL}},
};
static const struct command hii_cmds[] = {
	{{"ifr", "@"}},
	{{"ifr", "--format", "json", "@"}},
	{{"ifr", "--format", "ifrextractor", "@"}},
	{{"settings", "--format", "markdown", "@"}},
	{{"settings", "--format", "json", "--vars", "@", "@"}},
	{{NULL}},
};
static const struct command acpi_cmds[] = {
	{{"acpi", "@"}},
	{{"acpi", "--format", "json", "@"}},
	{{"acpi", "--format", "xml", "@"}},
	{{"acpi", "topo", "--no-dsl", "@"}},
	{{NULL}},
};
static const struct command aml_cmds[] = {
	{{"acpi", "@"}},
	{{"acpi", "topo", "--iasl-timeout", "3", "@"}},
	{{NULL}},
};
static const struct command snapshot_cmds[] = {
	{{"snapshot", "show", "--format", "json", "@"}},
	{{"doctor", "@"}},
	{{"notes", "@"}},
	{{"doctor", "@", "--image", "%I", "--format", "json"}},
	{{"settings", "@", "--image", "%I", "--format", "sce"}},
	{{"query", "@", "--image", "%I"}},
	{{"acpi", "topo", "--no-dsl", "@"}},
	{{NULL}},
};
static const struct command bomb_cmds[] = {
	{{"tree", "@"}},
	{{"info", "--format", "json", "@"}},
	{{NULL}},
};
#define DECOMPRESS_CMD(a) {{{"decompress", "--algo", a, "@"}}, {{NULL}}}
static const struct command lzma_cmds[] = DECOMPRESS_CMD("lzma"), lzmaf86_cmds[] = DECOMPRESS_CMD("lzmaf86"),
			    tiano_cmds[] = DECOMPRESS_CMD("tiano"), efi11_cmds[] = DECOMPRESS_CMD("efi11"),
			    brotli_cmds[] = DECOMPRESS_CMD("brotli"), zlib_cmds[] = DECOMPRESS_CMD("zlib-amd"),
			    gzip_cmds[] = DECOMPRESS_CMD("gzip");

static const struct class {
	const char *name;
	const struct command *cmds;
} classes[] = {
	{"firmware", firmware_cmds}, {"nvram", nvram_cmds},     {"hii", hii_cmds},         {"acpi", acpi_cmds},
	{"acpidump", acpi_cmds},     {"aml", aml_cmds},         {"snapshot", snapshot_cmds}, {"bombs", bomb_cmds},
	{"lzma", lzma_cmds},         {"lzmaf86", lzmaf86_cmds}, {"tiano", tiano_cmds},     {"efi11", efi11_cmds},
	{"brotli", brotli_cmds},     {"zlib-amd", zlib_cmds},   {"gzip", gzip_cmds},
};

static void mutations_for(const char *cls, const uint8_t *p, size_t n, struct mlist *l)
{
	l->input_len = n;
	if (!strcmp(cls, "firmware") || !strcmp(cls, "nvram")) {
		firmware_mutations(l, p, n);
		hii_mutations(l, p, n);
		if (n >= 512 && memcmp(p + 257, "ustar", 5) == 0) /* a tar of efivarfs files */
			snapshot_mutations(l, p, n);
	} else if (!strcmp(cls, "hii")) {
		hii_mutations(l, p, n);
	} else if (!strcmp(cls, "acpi")) {
		acpi_bin_mutations(l, p, n);
	} else if (!strcmp(cls, "acpidump")) {
		acpidump_mutations(l, p, n);
	} else if (!strcmp(cls, "aml")) {
		aml_mutations(l, p, n);
	} else if (!strcmp(cls, "snapshot")) {
		snapshot_mutations(l, p, n);
	} else if (!strcmp(cls, "bombs")) {
		bomb_inputs(l);
		return;
	} else {
		compressed_mutations(l, cls, p, n);
	}
	/* every input: the empty file, one byte, half, and flips spread over the whole */
	add_trunc(l, 0, "the empty file");
	add_trunc(l, 1, "one byte");
	add_trunc(l, n / 2, "the first half");
	add_spread_flips(l, p, 0, n, 16, "the input");
}

/* Sort by kind, then offset; drop duplicates; keep `per` of each kind, evenly spread. */
static int mut_cmp(const void *a, const void *b)
{
	const struct mut *x = a, *y = b;
	if (x->kind != y->kind)
		return x->kind < y->kind ? -1 : 1;
	if (x->off != y->off)
		return x->off < y->off ? -1 : 1;
	if (x->width != y->width)
		return x->width < y->width ? -1 : 1;
	return memcmp(x->bytes, y->bytes, sizeof(x->bytes));
}

static void thin(struct mlist *l, size_t per)
{
	if (!l->n)
		return;
	qsort(l->v, l->n, sizeof(*l->v), mut_cmp);
	size_t k = 0;
	for (size_t i = 0; i < l->n; i++)
		if (!k || l->v[i].whole || mut_cmp(&l->v[i], &l->v[k - 1]) != 0)
			l->v[k++] = l->v[i];
	l->n = k;
	struct mut *out = malloc(l->n * sizeof(*out));
	size_t nout = 0;
	for (size_t i = 0; i < l->n;) {
		size_t j = i;
		while (j < l->n && l->v[j].kind == l->v[i].kind)
			j++;
		size_t have = j - i;
		size_t take = have < per ? have : per;
		for (size_t t = 0; t < take; t++)
			out[nout++] = l->v[i + t * have / take];
		i = j;
	}
	free(l->v);
	l->v = out;
	l->n = nout;
}

/* ---- files and folders ---------------------------------------------------------------------- */

static uint8_t *read_all(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	struct sbuf b = {0};
	uint8_t buf[65536];
	size_t k;
	while ((k = fread(buf, 1, sizeof(buf), f)) > 0)
		sb_put(&b, buf, k);
	fclose(f);
	if (!b.p)
		sb_put(&b, NULL, 0);
	return sb_take(&b, len);
}

static bool write_all(const char *path, const uint8_t *p, size_t n)
{
	FILE *f = fopen(path, "wb");
	if (!f)
		return false;
	bool ok = fwrite(p, 1, n, f) == n;
	return fclose(f) == 0 && ok;
}

static int rm_entry(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	(void)st, (void)type, (void)ftw;
	remove(path);
	return 0;
}
static void rm_rf(const char *path)
{
	nftw(path, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
}

static unsigned count_entries(const char *dir)
{
	DIR *d = opendir(dir);
	unsigned n = 0;
	struct dirent *e;
	while (d && (e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			n++;
	if (d)
		closedir(d);
	return n;
}

/* ---- main ------------------------------------------------------------------------------------ */

struct opts {
	const char *fwlens, *work;
	const char *image; /* --image: the BIOS image for commands that bind values or read a machine */
	size_t per;
	unsigned parallel;
	bool rss;
	bool verbose;
};

static unsigned long total_runs, total_failures, total_mutations;

/* Run every command of the class on `path`; returns the failures. `base_rss` holds the
 * unmutated input's peak RSS per command (0 when it is being measured). */
static unsigned run_commands(const struct opts *o, const struct class *c, const char *label, const char *path,
			     const struct mut *m, long *base_rss, bool *broken)
{
	struct job jobs[16];
	char outdir[16][4096], jail[16][4096];
	size_t n = 0;
	for (; c->cmds[n].args[0] && n < 16; n++) {
		struct job *j = &jobs[n];
		memset(j, 0, sizeof(*j));
		outdir[n][0] = '\0';
		size_t a = 0;
		j->argv[a++] = (char *)o->fwlens;
		for (size_t k = 0; k < MAX_ARGS && c->cmds[n].args[k]; k++) {
			const char *arg = c->cmds[n].args[k];
			if (!strcmp(arg, "@")) {
				j->argv[a++] = (char *)path;
			} else if (!strcmp(arg, "%I")) {
				j->skip |= !o->image;
				j->argv[a++] = (char *)(o->image ? o->image : "");
			} else if (!strcmp(arg, "%")) {
				snprintf(jail[n], sizeof(jail[n]), "%s/jail%zu", o->work, n);
				rm_rf(jail[n]);
				mkdir(jail[n], 0755);
				snprintf(outdir[n], sizeof(outdir[n]), "%s/out", jail[n]);
				j->argv[a++] = outdir[n];
			} else {
				j->argv[a++] = (char *)arg;
			}
		}
		j->argv[a] = NULL;
	}
	/* bombs inflate hundreds of MiB: one at a time, so the time limit measures one run */
	run_jobs(jobs, n, c->cmds == bomb_cmds ? 1 : o->parallel);
	unsigned failures = 0;
	for (size_t i = 0; i < n; i++) {
		struct result *r = &jobs[i].r;
		if (jobs[i].skip)
			continue;
		total_runs++;
		long limit = 0;
		if (o->rss && base_rss[i]) {
			if (m && m->kind == K_BOMB)
				limit = (512 + 96) * 1024L + (long)(m->whole_len / 1024);
			else
				limit = base_rss[i] + 64 * 1024;
		}
		char why[256];
		const char *bad = judge(r, limit, why, sizeof(why));
		if (!bad && outdir[i][0] && count_entries(jail[i]) > 1) {
			snprintf(why, sizeof(why), "extract --all wrote outside its folder");
			bad = why;
		}
		if (!m && !base_rss[i])
			base_rss[i] = r->rss_kb;
		if (bad) {
			failures++;
			*broken = true;
			char cmd[512] = "";
			for (size_t k = 1; jobs[i].argv[k]; k++) {
				strncat(cmd, jobs[i].argv[k] == path ? "INPUT" : jobs[i].argv[k], sizeof(cmd) - strlen(cmd) - 2);
				strncat(cmd, " ", sizeof(cmd) - strlen(cmd) - 1);
			}
			printf("FAIL mutations/%s: %s: fwlens %s: %s\n", label, m ? m->what : "unmutated input", cmd, bad);
			fflush(stdout);
		} else if (o->verbose) {
			printf("# %s: %s: %s rc=%d %ld ms (%ld ms CPU) %ld KiB\n", label, m ? m->what : "unmutated",
			       c->cmds[i].args[0], WEXITSTATUS(r->status), r->wall_ms, r->cpu_ms, r->rss_kb);
		}
		free(r->err);
		if (outdir[i][0])
			rm_rf(jail[i]);
	}
	return failures;
}

static int usage(void)
{
	fprintf(stderr, "usage: fwlens-mutate --fwlens BIN --work DIR [--image CAP] [--per-input N] [--jobs N] [--no-rss] [-v] "
			"CLASS[/N]:FILE...\n");
	return 2;
}

int main(int argc, char **argv)
{
	if (argc == 4 && !strcmp(argv[1], "--write-bomb")) {
		/* a volume whose AMD zlib section inflates to exactly BYTES zero bytes (limit tests) */
		uint64_t plain, want = strtoull(argv[2], NULL, 0);
		size_t slen, len;
		uint8_t *z = zlib_zeros(want ? want : 1, &slen, &plain);
		uint8_t *v = volume_with_zlib_section(z, slen, &len);
		bool ok = write_all(argv[3], v, len);
		free(z);
		free(v);
		return ok ? 0 : 1;
	}
	struct opts o = {.per = 6, .parallel = 2, .rss = true};
	int i = 1;
	for (; i < argc && argv[i][0] == '-'; i++) {
		if (!strcmp(argv[i], "--fwlens") && i + 1 < argc)
			o.fwlens = argv[++i];
		else if (!strcmp(argv[i], "--work") && i + 1 < argc)
			o.work = argv[++i];
		else if (!strcmp(argv[i], "--image") && i + 1 < argc)
			o.image = argv[++i];
		else if (!strcmp(argv[i], "--per-input") && i + 1 < argc)
			o.per = strtoul(argv[++i], NULL, 10);
		else if (!strcmp(argv[i], "--jobs") && i + 1 < argc)
			o.parallel = (unsigned)strtoul(argv[++i], NULL, 10);
		else if (!strcmp(argv[i], "--no-rss"))
			o.rss = false;
		else if (!strcmp(argv[i], "-v"))
			o.verbose = true;
		else
			return usage();
	}
	if (!o.fwlens || !o.work || i >= argc || o.parallel < 1 || o.parallel > 16)
		return usage();
	signal(SIGPIPE, SIG_IGN);
	mkdir(o.work, 0755);
	char failures_dir[4096];
	snprintf(failures_dir, sizeof(failures_dir), "%s/failures", o.work);
	long start = now_ms();
	for (; i < argc; i++) {
		char *spec = argv[i], *colon = strchr(spec, ':');
		if (!colon)
			return usage();
		*colon = '\0';
		const char *cls_name = spec, *file = colon + 1;
		size_t per = o.per;
		char *slash = strchr(spec, '/');
		if (slash) {
			*slash = '\0';
			per = strtoul(slash + 1, NULL, 10);
		}
		const struct class *c = NULL;
		for (size_t k = 0; k < sizeof(classes) / sizeof(classes[0]); k++)
			if (!strcmp(classes[k].name, cls_name))
				c = &classes[k];
		if (!c) {
			printf("FAIL mutations/%s: unknown class %s\n", file, cls_name);
			total_failures++;
			continue;
		}
		const char *base = strrchr(file, '/') ? strrchr(file, '/') + 1 : file;
		char label[256];
		snprintf(label, sizeof(label), "%s/%s", cls_name, *base ? base : "synthetic");
		size_t n = 0;
		uint8_t *p = NULL;
		if (strcmp(cls_name, "bombs") != 0) {
			p = read_all(file, &n);
			if (!p) {
				printf("skip mutations/%s: cannot read %s\n", label, file);
				continue;
			}
		}
		struct mlist l = {0};
		mutations_for(cls_name, p, n, &l);
		thin(&l, per);
		total_mutations += l.n;
		char path[4096];
		snprintf(path, sizeof(path), "%s/input", o.work);
		long base_rss[16] = {0};
		bool broken = false;
		unsigned fails = 0;
		unsigned long runs_before = total_runs;
		if (p) {
			write_all(path, p, n);
			fails += run_commands(&o, c, label, path, NULL, base_rss, &broken);
		} else {
			for (size_t k = 0; k < 16; k++)
				base_rss[k] = 1; /* bombs: the bound is the documented limit */
		}
		uint8_t *q = malloc(n ? n : 1);
		for (size_t k = 0; k < l.n; k++) {
			const struct mut *m = &l.v[k];
			const uint8_t *data = q;
			size_t len = n;
			if (m->whole) {
				data = m->whole;
				len = m->whole_len;
			} else {
				memcpy(q, p, n);
				if (m->kind == K_TRUNC)
					len = m->off;
				else
					memcpy(q + m->off, m->bytes, m->width);
			}
			if (!write_all(path, data, len)) {
				printf("FAIL mutations/%s: cannot write %s\n", label, path);
				fails++;
				break;
			}
			bool bad = false;
			unsigned f = run_commands(&o, c, label, path, m, base_rss, &bad);
			fails += f;
			if (bad) {
				mkdir(failures_dir, 0755);
				char keep[4096];
				snprintf(keep, sizeof(keep), "%s/%s-%s-%zu", failures_dir, cls_name, *base ? base : "bomb", k);
				write_all(keep, data, len);
				printf("# kept the failing input as %s\n", keep);
			}
		}
		for (size_t k = 0; k < l.n; k++)
			free(l.v[k].whole);
		free(l.v);
		free(q);
		free(p);
		total_failures += fails;
		if (!fails)
			printf("ok mutations/%s: %zu mutations, %lu runs\n", label, l.n, total_runs - runs_before);
		fflush(stdout);
	}
	unlink(strcat(strcpy((char[4200]){0}, o.work), "/input"));
	printf("# mutations: %lu mutated inputs, %lu runs, %lu failed, %.1f s\n", total_mutations, total_runs,
	       total_failures, (double)(now_ms() - start) / 1000.0);
	return total_failures ? 1 : 0;
}
