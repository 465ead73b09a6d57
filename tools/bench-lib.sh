# Shared by tools/bench.sh, bench-formats.sh and bench-fleet.sh (sourced, not run): medians,
# ratios with their spread, the machine's load, and the table of ratios `make bench` ends with.
#
# A ratio compares two programs run in turn (A B A B ...), so that other work on the machine
# weighs on both alike. It is the median of the per-run ratios A_i / B_i, and its spread is the
# largest of them over the smallest: a spread above 1.20 means the runs disagree by more than 20%,
# and the ratio is flagged "not reproducible at this load" rather than printed as if it held.
# Every ratio goes with the load average (1, 5, 15 minutes) read before and after its case.
# shellcheck shell=sh

BENCH_MAX_SPREAD=1.20

median() { sort -g | awk '{ v[NR] = $1 } END { if (NR == 0) print ""; else if (NR % 2) print v[(NR + 1) / 2]; else printf "%.4f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a != "" && b != "" && b > 0) printf "%.3f", a / b; else print "" }'; }
# load: the load averages now, "1.02 0.87 0.55"
load() { cut -d' ' -f1-3 /proc/loadavg 2>/dev/null; }

# paired A_FILE A_COL B_FILE B_COL [B_FACTOR]: "median spread" of the per-run ratios
# A_i / (B_FACTOR x B_i), line i of each file being run i (whitespace-separated columns); empty
# when either side has no runs. A zero on either side (a run too short for its clock) leaves that
# run out.
paired() {
	[ -s "$1" ] && [ -s "$3" ] || return 0
	awk -v ac="$2" -v bc="$4" -v f="${5:-1}" -v bfile="$3" '
		{ a[NR] = $ac }
		END {
			n = 0
			while ((getline line < bfile) > 0) {
				n++
				split(line, w, " ")
				if (n in a && a[n] > 0 && w[bc] > 0) { r[++k] = a[n] / (f * w[bc]) }
			}
			if (k == 0) exit
			# insertion sort: at most a few dozen runs
			for (i = 2; i <= k; i++) { v = r[i]; for (j = i - 1; j > 0 && r[j] > v; j--) r[j + 1] = r[j]; r[j + 1] = v }
			m = (k % 2) ? r[(k + 1) / 2] : (r[k / 2] + r[k / 2 + 1]) / 2
			printf "%.3f %.2f\n", m, r[k] / r[1]
		}' "$1"
}

# ratio_row FILE CASE "MEDIAN SPREAD" LOAD_BEFORE LOAD_AFTER [LIMIT]: one line of the final table,
# appended to FILE (tab-separated: case, ratio, spread, limit, load before, load after, verdict)
ratio_row() {
	# sh has no local variables: names of their own, so a caller's r or limit stays as it was
	_rr_file=$1 _rr_what=$2 _rr_lb=$4 _rr_la=$5 _rr_limit=${6:-}
	_rr_r=$(echo "$3" | cut -s -d' ' -f1) _rr_s=$(echo "$3" | cut -s -d' ' -f2)
	[ -n "$_rr_r" ] || _rr_r=$3 # a single figure
	_rr_verdict=$(awk -v r="$_rr_r" -v s="$_rr_s" -v l="$_rr_limit" -v max="$BENCH_MAX_SPREAD" 'BEGIN {
		if (r == "") { print "not measured"; exit }
		v = (l == "") ? "" : (r <= l ? "met" : "MISSED")
		if (s == "") v = (v == "" ? "" : v ", ") "one measurement, spread not known"
		else if (s > max) v = (v == "" ? "" : v ", ") "not reproducible at this load"
		print (v == "" ? "reproducible" : v)
	}')
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$_rr_what" "${_rr_r:--}" "${_rr_s:--}" "${_rr_limit:--}" "$_rr_lb" "$_rr_la" \
		"$_rr_verdict" >>"$_rr_file"
}

# ratio_table FILE...: the rows, aligned
ratio_table() {
	printf '%-62s %7s %7s %6s | %-15s %-15s | %s\n' ratio value spread limit "load before" "load after" verdict
	cat "$@" 2>/dev/null | awk -F'\t' '{ printf "%-62s %7s %7s %6s | %-15s %-15s | %s\n", $1, $2, ($3 == "-" ? "-" : $3 "x"), $4, $5, $6, $7 }'
}
