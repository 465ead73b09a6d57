#!/bin/sh
# doctor knows whose device it is: a fault from a GPU bound to vfio-pci is the guest's (never
# matched against host BARs, never blamed on host P2P), a GPU without a driver cannot pass
# gpu-assignment, pcie_acs_override on a Proxmox kernel fakes the groups, /dev/sev missing while
# ccp enabled SEV is a missing node, and the ACS fix names the machine's own ports.
. "$(dirname "$0")/lib.sh"

t_need_file samples-present "$SAMPLES/sysroot-1104" "the samples are not built (make samples)" || exit 0

# The SNP guest's GPU faults (bound to vfio-pci on the host, owned by VM 100); the host GPUs' P2P
# faults removed. Its address lies inside a host GPU's BAR1 range: it must not be matched.
vf="$T_DIR/vfio-fault"
cp -R "$SAMPLES/sysroot-1104" "$vf"
sed -i '/IO_PAGE_FAULT\|event log overflow/d' "$vf/var/log/dmesg"
printf '[ 5000.000000] vfio-pci 0000:a3:00.0: AMD-Vi: Event logged [IO_PAGE_FAULT domain=0x0031 address=0x2a000040000 flags=0x0020]\n' >>"$vf/var/log/dmesg"
printf '[ 5000.000100] vfio-pci 0000:a3:00.0: AMD-Vi: Event logged [IO_PAGE_FAULT domain=0x0031 address=0x2a000041000 flags=0x0020]\n' >>"$vf/var/log/dmesg"
t_run vfio-fault-not-failing 0 fwlens doctor "$vf" --profile p2p --format json
python3 - "$T_OUT" <<'PY' && pass vfio-fault-is-the-guests || fail vfio-fault-is-the-guests "see above"
import json, sys
c = {x["id"]: x for x in json.load(open(sys.argv[1]))["checks"]}
p = c["p2p-io-page-faults"]
assert p["status"] == "warn", p["status"]
assert p["explanation"] == ("2 IO_PAGE_FAULT events, all from devices bound to vfio-pci: the faulting addresses are "
    "the guest's DMA addresses in its own domain, so these are the guest's faults, not P2P between the host's GPUs."), p
texts = [e["text"] for e in p["evidence"]]
assert ("2 IO_PAGE_FAULT from 0000:a3:00.0 (bound to vfio-pci, VM 100, domain 0x31) at 0x2a000040000..0x2a000041000: "
        "guest addresses, not matched against the host's BARs") in texts, texts
assert not any("BAR1 of" in t for t in texts), texts
assert "NCCL" not in p["fix"] and "NCCL" not in p["explanation"], p["fix"]
PY

# Faults of a host GPU on system memory: not "between GPUs", so no fail under that title.
sm="$T_DIR/sysmem-fault"
cp -R "$vf" "$sm"
printf '[ 5100.000000] nvidia 0000:23:00.0: AMD-Vi: Event logged [IO_PAGE_FAULT domain=0x001d address=0x1000 flags=0x0020]\n' >>"$sm/var/log/dmesg"
t_run sysmem-fault-warns 0 fwlens doctor "$sm" --profile p2p --format json
python3 - "$T_OUT" <<'PY' && pass sysmem-fault-not-between-gpus || fail sysmem-fault-not-between-gpus "see above"
import json, sys
c = {x["id"]: x for x in json.load(open(sys.argv[1]))["checks"]}
p = c["p2p-io-page-faults"]
assert p["status"] == "warn", p["status"]
assert p["explanation"] == ("1 IO_PAGE_FAULT event from the host's devices, none of them on a GPU's BAR: faults on "
    "system memory or unmapped addresses, not between GPUs."), p["explanation"]
PY

# The ACS redirect fix names the real downstream ports.
t_run acs-ports 1 fwlens doctor "$SAMPLES/sysroot-1104" --profile p2p --format json
python3 - "$T_OUT" <<'PY' && pass acs-fix-names-ports || fail acs-fix-names-ports "see above"
import json, sys
c = {x["id"]: x for x in json.load(open(sys.argv[1]))["checks"]}
f = c["acs-gpu-paths"]["fix"]
assert "add pci=disable_acs_redir=0000:22:00.0;0000:22:01.0;0000:42:00.0;0000:42:01.0 to the kernel command line" in f, f
assert "BDF" not in f, f
PY

