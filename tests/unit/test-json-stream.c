/* The streamed JSON writer (parsers/json-text.c fw_json_stream_dumpf): byte for byte what
 * fw_json_dumpf writes for the same document built whole. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "parsers/json-text.h"

/* The items of the list, copied one at a time from an array the test built. */
static json_t *next_of(const void *ctx, size_t *pos)
{
	const json_t *items = ctx;
	return *pos < json_array_size(items) ? json_deep_copy(json_array_get(items, (*pos)++)) : NULL;
}

/* The document written one way or the other; "" when the writer reported a failure. */
static char *written(json_t *head, const char *list, json_t *items, size_t flags, bool stream)
{
	int rc;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	if (stream) {
		struct fw_json_stream s = {.head = head, .list = list, .next = next_of, .ctx = items};
		rc = fw_json_stream_dumpf(&s, f, flags);
	} else {
		/* the whole document: the items in the head's (empty) list, then one dump */
		json_t *a = json_object_get(head, list);
		for (size_t i = 0; a && i < json_array_size(items); i++)
			json_array_append_new(a, json_deep_copy(json_array_get(items, i)));
		rc = fw_json_dumpf(head, f, flags);
		json_decref(head);
	}
	fclose(f);
	if (rc != 0)
		buf[0] = '\0';
	return buf;
}

/* Head and items given as JSON text; strings holding "\u00ff" are made raw bytes 0xFF (not
 * UTF-8) so the NAME_hex members appear as they do for firmware strings. */
static json_t *raw_bytes(json_t *v)
{
	if (json_is_string(v) && strstr(json_string_value(v), "\xC3\xBF")) {
		char b[64];
		snprintf(b, sizeof(b), "%s", json_string_value(v));
		char *p = strstr(b, "\xC3\xBF");
		p[0] = (char)0xFF;
		memmove(p + 1, p + 2, strlen(p + 2) + 1);
		json_decref(v);
		return json_string(b);
	}
	if (json_is_object(v)) {
		const char *k;
		json_t *e;
		json_object_foreach(v, k, e) json_object_set_new(v, k, raw_bytes(json_incref(e)));
	} else if (json_is_array(v)) {
		for (size_t i = 0; i < json_array_size(v); i++)
			json_array_set_new(v, i, raw_bytes(json_incref(json_array_get(v, i))));
	}
	return v;
}

static void same_bytes(const char *head_text, const char *list, const char *items_text, size_t flags)
{
	json_t *h1 = raw_bytes(json_loads(head_text, JSON_PRESERVE_ORDER, NULL));
	json_t *h2 = json_deep_copy(h1);
	json_t *items = raw_bytes(json_loads(items_text, 0, NULL));
	CHECK(h1 && items);
	char *whole = written(h1, list, items, flags, false), *streamed = written(h2, list, items, flags, true);
	CHECK_STR(streamed, whole);
	free(whole);
	free(streamed);
	json_decref(items);
}

TEST(json_stream_writes_the_bytes_of_the_whole_document)
{
	const size_t pretty = JSON_INDENT(2) | JSON_PRESERVE_ORDER;
	const char *items = "[{\"name\": \"a\", \"n\": 1, \"sub\": {\"deep\": [1, [2, {}], []]}}, {\"name\": \"b\\u00ff\", \"x\": null}, {}]";
	/* the list first, last, between members, alone; empty and not */
	same_bytes("{\"tables\": [], \"after\": {\"k\": \"v\"}}", "tables", items, pretty);
	same_bytes("{\"input\": {\"path\": \"p\\u00ff\", \"n\": 3}, \"tables\": [], \"diagnostics\": [\"x\"]}", "tables", items, pretty);
	same_bytes("{\"formsets\": []}", "formsets", items, pretty);
	same_bytes("{\"formsets\": []}", "formsets", "[]", pretty);
	same_bytes("{}", "formsets", "[]", pretty);
	/* no list member of that name: the head alone */
	same_bytes("{\"a\": [1, 2]}", "formsets", items, pretty);
	/* other layouts jansson has: wider indentation, one line with spaces, compact */
	same_bytes("{\"x\": 1, \"tables\": [], \"y\": [true]}", "tables", items, JSON_INDENT(4) | JSON_PRESERVE_ORDER);
	same_bytes("{\"x\": 1, \"tables\": [], \"y\": [true]}", "tables", items, JSON_PRESERVE_ORDER);
	same_bytes("{\"x\": 1, \"tables\": [], \"y\": [true]}", "tables", items, JSON_COMPACT | JSON_PRESERVE_ORDER);
}

TEST(json_stream_keeps_raw_bytes_beside_their_text)
{
	json_t *head = json_object(), *items = json_array(), *it = json_object();
	json_object_set_new(head, "list", json_array());
	json_object_set_new(it, "oem", json_string("A\xFF"));
	json_array_append_new(items, it);
	char *out = written(head, "list", items, JSON_COMPACT | JSON_PRESERVE_ORDER, true);
	CHECK_STR(out, "{\"list\":[{\"oem\":\"A\xEF\xBF\xBD\",\"oem_hex\":\"41ff\"}]}");
	free(out);
	json_decref(items);
}

/* Items with a list of their own ("forms"), streamed too: each item without its forms, then
 * the forms of the item the cursor is one past. */
static json_t *item_head(const void *ctx, size_t *pos)
{
	const json_t *items = ctx;
	if (*pos >= json_array_size(items))
		return NULL;
	json_t *it = json_deep_copy(json_array_get(items, (*pos)++));
	if (json_object_get(it, "forms"))
		json_object_set_new(it, "forms", json_array());
	return it;
}

static json_t *item_form(const void *ctx, size_t item, size_t *pos)
{
	const json_t *forms = json_object_get(json_array_get((const json_t *)ctx, item - 1), "forms");
	return *pos < json_array_size(forms) ? json_deep_copy(json_array_get(forms, (*pos)++)) : NULL;
}

TEST(json_stream_writes_lists_inside_items)
{
	const char *items_text = "[{\"guid\": \"g\", \"forms\": [{\"id\": 1, \"q\": [1, {\"a\": \"b\\u00ff\"}]}, {\"id\": 2}], \"diagnostics\": []},"
				 " {\"guid\": \"h\", \"forms\": []}, {\"guid\": \"i\"}, {\"forms\": [{}]}]";
	const size_t layouts[] = {JSON_INDENT(2) | JSON_PRESERVE_ORDER, JSON_PRESERVE_ORDER, JSON_COMPACT | JSON_PRESERVE_ORDER};
	for (size_t l = 0; l < 3; l++) {
		json_t *items = raw_bytes(json_loads(items_text, JSON_PRESERVE_ORDER, NULL));
		CHECK(items);
		json_t *whole_head = json_object();
		json_object_set_new(whole_head, "formsets", json_deep_copy(items));
		char *buf = NULL, *whole = NULL;
		size_t len = 0, wlen = 0;
		FILE *f = open_memstream(&whole, &wlen);
		CHECK_EQ(fw_json_dumpf(whole_head, f, layouts[l]), 0);
		fclose(f);
		json_decref(whole_head);
		json_t *head = json_object();
		json_object_set_new(head, "formsets", json_array());
		struct fw_json_stream s = {.head = head, .list = "formsets", .next = item_head, .ctx = items,
					   .sublist = "forms", .sub_next = item_form};
		f = open_memstream(&buf, &len);
		CHECK_EQ(fw_json_stream_dumpf(&s, f, layouts[l]), 0);
		fclose(f);
		CHECK_STR(buf, whole);
		free(buf);
		free(whole);
		json_decref(items);
	}
}
