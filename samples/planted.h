/* The list of differences planted between the two sample BIOS versions, written to
 * planted-changes.json: what a diff of the two capsules must find. */
#ifndef SAMPLES_PLANTED_H
#define SAMPLES_PLANTED_H

#include <stdbool.h>

void plant_setting(const char *module, const char *change, const char *prompt, const char *path, const char *what);
/* Whether a setting change of this kind was planted for this prompt. */
bool plant_has(const char *change, const char *prompt);
void plant_module(const char *change, const char *name, const char *guid, const char *what);
void plant_varstore(const char *name, const char *guid, const char *what);
void plant_version(const char *key, const char *old_value, const char *new_value);
void plant_write(const char *rel);
void plant_free(void);

#endif
