/* The JSON writer (parsers/json-text.c): byte for byte what jansson's json_dumps writes for the
 * same document after fw_json_make_utf8, for every dump flag, over many generated documents
 * (hostile strings, bytes that are not UTF-8, extreme integers, reals, deep nesting, empty
 * containers, output larger than the writer's buffer); and the document left as it was. The
 * emitter (struct fw_json_emit): the writer's bytes for the document its calls build, every dump
 * flag it takes, the tree it builds equal to that document, exact bytes, calls out of place
 * refused. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "parsers/json-text.h"

static uint64_t rng_state;

static uint32_t rnd(uint32_t n)
{
	rng_state = rng_state * 6364136223846793005ULL + 1442695040888963407ULL;
	return (uint32_t)(rng_state >> 33) % n;
}

/* Byte strings that probe escaping and UTF-8 handling; some are not UTF-8 on purpose. */
static const struct {
	const char *s;
	size_t n;
} pieces[] = {
	{"plain", 5}, {"\"", 1}, {"\\", 1}, {"/", 1}, {"\b\f\n\r\t", 5}, {"\x01\x1f\x7f", 3}, {"\0", 1},
	{"\xC3\xA9", 2},                 /* é */
	{"\xE2\x82\xAC", 3},             /* € */
	{"\xF0\x9F\x98\x80", 4},         /* U+1F600, a surrogate pair with JSON_ENSURE_ASCII */
	{"\xEF\xBF\xBD", 3},             /* U+FFFD itself */
	{"\xFF", 1}, {"\xC3", 1},        /* not UTF-8: a bad byte, a cut sequence */
	{"\xC0\xAF", 2},                 /* overlong */
	{"\xED\xA0\x80", 3},             /* a surrogate */
	{"\xF4\x90\x80\x80", 4},         /* past U+10FFFF */
	{"\xE2\x82", 2},                 /* cut short */
	{"_hex", 4}, {" ", 1}, {"0123456789abcdef", 16},
};

/* c_string: no NUL piece (the emitter takes C strings) */
static json_t *gen_pieces(bool valid_only, bool c_string)
{
	char buf[512];
	size_t n = 0, parts = rnd(6);
	for (size_t i = 0; i < parts; i++) {
		size_t k;
		do
			k = rnd(sizeof(pieces) / sizeof(pieces[0]));
		while ((valid_only && (k >= 11 && k <= 16)) || (c_string && pieces[k].s[0] == '\0'));
		memcpy(buf + n, pieces[k].s, pieces[k].n);
		n += pieces[k].n;
	}
	return json_stringn_nocheck(buf, n);
}

static json_t *gen_string(bool valid_only)
{
	return gen_pieces(valid_only, false);
}

static json_t *gen(unsigned depth);

static json_t *gen_scalar(void)
{
	static const json_int_t ints[] = {0, 1, -1, 9, 10, -10, 123456789, INT64_MAX, INT64_MIN, INT64_MIN + 1, 4294967296LL};
	static const double reals[] = {0.0, -0.0, 1.0, 0.5, -1.25, 1e300, 1e-300, 3.141592653589793, 1e16, 1e17, 123.456, 1e-5};
	switch (rnd(7)) {
	case 0: return json_null();
	case 1: return json_boolean(rnd(2));
	case 2: return json_integer(ints[rnd(sizeof(ints) / sizeof(ints[0]))]);
	case 3: return json_integer((json_int_t)rnd(1u << 31) - (1 << 30));
	case 4: return json_real(reals[rnd(sizeof(reals) / sizeof(reals[0]))]);
	default: return gen_string(false);
	}
}

