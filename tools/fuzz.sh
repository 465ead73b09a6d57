#!/bin/sh
# make fuzz FUZZ_SECONDS=N [FUZZ_TARGETS="capsule nvar"] [FUZZ_JOBS=2]: a libFuzzer campaign.
#
# Every tests/fuzz/fuzz-NAME.c is built with clang -fsanitize=fuzzer,address,undefined and the
# fuzz limits (-DFW_FUZZING) into build/libfuzzer/, then run for N seconds on a working copy of
# its seed corpus (tests/fuzz/corpus/NAME, never modified) with the dictionary
# tests/fuzz/dict/NAME.dict when there is one. Crashes, leaks and timeouts are kept in
# build/libfuzzer/findings/NAME/ (the previous run's move to findings-old/NAME/). The summary
# table goes to stdout; each target's figures to build/libfuzzer/reports/NAME.json, and
# build/libfuzzer/report.json gathers the latest figures of every target run so far, so a
# campaign can run in batches. FUZZ_MAX_LEN caps the input size (default 1 MiB).
# FUZZ_REPORT_ONLY=1 rebuilds nothing and runs nothing: it prints the table of the named
# targets' last runs again. The exit status is 1 when any target found something.
set -u
SECONDS_PER_TARGET=${1:-60}
SRCDIR=$(cd "$(dirname "$0")/.." && pwd)
cd "$SRCDIR" || exit 1
OUT=build/libfuzzer
JOBS=${FUZZ_JOBS:-$(nproc 2>/dev/null || echo 2)}

if ! command -v clang >/dev/null 2>&1; then
	echo "fuzz: clang is not installed (apt-get install clang libclang-rt-14-dev)" >&2
	exit 4
fi
# the libraries the Makefile links (its PKGS, passed by make fuzz)
PKGS=${FWLENS_PKGS:-"liblzma libbrotlidec zlib libcrypto libxml-2.0 jansson libarchive libpcre2-8 libpci"}
CFLAGS="-std=c11 -g -O1 -fno-omit-frame-pointer -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined -DFW_FUZZING -D_GNU_SOURCE -DFWLENS_VERSION=\"fuzz\" -DFWLENS_DATADIR=\"/nonexistent\" -I. -I$OUT/gen $(pkg-config --cflags $PKGS)"
LIBS="$(pkg-config --libs $PKGS) -lpthread"

