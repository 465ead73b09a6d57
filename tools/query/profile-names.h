/* The profile names doctor and plan share: one name per profile, the names older releases used
 * still accepted (sev-snp-host, vfio, p2p), and the list usage errors and help texts show.
 *
 * To add a profile: its row in `names[]` (profile-names.c) with its doctor check mask; for plan,
 * its <profile> of goals in rules/topics.xml under the same name. */
#ifndef FW_PROFILE_NAMES_H
#define FW_PROFILE_NAMES_H

#include <stdbool.h>
#include <stddef.h>

/* The profile's name for `given` (a name or an older one), or NULL when it names none. */
const char *fw_profile_canonical(const char *given);
/* The doctor checks of a profile (FW_PROFILE_* of doctor.h); false for an unknown name. */
bool fw_profile_mask(const char *given, unsigned *mask);
/* "snp-host,vfio-host,p2p-host,security,all", for completion and nearest-name hints. */
const char *fw_profile_names_csv(void);
/* "; did you mean 'vfio-host'?" for a mistyped profile name near a name or an older one (the
 * hint names the current one), or "". */
const char *fw_profile_hint(const char *word, char *buf, size_t len);

#endif
