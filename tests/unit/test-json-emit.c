/* The emitter (parsers/json-text.h, struct fw_json_emit): the bytes the writer gives for the
 * document the same calls build (generated documents with hostile strings, every dump flag it
 * takes), the tree it builds equal to that document, exact bytes for a small one, calls out of
 * place refused; and `acpi --format json`'s walk (tools/cli/acpi-json.c) giving the same bytes
 * written as walked and built as a tree, over every sample and corpus table. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "acpi/set.h"
#include "parsers/json-text.h"
#include "parsers/utf8.h"
#include "tools/cli/acpi-write.h"

static uint64_t rng_state;

static uint32_t rnd(uint32_t n)
{
	rng_state = rng_state * 6364136223846793005ULL + 1442695040888963407ULL;
	return (uint32_t)(rng_state >> 33) % n;
}

/* pieces of strings; from index 10 on not UTF-8 */
static const struct {
	const char *s;
	size_t n;
} pieces[] = {
	{"plain", 5}, {"\"", 1}, {"\\", 1}, {"/", 1}, {"\b\f\n\r\t", 5}, {"\x01\x1f\x7f", 3},
	{"\xC3\xA9", 2}, {"\xF0\x9F\x98\x80", 4}, {"_hex", 4}, {"0x1f", 4},
	{"\xFF", 1}, {"\xC3", 1}, {"\xC0\xAF", 2}, {"\xED\xA0\x80", 3},
};

/* a string with no NUL (the emitter takes C strings) */
static json_t *gen_string(bool valid_only)
{
	char buf[256];
	size_t n = 0, parts = rnd(5);
	for (size_t i = 0; i < parts; i++) {
		size_t k = rnd(valid_only ? 10 : sizeof(pieces) / sizeof(pieces[0]));
		memcpy(buf + n, pieces[k].s, pieces[k].n);
		n += pieces[k].n;
	}
	return json_stringn_nocheck(buf, n);
}

static json_t *gen_scalar(bool valid_only)
{
	static const json_int_t ints[] = {0, 1, -1, 10, INT64_MAX, INT64_MIN, 4294967296LL};
	switch (rnd(6)) {
	case 0: return json_null();
	case 1: return json_boolean(rnd(2));
	case 2: return json_integer(ints[rnd(sizeof(ints) / sizeof(ints[0]))]);
	case 3: return json_integer((json_int_t)rnd(1u << 31) - (1 << 30));
	default: return gen_string(valid_only);
	}
}

/* Documents whose keys are unique and never NAME_hex of another (the emitter writes members in
 * order and cannot look ahead); arrays are all strings, or hold none that is not UTF-8. */
static json_t *gen(unsigned depth, bool item)
{
	uint32_t kind = depth > 5 ? 9 : rnd(10);
	if (kind < 2) {
		json_t *a = json_array();
		for (uint32_t i = 0, n = rnd(5); i < n; i++)
			json_array_append_new(a, gen_string(false));
		return a;
	}
	if (kind < 4) {
		json_t *a = json_array();
		for (uint32_t i = 0, n = rnd(5); i < n; i++)
			json_array_append_new(a, rnd(3) ? gen_scalar(true) : gen(depth + 1, true));
		return a;
	}
	if (kind < 8) {
		json_t *o = json_object();
		for (uint32_t i = 0, n = rnd(6); i < n; i++) {
			char key[32];
			snprintf(key, sizeof(key), "%s%u", rnd(3) ? "k" : "\xC3\xA9/\"", i);
			json_object_set_new(o, key, rnd(2) ? gen_scalar(false) : gen(depth + 1, false));
		}
		return o;
	}
	return gen_scalar(item);
}

static bool all_strings(json_t *a)
{
	size_t i;
	json_t *v;
	json_array_foreach(a, i, v) if (!json_is_string(v)) return false;
	return json_array_size(a) > 0;
}

