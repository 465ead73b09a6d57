/* tar through libarchive (names of any length, refused names, limits) and firmware images inside
 * vendor archives (7z, zip; one image, several, none, a bomb). Archives are written here with
 * libarchive's own writers. */
#include <archive.h>
#include <archive_entry.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "capsule/detect.h"
#include "capsule/recognise.h"
#include "harness.h"
#include "parsers/archive.h"
#include "parsers/tar.h"
#include "tools/query/source.h"

struct file {
	const char *name;
	const uint8_t *data;
	size_t len;
};

/* An archive of the given format (and compression filter) in memory; malloc'd. */
static uint8_t *write_archive(int format, int filter, const struct file *files, size_t n, size_t *len)
{
	size_t cap = 64 << 20, used = 0;
	uint8_t *buf = malloc(cap);
	struct archive *a = archive_write_new();
	archive_write_set_format(a, format);
	if (format == ARCHIVE_FORMAT_7ZIP) /* deflate: LZMA over tens of MiB would take seconds */
		archive_write_set_format_option(a, "7zip", "compression", "deflate");
	if (filter != ARCHIVE_FILTER_NONE)
		archive_write_add_filter(a, filter);
	archive_write_set_bytes_in_last_block(a, 1);
	archive_write_open_memory(a, buf, cap, &used);
	for (size_t i = 0; i < n; i++) {
		struct archive_entry *e = archive_entry_new();
		archive_entry_copy_pathname(e, files[i].name);
		archive_entry_set_filetype(e, AE_IFREG);
		archive_entry_set_perm(e, 0644);
		archive_entry_set_size(e, (la_int64_t)files[i].len);
		archive_write_header(a, e);
		archive_write_data(a, files[i].data, files[i].len);
		archive_entry_free(e);
	}
	archive_write_close(a);
	archive_write_free(a);
	*len = used;
	return buf;
}

static bool starts_fw(const uint8_t *p, size_t n)
{
	return n >= 4 && memcmp(p, "FWIM", 4) == 0;
}

TEST(tar_names_of_any_length_round_trip)
{
	char *name = malloc(5001);
	for (int i = 0; i < 5000; i++)
		name[i] = i % 100 == 99 && i < 4999 ? '/' : (char)('a' + i % 26);
	name[5000] = '\0';
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct fw_tar_writer w;
	fw_tar_writer_init(&w, f, 1700000000);
	CHECK(fw_tar_write_file(&w, "short", (const uint8_t *)"abc", 3));
	CHECK(fw_tar_write_file(&w, name, (const uint8_t *)"long", 4));
	CHECK(fw_tar_write_file(&w, "bytes/\xff\xfe", (const uint8_t *)"raw", 3));
	CHECK(fw_tar_finish(&w));
	fclose(f);
	/* the first header is a plain ustar one: snapshot probes look for the manifest at 0 */
	struct fw_view v = fw_view_make((const uint8_t *)buf, len, 0);
	CHECK(fw_tar_probe(&v) && strcmp(buf, "short") == 0);
	struct fw_tar_reader r;
	struct fw_tar_entry e;
	struct fw_error err;
	fw_error_clear(&err);
	fw_tar_reader_init(&r, &v, NULL);
	CHECK(fw_tar_next(&r, &e, &err) && strcmp(e.name, "short") == 0 && e.size == 3 && e.data.base == 512);
	CHECK(memcmp(buf + e.data.base, "abc", 3) == 0);
	CHECK_MSG(fw_tar_next(&r, &e, &err), "%s", err.msg);
	CHECK_MSG(strlen(e.name) == 5000 && strcmp(e.name, name) == 0, "%zu bytes", strlen(e.name));
	CHECK(e.data.len == 4 && memcmp(e.data.p, "long", 4) == 0);
	CHECK_MSG(fw_tar_next(&r, &e, &err) && strcmp(e.name, "bytes/\xff\xfe") == 0, "%s", err.msg);
	CHECK(!fw_tar_next(&r, &e, &err) && err.code == FW_OK);
	fw_tar_reader_free(&r);
	free(buf);
	free(name);
}

