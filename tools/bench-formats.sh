#!/bin/sh
# make bench, output formats: each document command in JSON (and XML) beside the same command
# in text, on the largest inputs at hand:
#
#   tree, ifr, settings   the WRX90E capsule of the corpus (else the sample 1104 capsule)
#   acpi                  a folder of 4,000 tables (copies of the sample machine's tables)
#   ivrs                  `acpi` over a folder of 1,000 copies of the sample machine's IVRS
#
# JSON and XML are written while they are built (a node, formset, setting or table at a time),
# so their peak RSS stays that of text and their CPU time that of text plus the writing.
# One case at a time, its formats alternating run after run (text json xml text json xml ...), so
# a busy machine slows them alike; every figure is the median of FWLENS_BENCH_RUNS (default 9, at
# least 5) runs. The table gives ratios to text: the median of the per-run ratios, their spread
# (largest over smallest; over 1.20 is flagged "not reproducible at this load") and the machine's
# load average before and after the case (tools/bench-lib.sh).
# Goals: peak RSS <= 1.1 x text, CPU <= 1.2 x text.
# FWLENS_BENCH_FORMATS="acpi ivrs" picks cases. The figures go to build/bench/bench-formats.json,
# the JSON ratios to build/bench/ratios-formats.tsv (the table `make bench` ends with).
# FWLENS_BENCH_BASELINE=/path/to/an/older/fwlens
# runs it beside each case in the same alternation and adds its figures (before/after ratios,
# such as IVRS before and after the layout walk).
set -u
BUILD=${1:-build}
RUNS=${FWLENS_BENCH_RUNS:-9}
[ "$RUNS" -ge 5 ] 2>/dev/null || RUNS=5
SRCDIR=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck disable=SC1091 # tools/bench-lib.sh, checked on its own
. "$SRCDIR/tools/bench-lib.sh"
CORPUS=${FWLENS_CORPUS:-$SRCDIR/../shared/corpus}
FWLENS=$BUILD/fwlens
OUT=${FWLENS_BENCH_OUT:-$BUILD/bench}
BASE=${FWLENS_BENCH_BASELINE:-}
TABLES=$BUILD/samples/sysroot-1104/sys/firmware/acpi/tables
mkdir -p "$OUT"

IMAGE="$CORPUS/firmware/asus-wrx90e-sage-se-1203_rebuilt.cap"
[ -r "$IMAGE" ] || IMAGE="$BUILD/samples/ESC8000A-E13-ASUS-1104.CAP"
RUNT=$BUILD/bench/run-timed
for need in "$FWLENS" "$IMAGE" "$TABLES" "$RUNT"; do
	if [ ! -e "$need" ]; then
		echo "bench-formats: $need is missing (make bench builds fwlens, the samples and run-timed)" >&2
		exit 1
	fi
done