/* the calls that write v */
static void replay(struct fw_json_emit *e, json_t *v)
{
	size_t i;
	const char *k;
	json_t *x;
	switch (json_typeof(v)) {
	case JSON_OBJECT:
		fw_json_emit_object(e);
		json_object_foreach(v, k, x) {
			fw_json_emit_key(e, k);
			replay(e, x);
		}
		fw_json_emit_end(e);
		break;
	case JSON_ARRAY:
		if (all_strings(v)) {
			const char *s[8];
			json_array_foreach(v, i, x) s[i] = json_string_value(x);
			fw_json_emit_strings(e, s, json_array_size(v));
			break;
		}
		fw_json_emit_array(e);
		json_array_foreach(v, i, x) replay(e, x);
		fw_json_emit_end(e);
		break;
	case JSON_STRING: fw_json_emit_stringn(e, json_string_value(v), json_string_length(v)); break;
	case JSON_INTEGER: fw_json_emit_int(e, json_integer_value(v)); break;
	case JSON_TRUE:
	case JSON_FALSE: fw_json_emit_bool(e, json_is_true(v)); break;
	default: fw_json_emit_null(e); break;
	}
}

/* v's calls through a writer into memory, at depth 0 */
static char *emitted(json_t *v, size_t flags, bool *failed)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct fw_json_writer w;
	fw_json_writer_init(&w, f, flags);
	struct fw_json_emit e;
	fw_json_emit_init(&e, &w, 0);
	replay(&e, v);
	*failed = e.failed || e.depth;
	fw_json_writer_end(&w);
	fclose(f);
	return buf;
}

TEST(json_emit_writes_the_writers_bytes_for_generated_documents)
{
	static const size_t flag_sets[] = {
		JSON_INDENT(2) | JSON_PRESERVE_ORDER,
		JSON_COMPACT | JSON_PRESERVE_ORDER,
		0,
		JSON_INDENT(4),
		JSON_INDENT(31) | JSON_COMPACT,
		JSON_INDENT(1) | JSON_ENSURE_ASCII,
		JSON_COMPACT | JSON_ENSURE_ASCII | JSON_ESCAPE_SLASH,
		JSON_INDENT(2) | JSON_ESCAPE_SLASH,
	};
	unsigned compared = 0;
	for (unsigned seed = 1; seed <= 2000; seed++) {
		rng_state = seed;
		json_t *doc = seed % 3 ? gen(0, false) : json_pack("{s:o}", "top", gen(1, false));
		if (!json_is_object(doc) && !json_is_array(doc)) {
			json_t *o = json_object();
			json_object_set_new(o, "v", doc);
			doc = o;
		}
		for (size_t f = 0; f < sizeof(flag_sets) / sizeof(flag_sets[0]); f++) {
			bool failed;
			char *want = fw_json_dumps(doc, flag_sets[f]), *got = emitted(doc, flag_sets[f], &failed);
			bool same = want && got && !failed && strcmp(want, got) == 0;
			if (!same)
				fw_test_fail(__FILE__, __LINE__, "document %u, flags 0x%zx:\nwriter:  %s\nemitter: %s%s", seed, flag_sets[f],
					     want ? want : "(failed)", got ? got : "(none)", failed ? " (failed)" : "");
			free(want);
			free(got);
			if (!same) {
				json_decref(doc);
				return;
			}
			compared++;
		}
		/* the same calls build the document itself (its raw bytes: made UTF-8 on the way out) */
		struct fw_json_emit e;
		fw_json_emit_init(&e, NULL, 0);
		replay(&e, doc);
		json_t *tree = fw_json_emit_done(&e);
		bool equal = tree && json_equal(tree, doc);
		json_decref(tree);
		json_decref(doc);
		CHECK_MSG(equal, "document %u: the tree differs", seed);
	}
	CHECK_EQ(compared, 2000 * 8);
}

