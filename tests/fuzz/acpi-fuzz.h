/* Shared body of the per-table ACPI fuzz targets: the input's first byte is the revision, the
 * rest the table body after a 36-byte header with the target's signature; the table goes through
 * the set (decode, cross-checks) like any input. */
#ifndef FW_FUZZ_ACPI_H
#define FW_FUZZ_ACPI_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "acpi/set.h"

static inline int fw_fuzz_acpi_table(const char *sig, const uint8_t *data, size_t size)
{
	if (size > (1u << 20))
		return 0;
	size_t n = FW_ACPI_HEADER_SIZE + (size ? size - 1 : 0);
	uint8_t *t = calloc(1, n);
	if (!t)
		return 0;
	memcpy(t, sig, 4);
	t[4] = (uint8_t)n, t[5] = (uint8_t)(n >> 8), t[6] = (uint8_t)(n >> 16), t[7] = (uint8_t)(n >> 24);
	t[8] = size ? data[0] : 1;
	memcpy(t + 10, "FUZZER", 6);
	if (size > 1)
		memcpy(t + FW_ACPI_HEADER_SIZE, data + 1, size - 1);
	fw_acpi_set_checksum(t, n);
	struct fw_acpi_set *s = fw_acpi_set_new();
	struct fw_error err;
	if (fw_acpi_set_add_table(s, t, n, 0, 0, "fuzz", &err))
		fw_acpi_set_finish(s);
	fw_acpi_set_free(s);
	free(t);
	return 0;
}

#endif
