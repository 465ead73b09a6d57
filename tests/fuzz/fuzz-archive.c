/* Fuzz vendor archive input (zip, 7z, tar plain or compressed, gzip) through libarchive with the
 * archive's limits: the member recognised as an image, then the one named by --member. */
#include <stdlib.h>
#include <string.h>

#include "capsule/recognise.h"
#include "parsers/archive.h"

/* A stand-in for the firmware recogniser: any member holding a volume signature. */
static bool holds_volume(const uint8_t *p, size_t n)
{
	return n >= 4 && memmem(p, n, "_FVH", 4) != NULL;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!fw_input_archive_probe(data, size))
		return 0;
	static const char *const choices[] = {NULL, "BIOS.CAP"};
	for (size_t k = 0; k < 2; k++) {
		fw_archive_choose_member(choices[k]);
		uint8_t *out;
		size_t len;
		char *member;
		struct fw_error err;
		if (fw_archive_extract(data, size, "fuzz.zip", holds_volume, &out, &len, &member, &err)) {
			free(out);
			free(member);
		}
	}
	fw_archive_choose_member(NULL);
	return 0;
}
