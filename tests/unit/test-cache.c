/* The cache of decoded firmware: an entry rebuilds the same forms, a damaged or foreign entry is a
 * miss, the folder stays under its bound, image files are found by hash. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "harness.h"
#include "sysroot.h"
#include "ifr/settings.h"
#include "tools/query/cache.h"
#include "tools/query/source.h"

static const char *SHA_A = "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa";
static const char *RULES_1 = "1000000000000000000000000000000000000000000000000000000000000001";
static const char *RULES_2 = "2000000000000000000000000000000000000000000000000000000000000002";

static struct fw_cache cache_at(const char *dir, uint64_t max, const char *rules)
{
	struct fw_cache c = {dir, max, NULL, ""};
	snprintf(c.rules_sha256, sizeof(c.rules_sha256), "%s", rules);
	return c;
}

/* Write (replace) a file at an absolute path. */
static bool put_file(const char *path, const void *p, size_t n)
{
	FILE *f = fopen(path, "wb");
	if (!f)
		return false;
	bool ok = fwrite(p, 1, n, f) == n;
	return fclose(f) == 0 && ok;
}

static uint32_t total_forms(const struct fw_hii_db *db)
{
	uint32_t n = 0;
	for (uint32_t i = 0; i < db->nmodules; i++)
		n += db->modules[i]->nforms;
	return n;
}

TEST(cache_dir_from_options_and_environment)
{
	char *d = fw_cache_dir_default("/x/c", "/xdg", "/home/u");
	CHECK_STR(d, "/x/c");
	free(d);
	d = fw_cache_dir_default(NULL, "/xdg", "/home/u");
	CHECK_STR(d, "/xdg/fwlens");
	free(d);
	d = fw_cache_dir_default(NULL, "relative", "/home/u"); /* a relative XDG_CACHE_HOME is ignored */
	CHECK_STR(d, "/home/u/.cache/fwlens");
	free(d);
	CHECK(fw_cache_dir_default(NULL, NULL, NULL) == NULL);
}

TEST(cache_size_bound_parsed)
{
	uint64_t v = 0;
	CHECK(fw_cache_parse_size("2G", &v));
	CHECK_EQ(v, (uint64_t)2 << 30);
	CHECK(fw_cache_parse_size("512M", &v));
	CHECK_EQ(v, (uint64_t)512 << 20);
	CHECK(fw_cache_parse_size("4096k", &v));
	CHECK_EQ(v, (uint64_t)4 << 20);
	CHECK(fw_cache_parse_size("1048576", &v));
	CHECK_EQ(v, (uint64_t)1 << 20);
	v = 7;
	CHECK(!fw_cache_parse_size("1048575", &v)); /* under 1 MiB */
	CHECK(!fw_cache_parse_size("10X", &v));
	CHECK(!fw_cache_parse_size("-5M", &v));
	CHECK(!fw_cache_parse_size("", &v));
	CHECK(!fw_cache_parse_size("99999999999999999999G", &v));
	CHECK(!fw_cache_parse_size("17179869184G", &v)); /* 2^64 bytes */
	CHECK_EQ(v, 7);
}

