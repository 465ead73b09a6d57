/* The options of the commands that read machines through the cache of decoded firmware
 * (tools/query/cache.h): --cache-dir DIR, --cache-max SIZE, --no-cache, --image-dir DIR. The
 * environment ($XDG_CACHE_HOME, $HOME, $FWLENS_CACHE_MAX) is read here, once, and passed down. */
#ifndef FW_CACHE_OPTIONS_H
#define FW_CACHE_OPTIONS_H

#include "cli.h"
#include "tools/query/cache.h"
#include "tools/query/source.h"

/* Commands that need no more of an image than its forms, version facts and SHA-256 (doctor, query, find,
 * notes, plan). */
#define FW_CACHE_OPTIONS                                                                                             \
	{"cache-dir", 0, "DIR", "cache of decoded firmware (default $XDG_CACHE_HOME/fwlens, else ~/.cache/fwlens)",    \
	 NULL},                                                                                                        \
	{"cache-max", 0, "SIZE",                                                                                       \
	 "bound on the cache folder, e.g. 2G (default $FWLENS_CACHE_MAX, else 512M); entries used longest ago go first", \
	 NULL},                                                                                                        \
	{"no-cache", 0, NULL, "neither read nor write the cache of decoded firmware", NULL}, FW_IMAGE_DIR_OPTION
/* Every command that reads machines. */
#define FW_IMAGE_DIR_OPTION                                                                                          \
	{"image-dir", 0, "DIR", "where to find the images snapshots name by SHA-256 (capture --image-ref)", NULL}

/* Fill the cache and image-dir fields of `so` for the running command, as far as it takes the
 * options above; no cache with --no-cache. The cache lives until exit. Returns 0, or the usage
 * error's exit code for a size that is not one. */
int fw_cli_cache_setup(struct fw_cli *cli, struct fw_source_options *so);

#endif
