/* Fuzz target: capsule headers (EFI, FMP, Aptio with RSA, PKCS#7 and manifest certificates, ROM
 * area maps) and the signature check over whatever they describe, then the tree writers. */
#include <stddef.h>
#include <stdint.h>

#include "capsule/capsule.h"
#include "capsule/signature.h"
#include "fuzz-cli.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fw_view v = fw_view_make(data, size, 0), payload;
	struct fw_error err;
	if (!fw_capsule_probe(&v))
		return 0;
	struct fw_tree *t = fw_tree_new(NULL);
	struct fw_node *n = fw_capsule_parse(t, NULL, &v, &payload, &err);
	if (n) {
		struct fw_verify_report r;
		if (fw_capsule_verify(fw_capsule_of(n), NULL, &r, &err))
			fw_verify_report_free(&r);
		fw_fuzz_tree_writers(t, "capsule");
	}
	fw_tree_free(t);
	return 0;
}