# GPUs of the identity sample: the four host GPUs have no driver; given to a container, they
# cannot be used (fail); given to nobody, they are unowned (warn).
nd="$T_DIR/nodriver"
cp -R "$SAMPLES/sysroot-1104-identity" "$nd"
fwlens doctor "$nd" --profile vfio --format json >"$T_DIR/nd.json" 2>/dev/null
python3 - "$T_DIR/nd.json" <<'PY' && pass no-driver-no-owner-warns || fail no-driver-no-owner-warns "see above"
import json, sys
c = {x["id"]: x for x in json.load(open(sys.argv[1]))["checks"]}
a = c["gpu-assignment"]
assert a["status"] == "warn", a["status"]
assert a["explanation"] == ("4 GPUs have no owner: no driver holds them and no VM or container configuration names "
    "them: 0000:23:00.0 (no owner), 0000:24:00.0 (no owner), 0000:43:00.0 (no owner), 0000:44:00.0 (no owner)."), a
PY
ct="$T_DIR/container-nodriver"
cp -R "$SAMPLES/sysroot-1104" "$ct"
rm "$ct/sys/bus/pci/devices/0000:23:00.0/driver"
t_run container-gpu-without-driver 1 fwlens doctor "$ct" --profile vfio --format json
python3 - "$T_OUT" <<'PY' && pass container-gpu-without-driver-fails || fail container-gpu-without-driver-fails "see above"
import json, sys
c = {x["id"]: x for x in json.load(open(sys.argv[1]))["checks"]}
a = c["gpu-assignment"]
assert a["status"] == "fail", a["status"]
assert a["explanation"] == "1 GPU has no driver bound: 0000:23:00.0 (container 200). Its owner cannot use it.", a
PY

# pcie_acs_override on a Proxmox kernel: the groups are faked, vfio-isolation cannot pass; on a
# kernel whose release names no patched kernel it is not known.
ov="$T_DIR/acs-override"
cp -R "$SAMPLES/sysroot-1104" "$ov"
sed -i 's/$/ pcie_acs_override=downstream,multifunction/' "$ov/proc/cmdline"
t_run acs-override-pve 1 fwlens doctor "$ov" --profile vfio --format json
python3 - "$T_OUT" <<'PY' && pass acs-override-fakes-groups || fail acs-override-fakes-groups "see above"
import json, sys
c = {x["id"]: x for x in json.load(open(sys.argv[1]))["checks"]}
v = c["vfio-isolation"]
assert v["status"] == "fail", v["status"]
assert v["explanation"].startswith("pcie_acs_override=downstream,multifunction is on the command line and this Proxmox "
    "kernel (by its release string) implements it: the IOMMU groups are faked."), v["explanation"]
texts = [e["text"] for e in v["evidence"]]
assert "pcie_acs_override=downstream,multifunction" in texts, texts
assert "6.14.8-2-pve" in texts, texts
PY
ov2="$T_DIR/acs-override-unknown"
cp -R "$ov" "$ov2"
printf '6.12.9-amd64\n' >"$ov2/proc/sys/kernel/osrelease"
t_run acs-override-unknown 0 fwlens doctor "$ov2" --profile vfio --format json
python3 - "$T_OUT" <<'PY' && pass acs-override-not-known || fail acs-override-not-known "see above"
import json, sys
c = {x["id"]: x for x in json.load(open(sys.argv[1]))["checks"]}
v = c["vfio-isolation"]
assert v["status"] == "warn", v["status"]
assert "whether this kernel (its release string names no patched kernel) implements it is not known" in v["explanation"], v
PY
printf '[    0.500000] Warning: PCIe ACS overrides enabled; This may allow non-IOMMU protected peer-to-peer DMA\n' >>"$ov2/var/log/dmesg"
t_run acs-override-logged 1 fwlens doctor "$ov2" --profile vfio --format json
python3 - "$T_OUT" <<'PY' && pass acs-override-logged-says || fail acs-override-logged-says "see above"
import json, sys
c = {x["id"]: x for x in json.load(open(sys.argv[1]))["checks"]}
v = c["vfio-isolation"]
assert v["status"] == "fail" and v["explanation"].startswith("pcie_acs_override=downstream,multifunction is on the "
    "command line and the kernel logged that it applies it: the IOMMU groups are faked."), v
PY

# /dev/sev absent while ccp logged "sev enabled": the node is missing, the driver is loaded.
ds="$T_DIR/devsev"
cp -R "$SAMPLES/sysroot-1104" "$ds"
rm -f "$ds/dev/sev"
t_run dev-sev-node 0 fwlens doctor "$ds" --profile sev-snp-host --format json
python3 - "$T_OUT" <<'PY' && pass dev-sev-node-missing || fail dev-sev-node-missing "see above"
import json, sys
c = {x["id"]: x for x in json.load(open(sys.argv[1]))["checks"]}
d = c["dev-sev"]
assert d["status"] == "warn", d["status"]
assert d["explanation"].startswith('/dev/sev is absent although the ccp driver logged "sev enabled" this boot'), d
assert "Do not reload ccp." in d["fix"], d["fix"]
assert "[    7.474937] ccp 0000:06:00.1: sev enabled" in [e["text"] for e in d["evidence"]], d["evidence"]
PY

