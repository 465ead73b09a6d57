#!/bin/sh
# make bench, fleet case: doctor over N snapshots (default 100) of the sample machines, all
# captured with --image-ref to one 32 MiB image (the WRX90E capsule of the corpus where present,
# else the sample 1104 capsule), one after another:
#
#   --no-cache   every snapshot decodes the image (found in --image-dir)
#   cold cache   an empty cache: the first snapshot decodes and stores, the others read the entry
#   warm cache   the same again: every snapshot reads the entry
#
# Figures: total wall time of each pass, the first snapshot of the cold pass, the median snapshot
# of the warm pass, the CPU time (user + system) and the peak RSS of each pass, and the machine's
# load average before and after. Goals (ratios from the same run): warm per snapshot <= 0.10 x the
# cold first one; the cold-cache total <= 0.15 x the --no-cache total. Both are given in wall time
# and in CPU time, which other work on the machine inflates far less (the CPU time of one warm
# snapshot is the warm pass's mean: time(1) counts in hundredths of a second).
# The table goes to stdout, the figures to build/bench/bench-fleet.json.
# FWLENS_BENCH_FLEET_N=20 runs a smaller fleet.
set -u
BUILD=${1:-build}
N=${FWLENS_BENCH_FLEET_N:-100}
SRCDIR=$(cd "$(dirname "$0")/.." && pwd)
CORPUS=${FWLENS_CORPUS:-$SRCDIR/../shared/corpus}
FWLENS=$BUILD/fwlens
OUT=$BUILD/bench
mkdir -p "$OUT"

IMAGE="$CORPUS/firmware/asus-wrx90e-sage-se-1203_rebuilt.cap"
[ -r "$IMAGE" ] || IMAGE="$BUILD/samples/ESC8000A-E13-ASUS-1104.CAP"
for need in "$FWLENS" "$IMAGE" "$BUILD/samples/sysroot-1104" "$BUILD/samples/sysroot-1201" /usr/bin/time; do
	if [ ! -e "$need" ]; then
		echo "bench-fleet: $need is missing (make bench builds fwlens and the samples; /usr/bin/time is Debian's time)" >&2
		exit 1
	fi
done

TMP=$(mktemp -d "${TMPDIR:-/tmp}/fwlens-bench-fleet.XXXXXX")
trap 'rm -rf "$TMP"' EXIT INT TERM
mkdir -p "$TMP/images" "$TMP/snaps"
cp "$IMAGE" "$TMP/images/"

# N snapshots: the two sample machines in turn, each under its own host name
for v in 1104 1201; do
	cp -a "$BUILD/samples/sysroot-$v" "$TMP/root-$v"
done
i=1
while [ "$i" -le "$N" ]; do
	v=1104
	[ $((i % 2)) -eq 0 ] && v=1201
	h=$(printf 'gpu%03d' "$i")
	echo "$h" >"$TMP/root-$v/proc/sys/kernel/hostname"
	SOURCE_DATE_EPOCH=1767225600 "$FWLENS" snapshot capture -q --root "$TMP/root-$v" \
		--image-ref "$TMP/images/$(basename "$IMAGE")" -o "$TMP/snaps/$h.fwsnap" || exit 1
	i=$((i + 1))
done

load_before=$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null)

