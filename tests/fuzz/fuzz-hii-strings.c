/* Fuzz the string package decoder: the input is a package body; its header length is fixed up
 * so the SIBT walk, not the length check, gets the bytes. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ifr/hii-strings.h"
#include "ifr/ifr-opcodes.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 4 || size > 0xFFFFFF)
		return 0;
	uint8_t *p = malloc(size);
	memcpy(p, data, size);
	fw_put_le32(p, (uint32_t)size | ((uint32_t)FW_HII_PACKAGE_STRINGS << 24));
	struct fw_view v = fw_view_make(p, size, 0);
	struct fw_arena a;
	fw_arena_init(&a);
	struct fw_hii_strings s;
	if (fw_hii_strings_check(&v, NULL) && fw_hii_strings_parse(&a, &v, 4096, &s, NULL)) {
		for (uint32_t id = 0; id <= s.max_id + 1 && id <= 0xFFFF; id++)
			(void)fw_hii_strings_get(&s, (uint16_t)id);
	}
	fw_arena_free(&a);
	free(p);
	return 0;
}
