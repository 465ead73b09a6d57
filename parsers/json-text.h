/* The one way strings enter JSON documents. Include this header, never <jansson.h> directly: it
 * routes json_string and json_stringn here, so a value that is not UTF-8 (a hostname, a DMI
 * string, an ACPI OEM id, a file name) enters the document with its bytes as they are instead of
 * jansson refusing it and the member vanishing. The way documents leave (fw_json_dumps,
 * fw_json_dumpf, the stream; fw_json_make_utf8 for other writers such as XML) turns each such
 * string into valid UTF-8, invalid bytes as U+FFFD, and keeps the raw bytes in hex in a sibling
 * member named NAME_hex (for a string in an array: an array NAME_hex beside it, null for the
 * items that were valid). Readers of a document in memory (diff, the query layer) see the raw
 * bytes. */
#ifndef FW_JSON_TEXT_H
#define FW_JSON_TEXT_H

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/* A JSON string holding these bytes, valid UTF-8 or not; NULL for NULL, as json_string gives. */
json_t *fw_json_string(const char *s);
json_t *fw_json_stringn(const char *s, size_t n);

#define json_string(s) fw_json_string(s)
#define json_stringn(s, n) fw_json_stringn(s, n)

/* A member named by bytes that are not UTF-8 (a name read from firmware or a machine) is set under
 * the name made valid, each invalid byte U+FFFD as a writer of ours writes such a key, instead of
 * being refused (and lost) as jansson's own calls refuse it. */
int fw_json_object_set_new(json_t *o, const char *key, json_t *v);
#define json_object_set_new(o, k, v) fw_json_object_set_new(o, k, v)
#define json_object_set(o, k, v) fw_json_object_set_new(o, k, json_incref(v))

/* Every string of the document valid UTF-8, with NAME_hex siblings for the ones that were not
 * (in place; objects keep their member order, each NAME_hex right after NAME). */
void fw_json_make_utf8(json_t *doc);
/* The bytes jansson's json_dumps/json_dumpf give for the document after fw_json_make_utf8, for
 * every JSON_* dump flag, written by a writer of our own (parsers/json-text.c says why) without
 * changing the document. fw_json_dumps' string is free()d by the caller; NULL or -1 where jansson
 * fails too (a value that is no container without JSON_ENCODE_ANY, a loop). A key that is not UTF-8
 * (set with jansson's _nocheck calls; fw_json_object_set_new makes none) is written with U+FFFD. */
char *fw_json_dumps(json_t *doc, size_t flags);
int fw_json_dumpf(json_t *doc, FILE *f, size_t flags);

/* The writer itself, for documents written in pieces (the node tree, the stream below): values
 * at a depth of indentation, an object with one member written by a callback, line breaks. Into
 * a FILE through a buffer of its own, or into memory (f NULL). fw_json_writer_end flushes and
 * gives -1 when some write failed. */
struct fw_json_writer {
	FILE *f;
	size_t flags;
	bool failed;
	char *buf;
	size_t len, cap;
	char room[16384];
};
/* writes the value of the member a callback stands for, at `depth`; false: give up */
typedef bool (*fw_json_member_fn)(struct fw_json_writer *w, void *ctx, json_t *value, unsigned depth);
void fw_json_writer_init(struct fw_json_writer *w, FILE *f, size_t flags);
/* v as it is written `depth` levels deep in a document (its line breaks indented that far). */
bool fw_json_write_value(struct fw_json_writer *w, json_t *v, unsigned depth);
/* The object o at `depth`, the value of its member named `member` written by put (NULL: none). */
bool fw_json_write_object(struct fw_json_writer *w, json_t *o, unsigned depth, const char *member,
			  fw_json_member_fn put, void *ctx);
/* What comes after "[" or "{" or "," (space: after ",") with the indentation of `depth`. */
void fw_json_write_break(struct fw_json_writer *w, unsigned depth, bool space);
void fw_json_write_raw(struct fw_json_writer *w, const char *s, size_t n);
int fw_json_writer_end(struct fw_json_writer *w);

