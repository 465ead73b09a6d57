/* Fuzz HII package discovery, pairing, the settings model and value binding on any blob (a
 * firmware image is opened through its tree), then what `fwlens ifr` and `fwlens settings`
 * print (formset JSON, IFRExtractor-RS lines, question JSON with current values) and the query
 * layer's topic rules matched against every setting. */
#include <stdint.h>
#include <string.h>

#include "fuzz-cli.h"
#include "ifr/hii.h"
#include "ifr/settings.h"
#include "tools/cli/ifr-writers.h"
#include "tools/query/topics.h"

static void match_topics(const struct fw_setting *st)
{
	static struct fw_topics topics;
	static int loaded;
	if (!loaded)
		loaded = fw_topics_load(NULL, &topics, NULL) ? 1 : -1; /* the rules compiled in */
	if (loaded < 0)
		return;
	const char *opts[64];
	size_t n = 0;
	for (uint32_t i = 0; i < st->noptions && n < 64; i++)
		if (st->options[i].text)
			opts[n++] = st->options[i].text;
	struct fw_topic_subject subj = {st->prompt, fw_setting_help(st), st->npaths ? st->paths[0] : NULL, st->varstore_name,
					opts, n};
	for (size_t i = 0; i < topics.count; i++)
		(void)fw_topic_match(&topics.topics[i], &subj);
}

static void json_sink(json_t *doc)
{
	char *text = json_dumps(doc, JSON_COMPACT | JSON_PRESERVE_ORDER);
	free(text);
	json_decref(doc);
}

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
		json_sink(fw_ifr_json_formset(&s, fp));
		fw_ifrx_write(fw_fuzz_sink(), fp);
	}
	for (uint32_t i = 0; i < s.n; i++) {
		json_sink(fw_ifr_json_question(&s.items[i], true));
		match_topics(&s.items[i]);
	}
	fw_settings_free(&s);
	fw_hii_close(&in);
	return 0;
}