static json_t *gen(unsigned depth)
{
	uint32_t kind = depth > 6 ? 9 : rnd(10);
	if (kind < 3) {
		json_t *a = json_array();
		for (uint32_t i = 0, n = rnd(5); i < n; i++)
			json_array_append_new(a, rnd(3) ? gen_scalar() : gen(depth + 1));
		return a;
	}
	if (kind < 7) {
		json_t *o = json_object();
		for (uint32_t i = 0, n = rnd(6); i < n; i++) {
			/* keys are UTF-8 (jansson checks them); some collide with a NAME_hex sibling */
			json_t *k = gen_string(true);
			char key[600];
			snprintf(key, sizeof(key), "%s%s", rnd(4) ? "" : "k", json_string_value(k));
			json_decref(k);
			json_object_set_new(o, key, rnd(2) ? gen_scalar() : gen(depth + 1));
			if (!rnd(8)) {
				char hex[620];
				snprintf(hex, sizeof(hex), "%s_hex", key);
				json_object_set_new(o, hex, gen_string(false));
			}
		}
		return o;
	}
	return gen_scalar();
}

/* jansson's bytes for the document made UTF-8 in a copy */
static char *reference(json_t *doc, size_t flags)
{
	json_t *copy = json_deep_copy(doc);
	fw_json_make_utf8(copy);
	char *s = json_dumps(copy, flags);
	json_decref(copy);
	return s;
}

static char *through_file(json_t *doc, size_t flags, int *rc)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	*rc = fw_json_dumpf(doc, f, flags);
	fclose(f);
	return buf;
}

static const size_t flag_sets[] = {
	JSON_INDENT(2) | JSON_PRESERVE_ORDER,
	JSON_COMPACT | JSON_PRESERVE_ORDER,
	0,
	JSON_INDENT(4),
	JSON_INDENT(31) | JSON_COMPACT,
	JSON_INDENT(1) | JSON_ENSURE_ASCII,
	JSON_COMPACT | JSON_ENSURE_ASCII | JSON_ESCAPE_SLASH,
	JSON_INDENT(2) | JSON_SORT_KEYS,
	JSON_COMPACT | JSON_SORT_KEYS | JSON_ENSURE_ASCII,
	JSON_INDENT(3) | JSON_EMBED,
	JSON_EMBED | JSON_COMPACT,
	JSON_INDENT(2) | JSON_REAL_PRECISION(4),
	JSON_COMPACT | JSON_REAL_PRECISION(17) | JSON_ESCAPE_SLASH,
	JSON_INDENT(2) | JSON_ENCODE_ANY,
	JSON_ENCODE_ANY | JSON_ENSURE_ASCII | JSON_EMBED,
};

/* Both ways out of the writer against jansson; false (after reporting) at the first difference. */
static bool same_as_jansson(json_t *doc, size_t flags, unsigned seed)
{
	json_t *before = json_deep_copy(doc);
	char *want = reference(doc, flags), *got = fw_json_dumps(doc, flags);
	int rc;
	char *file = through_file(doc, flags, &rc);
	bool ok = (!want && !got && rc == -1) ||
		  (want && got && rc == 0 && strcmp(want, got) == 0 && strcmp(want, file) == 0);
	if (!ok)
		fw_test_fail(__FILE__, __LINE__, "document %u, flags 0x%zx:\njansson: %s\nwriter:  %s\nfile:    %s", seed,
			     flags, want ? want : "(failed)", got ? got : "(failed)", rc == 0 ? file : "(failed)");
	else if (!json_equal(before, doc))
		ok = false, fw_test_fail(__FILE__, __LINE__, "document %u: the writer changed the document", seed);
	free(want);
	free(got);
	free(file);
	json_decref(before);
	return ok;
}

TEST(json_writer_writes_jansson_bytes_for_generated_documents)
{
	unsigned compared = 0;
	for (unsigned seed = 1; seed <= 3000; seed++) {
		rng_state = seed;
		json_t *doc = seed % 10 == 0 ? gen_scalar() : gen(0);
		for (size_t f = 0; f < sizeof(flag_sets) / sizeof(flag_sets[0]); f++) {
			if (!same_as_jansson(doc, flag_sets[f], seed)) {
				json_decref(doc);
				return;
			}
			compared++;
		}
		json_decref(doc);
	}
	CHECK_EQ(compared, 3000 * sizeof(flag_sets) / sizeof(flag_sets[0]));
}