TEST(cache_entry_round_trip_and_damage)
{
	const char *cap = fw_test_build("samples/ESC8000A-E13-ASUS-1104.CAP");
	if (!cap)
		SKIP("the sample capsule is built by make samples");
	char dir[] = "/tmp/fwlens-test-cache.XXXXXX";
	CHECK(fw_sysroot_new(dir));
	struct fw_cache c = cache_at(dir, 0, RULES_1);
	struct fw_hii_input in;
	struct fw_error err;
	fw_error_clear(&err);
	CHECK_MSG(fw_source_open_hii(cap, NULL, &in, &err), "%s", err.msg);
	struct fw_inventory inv;
	fw_inventory_build(in.fw.tree, &inv);
	const struct fw_version_fact *agesa = fw_inventory_version(&inv, "agesa");
	CHECK(agesa);
	/* two topic matches of a list of 300 settings */
	struct fw_cache_match mv[2] = {{4, "SMEE", "sev-snp", "smee"}, {250, "IOMMU", "iommu", "iommu-enable"}};
	struct fw_cache_matches matches = {true, "", 300, mv, 2};
	bool stored = fw_cache_store(&c, SHA_A, &in.db, &inv, &matches, &err);
	uint32_t modules = in.db.nmodules, forms = total_forms(&in.db);
	/* the settings the forms give, to compare with those the entry gives */
	struct fw_settings s0;
	CHECK(fw_settings_build(&in.db, NULL, &s0));
	uint32_t nsettings = s0.n;
	size_t blob_bytes = 0;
	for (uint32_t i = 0; i < in.db.nmodules; i++)
		for (uint32_t k = 0; k < in.db.modules[i]->nblobs; k++)
			blob_bytes += in.db.modules[i]->blobs[k].view.len;
	char **prompts = fw_xcalloc(nsettings + 1, sizeof(char *));
	for (uint32_t i = 0; i < nsettings; i++)
		prompts[i] = fw_xasprintf("%s|%s|%u|%u", s0.items[i].prompt ? s0.items[i].prompt : "",
					  s0.items[i].npaths ? s0.items[i].paths[0] : "", (unsigned)s0.items[i].q->var_info,
					  s0.items[i].noptions);
	char want_agesa[128];
	snprintf(want_agesa, sizeof(want_agesa), "%s", agesa->value);
	fw_inventory_free(&inv);
	fw_hii_close(&in);
	CHECK_MSG(stored, "%s", err.msg);

	struct fw_cache_entry e;
	char why[256];
	CHECK_MSG(fw_cache_load(&c, SHA_A, &e, why, sizeof(why)), "%s", why);
	CHECK_EQ(e.nmodules, modules);
	struct fw_hii_db db;
	fw_hii_db_init(&db, NULL);
	CHECK(fw_cache_entry_hii(&e, &db, &err));
	CHECK_EQ(db.nmodules, modules);
	CHECK_EQ(total_forms(&db), forms);
	/* the modules' bytes that decoding reads, not whole blobs; the same settings from them */
	CHECK_MSG(e.len < blob_bytes, "entry %zu bytes, blobs %zu", e.len, blob_bytes);
	struct fw_settings s1;
	CHECK(fw_settings_build(&db, NULL, &s1));
	CHECK_EQ(s1.n, nsettings);
	for (uint32_t i = 0; i < nsettings && i < s1.n; i++) {
		char *got = fw_xasprintf("%s|%s|%u|%u", s1.items[i].prompt ? s1.items[i].prompt : "",
					 s1.items[i].npaths ? s1.items[i].paths[0] : "", (unsigned)s1.items[i].q->var_info,
					 s1.items[i].noptions);
		CHECK_STR(got, prompts[i]);
		free(got);
	}
	for (uint32_t i = 0; i < nsettings; i++)
		free(prompts[i]);
	free(prompts);
	/* the topic matches as stored */
	CHECK(e.matches.known);
	CHECK_STR(e.matches.lang, "");
	CHECK_EQ(e.matches.nitems, 300);
	CHECK_EQ(e.matches.n, 2);
	CHECK_EQ(e.matches.v[1].item, 250);
	CHECK_STR(e.matches.v[1].prompt, "IOMMU");
	CHECK_STR(e.matches.v[1].topic, "iommu");
	CHECK_STR(e.matches.v[1].rule, "iommu-enable");
	bool found = false;
	for (size_t i = 0; i < e.nversions; i++)
		if (strcmp(e.versions[i].key, "agesa") == 0) {
			CHECK_STR(e.versions[i].value, want_agesa);
			CHECK_STR(e.versions[i].source, "AGESA! marker");
			found = true;
		}
	CHECK(found);
	fw_hii_db_free(&db);
	size_t len = e.len;
	uint8_t *bytes = fw_xmalloc(len);
	memcpy(bytes, e.data, len);
	fw_cache_entry_free(&e);

	char path[256];
	snprintf(path, sizeof(path), "%s/forms-%s-%s.bin", dir, SHA_A, RULES_1);
	/* another image's key: the same bytes under another name are not trusted */
	const char *sha_b = "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb";
	char other[256];
	snprintf(other, sizeof(other), "%s/forms-%s-%s.bin", dir, sha_b, RULES_1);
	CHECK(put_file(other, bytes, len));
	CHECK(!fw_cache_load(&c, sha_b, &e, why, sizeof(why)));
	CHECK_MSG(strstr(why, "another image"), "%s", why);
	/* other rules: a miss (no entry under their key), and these bytes under their key are not trusted */
	struct fw_cache c2 = cache_at(dir, 0, RULES_2);
	CHECK(!fw_cache_load(&c2, SHA_A, &e, why, sizeof(why)));
	snprintf(other, sizeof(other), "%s/forms-%s-%s.bin", dir, SHA_A, RULES_2);
	CHECK(put_file(other, bytes, len));
	CHECK(!fw_cache_load(&c2, SHA_A, &e, why, sizeof(why)));
	CHECK_MSG(strstr(why, "other rules"), "%s", why);
	CHECK(!fw_cache_entry_parse(bytes, len, SHA_A, RULES_2, &e, why, sizeof(why)));
	CHECK(fw_cache_entry_parse(bytes, len, SHA_A, RULES_1, &e, why, sizeof(why)));
	fw_cache_entry_free(&e);
	/* one flipped byte, a cut, foreign bytes: each a miss with its reason */
	bytes[len / 2] ^= 0x40;
	CHECK(put_file(path, bytes, len));
	CHECK(!fw_cache_load(&c, SHA_A, &e, why, sizeof(why)));
	CHECK_MSG(strstr(why, "digest"), "%s", why);
	/* the same when the digest is checked while the forms are decoded (on a thread of its own
	 * unless FWLENS_THREADS=1): the forms decoded from it are not used */
	fw_hii_db_init(&db, NULL);
	CHECK(!fw_cache_load_hii(&c, SHA_A, &e, &db, why, sizeof(why)));
	CHECK_MSG(strstr(why, "digest"), "%s", why);
	fw_hii_db_free(&db);
	bytes[len / 2] ^= 0x40;
	CHECK(put_file(path, bytes, len));
	fw_hii_db_init(&db, NULL);
	CHECK_MSG(fw_cache_load_hii(&c, SHA_A, &e, &db, why, sizeof(why)), "%s", why);
	CHECK_EQ(db.nmodules, modules);
	CHECK_EQ(total_forms(&db), forms);
	fw_hii_db_free(&db);
	fw_cache_entry_free(&e);
	CHECK(put_file(path, bytes, len - 100));
	CHECK(!fw_cache_load(&c, SHA_A, &e, why, sizeof(why)));
	static const char foreign[] = "PK\x03\x04 not an entry";
	CHECK(put_file(path, foreign, sizeof(foreign) - 1));
	CHECK(!fw_cache_load(&c, SHA_A, &e, why, sizeof(why)));
	CHECK_MSG(strstr(why, "not a fwlens cache entry"), "%s", why);
	CHECK(put_file(path, bytes, len));
	CHECK(fw_cache_load(&c, SHA_A, &e, why, sizeof(why)));
	fw_cache_entry_free(&e);
	free(bytes);
	fw_sysroot_remove(dir);
}

