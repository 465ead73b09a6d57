#include "arena.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"

#if defined(__SANITIZE_ADDRESS__)
#define ARENA_FROM_HEAP 1 /* AddressSanitizer sees heap blocks, not private mappings */
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define ARENA_FROM_HEAP 1
#endif
#endif
#ifndef ARENA_FROM_HEAP
#include <sys/mman.h>
#endif

#define ARENA_BLOCK_SIZE (64 * 1024)
#define ARENA_BLOCK_MAX (4 * 1024 * 1024)
#define ARENA_POPULATE (256 * 1024)
#define ARENA_HUGE ((size_t)2 << 20) /* blocks from this size use huge pages (map_block) */

struct fw_arena_block {
	struct fw_arena_block *next;
	size_t size;
	size_t used;
	size_t ready; /* bytes of data[] populated (mapped blocks) */
	int mapped;   /* from mmap (block_new), else from the heap */
	_Alignas(16) unsigned char data[];
};

/* Blocks are private anonymous mappings: the kernel hands them out zeroed, and a page is touched
 * (faulted in) only when an allocation reaches it. From the heap (calloc) a block was cleared
 * whole by memset whenever malloc reused freed memory, which was a tenth of a warm doctor run,
 * and every page of it was faulted in. Untouched room costs only address space, so each block
 * is twice its predecessor up to 4 MiB: a large parse maps a few dozen blocks, not hundreds.
 * Pages are populated 256 KiB ahead of the bump pointer, one madvise call instead of 64 page
 * faults (a fault costs several microseconds in a virtual machine: a third of a warm doctor run).
 * Heap profilers see mappings only when told to (valgrind --tool=massif --pages-as-heap=yes). */
#ifndef ARENA_FROM_HEAP
/* A block of 2 MiB or more starts on a 2 MiB boundary and asks for transparent huge pages
 * (where the kernel offers them on request): its memory then arrives 2 MiB per fault instead of
 * 4 KiB per fault. In a virtual machine a 4 KiB fault or populate costs several microseconds, and
 * the blocks a warm doctor fills (the forms from the cache, the settings) came to 18 MiB: a fifth
 * of its CPU time went to faulting them in. More is mapped and the ends around the boundary are
 * given back; where any of it fails the block is an ordinary mapping. */
static void *map_block(size_t bytes)
{
#ifdef MADV_HUGEPAGE
	if (bytes >= ARENA_HUGE && bytes <= SIZE_MAX - 2 * ARENA_HUGE) {
		size_t keep = (bytes + 4095) & ~(size_t)4095, over = keep + ARENA_HUGE;
		char *m = mmap(NULL, over, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (m != MAP_FAILED) {
			char *start = (char *)(((uintptr_t)m + ARENA_HUGE - 1) & ~(uintptr_t)(ARENA_HUGE - 1));
			size_t head = (size_t)(start - m), tail = over - head - keep;
			if (head)
				munmap(m, head);
			if (tail)
				munmap(start + keep, tail);
			(void)madvise(start, keep, MADV_HUGEPAGE);
			return start;
		}
	}
#endif
	return mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
}
#endif

static struct fw_arena_block *block_new(size_t bytes)
{
	struct fw_arena_block *b = NULL;
#ifndef ARENA_FROM_HEAP
	void *p = map_block(bytes);
	if (p != MAP_FAILED) {
		b = p;
		b->mapped = 1;
		b->ready = 0;
		return b;
	}
#endif
	b = fw_xcalloc(1, bytes); /* aborts when the heap cannot give it either */
	b->mapped = 0;
	return b;
}

static void block_free(struct fw_arena_block *b)
{
#ifndef ARENA_FROM_HEAP
	if (b->mapped) {
		munmap(b, sizeof(*b) + b->size);
		return;
	}
#endif
	free(b);
}

/* Populate the pages up to data[end] ahead of use (see block_new); where the kernel has no
 * MADV_POPULATE_WRITE (before 5.14) the pages fault in one by one as before. */
static void block_ready(struct fw_arena_block *b, size_t end)
{
#if !defined(ARENA_FROM_HEAP) && defined(MADV_POPULATE_WRITE)
	if (!b->mapped || end <= b->ready)
		return;
	uintptr_t page = 4096;
	uintptr_t from = ((uintptr_t)b->data + b->ready + page - 1) & ~(page - 1);
	size_t want = end - b->ready < ARENA_POPULATE ? ARENA_POPULATE : end - b->ready;
	size_t to_off = b->ready + want > b->size ? b->size : b->ready + want;
	uintptr_t to = ((uintptr_t)b->data + to_off + page - 1) & ~(page - 1);
	uintptr_t limit = (uintptr_t)b->data + b->size; /* the mapping ends on a page boundary */
	if (to > limit)
		to = limit;
	if (to > from)
		(void)madvise((void *)from, to - from, MADV_POPULATE_WRITE);
	b->ready = to_off;
#else
	(void)b;
	(void)end;
#endif
}

void fw_arena_init(struct fw_arena *a)
{
	a->head = NULL;
	a->used_total = 0;
}

void fw_arena_free(struct fw_arena *a)
{
	/* oldest block first: heap blocks (sanitizer builds) freed newest first would give malloc
	 * a top to trim (a brk call and a TLB flush) every block or two; freed in order of
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
		block_free(b);
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
		size_t step = ARENA_BLOCK_SIZE;
		if (b)
			step = b->size >= ARENA_BLOCK_MAX / 2 ? ARENA_BLOCK_MAX
			       : b->size * 2 > step	      ? b->size * 2
							      : step;
		size_t size = n > step ? n : step;
		if (size + sizeof(*b) < size)
			abort();
		/* zeroed once, by the kernel: each byte is handed out once */
		b = block_new(sizeof(*b) + size);
		b->size = size;
		b->used = 0;
		/* Big one-off blocks go behind the head so the head keeps its free room. */
		if (a->head && n > step) {
			b->next = a->head->next;
			a->head->next = b;
		} else {
			b->next = a->head;
			a->head = b;
		}
		at = 0;
	}
	block_ready(b, at + n);
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
