#!/bin/sh
# doctor: every verdict carries the evidence it was drawn from, and no check passes on a premise
# another check contradicts, on the sample machines (reference host, identity/FSP failure state,
# SNP guest), the image alone, an empty machine and edited copies of the reference host.
. "$(dirname "$0")/lib.sh"

t_need_file samples-present "$SAMPLES/sysroot-1104" "the samples are not built (make samples)" || exit 0
IMG="$SAMPLES/ESC8000A-E13-ASUS-1104.CAP"
mkdir -p "$T_DIR/empty/proc"
cp -R "$SAMPLES/sysroot-1104" "$T_DIR/pt"
printf 'root=/dev/sda1 iommu=pt\n' >"$T_DIR/pt/proc/cmdline"
cp -R "$SAMPLES/sysroot-1104" "$T_DIR/nogroups"
rm -rf "$T_DIR/nogroups/sys/kernel/iommu_groups"/*
cp -R "$SAMPLES/sysroot-1104" "$T_DIR/nolog"
rm -f "$T_DIR/nolog/var/log/dmesg"
cp -R "$SAMPLES/sysroot-1104" "$T_DIR/nosme"
sed -i 's/"mem_encrypt": true/"mem_encrypt": false/' "$T_DIR/nosme/fwlens/probes/sev.json"
cp -R "$SAMPLES/sysroot-1104" "$T_DIR/twice"
printf 'hostpci9: 0000:23:00.0,pcie=1\n' >>"$T_DIR/twice/etc/pve/qemu-server/100.conf"
cp -R "$SAMPLES/sysroot-1104" "$T_DIR/vm"
printf 'QEMU\n' >"$T_DIR/vm/sys/class/dmi/id/sys_vendor"

n=0
for m in "$SAMPLES/sysroot-1104" "$SAMPLES/sysroot-1201" "$SAMPLES/sysroot-1104-identity" "$SAMPLES/sysroot-snp-guest" \
	"$T_DIR/empty" "$T_DIR/pt" "$T_DIR/nogroups" "$T_DIR/nolog" "$T_DIR/nosme" "$T_DIR/twice" "$T_DIR/vm" "$IMG"; do
	n=$((n + 1))
	case "$m" in *.CAP) set -- ;; *) set -- --image "$IMG" ;; esac
	"$FWLENS" doctor "$m" "$@" --format json >"$T_DIR/d$n.json" 2>/dev/null
	echo "$m" >"$T_DIR/d$n.name"
done
python3 - "$T_DIR" "$n" <<'PY' && pass doctor-evidence-and-no-contradiction || fail doctor-evidence-and-no-contradiction "see above"
import json, sys
d, n = sys.argv[1], int(sys.argv[2])
# (A passes, B says) pairs: A's pass rests on something B's verdict denies
contradicts = [
    ("kernel-iommu-mode", "iommu-group-types", ("fail", "warn")),
    ("kernel-iommu-mode", "gpu-identity-domains", ("fail",)),
    ("bios-iommu", "acpi-ivrs", ("fail",)),
    ("bios-iommu", "iommu-group-types:no IOMMU groups", ("fail",)),
    ("bios-sev-snp-support", "kernel-iommu-snp", ("fail",)),
    ("bios-snp-rmp-coverage", "kernel-snp-log", ("fail",)),
    ("bios-smee", "cpu-flags", ("fail",)),
    ("bios-sev-control", "ccp-firmware", ("fail",)),
    ("bios-sev-asid-limit", "kvm-amd-sev", ("fail",)),
    ("gpu-driver-init", "gpu-identity-domains", ("fail",)),
    ("iommu-group-types", "gpu-identity-domains", ("fail",)),
    ("bios-smee", "sev-platform", ("fail",)),
]
bad = []
for i in range(1, n + 1):
    name = open(f"{d}/d{i}.name").read().strip()
    doc = json.load(open(f"{d}/d{i}.json"))
    st = {c["id"]: c for c in doc["checks"]}
    for c in doc["checks"]:
        if not c["evidence"]:
            bad.append(f"{name}: {c['id']} ({c['status']}) has no evidence")
        for e in c["evidence"]:
            if not (e.get("kind") and e.get("from") and e.get("text")):
                bad.append(f"{name}: {c['id']} evidence lacks kind/from/text: {e}")
        if c["status"] != "skip" and all(e["kind"] == "absent" for e in c["evidence"]):
            bad.append(f"{name}: {c['id']} is {c['status']} on absent evidence only")
        if c["status"] == "skip" and not c["explanation"]:
            bad.append(f"{name}: {c['id']} skips without a reason")
        for e in c["evidence"]:
            if e["kind"] == "setting" and ("(not an option)" in e["text"] or "default ?" in e["text"]):
                bad.append(f"{name}: {c['id']}: {e['text']}")
    for a, b, says in contradicts:
        b, _, because = b.partition(":")
        if a in st and b in st and st[a]["status"] == "pass" and st[b]["status"] in says and because in st[b]["explanation"]:
            bad.append(f"{name}: {a} passes but {b} says {st[b]['status']}")
    if "snp-guest" in name or name.endswith("/vm"):
        for c in doc["checks"]:
            if c["id"].startswith(("bios-", "kernel-", "cpu-", "acpi-")):
                assert c["status"] == "skip", (name, c["id"])
            assert not (c["fix"] or "").startswith("Set SMEE"), (name, c["id"])
st = {}
for i in range(1, n + 1):
    name = open(f"{d}/d{i}.name").read().strip()
    st[name.rsplit("/", 1)[-1]] = {c["id"]: c for c in json.load(open(f"{d}/d{i}.json"))["checks"]}
if st["nosme"]["sev-platform"]["status"] != "fail" or st["nosme"]["bios-smee"]["status"] != "warn":
    bad.append("nosme: the SMEE/SYSCFG disagreement is not flagged")
if st["twice"]["gpu-assignment"]["status"] != "fail" or st["sysroot-1104"]["gpu-assignment"]["status"] != "pass":
    bad.append("gpu-assignment: the GPU given to a VM and a container is not flagged")
if st["sysroot-1104"]["sev-platform"]["status"] != "pass":
    bad.append("sysroot-1104: sev-platform does not pass")
for b in bad:
    print(b)
sys.exit(1 if bad else 0)
PY
# the identity state of the story: which GPUs, why, and the recovery as commands in order
t_run doctor-identity 1 fwlens doctor "$SAMPLES/sysroot-1104-identity" --format json
python3 - "$T_OUT" <<'PY' && pass doctor-identity-story || fail doctor-identity-story "the identity story lacks a fact"
import json, sys
d = {c["id"]: c for c in json.load(open(sys.argv[1]))["checks"]}
g = d["gpu-identity-domains"]
assert g["status"] == "fail", g
assert "4 Blackwell GPUs are in identity groups and failing: 0000:23:00.0 (group 13)" in g["explanation"], g["explanation"]
fix = g["fix"]
steps = ["echo DMA-FQ > /sys/kernel/iommu_groups/13/type", "echo 1 > /sys/bus/pci/devices/0000:23:00.0/remove",
         "setpci -s 0000:22:00.0 BRIDGE_CONTROL=0x40:0x40", "echo 1 > /sys/bus/pci/rescan", "cold power cycle"]
pos = [fix.find(s) for s in steps]
assert all(p >= 0 for p in pos) and pos == sorted(pos), (pos, fix)
assert "/bind" not in fix.replace("/unbind", "")
i = d["gpu-driver-init"]
assert i["status"] == "fail"
e = i["explanation"]
assert "GPU 0000:23:00.0 (NVIDIA Corporation GB202GL [RTX PRO 6000 Blackwell Server Edition] (10de:2bb5), IOMMU group 13, identity now)" in e, e
assert "0x62:0xffff:2142" in e and "FSP error 0x177" in e and "Cause:" in e
f = d["p2p-io-page-faults"]
assert "identity now" in f["explanation"] and "before its type was changed" in f["explanation"], f["explanation"]
PY
t_run doctor-guest 0 fwlens doctor "$SAMPLES/sysroot-snp-guest" --format json
python3 -c "
import json,sys; d={c['id']:c for c in json.load(open('$T_OUT'))['checks']}
assert d['guest-snp']['status']=='pass' and d['guest-gpus']['status']=='pass'
assert any('Memory Encryption Features active: AMD SEV SEV-ES SEV-SNP' in e['text'] for e in d['guest-snp']['evidence'])
" && pass doctor-guest-snp || fail doctor-guest-snp "the SNP guest is not recognised"
