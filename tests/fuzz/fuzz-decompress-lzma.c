/* Fuzz target: the lzma decompressor. */
#define FUZZ_ALGO FW_ALGO_LZMA
#include "decompress-target.h"