TEST(tar_reader_refuses_escaping_names_and_keeps_limits)
{
	static const char *const bad[] = {"../etc/passwd", "/etc/passwd", "files/../../x", "a/.."};
	for (size_t i = 0; i < 4; i++) {
		struct file fl[] = {{"ok", (const uint8_t *)"1", 1}, {bad[i], (const uint8_t *)"2", 1}};
		size_t len;
		uint8_t *p = write_archive(ARCHIVE_FORMAT_TAR_PAX_RESTRICTED, ARCHIVE_FILTER_NONE, fl, 2, &len);
		struct fw_view v = fw_view_make(p, len, 0);
		struct fw_tar_reader r;
		struct fw_tar_entry e;
		struct fw_error err;
		fw_error_clear(&err);
		fw_tar_reader_init(&r, &v, NULL);
		CHECK(fw_tar_next(&r, &e, &err));
		CHECK(!fw_tar_next(&r, &e, &err));
		CHECK_MSG(err.code == FW_E_INVALID && strstr(err.msg, "tar member at 0x400: name '") &&
				  strstr(err.msg, "is absolute or climbs out with '..'"),
			  "%s: %s", bad[i], err.msg);
		fw_tar_reader_free(&r);
		free(p);
	}
	/* members, one member, all of them: at the limit and past it */
	uint8_t big[1000];
	memset(big, 7, sizeof(big));
	struct file fl[] = {{"a", big, 1000}, {"b", big, 1000}, {"c", big, 1000}};
	size_t len;
	uint8_t *p = write_archive(ARCHIVE_FORMAT_TAR_PAX_RESTRICTED, ARCHIVE_FILTER_NONE, fl, 3, &len);
	struct fw_view v = fw_view_make(p, len, 0);
	static const struct {
		struct fw_tar_limits lim;
		int read;
		const char *msg;
	} cases[] = {
		{{3, 1000, 3000}, 3, NULL},
		{{2, 1000, 3000}, 2, "more than 2 members"},
		{{3, 999, 3000}, 0, "a is larger than the limit for one member"},
		{{3, 1000, 2999}, 2, "c takes the members past their total limit"},
	};
	for (size_t k = 0; k < 4; k++) {
		struct fw_tar_reader r;
		struct fw_tar_entry e;
		struct fw_error err;
		fw_error_clear(&err);
		fw_tar_reader_init(&r, &v, &cases[k].lim);
		int n = 0;
		while (fw_tar_next(&r, &e, &err))
			n++;
		CHECK_EQ(n, cases[k].read);
		CHECK_MSG(cases[k].msg ? err.code == FW_E_LIMIT && strstr(err.msg, cases[k].msg) : err.code == FW_OK, "%s",
			  err.msg);
		fw_tar_reader_free(&r);
	}
	free(p);
}

TEST(archive_7z_and_zip_give_the_one_image)
{
	uint8_t image[4096];
	memset(image, 0xFF, sizeof(image));
	memcpy(image, "FWIM", 4);
	struct file fl[] = {{"Readme.txt", (const uint8_t *)"flash it\n", 9},
			    {"tools/AFUEFI64.EFI", (const uint8_t *)"MZ tool", 7},
			    {"BIOS/X13.CAP", image, sizeof(image)}};
	static const int formats[] = {ARCHIVE_FORMAT_7ZIP, ARCHIVE_FORMAT_ZIP, ARCHIVE_FORMAT_TAR_USTAR};
	static const int filters[] = {ARCHIVE_FILTER_NONE, ARCHIVE_FILTER_NONE, ARCHIVE_FILTER_XZ};
	for (size_t k = 0; k < 3; k++) {
		size_t len;
		uint8_t *p = write_archive(formats[k], filters[k], fl, 3, &len);
		CHECK(fw_input_archive_probe(p, len));
		uint8_t *out;
		size_t outlen;
		char *member;
		struct fw_error err;
		fw_archive_choose_member(NULL);
		CHECK_MSG(fw_archive_extract(p, len, "x", starts_fw, &out, &outlen, &member, &err), "%zu: %s", k, err.msg);
		CHECK(outlen == sizeof(image) && memcmp(out, image, outlen) == 0);
		CHECK_STR(member, "BIOS/X13.CAP");
		free(out);
		free(member);
		/* --member takes any member by path or base name */
		fw_archive_choose_member("AFUEFI64.EFI");
		CHECK(fw_archive_extract(p, len, "x", starts_fw, &out, &outlen, &member, &err));
		CHECK(outlen == 7 && strcmp(member, "tools/AFUEFI64.EFI") == 0);
		free(out);
		free(member);
		fw_archive_choose_member(NULL);
		free(p);
	}
	/* two images: the choice is the user's, and the error lists both */
	struct file two[] = {{"A.CAP", image, sizeof(image)}, {"B.CAP", image, sizeof(image)}};
	size_t len;
	uint8_t *p = write_archive(ARCHIVE_FORMAT_7ZIP, ARCHIVE_FILTER_NONE, two, 2, &len);
	uint8_t *out;
	size_t outlen;
	char *member;
	struct fw_error err;
	CHECK(!fw_archive_extract(p, len, "two.7z", starts_fw, &out, &outlen, &member, &err));
	CHECK_EQ(err.code, FW_E_USAGE);
	CHECK_STR(err.msg, "two.7z holds 2 firmware images: A.CAP, B.CAP; pick one with --member NAME");
	free(p);
	/* none */
	p = write_archive(ARCHIVE_FORMAT_ZIP, ARCHIVE_FILTER_NONE, fl, 2, &len);
	CHECK(!fw_archive_extract(p, len, "tools.zip", starts_fw, &out, &outlen, &member, &err));
	CHECK_STR(err.msg, "tools.zip: no firmware image fwlens recognises among its 2 files: Readme.txt, tools/AFUEFI64.EFI");
	free(p);
}