TEST(cache_evicts_least_recently_used)
{
	char dir[] = "/tmp/fwlens-test-cache.XXXXXX";
	CHECK(fw_sysroot_new(dir));
	struct fw_hii_db db;
	fw_hii_db_init(&db, NULL);
	/* one module whose blob has no packages still makes an entry of a known size */
	static uint8_t blob[40000];
	struct fw_hii_module m = {0};
	struct fw_hii_blob hb = {fw_view_make(blob, sizeof(blob), 0), "raw"};
	m.blobs = &hb;
	m.nblobs = 1;
	struct fw_hii_module *mods[1] = {&m};
	db.modules = mods;
	db.nmodules = 1;
	struct fw_inventory inv;
	fw_inventory_build(NULL, &inv);
	struct fw_cache c = cache_at(dir, 100000, RULES_1); /* room for two entries of ~40 KB */
	const char *keys[3] = {"1111111111111111111111111111111111111111111111111111111111111111",
			       "2222222222222222222222222222222222222222222222222222222222222222",
			       "3333333333333333333333333333333333333333333333333333333333333333"};
	struct fw_error err;
	for (int i = 0; i < 3; i++) {
		CHECK(fw_cache_store(&c, keys[i], &db, &inv, NULL, &err));
		/* entries used at distinct times: 1 oldest */
		char p[256];
		snprintf(p, sizeof(p), "%s/forms-%s-%s.bin", dir, keys[i], RULES_1);
		struct timespec ts[2] = {{1000000 + i * 10, 0}, {1000000 + i * 10, 0}};
		CHECK(utimensat(AT_FDCWD, p, ts, 0) == 0);
	}
	fw_inventory_free(&inv);
	db.modules = NULL;
	db.nmodules = 0;
	fw_hii_db_free(&db);
	struct fw_cache_entry e;
	CHECK(!fw_cache_load(&c, keys[0], &e, NULL, 0)); /* evicted when the third was stored */
	CHECK(fw_cache_load(&c, keys[1], &e, NULL, 0));
	fw_cache_entry_free(&e);
	CHECK(fw_cache_load(&c, keys[2], &e, NULL, 0));
	CHECK_EQ(e.nmodules, 1);
	CHECK_EQ(e.modules[0].blobs[0].view.len, sizeof(blob));
	fw_cache_entry_free(&e);
	fw_sysroot_remove(dir);
}

