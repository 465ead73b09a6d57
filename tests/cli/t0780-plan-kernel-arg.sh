#!/bin/sh
# fwlens plan --kernel-arg / --remove-kernel-arg for each boot loader, on copies of the sample
# machine: Proxmox (etc/kernel/cmdline, etc/pve), GRUB (etc/default/grub only), kernel-install
# (etc/kernel/cmdline without Proxmox) and systemd-boot entries without a cmdline file. Each script
# passes sh -n (and shellcheck when installed), runs dry (nothing changes), applies against the
# copied root with a stand-in for the loader's command, says "already set" the second time, and
# the JSON plan verifies before (not rebooted) and after a simulated reboot (new boot id and
# proc/cmdline). Bad options and a machine without loader files are refused.
. "$(dirname "$0")/lib.sh"
t_need_file kernel-arg "$SAMPLES/sysroot-1104/etc/kernel/cmdline" "the samples (make samples)" || exit 0
export SOURCE_DATE_EPOCH=1767225600
cd "$T_DIR" || exit 1
ACS='pci=disable_acs_redir=0000:22:00.0;0000:22:01.0'
OLD='root=/dev/mapper/pve-root ro quiet amd_iommu=on kvm_amd.sev=1 kvm_amd.sev_es=1 kvm_amd.sev_snp=1 mem_encrypt=on pcie_aspm=off'

# stand-ins for the loaders' commands: they log what they were asked
mkdir -p bin
for c in proxmox-boot-tool update-grub kernel-install; do
	printf '#!/bin/sh\necho %s "$@" >>"$STAND_LOG"\n' "$c" >"bin/$c"