TEST(json_writer_exact_escapes_and_hex_siblings)
{
	json_t *o = json_object(), *a = json_array();
	json_object_set_new(o, "s", json_stringn_nocheck("a\"\\/\x01\x7f\0\xFF\xF0\x9F\x98\x80", 12));
	json_array_append_new(a, json_string("ok"));
	json_array_append_new(a, json_stringn_nocheck("\xC3", 1));
	json_object_set_new(o, "list", a);
	json_object_set_new(o, "n", json_integer(INT64_MIN));
	char *s = fw_json_dumps(o, JSON_COMPACT);
	CHECK_STR(s, "{\"s\":\"a\\\"\\\\/\\u0001\x7f\\u0000\xEF\xBF\xBD\xF0\x9F\x98\x80\",\"s_hex\":\"61225c2f017f00fff09f9880\","
		     "\"list\":[\"ok\",\"\xEF\xBF\xBD\"],\"list_hex\":[null,\"c3\"],\"n\":-9223372036854775808}");
	free(s);
	s = fw_json_dumps(o, JSON_COMPACT | JSON_ENSURE_ASCII | JSON_ESCAPE_SLASH);
	CHECK_STR(s, "{\"s\":\"a\\\"\\\\\\/\\u0001\x7f\\u0000\\uFFFD\\uD83D\\uDE00\",\"s_hex\":\"61225c2f017f00fff09f9880\","
		     "\"list\":[\"ok\",\"\\uFFFD\"],\"list_hex\":[null,\"c3\"],\"n\":-9223372036854775808}");
	free(s);
	json_decref(o);
}

TEST(json_writer_large_and_deep_documents)
{
	/* past the writer's 16 KiB buffer: long strings and many members, to a file and to memory */
	json_t *o = json_object();
	char *big = malloc(100000);
	memset(big, 'x', 100000);
	big[50000] = '\n';
	json_object_set_new(o, "big", json_stringn(big, 100000));
	for (int i = 0; i < 3000; i++) {
		char k[16];
		snprintf(k, sizeof(k), "m%d", i);
		json_object_set_new(o, k, json_integer(i * 7919));
	}
	free(big);
	CHECK(same_as_jansson(o, JSON_INDENT(2) | JSON_PRESERVE_ORDER, 0));
	CHECK(same_as_jansson(o, JSON_COMPACT, 0));
	json_decref(o);
	/* 1,000 levels (jansson's parser stops at 2,048) */
	json_t *deep = json_array();
	for (int i = 0; i < 1000; i++) {
		json_t *up = i % 2 ? json_array() : json_object();
		if (i % 2)
			json_array_append_new(up, deep);
		else
			json_object_set_new(up, "d", deep);
		deep = up;
	}
	CHECK(same_as_jansson(deep, JSON_INDENT(1), 0));
	CHECK(same_as_jansson(deep, JSON_COMPACT, 0));
	json_decref(deep);
	/* a loop is refused, as jansson refuses it */
	json_t *loop = json_array(), *inner = json_array();
	json_array_append(loop, inner);
	json_array_append(inner, loop);
	CHECK(json_dumps(loop, JSON_COMPACT) == NULL);
	CHECK(fw_json_dumps(loop, JSON_COMPACT) == NULL);
	json_array_clear(inner);
	json_decref(inner);
	json_decref(loop);
}

/* --- the emitter ---------------------------------------------------------------------------------- */

static json_t *emit_gen_string(bool valid_only)
{
	return gen_pieces(valid_only, true);
}

static json_t *emit_gen_scalar(bool valid_only)
{
	static const json_int_t ints[] = {0, 1, -1, 10, INT64_MAX, INT64_MIN, 4294967296LL};
	switch (rnd(6)) {
	case 0: return json_null();
	case 1: return json_boolean(rnd(2));
	case 2: return json_integer(ints[rnd(sizeof(ints) / sizeof(ints[0]))]);
	case 3: return json_integer((json_int_t)rnd(1u << 31) - (1 << 30));
	default: return emit_gen_string(valid_only);
	}
}

