#include "guid.h"

#include <ctype.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

char *fw_guid_format(const struct fw_guid *g, char out[FW_GUID_STR_LEN])
{
	const uint8_t *b = g->b;
	snprintf(out, FW_GUID_STR_LEN, "%02X%02X%02X%02X-%02X%02X-%02X%02X-%02X%02X-%02X%02X%02X%02X%02X%02X", b[3], b[2],
		 b[1], b[0], b[5], b[4], b[7], b[6], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]);
	return out;
}

char *fw_guid_format_lower(const struct fw_guid *g, char out[FW_GUID_STR_LEN])
{
	fw_guid_format(g, out);
	for (char *p = out; *p; p++)
		*p = (char)tolower((unsigned char)*p);
	return out;
}

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

bool fw_guid_parse(const char *s, struct fw_guid *out)
{
	char digits[32];
	size_t n = 0;
	size_t len = strlen(s);
	if (len == 38 && s[0] == '{' && s[37] == '}') {
		s++;
		len = 36;
	}
	if (len != 36)
		return false;
	for (size_t i = 0; i < 36; i++) {
		if (i == 8 || i == 13 || i == 18 || i == 23) {
			if (s[i] != '-')
				return false;
			continue;
		}
		if (hexval(s[i]) < 0)
			return false;
		digits[n++] = s[i];
	}
	uint8_t v[16];
	for (size_t i = 0; i < 16; i++)
		v[i] = (uint8_t)(hexval(digits[2 * i]) << 4 | hexval(digits[2 * i + 1]));
	/* Data1..Data3 are little-endian on disk. */
	out->b[0] = v[3]; out->b[1] = v[2]; out->b[2] = v[1]; out->b[3] = v[0];
	out->b[4] = v[5]; out->b[5] = v[4];
	out->b[6] = v[7]; out->b[7] = v[6];
	memcpy(out->b + 8, v + 8, 8);
	return true;
}

bool fw_guid_eq(const struct fw_guid *a, const struct fw_guid *b)
{
	return memcmp(a->b, b->b, 16) == 0;
}

bool fw_guid_is_zero(const struct fw_guid *g)
{
	for (int i = 0; i < 16; i++)
		if (g->b[i])
			return false;
	return true;
}

bool fw_guid_is_ones(const struct fw_guid *g)
{
	for (int i = 0; i < 16; i++)
		if (g->b[i] != 0xFF)
			return false;
	return true;
}

/* The name table: parsers/guid-names.def holds GUID_NAME(guid, name, kind, source) lines. */
struct guid_name_src {
	const char *guid, *name, *kind, *source;
};
static const struct guid_name_src name_src[] = {
#define GUID_NAME(g, n, k, s) {g, n, k, s},
#include "guid-names.def"
#undef GUID_NAME
};
#define NAME_COUNT (sizeof(name_src) / sizeof(name_src[0]))

static struct fw_guid_name table[NAME_COUNT];
static struct fw_guid_name *sorted[NAME_COUNT];
static pthread_once_t table_once = PTHREAD_ONCE_INIT;

static int cmp_sorted(const void *a, const void *b)
{
	const struct fw_guid_name *x = *(const struct fw_guid_name *const *)a;
	const struct fw_guid_name *y = *(const struct fw_guid_name *const *)b;
	int c = memcmp(x->guid.b, y->guid.b, 16);
	if (c)
		return c;
	return x < y ? -1 : x > y; /* first entry in the file wins */
}

static void table_init(void)
{
	for (size_t i = 0; i < NAME_COUNT; i++) {
		if (!fw_guid_parse(name_src[i].guid, &table[i].guid)) {
			fprintf(stderr, "fwlens: bad GUID in guid-names.def: %s\n", name_src[i].guid);
			abort();
		}
		table[i].name = name_src[i].name;
		table[i].kind = name_src[i].kind;
		table[i].source = name_src[i].source;
		sorted[i] = &table[i];
	}
	qsort(sorted, NAME_COUNT, sizeof(sorted[0]), cmp_sorted);
}

const struct fw_guid_name *fw_guid_lookup(const struct fw_guid *g)
{
	pthread_once(&table_once, table_init);
	size_t lo = 0, hi = NAME_COUNT;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = memcmp(sorted[mid]->guid.b, g->b, 16);
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < NAME_COUNT && memcmp(sorted[lo]->guid.b, g->b, 16) == 0)
		return sorted[lo];
	return NULL;
}

const char *fw_guid_name(const struct fw_guid *g)
{
	const struct fw_guid_name *n = fw_guid_lookup(g);
	return n ? n->name : NULL;
}

const struct fw_guid_name *fw_guid_lookup_name(const char *name)
{
	pthread_once(&table_once, table_init);
	for (size_t i = 0; i < NAME_COUNT; i++)
		if (strcmp(table[i].name, name) == 0)
			return &table[i];
	return NULL;
}

size_t fw_guid_table_size(void)
{
	return NAME_COUNT;
}

const struct fw_guid_name *fw_guid_table_at(size_t i)
{
	pthread_once(&table_once, table_init);
	return i < NAME_COUNT ? &table[i] : NULL;
}
