/* Fuzz target: the zlib-amd decompressor. */
#define FUZZ_ALGO FW_ALGO_ZLIB_AMD
#include "decompress-target.h"
