/* Fuzz the table walker: any bytes as an input set (binary tables, concatenated tables or
 * acpidump text, else a firmware image whose sections are scanned for tables), decoded and
 * cross-checked, then joined into a topology without DSL. */
#include <stdint.h>
#include <stdlib.h>

#include "acpi/set.h"
#include "acpi/topo.h"

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
		struct fw_acpi_topo *t;
		if (fw_acpi_topo_build_dsl(s, NULL, NULL, NULL, 0, NULL, &t, &err))
			fw_acpi_topo_free(t);
	}
	fw_acpi_set_free(s);
	return 0;
}
