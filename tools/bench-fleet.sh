#!/bin/sh
# make bench, fleet case: doctor over N snapshots (default 100) of the sample machines, all
# captured with --image-ref to one 32 MiB image (the WRX90E capsule of the corpus where present,
# else the sample 1104 capsule), one after another:
#
#   --no-cache   every snapshot decodes the image (found in --image-dir)
#   cold cache   an empty cache: the first snapshot decodes and stores, the others read the entry
#   warm cache   the same again: every snapshot reads the entry
#
# Figures: total wall time, CPU time (user + system, to the microsecond: wait4's rusage) and peak
# RSS of each pass, and the machine's load average before and after. Goals, ratios from the same
# run: the cold-cache total <= 0.15 x the --no-cache total; one warm doctor <= 0.08 x one cold
# one, the median of 9 rounds of (the first snapshot with an empty cache, then the same snapshot
# warm), interleaved so that other work on the machine weighs on both alike. Each ratio is given
# in wall time and in CPU time, which other work on the machine inflates far less; the warm/cold
# ratio is the median of the per-round ratios, with their spread (largest over smallest; over 1.20
# is flagged "not reproducible at this load") and the load average before and after the rounds
# (tools/bench-lib.sh). FWLENS_BENCH_RUNS sets the rounds (default 9, at least 5).
# Start-up is measured on its own: `fwlens version` (loading the libraries, nothing decoded) beside
# /bin/true, the median of 21 runs each, and as a share of a warm doctor.
# The table goes to stdout, the figures to build/bench/bench-fleet.json, the ratios to
# build/bench/ratios-fleet.tsv (the table `make bench` ends with).
# FWLENS_BENCH_FLEET_N=20 runs a smaller fleet.
set -u
BUILD=${1:-build}
N=${FWLENS_BENCH_FLEET_N:-100}
RUNS=${FWLENS_BENCH_RUNS:-9}
[ "$RUNS" -ge 5 ] 2>/dev/null || RUNS=5
SRCDIR=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck disable=SC1091 # tools/bench-lib.sh, checked on its own
. "$SRCDIR/tools/bench-lib.sh"
CORPUS=${FWLENS_CORPUS:-$SRCDIR/../shared/corpus}
FWLENS=$BUILD/fwlens
OUT=${FWLENS_BENCH_OUT:-$BUILD/bench}
mkdir -p "$OUT"

IMAGE="$CORPUS/firmware/asus-wrx90e-sage-se-1203_rebuilt.cap"
[ -r "$IMAGE" ] || IMAGE="$BUILD/samples/ESC8000A-E13-ASUS-1104.CAP"
for need in "$FWLENS" "$IMAGE" "$BUILD/samples/sysroot-1104" "$BUILD/samples/sysroot-1201"; do
	if [ ! -e "$need" ]; then
		echo "bench-fleet: $need is missing (make bench builds fwlens and the samples)" >&2
		exit 1
	fi
done
if ! command -v python3 >/dev/null; then
	echo "bench-fleet: python3 is missing (it times each run from wait4's rusage)" >&2
	exit 1
fi

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

load_before=$(load)

# runs OUT LIST CMD...: CMD once per line of LIST, "{}" in CMD replaced by the line, outputs
# discarded; "wall_ns rss_kb cpu_s" per run appended to OUT. One python3 times every run (the
# time(1) of Debian counts CPU in hundredths of a second: a warm doctor is a few of them).
runs() {
	out=$1 list=$2
	shift 2
	python3 - "$list" "$@" >>"$out" <<'PY'
import os, sys, time
# posix_spawn (a vfork): a forked python child would add its own page faults to the figures
quiet = [(os.POSIX_SPAWN_OPEN, 1, os.devnull, os.O_WRONLY, 0), (os.POSIX_SPAWN_DUP2, 1, 2)]
for line in open(sys.argv[1]).read().splitlines():
    argv = [a.replace("{}", line) for a in sys.argv[2:]]
    t0 = time.monotonic_ns()
    pid = os.posix_spawn(argv[0], argv, os.environ, file_actions=quiet)
    _, status, ru = os.wait4(pid, 0)
    t1 = time.monotonic_ns()
    print(t1 - t0, ru.ru_maxrss, "%.6f" % (ru.ru_utime + ru.ru_stime))
PY
}