TEST(cache_finds_images_by_hash_and_remembers_them)
{
	char dir[] = "/tmp/fwlens-test-cache.XXXXXX";
	CHECK(fw_sysroot_new(dir));
	char cdir[300], idir[300], path[400];
	snprintf(cdir, sizeof(cdir), "%s/cache", dir);
	snprintf(idir, sizeof(idir), "%s/images", dir);
	CHECK(mkdir(idir, 0755) == 0);
	struct fw_cache c = cache_at(cdir, 0, RULES_1);
	/* SHA-256("abc") */
	const char *abc = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";
	snprintf(path, sizeof(path), "%s/some-bios.cap", idir);
	CHECK(put_file(path, "abc", 3));
	snprintf(path, sizeof(path), "%s/other.cap", idir);
	CHECK(put_file(path, "abd", 3));
	struct fw_error err;
	fw_error_clear(&err);
	char *found = fw_cache_find_image(&c, idir, abc, &err);
	CHECK_MSG(found && strstr(found, "/some-bios.cap"), "%s", found ? found : err.msg);
	free(found);
	/* hashed once: the index answers for the same path, size and time */
	char sha[FW_SHA256_HEX_LEN];
	snprintf(path, sizeof(path), "%s/some-bios.cap", idir);
	CHECK(fw_cache_file_sha256(&c, path, sha, &err));
	CHECK_STR(sha, abc);
	snprintf(path, sizeof(path), "%s/images.idx", cdir);
	size_t n;
	char *idx = (char *)fw_test_read_file(path, &n);
	CHECK(idx && n > 0);
	unsigned lines = 0;
	for (size_t i = 0; i < n; i++)
		lines += idx[i] == '\n';
	free(idx);
	CHECK_EQ(lines, 2); /* both files, once each */
	/* a file named by its hash is taken only when its bytes have that hash */
	snprintf(path, sizeof(path), "%s/%s", idir, abc);
	CHECK(put_file(path, "abd", 3));
	found = fw_cache_find_image(&c, idir, abc, &err);
	CHECK_MSG(found && strstr(found, "/some-bios.cap"), "%s", found ? found : err.msg);
	free(found);
	CHECK(fw_cache_find_image(&c, idir, "0000000000000000000000000000000000000000000000000000000000000000", &err) == NULL);
	CHECK_EQ(err.code, FW_E_NOT_FOUND);
	fw_sysroot_remove(dir);
}
