/* Profile names shared by doctor and plan (profile-names.h). */
#include "profile-names.h"

#include <stdio.h>
#include <string.h>

#include "parsers/nearest.h"

#include "doctor.h"

static const struct {
	const char *name, *old;
	unsigned mask;
} names[] = {
	{"snp-host", "sev-snp-host", FW_PROFILE_SNP},
	{"vfio-host", "vfio", FW_PROFILE_VFIO},
	{"p2p-host", "p2p", FW_PROFILE_P2P},
	{"security", NULL, FW_PROFILE_SECURITY},
	{"all", NULL, FW_PROFILE_ALL},
};

static int find(const char *given)
{
	for (size_t i = 0; given && i < sizeof(names) / sizeof(names[0]); i++)
		if (strcmp(given, names[i].name) == 0 || (names[i].old && strcmp(given, names[i].old) == 0))
			return (int)i;
	return -1;
}

const char *fw_profile_canonical(const char *given)
{
	int i = find(given);
	return i < 0 ? NULL : names[i].name;
}

bool fw_profile_mask(const char *given, unsigned *mask)
{
	int i = find(given);
	if (i >= 0)
		*mask = names[i].mask;
	return i >= 0;
}

const char *fw_profile_names_csv(void)
{
	return "snp-host,vfio-host,p2p-host,security,all";
}

const char *fw_profile_hint(const char *word, char *buf, size_t len)
{
	char near[32];
	const char *n = word ? fw_nearest_csv(word, "snp-host,vfio-host,p2p-host,security,all,sev-snp-host,vfio,p2p", near,
					      sizeof(near))
			     : NULL;
	if (!n || !fw_profile_canonical(n))
		return "";
	snprintf(buf, len, "; did you mean '%s'?", fw_profile_canonical(n));
	return buf;
}
