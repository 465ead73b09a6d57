/* Fuzz target: the gzip decompressor. */
#define FUZZ_ALGO FW_ALGO_GZIP
#include "decompress-target.h"
