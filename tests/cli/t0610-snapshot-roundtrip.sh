#!/bin/sh
# A snapshot answers like the folder it was captured from: every command that takes a machine
# (snapshot show, settings, ifr, find, query, doctor, notes, acpi, acpi topo, diff) gives the
# same output from the snapshot of a sample sysroot as from the sysroot itself, and a file that
# cannot be read is recorded in the manifest without failing the capture.
. "$(dirname "$0")/lib.sh"
t_need_file roundtrip "$SAMPLES/sysroot-1201" "the samples (make samples)" || exit 0

# JSON without the fields that name the input itself (and, for snapshot show, what only a
# snapshot has: its manifest, and the EFI variables a capture leaves out by default); where the
# current values came from names the input too (asserted apart below)
norm() {
	python3 -c '
import json, os, sys
sys.path.insert(0, os.path.join(os.environ["FWLENS_SRCDIR"], "tests", "cli"))
from jsonutil import drop
d = json.load(open(sys.argv[1]))
for k in ("current_source", "old_source", "new_source"):
    d = drop(d, k)
for k in ("source", "sources", "input", "path", "kind", "created", "tool", "members", "links",
          "members_checked", "members_mismatched", "unreadable"):
    d.pop(k, None)
if isinstance(d.get("counts"), dict):
    d["counts"].pop("efivars", None)
json.dump(d, open(sys.argv[2], "w"), indent=1, sort_keys=True)' "$1" "$2"
}

# "cmd" runs on the folder (with the image) and on the snapshot (image stored in it)
same() {
	name=$1 folder=$2 snap=$3 with=$4
	shift 4
	"$FWLENS" "$@" "$folder" $with --format json >"$T_DIR/f.raw" 2>"$T_DIR/f.err"; sf=$?
	"$FWLENS" "$@" "$snap" --format json >"$T_DIR/s.raw" 2>"$T_DIR/s.err"; ss=$?
	if [ "$sf" -ne "$ss" ]; then
		fail "$name" "exit $sf from the folder, $ss from the snapshot: $(head -c 200 "$T_DIR/s.err")"
		return
	fi
	norm "$T_DIR/f.raw" "$T_DIR/f.json" && norm "$T_DIR/s.raw" "$T_DIR/s.json" ||
		{ fail "$name" "not JSON: $(head -c 200 "$T_DIR/f.err")"; return; }
	if cmp -s "$T_DIR/f.json" "$T_DIR/s.json" && [ -s "$T_DIR/f.json" ]; then
		pass "$name"
	else
		fail "$name" "$(diff "$T_DIR/f.json" "$T_DIR/s.json" | head -n 6 | tr '\n' ' ')"
	fi
}

for v in 1104 1201; do
	root="$T_DIR/sysroot-$v"
	cp -a "$SAMPLES/sysroot-$v" "$root"
	# a table file nobody can read: a link to nowhere (and, for a non-root user, a file without permissions)
	ln -s ../../../../nowhere/TABLE "$root/sys/firmware/acpi/tables/BROKEN"
	printf 'x' >"$root/sys/class/dmi/id/board_serial_note" && chmod 000 "$root/sys/class/dmi/id/board_serial_note"
	image="$SAMPLES/ESC8000A-E13-ASUS-$v.CAP"
	snap="$T_DIR/s$v.fwsnap"
	t_run capture-$v 0 fwlens snapshot capture --root "$root" --image "$image" -o "$snap"
	tar xOf "$snap" manifest.json >"$T_DIR/manifest.json"
	grep -q '"path": "sys/firmware/acpi/tables/BROKEN"' "$T_DIR/manifest.json" &&
		pass unreadable-recorded-$v || fail unreadable-recorded-$v "the broken table is not in the manifest's unreadable list"
	same show-$v "$root" "$snap" "" snapshot show
	same settings-$v "$root" "$snap" "--image $image" settings
	same ifr-$v "$root" "$snap" "--image $image" ifr --module CbsSetupDxeBRH
	same query-$v "$root" "$snap" "--image $image" query
	same doctor-$v "$root" "$snap" "--image $image" doctor
	same acpi-$v "$root" "$snap" "" acpi
	same acpi-topo-$v "$root" "$snap" "" acpi topo
	"$FWLENS" find "$root" 'SEV|IOMMU|NUMA' --image "$image" --format json >"$T_DIR/f.raw"
	"$FWLENS" find "$snap" 'SEV|IOMMU|NUMA' --format json >"$T_DIR/s.raw"
	norm "$T_DIR/f.raw" "$T_DIR/f.json" && norm "$T_DIR/s.raw" "$T_DIR/s.json" && cmp -s "$T_DIR/f.json" "$T_DIR/s.json" &&
		pass find-$v || fail find-$v "the snapshot's matches differ from the folder's"
	# notes name their input in the header; the rest must be equal
	"$FWLENS" notes "$root" --image "$image" | sed '/^- Read from:/d; /^- Captured:/d; s/^- Image: [^,]*,/- Image:/; /^Current values from/d' >"$T_DIR/f.md"
	"$FWLENS" notes "$snap" | sed '/^- Read from:/d; /^- Captured:/d; s/^- Image: [^,]*,/- Image:/; /^Current values from/d' >"$T_DIR/s.md"
	cmp -s "$T_DIR/f.md" "$T_DIR/s.md" && pass notes-$v || fail notes-$v "$(diff "$T_DIR/f.md" "$T_DIR/s.md" | head -n 4 | tr '\n' ' ')"
	# the same values, each saying where it came from
	"$FWLENS" settings "$root" --image "$image" --format json | python3 -c 'import json,sys; print(json.load(sys.stdin)["current_source"]["kind"])' >"$T_DIR/f.kind"
	"$FWLENS" settings "$snap" --format json | python3 -c 'import json,sys; print(json.load(sys.stdin)["current_source"]["kind"])' >"$T_DIR/s.kind"
	[ "$(cat "$T_DIR/f.kind") $(cat "$T_DIR/s.kind")" = "efivarfs snapshot" ] && pass current-source-$v ||
		fail current-source-$v "kinds: $(cat "$T_DIR/f.kind") $(cat "$T_DIR/s.kind"), expected efivarfs snapshot"
done
"$FWLENS" diff "$T_DIR/sysroot-1104" "$T_DIR/sysroot-1201" --image-a "$SAMPLES/ESC8000A-E13-ASUS-1104.CAP" \
	--image-b "$SAMPLES/ESC8000A-E13-ASUS-1201.CAP" --format json >"$T_DIR/f.raw" 2>/dev/null
"$FWLENS" diff "$T_DIR/s1104.fwsnap" "$T_DIR/s1201.fwsnap" --format json >"$T_DIR/s.raw" 2>/dev/null
norm "$T_DIR/f.raw" "$T_DIR/f.json" && norm "$T_DIR/s.raw" "$T_DIR/s.json" && cmp -s "$T_DIR/f.json" "$T_DIR/s.json" &&
	pass diff || fail diff "$(diff "$T_DIR/f.json" "$T_DIR/s.json" | head -n 6 | tr '\n' ' ')"
