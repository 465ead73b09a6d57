/* EFI 1.1 and Tiano decompression (UEFI specification, "Compression Algorithm"; reference/
 * formats.md 4).
 *
 * The stream is LZ77 with static Huffman codes sent per block. Bits are read MSB first; reading
 * past CompSize yields zero bits. A block starts with a 16-bit code count and three code-length
 * sets: T (19 codes, lengths of the C lengths), C (510 codes: 256 literals and match lengths
 * 3..256) and P (match distance bit counts). EFI 1.1 sends the P-set count in 4 bits, Tiano in 5;
 * nothing else differs. Codes are decoded with a direct lookup table of TABLE_BITS bits and a
 * binary tree for longer codes, the way canonical Huffman tables are built in the specification.
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "decompress.h"
#include "view.h"

#define MAX_MATCH 256
#define THRESHOLD 3
#define NC (0xFF + MAX_MATCH + 2 - THRESHOLD) /* 510 literal/length codes */
#define CBIT 9
#define NT 19 /* CODE_BIT (16) + 3 */
#define TBIT 5
#define MAXNP 31
#define NPT 31 /* max(NT, MAXNP) */
#define C_TABLE_BITS 12
#define PT_TABLE_BITS 8
#define MAX_CODE_LEN 16
/* A valid stream never needs more than a few bits beyond its end (the reader zero-fills); a
 * stream that keeps reading is corrupt and would otherwise spin until OrigSize. */
#define MAX_OVERRUN_BITS 64

struct bits {
	const uint8_t *p;
	size_t n, pos;     /* bytes and next byte to load */
	uint64_t buf;      /* MSB-aligned bit buffer */
	unsigned count;    /* valid bits in buf */
	uint64_t overrun;  /* zero bits supplied past the end */
};

struct tiano {
	struct bits b;
	unsigned pbit;
	uint16_t block_left;
	uint8_t c_len[NC];
	uint8_t pt_len[NPT];
	uint16_t c_table[1u << C_TABLE_BITS];
	uint16_t pt_table[1u << PT_TABLE_BITS];
	uint16_t left[2 * NC - 1], right[2 * NC - 1];
};

static void bits_fill(struct bits *b)
{
	while (b->count <= 56) {
		uint64_t byte;
		if (b->pos < b->n) {
			byte = b->p[b->pos++];
		} else {
			byte = 0;
			b->overrun += 8;
		}
		b->buf |= byte << (56 - b->count);
		b->count += 8;
	}
}

/* The next n (<= 32) bits without consuming them. */
static inline uint32_t bits_peek(struct bits *b, unsigned n)
{
	if (b->count < n)
		bits_fill(b);
	return n ? (uint32_t)(b->buf >> (64 - n)) : 0;
}

static inline void bits_skip(struct bits *b, unsigned n)
{
	if (b->count < n)
		bits_fill(b);
	b->buf = n < 64 ? b->buf << n : 0;
	b->count -= n;
}

static inline uint32_t bits_get(struct bits *b, unsigned n)
{
	uint32_t v = bits_peek(b, n);
	bits_skip(b, n);
	return v;
}

/* Bits actually consumed beyond the end of the input. */
static bool bits_overrun(const struct bits *b)
{
	uint64_t zero_bits_pending = b->overrun < b->count ? b->overrun : b->count;
	return b->overrun - zero_bits_pending > MAX_OVERRUN_BITS;
}

/* Build a canonical-code lookup table (plus tree nodes for codes longer than table_bits).
 * Lengths must form a complete prefix code; an all-zero set is accepted as the specification's
 * decoder does (every lookup then yields symbol 0 with length 0). */
