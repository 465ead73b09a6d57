/* Fuzz the table walker: any bytes as an input set (binary tables, concatenated tables or
 * acpidump text, else a firmware image whose sections are scanned for tables), decoded and
 * cross-checked, then every writer of `fwlens acpi` and the topology without DSL. */
#include "acpi-fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fw_acpi_set *s = fw_acpi_set_new();
	struct fw_error err;
	bool ok = fw_acpi_set_add_buffer(s, data, size, "fuzz", &err);
	if (!ok && s->ntables == 0)
		ok = fw_acpi_set_add_image_buffer(s, data, size, "fuzz", &err);
	if (ok) {
		fw_acpi_set_finish(s);
		fw_fuzz_acpi_writers(s);
	}
	fw_acpi_set_free(s);
	return 0;
}
