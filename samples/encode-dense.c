/* Dense images for `make bench`: one FFSv3 firmware volume of N MiB packed with DXE drivers, each
 * a GUID-defined section (LZMA EE4E5898, or AMD zlib CE3233F5) around a PE32+ image, its
 * dependency expression and a UI section, as AMI images wrap their drivers. A 128 MiB image holds
 * about 1,800 such files and inflates to several hundred MiB, so the memory budget that
 * `make bench` checks (input + inflated + LZMA windows + 16 MiB) is tried where it is tight.
 *
 * The bodies must compress as firmware does (about 3x with LZMA, 2.5x with zlib), not as zeros
 * (a 1000x ratio would make "dense" mean nothing) nor as random bytes (1x). Code is drawn from a
 * vocabulary of instruction-like byte strings with skewed frequencies and random immediates,
 * with 0xCC padding between functions; data is UCS-2 words, small integer tables and zeros.
 * Every byte comes from a 64-bit xorshift seeded from the builder's SHA-256 stream: the images are
 * byte for byte the same on every build. Compression uses LZMA preset 1 and zlib level 1 so that
 * a 128 MiB image is written in well under half a minute on one core. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "build.h"
#include "encoders.h"
#include "parsers/ffs.h"
#include "parsers/pe.h"
#include "parsers/section.h"

#define DENSE_LZMA_PRESET 0
#define DENSE_LZMA_DICT (1u << 20) /* 1 MiB: no driver body is larger */
#define DENSE_LZMA_NICE 64
#define DENSE_ZLIB_LEVEL 1
#define VOCAB 384
#define PHRASES 128

struct gen {
	uint64_t s;
	uint8_t vocab[VOCAB][8];
	uint8_t vlen[VOCAB];
	uint32_t consts[64]; /* structure offsets, status codes, addresses a driver uses again and again */
	struct sbuf phrases[PHRASES]; /* idioms: prologues, call sequences, library routines inlined */
};

static uint64_t next(struct gen *g)
{
	/* xorshift64*: fast, and good enough for filler whose only job is to compress realistically */
	g->s ^= g->s >> 12;
	g->s ^= g->s << 25;
	g->s ^= g->s >> 27;
	return g->s * 0x2545F4914F6CDD1Dull;
}

static void gen_init(struct gen *g, const char *label)
{
	struct srng r;
	srng_init(&r, label);
	srng_bytes(&r, &g->s, sizeof(g->s));
	g->s |= 1;
	for (unsigned i = 0; i < VOCAB; i++) {
		g->vlen[i] = (uint8_t)(1 + next(g) % 7);
		uint64_t v = next(g);
		memcpy(g->vocab[i], &v, 8);
	}
	for (unsigned i = 0; i < ARRAY_LEN(g->consts); i++)
		g->consts[i] = (uint32_t)(next(g) % (i < 32 ? 0x400 : 0xFFFFFFFF));
	for (unsigned i = 0; i < PHRASES; i++)
		for (unsigned k = 0, n = 4 + (unsigned)(next(g) % 12); k < n; k++) {
			unsigned t = (unsigned)(next(g) % VOCAB);
			sb_put(&g->phrases[i], g->vocab[t], g->vlen[t]);
		}
}

/* Skewed towards the first entries, as a few opcodes (mov, call, lea) dominate real code. */
static unsigned pick(struct gen *g, uint64_t r)
{
	unsigned a = (unsigned)(r % VOCAB), b = (unsigned)((r >> 16) % VOCAB);
	return a * b / VOCAB;
}

static void gen_code(struct gen *g, struct sbuf *b, size_t n)
{
	size_t end = b->len + n, fn = 0;
	while (b->len + 128 < end) { /* room for the longest idiom and an immediate */
		uint64_t r = next(g);
		if (((r >> 56) & 7) == 0) { /* an idiom */
			const struct sbuf *p = &g->phrases[pick(g, r) % PHRASES];
			sb_put(b, p->p, p->len);
			continue;
		}
		unsigned i = pick(g, r);
		sb_put(b, g->vocab[i], g->vlen[i]);
		if (((r >> 32) & 7) == 0) /* an immediate or displacement: a common one, or 4 fresh bytes */
			sb_put32(b, (r >> 35) & 1 ? (uint32_t)(r >> 40) : g->consts[(r >> 36) % ARRAY_LEN(g->consts)]);
		if (++fn > 40 + ((r >> 48) & 63)) { /* end of a function: ret, then int3 up to 16 */
			sb_put8(b, 0xC3);
			sb_align(b, 16, 0xCC);
			fn = 0;
		}
	}
	sb_fill(b, 0xCC, end - b->len);
}