static bool make_table(struct tiano *d, unsigned nchar, const uint8_t *len, unsigned table_bits, uint16_t *table)
{
	uint32_t count[MAX_CODE_LEN + 1] = {0}, start[MAX_CODE_LEN + 2], weight[MAX_CODE_LEN + 1];
	for (unsigned i = 0; i < nchar; i++) {
		if (len[i] > MAX_CODE_LEN)
			return false;
		count[len[i]]++;
	}
	start[1] = 0;
	for (unsigned i = 1; i <= MAX_CODE_LEN; i++)
		start[i + 1] = start[i] + (count[i] << (MAX_CODE_LEN - i));
	if (start[MAX_CODE_LEN + 1] != (1u << MAX_CODE_LEN) && start[MAX_CODE_LEN + 1] != 0)
		return false;
	unsigned shift = MAX_CODE_LEN - table_bits;
	for (unsigned i = 1; i <= table_bits; i++) {
		start[i] >>= shift;
		weight[i] = 1u << (table_bits - i);
	}
	for (unsigned i = table_bits + 1; i <= MAX_CODE_LEN; i++)
		weight[i] = 1u << (MAX_CODE_LEN - i);
	uint32_t first_long = start[table_bits + 1] >> shift;
	uint32_t table_size = 1u << table_bits;
	if (first_long < table_size)
		memset(table + first_long, 0, (table_size - first_long) * sizeof(*table));
	if (start[MAX_CODE_LEN + 1] == 0) {
		memset(table, 0, table_size * sizeof(*table));
		return true;
	}
	unsigned avail = nchar;
	uint32_t mask = 1u << (15 - table_bits);
	for (unsigned ch = 0; ch < nchar; ch++) {
		unsigned l = len[ch];
		if (l == 0)
			continue;
		uint32_t next = start[l] + weight[l];
		if (l <= table_bits) {
			if (next > table_size)
				return false;
			for (uint32_t i = start[l]; i < next; i++)
				table[i] = (uint16_t)ch;
		} else {
			uint32_t code = start[l];
			if ((code >> shift) >= table_size)
				return false;
			uint16_t *slot = &table[code >> shift];
			for (unsigned i = l - table_bits; i > 0; i--) {
				if (*slot == 0) {
					if (avail >= 2 * NC - 1)
						return false;
					d->left[avail] = d->right[avail] = 0;
					*slot = (uint16_t)avail++;
				}
				if (*slot < nchar || *slot >= 2 * NC - 1)
					return false; /* a shorter code is a prefix of this one */
				slot = (code & mask) ? &d->right[*slot] : &d->left[*slot];
				code <<= 1;
			}
			*slot = (uint16_t)ch;
		}
		start[l] = next;
	}
	return true;
}

/* Walk the tree below a table entry for codes longer than the table. */
static inline bool tree_walk(struct tiano *d, unsigned nchar, unsigned table_bits, uint16_t *sym)
{
	uint32_t look = bits_peek(&d->b, 32);
	uint32_t mask = 1u << (31 - table_bits);
	while (*sym >= nchar) {
		if (!mask || *sym >= 2 * NC - 1)
			return false;
		*sym = (look & mask) ? d->right[*sym] : d->left[*sym];
		mask >>= 1;
	}
	return true;
}

/* T set (nn = NT, special = 3) or P set (nn = MAXNP, no special). */
static bool read_pt_len(struct tiano *d, unsigned nn, unsigned nbit, int special)
{
	uint32_t number = bits_get(&d->b, nbit);
	if (number == 0) {
		uint32_t only = bits_get(&d->b, nbit);
		if (only >= nn)
			return false;
		for (unsigned i = 0; i < (1u << PT_TABLE_BITS); i++)
			d->pt_table[i] = (uint16_t)only;
		memset(d->pt_len, 0, nn);
		return true;
	}
	/* Counts above nn (up to NPT) are tolerated as in the specification's decoder; the extra
	 * lengths are read and ignored. */
	unsigned i = 0;
	while (i < number && i < NPT) {
		uint32_t len = bits_peek(&d->b, 3);
		if (len == 7) {
			/* 7 and up: unary continuation, one 1-bit per extra length */
			uint32_t look = bits_peek(&d->b, 32);
			uint32_t mask = 1u << 28;
			while (mask & look) {
				mask >>= 1;
				len++;
			}
			if (len > MAX_CODE_LEN)
				return false;
			bits_skip(&d->b, len - 3);
		} else {
			bits_skip(&d->b, 3);
		}
		d->pt_len[i++] = (uint8_t)len;
		if ((int)i == special) {
			uint32_t zeros = bits_get(&d->b, 2);
			while (zeros-- > 0 && i < NPT)
				d->pt_len[i++] = 0;
		}
	}
	while (i < nn)
		d->pt_len[i++] = 0;
	return make_table(d, nn, d->pt_len, PT_TABLE_BITS, d->pt_table);
}

static bool read_c_len(struct tiano *d)
{
	uint32_t number = bits_get(&d->b, CBIT);
	if (number == 0) {
		uint32_t only = bits_get(&d->b, CBIT);
		if (only >= NC)
			return false;
		memset(d->c_len, 0, NC);
		for (unsigned i = 0; i < (1u << C_TABLE_BITS); i++)
			d->c_table[i] = (uint16_t)only;
		return true;
	}
	if (number > NC)
		return false;
	unsigned i = 0;
	while (i < number) {
		uint16_t c = d->pt_table[bits_peek(&d->b, PT_TABLE_BITS)];
		if (c >= NT && !tree_walk(d, NT, PT_TABLE_BITS, &c))
			return false;
		if (c >= NT)
			return false;
		bits_skip(&d->b, d->pt_len[c]);
		if (c <= 2) {
			uint32_t run;
			if (c == 0)
				run = 1;
			else if (c == 1)
				run = bits_get(&d->b, 4) + 3;
			else
				run = bits_get(&d->b, CBIT) + 20;
			while (run-- > 0 && i < NC)
				d->c_len[i++] = 0;
		} else {
			d->c_len[i++] = (uint8_t)(c - 2);
		}
	}
	while (i < NC)
		d->c_len[i++] = 0;
	return make_table(d, NC, d->c_len, C_TABLE_BITS, d->c_table);
}