# pass NAME ARGS...: doctor on every snapshot; "wall_ns rss_kb cpu_s" per snapshot in $TMP/NAME
ls "$TMP"/snaps/*.fwsnap >"$TMP/snaps.list"
pass() {
	name=$1
	shift
	: >"$TMP/$name"
	runs "$TMP/$name" "$TMP/snaps.list" "$FWLENS" doctor "{}" -q --format jsonl "$@"
}
total() { awk '{ s += $1 } END { printf "%.3f", s / 1e9 }' "$TMP/$1"; }
# med FILE COLUMN: the median of a column (1 wall ns, 3 CPU s), in seconds
med() {
	awk -v c="$2" '{ print (c == 1 ? $c / 1e9 : $c) }' "$TMP/$1" | sort -g |
		awk '{ v[NR] = $1 } END { if (NR) printf "%.4f", (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2) }'
}
cpu() { awk '{ s += $3 } END { printf "%.2f", s }' "$TMP/$1"; }
peak() { awk '$2 > m { m = $2 } END { print m + 0 }' "$TMP/$1"; }

pass nocache --no-cache --image-dir "$TMP/images"
pass cold --cache-dir "$TMP/cache" --image-dir "$TMP/images"
pass warm --cache-dir "$TMP/cache" --image-dir "$TMP/images"
load_passes=$(load)

# one cold and one warm doctor, $RUNS rounds: the first snapshot with an empty cache, then again
head -n 1 "$TMP/snaps.list" >"$TMP/first.list"
: >"$TMP/rcold"
: >"$TMP/rwarm"
r=0
while [ "$r" -lt "$RUNS" ]; do
	r=$((r + 1))
	rm -rf "$TMP/rcache"
	runs "$TMP/rcold" "$TMP/first.list" "$FWLENS" doctor "{}" -q --format jsonl --cache-dir "$TMP/rcache" --image-dir "$TMP/images"
	runs "$TMP/rwarm" "$TMP/first.list" "$FWLENS" doctor "{}" -q --format jsonl --cache-dir "$TMP/rcache" --image-dir "$TMP/images"
done
load_rounds=$(load)

# start-up on its own: fwlens version and /bin/true, 21 runs each, interleaved
echo 1 >"$TMP/one.list"
: >"$TMP/startup"
: >"$TMP/true"
r=0
while [ "$r" -lt 21 ]; do
	runs "$TMP/startup" "$TMP/one.list" "$FWLENS" version
	runs "$TMP/true" "$TMP/one.list" /bin/true
	r=$((r + 1))
done
load_after=$(load)

nc_total=$(total nocache) cold_total=$(total cold) warm_total=$(total warm)
r_total=$(ratio "$cold_total" "$nc_total")
c_total=$(ratio "$(cpu cold)" "$(cpu nocache)")
cold_wall=$(med rcold 1) cold_cpu=$(med rcold 3) warm_wall=$(med rwarm 1) warm_cpu=$(med rwarm 3)
# per round: warm over cold, "median spread" (wall in column 1, CPU in column 3)
p_wall=$(paired "$TMP/rwarm" 1 "$TMP/rcold" 1) p_cpu=$(paired "$TMP/rwarm" 3 "$TMP/rcold" 3)
r_snap=${p_wall%% *} c_snap=${p_cpu%% *}
p_su=$(paired "$TMP/startup" 3 "$TMP/true" 3)
p_wall=${p_wall:-null null} p_cpu=${p_cpu:-null null}
su_wall=$(med startup 1) su_cpu=$(med startup 3) true_wall=$(med true 1) true_cpu=$(med true 3)
entry=$(du -k "$TMP/cache" | tail -n 1 | cut -f 1)
snaps_kb=$(du -k "$TMP/snaps" | tail -n 1 | cut -f 1)

echo "fleet: doctor over $N snapshots (--image-ref, $snaps_kb KiB in all) of $(basename "$IMAGE") ($(wc -c <"$IMAGE") bytes); cache $entry KiB"
printf '%-12s | %10s | %10s | %10s | %10s | %10s\n' pass "total wall" "total CPU" "wall/snap" "CPU/snap" "peak RSS"
printf '%-12s | %9ss | %9ss | %9ss | %9ss | %9sK\n' "--no-cache" "$nc_total" "$(cpu nocache)" "$(med nocache 1)" "$(med nocache 3)" "$(peak nocache)"
printf '%-12s | %9ss | %9ss | %9ss | %9ss | %9sK\n' "cold cache" "$cold_total" "$(cpu cold)" "$cold_wall" "$cold_cpu" "$(peak cold)"
printf '%-12s | %9ss | %9ss | %9ss | %9ss | %9sK\n' "warm cache" "$warm_total" "$(cpu warm)" "$warm_wall" "$warm_cpu" "$(peak warm)"
echo "(per snapshot: the median of the pass for --no-cache; cold and warm: the median of $RUNS rounds of one cold, then one warm doctor)"
echo "start-up: fwlens version ${su_wall}s wall, ${su_cpu}s CPU; /bin/true ${true_wall}s, ${true_cpu}s (median of 21);" \
	"fwlens version is $(ratio "$su_cpu" "$warm_cpu")x of a warm doctor's CPU"
echo "load average before: $load_before; after: $load_after ($(nproc) CPUs)"
verdict() { awk -v v="$1" -v l="$2" 'BEGIN { print (v != "" && v <= l) ? "met" : "MISSED" }'; }
printf '%-60s %6s %8s %7s %s\n' goal limit measured spread verdict
printf '%-60s %6s %8s %7s %s\n' "warm doctor vs a cold one (wall, median of $RUNS)" 0.08 "$r_snap" "${p_wall#* }x" "$(verdict "$r_snap" 0.08)"
printf '%-60s %6s %8s %7s %s\n' "warm doctor vs a cold one (CPU, median of $RUNS)" 0.08 "$c_snap" "${p_cpu#* }x" "$(verdict "$c_snap" 0.08)"
printf '%-60s %6s %8s %7s %s\n' "doctor over the fleet, cold cache vs --no-cache (wall)" 0.15 "$r_total" - "$(verdict "$r_total" 0.15)"
printf '%-60s %6s %8s %7s %s\n' "doctor over the fleet, cold cache vs --no-cache (CPU)" 0.15 "$c_total" - "$(verdict "$c_total" 0.15)"
echo "(spread: the largest round's ratio over the smallest's; the fleet totals are one pass each)"
RATIOS=$OUT/ratios-fleet.tsv
: >"$RATIOS"
ratio_row "$RATIOS" "fleet: warm doctor / cold doctor (wall)" "$p_wall" "$load_passes" "$load_rounds" 0.08
ratio_row "$RATIOS" "fleet: warm doctor / cold doctor (CPU)" "$p_cpu" "$load_passes" "$load_rounds" 0.08
ratio_row "$RATIOS" "fleet: $N doctors, cold cache / --no-cache (CPU)" "$c_total" "$load_before" "$load_passes" 0.15
ratio_row "$RATIOS" "fleet: fwlens version / /bin/true (CPU)" "$p_su" "$load_rounds" "$load_after"
cat >"$OUT/bench-fleet.json" <<EOF
{"snapshots": $N, "image": "$IMAGE", "snapshots_kb": $snaps_kb, "cache_kb": $entry,
 "load_before": "$load_before", "load_after": "$load_after",
 "no_cache": {"total_s": $nc_total, "cpu_s": $(cpu nocache), "median_s": $(med nocache 1), "median_cpu_s": $(med nocache 3), "peak_rss_kb": $(peak nocache)},
 "cold_cache": {"total_s": $cold_total, "cpu_s": $(cpu cold), "one_s": $cold_wall, "one_cpu_s": $cold_cpu, "peak_rss_kb": $(peak cold)},
 "warm_cache": {"total_s": $warm_total, "cpu_s": $(cpu warm), "one_s": $warm_wall, "one_cpu_s": $warm_cpu, "peak_rss_kb": $(peak warm)},
 "startup": {"version_s": $su_wall, "version_cpu_s": $su_cpu, "true_s": $true_wall, "true_cpu_s": $true_cpu},
 "load_after_passes": "$load_passes", "load_after_rounds": "$load_rounds", "rounds": $RUNS,
 "goals": [{"goal": "warm doctor vs a cold one, wall", "limit": 0.08, "measured": ${r_snap:-null}, "spread": ${p_wall#* }},
           {"goal": "warm doctor vs a cold one, CPU", "limit": 0.08, "measured": ${c_snap:-null}, "spread": ${p_cpu#* }},
           {"goal": "cold-cache total vs no-cache total, wall", "limit": 0.15, "measured": $r_total},
           {"goal": "cold-cache total vs no-cache total, CPU", "limit": 0.15, "measured": $c_total}]}
EOF
