#!/bin/sh
# Two `make bench` runs side by side: every ratio of the first beside the same ratio of the
# second, how far apart they are (the larger over the smaller), and whether that is within 20%.
#
#   FWLENS_BENCH_OUT=/tmp/run1 make bench
#   FWLENS_BENCH_OUT=/tmp/run2 make bench
#   tools/bench-compare.sh /tmp/run1 /tmp/run2
#
# Reads the ratios*.tsv each run writes (tools/bench-lib.sh: ratio, value, spread, limit, load
# before, load after, verdict). A ratio only one run has is listed with "-". Exit 0 when every
# ratio both runs have is within 20%, 1 when one is not, 2 when a folder holds no ratios.
set -u
[ $# -eq 2 ] || {
	echo "usage: tools/bench-compare.sh RUN_A_DIR RUN_B_DIR" >&2
	exit 2
}
for d in "$1" "$2"; do
	if ! ls "$d"/ratios*.tsv >/dev/null 2>&1; then
		echo "bench-compare: $d holds no ratios*.tsv (run FWLENS_BENCH_OUT=$d make bench)" >&2
		exit 2
	fi
done
TMP=$(mktemp -d "${TMPDIR:-/tmp}/bench-compare.XXXXXX") || exit 2
trap 'rm -rf "$TMP"' EXIT
cat "$1"/ratios*.tsv >"$TMP/a"
cat "$2"/ratios*.tsv >"$TMP/b"
awk -F'\t' -v limit=1.20 '
	FNR == NR { a[$1] = $2; la[$1] = $5; order[++n] = $1; next }
	{ b[$1] = $2; lb[$1] = $5; if (!($1 in a)) order[++n] = $1 }
	END {
		printf "%-62s %8s %8s %7s | %-15s %-15s | %s\n", "ratio", "run A", "run B", "apart", "load A", "load B", "verdict"
		within = 0; both = 0
		for (i = 1; i <= n; i++) {
			k = order[i]
			va = (k in a) ? a[k] : ""; vb = (k in b) ? b[k] : ""
			if (va == "" || vb == "" || va + 0 <= 0 || vb + 0 <= 0) {
				printf "%-62s %8s %8s %7s | %-15s %-15s | %s\n", k, va == "" ? "-" : va, vb == "" ? "-" : vb, "-", la[k], lb[k], "in one run only"
				continue
			}
			r = va > vb ? va / vb : vb / va
			both++
			if (r <= limit) within++
			printf "%-62s %8s %8s %6.2fx | %-15s %-15s | %s\n", k, va, vb, r, la[k], lb[k], r <= limit ? "within 20%" : "apart by more than 20%"
		}
		printf "%d of %d ratios within 20%% from run A to run B\n", within, both
		exit both == 0 ? 2 : (within < both ? 1 : 0)
	}' "$TMP/a" "$TMP/b"
