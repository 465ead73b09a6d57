#!/bin/sh
# Images with a CBS module per CPU generation (the WRX90E capsule: CbsSetupDxeSTP for Zen 4,
# CbsSetupDxeSHP for Zen 5): plan picks the module of the machine's CPU (proc/cpuinfo family and
# model) and says why; on the capsule alone (CPU not known, its NVRAM holding both varstores) a
# profile plans each module's setting labelled with its module, while a --set naming one is an
# ambiguity naming both; a goal hidden by design whose default meets it counts as met.
. "$(dirname "$0")/lib.sh"
cd "$T_DIR" || exit 1
W="$CORPUS/firmware/asus-wrx90e-sage-se-1203_rebuilt.cap"
t_need_file wrx90e "$W" "the WRX90E capsule of the corpus" || exit 0
t_need_file samples-present "$SAMPLES/sysroot-1104" "the samples (make samples)" || exit 0

# the capsule alone: the profile plans without --module, in both modules
t_run capsule-profile 0 fwlens plan "$W" --profile snp-host --format json
python3 - "$T_OUT" <<'PY' && pass capsule-profile-both-modules || fail capsule-profile-both-modules "entries differ"
import json, sys
d = json.load(open(sys.argv[1]))
got = sorted((e["prompt"], e["module_name"], e["new"]["text"]) for e in d["entries"])
want = sorted([("SMEE", "CbsSetupDxeSTP", "Enable"), ("SMEE", "CbsSetupDxeSHP", "Enable"),
               ("SEV-ES ASID Space Limit Control", "CbsSetupDxeSTP", "Manual"),
               ("SEV-ES ASID Space Limit", "CbsSetupDxeSTP", "100"), ("SEV-ES ASID Space Limit", "CbsSetupDxeSHP", "100"),
               ("SNP Memory (RMP Table) Coverage", "CbsSetupDxeSTP", "Enabled"),
               ("SNP Memory (RMP Table) Coverage", "CbsSetupDxeSHP", "Enabled"),
               ("SEV-SNP Support", "CbsSetupDxeSTP", "Enable"), ("SEV-SNP Support", "CbsSetupDxeSHP", "Enable"),
               ("IOMMU", "CbsSetupDxeSTP", "Enabled"), ("IOMMU", "CbsSetupDxeSHP", "Enabled"), ("SVM Mode", "Setup", "Enabled")])
assert got == want, got
PY
t_run capsule-profile-text 0 fwlens plan "$W" --profile snp-host
t_contains capsule-says-why 'note: modules for several CPU generations have "SMEE": CbsSetupDxeSTP (Zen 4), CbsSetupDxeSHP (Zen 5); the CPU is not known (no machine) and the variables'
t_contains capsule-hidden-default-met "note: SEV Control is hidden (suppress-if true) and its default Enable meets the goal (its stored value is not known: the default counts): goal met"
t_run capsule-set-ambiguous 2 fwlens plan "$W" --set SMEE=Enable
grep -q '"SMEE" is in 2 modules made for different CPU generations, and which one this machine runs is not known' "$T_ERR" &&
	[ "$(grep -c 'candidate: SMEE' "$T_ERR")" -eq 2 ] && pass capsule-set-names-both || fail capsule-set-names-both "$(cat "$T_ERR")"

# a machine: its CPU picks the module (Shimada Peak 1Ah/08h: SHP; Storm Peak 19h/18h: STP)
for cpu in "26 8 CbsSetupDxeSHP 1Ah 08h Zen 5" "25 24 CbsSetupDxeSTP 19h 18h Zen 4"; do
	set -- $cpu
	rm -rf m && cp -R "$SAMPLES/sysroot-1104" m
	sed -i "s/^cpu family\t: 26\$/cpu family\t: $1/; s/^model\t\t: 2\$/model\t\t: $2/" m/proc/cpuinfo
	t_run "machine-$3" 0 fwlens plan m --image "$W" --profile snp-host --format json
	python3 - "$T_OUT" "$3" <<'PY' && pass "machine-$3-only" || fail "machine-$3-only" "another module planned"
import json, sys
d = json.load(open(sys.argv[1]))
mods = {e["module_name"] for e in d["entries"] if e["module_name"] != "Setup"}
assert mods == {sys.argv[2]}, mods
assert any(e["prompt"] == "SMEE" for e in d["entries"])
PY
	t_run "machine-$3-text" 0 fwlens plan m --image "$W" --set SMEE=Enable
	t_contains "machine-$3-says-why" "$3 planned: it matches the machine's CPU (family $4 model $5, $6 $7: proc/cpuinfo)"
done
# a CPU of no known generation: not guessed
rm -rf m && cp -R "$SAMPLES/sysroot-1104" m
sed -i 's/^cpu family\t: 26$/cpu family\t: 23/; s/^model\t\t: 2$/model\t\t: 1/' m/proc/cpuinfo
t_run machine-zen1 2 fwlens plan m --image "$W" --set SMEE=Enable

# notes and doctor on a Zen 5 machine read the Zen 5 module, and leave out what only the Zen 4
# module has (SEV-ES ASID Space Limit Control)
rm -rf m && cp -R "$SAMPLES/sysroot-1104" m
sed -i 's/^model\t\t: 2$/model\t\t: 8/' m/proc/cpuinfo
t_run notes-zen5 0 fwlens notes m --image "$W"
t_contains notes-zen5-smee "| SMEE | Setup > Advanced > AMD CBS > CPU Common Options | (not stored) | Auto (0x3) | SNP: Enable (Auto hides the SEV options) | AmdSetupSHP@0x36 (1 byte) |"
t_contains notes-zen5-iommu "| SEV-SNP Support | Setup > Advanced > AMD CBS > NBIO Common Options > IOMMU/Security | (not stored) | Auto (0xf) | SNP: Enable (Auto may read as off) | AmdSetupSHP@0x374 (1 byte) |"
grep -q "AmdSetupSTP" "$T_OUT" && fail notes-zen5-no-stp "a Zen 4 module's setting in the notes of a Zen 5 machine" || pass notes-zen5-no-stp
T_EXIT=1 t_run doctor-zen5 1 fwlens doctor m --image "$W" --format json
python3 - "$T_OUT" <<'PY' && pass doctor-zen5-shp || fail doctor-zen5-shp "doctor read another module"
import json, sys
c = {x["id"]: x for x in json.load(open(sys.argv[1]))["checks"]}
assert any("no AmdSetupSHP variable was read" in e["text"] for e in c["bios-smee"]["evidence"]), c["bios-smee"]["evidence"]
PY
