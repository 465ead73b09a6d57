#!/bin/sh
# fwlens doctor on machine folders and snapshots: exit status, profiles, JSON shape.
. "$(dirname "$0")/lib.sh"

root="$T_DIR/root"
mkdir -p "$root/proc" "$root/sys/kernel/iommu_groups/3/devices" "$root/sys/module/kvm_amd/parameters" "$root/var/log"
printf 'root=/dev/sda1 iommu=pt amd_iommu=on\n' >"$root/proc/cmdline"
printf 'identity\n' >"$root/sys/kernel/iommu_groups/3/type"
printf 'Y\n' >"$root/sys/module/kvm_amd/parameters/sev"
printf '[ 1.0] SNP: IOMMU disabled or configured in passthrough mode, SNP cannot be supported.\n' >"$root/var/log/dmesg"

t_run doctor-fails 1 fwlens doctor "$root"
t_contains doctor-names-passthrough "iommu=pt makes default domains passthrough"
t_contains doctor-summary-line "checks:"
t_run doctor-json 1 fwlens doctor "$root" --format json
python3 - "$T_OUT" <<'PY' && pass doctor-json-shape || fail doctor-json-shape "bad JSON shape"
import json, sys
d = json.load(open(sys.argv[1]))
checks = d["checks"]
assert len(checks) >= 15, len(checks)
for c in checks:
    assert set(["id", "status", "title", "evidence", "explanation", "fix"]) <= set(c), c
    assert c["status"] in ("pass", "warn", "fail", "skip")
    assert isinstance(c["evidence"], list)
ids = {c["id"]: c["status"] for c in checks}
assert ids["kernel-iommu-mode"] == "fail" and ids["kernel-snp-log"] == "fail" and ids["iommu-group-types"] == "fail"
assert ids["kernel-options"] == "warn"
assert d["summary"]["fail"] == sum(1 for c in checks if c["status"] == "fail")
PY
t_run doctor-profile-p2p 0 fwlens doctor "$root" --profile p2p --format json
python3 -c "import json,sys; d=json.load(open('$T_OUT')); assert all(c['id'] not in ('kernel-snp-log','dev-sev') for c in d['checks'])" \
	&& pass doctor-profile-filters || fail doctor-profile-filters "SNP checks in the p2p profile"
t_run doctor-bad-profile 2 fwlens doctor "$root" --profile gpu
t_run doctor-near-profile 2 fwlens doctor "$root" --profile vifo
grep -q "did you mean 'vfio-host'?" "$T_ERR" && pass doctor-near-profile-message || fail doctor-near-profile-message "$(cat "$T_ERR")"
t_run doctor-missing-source 4 fwlens doctor "$T_DIR/nowhere"
fwlens snapshot capture --root "$root" -o "$T_DIR/s.fwsnap" -q
t_run doctor-on-snapshot 1 fwlens doctor "$T_DIR/s.fwsnap" --format json
cp "$T_OUT" "$T_DIR/snap.json"
fwlens doctor "$root" --format json >"$T_DIR/folder.json"
python3 - "$T_DIR/folder.json" "$T_DIR/snap.json" <<'PY' && pass doctor-snapshot-equals-folder || fail doctor-snapshot-equals-folder "answers differ"
import json, sys
a = json.load(open(sys.argv[1])); b = json.load(open(sys.argv[2]))
a.pop("source"); b.pop("source")
sys.exit(0 if a == b else 1)
PY