static void gen_data(struct gen *g, struct sbuf *b, size_t n)
{
	static const char *const words[] = {"Enabled", "Disabled", "Auto", "Device", "Controller", "Protocol",
					    "Memory", "Interrupt", "Failed", "Status", "Boot", "Option",
					    "Configuration", "Table", "Region", "Handle", "Buffer", "Timeout"};
	size_t end = b->len + n;
	while (b->len < end) {
		uint64_t r = next(g);
		switch (r % 4) {
		case 0: /* a UCS-2 message of a few words */
			for (unsigned w = 0; w < 2 + (r >> 8) % 4; w++) {
				for (const char *c = words[(r >> (12 + 4 * w)) % ARRAY_LEN(words)]; *c; c++)
					sb_put16(b, (uint8_t)*c);
				sb_put16(b, ' ');
			}
			sb_put16(b, 0);
			break;
		case 1: /* a table of small integers */
			for (unsigned k = 0; k < 8; k++)
				sb_put32(b, (uint32_t)(next(g) % 4096));
			break;
		case 2: /* zeroed storage */
			sb_fill(b, 0, 16 + (r >> 8) % 96);
			break;
		default: /* pointers and GUID-like constants */
			sb_put64(b, 0xFFFFFFFF00000000ull | (r >> 40) << 4);
			sb_put64(b, next(g));
			break;
		}
	}
	b->len = end; /* drop what the last record wrote past the end */
}

/* One driver's section stream: DXE_DEPEX, PE32 and UI, before compression. */
static void dense_driver(struct gen *g, unsigned index, size_t text_len, struct sbuf *inner)
{
	struct sbuf text = {0}, data = {0};
	gen_code(g, &text, text_len);
	gen_data(g, &data, text_len / 4);
	size_t pe_len;
	uint8_t *pe = pe_build(FW_PE_SUBSYSTEM_EFI_BOOT_SERVICE_DRIVER, text.p, text.len, data.p, data.len, NULL, 0, &pe_len);
	sec_depex(inner, FW_SECTION_DXE_DEPEX, NULL, 0);
	sec_plain(inner, FW_SECTION_PE32, pe, pe_len);
	sec_ui(inner, sample_printf("DenseDxe%04u", index));
	free(pe);
	sb_free(&text);
	sb_free(&data);
}

/* Compression is nearly all the time: two drivers at once, one on a thread of its own, each with
 * its own encoder. The files go into the volume in their order, so the image does not depend on
 * which finishes first. */
struct dense_job {
	struct sbuf inner;
	struct lzma_enc *lz; /* NULL: zlib */
	uint8_t *c;
	size_t clen;
};

static void *dense_compress(void *arg)
{
	struct dense_job *j = arg;
	if (j->lz)
		j->c = lzma_enc_run(j->lz, j->inner.p, j->inner.len, &j->clen);
	else
		j->c = zlib_compress_level(j->inner.p, j->inner.len, DENSE_ZLIB_LEVEL, &j->clen);
	return NULL;
}

uint8_t *build_dense_image(enum dense_kind kind, size_t mib, size_t *len, struct dense_stats *st)
{
	const char *name = kind == DENSE_LZMA ? "lzma" : "zlib";
	struct gen *g = fw_xmalloc(sizeof(*g));
	memset(g, 0, sizeof(*g));
	gen_init(g, sample_printf("dense %s", name));
	struct dense_job jobs[2];
	memset(jobs, 0, sizeof(jobs));
	for (unsigned k = 0; k < 2; k++)
		if (kind == DENSE_LZMA)
			jobs[k].lz = lzma_enc_new(DENSE_LZMA_PRESET, DENSE_LZMA_DICT, DENSE_LZMA_NICE);
	size_t length = mib << 20;
	struct fvb v;
	struct fw_guid fv_name = sample_guid_named(sample_printf("dense %s volume", name));
	fv_begin(&v, &guid_ffs3, &fv_name, length);
	memset(st, 0, sizeof(*st));
	/* drivers of 16 KiB to 784 KiB of code, most of them small, until the next would not fit */
	const size_t max_kib = 768;
	bool full = false;
	for (unsigned i = 0; !full; i += 2) {
		for (unsigned k = 0; k < 2; k++) {
			uint64_t r = next(g);
			size_t text_len = ((16 + (r % max_kib) * ((r >> 20) % max_kib) / max_kib) << 10);
			jobs[k].inner.len = 0;
			dense_driver(g, i + k, text_len, &jobs[k].inner);
		}
		pthread_t t;
		if (pthread_create(&t, NULL, dense_compress, &jobs[1]) != 0)
			sample_die("cannot start a compression thread");
		dense_compress(&jobs[0]);
		pthread_join(t, NULL);
		for (unsigned k = 0; k < 2; k++) {
			struct sbuf file = {0};
			if (kind == DENSE_LZMA)
				sec_lzma_compressed(&file, jobs[k].c, jobs[k].clen);
			else
				sec_amd_zlib_compressed(&file, jobs[k].c, jobs[k].clen);
			free(jobs[k].c);
			jobs[k].c = NULL;
			/* room for this file, 8-byte alignment, and a pad file header after it */
			if (!full && v.b.len + FW_FFS_HEADER_SIZE + file.len + 64 <= length) {
				struct fw_guid guid = sample_guid_named(sample_printf("dense %s driver %u", name, i + k));
				fv_add_file(&v, &guid, FW_FFS_TYPE_DRIVER, 0, file.p, file.len);
				st->files++;
				st->inflated += jobs[k].inner.len;
			} else {
				full = true;
			}
			sb_free(&file);
		}
	}
	for (unsigned k = 0; k < 2; k++) {
		sb_free(&jobs[k].inner);
		if (jobs[k].lz)
			lzma_enc_free(jobs[k].lz);
	}
	for (unsigned i = 0; i < PHRASES; i++)
		sb_free(&g->phrases[i]);
	free(g);
	return fv_finish(&v, len);
}