/* A bomb: 100 MiB of erased flash in 100 KiB is stopped at the archive's ratio budget (64 MiB +
 * 100 times its size): from the stated size in a zip, while inflating in a 7z (no stated size
 * for a member written after its data). */
TEST(archive_bomb_stops_at_the_budget)
{
	size_t n = (size_t)100 << 20;
	uint8_t *ff = malloc(n);
	memset(ff, 0xFF, n);
	memcpy(ff, "FWIM", 4);
	struct file fl[] = {{"BIOS.CAP", ff, n}};
	size_t len;
	/* a zip states the size: refused before inflating; a gzip file does not: stopped inflating */
	static const int formats[] = {ARCHIVE_FORMAT_ZIP, ARCHIVE_FORMAT_RAW};
	static const int filters[] = {ARCHIVE_FILTER_NONE, ARCHIVE_FILTER_GZIP};
	for (size_t k = 0; k < 2; k++) {
		uint8_t *p = write_archive(formats[k], filters[k], fl, 1, &len);
		CHECK(len < (1 << 20));
		uint8_t *out;
		size_t outlen;
		char *member;
		struct fw_error err;
		CHECK(!fw_archive_extract(p, len, "bomb.gz", starts_fw, &out, &outlen, &member, &err));
		CHECK_EQ(err.code, FW_E_LIMIT);
		uint64_t budget = (uint64_t)len * FW_ARCHIVE_MAX_RATIO + FW_ARCHIVE_RATIO_FLOOR;
		char want[160];
		if (k)
			snprintf(want, sizeof(want), "bomb.gz: member bomb inflates past %llu bytes", (unsigned long long)budget);
		else
			snprintf(want, sizeof(want), "bomb.gz: member BIOS.CAP states 104857600 bytes, more than the archive's limits allow (%llu)",
				 (unsigned long long)budget);
		CHECK_MSG(strstr(err.msg, want), "%s", err.msg);
		free(p);
	}
	free(ff);
}

/* End to end: a command's input is the capsule inside a 7z. */
TEST(archive_firmware_open_takes_the_capsule)
{
	const char *cap = fw_test_build("samples/ESC8000A-E13-ASUS-1104.CAP");
	if (!cap)
		SKIP("samples/ESC8000A-E13-ASUS-1104.CAP not built (make samples)");
	size_t n;
	uint8_t *bytes = fw_test_read_file(cap, &n);
	struct file fl[] = {{"Readme.txt", (const uint8_t *)"x", 1}, {"ESC8000A.CAP", bytes, n}};
	size_t len;
	uint8_t *p = write_archive(ARCHIVE_FORMAT_7ZIP, ARCHIVE_FILTER_NONE, fl, 2, &len);
	char path[] = "/tmp/fwlens-test-7z-XXXXXX";
	int fd = mkstemp(path);
	CHECK(fd >= 0);
	FILE *f = fdopen(fd, "wb");
	CHECK(fwrite(p, 1, len, f) == len);
	fclose(f);
	struct fw_firmware fw;
	struct fw_error err;
	bool ok = fw_source_open_firmware(path, NULL, &fw, &err);
	unlink(path);
	CHECK_MSG(ok, "%s", err.msg);
	CHECK_EQ(fw.kind, FW_INPUT_CAPSULE);
	CHECK(fw.file.len == n && memcmp(fw.file.data, bytes, n) == 0);
	CHECK(strstr(fw.file.path, ":ESC8000A.CAP"));
	fw_firmware_close(&fw);
	free(p);
	free(bytes);
}

