/* Fuzz cache entries (tools/query/cache.h) as a damaged or hostile cache folder could hold them:
 * the input is an entry without its trailing MAC (the target appends the right one for a fixed
 * key, so the fuzzer reaches past it) and its keys (image and rules) are whatever 64 + 64 bytes stand where
 * the keys belong. An entry that parses is turned back into an HII database, whose decoding must
 * hold too. */
#include <stdlib.h>
#include <string.h>

#include "tools/query/cache.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size > (8u << 20))
		return 0;
	uint8_t *entry = malloc(size + FW_SHA256_LEN);
	if (!entry)
		return 0;
	static const uint8_t key[FW_CACHE_KEY_LEN] = "fuzz-cache-entry key, 32 bytes!";
	memcpy(entry, data, size);
	fw_cache_mac(key, data, size, entry + size);
	/* magic, format, the version string's length and text, then the keys */
	char ikey[65] = "0000000000000000000000000000000000000000000000000000000000000000";
	char rules[65] = "0000000000000000000000000000000000000000000000000000000000000000";
	size_t at = 8 + 4 + 4 + strlen(FWLENS_VERSION);
	for (size_t i = 0; i < 64 && at + i < size; i++)
		ikey[i] = (char)(data[at + i] ? data[at + i] : '0');
	for (size_t i = 0; i < 64 && at + 64 + i < size; i++)
		rules[i] = (char)(data[at + 64 + i] ? data[at + 64 + i] : '0');
	struct fw_cache_entry e;
	char why[256];
	if (fw_cache_entry_parse(entry, size + FW_SHA256_LEN, ikey, rules, key, &e, why, sizeof(why))) {
		struct fw_hii_db db;
		struct fw_error err;
		fw_hii_db_init(&db, NULL);
		fw_cache_entry_hii(&e, &db, &err);
		fw_hii_db_free(&db);
		fw_cache_entry_free(&e);
	}
	free(entry);
	return 0;
}
