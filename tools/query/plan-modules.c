/* Choosing among the modules of a multi-family image: AMD builds one CBS module per CPU
 * generation into an image that boots several (the WRX90E's CbsSetupDxeSTP for Threadripper 7000,
 * Zen 4, and CbsSetupDxeSHP for Threadripper 9000, Zen 5), each with its own varstore
 * (AmdSetupSTP, AmdSetupSHP) and the same prompts. Only the module of the CPU that boots runs. */
#include "plan.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>


/* AGESA family codes (reference/domain.md): ZP Naples, SSP Rome, GN Milan, RS Genoa/Bergamo,
 * STP Threadripper 7000, BRH Turin, SHP Threadripper 9000. */
static const struct {
	const char *code, *gen;
} codes[] = {{"ZP", "Zen/Zen+"}, {"SSP", "Zen 2"}, {"GN", "Zen 3"}, {"RS", "Zen 4"},
	     {"STP", "Zen 4"},     {"BRH", "Zen 5"},  {"SHP", "Zen 5"}};

const char *fw_module_generation(const char *name)
{
	static const char *const stems[] = {"CbsSetupDxe", "AmdSetup"};
	for (size_t s = 0; name && s < 2; s++) {
		size_t k = strlen(stems[s]);
		if (strncmp(name, stems[s], k) != 0)
			continue;
		for (size_t i = 0; i < sizeof(codes) / sizeof(codes[0]); i++)
			if (strcmp(name + k, codes[i].code) == 0)
				return codes[i].gen;
	}
	return NULL;
}

static const char *gen_of(const struct fw_setting *st)
{
	const char *g = fw_module_generation(st->fp->module->name);
	return g ? g : fw_module_generation(st->varstore_name);
}

/* The variables hold the setting's varstore (by name and GUID). */
static bool held(struct fw_plan *p, const struct fw_setting *st)
{
	if (st->var)
		return true;
	const struct fw_varlist *vl = fw_source_vars(p->src);
	for (size_t i = 0; st->varstore_name && i < vl->count; i++) {
		const struct fw_variable *v = vl->items[i];
		if (v->name && strcmp(v->name, st->varstore_name) == 0 && (!st->vs || memcmp(&v->guid, &st->vs->guid, sizeof(v->guid)) == 0))
			return true;
	}
	return false;
}

/* Keep found[i] where keep[i]; returns how many are left. */
static size_t narrow(const struct fw_setting **found, size_t n, const bool *keep)
{
	size_t m = 0;
	for (size_t i = 0; i < n; i++)
		if (keep[i])
			found[m++] = found[i];
	return m;
}

size_t fw_plan_pick_module(struct fw_plan *p, const char *setting, const struct fw_setting **found, size_t n,
			   bool *per_generation)
{
	*per_generation = false;
	/* only settings of distinct per-generation modules are copies of one another */
	for (size_t i = 0; i < n; i++) {
		if (!gen_of(found[i]))
			return n;
		for (size_t k = 0; k < i; k++)
			if (found[k]->fp->module == found[i]->fp->module)
				return n;
	}
	bool keep[64];
	if (n > 64)
		return n;
	*per_generation = true;
	char mods[256] = "";
	for (size_t i = 0; i < n; i++)
		snprintf(mods + strlen(mods), sizeof(mods) - strlen(mods), "%s%s (%s)", i ? ", " : "",
			 found[i]->fp->module->name, gen_of(found[i]));
	/* the machine's CPU */
	if (!p->cpu_read) {
		p->cpu_read = 1;
		if (p->src->kind == FW_SOURCE_MACHINE)
			fw_cpu_gen_read(p->src->machine, &p->cpu);
	}
	if (p->cpu.gen) {
		size_t m = 0;
		for (size_t i = 0; i < n; i++)
			m += keep[i] = strcmp(gen_of(found[i]), p->cpu.gen) == 0;
		if (m == 1) {
			n = narrow(found, n, keep);
			fw_plan_note(p, "modules for several CPU generations have \"%s\": %s; %s planned: it matches the machine's CPU "
			       "(family %02Xh model %02Xh, %s: proc/cpuinfo)", setting, mods, found[0]->fp->module->name,
			    p->cpu.family, p->cpu.model, p->cpu.gen);
			return n;
		}
	}
	/* the variables: the module whose varstore they hold */
	size_t m = 0;
	for (size_t i = 0; i < n; i++)
		m += keep[i] = held(p, found[i]);
	if (m == 1) {
		n = narrow(found, n, keep);
		fw_plan_note(p, "modules for several CPU generations have \"%s\": %s; %s planned: its varstore %s is the one the "
		       "variables (%s) hold", setting, mods, found[0]->fp->module->name, found[0]->varstore_name,
		    p->current_source ? p->current_source : "?");
		return n;
	}
	const char *cpu = p->cpu.known ? (p->cpu.gen ? "matches none of them" : "is of no generation fwlens knows")
					  : "is not known (no machine)";
	fw_plan_note(p, "modules for several CPU generations have \"%s\": %s; the CPU %s and the variables (%s) hold %s of their "
	       "varstores: a profile goal is planned in each, labelled with its module (--module picks one)", setting, mods, cpu,
	    p->current_source ? p->current_source : "?", m ? "all" : "none");
	return n;
}