static bool named_b(const char *name)
{
	return strcmp(name, "b") == 0;
}

TEST(tar_compressed_is_read_as_the_plain_tar)
{
	uint8_t big[1000];
	memset(big, 7, sizeof(big));
	struct file fl[] = {{"a", big, 1000}, {"b", (const uint8_t *)"bee", 3}};
	static const struct {
		int filter;
		const char *name;
	} forms[] = {{ARCHIVE_FILTER_GZIP, "gzip"}, {ARCHIVE_FILTER_XZ, "xz"}, {ARCHIVE_FILTER_ZSTD, "zstd"},
		     {ARCHIVE_FILTER_BZIP2, "bzip2"}};
	size_t plain_len;
	uint8_t *plain = write_archive(ARCHIVE_FORMAT_TAR_PAX_RESTRICTED, ARCHIVE_FILTER_NONE, fl, 2, &plain_len);
	struct fw_view pv = fw_view_make(plain, plain_len, 0);
	CHECK(fw_tar_probe_compressed(&pv) == NULL);
	uint64_t at[2]; /* where the plain tar's headers are */
	struct fw_tar_reader pr;
	struct fw_tar_entry pe;
	fw_tar_reader_init(&pr, &pv, NULL);
	for (int k = 0; k < 2; k++) {
		CHECK(fw_tar_next(&pr, &pe, NULL));
		at[k] = pe.header_offset;
	}
	fw_tar_reader_free(&pr);
	CHECK(at[1] > at[0]);
	for (size_t i = 0; i < sizeof(forms) / sizeof(forms[0]); i++) {
		size_t len;
		uint8_t *p = write_archive(ARCHIVE_FORMAT_TAR_PAX_RESTRICTED, forms[i].filter, fl, 2, &len);
		struct fw_view v = fw_view_make(p, len, 0);
		CHECK(!fw_tar_probe(&v));
		const char *name = fw_tar_probe_compressed(&v);
		CHECK_MSG(name && strcmp(name, forms[i].name) == 0, "%s: %s", forms[i].name, name ? name : "not a tar");
		/* the same members, offsets in the inflated tar */
		struct fw_tar_reader r;
		struct fw_tar_entry e;
		struct fw_error err;
		fw_error_clear(&err);
		fw_tar_reader_init(&r, &v, NULL);
		r.lim = (struct fw_tar_limits){2, 1000, 1003};
		CHECK(fw_tar_next(&r, &e, &err));
		CHECK_STR(e.name, "a");
		CHECK_EQ(e.data.len, 1000);
		CHECK_EQ(e.header_offset, at[0]);
		CHECK(memcmp(e.data.p, big, 1000) == 0);
		CHECK(fw_tar_next(&r, &e, &err));
		CHECK_STR(e.name, "b");
		CHECK_EQ(e.header_offset, at[1]);
		CHECK(memcmp(e.data.p, "bee", 3) == 0);
		CHECK(!fw_tar_next(&r, &e, &err));
		CHECK_EQ(err.code, FW_OK);
		fw_tar_reader_free(&r);
		/* a member not wanted is not read, but its size still counts against the total */
		static const struct fw_tar_limits lims[] = {{2, 3, 1003}, {2, 3, 1002}};
		for (size_t k = 0; k < 2; k++) {
			fw_error_clear(&err);
			fw_tar_reader_init(&r, &v, &lims[k]);
			r.want = named_b;
			bool got = fw_tar_next(&r, &e, &err);
			CHECK_MSG(k == 0 ? got && strcmp(e.name, "b") == 0
					 : !got && err.code == FW_E_LIMIT && strstr(err.msg, "b takes the members past their total limit"),
				  "%s", err.msg);
			fw_tar_reader_free(&r);
		}
		free(p);
	}
	/* a gzip file that holds no tar is none */
	size_t len;
	uint8_t *raw = write_archive(ARCHIVE_FORMAT_RAW, ARCHIVE_FILTER_GZIP, fl, 1, &len);
	struct fw_view rv = fw_view_make(raw, len, 0);
	CHECK(fw_tar_probe_compressed(&rv) == NULL);
	free(raw);
	free(plain);
}

/* A reader's members, copied or in place: names, offsets and bytes; "ERR code: message" at the end
 * when the walk stopped on an error. */
