/* The JSON skim (parsers/json-skim.c) and the snapshot loader's use of it. */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "parsers/json-skim.h"
#include "parsers/tar.h"
#include "tools/host/machine.h"

static const char *const keys[] = {"format", "links", "created"};

/* Skim `text`, which the skim must accept; jansson must read it and give the same values. */
static void skim_agrees(const char *text, struct fw_json_span *sp)
{
	size_t n = strlen(text);
	CHECK_MSG(fw_json_skim_object(text, n, keys, 3, sp), "refused %s", text);
	json_t *doc = json_loadb(text, n, 0, NULL);
	CHECK_MSG(doc && json_is_object(doc), "jansson refuses what the skim accepted: %s", text);
	for (int k = 0; doc && k < 3; k++) {
		json_t *want = json_object_get(doc, keys[k]);
		json_t *got = sp[k].value_len ? json_loadb(text + sp[k].value, sp[k].value_len, JSON_DECODE_ANY, NULL) : NULL;
		CHECK_MSG((!want && !got) || json_equal(want, got), "member %s of %s", keys[k], text);
		json_decref(got);
	}
	json_decref(doc);
}

TEST(json_skim_finds_members_of_plain_documents)
{
	struct fw_json_span sp[3];
	const char *t = "{\"format\": \"x\", \"members\": [{\"a\": [1, -2, 0, true, false, null]}, {}],\n"
			"\t\"links\": [\"a\\/b\", \"c\\\"d\\u00e9\"], \"created\": \"2026\", \"links\": {\"e\": []}}";
	skim_agrees(t, sp);
	CHECK_EQ(sp[0].value_len, 3);
	CHECK(strncmp(t + sp[0].value, "\"x\"", 3) == 0);
	/* a key given twice: the last one, as jansson keeps it */
	CHECK(strncmp(t + sp[1].value, "{\"e\": []}", sp[1].value_len) == 0);
	CHECK(strncmp(t + sp[2].key, "created", sp[2].key_len) == 0);
	skim_agrees("  {}  ", sp);
	CHECK_EQ(sp[0].value_len, 0);
	skim_agrees("{\"n\": 123456789012345678, \"links\": [[[[]]]]}", sp);
}

TEST(json_skim_leaves_everything_else_to_the_full_parse)
{
	struct fw_json_span sp[3];
	const char *refused[] = {
		"",                                    /* nothing */
		"[]",                                  /* not an object */
		"{\"a\": 1} x",                        /* bytes after the document */
		"{\"a\": 1,}",                         /* a trailing comma */
		"{\"a\" 1}",                           /* no colon */
		"{\"a\": 01}",                         /* a leading zero */
		"{\"a\": 1.5}",                        /* reals: left to jansson */
		"{\"a\": 1e3}",                        /* exponents too */
		"{\"a\": 1234567890123456789}",        /* 19 digits may not fit json_int_t */
		"{\"a\": -}",                          /* a sign alone */
		"{\"a\": \"\\u0000\"}",                /* NUL: jansson refuses it */
		"{\"a\": \"\\ud83d\\ude00\"}",         /* surrogate pairs: left to jansson */
		"{\"a\": \"\\x\"}",                    /* an unknown escape */
		"{\"a\": \"\\u12G4\"}",                /* not hex */
		"{\"a\": \"tab\there\"}",              /* a control character */
		"{\"a\": \"caf\xc3\xa9\"}",            /* bytes above ASCII: left to jansson */
		"{\"\\u0066ormat\": \"x\"}",           /* a top-level key with escapes */
		"{\"a\": tru}",                        /* a broken word */
		"{\"a\": [1 2]}",                      /* no comma */
		"{\"a\": \"open}",                     /* an open string */
		"{\"a\": {\"b\": 1}",                  /* an open object */
	};
	for (size_t i = 0; i < sizeof(refused) / sizeof(refused[0]); i++)
		CHECK_MSG(!fw_json_skim_object(refused[i], strlen(refused[i]), keys, 3, sp), "accepted %s", refused[i]);
	/* NUL inside the length */
	CHECK(!fw_json_skim_object("{\"a\": 1}\0", 9, keys, 3, sp));
	/* nesting: FW_JSON_SKIM_MAX_DEPTH levels under the top object are too many, one less is read */
	char deep[2 * FW_JSON_SKIM_MAX_DEPTH + 16];
	for (int levels = FW_JSON_SKIM_MAX_DEPTH; levels >= FW_JSON_SKIM_MAX_DEPTH - 1; levels--) {
		size_t o = (size_t)sprintf(deep, "{\"a\": ");
		for (int i = 0; i < levels; i++)
			deep[o++] = '[';
		for (int i = 0; i < levels; i++)
			deep[o++] = ']';
		deep[o++] = '}';
		deep[o] = '\0';
		if (levels == FW_JSON_SKIM_MAX_DEPTH)
			CHECK(!fw_json_skim_object(deep, o, keys, 3, sp));
		else
			skim_agrees(deep, sp);
	}
}

