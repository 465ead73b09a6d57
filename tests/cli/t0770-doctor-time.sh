#!/bin/sh
# doctor judges each device by its latest state in the kernel log: GPUs whose driver failed and
# that were removed, re-enumerated by a rescan and bound cleanly are history (warn, no recovery);
# an error after the latest enumeration or probe is current (fail, recovery for those GPUs only);
# identity domains with a working driver warn without a reset; a journal with several boots is
# judged on its last boot.
. "$(dirname "$0")/lib.sh"

t_need_file samples-present "$SAMPLES/sysroot-1104-identity" "the samples are not built (make samples)" || exit 0

# Two GPUs of the identity sample recovered by hand: groups back to DMA-FQ, removed, rescanned and
# bound to nvidia with no error since; 0000:43:00.0 and 0000:44:00.0 still failing.
rec="$T_DIR/recovered"
cp -R "$SAMPLES/sysroot-1104-identity" "$rec"
cat >>"$rec/var/log/dmesg" <<'LOG'
[ 7700.000000] pci 0000:23:00.0: Removing from iommu group 13
[ 7700.100000] pci 0000:24:00.0: Removing from iommu group 15
[ 7701.000000] pci 0000:23:00.0: [10de:2bb5] type 00 class 0x030200 PCIe Legacy Endpoint
[ 7701.000100] pci 0000:23:00.0: Adding to iommu group 13
[ 7701.000200] pci 0000:24:00.0: [10de:2bb5] type 00 class 0x030200 PCIe Legacy Endpoint
[ 7701.000300] pci 0000:24:00.0: Adding to iommu group 15
[ 7701.200000] nvidia 0000:23:00.0: enabling device (0000 -> 0002)
[ 7701.400000] nvidia 0000:24:00.0: enabling device (0000 -> 0002)
LOG
for g in 13 15; do printf 'DMA-FQ\n' >"$rec/sys/kernel/iommu_groups/$g/type"; done
for d in 0000:23:00.0 0000:24:00.0; do ln -s ../../../../../../bus/pci/drivers/nvidia "$rec/sys/bus/pci/devices/$d/driver"; done

t_run recovered-two-fail-two 1 fwlens doctor "$rec" --format json
python3 - "$T_OUT" "$rec" <<'PY' && pass recovered-history-and-current || fail recovered-history-and-current "see above"
import json, sys
d = json.load(open(sys.argv[1])); src = sys.argv[2]
c = {x["id"]: x for x in d["checks"]}
g = c["gpu-driver-init"]
assert g["status"] == "fail", g["status"]
e = g["explanation"]
M = "NVIDIA Corporation GB202GL [RTX PRO 6000 Blackwell Server Edition] (10de:2bb5)"
assert (f"GPU 0000:23:00.0 ({M}, IOMMU group 13, DMA-FQ now): 1 FSP error 0x177, 1 RmInitAdapter failed "
        "(0x62:0xffff:2142), 1 probe error -1, first at 7602.300000 s; recovered at 7701.000000 s: re-enumerated, "
        "then enabled by nvidia at 7701.200000 s, no error since; bound to nvidia now.") in e, e
assert (f"GPU 0000:43:00.0 ({M}, IOMMU group 21, identity now): 1 FSP error 0x177, 1 RmInitAdapter failed "
        "(0x62:0xffff:2142), 1 probe error -1, first at 7606.900800 s; failing now: the last error at 7606.901200 s "
        "comes after its latest probe.") in e, e
texts = [x["text"] for x in g["evidence"]]
assert ("0000:24:00.0: recovered at 7701.000200 s: re-enumerated, then enabled by nvidia at 7701.400000 s, no error "
        "since; bound to nvidia now") in texts, texts
fix = g["fix"]
# the recovery names the failing GPUs only, each with its group and bridge, and the plan command
assert fix.startswith("Recover only the GPUs whose driver failed: 0000:43:00.0 (IOMMU group 21, upstream bridge "
                      "0000:42:00.0), 0000:44:00.0 (IOMMU group 23, upstream bridge 0000:42:01.0)."), fix
