/* One libFuzzer target per decompressor: define FUZZ_ALGO and include this file. The output cap
 * is small so a fuzzer cannot spend its time on legitimately large outputs. */
#include <stdlib.h>

#include "parsers/decompress.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t *out = NULL;
	size_t len = 0;
	struct fw_inflate_info info;
	if (fw_decompress(FUZZ_ALGO, data, size, 4u << 20, &out, &len, &info, NULL)) {
		/* touch every output byte so a short buffer shows up under ASan */
		volatile uint8_t sum = 0;
		for (size_t i = 0; i < len; i++)
			sum ^= out[i];
		(void)sum;
		free(out);
	}
	return 0;
}