TEST(json_emit_exact_bytes)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct fw_json_writer w;
	fw_json_writer_init(&w, f, JSON_INDENT(2));
	struct fw_json_emit e;
	fw_json_emit_init(&e, &w, 1); /* as a member's value one level in */
	fw_json_emit_object(&e);
	fw_json_emit_key(&e, "oem_id");
	fw_json_emit_string(&e, "A\xFF\"\n");
	fw_json_emit_key(&e, "n");
	fw_json_emit_int(&e, INT64_MIN);
	fw_json_emit_key(&e, "address");
	fw_json_emit_hex(&e, 0xFEDC0000u);
	fw_json_emit_key(&e, "zero");
	fw_json_emit_hex(&e, 0);
	fw_json_emit_key(&e, "lines");
	const char *lines[] = {"ok", "\xC3", NULL};
	fw_json_emit_strings(&e, lines, 3);
	fw_json_emit_key(&e, "empty");
	fw_json_emit_array(&e);
	fw_json_emit_end(&e);
	fw_json_emit_key(&e, "nested");
	fw_json_emit_object(&e);
	fw_json_emit_key(&e, "t");
	fw_json_emit_bool(&e, true);
	fw_json_emit_key(&e, "none");
	fw_json_emit_string(&e, NULL);
	fw_json_emit_end(&e);
	fw_json_emit_key(&e, "k\xC3\xA9y/");
	fw_json_emit_object(&e);
	fw_json_emit_end(&e);
	fw_json_emit_end(&e);
	CHECK(!e.failed && e.depth == 0);
	CHECK_EQ(fw_json_writer_end(&w), 0);
	fclose(f);
	CHECK_STR(buf, "{\n"
		       "    \"oem_id\": \"A\xEF\xBF\xBD\\\"\\n\",\n"
		       "    \"oem_id_hex\": \"41ff220a\",\n"
		       "    \"n\": -9223372036854775808,\n"
		       "    \"address\": \"0xfedc0000\",\n"
		       "    \"zero\": \"0x0\",\n"
		       "    \"lines\": [\n"
		       "      \"ok\",\n"
		       "      \"\xEF\xBF\xBD\",\n"
		       "      null\n"
		       "    ],\n"
		       "    \"lines_hex\": [\n"
		       "      null,\n"
		       "      \"c3\",\n"
		       "      null\n"
		       "    ],\n"
		       "    \"empty\": [],\n"
		       "    \"nested\": {\n"
		       "      \"t\": true,\n"
		       "      \"none\": null\n"
		       "    },\n"
		       "    \"k\xC3\xA9y/\": {}\n"
		       "  }");
	free(buf);
}

/* calls out of place: nothing more is written, `failed` says so, a tree is not given */
TEST(json_emit_refuses_calls_out_of_place)
{
	struct fw_json_emit e;
	fw_json_emit_init(&e, NULL, 0);
	fw_json_emit_object(&e);
	fw_json_emit_int(&e, 1); /* a member without a key */
	CHECK(e.failed);
	CHECK(fw_json_emit_done(&e) == NULL);

	fw_json_emit_init(&e, NULL, 0);
	fw_json_emit_array(&e);
	fw_json_emit_key(&e, "k"); /* an item with a key */
	fw_json_emit_int(&e, 1);
	CHECK(e.failed);
	fw_json_emit_done(&e);

	fw_json_emit_init(&e, NULL, 0);
	fw_json_emit_int(&e, 1);
	fw_json_emit_int(&e, 2); /* a second outermost value */
	CHECK(e.failed);
	fw_json_emit_done(&e);

	fw_json_emit_init(&e, NULL, 0);
	fw_json_emit_end(&e); /* nothing to close */
	CHECK(e.failed);

	fw_json_emit_init(&e, NULL, 0);
	for (int i = 0; i < FW_JSON_EMIT_DEPTH + 1; i++)
		fw_json_emit_array(&e);
	CHECK(e.failed);
	CHECK(fw_json_emit_done(&e) == NULL);

	fw_json_emit_init(&e, NULL, 0);
	fw_json_emit_object(&e);
	CHECK(fw_json_emit_done(&e) == NULL); /* left open */

	struct fw_json_writer w;
	fw_json_writer_init(&w, stdout, JSON_INDENT(2) | JSON_SORT_KEYS); /* the order is the caller's */
	fw_json_emit_init(&e, &w, 0);
	CHECK(e.failed);
	fw_json_emit_object(&e);
	CHECK_EQ(w.len, 0);
	fw_json_writer_end(&w);
}

/* One table set both ways: the walk written (as `acpi --format json` writes each table) and
 * built as a tree then written; false at the first difference. A key given twice in an object
 * would differ here (the tree keeps one). */