assert f"fwlens plan {src} --gpu-recovery 0000:43:00.0,0000:44:00.0 -o recover.sh" in fix, fix
assert "0000:23:00.0" not in fix and "0000:22:00.0" not in fix, fix
i = c["gpu-identity-domains"]
assert i["status"] == "fail" and i["explanation"].startswith(
    "2 Blackwell GPUs are in identity groups and failing: 0000:43:00.0 (group 21), 0000:44:00.0 (group 23)."), i
assert "0000:23:00.0" not in i["fix"], i["fix"]
PY

# All four recovered: history only, a warn with no recovery.
all4="$T_DIR/all4"
cp -R "$rec" "$all4"
cat >>"$all4/var/log/dmesg" <<'LOG'
[ 7800.000000] pci 0000:43:00.0: Removing from iommu group 21
[ 7800.100000] pci 0000:44:00.0: Removing from iommu group 23
[ 7801.000000] pci 0000:43:00.0: [10de:2bb5] type 00 class 0x030200 PCIe Legacy Endpoint
[ 7801.000200] pci 0000:44:00.0: [10de:2bb5] type 00 class 0x030200 PCIe Legacy Endpoint
[ 7801.200000] nvidia 0000:43:00.0: enabling device (0000 -> 0002)
[ 7801.400000] nvidia 0000:44:00.0: enabling device (0000 -> 0002)
LOG
for g in 21 23; do printf 'DMA-FQ\n' >"$all4/sys/kernel/iommu_groups/$g/type"; done
for d in 0000:43:00.0 0000:44:00.0; do ln -s ../../../../../../bus/pci/drivers/nvidia "$all4/sys/bus/pci/devices/$d/driver"; done
fwlens doctor "$all4" --format json >"$T_DIR/all4.json" 2>/dev/null
python3 - "$T_DIR/all4.json" <<'PY' && pass recovered-all-warns || fail recovered-all-warns "see above"
import json, sys
c = {x["id"]: x for x in json.load(open(sys.argv[1]))["checks"]}
g = c["gpu-driver-init"]
assert g["status"] == "warn" and g["fix"] is None, (g["status"], g["fix"])
assert g["explanation"].endswith("Every failure above is history: the GPU was enumerated or probed again after it and "
                                 "no error was logged since. Nothing to recover; keep its group translating."), g
assert "recovered at 7801.000000 s: re-enumerated, then enabled by nvidia at 7801.200000 s" in g["explanation"]
assert c["gpu-identity-domains"]["status"] == "pass", c["gpu-identity-domains"]
for x in c.values():
    assert "setpci" not in (x["fix"] or ""), x["id"]
PY

# A rebind without a rescan that fails again is current; an Xid after a clean probe is current.
again="$T_DIR/again"
cp -R "$rec" "$again"
printf '[ 7900.000000] NVRM: Xid (PCI:0000:23:00): 79, pid=1234, name=python3, GPU has fallen off the bus.\n' >>"$again/var/log/dmesg"
fwlens doctor "$again" --format json >"$T_DIR/again.json" 2>/dev/null
python3 - "$T_DIR/again.json" <<'PY' && pass error-after-recovery-is-current || fail error-after-recovery-is-current "see above"
import json, sys
c = {x["id"]: x for x in json.load(open(sys.argv[1]))["checks"]}
e = c["gpu-driver-init"]["explanation"]
M = "NVIDIA Corporation GB202GL [RTX PRO 6000 Blackwell Server Edition] (10de:2bb5)"
assert (f"GPU 0000:23:00.0 ({M}, IOMMU group 13, DMA-FQ now): 1 FSP error 0x177, 1 RmInitAdapter failed "
        "(0x62:0xffff:2142), 1 probe error -1, 1 Xid 79, first at 7602.300000 s; failing now: the last error at "
        "7900.000000 s comes after its latest probe.") in e, e
