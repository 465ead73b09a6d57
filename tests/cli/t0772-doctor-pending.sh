#!/bin/sh
# Stored versus running: a kernel command line or module option stored for the next boot but not
# yet booted is "pending" (both sides in the evidence, exit 0 on its own), in every output form;
# a snapshot records the boot it was taken in.
. "$(dirname "$0")/lib.sh"

t_need_file samples-present "$SAMPLES/sysroot-1104" "the samples are not built (make samples)" || exit 0

# amd_iommu=on dropped and iommu.strict=1 added in the stored command line, not yet booted
pd="$T_DIR/pending"
cp -R "$SAMPLES/sysroot-1104" "$pd"
printf 'root=/dev/mapper/pve-root ro quiet kvm_amd.sev=1 kvm_amd.sev_es=1 kvm_amd.sev_snp=1 mem_encrypt=on pcie_aspm=off iommu.strict=1\n' >"$pd/etc/kernel/cmdline"
printf 'options kvm_amd sev_snp=1\n' >"$pd/etc/modprobe.d/kvm.conf"
mkdir -p "$pd/sys/module/kvm_amd/parameters"
printf 'N\n' >"$pd/sys/module/kvm_amd/parameters/sev_snp"
t_run pending-json 1 fwlens doctor "$pd" --profile sev-snp-host --format json
python3 - "$T_OUT" <<'PY' && pass pending-both-sides || fail pending-both-sides "see above"
import json, sys
d = json.load(open(sys.argv[1]))
c = {x["id"]: x for x in d["checks"]}
b = c["boot-pending"]
assert b["status"] == "pending", b["status"]
assert b["explanation"] == ("The configuration stored for the next boot differs from what runs now (2 command-line "
    "options, 1 module option; see the evidence for both sides). The checks that read /proc/cmdline and /sys/module "
    "judge the running values; their verdicts change at the next boot."), b["explanation"]
ev = [(e["from"], e["text"]) for e in b["evidence"]]
assert ("etc/kernel/cmdline", "the next boot adds: iommu.strict=1") in ev, ev
assert ("etc/kernel/cmdline", "the next boot drops: amd_iommu=on") in ev, ev
assert ("proc/cmdline", "running: BOOT_IMAGE=/boot/vmlinuz-6.14.8-2-pve root=/dev/mapper/pve-root ro quiet amd_iommu=on "
        "kvm_amd.sev=1 kvm_amd.sev_es=1 kvm_amd.sev_snp=1 mem_encrypt=on pcie_aspm=off") in ev, ev
assert ("etc/modprobe.d/kvm.conf", "kvm_amd sev_snp=1 stored; sys/module/kvm_amd/parameters/sev_snp running: N (differs)") in ev, ev
assert d["summary"]["pending"] == 1 and d["summary"]["accepted"] == 0, d["summary"]
PY

# GRUB's form: GRUB_CMDLINE_LINUX_DEFAULT and GRUB_CMDLINE_LINUX, root= and ro added by GRUB itself.
gr="$T_DIR/grub"
cp -R "$SAMPLES/sysroot-1104" "$gr"
rm "$gr/etc/kernel/cmdline"
cat >"$gr/etc/default/grub" <<'GRUB'
GRUB_DEFAULT=0
#GRUB_CMDLINE_LINUX_DEFAULT="quiet iommu=pt"
GRUB_CMDLINE_LINUX_DEFAULT="quiet"
GRUB_CMDLINE_LINUX='amd_iommu=on kvm_amd.sev=1 kvm_amd.sev_es=1 kvm_amd.sev_snp=1 mem_encrypt=on pcie_aspm=off'
GRUB
t_run grub-agrees 0 fwlens doctor "$gr" --profile sev-snp-host --format json
python3 - "$T_OUT" <<'PY' && pass grub-same-is-pass || fail grub-same-is-pass "see above"
import json, sys
c = {x["id"]: x for x in json.load(open(sys.argv[1]))["checks"]}
assert c["boot-pending"]["status"] == "pass", c["boot-pending"]
PY
sed -i 's/pcie_aspm=off/pcie_aspm=off iommu=pt/' "$gr/etc/default/grub"
t_run grub-pending-exit-0 0 fwlens doctor "$gr" --profile sev-snp-host
t_contains grub-pending-text "PENDING  The running kernel uses the stored command line and module options  (boot-pending)"
t_contains grub-pending-summary ", 1 pending"
t_run grub-pending-md 0 fwlens doctor "$gr" --profile sev-snp-host --format markdown
t_contains grub-pending-md-row "| pending | The running kernel uses the stored command line and module options | boot-pending |"
t_run grub-pending-prom 0 fwlens doctor "$gr" --profile sev-snp-host --format prometheus
t_contains grub-pending-prom-state 'fwlens_doctor_check_status{host="'
grep -q 'check="boot-pending",status="pending"} 1' "$T_OUT" && pass grub-pending-prom-1 || fail grub-pending-prom-1 "no pending state"
grep -q 'fwlens_doctor_checks{host=".*",status="pending"} 1' "$T_OUT" && pass grub-pending-prom-count || fail grub-pending-prom-count "no pending count"
t_run grub-pending-notes 0 fwlens notes "$gr"
grep -q '^- Doctor: [0-9]* pass, [0-9]* warn, [0-9]* fail, [0-9]* skip, 1 pending (`fwlens doctor`)$' "$T_OUT" &&
	pass grub-pending-notes-count || fail grub-pending-notes-count "$(grep '^- Doctor:' "$T_OUT")"
