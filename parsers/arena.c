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

void *fw_arena_alloc(struct fw_arena *a, size_t n)
{
	size_t need = (n + 15) & ~(size_t)15;
	if (need < n)
		abort();
	struct fw_arena_block *b = a->head;
	if (!b || b->size - b->used < need) {
		size_t size = need > ARENA_BLOCK_SIZE ? need : ARENA_BLOCK_SIZE;
		/* zeroed once, by calloc (free of charge for fresh pages): each byte is handed out once */
		b = fw_xcalloc(1, sizeof(*b) + size);
		b->size = size;
		b->used = 0;
		/* Big one-off blocks go behind the head so the head keeps its free room. */
		if (a->head && need > ARENA_BLOCK_SIZE) {
			b->next = a->head->next;
			a->head->next = b;
		} else {
			b->next = a->head;
			a->head = b;
		}
	}
	void *p = b->data + b->used;
	b->used += need;
	a->used_total += need;
	return p;
}

char *fw_arena_strndup(struct fw_arena *a, const char *s, size_t n)
{
	size_t len = strnlen(s, n);
	char *p = fw_arena_alloc(a, len + 1);
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
	char *p = fw_arena_alloc(a, (size_t)n + 1);
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
