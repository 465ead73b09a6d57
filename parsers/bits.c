/* Named bit fields. */
#include "bits.h"

#include <inttypes.h>
#include <stdio.h>

uint64_t fw_bitfields_unnamed(uint64_t value, const struct fw_bitfields *fields)
{
	for (size_t i = 0; i < fields->n; i++) {
		const struct fw_bitfield *f = &fields->v[i];
		uint64_t mask = f->width >= 64 ? ~(uint64_t)0 : (((uint64_t)1 << f->width) - 1);
		value &= ~(mask << f->lsb);
	}
	return value;
}

char *fw_bitfields_str(uint64_t value, const struct fw_bitfields *set, char *buf, size_t len)
{
	size_t used = 0;
	buf[0] = '\0';
	const struct fw_bitfield *fields = set->v;
	for (size_t i = 0; i < set->n; i++) {
		uint64_t v = fw_bitfield_get(value, &fields[i]);
		if (!v)
			continue;
		int w = fields[i].width == 1
				? snprintf(buf + used, len - used, "%s%s", used ? " " : "", fields[i].name)
				: snprintf(buf + used, len - used, "%s%s=%" PRIu64, used ? " " : "", fields[i].name, v);
		if (w < 0 || (size_t)w >= len - used)
			return buf;
		used += (size_t)w;
	}
	uint64_t rest = fw_bitfields_unnamed(value, set);
	if (rest)
		snprintf(buf + used, len - used, "%sreserved=0x%" PRIx64, used ? " " : "", rest);
	return buf;
}

size_t fw_bitfields_tokens(uint64_t value, const struct fw_bitfields *set, char *slots, size_t n, size_t width)
{
	size_t k = 0;
	for (size_t i = 0; i < set->n && k < n; i++) {
		const struct fw_bitfield *f = &set->v[i];
		uint64_t v = fw_bitfield_get(value, f);
		if (!v)
			continue;
		if (f->width == 1)
			snprintf(slots + k * width, width, "%s", f->name);
		else
			snprintf(slots + k * width, width, "%s=%" PRIu64, f->name, v);
		k++;
	}
	uint64_t rest = fw_bitfields_unnamed(value, set);
	if (rest && k < n)
		snprintf(slots + k++ * width, width, "reserved=0x%" PRIx64, rest);
	return k;
}

char *fw_flags_str(const struct fw_bitfields *set, uint64_t value, char *buf, size_t len)
{
	size_t used = 0;
	uint64_t rest = value;
	buf[0] = '\0';
	for (size_t i = 0; set && i < set->n; i++) {
		const struct fw_bitfield *f = &set->v[i];
		if (!fw_flag_set(value, f))
			continue;
		int w = snprintf(buf + used, len - used, "%s%s", used ? "|" : "", f->name);
		if (w < 0 || (size_t)w >= len - used)
			return buf;
		used += (size_t)w;
		rest &= ~((f->width >= 64 ? ~(uint64_t)0 : (((uint64_t)1 << f->width) - 1)) << f->lsb);
	}
	if (rest)
		snprintf(buf + used, len - used, "%s0x%" PRIx64, used ? "|" : "", rest);
	return buf;
}
