/* Shared by the ACPI fuzz targets.
 *
 * fw_fuzz_acpi_table: the input's first byte is the revision, the rest the table body after a
 * 36-byte header with the target's signature and a correct checksum; the table goes through the
 * set (decode, cross-checks) like any input. fw_fuzz_acpi_writers then runs everything
 * `fwlens acpi` prints from a set: JSON, text and XML, and the root-bridge topology without DSL
 * with its JSON and text. */
#ifndef FW_FUZZ_ACPI_H
#define FW_FUZZ_ACPI_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "acpi/set.h"
#include "acpi/topo.h"
#include "fuzz-cli.h"
#include "tools/cli/acpi-write.h"

static inline void fw_fuzz_acpi_topo_writers(const struct fw_acpi_topo *topo)
{
	json_t *doc = fw_acpi_json_topo(topo);
	char *text = json_dumps(doc, JSON_COMPACT | JSON_PRESERVE_ORDER);
	free(text);
	json_decref(doc);
	fw_acpi_text_topo(fw_fuzz_cli("text"), topo);
}

static inline void fw_fuzz_acpi_writers(struct fw_acpi_set *s)
{
	json_t *doc = fw_acpi_json_set(s, NULL);
	char *text = json_dumps(doc, JSON_COMPACT | JSON_PRESERVE_ORDER);
	free(text);
	fw_cli_print_json_as_xml(fw_fuzz_cli("xml"), doc, "acpi");
	fw_acpi_text_set(fw_fuzz_cli("text"), s, NULL);
	struct fw_acpi_topo *topo;
	struct fw_error err;
	if (fw_acpi_topo_build_dsl(s, NULL, NULL, NULL, 0, NULL, &topo, &err)) {
		fw_fuzz_acpi_topo_writers(topo);
		fw_acpi_topo_free(topo);
	}
}

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
	if (fw_acpi_set_add_table(s, t, n, 0, 0, "fuzz", &err)) {
		fw_acpi_set_finish(s);
		fw_fuzz_acpi_writers(s);
	}
	fw_acpi_set_free(s);
	free(t);
	return 0;
}

#endif