done
printf '#!/bin/sh\necho 6.14.8-2-generic\n' >bin/uname
chmod +x bin/*
export STAND_LOG="$T_DIR/stand.log"

machine() { # NAME: a copy of the sample machine in the boot the plan is made in
	rm -rf "$1"
	cp -a "$SAMPLES/sysroot-1104" "$1"
	mkdir -p "$1/proc/sys/kernel/random"
	echo 6f1c3d2e-0b7a-4f43-9d55-1c2b3a4d5e6f >"$1/proc/sys/kernel/random/boot_id"
}
reboot() { # NAME CMDLINE: the next boot
	echo 0d9e8f7a-6b5c-4d3e-8f1a-2b3c4d5e6f70 >"$1/proc/sys/kernel/random/boot_id"
	printf '%s\n' "$2" >"$1/proc/cmdline"
}
script_ok() { # NAME FILE
	if sh -n "$2"; then pass "$1-sh-n"; else fail "$1-sh-n" "sh -n refuses the script"; fi
	if command -v shellcheck >/dev/null 2>&1; then
		if shellcheck -s sh "$2" >"$T_DIR/sc" 2>&1; then pass "$1-shellcheck"; else fail "$1-shellcheck" "$(head -c 300 "$T_DIR/sc")"; fi
	else
		skip "$1-shellcheck" "shellcheck is not installed"
	fi
}
run() { # NAME EXIT ROOT SCRIPT [--apply]
	name=$1 want=$2 root=$3 s=$4
	shift 4
	PATH="$T_DIR/bin:$PATH" FWLENS_ROOT="$T_DIR/$root" BACKUP="$T_DIR/$root.backup" t_run "$name" "$want" sh "$s" "$@"
}

# ---- Proxmox: etc/kernel/cmdline and etc/pve
machine pve
t_run pve-plan 0 fwlens plan pve --kernel-arg "$ACS" -o pve.sh
t_run pve-json 0 fwlens plan pve --kernel-arg "$ACS" --format json -o pve.json
python3 -c '
import json, sys
d = json.load(open("pve.json"))
assert d["kind"] == "kernel-args", d["kind"]
assert d["loader"] == "proxmox-boot-tool", d["loader"]
assert d["file"] == "etc/kernel/cmdline"
assert "etc/pve" in d["loader_why"] and "etc/kernel/cmdline holds the running options" in d["loader_why"], d["loader_why"]
assert d["options"] == [{"option": sys.argv[1], "action": "add", "in_file": False, "running": False}], d["options"]
assert d["edits"] == [{"line": 1, "old": sys.argv[2], "new": sys.argv[2] + " " + sys.argv[1]}], d["edits"]
assert d["made"]["boot_id"] == "6f1c3d2e-0b7a-4f43-9d55-1c2b3a4d5e6f"
' "$ACS" "$OLD" && pass pve-json-values || fail pve-json-values "loader, file, options or edit not as expected"
script_ok pve pve.sh
grep -q "^# Boot loader: proxmox-boot-tool, because etc/kernel/cmdline present and Proxmox (etc/pve)" pve.sh &&
	pass pve-says-why || fail pve-says-why "the script does not say why Proxmox"
run pve-dry-run 0 pve pve.sh
t_contains pve-dry-run-says "dry run: would save $T_DIR/pve/etc/kernel/cmdline in $T_DIR/pve.backup, write the lines above and run proxmox-boot-tool refresh"
[ "$(cat pve/etc/kernel/cmdline)" = "$OLD" ] && [ ! -e pve.backup ] && [ ! -e stand.log ] &&
	pass pve-dry-run-writes-nothing || fail pve-dry-run-writes-nothing "the dry run changed something"
run pve-apply 0 pve pve.sh --apply
[ "$(cat pve/etc/kernel/cmdline)" = "$OLD $ACS" ] && pass pve-apply-written || fail pve-apply-written "$(cat pve/etc/kernel/cmdline)"
[ "$(cat pve.backup/cmdline)" = "$OLD" ] && pass pve-apply-backup || fail pve-apply-backup "no backup of the old file"
[ "$(cat stand.log)" = "proxmox-boot-tool refresh" ] && pass pve-apply-refresh || fail pve-apply-refresh "$(cat stand.log)"
run pve-again 0 pve pve.sh --apply
t_contains pve-again-already-set "already set: $ACS in $T_DIR/pve/etc/kernel/cmdline"
[ "$(wc -l <stand.log)" -eq 1 ] && pass pve-again-no-refresh || fail pve-again-no-refresh "the loader ran again"
# verify: written but not rebooted, then after the reboot
t_run pve-verify-not-rebooted 6 fwlens plan pve --verify pve.json
t_contains pve-verify-not-rebooted-says "not yet rebooted $ACS"
t_contains pve-verify-not-rebooted-why "rebooted since the plan: no (pve boot id 6f1c3d2e-0b7a-4f43-9d55-1c2b3a4d5e6f, the plan's 6f1c3d2e-0b7a-4f43-9d55-1c2b3a4d5e6f)"
reboot pve "BOOT_IMAGE=/boot/vmlinuz-6.14.8-2-pve $OLD $ACS"
t_run pve-verify-after 0 fwlens plan pve --verify pve.json
t_contains pve-verify-after-says "in effect        $ACS"
t_contains pve-verify-after-count "1 of 1 planned options in effect"
# rebooted without the option (the loader was not refreshed): missing
reboot pve "BOOT_IMAGE=/boot/vmlinuz-6.14.8-2-pve $OLD"
t_run pve-verify-missing 1 fwlens plan pve --verify pve.json
t_contains pve-verify-missing-says "missing          $ACS"
# the file changed since the plan to neither text: refused, nothing written
machine pve2
echo "root=/dev/sda1 ro" >pve2/etc/kernel/cmdline
rm -f stand.log
run pve-stale 1 pve2 pve.sh --apply
grep -q "line 1 of $T_DIR/pve2/etc/kernel/cmdline is neither the plan's old nor its new text" "$T_ERR" &&
	[ "$(cat pve2/etc/kernel/cmdline)" = "root=/dev/sda1 ro" ] && [ ! -e stand.log ] &&
	pass pve-stale-refused || fail pve-stale-refused "$(cat "$T_ERR")"

# ---- removal: a name takes every occurrence, values of other pci= sub-options stay
machine rm
echo "$OLD pci=realloc iommu=soft iommu=pt" >rm/etc/kernel/cmdline
t_run rm-plan 0 fwlens plan rm --remove-kernel-arg iommu --kernel-arg pci=disable_acs_redir=0000:22:00.0 --format json -o rm.json
python3 -c '
import json, sys
d = json.load(open("rm.json"))
assert d["edits"][0]["new"] == sys.argv[1] + " pci=realloc pci=disable_acs_redir=0000:22:00.0", d["edits"]
' "$OLD" && pass rm-keeps-other-pci || fail rm-keeps-other-pci "$(cat rm.json)"

# ---- GRUB: etc/default/grub only
machine grub
rm -rf grub/etc/kernel grub/etc/pve
cat >grub/etc/default/grub <<'EOF'
GRUB_DEFAULT=0
GRUB_CMDLINE_LINUX_DEFAULT="quiet iommu=pt"
GRUB_CMDLINE_LINUX="root=/dev/sda1 iommu=soft"
EOF
t_run grub-plan 0 fwlens plan grub --kernel-arg "$ACS" --remove-kernel-arg iommu -o grub.sh
fwlens plan grub --kernel-arg "$ACS" --remove-kernel-arg iommu --format json -o grub.json
python3 -c '
import json, sys
d = json.load(open("grub.json"))
assert d["loader"] == "grub" and d["file"] == "etc/default/grub", d
assert d["loader_why"].startswith("etc/default/grub present and no etc/kernel/cmdline"), d["loader_why"]
assert d["edits"] == [
    {"line": 3, "old": "GRUB_CMDLINE_LINUX=\"root=/dev/sda1 iommu=soft\"", "new": "GRUB_CMDLINE_LINUX=\"root=/dev/sda1\""},
    {"line": 2, "old": "GRUB_CMDLINE_LINUX_DEFAULT=\"quiet iommu=pt\"", "new": "GRUB_CMDLINE_LINUX_DEFAULT=\"quiet " + sys.argv[1] + "\""}], d["edits"]
' "$ACS" && pass grub-edits || fail grub-edits "$(cat grub.json)"
script_ok grub grub.sh
cp grub/etc/default/grub grub.before
rm -f stand.log
run grub-dry-run 0 grub grub.sh
cmp -s grub.before grub/etc/default/grub && [ ! -e stand.log ] && pass grub-dry-run-writes-nothing ||
	fail grub-dry-run-writes-nothing "the dry run changed the file"
run grub-apply 0 grub grub.sh --apply
printf 'GRUB_DEFAULT=0\nGRUB_CMDLINE_LINUX_DEFAULT="quiet %s"\nGRUB_CMDLINE_LINUX="root=/dev/sda1"\n' "$ACS" >grub.want
cmp -s grub.want grub/etc/default/grub && pass grub-apply-written || fail grub-apply-written "$(cat grub/etc/default/grub)"
cmp -s grub.before grub.backup/grub && pass grub-apply-backup || fail grub-apply-backup "no backup"
[ "$(cat stand.log)" = "update-grub" ] && pass grub-apply-refresh || fail grub-apply-refresh "$(cat stand.log)"
run grub-again 0 grub grub.sh --apply
t_contains grub-again-already-set "already set: $ACS -iommu in $T_DIR/grub/etc/default/grub"
reboot grub "BOOT_IMAGE=/boot/vmlinuz root=/dev/sda1 quiet $ACS"
t_run grub-verify-after 0 fwlens plan grub --verify grub.json
t_contains grub-verify-after-removed "in effect        removed iommu"
# a value GRUB's shell would expand: refused
machine grub3
rm -rf grub3/etc/kernel grub3/etc/pve
echo 'GRUB_CMDLINE_LINUX_DEFAULT="quiet $EXTRA"' >grub3/etc/default/grub
t_run grub-shell-value 3 fwlens plan grub3 --kernel-arg "$ACS"
grep -q "etc/default/grub line 1: GRUB_CMDLINE_LINUX_DEFAULT is not a plain string" "$T_ERR" &&
	pass grub-shell-value-says || fail grub-shell-value-says "$(cat "$T_ERR")"

# ---- kernel-install: etc/kernel/cmdline without Proxmox
machine ki
rm -rf ki/etc/pve ki/etc/default/grub
echo 6.14.8-2-generic >ki/proc/sys/kernel/osrelease
mkdir -p ki/boot
: >ki/boot/vmlinuz-6.14.8-2-generic
t_run ki-plan 0 fwlens plan ki --kernel-arg iommu=pt -o ki.sh
grep -q "^# Boot loader: kernel-install, because etc/kernel/cmdline present and no sign of Proxmox" ki.sh &&
	pass ki-says-why || fail ki-says-why "$(sed -n 3p ki.sh)"
script_ok ki ki.sh
rm -f stand.log
run ki-apply 0 ki ki.sh --apply
[ "$(cat ki/etc/kernel/cmdline)" = "$OLD iommu=pt" ] && pass ki-apply-written || fail ki-apply-written "$(cat ki/etc/kernel/cmdline)"
[ "$(cat stand.log)" = "kernel-install add 6.14.8-2-generic $T_DIR/ki/boot/vmlinuz-6.14.8-2-generic" ] &&
	pass ki-apply-refresh || fail ki-apply-refresh "$(cat stand.log)"
run ki-again 0 ki ki.sh --apply
t_contains ki-again-already-set "already set: iommu=pt"

# ---- systemd-boot entries and no cmdline file: created from the running command line
machine sd
rm -rf sd/etc/pve sd/etc/default/grub sd/etc/kernel
mkdir -p sd/boot/loader/entries
: >sd/boot/vmlinuz-6.14.8-2-generic
t_run sd-plan 0 fwlens plan sd --kernel-arg iommu=pt -o sd.sh
script_ok sd sd.sh
run sd-apply 0 sd sd.sh --apply
[ "$(cat sd/etc/kernel/cmdline)" = "$OLD iommu=pt" ] && pass sd-apply-created || fail sd-apply-created "$(cat sd/etc/kernel/cmdline 2>&1)"
run sd-again 0 sd sd.sh --apply
t_contains sd-again-already-set "already set: iommu=pt"

# ---- bad input
t_run no-loader 3 fwlens plan "$SAMPLES/sysroot-snp-guest" --kernel-arg iommu=pt
machine none
rm -rf none/etc/kernel none/etc/default/grub
t_run no-loader-files 3 fwlens plan none --kernel-arg iommu=pt
grep -q "no boot loader configuration in none: looked for etc/kernel/cmdline (proxmox-boot-tool, kernel-install), etc/default/grub (GRUB)" "$T_ERR" &&
	pass no-loader-says || fail no-loader-says "$(cat "$T_ERR")"
t_run quoted-option 2 fwlens plan pve --kernel-arg "a='b c'"
t_run both-ways 2 fwlens plan pve --kernel-arg iommu=pt --remove-kernel-arg iommu
t_run with-set 2 fwlens plan pve --kernel-arg iommu=pt --set SMEE=Enable
t_run image-source 2 fwlens plan "$SAMPLES/ESC8000A-E13-ASUS-1104.CAP" --kernel-arg iommu=pt

# a hostile cmdline file: shell text in it stays data in the script and in the file
machine evil
printf '%s\n' "root=/dev/sda1 x='\$(touch $T_DIR/pwned)' y=\`touch $T_DIR/pwned\`" >evil/etc/kernel/cmdline
cp evil/etc/kernel/cmdline evil.before
t_run evil-plan 0 fwlens plan evil --kernel-arg iommu=pt -o evil.sh
script_ok evil evil.sh
run evil-apply 0 evil evil.sh --apply
[ ! -e pwned ] && [ "$(cat evil/etc/kernel/cmdline)" = "$(cat evil.before) iommu=pt" ] && pass evil-stays-data ||
	fail evil-stays-data "$(cat evil/etc/kernel/cmdline)"
printf 'root=/dev/sda1 \033]0;x\007\n' >evil/etc/kernel/cmdline
t_run evil-control 3 fwlens plan evil --kernel-arg iommu=pt
grep -q "etc/kernel/cmdline: a control character at byte 15: edit it by hand" "$T_ERR" && pass evil-control-says ||
	fail evil-control-says "$(cat "$T_ERR")"
