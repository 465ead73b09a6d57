/* CPU family, model and Zen generation of a machine. */
#include "cpu-gen.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parsers/view.h"

/* AMD's model ranges per family (processor programming references and revision guides):
 * 17h 00-2Fh Zen/Zen+, 30h-AFh Zen 2; 19h 00-0Fh Milan, 20h-2Fh Vermeer, 40h-5Fh Rembrandt and
 * Cezanne (Zen 3), 10h-1Fh Genoa and Storm Peak, 60h-7Fh Raphael and Phoenix, A0h-AFh Bergamo
 * and Siena (Zen 4); 1Ah 00h-2Fh Turin, Shimada Peak and Strix, 40h-4Fh Granite Ridge, 60h-7Fh
 * Krackan (Zen 5). Other 1Ah models are left unnamed: later generations keep family 1Ah. */
static const struct {
	unsigned family, lo, hi;
	const char *gen;
} gens[] = {
	{0x17, 0x00, 0x2F, "Zen/Zen+"}, {0x17, 0x30, 0xAF, "Zen 2"}, {0x19, 0x00, 0x0F, "Zen 3"},
	{0x19, 0x20, 0x2F, "Zen 3"},    {0x19, 0x40, 0x5F, "Zen 3"}, {0x19, 0x10, 0x1F, "Zen 4"},
	{0x19, 0x60, 0x7F, "Zen 4"},    {0x19, 0xA0, 0xAF, "Zen 4"}, {0x1A, 0x00, 0x2F, "Zen 5"},
	{0x1A, 0x40, 0x4F, "Zen 5"},    {0x1A, 0x60, 0x7F, "Zen 5"},
};

const char *fw_cpu_gen_name(unsigned family, unsigned model)
{
	for (size_t i = 0; i < sizeof(gens) / sizeof(gens[0]); i++)
		if (gens[i].family == family && model >= gens[i].lo && model <= gens[i].hi)
			return gens[i].gen;
	return NULL;
}

bool fw_cpu_read(struct fw_machine *m, uint32_t minimum, struct fw_cpu_gen *out)
{
	memset(out, 0, sizeof(*out));
	struct fw_blob b;
	if (!m || !fw_machine_read(m, "proc/cpuinfo", &b, NULL))
		return false;
	/* read in place, to its first NUL (a machine of 256 CPUs has some 7,000 lines: no copy of them) */
	const char *text = (const char *)b.data;
	size_t n = strnlen(text, b.len), at = 0, len;
	const char *l;
	bool have_model = false, first = true;
	while (fw_next_line(text, n, &at, &l, &len)) {
		char line[256];
		size_t c = len < 255 ? len : 255;
		memcpy(line, l, c);
		line[c] = '\0';
		for (char *p = line; *p; p++) /* as fw_machine_read_text: control characters are spaces */
			if ((unsigned char)*p < 0x20 && *p != '\t')
				*p = ' ';
		char *colon = strchr(line, ':');
		if (!colon)
			continue;
		const char *v = colon + 1 + strspn(colon + 1, " \t");
		size_t k = strcspn(line, "\t:");
		while (k && line[k - 1] == ' ')
			k--;
#define KEY(name) (k == sizeof(name) - 1 && strncmp(line, name, k) == 0)
		if (KEY("processor")) {
			first = out->count == 0;
			out->count++;
		} else if (KEY("microcode")) {
			uint32_t u = (uint32_t)strtoul(v, NULL, 16);
			if (!u)
				continue;
			if (!out->microcode_lowest || u < out->microcode_lowest)
				out->microcode_lowest = u;
			if (u > out->microcode_highest)
				out->microcode_highest = u;
			if (minimum && u < minimum)
				out->below++;
		} else if (!first) {
			continue; /* family, model and name are the first processor's */
		} else if (KEY("cpu family")) {
			out->family = (unsigned)strtoul(v, NULL, 10);
			out->known = true;
		} else if (KEY("model")) {
			out->model = (unsigned)strtoul(v, NULL, 10);
			have_model = true;
		} else if (KEY("model name")) {
			snprintf(out->model_name, sizeof(out->model_name), "%s", v);
		} else if (KEY("stepping")) {
			out->stepping = (unsigned)strtoul(v, NULL, 10);
		}
#undef KEY
	}
	if (out->known && have_model)
		out->gen = fw_cpu_gen_name(out->family, out->model);
	return out->known;
}

bool fw_cpu_gen_read(struct fw_machine *m, struct fw_cpu_gen *out)
{
	return fw_cpu_read(m, 0, out);
}
