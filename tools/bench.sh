#!/bin/sh
# make bench: speed and memory of `fwlens tree` on real images, against `UEFIExtract FILE report`
# and against the floor (the bare library time to inflate the same image's compressed sections,
# build/bench/inflate-floor). Each figure is the median of FWLENS_BENCH_RUNS (default 5) runs,
# fwlens, UEFIExtract and the floor alternating. Wall time, CPU time (user + system) and peak RSS
# come from /usr/bin/time. The table goes to stdout, the figures to build/bench/bench.json.
#
# Goals: fwlens within 1.3x of the floor, at most ~0.25x UEFIExtract's time, peak RSS at most
# input + decompressed bytes + 32 MiB.
set -u
BUILD=${1:-build}
RUNS=${FWLENS_BENCH_RUNS:-5}
SRCDIR=$(cd "$(dirname "$0")/.." && pwd)
CORPUS=${FWLENS_CORPUS:-$SRCDIR/../shared/corpus}
FWLENS=$BUILD/fwlens
FLOOR=$BUILD/bench/inflate-floor
OUT=$BUILD/bench
mkdir -p "$OUT"

for need in "$FWLENS" "$FLOOR" /usr/bin/time; do
	if [ ! -x "$need" ]; then
		echo "bench: $need is missing (make bench builds fwlens and the floor program; /usr/bin/time is Debian's time)" >&2
		exit 1
	fi
done
HAVE_UEFIEXTRACT=0
command -v UEFIExtract >/dev/null 2>&1 && HAVE_UEFIEXTRACT=1
[ "$HAVE_UEFIEXTRACT" = 1 ] || echo "bench: UEFIExtract is not installed (uefitool-cli); its columns stay empty" >&2

TMP=$(mktemp -d "${TMPDIR:-/tmp}/fwlens-bench.XXXXXX")
trap 'rm -rf "$TMP"' EXIT INT TERM

median() { sort -n | awk '{ v[NR] = $1 } END { if (NR == 0) print ""; else if (NR % 2) print v[(NR + 1) / 2]; else printf "%.4f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

# timed NAME CMD...: one run; appends "wall cpu rss_kb" to $TMP/NAME
timed() {
	timed_log=$1
	shift
	/usr/bin/time -f "%e %U %S %M" -o "$TMP/time" "$@" >/dev/null 2>&1
	awk '{ printf "%s %.2f %s\n", $1, $2 + $3, $4 }' "$TMP/time" >>"$TMP/$timed_log"
}

col() { awk -v c="$2" '{ print $c }' "$TMP/$1" | median; }

json="{\"runs\": $RUNS, \"images\": ["
sep=""
printf '%-8s %9s | %-24s | %-24s | %8s | %7s %7s | %s\n' image size "fwlens wall/cpu/RSS" "UEFIExtract wall/cpu/RSS" floor "x floor" "x UEFIE" "RSS budget"
for spec in "ovmf:/usr/share/OVMF/OVMF_CODE_4M.fd" "aavmf:/usr/share/AAVMF/AAVMF_CODE.fd" \
	"wrx90e:$CORPUS/firmware/asus-wrx90e-sage-se-1203_rebuilt.cap"; do
	name=${spec%%:*}
	src=${spec#*:}
	if [ ! -r "$src" ]; then
		echo "$name: skipped, $src not found" >&2
		continue
	fi
	# UEFIExtract writes next to its input: work on a copy.
	img="$TMP/$name.bin"
	cp "$src" "$img"
	rm -f "$TMP/fw.$name" "$TMP/ue.$name" "$TMP/floor.$name"
	i=0
	while [ "$i" -lt "$RUNS" ]; do
		timed "fw.$name" "$FWLENS" tree "$img"
		if [ "$HAVE_UEFIEXTRACT" = 1 ]; then
			rm -f "$img.report.txt"
			timed "ue.$name" UEFIExtract "$img" report
		fi
		"$FLOOR" "$img" | awk '{ print $1 }' >>"$TMP/floor.$name"
		i=$((i + 1))
	done
	size=$(wc -c <"$img")
	inflated=$("$FWLENS" info "$img" --format json | sed -n 's/.*"decompressed_bytes": \([0-9]*\).*/\1/p')
	fw_wall=$(col "fw.$name" 1) fw_cpu=$(col "fw.$name" 2) fw_rss=$(col "fw.$name" 3)
	floor=$(median <"$TMP/floor.$name")
	ue_wall="" ue_cpu="" ue_rss=""
	if [ "$HAVE_UEFIEXTRACT" = 1 ]; then
		ue_wall=$(col "ue.$name" 1) ue_cpu=$(col "ue.$name" 2) ue_rss=$(col "ue.$name" 3)
	fi
	budget_kb=$(((size + ${inflated:-0}) / 1024 + 32768))
	x_floor=$(awk -v a="$fw_wall" -v b="$floor" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "-" }')
	x_ue=$(awk -v a="$fw_wall" -v b="$ue_wall" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "-" }')
	rss_ok=$([ "$fw_rss" -le "$budget_kb" ] && echo ok || echo OVER)
	printf '%-8s %8dK | %6ss %6ss %7dK | %6ss %6ss %7sK | %7ss | %7s %7s | %dK of %dK %s\n' "$name" $((size / 1024)) \
		"$fw_wall" "$fw_cpu" "$fw_rss" "${ue_wall:--}" "${ue_cpu:--}" "${ue_rss:--}" "$floor" "$x_floor" "$x_ue" \
		"$fw_rss" "$budget_kb" "$rss_ok"
	json="$json$sep{\"image\": \"$name\", \"path\": \"$src\", \"size\": $size, \"decompressed\": ${inflated:-0},"
	json="$json \"fwlens\": {\"wall_s\": $fw_wall, \"cpu_s\": $fw_cpu, \"rss_kb\": $fw_rss},"
	if [ "$HAVE_UEFIEXTRACT" = 1 ]; then
		json="$json \"uefiextract\": {\"wall_s\": $ue_wall, \"cpu_s\": $ue_cpu, \"rss_kb\": $ue_rss},"
	else
		json="$json \"uefiextract\": null,"
	fi
	json="$json \"floor_s\": $floor, \"x_floor\": \"$x_floor\", \"x_uefiextract\": \"$x_ue\","
	json="$json \"rss_budget_kb\": $budget_kb, \"rss_ok\": $([ "$rss_ok" = ok ] && echo true || echo false)}"
	sep=", "
done
json="$json]}"
printf '%s\n' "$json" >"$OUT/bench.json"
echo "floor: liblzma/zlib inflate time of the image's compressed sections alone; figures in $OUT/bench.json"