/* Documents for the emitter (parsers/json-text.h: struct fw_json_emit), whose keys are unique and never NAME_hex of another (the emitter writes members in
 * order and cannot look ahead); arrays are all strings, or hold none that is not UTF-8. */
static json_t *emit_gen(unsigned depth, bool item)
{
	uint32_t kind = depth > 5 ? 9 : rnd(10);
	if (kind < 2) {
		json_t *a = json_array();
		for (uint32_t i = 0, n = rnd(5); i < n; i++)
			json_array_append_new(a, emit_gen_string(false));
		return a;
	}
	if (kind < 4) {
		json_t *a = json_array();
		for (uint32_t i = 0, n = rnd(5); i < n; i++)
			json_array_append_new(a, rnd(3) ? emit_gen_scalar(true) : emit_gen(depth + 1, true));
		return a;
	}
	if (kind < 8) {
		json_t *o = json_object();
		for (uint32_t i = 0, n = rnd(6); i < n; i++) {
			char key[32];
			snprintf(key, sizeof(key), "%s%u", rnd(3) ? "k" : "\xC3\xA9/\"", i);
			json_object_set_new(o, key, rnd(2) ? emit_gen_scalar(false) : emit_gen(depth + 1, false));
		}
		return o;
	}
	return emit_gen_scalar(item);
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
	bool ok = fw_json_writer_end(&w) == 0 && !e.failed && !e.depth;
	fclose(f);
	*failed = !ok;
	return buf;
}

/* document `seed`: an object or an array */
static json_t *emit_doc(unsigned seed)
{
	rng_state = seed;
	json_t *doc = seed % 3 ? emit_gen(0, false) : json_pack("{s:o}", "top", emit_gen(1, false));
	return json_is_object(doc) || json_is_array(doc) ? doc : json_pack("{s:o}", "v", doc);
}

TEST(json_emit_writes_the_writers_bytes_for_generated_documents)
{
	unsigned compared = 0, seed = 0;
	while (++seed <= 2000) {
		json_t *doc = emit_doc(seed);
		for (size_t f = 0; f < sizeof(flag_sets) / sizeof(flag_sets[0]); f++) {
			if (flag_sets[f] & (JSON_SORT_KEYS | JSON_EMBED))
				continue; /* the order and brackets are the caller's */
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
	CHECK_EQ(compared, 2000 * 10); /* 10 of the flag sets: not JSON_SORT_KEYS, JSON_EMBED */
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

/* A key that is not UTF-8 (a name read from firmware): set in a tree and written as it is walked,
 * the same member, its invalid bytes U+FFFD each, not dropped (a tree) nor failing (a stream). */
TEST(json_keys_not_utf8_kept_as_u_fffd)
{
	json_t *o = json_object();
	CHECK_EQ(json_object_set_new(o, "a\xFF\xFE" "b", json_integer(1)), 0);
	CHECK_EQ(json_object_set(o, "\xC3", json_true()), 0);
	CHECK_EQ(json_object_size(o), 2);
	CHECK(json_object_get(o, "a\xEF\xBF\xBD\xEF\xBF\xBD" "b") && json_object_get(o, "\xEF\xBF\xBD"));
	char *tree = fw_json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER);
	CHECK_STR(tree, "{\"a\xEF\xBF\xBD\xEF\xBF\xBD" "b\":1,\"\xEF\xBF\xBD\":true}");
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct fw_json_writer w;
	fw_json_writer_init(&w, f, JSON_COMPACT | JSON_PRESERVE_ORDER);
	struct fw_json_emit e;
	fw_json_emit_init(&e, &w, 0);
	fw_json_emit_object(&e);
	fw_json_emit_key(&e, "a\xFF\xFE" "b");
	fw_json_emit_int(&e, 1);
	fw_json_emit_key(&e, "\xC3");
	fw_json_emit_bool(&e, true);
	fw_json_emit_end(&e);
	CHECK(!e.failed);
	CHECK_EQ(fw_json_writer_end(&w), 0);
	fclose(f);
	CHECK_STR(buf, tree);
	free(buf);
	free(tree);
	json_decref(o);
}