TMP=$(mktemp -d "${TMPDIR:-/tmp}/fwlens-bench-formats.XXXXXX")
trap 'rm -rf "$TMP"' EXIT INT TERM
# 4,000 tables: the sample machine's, copied round robin under names of their own
mkdir -p "$TMP/acpi"
i=0
set -- "$TABLES"/*
while [ "$i" -lt 4000 ]; do
	for t in "$@"; do
		if [ ! -f "$t" ] || [ "$i" -ge 4000 ]; then
			continue
		fi
		cp "$t" "$TMP/acpi/$(basename "$t")-$i"
		i=$((i + 1))
	done
done

# 1,000 IVRS tables: the one table whose decoder moved onto the shared layout walk
mkdir -p "$TMP/ivrs"
i=0
while [ "$i" -lt 1000 ]; do
	cp "$TABLES/IVRS" "$TMP/ivrs/IVRS-$i"
	i=$((i + 1))
done

# timed LOG CMD...: one run; appends "cpu rss_kb" to $TMP/LOG (run-timed: wait4's rusage, CPU to
# the microsecond)
timed() {
	log=$1
	shift
	"$RUNT" "$@" | awk '{ print $2, $3 }' >>"$TMP/$log"
}
col() { awk -v c="$2" '{ print $c }' "$TMP/$1" | median; }
num() { [ -n "$1" ] && echo "$1" || echo null; }

load_first=$(load)
CASES=${FWLENS_BENCH_FORMATS:-tree ifr settings acpi ivrs}
for cmd in $CASES; do
	src=$IMAGE run=$cmd
	case $cmd in
	acpi) src=$TMP/acpi ;;
	ivrs) src=$TMP/ivrs run=acpi ;;
	esac
	load >"$TMP/$cmd.load_before"
	r=0
	while [ "$r" -lt "$RUNS" ]; do
		for fmt in text json xml; do
			timed "$cmd.$fmt" "$FWLENS" "$run" "$src" --format "$fmt"
			[ -n "$BASE" ] && timed "base.$cmd.$fmt" "$BASE" "$run" "$src" --format "$fmt"
		done
		r=$((r + 1))
	done
	load >"$TMP/$cmd.load_after"
done
load_last=$(load)

RATIOS=$OUT/ratios-formats.tsv
: >"$RATIOS"
echo "output formats: $(basename "$IMAGE"), 4,000 ACPI tables; median of $RUNS; load average $load_first at the start, $load_last at the end"
printf '%-9s %-5s | %6s %9s | %9s %6s %9s %6s | %-15s %-15s | %s\n' command format cpu RSS "cpu/text" spread "RSS/text" spread \
	"load before" "load after" verdict
json="{\"runs\": $RUNS, \"image\": \"$IMAGE\", \"acpi_tables\": 4000, \"load_before\": \"$load_first\", \"load_after\": \"$load_last\", \"commands\": ["
sep=""
for cmd in $CASES; do
	lb=$(cat "$TMP/$cmd.load_before") la=$(cat "$TMP/$cmd.load_after")
	for fmt in text json xml; do
		cpu=$(col "$cmd.$fmt" 1) rss=$(col "$cmd.$fmt" 2)
		pc=$(paired "$TMP/$cmd.$fmt" 1 "$TMP/$cmd.text" 1) pr=$(paired "$TMP/$cmd.$fmt" 2 "$TMP/$cmd.text" 2)
		rc=${pc%% *} sc=${pc#* } rr=${pr%% *} sr=${pr#* }
		verdict=""
		if [ "$fmt" = json ]; then
			verdict=$(awk -v c="$rc" -v r="$rr" -v sc="$sc" -v sr="$sr" -v max="$BENCH_MAX_SPREAD" 'BEGIN {
				v = (r == "" ? "RSS not measured" : r <= 1.1 ? "RSS met" : "RSS MISSED") ", " (c == "" ? "cpu not measured" : c <= 1.2 ? "cpu met" : "cpu MISSED")
				if (sc > max || sr > max) v = v " (not reproducible at this load)"
				print v }')
			ratio_row "$RATIOS" "$cmd --format json / text (CPU)" "$pc" "$lb" "$la" 1.2
			ratio_row "$RATIOS" "$cmd --format json / text (peak RSS)" "$pr" "$lb" "$la" 1.1
		fi
		printf '%-9s %-5s | %5ss %8sK | %9s %6s %9s %6s | %-15s %-15s | %s\n' "$cmd" "$fmt" "$cpu" "$rss" "${rc:--}" "${sc:+${sc}x}" \
			"${rr:--}" "${sr:+${sr}x}" "$lb" "$la" "$verdict"
		json="$json$sep{\"command\": \"$cmd\", \"format\": \"$fmt\", \"cpu_s\": $cpu, \"rss_kb\": $rss, \"cpu_x_text\": $(num "$rc"), \"cpu_spread\": $(num "$sc"),"
		json="$json \"rss_x_text\": $(num "$rr"), \"rss_spread\": $(num "$sr"), \"load_before\": \"$lb\", \"load_after\": \"$la\""
		if [ -n "$BASE" ]; then
			bcpu=$(col "base.$cmd.$fmt" 1) brss=$(col "base.$cmd.$fmt" 2)
			pbc=$(paired "$TMP/$cmd.$fmt" 1 "$TMP/base.$cmd.$fmt" 1) pbr=$(paired "$TMP/$cmd.$fmt" 2 "$TMP/base.$cmd.$fmt" 2)
			printf '%-9s %-5s | %5ss %8sK | %9s %6s %9s %6s | this build / baseline\n' "" "(base)" "$bcpu" "$brss" \
				"${pbc%% *}" "${pbc#* }x" "${pbr%% *}" "${pbr#* }x"
			json="$json, \"baseline\": {\"cpu_s\": $bcpu, \"rss_kb\": $brss}"
		fi
		json="$json}"
		sep=", "
	done
done
printf '%s]}\n' "$json" >"$OUT/bench-formats.json"
echo "goals for json: RSS <= 1.1 x text, cpu <= 1.2 x text; figures in $OUT/bench-formats.json"
