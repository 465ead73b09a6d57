#!/bin/sh
# fwlens snapshot: capture of a folder laid out like a Linux root, confinement to --root,
# unreadable files recorded, and the snapshot answering like the folder it came from.
. "$(dirname "$0")/lib.sh"

root="$T_DIR/root"
mkdir -p "$root/sys/firmware/acpi/tables/dynamic" "$root/sys/class/dmi/id" "$root/proc/sys/kernel" \
	"$root/sys/devices/pci0000:00/0000:00:01.1" "$root/sys/bus/pci/devices" "$root/sys/kernel/iommu_groups/7/devices" \
	"$root/sys/module/kvm_amd/parameters" "$root/sys/firmware/efi/efivars" "$root/var/log" "$root/dev"
printf 'K15PG-D24\n' >"$root/sys/class/dmi/id/board_name"
printf '1104\n' >"$root/sys/class/dmi/id/bios_version"
printf 'secret\n' >"$root/sys/class/dmi/id/product_serial"
printf 'BOOT_IMAGE=/vmlinuz amd_iommu=on\n' >"$root/proc/cmdline"
printf '6.12.0\n' >"$root/proc/sys/kernel/osrelease"
printf 'Y\n' >"$root/sys/module/kvm_amd/parameters/sev_snp"
printf 'DMA-FQ\n' >"$root/sys/kernel/iommu_groups/7/type"
printf '[    0.5] AMD-Vi: IOMMU SNP support enabled.\n' >"$root/var/log/dmesg"
head -c 40000 /dev/zero | tr '\0' 'A' >"$root/sys/firmware/acpi/tables/DSDT"
printf 'SSDT' >"$root/sys/firmware/acpi/tables/dynamic/SSDT1"
printf '\x07\x00\x00\x00\x01' >"$root/sys/firmware/efi/efivars/Setup-ec87d643-eba4-4bb5-a1e5-3f3e36b20da9"
printf '\x07\x00\x00\x00\x02' >"$root/sys/firmware/efi/efivars/Unrelated-11111111-2222-3333-4444-555555555555"
printf '\x10\x22' >"$root/sys/devices/pci0000:00/0000:00:01.1/config"
ln -s ../../../devices/pci0000:00/0000:00:01.1 "$root/sys/bus/pci/devices/0000:00:01.1"
ln -s ../../../../devices/pci0000:00/0000:00:01.1 "$root/sys/kernel/iommu_groups/7/devices/0000:00:01.1"
ln -s ../../../../kernel/iommu_groups/7 "$root/sys/devices/pci0000:00/0000:00:01.1/iommu_group"
: >"$root/dev/sev"
# links that try to leave the root: absolute and relative
ln -s /etc/passwd "$root/sys/firmware/acpi/tables/EVIL1"
ln -s ../../../../../../../../etc/passwd "$root/sys/firmware/acpi/tables/EVIL2"
# an unreadable file is recorded, not fatal (root can read anything: only check as non-root)
printf 'x' >"$root/sys/class/dmi/id/board_vendor"
chmod 000 "$root/sys/class/dmi/id/board_vendor"

snap="$T_DIR/s.fwsnap"
t_run capture 0 fwlens snapshot capture --root "$root" -o "$snap"
if tar tf "$snap" | grep -q passwd || tar xOf "$snap" 2>/dev/null | grep -q 'root:x:0:0'; then
	fail capture-stays-in-root "content from outside --root is in the snapshot"
else
	pass capture-stays-in-root
fi
tar tf "$snap" | grep -q 'product_serial' && fail capture-skips-serials "serial captured" || pass capture-skips-serials
tar tf "$snap" | grep -q 'Unrelated-' && fail capture-skips-other-vars "unrelated efivar captured" || pass capture-skips-other-vars
tar tf "$snap" | grep -q 'files/sys/firmware/acpi/tables/DSDT.gz' && pass capture-compresses-large || fail capture-compresses-large "DSDT not gzip'd: $(tar tf "$snap" | grep DSDT)"
tar xOf "$snap" manifest.json >"$T_DIR/manifest.json"
grep -q '"path": "sys/firmware/acpi/tables/EVIL1"' "$T_DIR/manifest.json" && pass escaping-link-recorded-unreadable || fail escaping-link-recorded-unreadable "EVIL1 not in unreadable"
grep -q '"target": "sys/devices/pci0000:00/0000:00:01.1"' "$T_DIR/manifest.json" && pass pci-link-recorded || fail pci-link-recorded "link target missing"
t_run all-vars 0 fwlens snapshot capture --root "$root" --all-vars -o "$T_DIR/all.fwsnap"
tar tf "$T_DIR/all.fwsnap" | grep -q 'Unrelated-' && pass all-vars-keeps-every-var || fail all-vars-keeps-every-var "missing"

