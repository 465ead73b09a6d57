/* Decompressors: the EFI 1.1 / Tiano vectors of the corpus, the project's own vectors for every
 * algorithm (tests/data/compress), corrupt and truncated streams, and the output cap. */
#include <stdio.h>
#include <stdlib.h>

#include "harness.h"
#include "parsers/decompress.h"

static const char *const corpus_inputs[] = {"one-byte", "zeros-64k", "random-8k", "repeat-300k", "text-gpl3",
					    "pe32-ovmf-platformdxe"};

/* Decode `comp_path` with `a` and compare with `plain_path`; returns false with a message. */
static bool decodes_to(enum fw_algo a, const char *comp_path, const char *plain_path, char *why, size_t whylen)
{
	size_t clen = 0, plen = 0;
	uint8_t *c = fw_test_read_file(comp_path, &clen);
	uint8_t *p = fw_test_read_file(plain_path, &plen);
	bool ok = false;
	if (!c || !p) {
		snprintf(why, whylen, "cannot read %s or %s", comp_path, plain_path);
		goto out;
	}
	uint8_t *out = NULL;
	size_t olen = 0;
	struct fw_error err;
	fw_error_clear(&err);
	if (!fw_decompress(a, c, clen, 1u << 28, &out, &olen, NULL, &err)) {
		snprintf(why, whylen, "%s: %s", comp_path, err.msg);
		goto out;
	}
	if (olen != plen || memcmp(out, p, plen) != 0)
		snprintf(why, whylen, "%s: output differs (0x%zx bytes, expected 0x%zx)", comp_path, olen, plen);
	else
		ok = true;
	free(out);
out:
	free(c);
	free(p);
	return ok;
}

static void check_corpus(enum fw_algo a, const char *ext)
{
	char why[1200];
	for (size_t i = 0; i < sizeof(corpus_inputs) / sizeof(corpus_inputs[0]); i++) {
		char rel[128], relp[128];
		snprintf(rel, sizeof(rel), "compress/%s.%s", corpus_inputs[i], ext);
		snprintf(relp, sizeof(relp), "compress/%s.bin", corpus_inputs[i]);
		const char *cp = fw_test_corpus(rel);
		if (!cp)
			SKIP("corpus compress/ not present (%s)", rel);
		char cpath[1024];
		snprintf(cpath, sizeof(cpath), "%s", cp);
		const char *pp = fw_test_corpus(relp);
		CHECK(pp != NULL);
		CHECK_MSG(decodes_to(a, cpath, pp, why, sizeof(why)), "%s", why);
	}
}

TEST(decompress_corpus_efi11_vectors) { check_corpus(FW_ALGO_EFI11, "efi11"); }
TEST(decompress_corpus_tiano_vectors) { check_corpus(FW_ALGO_TIANO, "tiano"); }

/* The project's own vectors: tests/data/compress/NAME.ALGO decodes to NAME.bin. */
static void check_own(enum fw_algo a, const char *name)
{
	char rel[128], relp[128], why[1200], cpath[1024];
	snprintf(rel, sizeof(rel), "compress/%s.%s", name, fw_algo_name(a));
	snprintf(relp, sizeof(relp), "compress/%s.bin", name);
	const char *cp = fw_test_data(rel);
	CHECK_MSG(cp != NULL, "tests/data/%s is missing", rel);
	snprintf(cpath, sizeof(cpath), "%s", cp);
	const char *pp = fw_test_data(relp);
	CHECK_MSG(pp != NULL, "tests/data/%s is missing", relp);
	CHECK_MSG(decodes_to(a, cpath, pp, why, sizeof(why)), "%s", why);
}

