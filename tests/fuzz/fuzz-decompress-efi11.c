/* Fuzz target: the efi11 decompressor. */
#define FUZZ_ALGO FW_ALGO_EFI11
#include "decompress-target.h"