# The snapshot answers like the folder.
t_run show-folder 0 fwlens snapshot show "$root" --format json
sed -e '/"path"/d' -e '/"kind"/d' "$T_OUT" >"$T_DIR/folder.json"
t_run show-snapshot 0 fwlens snapshot show "$snap" --format json
t_contains show-board '"board": "K15PG-D24"'
t_contains show-cmdline '"cmdline": "BOOT_IMAGE=/vmlinuz amd_iommu=on"'
t_contains show-members-checked '"members_mismatched": 0'
# with --all-vars nothing the folder shows is left out, so the answers must be equal
t_run show-all-vars-snapshot 0 fwlens snapshot show "$T_DIR/all.fwsnap" --format json
python3 - "$T_DIR/folder.json" "$T_OUT" <<'PY' && pass snapshot-facts-equal-folder || fail snapshot-facts-equal-folder "facts or counts differ"
import json, sys
a = json.load(open(sys.argv[1])); b = json.load(open(sys.argv[2]))
sys.exit(0 if a["facts"] == b["facts"] and a["counts"] == b["counts"] else 1)
PY

# Determinism: the same root and time give the same bytes.
SOURCE_DATE_EPOCH=1700000000 fwlens snapshot capture --root "$root" -o "$T_DIR/a.fwsnap" -q
SOURCE_DATE_EPOCH=1700000000 fwlens snapshot capture --root "$root" -o "$T_DIR/b.fwsnap" -q
cmp -s "$T_DIR/a.fwsnap" "$T_DIR/b.fwsnap" && pass capture-deterministic || fail capture-deterministic "two captures differ"

# Hostile snapshots: not a snapshot, truncated, corrupt member.
printf 'hello' >"$T_DIR/not.fwsnap"
t_run show-not-a-snapshot 3 fwlens snapshot show "$T_DIR/not.fwsnap"
head -c 700 "$snap" >"$T_DIR/trunc.fwsnap"
t_run show-truncated 3 fwlens snapshot show "$T_DIR/trunc.fwsnap"
[ "$(wc -l <"$T_ERR")" -eq 1 ] && pass truncated-error-is-one-line || fail truncated-error-is-one-line "$(cat "$T_ERR")"
# Cut at a member boundary, the archive still loads: the members it lost are named, 20 at most,
# then counted (a truncated capture once printed a warning per member, hundreds of lines).
if t_need_file show-lost-members-counted "$SAMPLES/sysroot-1104" "the samples are not built"; then
	fwlens snapshot capture --root "$SAMPLES/sysroot-1104" -o "$T_DIR/big.fwsnap" -q
	block=$(tar -tR -f "$T_DIR/big.fwsnap" | sed -n '100s/^block \([0-9]*\):.*/\1/p')
	head -c $((block * 512)) "$T_DIR/big.fwsnap" >"$T_DIR/cut.fwsnap"
	t_run show-cut-at-member 3 fwlens snapshot show "$T_DIR/cut.fwsnap"
	lost=$(grep -c 'is missing from the archive' "$T_ERR")
	if [ "$lost" -eq 20 ] && [ "$(wc -l <"$T_ERR")" -eq 22 ] && grep -q 'more members are missing' "$T_ERR" &&
		tail -n 1 "$T_ERR" | grep -q 'error: .*cut.fwsnap: [0-9]* of [0-9]* members are missing or do not match'; then
		pass show-lost-members-counted
	else
		fail show-lost-members-counted "$lost named, $(wc -l <"$T_ERR") lines: $(tail -n 1 "$T_ERR")"
	fi
fi
t_run capture-needs-output 2 fwlens snapshot capture --root "$root"
t_run capture-missing-root 4 fwlens snapshot capture --root "$T_DIR/nope" -o "$T_DIR/x.fwsnap"
[ -e "$T_DIR/x.fwsnap" ] && fail failed-capture-leaves-nothing "file left" || pass failed-capture-leaves-nothing
