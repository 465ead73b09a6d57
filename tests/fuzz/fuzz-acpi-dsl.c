/* Fuzz the DSL root-bridge reader: the input is iasl-style ASL text, reduced to root bridges and
 * joined with an empty table set, then the topology's JSON and text writers. */
#include "acpi-fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size > (1u << 20))
		return 0;
	struct fw_acpi_set *s = fw_acpi_set_new();
	const char *texts[1] = {(const char *)data};
	size_t lens[1] = {size};
	const char *names[1] = {"DSDT"};
	struct fw_acpi_topo *t;
	struct fw_error err;
	if (fw_acpi_topo_build_dsl(s, texts, lens, names, 1, NULL, &t, &err)) {
		fw_fuzz_acpi_topo_writers(t);
		fw_acpi_topo_free(t);
	}
	fw_acpi_set_free(s);
	return 0;
}
