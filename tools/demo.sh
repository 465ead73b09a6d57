#!/bin/sh
# The main job on the built-in sample: what the BIOS image is, the settings that matter for
# IOMMU / SEV-SNP / ACS / P2P, and what changed between the two sample BIOS versions.
set -u
BUILD=${1:-build}
FW="$BUILD/fwlens"
CAP="$BUILD/samples/ESC8000A-E13-ASUS-1104.CAP"
if [ ! -f "$CAP" ]; then
	echo "demo: $CAP was not built (make samples)" >&2
	exit 1
fi
run() {
	printf '\n$ fwlens %s\n' "$*"
	"$FW" "$@"
	return 0
}
run info "$CAP"
