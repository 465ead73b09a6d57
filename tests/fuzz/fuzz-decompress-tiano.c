/* Fuzz target: the tiano decompressor. */
#define FUZZ_ALGO FW_ALGO_TIANO
#include "decompress-target.h"
