/* A bump allocator: nodes, fields and strings of one parse live and die together, so the hot
 * parse loops never call malloc per node. */
#ifndef FW_ARENA_H
#define FW_ARENA_H

#include <stddef.h>

struct fw_arena_block;

struct fw_arena {
	struct fw_arena_block *head;
	size_t used_total;
};

void fw_arena_init(struct fw_arena *a);
void fw_arena_free(struct fw_arena *a);
/* Zeroed, 16-byte aligned memory that lives until fw_arena_free. */
void *fw_arena_alloc(struct fw_arena *a, size_t n);
/* The same, 8-byte aligned: for the many small records of a tree (fields, diagnostics), none of
 * which holds a type needing more. */
void *fw_arena_alloc_small(struct fw_arena *a, size_t n);
/* Strings are packed byte by byte (no alignment). */
char *fw_arena_strdup(struct fw_arena *a, const char *s);
char *fw_arena_strndup(struct fw_arena *a, const char *s, size_t n);
char *fw_arena_printf(struct fw_arena *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void *fw_arena_memdup(struct fw_arena *a, const void *p, size_t n);

#endif
