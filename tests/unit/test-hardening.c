/* Hardening: the documented limits (README "Limits") hold at their values and one past them,
 * and the streaming tree JSON writer gives the bytes of the document writer. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "acpi/set.h"
#include "capsule/amd-psp.h"
#include "capsule/detect.h"
#include "harness.h"
#include "parsers/env.h"
#include "ifr/ifr.h"
#include "parsers/nvram.h"
#include "parsers/section.h"
#include "tools/cli/tree-json.h"
#include "parsers/vss.h"
#include "tools/host/machine.h"
#include "tools/query/setlist.h"
#include "tools/host/snapshot.h"
#include "tools/query/source.h"
#include "tools/query/topics.h"
#include "tools/query/user-regex.h"

/* The streamed document of `fw` equals json_dumpf of the built one, byte for byte. */
static bool stream_matches(const struct fw_firmware *fw, unsigned flags)
{
	char *a = NULL, *b = NULL;
	size_t alen = 0, blen = 0;
	FILE *fa = open_memstream(&a, &alen), *fb = open_memstream(&b, &blen);
	json_t *doc = fw_tree_to_json(fw->tree, fw_input_kind_name(fw->kind), flags);
	json_dumpf(doc, fa, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	fputc('\n', fa);
	json_decref(doc);
	bool ok = fw_tree_write_json(fb, fw->tree, fw_input_kind_name(fw->kind), flags);
	fclose(fa);
	fclose(fb);
	ok = ok && alen == blen && memcmp(a, b, alen) == 0;
	if (!ok)
		for (size_t i = 0; i < alen && i < blen; i++)
			if (a[i] != b[i]) {
				fprintf(stderr, "streamed JSON differs at byte %zu: \"%.40s\" vs \"%.40s\"\n", i, a + i, b + i);
				break;
			}
	free(a);
	free(b);
	return ok;
}

TEST(tree_json_stream_equals_document)
{
	static const char *const fixtures[] = {"firmware/mini.fv",  "firmware/mini.cap", "firmware/broken.fv",
					       "firmware/ffs3.fv",  "firmware/evil.fv",  "firmware/dxe.ffs",
					       "firmware/pe32.sct", "amd/psp-layout.bin"};
	for (size_t i = 0; i < sizeof(fixtures) / sizeof(fixtures[0]); i++) {
		const char *path = fw_test_data(fixtures[i]);
		CHECK_MSG(path, "%s is missing", fixtures[i]);
		struct fw_firmware fw;
		struct fw_error err;
		CHECK_MSG(fw_source_open_firmware(path, NULL, &fw, &err), "%s: %s", fixtures[i], err.msg);
		CHECK_MSG(stream_matches(&fw, 0), "%s", fixtures[i]);
		CHECK_MSG(stream_matches(&fw, FW_JSON_CRC32), "%s with CRC32", fixtures[i]);
		fw_firmware_close(&fw);
	}
	/* a tree of one node without children */
	const uint8_t section[] = {0x08, 0x00, 0x00, 0x19, 'r', 'a', 'w', '!'};
	struct fw_firmware fw;
	CHECK(fw_firmware_parse_buffer(section, sizeof(section), NULL, &fw, NULL));
	CHECK(stream_matches(&fw, 0));
	fw_firmware_close(&fw);
}

/* ---- the limits of README "Limits" --------------------------------------------------------- */

/* The defaults are the values README "Limits" documents. */
TEST(limits_defaults_are_the_documented_ones)
{
	struct fw_limits l = fw_limits_default();
	CHECK_EQ(l.max_depth, 64);
	CHECK_EQ(l.max_nodes, 1000000);
	CHECK_EQ(l.max_decompressed_one, 512ull << 20);
	CHECK_EQ(l.max_decompressed_total, 2ull << 30);
	CHECK_EQ(l.max_string, 65536);
	CHECK_EQ(FW_SECTION_TEXT_MAX, 1024);
	CHECK_EQ(FW_AMD_MAX_DIR_ENTRIES, 1024);
	CHECK_EQ(FW_ACPI_MAX_TABLES, 4096);
	CHECK_EQ(FW_MACHINE_FILE_CAP, 128u << 20);
	CHECK_EQ(FW_SNAPSHOT_MAX_MEMBERS, 200000);
	CHECK_EQ(FW_SNAPSHOT_MAX_TOTAL, 2ull << 30);
	CHECK_EQ(FW_SETLIST_MAX_JSON, 512u << 20);
	CHECK_EQ(FW_SETLIST_MAX_ITEMS, 2000000);
}

/* The total of decompressed bytes, at a lowered limit (2 GiB of real inflation is too much for
 * a test): mini.fv inflates some bytes; a total limit of exactly that many parses everything,
 * one byte less leaves the last compressed section opaque with a diagnostic. */
static bool find_limit_diag(struct fw_node *n, void *ctx)
{
	for (const struct fw_diag *d = n->diags; d; d = d->next)
		if (strstr(d->msg, "decompressed bytes in total"))
			*(bool *)ctx = true;
	return true;
}

TEST(limits_decompressed_total_at_and_past)
{
	const char *path = fw_test_data("firmware/mini.fv");
	CHECK(path);
	size_t n;
	uint8_t *b = fw_test_read_file(path, &n);
	struct fw_firmware fw;
	CHECK(fw_firmware_parse_buffer(b, n, NULL, &fw, NULL));
	uint64_t total = fw.tree->decompressed_total;
	CHECK(total > 0);
	fw_firmware_close(&fw);
	struct fw_limits l = fw_limits_default();
	l.max_decompressed_total = total;
	struct fw_open_options o = {0, &l};
	CHECK(fw_firmware_parse_buffer(b, n, &o, &fw, NULL));
	bool hit = false;
	fw_node_walk(fw.tree->root, find_limit_diag, &hit);
	CHECK(!hit);
	CHECK_EQ(fw.tree->decompressed_total, total);
	fw_firmware_close(&fw);
	l.max_decompressed_total = total - 1;
	CHECK(fw_firmware_parse_buffer(b, n, &o, &fw, NULL));
	fw_node_walk(fw.tree->root, find_limit_diag, &hit);
	CHECK(hit);
	CHECK(fw.tree->decompressed_total < total);
	fw_firmware_close(&fw);
	free(b);
}

/* A VSS store holding one variable whose UCS-2 name has `chars` characters. */
static uint8_t *vss_with_name(size_t chars, size_t *len)
{
	size_t nlen = 2 * (chars + 1), rec = 32 + nlen + 1, store = 28 + ((rec + 3) & ~(size_t)3) + 32;
	uint8_t *p = malloc(store);
	memset(p, 0xFF, store);
	memcpy(p, fw_guid_vss_store.b, 16);
	fw_put_le32(p + 16, (uint32_t)store);
	p[20] = FW_VSS_STORE_FORMATTED;
	p[21] = FW_VSS_STORE_HEALTHY;
	memset(p + 22, 0, 6);
	uint8_t *v = p + 28;
	fw_put_le16(v, FW_VSS_START_ID);
	v[2] = 0x3F;
	v[3] = 0;
	fw_put_le32(v + 4, 0x07);
	fw_put_le32(v + 8, (uint32_t)nlen);
	fw_put_le32(v + 12, 1);
	memset(v + 16, 0x5A, 16);
	for (size_t i = 0; i < chars; i++)
		fw_put_le16(v + 32 + 2 * i, 'N');
	fw_put_le16(v + 32 + 2 * chars, 0);
	v[32 + nlen] = 1;
	*len = store;
	return p;
}

static size_t vss_name_length(size_t chars)
{
	size_t len;
	uint8_t *p = vss_with_name(chars, &len);
	struct fw_tree *t = fw_tree_new(NULL);
	struct fw_view v = fw_view_make(p, len, 0);
	size_t got = SIZE_MAX;
	if (fw_vss_parse_store(t, NULL, &v, NULL)) {
		struct fw_varlist l = {0};
		fw_nvram_collect(t->root, false, &l);
		if (l.count == 1)
			got = strlen(l.items[0]->name);
		fw_varlist_free(&l);
	}
	fw_tree_free(t);
	free(p);
	return got;
}

TEST(limits_string_length_at_and_past)
{
	CHECK_EQ(vss_name_length(65536), 65536);
	CHECK_EQ(vss_name_length(65537), 65536); /* cut at the limit */
}

/* IFR scopes nest 255 deep at most: FORM_SET and 254 scoped SUPPRESS_IFs decode, one more is an
 * error naming the limit. */
static bool ifr_nested(unsigned scopes, struct fw_error *err)
{
	size_t len = 4 + 23 + 2 * (scopes - 1) + 2 * scopes;
	uint8_t *p = calloc(1, len);
	fw_put_le32(p, (uint32_t)len | (uint32_t)FW_HII_PACKAGE_FORMS << 24);
	p[4] = FW_IFR_FORM_SET;
	p[5] = 0x80 | 23;
	size_t off = 4 + 23;
	for (unsigned i = 1; i < scopes; i++, off += 2)
		p[off] = FW_IFR_SUPPRESS_IF, p[off + 1] = 0x82;
	for (unsigned i = 0; i < scopes; i++, off += 2)
		p[off] = FW_IFR_END, p[off + 1] = 0x02;
	struct fw_arena a;
	fw_arena_init(&a);
	struct fw_view v = fw_view_make(p, len, 0);
	struct fw_ifr_formset fs;
	bool ok = fw_ifr_decode(&a, &v, &fs, err);
	fw_arena_free(&a);
	free(p);
	return ok;
}

TEST(limits_ifr_scope_depth_at_and_past)
{
	struct fw_error err;
	CHECK_MSG(ifr_nested(255, &err), "%s", err.msg);
	CHECK(!ifr_nested(256, &err));
	CHECK(strstr(err.msg, "scopes nested deeper than 255"));
}

/* A snapshot of `members` tar members: manifest.json and files of `file_size` bytes (at most 512)
 * (a second manifest.json as member `again` when that is not 0). */
static uint8_t *snapshot_sized(unsigned long members, unsigned long again, size_t file_size, size_t *len)
{
	static const char manifest[] = "{\"format\": \"fwlens-snapshot\", \"version\": 1, \"members\": []}";
	/* a header each, a data block for the manifests and each non-empty file, end blocks */
	size_t n = (size_t)(members + 2) * (file_size ? 1024 : 512) + 1024;
	uint8_t *p = calloc(1, n);
	size_t off = 0;
	for (unsigned long i = 0; i < members; i++) {
		uint8_t *h = p + off;
		bool is_manifest = i == 0 || (again && i == again);
		size_t size = is_manifest ? sizeof(manifest) - 1 : file_size;
		if (is_manifest)
			strcpy((char *)h, "manifest.json");
		else
			snprintf((char *)h, 100, "files/m/%07lu", i);
		memcpy(h + 100, "0000644", 8);
		memcpy(h + 108, "0000000", 8);
		memcpy(h + 116, "0000000", 8);
		snprintf((char *)h + 124, 12, "%011zo", size);
		memcpy(h + 136, "00000000000", 12);
		h[156] = '0';
		memcpy(h + 257, "ustar", 6);
		memcpy(h + 263, "00", 2);
		memset(h + 148, ' ', 8);
		unsigned sum = 0;
		for (int k = 0; k < 512; k++)
			sum += h[k];
		snprintf((char *)h + 148, 8, "%06o", sum);
		off += 512;
		if (is_manifest) {
			memcpy(p + off, manifest, size);
			off += 512;
		} else if (size) {
			memset(p + off, 'x', size);
			off += 512;
		}
	}
	*len = off + 1024;
	return p;
}

static uint8_t *snapshot_with(unsigned long members, unsigned long again, size_t *len)
{
	return snapshot_sized(members, again, 0, len);
}

static uint8_t *snapshot_of(unsigned long members, size_t *len)
{
	return snapshot_with(members, 0, len);
}

TEST(limits_snapshot_members_at_and_past)
{
	size_t len;
	uint8_t *p = snapshot_of(FW_SNAPSHOT_MAX_MEMBERS, &len);
	struct fw_machine *m;
	struct fw_error err;
	CHECK_MSG(fw_snapshot_load_buffer(p, len, "at.fwsnap", &m, &err), "%s", err.msg);
	CHECK(fw_machine_exists(m, "m/0199999"));
	fw_machine_close(m);
	free(p);
	p = snapshot_of(FW_SNAPSHOT_MAX_MEMBERS + 1, &len);
	CHECK(!fw_snapshot_load_buffer(p, len, "past.fwsnap", &m, &err));
	CHECK_EQ(err.code, FW_E_LIMIT);
	CHECK(strstr(err.msg, "more than 200000 members"));
	free(p);
}

/* The bytes of all members: the loader takes the cap as a parameter, so the test reaches it with
 * a few hundred bytes instead of 2 GiB. */
TEST(limits_snapshot_total_bytes_at_and_past)
{
	size_t len;
	uint8_t *p = snapshot_sized(5, 0, 100, &len); /* manifest and 4 files of 100 bytes */
	struct fw_machine *m;
	struct fw_error err;
	CHECK_MSG(fw_snapshot_load_buffer_capped(p, len, "at.fwsnap", 400, &m, &err), "%s", err.msg);
	CHECK(fw_machine_exists(m, "m/0000004"));
	fw_machine_close(m);
	CHECK(!fw_snapshot_load_buffer_capped(p, len, "past.fwsnap", 399, &m, &err));
	CHECK_EQ(err.code, FW_E_LIMIT);
	CHECK_MSG(strstr(err.msg, "past.fwsnap: member files/m/0000004 at 0x") &&
			  strstr(err.msg, "members add up to more than 399 bytes"),
		  "%s", err.msg);
	free(p);
}

/* The settings-list limits, lowered the same way: a JSON array and JSON lines, records and bytes. */
TEST(limits_settings_list_at_and_past)
{
	const char *array = "[{\"prompt\": \"A\"}, {\"prompt\": \"B\"}, {\"prompt\": \"C\"}]";
	const char *lines = "{\"prompt\": \"A\"}\n{\"prompt\": \"B\"}\n{\"prompt\": \"C\"}\n";
	struct fw_setlist l;
	struct fw_error err;
	struct fw_setlist_limits at = {1024, 3}, past = {1024, 2};
	CHECK_MSG(fw_setlist_from_json_limited(array, strlen(array), "a.json", &at, &l, &err), "%s", err.msg);
	CHECK_EQ(l.n, 3);
	fw_setlist_free(&l);
	CHECK(!fw_setlist_from_json_limited(array, strlen(array), "a.json", &past, &l, &err));
	CHECK_EQ(err.code, FW_E_LIMIT);
	CHECK_MSG(strcmp(err.msg, "a.json: more than 2 settings") == 0, "%s", err.msg);
	CHECK_MSG(fw_setlist_from_json_limited(lines, strlen(lines), "l.jsonl", &at, &l, &err), "%s", err.msg);
	CHECK_EQ(l.n, 3);
	CHECK(strcmp(l.items[2].prompt, "C") == 0);
	fw_setlist_free(&l);
	CHECK(!fw_setlist_from_json_limited(lines, strlen(lines), "l.jsonl", &past, &l, &err));
	CHECK_EQ(err.code, FW_E_LIMIT);
	CHECK_MSG(strcmp(err.msg, "l.jsonl: line 3: more than 2 settings") == 0, "%s", err.msg);
	/* bytes: the whole text at the limit, then one byte past it */
	struct fw_setlist_limits bytes_at = {strlen(lines), 10}, bytes_past = {strlen(lines) - 1, 10};
	CHECK_MSG(fw_setlist_from_json_limited(lines, strlen(lines), "l.jsonl", &bytes_at, &l, &err), "%s", err.msg);
	fw_setlist_free(&l);
	CHECK(!fw_setlist_from_json_limited(lines, strlen(lines), "l.jsonl", &bytes_past, &l, &err));
	CHECK_EQ(err.code, FW_E_LIMIT);
	CHECK_MSG(strstr(err.msg, "l.jsonl: settings list of 48 bytes, over the limit of 47 bytes"), "%s", err.msg);
}

/* ---- prefetch: big streams inflated ahead on several threads give the same tree ---------------- */

static char *tree_json_with_threads(const char *path, const char *threads)
{
	struct fw_env saved = *fw_env(), e = saved;
	e.threads = threads;
	fw_env_set(&e);
	struct fw_firmware fw;
	struct fw_error err;
	char *text = NULL;
	size_t len = 0;
	if (fw_source_open_firmware(path, NULL, &fw, &err)) {
		FILE *f = open_memstream(&text, &len);
		fw_tree_write_json(f, fw.tree, fw_input_kind_name(fw.kind), FW_JSON_CRC32);
		fclose(f);
		fw_firmware_close(&fw);
	}
	fw_env_set(&saved);
	return text;
}

TEST(prefetch_gives_the_same_tree)
{
	const char *inputs[] = {fw_test_build("samples/ESC8000A-E13-ASUS-1104.CAP"),
				fw_test_corpus("firmware/asus-wrx90e-sage-se-1203_rebuilt.cap"), "/usr/share/OVMF/OVMF_CODE_4M.fd"};
	unsigned compared = 0;
	for (size_t i = 0; i < sizeof(inputs) / sizeof(inputs[0]); i++) {
		if (!inputs[i] || access(inputs[i], R_OK) != 0)
			continue;
		char *one = tree_json_with_threads(inputs[i], "1"), *four = tree_json_with_threads(inputs[i], "4");
		CHECK_MSG(one && four && strcmp(one, four) == 0, "%s: the tree differs with 4 threads", inputs[i]);
		free(one);
		free(four);
		compared++;
	}
	if (!compared)
		SKIP("no sample capsule (make samples), WRX90E capsule or OVMF image present");
}

/* ---- user regular expressions (topic rules, find) ------------------------------------------------ */

/* Stacked repetition operators after one atom made regcomp take 11 s ("B" + 28 "?" + "++++", found
 * by fuzz-topics as a timeout). PCRE2 refuses a quantifier on a quantifier at once, and compiles
 * nested repetitions without expanding them. */
TEST(user_regex_stacked_repetitions_refused)
{
	struct fw_regex re;
	struct fw_error err;
	char pat[64] = "B";
	memset(pat + 1, '?', 28);
	strcpy(pat + 29, "++++");
	struct timespec t0, t1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	CHECK(!fw_regex_compile(&re, pat, &err));
	CHECK(!fw_regex_compile(&re, " BBBBBB\\\\\\BB?????+++BBB", &err));
	CHECK(!fw_regex_compile(&re, "\\bB???", &err));
	CHECK(!fw_regex_compile(&re, "x{2}{3}?", &err));
	CHECK_MSG(strstr(err.msg, "quantifier does not follow a repeatable item"), "%s", err.msg);
	CHECK(fw_regex_compile(&re, "((((((((((a?)?)?)?)?)?)?)?)?)?)", &err));
	CHECK(fw_regex_match(&re, "b") && !re.limit_hit);
	fw_regex_free(&re);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	CHECK((t1.tv_sec - t0.tv_sec) * 1000 + (t1.tv_nsec - t0.tv_nsec) / 1000000 < 100);
	/* ordinary expressions still compile */
	static const char *const fine[] = {"SEV-?SNP", "a*b+c?d{2,3}", "(IOMMU|SMMU)( Mode)?", "^ACS Enable$",
					   "x{1,200}", "[[:alpha:]]+ [0-9]*", "\\bSMEE.*?", "a+?b??"};
	for (size_t i = 0; i < sizeof(fine) / sizeof(fine[0]); i++) {
		CHECK_MSG(fw_regex_compile(&re, fine[i], &err), "%s: %s", fine[i], err.msg);
		fw_regex_free(&re);
	}
	struct fw_topics t;
	CHECK_MSG(fw_topics_load(NULL, &t, &err), "the built-in rules: %s", err.msg);
	fw_topics_free(&t);
}

/* Two manifest.json members: the second is refused (it leaked the first, found by fuzz-snapshot). */
TEST(snapshot_second_manifest_refused)
{
	size_t len;
	uint8_t *p = snapshot_with(5, 3, &len);
	struct fw_machine *m;
	struct fw_error err;
	CHECK(!fw_snapshot_load_buffer(p, len, "two.fwsnap", &m, &err));
	CHECK(strstr(err.msg, "two.fwsnap: a second manifest.json at 0x"));
	free(p);
}

/* ---- FWLENS_LIMITS: lowers, never raises; malformed is refused ---------------------------------- */

TEST(limits_env_lowers_never_raises)
{
	char why[160];
	CHECK(fw_env_limits_valid(NULL, why, sizeof(why)));
	CHECK(fw_env_limits_valid("inflate-total=1G,snapshot-members=10,snapshot-bytes=64K,snapshot-member=2M", why, sizeof(why)));
	static const char *const bad[] = {"inflate-total", "inflate-total=", "inflate-total=x", "inflate-total=1T",
					  "inflate-total=1KK", "other=1", "=1", "inflate-total=99999999999999999999",
					  "inflate-total=17179869184G", "snapshot-members=1,,inflate-total=2"};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		CHECK_MSG(!fw_env_limits_valid(bad[i], why, sizeof(why)) && strstr(why, "FWLENS_LIMITS: '"), "%s accepted", bad[i]);
	struct fw_env saved = *fw_env(), e = saved;
	e.limits = "inflate-total=64K,snapshot-members=99999999,snapshot-bytes=3M,snapshot-bytes=2M";
	fw_env_set(&e);
	CHECK_EQ(fw_env_limit("inflate-total", (uint64_t)2 << 30), 65536);
	CHECK_EQ(fw_env_limit("snapshot-members", 200000), 200000); /* never raised */
	CHECK_EQ(fw_env_limit("snapshot-bytes", (uint64_t)2 << 30), 2 << 20); /* the lowest given */
	CHECK_EQ(fw_env_limit("snapshot-member", 128 << 20), 128 << 20);
	struct fw_limits l = fw_limits_default();
	CHECK_EQ(l.max_decompressed_total, 65536);
	fw_env_set(&saved);
	CHECK_EQ(fw_limits_default().max_decompressed_total, (uint64_t)2 << 30);
}
