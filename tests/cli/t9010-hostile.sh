#!/bin/sh
# Hostile names and paths: extract --all writes only inside its folder whatever the UI names say;
# snapshot capture follows no link out of --root and is not stalled or flooded by FIFOs, device
# nodes, link loops or huge files; iasl runs without a shell, on a private copy of the tables.
. "$(dirname "$0")/lib.sh"

t_need_cmd hostile python3 || exit 0

# --- extract --all ------------------------------------------------------------------------------
# UI names: "../../../../tmp/fwlens-escape", "/etc/passwd", "..", ".", "~", "-rf", "$(touch PWNED)",
# backslashes, terminal escapes, DEL, RTL override, 4000 characters, slashes, tab and newline; and
# twelve nested volumes whose files have 128-character names.
python3 "$FWLENS_SRCDIR/tests/cli/make-hostile.py" names "$T_DIR/names.fv"
mkdir -p "$T_DIR/jail" "$T_DIR/cwd"
before=$(find /tmp -maxdepth 1 -name 'fwlens-escape*' | wc -l)
(cd "$T_DIR/cwd" && t_run extract-hostile-names 0 fwlens extract "$T_DIR/names.fv" --all "$T_DIR/jail/out")
nodes=$(($(fwlens tree "$T_DIR/names.fv" --format json | grep -c '"kind":') - 1)) # less the input's own kind
outside=$(find "$T_DIR/jail" -mindepth 1 -maxdepth 1 ! -name out | wc -l)
after=$(find /tmp -maxdepth 1 -name 'fwlens-escape*' | wc -l)
if [ "$outside" -eq 0 ] && [ "$after" -eq "$before" ] && [ -z "$(ls -A "$T_DIR/cwd")" ]; then
	pass extract-stays-inside
else
	fail extract-stays-inside "$outside entries beside out/, $((after - before)) in /tmp, cwd: $(ls -A "$T_DIR/cwd")"
fi
[ "$(find "$T_DIR/jail/out" -name info.txt | wc -l)" -eq "$nodes" ] && pass extract-every-node ||
	fail extract-every-node "$(find "$T_DIR/jail/out" -name info.txt | wc -l) folders for $nodes nodes"
bad=$(find "$T_DIR/jail/out" -mindepth 1 | sed "s|^$T_DIR/jail/out/||" | tr '/' '\n' | grep -c '[^A-Za-z0-9 ._+()-]')
[ "$bad" -eq 0 ] && pass extract-names-clean || fail extract-names-clean "$bad names with other characters"
long=$(find "$T_DIR/jail/out" | awk -F/ '{ if (length($NF) > 80) n++ } END { print n + 0 }')
[ "$long" -eq 0 ] && pass extract-names-short || fail extract-names-short "$long names over 80 bytes"
dots=$(find "$T_DIR/jail/out" -name '.*' | wc -l)
[ "$dots" -eq 0 ] && pass extract-no-dot-names || fail extract-no-dot-names "$dots names starting with a dot"
find "$T_DIR/jail/out" -type l | grep -q . && fail extract-no-links "links created" || pass extract-no-links
# names never reach a terminal raw: no ESC, BEL or C1 control in the text outputs
for cmd in tree info; do
	fwlens "$cmd" "$T_DIR/names.fv" >"$T_DIR/$cmd.txt" 2>&1
	if LC_ALL=C grep -q "$(printf '[\033\007]')" "$T_DIR/$cmd.txt"; then
		fail "$cmd-no-escapes" "an escape sequence reaches the output"
	else
		pass "$cmd-no-escapes"
	fi
done

# --- snapshot capture ---------------------------------------------------------------------------
root="$T_DIR/hroot"
mkdir -p "$root/sys/firmware/acpi/tables" "$root/proc/sys/kernel" "$root/sys/class/dmi/id" "$root/var/log" \
	"$root/sys/firmware/efi" "$root/sys/kernel/iommu_groups/1" "$T_DIR/outside"
printf 'BOOT_IMAGE=/vmlinuz\n' >"$root/proc/cmdline"
printf 'outside secret\n' >"$T_DIR/outside/secret"
mkfifo "$root/sys/firmware/acpi/tables/DSDT"               # a FIFO: opening it must not block
truncate -s 10G "$root/var/log/dmesg"                       # sparse: 10 GiB claimed, over the file cap
ln -s "$T_DIR/outside" "$root/sys/firmware/efi/efivars"      # a folder link out of the root
ln -s ../../../../../outside/secret "$root/sys/class/dmi/id/board_name" # a relative escape
ln -s loop2 "$root/sys/class/dmi/id/bios_version"
ln -s bios_version "$root/sys/class/dmi/id/loop2"           # a loop
ln -s ../../../../sys "$root/sys/kernel/iommu_groups/1/devices" # a link to an ancestor (a cycle)
if [ "$(id -u)" -eq 0 ]; then
	mknod "$root/proc/sys/kernel/osrelease" c 1 5           # /dev/zero under another name: endless
