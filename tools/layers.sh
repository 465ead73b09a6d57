#!/bin/sh
# The include check: every #include "x/y.h" of the product's folders must point at the folder's
# own layer or one below it. Layers, bottom up (a folder may include only folders of a lower
# rank, never one of the same rank beside it):
#   0 parsers      base: bytes, views, layouts, errors, the firmware tree
#   1 capsule      firmware images: capsules, flash layouts, AMD PSP, AMI
#   2 ifr acpi     HII forms and ACPI tables (side by side: neither includes the other)
#   3 tools/host   the machine: host capture, PCI config, sysfs (when it exists)
#   4 tools/query  inputs, queries, diff, doctor, snapshots
#   5 tools/cli    commands and writers
#   5 samples      the sample builder (encoders over the layers below)
# Prints one line per include that points up or sideways and a summary; exits 1 when any.
# Usage: tools/layers.sh [SRCDIR]
set -u
cd "${1:-.}" || exit 4

rank() {
	case $1 in
	parsers) echo 0 ;;
	capsule) echo 1 ;;
	ifr | acpi) echo 2 ;;
	tools/host) echo 3 ;;
	tools/query) echo 4 ;;
	tools/cli | samples) echo 5 ;;
	*) echo "" ;;
	esac
}

bad=0 total=0
for dir in parsers capsule ifr acpi tools/host tools/query tools/cli samples; do
	[ -d "$dir" ] || continue
	mine=$(rank "$dir")
	for f in "$dir"/*.c "$dir"/*.h; do
		[ -f "$f" ] || continue
		# "name.h" is the folder's own; "a/b.h" and "a/b/c.h" name a folder
		for inc in $(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\/[^"]*\)".*/\1/p' "$f"); do
			target=${inc%/*}
			[ "$target" = "$dir" ] && continue
			total=$((total + 1))
			theirs=$(rank "$target")
			[ -n "$theirs" ] || continue # generated or third-party headers
			if [ "$theirs" -ge "$mine" ]; then
				if [ "$theirs" -gt "$mine" ]; then how=up; else how=sideways; fi
				echo "$f: includes $inc ($how: $dir is layer $mine, $target is layer $theirs)"
				bad=$((bad + 1))
			fi
		done
	done
done
echo "layers: $total includes between folders checked, $bad pointing up or sideways"
[ "$bad" -eq 0 ]
