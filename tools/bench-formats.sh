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
# Within a run the formats alternate, so a busy machine slows them alike; every figure is the
# median of FWLENS_BENCH_RUNS (default 5) runs and the table gives ratios to text, beside the
# machine's load average before and after. Goals: peak RSS <= 1.1 x text, CPU <= 1.2 x text.
# FWLENS_BENCH_FORMATS="acpi ivrs" picks cases. The figures go to build/bench/bench-formats.json.
# FWLENS_BENCH_BASELINE=/path/to/an/older/fwlens
# runs it beside each case in the same alternation and adds its figures (before/after ratios,
# such as IVRS before and after the layout walk).
set -u
BUILD=${1:-build}
RUNS=${FWLENS_BENCH_RUNS:-5}
SRCDIR=$(cd "$(dirname "$0")/.." && pwd)
CORPUS=${FWLENS_CORPUS:-$SRCDIR/../shared/corpus}
FWLENS=$BUILD/fwlens
OUT=$BUILD/bench
BASE=${FWLENS_BENCH_BASELINE:-}
TABLES=$BUILD/samples/sysroot-1104/sys/firmware/acpi/tables
mkdir -p "$OUT"

IMAGE="$CORPUS/firmware/asus-wrx90e-sage-se-1203_rebuilt.cap"
[ -r "$IMAGE" ] || IMAGE="$BUILD/samples/ESC8000A-E13-ASUS-1104.CAP"
for need in "$FWLENS" "$IMAGE" "$TABLES" /usr/bin/time; do
	if [ ! -e "$need" ]; then
		echo "bench-formats: $need is missing (make bench builds fwlens and the samples; /usr/bin/time is Debian's time)" >&2
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

median() { sort -n | awk '{ v[NR] = $1 } END { if (NR == 0) print ""; else if (NR % 2) print v[(NR + 1) / 2]; else printf "%.4f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
# timed LOG CMD...: one run; appends "cpu rss_kb" to $TMP/LOG
timed() {
	log=$1
	shift
	/usr/bin/time -f "%U %S %M" -o "$TMP/time" "$@" >/dev/null 2>&1
	tail -n 1 "$TMP/time" | awk '{ printf "%.2f %s\n", $1 + $2, $3 }' >>"$TMP/$log"
}
col() { awk -v c="$2" '{ print $c }' "$TMP/$1" | median; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a != "" && b != "" && b > 0) printf "%.3f", a / b; else print "" }'; }

load_before=$(cut -d' ' -f1-3 /proc/loadavg)
CASES=${FWLENS_BENCH_FORMATS:-tree ifr settings acpi ivrs}
r=0
while [ "$r" -lt "$RUNS" ]; do
	for cmd in $CASES; do
		src=$IMAGE run=$cmd
		case $cmd in
		acpi) src=$TMP/acpi ;;
		ivrs) src=$TMP/ivrs run=acpi ;;
		esac
		for fmt in text json xml; do
			timed "$cmd.$fmt" "$FWLENS" "$run" "$src" --format "$fmt"
			[ -n "$BASE" ] && timed "base.$cmd.$fmt" "$BASE" "$run" "$src" --format "$fmt"
		done
	done
	r=$((r + 1))
done
load_after=$(cut -d' ' -f1-3 /proc/loadavg)

echo "output formats: $(basename "$IMAGE"), 4,000 ACPI tables; median of $RUNS; load average $load_before before, $load_after after"
printf '%-9s %-5s | %6s %9s | %9s %9s | %s\n' command format cpu RSS "cpu/text" "RSS/text" verdict
json="{\"runs\": $RUNS, \"image\": \"$IMAGE\", \"acpi_tables\": 4000, \"load_before\": \"$load_before\", \"load_after\": \"$load_after\", \"commands\": ["
sep=""
for cmd in $CASES; do
	tcpu=$(col "$cmd.text" 1) trss=$(col "$cmd.text" 2)
	for fmt in text json xml; do
		cpu=$(col "$cmd.$fmt" 1) rss=$(col "$cmd.$fmt" 2)
		rc=$(ratio "$cpu" "$tcpu") rr=$(ratio "$rss" "$trss")
		verdict=""
		if [ "$fmt" = json ]; then
			verdict=$(awk -v c="$rc" -v r="$rr" 'BEGIN { print (r <= 1.1 ? "RSS met" : "RSS MISSED") ", " (c <= 1.2 ? "cpu met" : "cpu MISSED") }')
		fi
		printf '%-9s %-5s | %5ss %8sK | %9s %9s | %s\n' "$cmd" "$fmt" "$cpu" "$rss" "$rc" "$rr" "$verdict"
		json="$json$sep{\"command\": \"$cmd\", \"format\": \"$fmt\", \"cpu_s\": $cpu, \"rss_kb\": $rss, \"cpu_x_text\": $rc, \"rss_x_text\": $rr"
		if [ -n "$BASE" ]; then
			bcpu=$(col "base.$cmd.$fmt" 1) brss=$(col "base.$cmd.$fmt" 2)
			printf '%-9s %-5s | %5ss %8sK | %9s %9s | this build / baseline\n' "" "(base)" "$bcpu" "$brss" \
				"$(ratio "$cpu" "$bcpu")" "$(ratio "$rss" "$brss")"
			json="$json, \"baseline\": {\"cpu_s\": $bcpu, \"rss_kb\": $brss}"
		fi
		json="$json}"
		sep=", "
	done
done
printf '%s]}\n' "$json" >"$OUT/bench-formats.json"
echo "goals for json: RSS <= 1.1 x text, cpu <= 1.2 x text; figures in $OUT/bench-formats.json"