fi
/usr/bin/time -f '%e %M' -o "$T_DIR/time" "$FWLENS" snapshot capture --root "$root" -o "$T_DIR/h.fwsnap" \
	>"$T_OUT" 2>"$T_ERR" && rc=0 || rc=$?
read -r secs kb <"$T_DIR/time"
if [ "$rc" -eq 0 ] && awk -v s="$secs" 'BEGIN { exit !(s < 5) }' && [ "$kb" -lt 65536 ]; then
	pass capture-hostile-root
else
	fail capture-hostile-root "exit $rc, $secs s, $kb KiB: $(head -c 300 "$T_ERR")"
fi
if tar xOf "$T_DIR/h.fwsnap" 2>/dev/null | grep -q 'outside secret'; then
	fail capture-no-escape "content from outside --root is in the snapshot"
else
	pass capture-no-escape
fi
tar xOf "$T_DIR/h.fwsnap" manifest.json >"$T_DIR/manifest.json"
grep -q '"path": "var/log/dmesg"' "$T_DIR/manifest.json" && grep -q 'File too large' "$T_DIR/manifest.json" &&
	pass capture-huge-file-recorded || fail capture-huge-file-recorded "$(grep -A1 dmesg "$T_DIR/manifest.json")"
grep -q '"path": "sys/firmware/acpi/tables/DSDT"' "$T_DIR/manifest.json" && pass capture-fifo-recorded ||
	fail capture-fifo-recorded "the FIFO is not among the unreadable files"
[ "$(wc -l <"$T_ERR")" -le 2 ] && pass capture-quiet || fail capture-quiet "$(wc -l <"$T_ERR") lines on stderr"
t_run capture-hostile-shows 0 fwlens snapshot show "$T_DIR/h.fwsnap"

# --- iasl -----------------------------------------------------------------------------------------
# A stand-in iasl records how it was started: its arguments, its parent, the modes of its input
# and folder; the table sits in a folder whose name is shell syntax.
fake="$T_DIR/fake-iasl"
cat >"$fake" <<EOF
#!/bin/sh
{
	echo "argc \$#"
	for a in "\$@"; do echo "arg \$a"; done
	echo "parent \$(cat /proc/\$PPID/comm)"
	echo "input-mode \$(stat -c %a "\$2")"
	echo "dir-mode \$(stat -c %a "\$(dirname "\$2")")"
} >"$T_DIR/iasl.log"
printf 'DefinitionBlock ("", "DSDT", 2, "FUZZ", "T", 1) { }\n' >"\${2%.dat}.dsl"
EOF
chmod +x "$fake"
dir="$T_DIR/\$(touch PWNED); \`touch PWNED2\`"
mkdir -p "$dir" "$T_DIR/tmp"
cp "$FWLENS_SRCDIR/tests/fuzz/corpus/acpi-set/facs-and-ssdt" "$dir/tables.bin" 2>/dev/null
if [ -f "$SAMPLES/asl/dsdt-1104.aml" ]; then
	cp "$SAMPLES/asl/dsdt-1104.aml" "$dir/tables.bin"
fi
sum_before=$(sha256sum "$dir/tables.bin" | cut -d' ' -f1)
(cd "$T_DIR" && TMPDIR="$T_DIR/tmp" FWLENS_IASL="$fake" t_run iasl-fake 0 fwlens acpi topo "$dir/tables.bin")
if [ -f "$T_DIR/iasl.log" ] && grep -q '^argc 2$' "$T_DIR/iasl.log" && grep -q '^arg -d$' "$T_DIR/iasl.log" &&
	grep -q "^arg $T_DIR/tmp/fwlens-iasl\.[A-Za-z0-9]*/dsdt\.dat$" "$T_DIR/iasl.log"; then
	pass iasl-private-copy
else
	fail iasl-private-copy "$(tr '\n' ' ' <"$T_DIR/iasl.log" 2>/dev/null)"
fi
grep -q '^parent fwlens$' "$T_DIR/iasl.log" && pass iasl-no-shell || fail iasl-no-shell "$(grep parent "$T_DIR/iasl.log")"
grep -q '^input-mode 600$' "$T_DIR/iasl.log" && grep -q '^dir-mode 700$' "$T_DIR/iasl.log" &&
	pass iasl-private-modes || fail iasl-private-modes "$(grep mode "$T_DIR/iasl.log" | tr '\n' ' ')"
[ -z "$(ls -A "$T_DIR/tmp")" ] && pass iasl-cleans-up || fail iasl-cleans-up "left: $(ls -A "$T_DIR/tmp")"
[ ! -e "$T_DIR/PWNED" ] && [ ! -e "$T_DIR/PWNED2" ] && [ ! -e PWNED ] && pass iasl-path-not-interpreted ||
	fail iasl-path-not-interpreted "a shell ran the path"
[ "$(sha256sum "$dir/tables.bin" | cut -d' ' -f1)" = "$sum_before" ] && [ "$(ls -A "$dir")" = tables.bin ] &&
	pass iasl-input-untouched || fail iasl-input-untouched "$(ls -A "$dir")"
