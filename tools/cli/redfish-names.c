/* Matching the settings of the forms to a BMC's BIOS attributes. BMCs name the same setting
 * differently: AMI MegaRAC publishes the forms' x-UEFI keywords as they are; others drop the
 * AGESA family suffix the keyword ends in and spell enumeration values as the name plus the
 * option text; others still make a name of the prompt and a hex number (Supermicro:
 * "QuietBoot_0027"). The registry the BMC serves (DMTF AttributeRegistry) is the authority: a
 * name is taken from it, never made up. */
#include "redfish-names.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* Letters and digits only, lower case: "SEV-ES ASID Space Limit" -> "sevesasidspacelimit". */
static const char *squash(const char *s, char *buf, size_t len)
{
	size_t k = 0;
	for (; s && *s && k + 1 < len; s++)
		if (isalnum((unsigned char)*s))
			buf[k++] = (char)tolower((unsigned char)*s);
	buf[k] = '\0';
	return buf;
}

static const char *str(const json_t *o, const char *key)
{
	return json_string_value(json_object_get(o, key));
}

/* The keyword without a trailing AGESA family code ("CbsCmnCpuSmeeBRH" -> "CbsCmnCpuSmee"). */
static bool drop_generation(const char *kw, char *buf, size_t len)
{
	static const char *const codes[] = {"SSP", "STP", "BRH", "SHP", "ZP", "GN", "RS"};
	size_t n = kw ? strlen(kw) : 0;
	for (size_t i = 0; i < sizeof(codes) / sizeof(codes[0]); i++) {
		size_t c = strlen(codes[i]);
		if (n > c + 1 && n - c < len && strcmp(kw + n - c, codes[i]) == 0) {
			memcpy(buf, kw, n - c);
			buf[n - c] = '\0';
			return true;
		}
	}
	return false;
}

/* The registry's MenuPath ("./Advanced/AMD CBS/CPU Common Options") and the setting's menu path
 * ("Setup > Advanced > AMD CBS > CPU Common Options") agree element by element from the end until
 * one of them ends: a BMC names the menu from the setup root (".") or from the formset. */
static bool menu_matches(const char *reg_path, const struct fw_setting *st)
{
	if (!reg_path || !st->npath0)
		return false;
	const char *end = reg_path + strlen(reg_path);
	for (uint32_t i = st->npath0; i-- > 0;) {
		const char *slash = end;
		while (slash > reg_path && slash[-1] != '/')
			slash--;
		char a[256], b[256];
		char elem[256];
		snprintf(elem, sizeof(elem), "%.*s", (int)(end - slash), slash);
		if (strcmp(elem, ".") == 0)
			return i + 1 < st->npath0; /* the registry's root, after at least one element agreed */
		if (strcmp(squash(elem, a, sizeof(a)), squash(st->path0[i], b, sizeof(b))) != 0)
			return false;
		if (slash == reg_path)
			return true;
		end = slash - 1;
	}
	return true;
}

/* "SMEE#0015", "QuietBoot_0027": the stem and the hex number after the last '#' or '_'. */
static bool split_numbered(const char *name, char *stem, size_t len, unsigned long *num)
{
	const char *sep = strrchr(name, '#');
	if (!sep)
		sep = strrchr(name, '_');
	if (!sep || sep == name || (size_t)(sep - name) >= len || strlen(sep + 1) < 2 || strlen(sep + 1) > 8)
		return false;
	for (const char *c = sep + 1; *c; c++)
		if (!isxdigit((unsigned char)*c))
			return false;
	memcpy(stem, name, (size_t)(sep - name));
	stem[sep - name] = '\0';
	*num = strtoul(sep + 1, NULL, 16);
	return true;
}

