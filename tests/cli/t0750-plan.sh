#!/bin/sh
# fwlens plan on the samples: dependency resolution through the CBS conditions (SMEE and SEV
# Control before the ASID limit and the RMP coverage), profiles and doctor fixes, each output form
# (efivarfs applied to a copy of a sample machine and verified from a new snapshot, the Redfish
# body against a registry built from the forms and against a changed one), and bad input.
. "$(dirname "$0")/lib.sh"
CAP="$SAMPLES/ESC8000A-E13-ASUS-1104.CAP"
t_need_file plan "$CAP" "the samples (make samples)" || exit 0
G="$FWLENS_SRCDIR/tests/cli/golden/t0750-plan"
# the plan's "made" time, fixed for the golden outputs
export SOURCE_DATE_EPOCH=1767225600

# the 1104 machine with the SEV options at their defaults: SMEE Auto, SEV Control Disable,
# ASID limit 1, RMP coverage Auto (SEV Control, the limit and the coverage are hidden)
M="$T_DIR/m"
cp -a "$SAMPLES/sysroot-1104" "$M"
EV="$M/sys/firmware/efi/efivars"
CBS="$EV/AmdSetupBRH-3a997502-647a-4c82-998e-52ef9486a247"
poke() { printf "$2" | dd of="$CBS" bs=1 seek=$((4 + $1)) conv=notrunc 2>/dev/null; }
poke 0x33 '\003'                 # SMEE Auto
poke 0x34 '\001'                 # SEV Control Disable
poke 0x35 '\001\000\000\000'     # SEV-ES ASID Space Limit 1
poke 0x39 '\377'                 # SNP Memory (RMP Table) Coverage Auto
# the boot the plan is made in
mkdir -p "$M/proc/sys/kernel/random"
echo 6f1c3d2e-0b7a-4f43-9d55-1c2b3a4d5e6f >"$M/proc/sys/kernel/random/boot_id"
fwlens snapshot capture -q --root "$M" --image "$CAP" -o "$T_DIR/m.fwsnap"
S="$T_DIR/m.fwsnap"

cd "$T_DIR" || exit 1
T_EXIT=0 t_golden deps-text "$G/deps.txt" fwlens plan m.fwsnap --set 'SEV-ES ASID Space Limit=100' \
	--set 'SNP Memory (RMP Table) Coverage=Enabled'
t_golden deps-json "$G/deps.json" fwlens plan m.fwsnap --set 'SEV-ES ASID Space Limit=100' \
	--set 'SNP Memory (RMP Table) Coverage=Enabled' --format json
t_golden profile-snp-host "$G/profile-snp-host.txt" fwlens plan m.fwsnap --profile snp-host
t_golden from-doctor "$G/from-doctor.txt" fwlens plan m.fwsnap --from-doctor
# keyword and VARSTORE+0xOFFSET name the same settings
fwlens plan m.fwsnap --set CbsCmnCpuSevAsidSpaceLimitBRH=100 --set 'AmdSetupBRH+0x39=1' --format json >kw.json 2>/dev/null
python3 -c '
import json, sys
a, b = json.load(open("kw.json")), json.load(open(sys.argv[1]))
strip = lambda d: [(e["prompt"], e["new"]["value"], e["dependency"]) for e in d["entries"]]
sys.exit(0 if strip(a) == strip(b) else 1)' "$G/deps.json" && pass keyword-and-offset || fail keyword-and-offset "other entries than by prompt"

# efivarfs: dry run, --apply on a copy, a new snapshot, verify
fwlens plan m.fwsnap --set 'SEV-ES ASID Space Limit=100' --set 'SNP Memory (RMP Table) Coverage=Enabled' --format json >plan.json
t_run efivarfs-script 0 fwlens plan m.fwsnap --set 'SEV-ES ASID Space Limit=100' \
	--set 'SNP Memory (RMP Table) Coverage=Enabled' --format efivarfs -o apply.sh
t_run verify-before 1 fwlens plan m.fwsnap --verify plan.json
t_contains verify-before-says "different"
cp -a "$M" m2
EFIVARS="$T_DIR/m2/sys/firmware/efi/efivars" BACKUP="$T_DIR/backup" t_run efivarfs-dry-run 0 sh apply.sh
cmp -s "$CBS" "m2/sys/firmware/efi/efivars/AmdSetupBRH-3a997502-647a-4c82-998e-52ef9486a247" &&
	pass dry-run-writes-nothing || fail dry-run-writes-nothing "the dry run changed the variable"
EFIVARS="$T_DIR/m2/sys/firmware/efi/efivars" BACKUP="$T_DIR/backup" t_run efivarfs-apply 0 sh apply.sh --apply
cmp -s "$CBS" backup/AmdSetupBRH-3a997502-647a-4c82-998e-52ef9486a247 && pass efivarfs-backup ||
	fail efivarfs-backup "no backup of the old bytes"