targets=${FUZZ_TARGETS:-$(ls tests/fuzz/fuzz-*.c | sed 's|tests/fuzz/fuzz-||; s|\.c$||')}
mkdir -p "$OUT/obj" "$OUT/gen" "$OUT/findings" "$OUT/findings-old" "$OUT/work" "$OUT/reports"
if [ "${FUZZ_REPORT_ONLY:-0}" != 1 ]; then
	# The library once, with the fuzzing limits; generated headers as the Makefile makes them.
	make -s "build/gen/commands.inc" "build/gen/rules-topics.xml.inc" "build/gen/rules-topics.xsd.inc" "build/gen/rules-topics.xml.sha256.inc" >/dev/null 2>&1 || true
	cp -p build/gen/*.inc "$OUT/gen/" 2>/dev/null
	# An object is rebuilt when its source, or any header, is newer (a changed struct must not
	# leave stale objects behind).
	newest_h=$(ls -t parsers/*.h capsule/*.h ifr/*.h acpi/*.h tools/host/*.h tools/query/*.h tools/cli/*.h "$OUT"/gen/*.inc 2>/dev/null | head -n 1)
	# archive LIB WHAT SRC...: compile each source that changed (main.c stays out) into LIB
	archive() {
		lib=$1 what=$2
		shift 2
		objs="" fail=0
		for src in "$@"; do
			[ "$src" = tools/cli/main.c ] && continue
			obj="$OUT/obj/$(echo "$src" | tr / _ | sed 's/\.c$/.o/')"
			if [ ! -f "$obj" ] || [ "$src" -nt "$obj" ] || [ "$newest_h" -nt "$obj" ]; then
				# shellcheck disable=SC2086
				clang $CFLAGS -c "$src" -o "$obj" || fail=1
			fi
			objs="$objs $obj"
		done
		[ "$fail" = 0 ] || { echo "fuzz: building $what failed" >&2; exit 4; }
		rm -f "$lib"
		# shellcheck disable=SC2086
		ar rcs "$lib" $objs
	}
	archive "$OUT/libfwlens-fuzz.a" "the library" parsers/*.c capsule/*.c ifr/*.c acpi/*.c tools/host/*.c tools/query/*.c
	# The command line without main(): targets that run writers and whole commands link it.
	archive "$OUT/libfwlens-cli-fuzz.a" "the command line" tools/cli/*.c

	for t in $targets; do
		# shellcheck disable=SC2086
		clang $CFLAGS -fsanitize=fuzzer "tests/fuzz/fuzz-$t.c" "$OUT/libfwlens-cli-fuzz.a" "$OUT/libfwlens-fuzz.a" $LIBS -o "$OUT/fuzz-$t" || {
			echo "fuzz: building fuzz-$t failed" >&2
			exit 4
		}
	done

fi

run_one() {
	t=$1
	start=$(date +%s)
	work="$OUT/work/$t"
	findings="$OUT/findings/$t"
	rm -rf "$work" "$OUT/findings-old/$t"
	[ -d "$findings" ] && mv "$findings" "$OUT/findings-old/$t"
	mkdir -p "$work" "$findings"
	cp tests/fuzz/corpus/"$t"/* "$work"/ 2>/dev/null
	dict=""
	[ -f "tests/fuzz/dict/$t.dict" ] && dict="-dict=tests/fuzz/dict/$t.dict"
	# shellcheck disable=SC2086
	"$OUT/fuzz-$t" "$work" $dict -max_total_time="$SECONDS_PER_TARGET" -timeout=10 -rss_limit_mb=2048 -close_fd_mask=2 \
		-max_len="${FUZZ_MAX_LEN:-1048576}" -artifact_prefix="$findings/" -print_final_stats=1 >"$OUT/$t.log" 2>&1
	echo $? >"$OUT/$t.rc"
	echo $(($(date +%s) - start)) >"$OUT/$t.secs"
}

# Run the targets FUZZ_JOBS at a time: lane k takes every JOBS-th target from the k-th, in order
# (POSIX sh has no `wait -n`).
if [ "${FUZZ_REPORT_ONLY:-0}" != 1 ]; then
	lane=0
	while [ "$lane" -lt "$JOBS" ]; do
		(
			i=0
			for t in $targets; do
				[ $((i % JOBS)) -eq "$lane" ] && run_one "$t"
				i=$((i + 1))
			done
		) &
		lane=$((lane + 1))
	done
	wait
fi

status=0
printf '%-22s %8s %12s %10s %8s %8s %s\n' target seconds executions exec/s cov ft findings
for t in $targets; do
	log="$OUT/$t.log"
	execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' | tail -1)
	rate=$(grep -o 'stat::average_exec_per_sec: *[0-9]*' "$log" | grep -o '[0-9]*$' | tail -1)
	cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1 | grep -o '[0-9]*$')
	ft=$(grep -o 'ft: [0-9]*' "$log" | tail -1 | grep -o '[0-9]*$')
	found=$(ls "$OUT/findings/$t" 2>/dev/null | wc -l)
	rc=$(cat "$OUT/$t.rc" 2>/dev/null || echo 1)
	secs=$(cat "$OUT/$t.secs" 2>/dev/null || echo "$SECONDS_PER_TARGET")
	[ "$found" -gt 0 ] || [ "$rc" -ne 0 ] && status=1
	printf '%-22s %8s %12s %10s %8s %8s %s\n' "$t" "$secs" "${execs:-?}" "${rate:-?}" "${cov:-?}" "${ft:-?}" "$found"
	printf '  {"target": "%s", "seconds": %s, "executions": %s, "exec_per_sec": %s, "cov": %s, "ft": %s, "findings": %s, "exit": %s, "finished": "%s"}' \
		"$t" "$secs" "${execs:-null}" "${rate:-null}" "${cov:-null}" "${ft:-null}" "$found" "$rc" \
		"$(date -u +%Y-%m-%dT%H:%M:%SZ)" >"$OUT/reports/$t.json"
done
# report.json: the latest run of every target so far
{
	echo "["
	first=1
	for f in "$OUT"/reports/*.json; do
		[ -f "$f" ] || continue
		[ "$first" = 1 ] || echo ","
		first=0
		cat "$f"
	done
	printf '\n]\n'
} >"$OUT/report.json"
[ "$status" = 0 ] || echo "fuzz: findings in $OUT/findings/ (logs in $OUT/*.log)" >&2
# A finding in CI must be reproducible from CI's log alone (its build folder does not outlive it):
# for each target that found something, the sanitizer's summary lines and each input, in
# base64 (`base64 -d >crash; build/fuzz/fuzz-NAME crash` replays it, or build/libfuzzer/fuzz-NAME).
for t in $targets; do
	rc=$(cat "$OUT/$t.rc" 2>/dev/null || echo 1)
	found=$(ls "$OUT/findings/$t" 2>/dev/null | wc -l)
	[ "$found" -gt 0 ] || [ "$rc" -ne 0 ] || continue
	echo "== fuzz-$t: exit $rc, $found finding(s); from $OUT/$t.log:" >&2
	grep -E '^(==[0-9]+==ERROR|SUMMARY|.*runtime error|ALARM|.*Timeout|.*out-of-memory|.*Direct leak|    #[0-9] )' "$OUT/$t.log" | head -n 40 >&2
	for f in "$OUT/findings/$t"/*; do
		[ -f "$f" ] || continue
		size=$(wc -c <"$f")
		echo "-- $(basename "$f") ($size bytes)$([ "$size" -gt 65536 ] && echo ', first 64 KiB'), base64:" >&2
		head -c 65536 "$f" | base64 >&2
	done
done
exit "$status"
