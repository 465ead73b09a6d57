/* The one way strings enter JSON documents. Include this header, never <jansson.h> directly: it
 * routes json_string and json_stringn here, so a value that is not UTF-8 (a hostname, a DMI
 * string, an ACPI OEM id, a file name) enters the document with its bytes as they are instead of
 * jansson refusing it and the member vanishing. fw_json_make_utf8 (called by fw_json_dumps and
 * fw_json_dumpf, the way documents leave) then turns each such string into valid UTF-8, invalid
 * bytes as U+FFFD, and keeps the raw bytes in hex in a sibling member named NAME_hex (for a
 * string in an array: an array NAME_hex beside it, null for the items that were valid). Readers
 * of a document in memory (diff, the query layer) see the raw bytes. */
#ifndef FW_JSON_TEXT_H
#define FW_JSON_TEXT_H

#include <jansson.h>
#include <stdio.h>

/* A JSON string holding these bytes, valid UTF-8 or not; NULL for NULL, as json_string gives. */
json_t *fw_json_string(const char *s);
json_t *fw_json_stringn(const char *s, size_t n);

#define json_string(s) fw_json_string(s)
#define json_stringn(s, n) fw_json_stringn(s, n)

/* Every string of the document valid UTF-8, with NAME_hex siblings for the ones that were not
 * (in place; objects keep their member order, each NAME_hex right after NAME). */
void fw_json_make_utf8(json_t *doc);
/* fw_json_make_utf8, then jansson's json_dumps/json_dumpf. */
char *fw_json_dumps(json_t *doc, size_t flags);
int fw_json_dumpf(json_t *doc, FILE *f, size_t flags);

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
/* The bytes fw_json_dumpf gives for the whole document (same flags, JSON_PRESERVE_ORDER
 * included), memory that of the head and one item; -1 when writing fails. */
int fw_json_stream_dumpf(const struct fw_json_stream *s, FILE *f, size_t flags);
/* len bytes of dumped JSON, each line break followed by `pad` spaces: a value dumped on its own
 * placed deeper in a document (JSON strings hold no raw line break, so every one is jansson's). */
void fw_json_put_indented(FILE *f, const char *s, size_t len, unsigned pad);

#endif
