/* --p2p-evidence (p2p-evidence-option.h). */
#include "p2p-evidence-option.h"

#include "tools/host/p2p-proof.h"
#include "tools/query/source.h"

#define EVIDENCE_MAX 16

int fw_cli_p2p_evidence(struct fw_cli *cli, struct fw_source_options *so)
{
	static const char *paths[EVIDENCE_MAX + 1]; /* argv's strings, for the run of the one command */
	size_t n = fw_cli_opt_all(cli, "p2p-evidence", paths, EVIDENCE_MAX + 1);
	if (n > EVIDENCE_MAX)
		return fw_cli_usage_error(cli, "--p2p-evidence: at most %d files", EVIDENCE_MAX);
	for (size_t i = 0; i < n; i++) {
		struct fw_p2p_proof p;
		struct fw_error err;
		fw_error_clear(&err);
		bool ok = fw_p2p_load(paths[i], &p, &err);
		fw_p2p_free(&p);
		if (!ok)
			return fw_cli_fail(cli, &err);
	}
	so->p2p_evidence = paths;
	so->np2p_evidence = n;
	return 0;
}
