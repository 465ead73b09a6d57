/* Fuzz target: the lzmaf86 decompressor. */
#define FUZZ_ALGO FW_ALGO_LZMA_F86
#include "decompress-target.h"
