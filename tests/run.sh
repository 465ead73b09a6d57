#!/bin/sh
# Run every test and end with one line: "N passed, N failed, N skipped".
#   unit tests (build/tests/unit), CLI golden tests (tests/cli/t*.sh), fuzz seed replays.
# Each part prints "ok NAME", "FAIL NAME: why" or "skip NAME: why"; this script counts them.
# FWLENS_VERBOSE=1 shows every "ok" line too.
set -u
BUILD=${FWLENS_BUILD:-build}
SRCDIR=$(cd "$(dirname "$0")/.." && pwd)
export FWLENS_BUILD="$SRCDIR/${BUILD#"$SRCDIR"/}"
case "$BUILD" in /*) FWLENS_BUILD=$BUILD ;; esac
export FWLENS_SRCDIR="$SRCDIR"
export FWLENS="$FWLENS_BUILD/fwlens"
cd "$SRCDIR" || exit 1

log=$(mktemp "${TMPDIR:-/tmp}/fwlens-tests.XXXXXX")
trap 'rm -f "$log"' EXIT INT TERM

run_part() {
	# $1 = label, rest = command; a crash or a part that prints no summary counts as a failure
	label=$1
	shift
	rc=0
	"$@" >>"$log" 2>&1 || rc=$?
	if [ "$rc" -ne 0 ] && ! tail -n 50 "$log" | grep -q '^FAIL'; then
		echo "FAIL $label: exited with status $rc and reported no failing test" >>"$log"
	fi
}

start=$(date +%s)
if [ -x "$FWLENS_BUILD/tests/unit" ]; then
	run_part unit "$FWLENS_BUILD/tests/unit"
else
	echo "FAIL unit: $FWLENS_BUILD/tests/unit was not built" >>"$log"
fi

for t in tests/cli/t*.sh; do
	[ -f "$t" ] || continue
	run_part "cli/$(basename "$t" .sh)" sh "$t"
done

for target in "$FWLENS_BUILD"/fuzz/fuzz-*; do
	[ -x "$target" ] || continue
	name=$(basename "$target")
	corpus="tests/fuzz/corpus/${name#fuzz-}"
	if [ -d "$corpus" ]; then
		if out=$("$target" "$corpus" 2>&1); then
			echo "ok fuzz-replay/$name" >>"$log"
		else
			echo "FAIL fuzz-replay/$name: $(echo "$out" | tail -n 3 | tr '\n' ' ')" >>"$log"
		fi
	else
		echo "FAIL fuzz-replay/$name: no seed corpus at $corpus" >>"$log"
	fi
done

if [ "${FWLENS_VERBOSE:-0}" = 1 ]; then
	grep -E '^(ok|FAIL|skip) ' "$log"
else
	grep -E '^(FAIL|skip) ' "$log"
fi
passed=$(grep -c '^ok ' "$log")
failed=$(grep -c '^FAIL ' "$log")
skipped=$(grep -c '^skip ' "$log")
end=$(date +%s)
echo "# $((end - start)) s"
if [ "$skipped" -gt 0 ]; then
	echo "$passed passed, $failed failed, $skipped skipped"
else
	echo "$passed passed, $failed failed"
fi
[ "$failed" -eq 0 ]