# pass NAME ARGS...: doctor on every snapshot; "wall_ns rss_kb cpu_s" per snapshot in $TMP/NAME
pass() {
	name=$1
	shift
	: >"$TMP/$name"
	for s in "$TMP"/snaps/*.fwsnap; do
		t0=$(date +%s%N)
		/usr/bin/time -f "%M %U %S" -o "$TMP/time" "$FWLENS" doctor "$s" -q --format jsonl "$@" >/dev/null 2>&1
		t1=$(date +%s%N)
		tail -n 1 "$TMP/time" | awk -v ns=$((t1 - t0)) '{ printf "%d %d %.2f\n", ns, $1, $2 + $3 }' >>"$TMP/$name"
	done
}
total() { awk '{ s += $1 } END { printf "%.3f", s / 1e9 }' "$TMP/$1"; }
first() { awk 'NR == 1 { printf "%.4f", $1 / 1e9 }' "$TMP/$1"; }
median() { awk '{ print $1 }' "$TMP/$1" | sort -n | awk '{ v[NR] = $1 } END { printf "%.4f", (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2) / 1e9 }'; }
cpu() { awk '{ s += $3 } END { printf "%.2f", s }' "$TMP/$1"; }
cpu_first() { awk 'NR == 1 { printf "%.2f", $3 }' "$TMP/$1"; }
cpu_mean() { awk '{ s += $3 } END { if (NR) printf "%.4f", s / NR }' "$TMP/$1"; }
peak() { awk '$2 > m { m = $2 } END { print m + 0 }' "$TMP/$1"; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.3f", a / b; else print "" }'; }

pass nocache --no-cache --image-dir "$TMP/images"
pass cold --cache-dir "$TMP/cache" --image-dir "$TMP/images"
pass warm --cache-dir "$TMP/cache" --image-dir "$TMP/images"

nc_total=$(total nocache) cold_total=$(total cold) warm_total=$(total warm)
cold_first=$(first cold) warm_median=$(median warm) nc_median=$(median nocache)
r_snap=$(ratio "$warm_median" "$cold_first")
r_total=$(ratio "$cold_total" "$nc_total")
entry=$(du -k "$TMP/cache" | tail -n 1 | cut -f 1)
snaps_kb=$(du -k "$TMP/snaps" | tail -n 1 | cut -f 1)

load_after=$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null)
echo "fleet: doctor over $N snapshots (--image-ref, $snaps_kb KiB in all) of $(basename "$IMAGE") ($(wc -c <"$IMAGE") bytes); cache $entry KiB"
printf '%-12s | %10s | %12s | %10s | %10s | %10s\n' pass "total wall" "per snapshot" "total CPU" "CPU/snap" "peak RSS"
printf '%-12s | %9ss | %11ss | %9ss | %9ss | %9sK\n' "--no-cache" "$nc_total" "$nc_median" "$(cpu nocache)" "$(cpu_mean nocache)" "$(peak nocache)"
printf '%-12s | %9ss | %11ss | %9ss | %9ss | %9sK\n' "cold cache" "$cold_total" "$cold_first" "$(cpu cold)" "$(cpu_first cold)" "$(peak cold)"
printf '%-12s | %9ss | %11ss | %9ss | %9ss | %9sK\n' "warm cache" "$warm_total" "$warm_median" "$(cpu warm)" "$(cpu_mean warm)" "$(peak warm)"
echo "(per snapshot wall: median for --no-cache and warm, the first snapshot for cold; CPU/snap: the mean, the first for cold)"
echo "load average before: $load_before; after: $load_after ($(nproc) CPUs)"
verdict() { awk -v v="$1" -v l="$2" 'BEGIN { print (v != "" && v <= l) ? "met" : "MISSED" }'; }
printf '%-60s %6s %8s %s\n' goal limit measured verdict
printf '%-60s %6s %8s %s\n' "warm doctor per snapshot vs the cold first one" 0.10 "$r_snap" "$(verdict "$r_snap" 0.10)"
printf '%-60s %6s %8s %s\n' "doctor over the fleet, cold cache vs --no-cache" 0.15 "$r_total" "$(verdict "$r_total" 0.15)"
# the same ratios in CPU time, which a machine busy with other work does not inflate
c_snap=$(ratio "$(cpu_mean warm)" "$(cpu_first cold)")
c_total=$(ratio "$(cpu cold)" "$(cpu nocache)")
printf '%-60s %6s %8s %s\n' "(CPU) warm per snapshot vs the cold first one" 0.10 "$c_snap" "$(verdict "$c_snap" 0.10)"
printf '%-60s %6s %8s %s\n' "(CPU) the fleet, cold cache vs --no-cache" 0.15 "$c_total" "$(verdict "$c_total" 0.15)"
cat >"$OUT/bench-fleet.json" <<EOF
{"snapshots": $N, "image": "$IMAGE", "snapshots_kb": $snaps_kb, "cache_kb": $entry,
 "load_before": "$load_before", "load_after": "$load_after",
 "no_cache": {"total_s": $nc_total, "median_s": $nc_median, "cpu_s": $(cpu nocache), "peak_rss_kb": $(peak nocache)},
 "cold_cache": {"total_s": $cold_total, "first_s": $cold_first, "cpu_s": $(cpu cold), "first_cpu_s": $(cpu_first cold), "peak_rss_kb": $(peak cold)},
 "warm_cache": {"total_s": $warm_total, "median_s": $warm_median, "cpu_s": $(cpu warm), "mean_cpu_s": $(cpu_mean warm), "peak_rss_kb": $(peak warm)},
 "goals": [{"goal": "warm per snapshot vs cold first", "limit": 0.10, "measured": $r_snap},
           {"goal": "cold-cache total vs no-cache total", "limit": 0.15, "measured": $r_total},
           {"goal": "CPU: warm per snapshot vs cold first", "limit": 0.10, "measured": $c_snap},
           {"goal": "CPU: cold-cache total vs no-cache total", "limit": 0.15, "measured": $c_total}]}
EOF
