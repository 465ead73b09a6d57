/* Fuzz the snapshot loader (tar members, gzip members, the manifest's links and nodes) and the
 * readers that run on a loaded snapshot: host facts, listing, link resolution. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "tools/host/host.h"
#include "tools/host/machine.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fw_machine *m;
	if (!fw_snapshot_load_buffer(data, size, "fuzz.fwsnap", &m, NULL))
		return 0;
	struct fw_host h;
	if (fw_host_load(m, &h, NULL))
		fw_host_free(&h);
	struct fw_strlist l;
	if (fw_machine_list(m, "sys/firmware/acpi/tables", &l)) {
		for (size_t i = 0; i < l.count; i++) {
			char rel[1024];
			struct fw_blob b;
			snprintf(rel, sizeof(rel), "sys/firmware/acpi/tables/%s", l.items[i]);
			fw_machine_read(m, rel, &b, NULL);
			fw_machine_link(m, rel);
		}
		fw_strlist_free(&l);
	}
	fw_machine_close(m);
	return 0;
}