t_run grub-pending-om 0 fwlens doctor "$gr" --profile sev-snp-host --format openmetrics
grep -q 'check="boot-pending",fwlens_doctor_check_status="pending"} 1' "$T_OUT" && pass grub-pending-openmetrics || fail grub-pending-openmetrics "no pending state"

# The snapshot records the boot it was taken in (boot id, boot time) and when.
mkdir -p "$pd/proc/sys/kernel/random"
printf '3f1c2d4e-5a6b-4c7d-8e9f-0a1b2c3d4e5f\n' >"$pd/proc/sys/kernel/random/boot_id"
printf 'cpu  1 2 3 4\nbtime 1764900000\n' >"$pd/proc/stat"
fwlens snapshot capture --root "$pd" -o "$T_DIR/pd.fwsnap" -q
t_run snapshot-pending 1 fwlens doctor "$T_DIR/pd.fwsnap" --profile sev-snp-host --format json
python3 - "$T_OUT" <<'PY' && pass snapshot-keeps-pending || fail snapshot-keeps-pending "see above"
import json, sys
c = {x["id"]: x for x in json.load(open(sys.argv[1]))["checks"]}
assert c["boot-pending"]["status"] == "pending", c["boot-pending"]
PY
t_run snapshot-boot 0 fwlens snapshot show "$T_DIR/pd.fwsnap" --format json
python3 - "$T_OUT" <<'PY' && pass snapshot-records-boot || fail snapshot-records-boot "see above"
import json, sys
f = json.load(open(sys.argv[1]))["facts"]
assert f["boot_id"] == "3f1c2d4e-5a6b-4c7d-8e9f-0a1b2c3d4e5f" and f["boot_time"] == 1764900000, f
assert f["kernel_log_from"] == "var/log/dmesg", f
PY

# A BIOS value stored for the next boot (SMEE Enable in efivarfs) while the running machine has
# memory encryption off (SYSCFG MemEncryptionModEn 0, no sme flag): pending on both checks, the
# stored value judged for the next boot, the running state for now.
bs="$T_DIR/bios-stored"
cp -R "$SAMPLES/sysroot-1104" "$bs"
sed -i 's/"mem_encrypt": true/"mem_encrypt": false/' "$bs/fwlens/probes/sev.json"
sed -i '/^flags/s/ sme / /' "$bs/proc/cpuinfo"
t_run bios-pending 0 fwlens doctor "$bs" --image "$SAMPLES/ESC8000A-E13-ASUS-1104.CAP" --profile sev-snp-host --format json
python3 - "$T_OUT" <<'PY' && pass bios-stored-vs-running || fail bios-stored-vs-running "see above"
import json, sys
c = {x["id"]: x for x in json.load(open(sys.argv[1]))["checks"]}
s = c["bios-smee"]
assert s["status"] == "pending", s["status"]
assert s["explanation"].startswith("Stored for the next boot: Enable, right for SEV-SNP. Running now: SYSCFG "
                                   "MemEncryptionModEn 0, memory encryption off."), s["explanation"]
kinds = [(e["kind"], e["from"].split(" ")[0]) for e in s["evidence"]]
assert ("setting", "AmdSetupBRH+0x33/1") in kinds or any(k == "setting" for k, _ in kinds), kinds
assert ("file", "fwlens/probes/sev.json") in kinds, kinds
p = c["sev-platform"]
assert p["status"] == "pending", p["status"]
assert p["explanation"] == ("The BIOS values stored for the next boot differ from the running state: SMEE is Enable in "
    "the BIOS but SYSCFG MemEncryptionModEn is 0. They take effect at the next (cold) boot; the hardware and the "
    "kernel agree with each other now."), p["explanation"]
PY

# Facts name their side (running) and the boot they belong to.
t_run facts-side-boot 0 fwlens query "$pd" --topic sev-snp --format json
python3 - "$T_OUT" <<'PY' && pass facts-carry-side-and-boot || fail facts-carry-side-and-boot "see above"
import json, sys
f = json.load(open(sys.argv[1]))["facts"]
assert f and all(x["side"] == "running" and x["boot"] == "3f1c2d4e-5a6b-4c7d-8e9f-0a1b2c3d4e5f" for x in f), f[:2]
PY
