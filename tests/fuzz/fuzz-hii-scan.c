/* Fuzz HII package discovery, pairing, the settings model and value binding on any blob. */
#include <stdint.h>
#include <string.h>

#include "ifr/hii.h"
#include "ifr/settings.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fw_hii_input in;
	struct fw_hii_options o = {.lang = "fr-FR", .keep_string_only = true};
	if (!fw_hii_open_buffer(data, size, &o, &in, NULL))
		return 0;
	struct fw_settings s;
	fw_settings_build(&in.db, NULL, &s);
	/* bind every varstore to the input itself, so values and conditions are exercised */
	struct fw_variable vars[64];
	struct fw_variable *items[64];
	size_t n = 0;
	for (uint32_t i = 0; i < s.n && n < 64; i++) {
		if (!s.items[i].varstore_name || !s.items[i].vs)
			continue;
		vars[n] = (struct fw_variable){.name = s.items[i].varstore_name, .guid = s.items[i].vs->guid,
					       .data = data, .size = size, .state = FW_VAR_STATE_VALID, .store = "fuzz"};
		items[n] = &vars[n];
		n++;
	}
	struct fw_varlist vl = {items, n, n};
	fw_settings_bind(&s, &vl);
	for (uint32_t i = 0; i < s.nfsets; i++) {
		const struct fw_hii_form_pkg *fp = fw_settings_formset_at(&s, i);
		for (uint32_t k = 0; k < fp->fs.nitems; k++) {
			struct fw_setting st;
			fw_settings_describe(&s, fp, fp->fs.items[k], &st);
		}
	}
	fw_settings_free(&s);
	fw_hii_close(&in);
	return 0;
}
