/* Fuzz the DMAR decoder (see acpi-fuzz.h for the input layout). */
#include "acpi-fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	return fw_fuzz_acpi_table("DMAR", data, size);
}