fwlens snapshot capture -q --root m2 --image "$CAP" -o m2.fwsnap
# written, but the machine still runs the boot the plan was made in
t_run verify-not-rebooted 6 fwlens plan m2.fwsnap --verify plan.json
t_contains verify-not-rebooted-says "not yet rebooted SEV-ES ASID Space Limit = 100 (planned 100)"
t_contains verify-not-rebooted-why "rebooted since the plan: no (m2.fwsnap boot id 6f1c3d2e-0b7a-4f43-9d55-1c2b3a4d5e6f, the plan's 6f1c3d2e-0b7a-4f43-9d55-1c2b3a4d5e6f)"
echo 0d9e8f7a-6b5c-4d3e-8f1a-2b3c4d5e6f70 >m2/proc/sys/kernel/random/boot_id
fwlens snapshot capture -q --root m2 --image "$CAP" -o m2.fwsnap
t_run verify-after 0 fwlens plan m2.fwsnap --verify plan.json
t_contains verify-after-rebooted "rebooted since the plan: yes (m2.fwsnap boot id 0d9e8f7a-6b5c-4d3e-8f1a-2b3c4d5e6f70, the plan's 6f1c3d2e-0b7a-4f43-9d55-1c2b3a4d5e6f)"
t_contains verify-after-says "4 of 4 planned values in effect"
# applied again: the planned bytes are in place, so "already set" and exit 0
EFIVARS="$T_DIR/m2/sys/firmware/efi/efivars" BACKUP="$T_DIR/backup2" t_run efivarfs-again 0 sh apply.sh --apply
t_contains efivarfs-again-already-set "AmdSetupBRH-3a997502-647a-4c82-998e-52ef9486a247: already set (holds the planned bytes)"
[ ! -e backup2 ] && pass efivarfs-again-untouched || fail efivarfs-again-untouched "an already set variable was backed up"
# the bytes changed since the plan to neither old nor new: the script refuses and writes nothing
cp -a m2 m4
printf '\377' | dd of="m4/sys/firmware/efi/efivars/AmdSetupBRH-3a997502-647a-4c82-998e-52ef9486a247" bs=1 seek=4 \
	conv=notrunc 2>/dev/null
EFIVARS="$T_DIR/m4/sys/firmware/efi/efivars" BACKUP="$T_DIR/backup2" t_run efivarfs-refuses 1 sh apply.sh --apply
grep -q "differ from the plan's old bytes" "$T_ERR" && pass efivarfs-refuses-says || fail efivarfs-refuses-says "no reason given"
[ ! -e backup2 ] && pass efivarfs-refuses-untouched || fail efivarfs-refuses-untouched "a refused variable was backed up"
# an immutable variable file, as Linux makes efivarfs files: the flag is lifted for the write and
# set again (lsattr and chattr stand in for e2fsprogs' and log what they were asked)
cp -a "$M" m3
mkdir -p fakebin
cat >fakebin/lsattr <<'EOS'
#!/bin/sh
if [ -e "$2.immutable" ]; then echo "----i--------- $2"; else echo "-------------- $2"; fi
EOS
cat >fakebin/chattr <<'EOS'
#!/bin/sh
echo "chattr $1" >>"$CHATTR_LOG"
case $1 in -i) rm -f "$2.immutable" ;; +i) : >"$2.immutable" ;; esac
EOS
chmod +x fakebin/lsattr fakebin/chattr
: >"m3/sys/firmware/efi/efivars/AmdSetupBRH-3a997502-647a-4c82-998e-52ef9486a247.immutable"
PATH="$T_DIR/fakebin:$PATH" CHATTR_LOG="$T_DIR/chattr.log" EFIVARS="$T_DIR/m3/sys/firmware/efi/efivars" \
	BACKUP="$T_DIR/backup3" t_run efivarfs-immutable 0 sh apply.sh --apply
[ "$(tr '\n' ' ' <chattr.log)" = "chattr -i chattr +i " ] && [ -e "m3/sys/firmware/efi/efivars/AmdSetupBRH-3a997502-647a-4c82-998e-52ef9486a247.immutable" ] &&
	pass efivarfs-immutable-restored || fail efivarfs-immutable-restored "chattr calls: $(cat chattr.log 2>/dev/null | tr '\n' ' ')"
cmp -s m2/sys/firmware/efi/efivars/AmdSetupBRH-3a997502-647a-4c82-998e-52ef9486a247 \
	m3/sys/firmware/efi/efivars/AmdSetupBRH-3a997502-647a-4c82-998e-52ef9486a247 &&
	pass efivarfs-immutable-written || fail efivarfs-immutable-written "not the bytes the mutable copy got"
# a plan against another image
t_run verify-other-image 3 fwlens plan "$SAMPLES/ESC8000A-E13-ASUS-1201.CAP" --verify plan.json

# Redfish: against the registry the forms give, and against a changed one
fwlens settings "$CAP" --format redfish-registry -o registry.json
t_golden redfish "$G/redfish.json" fwlens plan m.fwsnap --set 'SEV-ES ASID Space Limit=100' \
	--set 'SNP Memory (RMP Table) Coverage=Enabled' --format redfish --registry registry.json
