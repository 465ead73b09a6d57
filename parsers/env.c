/* The environment as the command line handed it down (see env.h). */
#include "env.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct fw_env current;

static const char *value(const char *s)
{
	return s && *s ? s : NULL;
}

void fw_env_set(const struct fw_env *e)
{
	current.threads = value(e->threads);
	current.iasl = value(e->iasl);
	current.tmpdir = value(e->tmpdir);
	current.source_date_epoch = value(e->source_date_epoch);
	current.rules = value(e->rules);
	current.limits = value(e->limits);
	current.pci_ids = value(e->pci_ids);
}

const struct fw_env *fw_env(void)
{
	return &current;
}

static const char *const limit_names[] = {"inflate-total", "snapshot-members", "snapshot-bytes", "snapshot-member", NULL};

/* One "NAME=N" item of spec[0..n): its name length and value; false when malformed. */
static bool limit_item(const char *s, size_t n, size_t *name_len, uint64_t *v)
{
	const char *eq = memchr(s, '=', n);
	if (!eq || eq == s)
		return false;
	*name_len = (size_t)(eq - s);
	const char *p = eq + 1, *end = s + n;
	if (p == end || *p < '0' || *p > '9')
		return false;
	uint64_t x = 0;
	for (; p < end && *p >= '0' && *p <= '9'; p++) {
		if (x > (UINT64_MAX - 9) / 10)
			return false;
		x = x * 10 + (uint64_t)(*p - '0');
	}
	unsigned shift = 0;
	if (p < end) {
		shift = *p == 'K' || *p == 'k' ? 10 : *p == 'M' ? 20 : *p == 'G' ? 30 : 64;
		if (shift == 64 || p + 1 != end || x > (UINT64_MAX >> shift))
			return false;
	}
	*v = x << shift;
	return true;
}

bool fw_env_limits_valid(const char *spec, char *why, size_t whylen)
{
	for (const char *s = spec; s && *s;) {
		size_t n = strcspn(s, ","), name_len;
		uint64_t v;
		bool known = false;
		if (limit_item(s, n, &name_len, &v))
			for (size_t i = 0; limit_names[i]; i++)
				known |= strlen(limit_names[i]) == name_len && strncmp(limit_names[i], s, name_len) == 0;
		if (!known) {
			snprintf(why, whylen, "FWLENS_LIMITS: '%.*s' is not NAME=N with NAME one of inflate-total, snapshot-members, "
			         "snapshot-bytes, snapshot-member", (int)(n > 80 ? 80 : n), s);
			return false;
		}
		s += n + (s[n] == ',');
	}
	return true;
}

uint64_t fw_env_limit(const char *name, uint64_t dflt)
{
	uint64_t out = dflt;
	size_t want = strlen(name);
	for (const char *s = current.limits; s && *s;) {
		size_t n = strcspn(s, ","), name_len;
		uint64_t v;
		if (limit_item(s, n, &name_len, &v) && name_len == want && strncmp(s, name, want) == 0 && v < out)
			out = v;
		s += n + (s[n] == ',');
	}
	return out;
}
