#!/bin/sh
# fwlens notes on a small machine folder: every section is there, the output is deterministic,
# and a snapshot gives the same notes as its folder (apart from the capture line).
. "$(dirname "$0")/lib.sh"

root="$T_DIR/root"
mkdir -p "$root/proc/sys/kernel" "$root/sys/class/dmi/id" "$root/sys/kernel/iommu_groups/3/devices" \
	"$root/sys/module/kvm_amd/parameters" "$root/var/log"
printf 'ESC8000A-E13\n' >"$root/sys/class/dmi/id/product_name"
printf 'K15PG-D24\n' >"$root/sys/class/dmi/id/board_name"
printf '1104\n' >"$root/sys/class/dmi/id/bios_version"
printf '06/12/2026\n' >"$root/sys/class/dmi/id/bios_date"
printf '6.12.8-pve\n' >"$root/proc/sys/kernel/osrelease"
printf 'root=/dev/sda1 amd_iommu=on\n' >"$root/proc/cmdline"
printf 'DMA-FQ\n' >"$root/sys/kernel/iommu_groups/3/type"
printf 'Y\n' >"$root/sys/module/kvm_amd/parameters/sev_snp"
cat >"$root/var/log/dmesg" <<'LOG'
[    1.0] SEV-SNP: RMP table physical range [0x0000000088000000 - 0x00000000a81fffff]
[    2.0] AMD-Vi: IOMMU SNP support enabled.
[    3.0] ccp 0000:22:00.1: SEV-SNP API:1.55 build:21
LOG

t_run notes 0 fwlens notes "$root"
cp "$T_OUT" "$T_DIR/a.md"
t_contains notes-title "# ESC8000A-E13 UEFI settings: BIOS 1104 (06/12/2026)"
for section in "## Summary" "## Settings that matter" "## Kernel and OS side" "## Topology" "## Verification log" \
	"## Known issues and decisions" "## Open questions"; do
	t_contains "notes-has-$(echo "$section" | tr -cd 'a-zA-Z')" "$section"
done
t_contains notes-explains-amd-iommu-on "is not an option the AMD IOMMU driver knows"
t_contains notes-snp-log "SEV-SNP: RMP table physical range"
t_contains notes-sev-firmware "- SEV firmware: 1.55 build 21 (kernel log: SEV-SNP API:1.55 build:21)"
t_run notes-again 0 fwlens notes "$root"
cmp -s "$T_OUT" "$T_DIR/a.md" && pass notes-deterministic || fail notes-deterministic "two runs differ"
t_run notes-title-option 0 fwlens notes "$root" --title "v2 settings"
t_contains notes-custom-title "# v2 settings"
fwlens snapshot capture --root "$root" -o "$T_DIR/s.fwsnap" -q
t_run notes-snapshot 0 fwlens notes "$T_DIR/s.fwsnap"
grep -v -e '^- Captured:' -e '^- Read from:' "$T_OUT" >"$T_DIR/snap.md"
grep -v -e '^- Captured:' -e '^- Read from:' "$T_DIR/a.md" >"$T_DIR/folder.md"
diff -u "$T_DIR/folder.md" "$T_DIR/snap.md" >/dev/null && pass notes-snapshot-equals-folder || fail notes-snapshot-equals-folder "$(diff -u "$T_DIR/folder.md" "$T_DIR/snap.md" | head -5 | tr '\n' ' ')"
t_run notes-previous 0 fwlens notes "$root" --previous "$T_DIR/s.fwsnap"
t_contains notes-changes-section "## Changes since"
t_run notes-output-file 0 fwlens notes "$root" -o "$T_DIR/notes.md"
# the file is standard output's text and a last line with the hashes of the generated lines
sed '$d' "$T_DIR/notes.md" | cmp -s - "$T_DIR/a.md" && tail -n 1 "$T_DIR/notes.md" | grep -q '^<!-- fwlens:generated [0-9a-f ]*-->$' &&
	pass notes-output-file-same || fail notes-output-file-same "differs"

# booted with iommu.passthrough=1 the kernel makes every group identity at boot: the notes say
# passthrough and do not call the groups switched after boot (as they did in the real-kernel lab)
printf 'root=/dev/sda1 iommu.passthrough=1\n' >"$root/proc/cmdline"
printf 'identity\n' >"$root/sys/kernel/iommu_groups/3/type"
t_run notes-passthrough 0 fwlens notes "$root"
t_contains notes-passthrough-mode "- IOMMU mode: passthrough (iommu.passthrough=1): devices are not translated; SNP cannot be enabled"
grep -q "switched after boot" "$T_OUT" && fail notes-passthrough-not-switched "identity groups called switched after boot" ||
	pass notes-passthrough-not-switched
# translated by default and one group identity: that one was switched
printf 'root=/dev/sda1\n' >"$root/proc/cmdline"
t_run notes-switched 0 fwlens notes "$root"
t_contains notes-switched-says "group 3 identity now (switched after boot), not translated"
