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
# With BUILD (a build folder holding one archive per layer, libfwlens-LAYER.a), the link is
# checked too: every symbol one layer's archive takes from another's is defined in a lower
# layer, and the Makefile links the archives top layer first (the reverse of its LAYERS), so
# a lower layer that calls up fails to link; and no object of the layers below the query layer
# opens a path (but for the few named below).
# Usage: tools/layers.sh [SRCDIR [BUILD]]
set -u
cd "${1:-.}" || exit 4
build=${2:-}

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

# "up" or "sideways" when layer $2 is not below layer $1, else nothing
direction() {
	if [ "$2" -gt "$1" ]; then echo up; elif [ "$2" -eq "$1" ]; then echo sideways; fi
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
			how=$(direction "$mine" "$theirs")
			[ -z "$how" ] || { echo "$f: includes $inc ($how: $dir is layer $mine, $target is layer $theirs)"; bad=$((bad + 1)); }
		done
	done
done
echo "layers: $total includes between folders checked, $bad pointing up or sideways"

# the folder of each layer archive (Makefile: LAYER_DIR_x)
folder_of() {
	case $1 in
	base) echo parsers ;;
	host) echo tools/host ;;
	query) echo tools/query ;;
	*) echo "$1" ;;
	esac
}

if [ -n "$build" ]; then
	layers=$(sed -n 's/^LAYERS := //p' Makefile 2>/dev/null)
	order=$(sed -n 's/^LIB := $(foreach l,\([^,]*\),.*/\1/p' Makefile 2>/dev/null)
	top_first=$(for l in $layers; do echo "$l"; done | tac | tr '\n' ' ' | sed 's/ $//')
	if [ -z "$layers" ] || [ "$order" != "$top_first" ]; then
		echo "Makefile: the archives are linked as '$order', not top layer first ('$top_first')"
		bad=$((bad + 1))
	fi
	defs=$(mktemp) || exit 4
	for l in $layers; do
		[ -f "$build/libfwlens-$l.a" ] || { echo "$build/libfwlens-$l.a: missing"; rm -f "$defs"; exit 4; }
		nm -g --defined-only "$build/libfwlens-$l.a" | awk -v l="$l" 'NF == 3 { print $3, l }'
	done | sort -u >"$defs"
	used=0 wrong=0
	for l in $layers; do
		mine=$(rank "$(folder_of "$l")")
		for pair in $(nm -u "$build/libfwlens-$l.a" | awk '$1 == "U" { print $2 }' | sort -u | join - "$defs" | tr ' ' ':'); do
			sym=${pair%%:*} from=${pair#*:}
			[ "$from" = "$l" ] && continue
			used=$((used + 1))
			theirs=$(rank "$(folder_of "$from")")
			how=$(direction "$mine" "$theirs")
			[ -z "$how" ] || { echo "libfwlens-$l.a: uses $sym of libfwlens-$from.a ($how: $l is layer $mine, $from is layer $theirs)"; wrong=$((wrong + 1)); }
		done
	done
	rm -f "$defs"
	echo "link: $used symbols taken from other layers' archives, $wrong from a layer above or beside; linked as $order"
	bad=$((bad + wrong))
	# Only the query layer's source opens what the user names: the layers below take bytes, trees
	# and callbacks. An object of these archives that calls the C library (or the base layer's
	# readers) to open or look up a file or folder is reported, but for the ones named: the base
	# layer's readers themselves and its cleanup of temporary outputs, iasl runs (files of their
	# own in a temporary folder), and the --key PEM file of `verify`, still read by its path.
	opens='open open64 openat openat64 fopen fopen64 freopen freopen64 opendir fdopendir scandir scandir64 ftw nftw
		readlink readlinkat stat stat64 lstat lstat64 fstatat fstatat64 access faccessat realpath
		fw_file_read fw_file_open fw_is_directory'
	allowed='base:file.o base:cleanup.o acpi:iasl.o capsule:signature.o'
	objects=0 opening=0
	for l in base capsule ifr acpi; do
		[ -f "$build/libfwlens-$l.a" ] || continue
		objects=$((objects + $(ar t "$build/libfwlens-$l.a" | wc -l)))
		for pair in $(nm -A -u "$build/libfwlens-$l.a" 2>/dev/null | awk '$(NF-1) == "U" { n = split($1, p, ":"); print p[n-1] ":" $NF }' | sort -u); do
			obj=${pair%%:*} sym=${pair#*:}
			case " $allowed " in *" $l:$obj "*) continue ;; esac
			case " $(echo $opens) " in *" $sym "*) ;; *) continue ;; esac
			echo "libfwlens-$l.a: $obj calls $sym (opens a path below the query layer)"
			opening=$((opening + 1))
		done
	done
	echo "paths: $objects objects of the base, capsule, ifr and acpi archives checked, $opening calls that open a path (allowed: $allowed)"
	bad=$((bad + opening))
fi
[ "$bad" -eq 0 ]