TEST(decompress_own_efi11) { check_own(FW_ALGO_EFI11, "words"); }
TEST(decompress_own_tiano) { check_own(FW_ALGO_TIANO, "words"); }
TEST(decompress_own_lzma) { check_own(FW_ALGO_LZMA, "words"); }
/* Size field all ones: the stream ends with its end marker and the output grows to fit. */
TEST(decompress_own_lzma_unknown_size)
{
	char why[1200], cpath[1024];
	const char *cp = fw_test_data("compress/words-eopm.lzma");
	CHECK(cp != NULL);
	snprintf(cpath, sizeof(cpath), "%s", cp);
	const char *pp = fw_test_data("compress/words.bin");
	CHECK_MSG(decodes_to(FW_ALGO_LZMA, cpath, pp, why, sizeof(why)), "%s", why);
	size_t n;
	uint8_t *c = fw_test_read_file(cpath, &n);
	uint64_t size;
	CHECK(!fw_decompress_declared_size(FW_ALGO_LZMA, c, n, &size));
	uint8_t *out = NULL;
	size_t olen;
	struct fw_error err;
	fw_error_clear(&err);
	CHECK(!fw_decompress(FW_ALGO_LZMA, c, n, 1000, &out, &olen, NULL, &err));
	CHECK_EQ(err.code, FW_E_LIMIT);
	free(c);
}

/* The two EFI formats differ in one field: each decoder rejects or mangles the other's stream. */
TEST(decompress_efi11_and_tiano_differ)
{
	const char *p = fw_test_data("compress/words.bin");
	CHECK(p != NULL);
	size_t plen, n;
	uint8_t *plain = fw_test_read_file(p, &plen);
	uint8_t *efi = fw_test_read_file(fw_test_data("compress/words.efi11"), &n);
	uint8_t *out = NULL;
	size_t olen = 0;
	bool same = fw_decompress(FW_ALGO_TIANO, efi, n, 1u << 20, &out, &olen, NULL, NULL) && olen == plen &&
		    memcmp(out, plain, plen) == 0;
	free(out);
	free(efi);
	free(plain);
	CHECK(!same);
}

TEST(decompress_own_lzmaf86) { check_own(FW_ALGO_LZMA_F86, "code"); }
TEST(decompress_own_brotli) { check_own(FW_ALGO_BROTLI, "words"); }
TEST(decompress_own_zlib_amd) { check_own(FW_ALGO_ZLIB_AMD, "words"); }
TEST(decompress_own_gzip) { check_own(FW_ALGO_GZIP, "words"); }

/* Every truncation and a few byte flips of each own vector fail cleanly or decode; none crash
 * (ASan/UBSan builds check the "cleanly"). */
TEST(decompress_corrupt_streams_fail_cleanly)
{
	static const struct {
		enum fw_algo a;
		const char *name;
	} v[] = {{FW_ALGO_EFI11, "words"}, {FW_ALGO_TIANO, "words"}, {FW_ALGO_LZMA, "words"}, {FW_ALGO_LZMA_F86, "code"},
		 {FW_ALGO_BROTLI, "words"}, {FW_ALGO_ZLIB_AMD, "words"}, {FW_ALGO_GZIP, "words"}};
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		char rel[128];
		snprintf(rel, sizeof(rel), "compress/%s.%s", v[i].name, fw_algo_name(v[i].a));
		const char *cp = fw_test_data(rel);
		CHECK(cp != NULL);
		size_t n = 0;
		uint8_t *c = fw_test_read_file(cp, &n);
		CHECK(c != NULL);
		unsigned failures = 0;
		for (size_t cut = 0; cut < n; cut += 1 + n / 64) {
			uint8_t *copy = malloc(cut ? cut : 1);
			memcpy(copy, c, cut);
			uint8_t *out = NULL;
			size_t olen;
			struct fw_error err;
			fw_error_clear(&err);
			if (!fw_decompress(v[i].a, copy, cut, 1u << 24, &out, &olen, NULL, &err)) {
				failures++;
				CHECK_MSG(err.code != FW_OK && err.msg[0], "%s cut at %zu: failure without a message", rel, cut);
			}
			free(out);
			free(copy);
		}
		CHECK_MSG(failures > 0, "%s: no truncation was detected", rel);
		uint32_t seed = 12345;
		for (int round = 0; round < 200; round++) {
			uint8_t *copy = malloc(n);
			memcpy(copy, c, n);
			seed = seed * 1103515245u + 12345u;
			size_t pos = (seed >> 8) % n;
			copy[pos] ^= (uint8_t)(1u << ((seed >> 4) & 7));
			uint8_t *out = NULL;
			size_t olen;
			if (fw_decompress(v[i].a, copy, n, 1u << 24, &out, &olen, NULL, NULL))
				free(out);
			free(copy);
		}
		free(c);
	}
}