/* A document written while it is built, for results too large to hold as one json_t tree: an
 * object with the members of `head` in their order, where the member named `list` (an array in
 * head, left empty there) gets the items next() returns, each made UTF-8, written and freed
 * before the next is built; next() returns NULL at the end and keeps its place in *pos (0 at
 * the start). Items are objects or arrays (a string item that is not UTF-8 gets U+FFFD but no
 * NAME_hex array beside the list). */
struct fw_json_stream {
	json_t *head;                                  /* taken */
	const char *list;
	json_t *(*next)(const void *ctx, size_t *pos); /* a new reference, or NULL: no more */
	const void *ctx;
	/* Items too large to build whole (optional): next() returns each item with its member
	 * `sublist` an empty array, whose items sub_next gives one at a time; `item` is the cursor
	 * next() left after that item. */
	const char *sublist;
	json_t *(*sub_next)(const void *ctx, size_t item, size_t *pos);
};
/* The bytes fw_json_dumpf gives for the whole document (same flags), memory that of the head
 * and one item; -1 when writing fails. */
int fw_json_stream_dumpf(const struct fw_json_stream *s, FILE *f, size_t flags);

/* A document written as it is walked, one call per token, without a json_t per value: into a
 * writer (the bytes fw_json_dumpf gives for the document the same calls build, dump flags but
 * JSON_SORT_KEYS and JSON_EMBED), or with w NULL into a json_t tree (for XML, diff, tests):
 * one walk serves both. Members come in the order written; a key must not repeat in an object
 * (the writer cannot replace what it wrote). A string member that is not UTF-8 leaves as U+FFFD
 * with its NAME_hex sibling right after it (fw_json_make_utf8's rule); an array of strings is
 * written with fw_json_emit_strings for its NAME_hex array, other strings in arrays get U+FFFD
 * only. Deeper than FW_JSON_EMIT_DEPTH open containers, or a value where none may stand, sets
 * `failed` and writes nothing more.
 *   struct fw_json_emit e; fw_json_emit_init(&e, w, depth);
 *   fw_json_emit_object(&e); fw_json_emit_key(&e, "a"); fw_json_emit_int(&e, 1); fw_json_emit_end(&e); */
#define FW_JSON_EMIT_DEPTH 64
struct fw_json_emit {
	struct fw_json_writer *w; /* NULL: build a tree */
	unsigned base;            /* the writer's depth of the outermost value */
	unsigned depth;           /* open containers */
	bool failed;
	bool given;               /* the outermost value is (being) written */
	const char *key;          /* the member whose value comes next (lives until it is given) */
	size_t klen;
	json_t *root;             /* tree: the outermost value */
	struct fw_json_emit_level {
		json_t *c;         /* tree: the container */
		bool object, any;  /* an object; it has a member or item already */
	} open[FW_JSON_EMIT_DEPTH];
};
/* w: the writer, and the depth of indentation the outermost value is written at. */
void fw_json_emit_init(struct fw_json_emit *e, struct fw_json_writer *w, unsigned depth);
void fw_json_emit_key(struct fw_json_emit *e, const char *key);
void fw_json_emit_object(struct fw_json_emit *e);
void fw_json_emit_array(struct fw_json_emit *e);
void fw_json_emit_end(struct fw_json_emit *e); /* closes the innermost container */
void fw_json_emit_int(struct fw_json_emit *e, json_int_t v);
void fw_json_emit_hex(struct fw_json_emit *e, uint64_t v); /* "0x1f" */
void fw_json_emit_bool(struct fw_json_emit *e, bool v);
void fw_json_emit_null(struct fw_json_emit *e);
void fw_json_emit_string(struct fw_json_emit *e, const char *s); /* NULL: null */
void fw_json_emit_stringn(struct fw_json_emit *e, const char *s, size_t n);
/* An array of n strings (NULL items: null), with its NAME_hex array when one is not UTF-8. */
void fw_json_emit_strings(struct fw_json_emit *e, const char *const *s, size_t n);
/* The tree built (a new reference; NULL when writing or after a failure). */
json_t *fw_json_emit_done(struct fw_json_emit *e);

#endif
