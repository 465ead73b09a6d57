/* Fuzz target: the brotli decompressor. */
#define FUZZ_ALGO FW_ALGO_BROTLI
#include "decompress-target.h"