# Readiness by role: the reference host's P2P faults are the host GPUs'; the SNP guest's GPUs and
# the SNP host stay ready.
t_run readiness-1104 1 fwlens doctor "$SAMPLES/sysroot-1104" --format json
python3 - "$T_OUT" <<'PY' && pass readiness-host-gpus-only || fail readiness-host-gpus-only "see above"
import json, sys
r = {x["role"]: x for x in json.load(open(sys.argv[1]))["readiness"]}
assert r["host-gpus"]["status"] == "not ready" and r["host-gpus"]["checks"] == ["p2p-io-page-faults"], r
assert r["vm-gpus"]["status"] == "ready with warnings" and r["vm-gpus"]["checks"] == ["kernel-options"], r
assert r["snp-host"]["status"] == "ready with warnings", r
PY
t_run readiness-text 1 fwlens doctor "$SAMPLES/sysroot-1104"
t_contains readiness-text-line "Readiness: SNP host: ready with warnings (kernel-options); GPUs given to VMs (the SNP guest's):"
# the vfio GPU's faults touch the VMs' GPUs, not the host's
t_run readiness-vfio-fault 0 fwlens doctor "$vf" --profile p2p --format json
python3 - "$T_OUT" <<'PY' && pass readiness-guest-fault-is-vm-gpus || fail readiness-guest-fault-is-vm-gpus "see above"
import json, sys
r = {x["role"]: x for x in json.load(open(sys.argv[1]))["readiness"]}
assert r["vm-gpus"]["status"] == "ready with warnings" and r["vm-gpus"]["checks"] == ["kernel-options", "p2p-io-page-faults"], r
assert r["host-gpus"]["checks"] == ["kernel-options", "acs-gpu-paths"], r
PY

# A container (LXC): firmware and boot-configuration checks skip, the shared kernel is judged.
lxc="$T_DIR/lxc"
cp -R "$SAMPLES/sysroot-1104" "$lxc"
mkdir -p "$lxc/run/systemd"
printf 'lxc\n' >"$lxc/run/systemd/container"
t_run container-lxc 1 fwlens doctor "$lxc" --image "$SAMPLES/ESC8000A-E13-ASUS-1104.CAP" --format json
python3 - "$T_OUT" <<'PY' && pass container-judged-for-what-it-sees || fail container-judged-for-what-it-sees "see above"
import json, sys
c = {x["id"]: x for x in json.load(open(sys.argv[1]))["checks"]}
for i in ("bios-smee", "bios-iommu", "acpi-ivrs", "boot-pending"):
    assert c[i]["status"] == "skip", (i, c[i]["status"])
    assert c[i]["evidence"][0]["text"] == "a container: run/systemd/container: lxc", c[i]["evidence"]
    assert c[i]["explanation"].startswith("This machine is a container:"), c[i]["explanation"]
assert c["kernel-snp-log"]["status"] == "pass", c["kernel-snp-log"]
PY
dk="$T_DIR/docker"
cp -R "$SAMPLES/sysroot-1104" "$dk"
: >"$dk/.dockerenv"
fwlens doctor "$dk" --profile sev-snp-host --format json >"$T_DIR/dk.json" 2>/dev/null
python3 -c "
import json; c={x['id']:x for x in json.load(open('$T_DIR/dk.json'))['checks']}
assert c['bios-smee']['evidence'][0]['text']=='a container: .dockerenv: a Docker container', c['bios-smee']" \
	&& pass container-docker || fail container-docker "Docker not recognised"

# A plain VM (no SEV bit, no sev-guest device, no memory encryption in its log): the SNP guest
# check says skip, the host checks skip, exit 0; the readiness is the guest's own.
pv="$T_DIR/plain-vm"
cp -R "$SAMPLES/sysroot-snp-guest" "$pv"
rm -f "$pv/dev/sev-guest"
sed -i '/Memory Encryption\|SEV/d' "$pv/var/log/dmesg"
sed -i '/^flags/s/ sev_snp\| sev_es\| sev\b//g' "$pv/proc/cpuinfo"
t_run plain-vm-exit-0 0 fwlens doctor "$pv" --format json
python3 - "$T_OUT" <<'PY' && pass plain-vm-skips-snp || fail plain-vm-skips-snp "see above"
import json, sys
d = json.load(open(sys.argv[1]))
c = {x["id"]: x for x in d["checks"]}
assert c["guest-snp"]["status"] == "skip" and c["guest-snp"]["explanation"].startswith("A plain VM:"), c["guest-snp"]
assert c["bios-smee"]["status"] == "skip" and c["kernel-snp-log"]["status"] == "skip"
assert [r["role"] for r in d["readiness"]] == ["guest"], d["readiness"]
PY
