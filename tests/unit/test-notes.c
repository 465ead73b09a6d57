/* The notes file keeps what its reader wrote between marked blocks when fwlens rewrites it. */
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "tools/query/notes.h"

static char *merge(const char *old, const char *fresh)
{
	size_t n;
	return fw_notes_keep_user_blocks(old, old ? strlen(old) : 0, fresh, strlen(fresh), &n);
}

TEST(notes_user_blocks_survive_regeneration)
{
	const char *fresh = "# v2\n\nnew table\n\n<!-- fwlens:keep decisions -->\nplaceholder\n<!-- fwlens:end decisions -->\n"
			    "tail\n<!-- fwlens:keep benchmarks -->\nplaceholder 2\n<!-- fwlens:end benchmarks -->\n";
	/* no old file: the fresh text as it is */
	char *out = merge(NULL, fresh);
	CHECK_STR(out, fresh);
	free(out);
	/* the old file's blocks replace the placeholders, the rest is fresh */
	const char *old = "# v1\n\nold table\n\n<!-- fwlens:keep decisions -->\nNCCL_P2P_DISABLE=1 kept; iommu=pt rejected.\n"
			  "<!-- fwlens:end decisions -->\n<!-- fwlens:keep tuning -->\nmy own block\n<!-- fwlens:end tuning -->\n";
	out = merge(old, fresh);
	CHECK_STR(out, "# v2\n\nnew table\n\n<!-- fwlens:keep decisions -->\nNCCL_P2P_DISABLE=1 kept; iommu=pt rejected.\n"
		       "<!-- fwlens:end decisions -->\ntail\n<!-- fwlens:keep benchmarks -->\nplaceholder 2\n"
		       "<!-- fwlens:end benchmarks -->\n\n<!-- fwlens:keep tuning -->\nmy own block\n<!-- fwlens:end tuning -->\n");
	free(out);
	/* an old block without its end marker is not taken (nothing half-copied) */
	out = merge("<!-- fwlens:keep decisions -->\nunterminated\n", fresh);
	CHECK_STR(out, fresh);
	free(out);
}