const json_t *fw_redfish_find_attribute(const json_t *reg, const struct fw_setting *st, char *how, size_t len)
{
	const json_t *attrs = json_object_get(json_object_get(reg, "RegistryEntries"), "Attributes");
	size_t i;
	const json_t *a, *hit = NULL;
	char stem[256], x[256], y[256];
	/* 1: the keyword itself; 2: without its generation suffix */
	for (int rule = 0; rule < 2; rule++) {
		const char *want = rule == 0 ? st->keyword : drop_generation(st->keyword, stem, sizeof(stem)) ? stem : NULL;
		if (!want)
			continue;
		json_array_foreach(attrs, i, a)
		{
			const char *n = str(a, "AttributeName");
			if (n && strcmp(n, want) == 0) {
				snprintf(how, len, rule == 0 ? "by its x-UEFI keyword %s" : "by its x-UEFI keyword without the "
											"CPU-generation suffix, %s", want);
				return a;
			}
		}
	}
	/* 3: display name, the menu path deciding among several; an attribute named as the keyword of
	 * another CPU generation's module is that module's setting, not this one */
	size_t named = 0, in_menu = 0;
	const json_t *menu_hit = NULL, *other_gen = NULL;
	char mine[256] = "", theirs[256];
	bool have_mine = drop_generation(st->keyword, mine, sizeof(mine));
	json_array_foreach(attrs, i, a)
	{
		if (strcmp(squash(str(a, "DisplayName"), x, sizeof(x)), squash(st->prompt, y, sizeof(y))) != 0 || !x[0])
			continue;
		if (have_mine && drop_generation(str(a, "AttributeName"), theirs, sizeof(theirs)) && strcmp(theirs, mine) == 0) {
			other_gen = a;
			continue;
		}
		named++;
		hit = a;
		if (menu_matches(str(a, "MenuPath"), st)) {
			in_menu++;
			menu_hit = a;
		}
	}
	if (in_menu == 1 || (named == 1 && in_menu == 0 && !st->npath0)) {
		snprintf(how, len, "by its display name \"%s\" and menu path %s", st->prompt,
			 in_menu ? str(menu_hit, "MenuPath") : "(none)");
		return in_menu ? menu_hit : hit;
	}
	const json_t *by_name = named == 1 ? hit : NULL;
	/* 4: prompt + '#' or '_' + the question id or the byte offset in hex */
	uint32_t off = st->q->bit_field ? st->q->bit_offset / 8 : st->q->var_info;
	hit = NULL;
	size_t numbered = 0;
	json_array_foreach(attrs, i, a)
	{
		unsigned long num;
		const char *n = str(a, "AttributeName");
		if (!n || !split_numbered(n, stem, sizeof(stem), &num))
			continue;
		if (strcmp(squash(stem, x, sizeof(x)), squash(st->prompt, y, sizeof(y))) != 0 || !x[0])
			continue;
		if (num == st->q->question_id || num == off) {
			numbered++;
			hit = a;
			snprintf(how, len, "by its prompt and %s 0x%lX in the name %s", num == st->q->question_id ? "question id" : "offset",
				 num, n);
		}
	}
	if (numbered == 1)
		return hit;
	/* 5: the one attribute with its display name, in another menu */
	if (by_name) {
		snprintf(how, len, "by its display name \"%s\" alone (the registry's menu path %s is not the forms' %s)",
			 st->prompt, str(by_name, "MenuPath") ? str(by_name, "MenuPath") : "(none)", st->npaths ? st->paths[0] : "(none)");
		return by_name;
	}
	if (named > 1 || numbered > 1)
		snprintf(how, len, "%zu attributes have the display name \"%s\" and none of them the menu path %s",
			 named > 1 ? named : numbered, st->prompt, st->npaths ? st->paths[0] : "(none)");
	else if (other_gen)
		snprintf(how, len, "no attribute named %s; %s has its display name but is the keyword of another CPU "
				   "generation's module (a registry of another BIOS?)", st->keyword, str(other_gen, "AttributeName"));
	else
		snprintf(how, len, "no attribute named %s%s%s, displayed as \"%s\" or numbered 0x%X/0x%X", st->keyword ? st->keyword : "",
			 drop_generation(st->keyword, stem, sizeof(stem)) ? " or " : "", drop_generation(st->keyword, stem, sizeof(stem)) ? stem : "",
			 st->prompt, st->q->question_id, off);
	return NULL;
}

/* "Enabled", "on", "1" (on) or "Disabled", "off", "0" (off): the text is one of `words`. */
static bool word_in(const char *t, const char *const *words)
{
	char b[64];
	squash(t, b, sizeof(b));
	for (size_t i = 0; words[i]; i++)
		if (strcmp(b, words[i]) == 0)
			return true;
	return false;
}

static const char *const on_words[] = {"enabled", "enable", "on", "true", "yes", "1", NULL};
static const char *const off_words[] = {"disabled", "disable", "off", "false", "no", "0", NULL};

json_t *fw_redfish_map_value(const json_t *attr, const struct fw_setting *st, const char *text, bool is_number,
			     long long number, char *why, size_t len)
{
	const char *type = str(attr, "Type"), *name = str(attr, "AttributeName");
	if (type && strcmp(type, "Integer") == 0) {
		if (!is_number) {
			snprintf(why, len, "an Integer attribute, and \"%s\" is not a number", text);
			return NULL;
		}
		const json_t *lo = json_object_get(attr, "LowerBound"), *hi = json_object_get(attr, "UpperBound");
		if ((json_is_integer(lo) && number < json_integer_value(lo)) || (json_is_integer(hi) && number > json_integer_value(hi))) {
			snprintf(why, len, "%lld is outside the registry's bounds", number);
			return NULL;
		}
		return json_integer(number);
	}
	if (type && strcmp(type, "Boolean") == 0) {
		if (word_in(text, on_words) || word_in(text, off_words))
			return json_boolean(word_in(text, on_words));
		snprintf(why, len, "a Boolean attribute, and \"%s\" is neither on nor off", text);
		return NULL;
	}
	if (type && strcmp(type, "Enumeration") == 0) {
		char t[256], v[256], full[512], alt[512], stem[256];
		squash(text, t, sizeof(t));
		/* the value as the name plus the option text: of the attribute, or of the keyword without its suffix */
		snprintf(full, sizeof(full), "%s%s", squash(name, v, sizeof(v)), t);
		snprintf(alt, sizeof(alt), "%s%s", drop_generation(st->keyword, stem, sizeof(stem)) ? squash(stem, v, sizeof(v)) : "", t);
		size_t i;
		const json_t *e;
		for (int pass = 0; pass < 2; pass++)
			json_array_foreach(json_object_get(attr, "Value"), i, e)
			{
				const char *vn = str(e, "ValueName"), *dn = str(e, "ValueDisplayName");
				squash(vn, v, sizeof(v));
				bool hit = pass == 0 ? (vn && strcasecmp(vn, text) == 0) || (dn && strcasecmp(dn, text) == 0)
						     : strcmp(v, full) == 0 || (alt[0] && strcmp(v, alt) == 0 && strlen(alt) > strlen(t));
				if (hit && vn)
					return json_string(vn);
			}
		snprintf(why, len, "the registry has no value \"%s\" (nor one spelled as the name plus it)", text);
		return NULL;
	}
	snprintf(why, len, "the registry's type %s does not take this value", type ? type : "(none)");
	return NULL;
}
