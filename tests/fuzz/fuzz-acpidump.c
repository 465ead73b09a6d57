/* Fuzz the acpidump text reader. */
#include <stdint.h>

#include "parsers/acpidump.h"

static bool count(void *ctx, const char sig[5], uint64_t address, const uint8_t *bytes, size_t n, unsigned line,
		  struct fw_error *err)
{
	(void)sig, (void)address, (void)line, (void)err;
	size_t *total = ctx;
	for (size_t i = 0; i < n; i++)
		*total += bytes[i];
	return true;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	size_t total = 0;
	struct fw_error err;
	(void)fw_acpidump_detect(data, size);
	(void)fw_acpidump_parse((const char *)data, size, count, &total, &err);
	return 0;
}