TEST(decompress_output_is_capped)
{
	const char *cp = fw_test_data("compress/words.lzma");
	CHECK(cp != NULL);
	size_t n;
	uint8_t *c = fw_test_read_file(cp, &n);
	CHECK(c != NULL);
	uint8_t *out = NULL;
	size_t olen;
	struct fw_error err;
	fw_error_clear(&err);
	CHECK(!fw_decompress(FW_ALGO_LZMA, c, n, 100, &out, &olen, NULL, &err));
	CHECK_EQ(err.code, FW_E_LIMIT);
	fw_error_clear(&err);
	CHECK(!fw_decompress(FW_ALGO_ZLIB_AMD, c, n, 100, &out, &olen, NULL, &err));
	free(c);
	/* An EFI header that claims 4 GiB of output fails on the cap before any allocation. */
	uint8_t efi[16] = {8, 0, 0, 0, 0xFF, 0xFF, 0xFF, 0xFF};
	fw_error_clear(&err);
	CHECK(!fw_decompress(FW_ALGO_TIANO, efi, sizeof(efi), 1u << 20, &out, &olen, NULL, &err));
	CHECK_EQ(err.code, FW_E_LIMIT);
	/* zlib-amd has no declared size: a zero bomb stops at the cap. */
	const char *zp = fw_test_data("compress/zeros-1m.zlib-amd");
	CHECK(zp != NULL);
	uint8_t *z = fw_test_read_file(zp, &n);
	fw_error_clear(&err);
	CHECK(!fw_decompress(FW_ALGO_ZLIB_AMD, z, n, 65536, &out, &olen, NULL, &err));
	CHECK_EQ(err.code, FW_E_LIMIT);
	CHECK(fw_decompress(FW_ALGO_ZLIB_AMD, z, n, 1u << 20, &out, &olen, NULL, &err));
	CHECK_EQ(olen, 1u << 20);
	CHECK_EQ(out[12345], 0);
	free(out);
	free(z);
}

TEST(decompress_empty_and_legacy_lzma)
{
	/* OrigSize 0: an empty output, whatever follows. */
	uint8_t efi[8] = {0, 0, 0, 0, 0, 0, 0, 0};
	uint8_t *out = NULL;
	size_t olen = 99;
	CHECK(fw_decompress(FW_ALGO_EFI11, efi, sizeof(efi), 100, &out, &olen, NULL, NULL));
	CHECK_EQ(olen, 0);
	free(out);
	/* Intel's legacy variant: 4 bytes before the LZMA header. */
	const char *cp = fw_test_data("compress/words.lzma");
	CHECK(cp != NULL);
	size_t n;
	uint8_t *c = fw_test_read_file(cp, &n);
	uint8_t *shifted = malloc(n + 4);
	memcpy(shifted, "\x11\x22\x33\x44", 4);
	memcpy(shifted + 4, c, n);
	struct fw_inflate_info info;
	CHECK(fw_decompress(FW_ALGO_LZMA, shifted, n + 4, 1u << 20, &out, &olen, &info, NULL));
	CHECK_EQ(info.skipped, 4);
	CHECK_EQ(info.declared_size, olen);
	free(out);
	free(shifted);
	free(c);
}

TEST(decompress_algorithm_names)
{
	enum fw_algo a;
	CHECK(fw_algo_from_name("zlib-amd", &a));
	CHECK_EQ(a, FW_ALGO_ZLIB_AMD);
	CHECK(fw_algo_from_name("LZMAF86", &a));
	CHECK_EQ(a, FW_ALGO_LZMA_F86);
	CHECK(!fw_algo_from_name("zstd", &a));
	CHECK_STR(fw_algo_title(FW_ALGO_TIANO), "Tiano");
}