static bool acpi_both_ways(const struct fw_acpi_set *s, const char *what, unsigned *tables)
{
	for (size_t i = 0; i < s->ntables; i++) {
		const struct fw_acpi_table *t = s->tables[i];
		json_t *tree = fw_acpi_json_table(t);
		char *want = tree ? fw_json_dumps(tree, JSON_INDENT(2) | JSON_PRESERVE_ORDER) : NULL;
		json_decref(tree);
		char *got = NULL;
		size_t len = 0;
		FILE *f = open_memstream(&got, &len);
		struct fw_json_writer w;
		fw_json_writer_init(&w, f, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
		struct fw_json_emit e;
		fw_json_emit_init(&e, &w, 0);
		fw_acpi_emit_table(&e, t);
		bool failed = e.failed;
		fw_json_writer_end(&w);
		fclose(f);
		bool same = want && !failed && strcmp(want, got) == 0;
		if (!same) {
			size_t k = 0;
			while (want && got[k] && got[k] == want[k])
				k++;
			fw_test_fail(__FILE__, __LINE__, "%s: table %s: written and built differ at byte %zu:\n%.200s\n--\n%.200s", what,
				     t->signature, k, want ? want + (k > 80 ? k - 80 : 0) : "(none)", got + (k > 80 ? k - 80 : 0));
		}
		free(want);
		free(got);
		if (!same)
			return false;
		(*tables)++;
	}
	return true;
}

static bool acpi_file_both_ways(const char *path, unsigned *tables)
{
	size_t n;
	uint8_t *p = fw_test_read_file(path, &n);
	if (!p)
		return true;
	struct fw_acpi_set *s = fw_acpi_set_new();
	struct fw_error err;
	fw_error_clear(&err);
	bool ok = true;
	if (fw_acpi_set_add_buffer(s, p, n, path, &err)) {
		fw_acpi_set_finish(s);
		ok = acpi_both_ways(s, path, tables);
	}
	fw_acpi_set_free(s);
	free(p);
	return ok;
}

TEST(acpi_json_written_as_walked_equals_the_tree)
{
	unsigned tables = 0, files = 0;
	static const char *const roots[] = {"samples/sysroot-1104", "samples/sysroot-1201", "samples/sysroot-hostile"};
	for (size_t r = 0; r < sizeof(roots) / sizeof(roots[0]); r++) {
		char dir[256];
		snprintf(dir, sizeof(dir), "%s/sys/firmware/acpi/tables", roots[r]);
		const char *d = fw_test_build(dir);
		DIR *h = d ? opendir(d) : NULL;
		if (!h) {
			fw_test_skip("%s: not built (make samples)", dir);
			return;
		}
		char base[512];
		snprintf(base, sizeof(base), "%s", d);
		for (struct dirent *de; (de = readdir(h));) {
			char path[800];
			if (de->d_name[0] == '.' || de->d_type == DT_DIR)
				continue;
			snprintf(path, sizeof(path), "%s/%s", base, de->d_name);
			if (!acpi_file_both_ways(path, &tables)) {
				closedir(h);
				return;
			}
			files++;
		}
		closedir(h);
	}
	/* the acpidump corpus when present: tables of real machines */
	static const char *const dumps[] = {
		"acpi/asrock-970m-pro3.acpidump.txt", "acpi/asrock-x370-killer-sli-coreboot.acpidump.txt",
		"acpi/asus-minipc-pn51.acpidump.txt", "acpi/asus-prime-x399-a.acpidump.txt",
		"acpi/asus-rog-strix-x670e-f.acpidump.txt", "acpi/asus-rog-zenith-ii-extreme-alpha.acpidump.txt",
		"acpi/dell-poweredge-r820.acpidump.txt", "acpi/gmktec-nucbox-k6.acpidump.txt",
		"acpi/supermicro-h8dgu.acpidump.txt", "acpi/supermicro-x8dtt.acpidump.txt",
	};
	unsigned corpus = 0;
	for (size_t i = 0; i < sizeof(dumps) / sizeof(dumps[0]); i++) {
		const char *path = fw_test_corpus(dumps[i]);
		if (!path)
			continue;
		char copy[800];
		snprintf(copy, sizeof(copy), "%s", path);
		if (!acpi_file_both_ways(copy, &tables))
			return;
		corpus++;
	}
	if (!corpus)
		printf("# acpi json: the corpus is absent; sample tables only\n");
	printf("# acpi json: %u tables of %u files and %u dumps, written and built alike\n", tables, files, corpus);
	CHECK(files >= 27);
	CHECK(tables >= files);
}
