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

#endif