static bool read_block_header(struct tiano *d)
{
	if (bits_overrun(&d->b))
		return false;
	d->block_left = (uint16_t)bits_get(&d->b, 16);
	return read_pt_len(d, NT, TBIT, 3) && read_c_len(d) && read_pt_len(d, MAXNP, d->pbit, -1);
}

static inline bool decode_c(struct tiano *d, uint16_t *out)
{
	if (d->block_left == 0 && !read_block_header(d))
		return false;
	d->block_left--;
	uint16_t c = d->c_table[bits_peek(&d->b, C_TABLE_BITS)];
	if (c >= NC && !tree_walk(d, NC, C_TABLE_BITS, &c))
		return false;
	bits_skip(&d->b, d->c_len[c]);
	*out = c;
	return true;
}

static inline bool decode_p(struct tiano *d, uint32_t *out)
{
	uint16_t v = d->pt_table[bits_peek(&d->b, PT_TABLE_BITS)];
	if (v >= MAXNP && !tree_walk(d, MAXNP, PT_TABLE_BITS, &v))
		return false;
	bits_skip(&d->b, d->pt_len[v]);
	uint32_t pos = v;
	if (v > 1)
		pos = (1u << (v - 1)) + bits_get(&d->b, v - 1);
	*out = pos;
	return true;
}

bool fw_efi_decompress(const uint8_t *in, size_t n, unsigned pbit, uint64_t cap, uint8_t **out, size_t *out_len,
		       struct fw_error *err)
{
	const char *what = pbit == 4 ? "EFI 1.1" : "Tiano";
	if (n < FW_EFI_HEADER_SIZE)
		return fw_error_set(err, FW_E_TRUNCATED, "%s stream: %zu bytes, shorter than its 8-byte header", what, n);
	uint32_t comp = fw_le32(in), orig = fw_le32(in + 4);
	if ((uint64_t)comp + FW_EFI_HEADER_SIZE > n)
		return fw_error_set(err, FW_E_TRUNCATED, "%s stream: CompSize 0x%x does not fit the 0x%zx bytes after the header",
				    what, comp, n - FW_EFI_HEADER_SIZE);
	if (orig > cap)
		return fw_error_set(err, FW_E_LIMIT, "%s stream: OrigSize 0x%x is over the limit of 0x%llx", what, orig,
				    (unsigned long long)cap);
	/* out of memory is exit 4 naming what is being read (decompress.h) */
	uint8_t *dst = fw_xmalloc(orig ? orig : 1);
	if (orig == 0) {
		*out = dst;
		*out_len = 0;
		return true;
	}
	struct tiano *d = fw_xmalloc(sizeof(*d));
	memset(d, 0, offsetof(struct tiano, c_len));
	d->b.p = in + FW_EFI_HEADER_SIZE;
	d->b.n = comp;
	d->pbit = pbit;
	size_t o = 0;
	bool ok = true;
	while (o < orig) {
		uint16_t c;
		if (!decode_c(d, &c)) {
			ok = false;
			break;
		}
		if (c < 256) {
			dst[o++] = (uint8_t)c;
			continue;
		}
		uint32_t len = c - (256 - THRESHOLD), dist;
		if (!decode_p(d, &dist) || dist >= o) {
			ok = false;
			break;
		}
		size_t from = o - dist - 1;
		if (len > orig - o)
			len = (uint32_t)(orig - o); /* the stream ends inside this match */
		if (dist + 1 >= len) {
			memcpy(dst + o, dst + from, len);
			o += len;
		} else {
			for (uint32_t k = 0; k < len; k++)
				dst[o++] = dst[from++];
		}
	}
	if (ok && bits_overrun(&d->b))
		ok = false;
	free(d);
	if (!ok) {
		free(dst);
		return fw_error_set(err, FW_E_INVALID, "%s stream: corrupt compressed data (stopped at output 0x%zx of 0x%x)",
				    what, o, orig);
	}
	*out = dst;
	*out_len = orig;
	return true;
}