/* A snapshot holding only `manifest` and one file, in memory. */
static uint8_t *snapshot_of_manifest(const char *manifest, size_t *len)
{
	char *buf = NULL;
	FILE *f = open_memstream(&buf, len);
	struct fw_tar_writer w;
	fw_tar_writer_init(&w, f, 0);
	fw_tar_write_file(&w, "manifest.json", (const uint8_t *)manifest, strlen(manifest));
	fw_tar_write_file(&w, "files/proc/cmdline", (const uint8_t *)"ro\n", 3);
	bool ok = fw_tar_finish(&w);
	fclose(f);
	if (!ok) {
		free(buf);
		return NULL;
	}
	return (uint8_t *)buf;
}

/* The loader reads a plain manifest through the skim and any other one whole: the same machine. */
TEST(snapshot_manifest_skimmed_or_parsed_alike)
{
	const char *manifests[] = {
		"{\"format\": \"fwlens-snapshot\", \"version\": 1, \"created\": \"2026-01-01T00:00:00Z\", \"members\": [],"
		" \"links\": [{\"path\": \"sys/l\", \"target\": \"proc/cmdline\"}], \"nodes\": [\"dev/sev\"]}",
		/* the same with a real number and a name above ASCII: parsed whole */
		"{\"format\": \"fwlens-snapshot\", \"version\": 1.0, \"created\": \"2026-01-01T00:00:00Z\", \"members\": [],"
		" \"links\": [{\"path\": \"sys/l\", \"target\": \"proc/cmdline\"}], \"nodes\": [\"dev/sev\"], \"n\": \"\xc3\xa9\"}",
	};
	for (int i = 0; i < 2; i++) {
		struct fw_json_span sp[1];
		CHECK(fw_json_skim_object(manifests[i], strlen(manifests[i]), keys, 1, sp) == (i == 0));
		size_t len;
		uint8_t *p = snapshot_of_manifest(manifests[i], &len);
		CHECK(p);
		struct fw_machine *m = NULL;
		struct fw_error err;
		CHECK_MSG(fw_snapshot_load_buffer(p, len, "s.fwsnap", &m, &err), "%s", err.msg);
		free(p);
		if (!m)
			continue;
		CHECK_STR(fw_machine_created(m), "2026-01-01T00:00:00Z");
		CHECK_STR(fw_machine_link(m, "sys/l"), "proc/cmdline");
		CHECK(fw_machine_exists(m, "dev/sev"));
		const json_t *doc = fw_machine_manifest(m);
		CHECK(json_is_array(json_object_get(doc, "members")));
		CHECK_STR(fw_machine_created(m), "2026-01-01T00:00:00Z");
		CHECK(strstr(fw_machine_manifest_json(m), "\"format\": \"fwlens-snapshot\""));
		fw_machine_close(m);
	}
	/* not ours, through either path */
	const char *foreign[] = {"{\"format\": \"other\"}", "{\"format\": 1.5}", "{\"links\": []}"};
	for (int i = 0; i < 3; i++) {
		size_t len;
		uint8_t *p = snapshot_of_manifest(foreign[i], &len);
		CHECK(p);
		struct fw_machine *m = NULL;
		struct fw_error err;
		CHECK(!fw_snapshot_load_buffer(p, len, "f.fwsnap", &m, &err));
		CHECK(strstr(err.msg, "is not a fwlens snapshot manifest"));
		free(p);
	}
}