PY

# Identity domains set at boot (iommu=pt) with the driver initialised on every host GPU: a warn
# that says do not unbind, never a fail or a reset.
boot="$T_DIR/identity-boot"
cp -R "$SAMPLES/sysroot-1104" "$boot"
sed -i 's/$/ iommu=pt/' "$boot/proc/cmdline"
for g in 13 15 21 23; do printf 'identity\n' >"$boot/sys/kernel/iommu_groups/$g/type"; done
sed -i '/IO_PAGE_FAULT\|event log overflow/d' "$boot/var/log/dmesg"
cat >>"$boot/var/log/dmesg" <<'LOG'
[   10.500000] nvidia 0000:23:00.0: enabling device (0000 -> 0002)
[   10.600000] nvidia 0000:24:00.0: enabling device (0000 -> 0002)
[   10.700000] nvidia 0000:43:00.0: enabling device (0000 -> 0002)
[   10.800000] nvidia 0000:44:00.0: enabling device (0000 -> 0002)
LOG
fwlens doctor "$boot" --format json >"$T_DIR/boot.json" 2>/dev/null
python3 - "$T_DIR/boot.json" <<'PY' && pass identity-working-warns || fail identity-working-warns "see above"
import json, sys
c = {x["id"]: x for x in json.load(open(sys.argv[1]))["checks"]}
i = c["gpu-identity-domains"]
assert i["status"] == "warn", i["status"]
assert i["explanation"] == ("4 Blackwell GPUs are in identity groups with their driver initialised and no error since: "
    "0000:23:00.0 (group 13), 0000:24:00.0 (group 15), 0000:43:00.0 (group 21), 0000:44:00.0 (group 23). They work "
    "now; Blackwell FSP init is known to fail when the driver re-initialises under identity: do not unbind them, and "
    "return the groups to DMA-FQ only at a planned stop (a reboot does it)."), i["explanation"]
assert "0000:23:00.0: enabled by nvidia at 10.500000 s, no error since" in [e["text"] for e in i["evidence"]]
assert c["gpu-driver-init"]["status"] == "pass", c["gpu-driver-init"]
import re
for x in c.values():
    f = x["fix"] or ""
    # no reset, no PCI remove (a kernel option's --remove-kernel-arg is not one), no recovery plan
    assert "setpci" not in f and not re.search(r"remove(?!-kernel-arg)", f) and "--gpu-recovery" not in f, (x["id"], f)
PY

# A journal (journalctl -k -o short-monotonic) holding two boots: the failures of the first are
# not this boot's.
jr="$T_DIR/journal"
cp -R "$SAMPLES/sysroot-1104" "$jr"
sed -i '/IO_PAGE_FAULT\|event log overflow/d' "$jr/var/log/dmesg"
{
	echo '-- Boot 1a2b3c4d5e6f47a8b9c0d1e2f3a4b5c6 --'
	grep -h 'NVRM\|probe of' "$SAMPLES/sysroot-1104-identity/var/log/dmesg" | sed 's/^\(\[[^]]*\]\)/\1 pve kernel:/'
	echo '-- Boot 9f8e7d6c5b4a49382716a5b4c3d2e1f0 --'
	sed 's/^\(\[[^]]*\]\)/\1 pve kernel:/' "$jr/var/log/dmesg"
} >"$jr/var/log/dmesg.new"
mv "$jr/var/log/dmesg.new" "$jr/var/log/dmesg"
fwlens doctor "$jr" --format json >"$T_DIR/jr.json" 2>/dev/null
python3 - "$T_DIR/jr.json" <<'PY' && pass journal-last-boot || fail journal-last-boot "see above"
import json, sys
c = {x["id"]: x for x in json.load(open(sys.argv[1]))["checks"]}
g = c["gpu-driver-init"]
assert g["status"] == "pass", g
texts = [e["text"] for e in g["evidence"]]
assert "the log holds 1 earlier boot; only the last boot's lines are judged" in texts, texts
PY
