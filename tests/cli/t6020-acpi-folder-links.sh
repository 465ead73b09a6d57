#!/bin/sh
# An ACPI tables folder reads links only inside itself, as snapshot capture confines links to
# --root: a table linked from outside, or a dynamic/ folder elsewhere, is skipped with a warning.
. "$(dirname "$0")/lib.sh"
TABLES="$SAMPLES/sysroot-1104/sys/firmware/acpi/tables"
t_need_file acpi-folder-links "$TABLES/DSDT" "the samples are not built" || exit 0

mkdir -p "$T_DIR/t" "$T_DIR/outside"
cp "$TABLES"/* "$T_DIR/t/" 2>/dev/null
n=$(find "$TABLES" -maxdepth 1 -type f | wc -l)
cp "$TABLES/MCFG" "$T_DIR/outside/SECRET"
ln -s ../outside/SECRET "$T_DIR/t/SSDT8"      # relative, out of the folder
ln -s "$T_DIR/outside/SECRET" "$T_DIR/t/SSDT9" # absolute, out of the folder
ln -s "$T_DIR/outside" "$T_DIR/t/dynamic"      # a folder elsewhere
ln -s SSDT2 "$T_DIR/t/SSDT3"                   # inside: still read
t_run folder-links 0 fwlens acpi "$T_DIR/t"
head -n 1 "$T_OUT" | grep -q "folder, $((n + 1)) tables" && pass folder-links-inside-only ||
	fail folder-links-inside-only "$(head -n 1 "$T_OUT")"
grep -q "warning: SSDT8: skipped: a link out of the folder, not followed" "$T_OUT" &&
	grep -q "warning: SSDT9: skipped: a link out of the folder, not followed" "$T_OUT" &&
	pass folder-links-warned || fail folder-links-warned "$(grep warning "$T_OUT")"
grep -q 'SECRET\|dynamic/' "$T_OUT" && fail folder-links-no-dynamic "read dynamic/ outside the folder" || pass folder-links-no-dynamic
