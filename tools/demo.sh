#!/bin/sh
# make demo: the main job end to end on the built-in samples (a synthetic ASUS ESC8000A-E13, BIOS
# 1104 and 1201, and a captured machine running 1104):
#
#   1. what the 1104 capsule is            fwlens info
#   2. whether its signatures hold         fwlens verify
#   3. the settings that matter            fwlens query --topic sev-snp,iommu,p2p
#   4. whether the machine is set up right fwlens doctor (machine + its image)
#   5. the notes of the machine            fwlens notes
#   6. what BIOS 1201 changes              fwlens diff
#
# Each step writes its full output under BUILD/demo/ and shows an excerpt here.
set -u
BUILD=${1:-build}
FW="$BUILD/fwlens"
S="$BUILD/samples"
CAP="$S/ESC8000A-E13-ASUS-1104.CAP"
CAP2="$S/ESC8000A-E13-ASUS-1201.CAP"
ROOT="$S/sysroot-1104"
OUT="$BUILD/demo"
for f in "$FW" "$CAP" "$CAP2" "$ROOT"; do
	if [ ! -e "$f" ]; then
		echo "demo: $f was not built (make all samples)" >&2
		exit 1
	fi
done
mkdir -p "$OUT"

bold='' reset=''
if [ -t 1 ] && [ -z "${NO_COLOR:-}" ]; then
	bold=$(printf '\033[1m') reset=$(printf '\033[0m')
fi

# step TITLE FILE EXCERPT-FILTER -- ARGS...: run fwlens ARGS -o OUT/FILE, show the command and the
# excerpt of its output the filter picks. Exit 1 (differences, failed checks) is an answer.
step() {
	title=$1 file=$2 filter=$3
	shift 4
	printf '\n%s%s%s\n$ fwlens %s\n' "$bold" "$title" "$reset" "$*"
	rc=0
	"$FW" "$@" -o "$OUT/$file" || rc=$?
	if [ "$rc" -gt 1 ]; then
		echo "demo: fwlens $1 failed (exit $rc)" >&2
		exit "$rc"
	fi
	sh -c "$filter" <"$OUT/$file"
	[ "$rc" = 1 ] && echo "(exit status 1)"
	return 0
}

step "1. What the capsule is" info.txt "cat" -- \
	info "$CAP"
step "2. Whether its signatures hold" verify.txt "grep -v '^ ' | grep ." -- \
	verify "$CAP"
step "3. The settings that matter for SEV-SNP, the IOMMU and GPU P2P (value in the image, default)" query.txt \
	"grep -E '^[a-z]|^  [^ ]' | head -n 28; echo '  ...'" -- \
	query "$CAP" --topic sev-snp,iommu,p2p
step "4. Whether the machine running 1104 is set up right" doctor.txt \
	"grep -E '^(FAIL|WARN)|^[0-9]+ checks'" -- \
	doctor "$ROOT" --image "$CAP"
step "5. The notes of that machine (summary)" notes-1104.md \
	"sed -n '/^## Summary/,/^## /p' | sed '\$d'" -- \
	notes "$ROOT" --image "$CAP"
step "6. What BIOS 1201 changes" diff-1104-1201.txt "head -n 14; echo '  ...'" -- \
	diff "$CAP" "$CAP2"

printf '\n%sFull outputs%s in %s/:\n' "$bold" "$reset" "$OUT"
for f in info.txt verify.txt query.txt doctor.txt notes-1104.md diff-1104-1201.txt; do
	printf '  %-20s %6s lines\n' "$f" "$(wc -l <"$OUT/$f")"
done
echo "Next: 'fwlens help', 'man fwlens', and README.md (fleet recipes, JSON contracts)."
