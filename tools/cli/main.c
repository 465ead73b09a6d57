#include <libxml/parser.h>
#include <stdio.h>
#include <stdlib.h>

#include "cli.h"
#include "parsers/env.h"

int main(int argc, char **argv)
{
	/* The one place the libraries' environment is read; they get it from fw_env(). */
	struct fw_env env = {
		.threads = getenv("FWLENS_THREADS"),
		.iasl = getenv("FWLENS_IASL"),
		.tmpdir = getenv("TMPDIR"),
		.source_date_epoch = getenv("SOURCE_DATE_EPOCH"),
		.rules = getenv("FWLENS_RULES"),
		.limits = getenv("FWLENS_LIMITS"),
		.pci_ids = getenv("FWLENS_PCI_IDS"),
	};
	fw_env_set(&env);
	char why[160];
	if (!fw_env_limits_valid(fw_env()->limits, why, sizeof(why))) {
		fprintf(stderr, "fwlens: error: %s\n", why);
		return FW_EXIT_USAGE;
	}
	int rc = fw_cli_main(argc, argv);
	xmlCleanupParser(); /* nothing when no XML was parsed or written (tools/query/xml-init.c) */
	return rc;
}
