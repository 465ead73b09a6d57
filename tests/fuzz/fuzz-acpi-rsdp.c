/* Fuzz the RSDP decoder: the input follows the 8-byte signature "RSD PTR "; the structure goes
 * into a set like a table of its own, then through every writer. */
#include "acpi-fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size > 4096)
		return 0;
	uint8_t *p = malloc(8 + size);
	if (!p)
		return 0;
	memcpy(p, "RSD PTR ", 8);
	memcpy(p + 8, data, size);
	struct fw_acpi_set *s = fw_acpi_set_new();
	struct fw_error err;
	if (fw_acpi_set_add_table(s, p, 8 + size, 0, 0, "fuzz", &err)) {
		fw_acpi_set_finish(s);
		fw_fuzz_acpi_writers(s);
	}
	fw_acpi_set_free(s);
	free(p);
	return 0;
}
