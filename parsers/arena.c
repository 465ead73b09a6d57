#include "arena.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"

#define ARENA_BLOCK_SIZE (64 * 1024)

struct fw_arena_block {
	struct fw_arena_block *next;
	size_t size;
	size_t used;
	_Alignas(16) unsigned char data[];
};

void fw_arena_init(struct fw_arena *a)
{
	a->head = NULL;
	a->used_total = 0;
}

void fw_arena_free(struct fw_arena *a)
{
	/* oldest block first: the newest sit at the top of the heap, and freeing them first gives
	 * malloc a top to trim (a brk call and a TLB flush) every block or two; freed in order of
	 * allocation they coalesce and the heap is trimmed once (a third of the CPU time of
	 * `acpi` over 1,000 IVRS tables went to that) */
	struct fw_arena_block *old = NULL, *b = a->head;
	while (b) {
		struct fw_arena_block *next = b->next;
		b->next = old;
		old = b;
		b = next;
	}
	for (b = old; b;) {
		struct fw_arena_block *next = b->next;
		free(b);
		b = next;
	}
	a->head = NULL;
	a->used_total = 0;
}

/* n zeroed bytes at a multiple of align (a power of two up to 16). Strings ask for 1 and small
 * records for 8: rounding every one of them up to 16 bytes cost about 10% of the tree. */
static void *arena_take(struct fw_arena *a, size_t n, size_t align)
{
	struct fw_arena_block *b = a->head;
	size_t at = b ? (b->used + align - 1) & ~(align - 1) : 0;
	if (!b || at > b->size || b->size - at < n) {
		size_t size = n > ARENA_BLOCK_SIZE ? n : ARENA_BLOCK_SIZE;
		if (size + sizeof(*b) < size)
			abort();
		/* zeroed once, by calloc (free of charge for fresh pages): each byte is handed out once */
		b = fw_xcalloc(1, sizeof(*b) + size);
		b->size = size;
		b->used = 0;
		/* Big one-off blocks go behind the head so the head keeps its free room. */
		if (a->head && n > ARENA_BLOCK_SIZE) {
			b->next = a->head->next;
			a->head->next = b;
		} else {
			b->next = a->head;
			a->head = b;
		}
		at = 0;
	}
	void *p = b->data + at;
	a->used_total += at + n - b->used;
	b->used = at + n;
	return p;
}

void *fw_arena_alloc(struct fw_arena *a, size_t n)
{
	return arena_take(a, n, 16);
}

void *fw_arena_alloc_small(struct fw_arena *a, size_t n)
{
	return arena_take(a, n, 8);
}

char *fw_arena_strndup(struct fw_arena *a, const char *s, size_t n)
{
	size_t len = strnlen(s, n);
	char *p = arena_take(a, len + 1, 1);
	memcpy(p, s, len);
	p[len] = '\0';
	return p;
}

char *fw_arena_strdup(struct fw_arena *a, const char *s)
{
	return fw_arena_strndup(a, s, SIZE_MAX);
}

char *fw_arena_printf(struct fw_arena *a, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		n = 0;
	char *p = arena_take(a, (size_t)n + 1, 1);
	va_start(ap, fmt);
	vsnprintf(p, (size_t)n + 1, fmt, ap);
	va_end(ap);
	return p;
}

void *fw_arena_memdup(struct fw_arena *a, const void *p, size_t n)
{
	void *q = fw_arena_alloc(a, n);
	if (n)
		memcpy(q, p, n);
	return q;
}