static char *walk_tar(const uint8_t *p, size_t len, bool in_place, bool *all_in_place)
{
	struct fw_view v = fw_view_make(p, len, 0);
	struct fw_tar_reader r;
	struct fw_tar_entry e;
	struct fw_error err;
	fw_error_clear(&err);
	const struct fw_tar_limits lim = {100, 1 << 20, 1 << 20}; /* a gzip'd tar inflates past its own length */
	fw_tar_reader_init(&r, &v, &lim);
	r.in_place = in_place;
	char *out = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&out, &n);
	*all_in_place = true;
	while (fw_tar_next(&r, &e, &err)) {
		uint32_t sum = 0;
		for (size_t i = 0; i < e.data.len; i++)
			sum = sum * 31 + e.data.p[i];
		fprintf(f, "%s %llu %llu %zu %08x\n", e.name, (unsigned long long)e.header_offset,
			(unsigned long long)e.data.base, e.data.len, sum);
		bool inside = e.data.len && e.data.p >= p && e.data.p + e.data.len <= p + len;
		uint8_t *taken = fw_tar_take_data(&r);
		if (e.data.len && (!inside || taken))
			*all_in_place = false;
		if (inside && taken)
			fprintf(f, "taken although in place\n");
		free(taken);
	}
	if (err.code != FW_OK)
		fprintf(f, "ERR %d: %s\n", err.code, err.msg);
	fw_tar_reader_free(&r);
	fclose(f);
	return out;
}

TEST(tar_members_in_place_are_the_members_copied)
{
	char *longname = malloc(3001);
	for (int i = 0; i < 3000; i++)
		longname[i] = i % 50 == 49 && i < 2999 ? '/' : (char)('a' + i % 26);
	longname[3000] = '\0';
	uint8_t *big = malloc(70000);
	for (size_t i = 0; i < 70000; i++)
		big[i] = (uint8_t)(i * 7 + i / 251);
	const struct file fl[] = {{"manifest.json", (const uint8_t *)"{}", 2}, {"files/empty", (const uint8_t *)"", 0},
				  {"files/one", (const uint8_t *)"1", 1},	  {longname, big, 70000},
				  {"files/last", big + 5, 511}};
	static const struct {
		int format, filter;
		bool in_place; /* every member is given in place */
	} forms[] = {
		{ARCHIVE_FORMAT_TAR_USTAR, ARCHIVE_FILTER_NONE, true},	   {ARCHIVE_FORMAT_TAR_PAX_RESTRICTED, ARCHIVE_FILTER_NONE, true},
		{ARCHIVE_FORMAT_TAR_PAX_INTERCHANGE, ARCHIVE_FILTER_NONE, true}, {ARCHIVE_FORMAT_TAR_GNUTAR, ARCHIVE_FILTER_NONE, true},
		{ARCHIVE_FORMAT_TAR_PAX_RESTRICTED, ARCHIVE_FILTER_GZIP, false},
	};
	for (size_t i = 0; i < sizeof(forms) / sizeof(forms[0]); i++) {
		/* ustar cannot hold the long name: the others without it */
		const struct file short_names[] = {fl[0], fl[1], fl[2], fl[4]};
		bool ustar = forms[i].format == ARCHIVE_FORMAT_TAR_USTAR;
		size_t len;
		uint8_t *p = write_archive(forms[i].format, forms[i].filter, ustar ? short_names : fl, ustar ? 4 : 5, &len);
		bool all;
		char *copied = walk_tar(p, len, false, &all);
		CHECK_MSG(!all && !strstr(copied, "ERR"), "form %zu: %s", i, copied);
		char *in_place = walk_tar(p, len, true, &all);
		CHECK_MSG(strcmp(copied, in_place) == 0, "form %zu:\n%s---\n%s", i, copied, in_place);
		CHECK_MSG(all == forms[i].in_place, "form %zu", i);
		CHECK_MSG(strstr(copied, "files/last ") && strstr(copied, "files/empty "), "form %zu: %s", i, copied);
		free(copied);
		free(in_place);
		/* cut inside the last member's bytes and inside its header: the same members and error */
		if (forms[i].filter == ARCHIVE_FILTER_NONE) {
			for (size_t cut = 1024 + 300; cut <= 1024 + 900; cut += 600) {
				copied = walk_tar(p, len - cut, false, &all);
				in_place = walk_tar(p, len - cut, true, &all);
				CHECK_MSG(strcmp(copied, in_place) == 0 && strstr(copied, "ERR"), "form %zu cut %zu:\n%s---\n%s", i,
					  cut, copied, in_place);
				free(copied);
				free(in_place);
			}
		}
		free(p);
	}
	free(big);
	free(longname);
}