python3 -c '
import json
r = json.load(open("registry.json"))
for a in r["RegistryEntries"]["Attributes"]:
    if a["AttributeName"] == "CbsCmnCpuSmeeBRH":
        a["AttributeName"] = "CbsCmnCpuSmeeSHP"
json.dump(r, open("changed.json", "w"))'
t_run redfish-changed-registry 3 fwlens plan m.fwsnap --set 'SEV-ES ASID Space Limit=100' --format redfish \
	--registry changed.json
grep -q "CbsCmnCpuSmeeBRH" "$T_ERR" && pass redfish-names-unknown || fail redfish-names-unknown "the unknown name is not named"

# AMISCE script of the plan
t_golden sce "$G/plan.sce" fwlens plan m.fwsnap --set 'SEV-ES ASID Space Limit=100' --format sce

# bad input: exit 2 naming what is wrong
t_run unknown-setting 2 fwlens plan m.fwsnap --set 'Warp Drive=Enable'
t_run bad-value 2 fwlens plan m.fwsnap --set 'SMEE=Maybe'
grep -q "Disable (0), Enable (1), Auto (3)" "$T_ERR" && pass bad-value-lists || fail bad-value-lists "allowed values not listed"
t_run out-of-range 2 fwlens plan m.fwsnap --set 'SEV-ES ASID Space Limit=2000'
t_run conflicting-set 2 fwlens plan m.fwsnap --set SMEE=Enable --set smee=Disable
t_run contradiction 2 fwlens plan m.fwsnap --set 'SEV Control=Enable' --set SMEE=Disable
grep -q "contradiction" "$T_ERR" && pass contradiction-says || fail contradiction-says "not called a contradiction"
t_run ambiguous 2 fwlens plan m.fwsnap --set 'AmdSetupBRH+0x3E=Enabled'
[ "$(grep -c 'candidate: Socket' "$T_ERR")" = 8 ] && pass ambiguous-lists || fail ambiguous-lists "not 8 candidates listed"
t_run nothing-to-plan 2 fwlens plan m.fwsnap
t_run bad-profile 2 fwlens plan m.fwsnap --profile gaming

# AMISCE round trip: the plan's script read back as current values shows the new values
fwlens plan m.fwsnap --set 'SEV-ES ASID Space Limit=100' --format sce -o plan.sce
t_run sce-as-vars 0 fwlens settings "$CAP" --vars plan.sce --module CbsSetupDxeBRH --format json
python3 - "$T_OUT" <<'PY' && pass sce-round-trip || fail sce-round-trip "the script's values do not read back"
import json, sys
d = json.load(open(sys.argv[1]))
v = {s["prompt"]: s.get("current_text", s.get("current")) for s in d["settings"] if "current" in s}
assert d["current_source"]["kind"] == "amisce", d["current_source"]
assert v == {"SMEE": "Enable", "SEV Control": "Enable", "SEV-ES ASID Space Limit": 100}, v
PY
# the Redfish body saved as a Bios resource gives the same values by keyword
fwlens plan m.fwsnap --set 'SEV-ES ASID Space Limit=100' --format redfish -o bios.json
t_run redfish-as-vars 0 fwlens find "$CAP" 'SMEE|SEV Control|ASID' --in prompt --vars bios.json --format json
python3 - "$T_OUT" <<'PY' && pass redfish-round-trip || fail redfish-round-trip "the Bios resource's values do not read back"
import json, sys
d = json.load(open(sys.argv[1]))
v = {m["prompt"]: m["current"] for m in d["matches"]}
assert d["current_source"]["kind"] == "redfish", d["current_source"]
assert v == {"SMEE": "Enable", "SEV Control": "Enable", "SEV-ES ASID Space Limit": "100"}, v
PY

# two CBS modules (Zen 5 and Zen 4) in the real WRX90E image: one prompt, two settings
W="$CORPUS/firmware/asus-wrx90e-sage-se-1203_rebuilt.cap"
if t_need_file ambiguous-prompt "$W" "the corpus"; then
	t_run ambiguous-prompt 2 fwlens plan "$W" --set SMEE=Enable
	grep -q "candidate: SMEE  |  module CbsSetupDxeSTP  |  Setup > Advanced > AMD CBS > CPU Common Options  |  AmdSetupSTP+0x3A/1" "$T_ERR" &&
		grep -q "candidate: SMEE  |  module CbsSetupDxeSHP  |  Setup > Advanced > AMD CBS > CPU Common Options  |  AmdSetupSHP+0x36/1" "$T_ERR" &&
		pass ambiguous-prompt-lists || fail ambiguous-prompt-lists "$(cat "$T_ERR")"
	t_run module-picks 0 fwlens plan "$W" --set SMEE=Enable --module CbsSetupDxeSHP --format json
	grep -q '"keyword": "CbsCmnCpuSmeeSHP"' "$T_OUT" && pass module-picks-shp || fail module-picks-shp "not the SHP question"
fi
