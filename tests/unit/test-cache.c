/* The cache of decoded firmware: an entry rebuilds the same forms, a damaged, foreign or forged
 * entry is a miss, the folder stays under its bound removing only its own names, image files are
 * found by hash, and nothing is used that is not the user's own or is reached through a link. */
#include <errno.h>
#include <fcntl.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
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

/* What the cache said (the last warning, and how many). */
static char warned[1400];
static unsigned nwarned;

static void note_warning(void *ctx, const char *msg)
{
	snprintf(warned, sizeof(warned), "%s", msg);
	nwarned++;
}

static struct fw_cache cache_at(const char *dir, uint64_t max, const char *rules)
{
	struct fw_cache c = {.dir = dir, .max_bytes = max, .warn = note_warning};
	snprintf(c.rules_sha256, sizeof(c.rules_sha256), "%s", rules);
	return c;
}

/* Write (replace) a file at an absolute path, the user's own (0600) as the cache makes its files. */
static bool put_file(const char *path, const void *p, size_t n)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0)
		return false;
	bool ok = write(fd, p, n) == (ssize_t)n;
	return close(fd) == 0 && ok;
}

/* The folder's MAC key. */
static bool read_key(const char *dir, uint8_t key[FW_CACHE_KEY_LEN])
{
	char path[400];
	snprintf(path, sizeof(path), "%s/hmac.key", dir);
	size_t n = 0;
	uint8_t *p = fw_test_read_file(path, &n);
	bool ok = p && n == FW_CACHE_KEY_LEN;
	if (ok)
		memcpy(key, p, FW_CACHE_KEY_LEN);
	free(p);
	return ok;
}

static unsigned mode_of(const char *path)
{
	struct stat st;
	return lstat(path, &st) == 0 ? (unsigned)(st.st_mode & 07777) : 0xffffu;
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

/* The MAC entries and index lines carry is HMAC-SHA256 and fw_sha256 is SHA-256 (both on
 * libcrypto's low-level calls, parsers/hash.c): the same bytes as HMAC() and EVP_Digest for texts
 * shorter than, as long as and longer than SHA-256's 64-byte block, and megabytes; RFC 4231's
 * test case 2 (a 4-byte key); a key over one block is refused. */
TEST(cache_mac_is_hmac_sha256)
{
	uint8_t key[FW_CACHE_KEY_LEN];
	for (size_t i = 0; i < sizeof(key); i++)
		key[i] = (uint8_t)(0xa5 ^ (i * 37));
	static uint8_t text[(3u << 20) + 1];
	for (size_t i = 0; i < sizeof(text); i++)
		text[i] = (uint8_t)((i * 2654435761u) >> 13);
	const size_t lens[] = {0, 1, 55, 63, 64, 65, 127, 128, 4096, sizeof(text)};
	for (size_t k = 0; k < sizeof(lens) / sizeof(lens[0]); k++) {
		uint8_t ours[FW_SHA256_LEN], want[FW_SHA256_LEN];
		unsigned len = 0;
		CHECK(fw_cache_mac(key, text, lens[k], ours));
		CHECK(HMAC(EVP_sha256(), key, sizeof(key), text, lens[k], want, &len) && len == FW_SHA256_LEN);
		CHECK(memcmp(ours, want, sizeof(want)) == 0);
		fw_sha256(text, lens[k], ours);
		CHECK(EVP_Digest(text, lens[k], want, &len, EVP_sha256(), NULL) && len == FW_SHA256_LEN);
		CHECK(memcmp(ours, want, sizeof(want)) == 0);
	}
	char hex[FW_SHA256_HEX_LEN];
	uint8_t mac[FW_SHA256_LEN];
	const char *what = "what do ya want for nothing?";
	CHECK(fw_hmac_sha256((const uint8_t *)"Jefe", 4, (const uint8_t *)what, strlen(what), mac));
	CHECK_STR(fw_hex(mac, sizeof(mac), hex), "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
	CHECK(!fw_hmac_sha256(text, 65, text, 10, mac));
	/* one bit of the key or of the text changes it */
	uint8_t a[FW_SHA256_LEN], b[FW_SHA256_LEN];
	CHECK(fw_cache_mac(key, text, 100, a));
	text[99] ^= 1;
	CHECK(fw_cache_mac(key, text, 100, b) && memcmp(a, b, sizeof(a)) != 0);
	text[99] ^= 1;
	key[31] ^= 0x80;
	CHECK(fw_cache_mac(key, text, 100, b) && memcmp(a, b, sizeof(a)) != 0);
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
	uint8_t key[FW_CACHE_KEY_LEN];
	CHECK(read_key(dir, key));
	CHECK(!fw_cache_entry_parse(bytes, len, SHA_A, RULES_2, key, &e, why, sizeof(why)));
	CHECK(fw_cache_entry_parse(bytes, len, SHA_A, RULES_1, key, &e, why, sizeof(why)));
	fw_cache_entry_free(&e);
	/* another folder's key: the same bytes do not verify */
	uint8_t other_key[FW_CACHE_KEY_LEN];
	memcpy(other_key, key, sizeof(key));
	other_key[0] ^= 1;
	CHECK(!fw_cache_entry_parse(bytes, len, SHA_A, RULES_1, other_key, &e, why, sizeof(why)));
	CHECK_MSG(strstr(why, "MAC does not verify"), "%s", why);
	/* a forged entry: changed bytes with a recomputed SHA-256 at the end (what format 2 checked) */
	uint8_t *forged = fw_xmalloc(len);
	memcpy(forged, bytes, len);
	forged[len / 2] ^= 0x40;
	fw_sha256(forged, len - FW_SHA256_LEN, forged + len - FW_SHA256_LEN);
	CHECK(put_file(path, forged, len));
	CHECK(!fw_cache_load(&c, SHA_A, &e, why, sizeof(why)));
	CHECK_MSG(strstr(why, "MAC does not verify"), "%s", why);
	/* ... and with the MAC recomputed with the key: what only a reader of the key can do */
	fw_cache_mac(key, forged, len - FW_SHA256_LEN, forged + len - FW_SHA256_LEN);
	CHECK(fw_cache_entry_parse(forged, len, SHA_A, RULES_1, key, &e, why, sizeof(why)));
	fw_cache_entry_free(&e);
	free(forged);
	/* one flipped byte, a cut, foreign bytes: each a miss with its reason */
	bytes[len / 2] ^= 0x40;
	CHECK(put_file(path, bytes, len));
	CHECK(!fw_cache_load(&c, SHA_A, &e, why, sizeof(why)));
	CHECK_MSG(strstr(why, "MAC does not verify"), "%s", why);
	/* the same when the MAC is checked while the forms are decoded (on a thread of its own
	 * unless FWLENS_THREADS=1): the forms decoded from it are not used */
	fw_hii_db_init(&db, NULL);
	CHECK(!fw_cache_load_hii(&c, SHA_A, &e, &db, why, sizeof(why)));
	CHECK_MSG(strstr(why, "MAC does not verify"), "%s", why);
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

/* Store an entry of about 40 KB under `sha`: one module whose blob has no packages. */
static bool store_raw(const struct fw_cache *c, const char *sha)
{
	static uint8_t blob[40000];
	struct fw_hii_db db;
	fw_hii_db_init(&db, NULL);
	struct fw_hii_module m = {0};
	struct fw_hii_blob hb = {fw_view_make(blob, sizeof(blob), 0), "raw"};
	m.blobs = &hb;
	m.nblobs = 1;
	struct fw_hii_module *mods[1] = {&m};
	db.modules = mods;
	db.nmodules = 1;
	struct fw_inventory inv;
	fw_inventory_build(NULL, &inv);
	struct fw_error err;
	fw_error_clear(&err);
	bool ok = fw_cache_store(c, sha, &db, &inv, NULL, &err);
	fw_inventory_free(&inv);
	db.modules = NULL;
	db.nmodules = 0;
	fw_hii_db_free(&db);
	return ok;
}

/* Give a file a modification time (seconds). */
static bool age_file(const char *path, time_t when)
{
	struct timespec ts[2] = {{when, 0}, {when, 0}};
	return utimensat(AT_FDCWD, path, ts, AT_SYMLINK_NOFOLLOW) == 0;
}

static const char *KEYS[3] = {"1111111111111111111111111111111111111111111111111111111111111111",
			      "2222222222222222222222222222222222222222222222222222222222222222",
			      "3333333333333333333333333333333333333333333333333333333333333333"};

TEST(cache_evicts_least_recently_used)
{
	char dir[] = "/tmp/fwlens-test-cache.XXXXXX";
	CHECK(fw_sysroot_new(dir));
	struct fw_cache c = cache_at(dir, 100000, RULES_1); /* room for two entries of ~40 KB */
	for (int i = 0; i < 3; i++) {
		CHECK(store_raw(&c, KEYS[i]));
		/* entries used at distinct times: 1 oldest */
		char p[256];
		snprintf(p, sizeof(p), "%s/forms-%s-%s.bin", dir, KEYS[i], RULES_1);
		CHECK(age_file(p, 1000000 + i * 10));
	}
	struct fw_cache_entry e;
	CHECK(!fw_cache_load(&c, KEYS[0], &e, NULL, 0)); /* evicted when the third was stored */
	CHECK(fw_cache_load(&c, KEYS[1], &e, NULL, 0));
	fw_cache_entry_free(&e);
	CHECK(fw_cache_load(&c, KEYS[2], &e, NULL, 0));
	CHECK_EQ(e.nmodules, 1);
	CHECK_EQ(e.modules[0].blobs[0].view.len, 40000);
	fw_cache_entry_free(&e);
	fw_sysroot_remove(dir);
}

TEST(cache_evicts_only_its_own_names)
{
	char dir[] = "/tmp/fwlens-test-cache.XXXXXX";
	CHECK(fw_sysroot_new(dir));
	char cdir[300], p[700];
	snprintf(cdir, sizeof(cdir), "%s/cache", dir);
	CHECK(mkdir(cdir, 0700) == 0);
	/* foreign files, older and larger than any entry: named like entries but not exactly, and a
	 * link named exactly like one, to a file outside */
	static uint8_t big[200000];
	const char *foreign[] = {"forms-foo", "forms-old1.bin", "forms-11-22.bin",
				 "forms-4444444444444444444444444444444444444444444444444444444444444444-"
				 "1000000000000000000000000000000000000000000000000000000000000001.bin.bak",
				 "FORMS-4444444444444444444444444444444444444444444444444444444444444444-"
				 "1000000000000000000000000000000000000000000000000000000000000001.bin"};
	for (size_t i = 0; i < sizeof(foreign) / sizeof(*foreign); i++) {
		snprintf(p, sizeof(p), "%s/%s", cdir, foreign[i]);
		CHECK(put_file(p, big, sizeof(big)));
		CHECK(age_file(p, 1000));
	}
	char outside[400];
	snprintf(outside, sizeof(outside), "%s/outside.bin", dir);
	CHECK(put_file(outside, big, sizeof(big)));
	snprintf(p, sizeof(p), "%s/forms-%s-%s.bin", cdir, "5555555555555555555555555555555555555555555555555555555555555555",
		 RULES_1);
	CHECK(symlink(outside, p) == 0);
	/* the index counts: 60,000 bytes of it and two entries of ~40 KB do not fit 120,000 */
	snprintf(p, sizeof(p), "%s/images.idx", cdir);
	CHECK(put_file(p, big, 60000));
	struct fw_cache c = cache_at(cdir, 120000, RULES_1);
	CHECK(store_raw(&c, KEYS[0]));
	snprintf(p, sizeof(p), "%s/forms-%s-%s.bin", cdir, KEYS[0], RULES_1);
	CHECK(age_file(p, 2000));
	/* a stale temporary file of an entry is the cache's own: it goes first */
	char stale[700];
	snprintf(stale, sizeof(stale), "%s/forms-%s-%s.bin.tmp-0123456789ab", cdir, KEYS[2], RULES_1);
	CHECK(put_file(stale, big, 1000));
	CHECK(age_file(stale, 1500));
	CHECK(store_raw(&c, KEYS[1]));
	struct fw_cache_entry e;
	CHECK(!fw_cache_load(&c, KEYS[0], &e, NULL, 0));
	CHECK(fw_cache_load(&c, KEYS[1], &e, NULL, 0));
	fw_cache_entry_free(&e);
	CHECK(access(stale, F_OK) != 0);
	for (size_t i = 0; i < sizeof(foreign) / sizeof(*foreign); i++) {
		snprintf(p, sizeof(p), "%s/%s", cdir, foreign[i]);
		CHECK_MSG(access(p, F_OK) == 0, "%s was removed", foreign[i]);
	}
	snprintf(p, sizeof(p), "%s/forms-%s-%s.bin", cdir, "5555555555555555555555555555555555555555555555555555555555555555",
		 RULES_1);
	CHECK_EQ(mode_of(p) != 0xffffu, 1); /* the link is left, and what it points to */
	size_t n = 0;
	uint8_t *kept = fw_test_read_file(outside, &n);
	CHECK_EQ(n, sizeof(big));
	free(kept);
	fw_sysroot_remove(dir);
}

TEST(cache_uses_only_what_is_the_users_own)
{
	char dir[] = "/tmp/fwlens-test-cache.XXXXXX";
	CHECK(fw_sysroot_new(dir));
	char cdir[300], entry[700], p[700];
	snprintf(cdir, sizeof(cdir), "%s/made/cache", dir);
	snprintf(entry, sizeof(entry), "%s/forms-%s-%s.bin", cdir, KEYS[0], RULES_1);
	struct fw_cache c = cache_at(cdir, 0, RULES_1);
	nwarned = 0;
	/* absent: usable, made on the first store; folders 0700 and files 0600 under umask 0 */
	CHECK(fw_cache_trusted(&c));
	mode_t old = umask(0);
	bool stored = store_raw(&c, KEYS[0]);
	snprintf(p, sizeof(p), "%s/image", dir);
	CHECK(put_file(p, "abc", 3));
	char sha[FW_SHA256_HEX_LEN];
	struct fw_error err;
	fw_error_clear(&err);
	CHECK(fw_cache_file_sha256(&c, p, sha, &err));
	umask(old);
	CHECK(stored);
	snprintf(p, sizeof(p), "%s/made", dir);
	CHECK_EQ(mode_of(p), 0700);
	CHECK_EQ(mode_of(cdir), 0700);
	CHECK_EQ(mode_of(entry), 0600);
	snprintf(p, sizeof(p), "%s/hmac.key", cdir);
	CHECK_EQ(mode_of(p), 0600);
	snprintf(p, sizeof(p), "%s/images.idx", cdir);
	CHECK_EQ(mode_of(p), 0600);
	struct fw_cache_entry e;
	char why[300];
	CHECK_MSG(fw_cache_load(&c, KEYS[0], &e, why, sizeof(why)), "%s", why);
	fw_cache_entry_free(&e);
	CHECK_MSG(nwarned == 0, "%s", warned);

	/* a folder writable by group or others: not used, said with its path */
	CHECK(chmod(cdir, 0770) == 0);
	CHECK(!fw_cache_trusted(&c));
	CHECK_MSG(strstr(warned, cdir) && strstr(warned, "is writable by group or others (mode 0770): not used"), "%s",
		  warned);
	CHECK(!fw_cache_load(&c, KEYS[0], &e, why, sizeof(why)));
	CHECK(!store_raw(&c, KEYS[1]));
	CHECK(chmod(cdir, 0700) == 0);
	CHECK(fw_cache_trusted(&c));
	/* an entry writable by others: a miss, replaced by the next store with the user's own */
	CHECK(chmod(entry, 0602) == 0);
	CHECK(!fw_cache_load(&c, KEYS[0], &e, why, sizeof(why)));
	CHECK_MSG(strstr(warned, entry) && strstr(warned, "is writable by group or others (mode 0602)"), "%s", warned);
	CHECK(store_raw(&c, KEYS[0]));
	CHECK_EQ(mode_of(entry), 0600);
	CHECK(fw_cache_load(&c, KEYS[0], &e, why, sizeof(why)));
	fw_cache_entry_free(&e);
	/* a key others may read: the cache is not used at all */
	snprintf(p, sizeof(p), "%s/hmac.key", cdir);
	CHECK(chmod(p, 0640) == 0);
	CHECK(!fw_cache_trusted(&c));
	CHECK_MSG(strstr(warned, "hmac.key is readable or writable by group or others (mode 0640)"), "%s", warned);
	CHECK(!fw_cache_load(&c, KEYS[0], &e, why, sizeof(why)));
	CHECK(chmod(p, 0600) == 0);
	/* a key that is a link, or not 32 bytes: the cache is not used (nor a new key made over it) */
	char keep[400];
	snprintf(keep, sizeof(keep), "%s/key-kept", dir);
	CHECK(rename(p, keep) == 0 && symlink(keep, p) == 0);
	CHECK(!fw_cache_trusted(&c));
	CHECK_MSG(strstr(warned, "hmac.key is a symbolic link: not used"), "%s", warned);
	CHECK(!store_raw(&c, KEYS[1]));
	CHECK(unlink(p) == 0 && put_file(p, "short", 5));
	CHECK(!fw_cache_trusted(&c));
	CHECK_MSG(strstr(warned, "hmac.key has 5 bytes, not 32: not used (remove it for a new one)"), "%s", warned);
	CHECK(rename(keep, p) == 0);
	CHECK(fw_cache_trusted(&c));
	/* a planted link in place of an entry: not followed, and replaced (what it points to is kept) */
	char moved[400];
	snprintf(moved, sizeof(moved), "%s/elsewhere.bin", dir);
	CHECK(rename(entry, moved) == 0);
	CHECK(symlink(moved, entry) == 0);
	CHECK(!fw_cache_load(&c, KEYS[0], &e, why, sizeof(why)));
	CHECK_MSG(strstr(warned, entry) && strstr(warned, "is a symbolic link: not used"), "%s", warned);
	size_t n0 = 0;
	uint8_t *before = fw_test_read_file(moved, &n0);
	CHECK(store_raw(&c, KEYS[0]));
	struct stat st;
	CHECK(lstat(entry, &st) == 0 && S_ISREG(st.st_mode));
	size_t n1 = 0;
	uint8_t *after = fw_test_read_file(moved, &n1);
	CHECK(before && after && n0 == n1 && memcmp(before, after, n0) == 0);
	free(before);
	free(after);
	/* a folder that is a link: not used */
	char link[400];
	snprintf(link, sizeof(link), "%s/link", dir);
	CHECK(symlink(cdir, link) == 0);
	struct fw_cache cl = cache_at(link, 0, RULES_1);
	CHECK(!fw_cache_trusted(&cl));
	CHECK_MSG(strstr(warned, link) && strstr(warned, "is a symbolic link: not used"), "%s", warned);
	CHECK(!fw_cache_load(&cl, KEYS[0], &e, why, sizeof(why)));
	/* owned by another user (root can give it away) */
	if (geteuid() == 0) {
		CHECK(lchown(entry, 4242, 4242) == 0);
		CHECK(!fw_cache_load(&c, KEYS[0], &e, why, sizeof(why)));
		CHECK_MSG(strstr(warned, "is owned by uid 4242, not by uid 0 running fwlens"), "%s", warned);
		CHECK(lchown(cdir, 4242, 4242) == 0);
		CHECK(!fw_cache_trusted(&c));
		CHECK_MSG(strstr(warned, cdir) && strstr(warned, "is owned by uid 4242"), "%s", warned);
	} else {
		printf("  (not root: a folder and an entry owned by another user are not tried)\n");
	}
	fw_sysroot_remove(dir);
}

TEST(cache_index_bounded_verified_and_never_followed)
{
	char dir[] = "/tmp/fwlens-test-cache.XXXXXX";
	CHECK(fw_sysroot_new(dir));
	char cdir[300], img[400], idx[400];
	snprintf(cdir, sizeof(cdir), "%s/cache", dir);
	snprintf(img, sizeof(img), "%s/image", dir);
	snprintf(idx, sizeof(idx), "%s/images.idx", cdir);
	struct fw_cache c = cache_at(cdir, 0, RULES_1);
	const char *abc = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";
	const char *other = "dddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddd";
	CHECK(put_file(img, "abc", 3));
	char sha[FW_SHA256_HEX_LEN];
	struct fw_error err;
	fw_error_clear(&err);
	CHECK(fw_cache_file_sha256(&c, img, sha, &err));
	CHECK_STR(sha, abc);
	/* the line: SHA SIZE MTIME INODE HMAC PATH, the HMAC over the rest */
	size_t n = 0;
	char *text = (char *)fw_test_read_file(idx, &n);
	CHECK(text && n > 0 && text[n - 1] == '\n');
	char lsha[65], lmac[65], lpath[400];
	unsigned long long size, mtime, ino;
	text[n - 1] = 0;
	CHECK(sscanf(text, "%64s %llu %llu %llu %64s %399[^\n]", lsha, &size, &mtime, &ino, lmac, lpath) == 6);
	free(text);
	CHECK_STR(lsha, abc);
	CHECK_EQ(size, 3);
	CHECK_STR(lpath, img);
	uint8_t key[FW_CACHE_KEY_LEN], mac[FW_SHA256_LEN];
	CHECK(read_key(cdir, key));
	char *body = fw_xasprintf("%s %llu %llu %llu %s", other, size, mtime, ino, lpath);
	fw_cache_mac(key, (const uint8_t *)body, strlen(body), mac);
	char machex[65];
	fw_hex(mac, sizeof(mac), machex);
	/* a forged line (another hash, the old MAC) is skipped: the file is hashed again */
	char *line = fw_xasprintf("%s %llu %llu %llu %s %s\n", other, size, mtime, ino, lmac, lpath);
	CHECK(put_file(idx, line, strlen(line)));
	free(line);
	CHECK(fw_cache_file_sha256(&c, img, sha, &err));
	CHECK_STR(sha, abc);
	/* the same line with the MAC made with the key is taken: lines are bound to the key alone */
	line = fw_xasprintf("%s %llu %llu %llu %s %s\n", other, size, mtime, ino, machex, lpath);
	CHECK(put_file(idx, line, strlen(line)));
	CHECK(fw_cache_file_sha256(&c, img, sha, &err));
	CHECK_STR(sha, other);
	/* longer than its bound: not read, and rebuilt with the line remembered next */
	size_t big = FW_CACHE_MAX_INDEX + 1;
	char *fill = fw_xmalloc(big);
	for (size_t i = 0; i < big; i++)
		fill[i] = (i % 100 == 99) ? '\n' : 'x';
	memcpy(fill, line, strlen(line));
	CHECK(put_file(idx, fill, big));
	free(fill);
	free(line);
	CHECK(fw_cache_file_sha256(&c, img, sha, &err));
	CHECK_STR(sha, abc);
	struct stat st;
	CHECK(stat(idx, &st) == 0);
	CHECK_MSG(st.st_size > 0 && st.st_size < 400, "index of %lld bytes", (long long)st.st_size);
	/* a planted link in place of the index: neither read nor written through */
	char victim[400];
	snprintf(victim, sizeof(victim), "%s/victim", dir);
	CHECK(put_file(victim, "keep me\n", 8));
	CHECK(unlink(idx) == 0 && symlink(victim, idx) == 0);
	nwarned = 0;
	CHECK(fw_cache_file_sha256(&c, img, sha, &err));
	CHECK_STR(sha, abc);
	CHECK_MSG(nwarned > 0 && strstr(warned, "images.idx is a symbolic link: not used"), "%s", warned);
	n = 0;
	text = (char *)fw_test_read_file(victim, &n);
	CHECK(text && n == 8 && memcmp(text, "keep me\n", 8) == 0);
	free(text);
	CHECK(lstat(idx, &st) == 0 && S_ISREG(st.st_mode) && (st.st_mode & 0777) == 0600);
	/* a full index: rebuilt from its newest lines that verify, in half its bound, then the new one */
	free(body);
	char *path = fw_xmalloc(4001);
	memset(path, 'p', 4000);
	path[0] = '/';
	path[4000] = 0;
	struct buf_lines {
		char *p;
		size_t n;
	} full = {fw_xmalloc(FW_CACHE_MAX_INDEX), 0};
	unsigned nlines = 0;
	for (;; nlines++) {
		snprintf(path + 3990, 11, "-%09u", nlines);
		body = fw_xasprintf("%s 3 1 %u %s", other, nlines, path);
		fw_cache_mac(key, (const uint8_t *)body, strlen(body), mac);
		fw_hex(mac, sizeof(mac), machex);
		line = fw_xasprintf("%s 3 1 %u %s %s\n", other, nlines, machex, path);
		free(body);
		bool fits = full.n + strlen(line) <= FW_CACHE_MAX_INDEX;
		if (fits) {
			memcpy(full.p + full.n, line, strlen(line));
			full.n += strlen(line);
		}
		free(line);
		if (!fits)
			break;
	}
	/* a line that does not verify fills it to 50 bytes short of the bound: dropped when rebuilt */
	memset(full.p + full.n, 'j', FW_CACHE_MAX_INDEX - 50 - full.n);
	full.p[FW_CACHE_MAX_INDEX - 51] = '\n';
	full.n = FW_CACHE_MAX_INDEX - 50;
	CHECK(put_file(idx, full.p, full.n));
	free(full.p);
	free(path);
	CHECK(utimensat(AT_FDCWD, img, NULL, 0) == 0); /* a new mtime: remembered again */
	CHECK(fw_cache_file_sha256(&c, img, sha, &err));
	CHECK_STR(sha, abc);
	n = 0;
	text = (char *)fw_test_read_file(idx, &n);
	CHECK_MSG(text && n <= FW_CACHE_MAX_INDEX / 2 && n > FW_CACHE_MAX_INDEX / 2 - 8200, "index of %zu bytes", n);
	/* the oldest lines went, the newest old line stays whole, the new line is last */
	char last_old[16];
	snprintf(last_old, sizeof(last_old), "-%09u\n", nlines - 1);
	char *new_line = text ? memmem(text, n, lpath, strlen(lpath)) : NULL;
	CHECK(text && memmem(text, n, last_old, strlen(last_old)) && !memmem(text, n, "-000000000\n", 11) &&
	      !memmem(text, n, "jjj", 3));
	CHECK(new_line && new_line + strlen(lpath) == text + n - 1 && text[n - 1] == '\n');
	free(text);
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

/* The lines of a file, counted. */
static unsigned count_lines(const char *path)
{
	size_t n = 0;
	char *p = (char *)fw_test_read_file(path, &n);
	unsigned lines = 0;
	for (size_t i = 0; p && i < n; i++)
		lines += p[i] == '\n';
	free(p);
	return lines;
}

/* PCI names libpci found (the tests' list) are remembered in the cache, found and not found, once
 * each; a later run recalls them (a line made with the key is believed, whatever libpci would say);
 * a line changed without the key is not, and libpci answers again. */
TEST(cache_remembers_pci_names_of_the_database)
{
	char dir[] = "/tmp/fwlens-test-cache.XXXXXX";
	CHECK(fw_sysroot_new(dir));
	struct fw_cache c = cache_at(dir, 0, RULES_1);
	char path[400], buf[160];
	snprintf(path, sizeof(path), "%s/pci-names.idx", dir);
	struct fw_cache_names run1, run2, run3; /* one per run */
	/* no key yet (no entry stored): names are looked up, nothing is written */
	fw_cache_names_use(&run1, &c);
	CHECK_STR(fw_pci_device_name(0x10DE, 0x2BB5, buf, sizeof(buf)),
		  "NVIDIA Corporation GB202GL [RTX PRO 6000 Blackwell Server Edition] (10de:2bb5)");
	CHECK(access(path, F_OK) != 0);
	CHECK(store_raw(&c, SHA_A)); /* makes the key */
	fw_cache_names_use(&run2, &c);
	CHECK_STR(fw_pci_device_name(0x10DE, 0x2BB5, buf, sizeof(buf)),
		  "NVIDIA Corporation GB202GL [RTX PRO 6000 Blackwell Server Edition] (10de:2bb5)");
	CHECK_STR(fw_pci_device_name(0x10DE, 0xFFF0, buf, sizeof(buf)), "10de:fff0");
	CHECK_STR(fw_pci_device_name(0x10DE, 0x2BB5, buf, sizeof(buf)),
		  "NVIDIA Corporation GB202GL [RTX PRO 6000 Blackwell Server Edition] (10de:2bb5)");
	CHECK_STR(fw_pci_device_name(0x10DE, 0xFFF0, buf, sizeof(buf)), "10de:fff0");
	CHECK_EQ(count_lines(path), 2); /* asked twice, remembered once */
	size_t n = 0;
	char *text = (char *)fw_test_read_file(path, &n);
	CHECK(text && n > 80);
	if (!text || n <= 80) {
		fw_pci_names_memo(NULL);
		free(text);
		fw_sysroot_remove(dir);
		return;
	}
	CHECK(strncmp(text, "10de 2bb5 ", 10) == 0);
	CHECK(strstr(text, "tests/data/pci/pci.ids\tNVIDIA Corporation GB202GL [RTX PRO 6000 Blackwell Server Edition]\n"));
	CHECK(strstr(text, "tests/data/pci/pci.ids\t\n")); /* 10de:fff0: not in the database */
	CHECK(strstr(text, "libpci 0x"));
	/* a line made with the folder's key for the same database is recalled, not looked up */
	const char *db = text + 75, *tab = strchr(db, '\t');
	CHECK(tab != NULL);
	uint8_t key[FW_CACHE_KEY_LEN], mac[FW_SHA256_LEN];
	CHECK(read_key(dir, key));
	char *body = fw_xasprintf("10de 2bb1 %.*s\tRecalled name", (int)(tab - db), db);
	CHECK(fw_cache_mac(key, (const uint8_t *)body, strlen(body), mac));
	char hex[FW_SHA256_HEX_LEN];
	char *line = fw_xasprintf("10de 2bb1 %s %.*s\tRecalled name\n", fw_hex(mac, sizeof(mac), hex), (int)(tab - db), db);
	/* and the same line with another name but the MAC unchanged is not */
	char *forged = fw_xasprintf("10de 2bb5 %.64s %.*s\tForged name\n", text + 10, (int)(tab - db), db);
	char *all = fw_xasprintf("%s%s", forged, line);
	CHECK(put_file(path, all, strlen(all)));
	fw_cache_names_use(&run3, &c);
	CHECK_STR(fw_pci_device_name(0x10DE, 0x2BB1, buf, sizeof(buf)), "Recalled name (10de:2bb1)");
	CHECK_STR(fw_pci_device_name(0x10DE, 0x2BB5, buf, sizeof(buf)),
		  "NVIDIA Corporation GB202GL [RTX PRO 6000 Blackwell Server Edition] (10de:2bb5)");
	CHECK_EQ(count_lines(path), 3); /* libpci's answer for 2bb5 appended */
	fw_pci_names_memo(NULL);
	free(run1.text);
	free(run2.text);
	free(run3.text);
	free(all);
	free(forged);
	free(line);
	free(body);
	free(text);
	fw_sysroot_remove(dir);
}
