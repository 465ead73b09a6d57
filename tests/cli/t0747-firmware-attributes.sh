#!/bin/sh
# BIOS settings from the firmware-attributes class: a machine laid out as dell-wmi-sysman exposes
# them (sys/class/firmware-attributes/dell-wmi-sysman/attributes/NAME/{type, current_value,
# default_value, display_name, possible_values, min_value, max_value, scalar_increment, ...}), with
# no BIOS image: `settings` and `find` list them with current_source firmware-attributes, a
# snapshot keeps them (not the authentication folder), hostile strings stay data; a machine whose
# class is empty (the reference board) says so.
. "$(dirname "$0")/lib.sh"

root="$T_DIR/dell"
cls="$root/sys/devices/virtual/firmware-attributes/dell-wmi-sysman"
mkdir -p "$root/proc" "$root/sys/class/firmware-attributes" "$cls/authentication/Admin"
ln -s ../../devices/virtual/firmware-attributes/dell-wmi-sysman "$root/sys/class/firmware-attributes/dell-wmi-sysman"
printf 'root=/dev/sda1\n' >"$root/proc/cmdline"
attr() { # NAME TYPE DISPLAY CURRENT DEFAULT [FILE=VALUE...]
	d="$cls/attributes/$1"
	mkdir -p "$d"
	printf '%s\n' "$2" >"$d/type"
	printf '%s\n' "$3" >"$d/display_name"
	printf 'en_US.UTF-8\n' >"$d/display_name_language_code"
	printf '%s\n' "$4" >"$d/current_value"
	printf '%s\n' "$5" >"$d/default_value"
	shift 5
	for kv in "$@"; do printf '%s\n' "${kv#*=}" >"$d/${kv%%=*}"; done
}
attr SecureBoot enumeration "Enable Secure Boot" Enabled Disabled "possible_values=Disabled;Enabled;" "dell_modifier=" "value_modifier="
attr WakeOnLan enumeration "Wake on LAN" LanOnly Disabled "possible_values=Disabled;LanOnly;LanWithPxeBoot;"
attr AutoOnHr integer "Auto On Hour" 7 0 min_value=0 max_value=23 scalar_increment=1
attr Asset string "Asset Tag" "rack-12 $(printf '\033[31m')red" "" min_length=1 max_length=64
attr OwnerTag string "Owner Tag" "none" "" min_length=0 max_length=32
attr Tpm enumeration "TPM Security" Sometimes Enabled "possible_values=Disabled;Enabled;"
printf '0\n' >"$cls/attributes/pending_reboot"
printf '1\n' >"$cls/authentication/Admin/is_enabled"
printf 'password\n' >"$cls/authentication/Admin/mechanism"

t_run fwattr-settings 0 fwlens settings "$root" --format json
python3 - "$T_OUT" <<'PY' && pass fwattr-settings-values || fail fwattr-settings-values "see above"
import json, sys
d = json.load(open(sys.argv[1]))
cs = d["current_source"]
assert cs["kind"] == "firmware-attributes", cs
s = {x["keyword"]: x for x in d["settings"]}
assert sorted(s) == ["Asset", "AutoOnHr", "OwnerTag", "SecureBoot", "Tpm", "WakeOnLan"], sorted(s)
sb = s["SecureBoot"]
assert sb["prompt"] == "Enable Secure Boot" and sb["current"] == "Enabled" and sb["default"] == "Disabled", sb
assert [o["text"] for o in sb["options"]] == ["Disabled", "Enabled"], sb["options"]
assert sb["module_name"] == "dell-wmi-sysman" and sb["kind"] == "one-of", sb
assert s["WakeOnLan"]["current"] == "LanOnly"
a = s["AutoOnHr"]
assert a["kind"] == "numeric" and a["current"] == "7" and a["min"] == 0 and a["max"] == 23, a
# the machine reader turns control characters into spaces: the escape never reaches a writer
assert s["Asset"]["current"] == "rack-12  [31mred" and s["Asset"]["kind"] == "string", s["Asset"]
assert s["Tpm"]["current"] == "Sometimes" and s["Tpm"]["current_value"] is None, s["Tpm"]
assert sb["current_value"] == 1 and a["current_value"] == 7, (sb, a)
assert all(x["current_source"].startswith("firmware-attributes class of ") for x in d["settings"])
PY
t_run fwattr-settings-text 0 fwlens settings "$root"
t_contains fwattr-text-value "Wake on LAN"
if grep -q "$(printf '\033')\[31m" "$T_OUT"; then fail fwattr-text-escaped "an escape sequence from the firmware reached the terminal"; else pass fwattr-text-escaped; fi
t_run fwattr-find 0 fwlens find "$root" "wake" --format json
python3 -c "
import json; d=json.load(open('$T_OUT'))
m=[x['keyword'] for x in d['matches']] if 'matches' in d else [x['keyword'] for x in d['settings']]
assert m==['WakeOnLan'], m
assert d['current_source']['kind']=='firmware-attributes', d['current_source']" && pass fwattr-find-match || fail fwattr-find-match "$(head -c 400 "$T_OUT")"

# a snapshot keeps the attributes and leaves the authentication folder out
fwlens snapshot capture --root "$root" -o "$T_DIR/dell.fwsnap" -q
tar tf "$T_DIR/dell.fwsnap" >"$T_DIR/members"
grep -q 'files/sys/class/firmware-attributes/dell-wmi-sysman/attributes/WakeOnLan/current_value' "$T_DIR/members" &&
	pass fwattr-snapshot-has-attributes || fail fwattr-snapshot-has-attributes "$(grep firmware "$T_DIR/members" | head -3)"
grep -q 'authentication' "$T_DIR/members" && fail fwattr-snapshot-no-authentication "authentication captured" ||
	pass fwattr-snapshot-no-authentication
t_run fwattr-snapshot-settings 0 fwlens settings "$T_DIR/dell.fwsnap" --format json
python3 - "$T_OUT" <<'PY' && pass fwattr-snapshot-same || fail fwattr-snapshot-same "see above"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["current_source"]["kind"] == "firmware-attributes"
assert {x["keyword"]: x["current"] for x in d["settings"]} == {"Asset": "rack-12  [31mred", "AutoOnHr": "7",
    "OwnerTag": "none", "SecureBoot": "Enabled", "Tpm": "Sometimes", "WakeOnLan": "LanOnly"}
PY

# the reference board: the class exists and is empty; without it at all, that is said too
if [ -d "$SAMPLES/sysroot-1104" ]; then
	cp -R "$SAMPLES/sysroot-1104" "$T_DIR/ref"
	mkdir -p "$T_DIR/ref/sys/class/firmware-attributes"
	t_run fwattr-empty-class 3 fwlens settings "$T_DIR/ref"
	grep -q "its firmware-attributes class is empty" "$T_ERR" && pass fwattr-empty-class-says ||
		fail fwattr-empty-class-says "$(cat "$T_ERR")"
	rmdir "$T_DIR/ref/sys/class/firmware-attributes"
	t_run fwattr-no-class 3 fwlens settings "$T_DIR/ref"
	grep -q "it has no firmware-attributes class either" "$T_ERR" && pass fwattr-no-class-says ||
		fail fwattr-no-class-says "$(cat "$T_ERR")"
	t_run fwattr-forms-win 0 fwlens settings "$SAMPLES/sysroot-1104" --image "$SAMPLES/ESC8000A-E13-ASUS-1104.CAP" --format json
	python3 -c "import json; d=json.load(open('$T_OUT')); assert d['current_source']['kind']=='efivarfs', d['current_source']" &&
		pass fwattr-forms-first || fail fwattr-forms-first "forms lost to firmware-attributes"
else
	skip fwattr-empty-class "the samples are not built (make samples)"
fi

# plan: fwupdmgr and sysfs scripts, each checking the current value and dry unless --apply
t_run fwattr-plan-json 0 fwlens plan "$root" --set "WakeOnLan=disabled" --set "Auto On Hour=20" --set "OwnerTag=it's 1" --format json
python3 - "$T_OUT" <<'PY' && pass fwattr-plan-values || fail fwattr-plan-values "see above"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["kind"] == "firmware-attributes"
c = {x["setting"]: x for x in d["changes"]}
assert c["WakeOnLan"]["old"] == "LanOnly" and c["WakeOnLan"]["new"] == "Disabled" and c["WakeOnLan"]["change"], c
assert c["AutoOnHr"]["new"] == "20" and c["AutoOnHr"]["old"] == "7"
assert c["OwnerTag"]["new"] == "it's 1"
assert c["WakeOnLan"]["sysfs"] == "sys/class/firmware-attributes/dell-wmi-sysman/attributes/WakeOnLan"
PY
t_run fwattr-plan-bad-value 2 fwlens plan "$root" --set "WakeOnLan=Sometimes"
grep -q "WakeOnLan takes Disabled, LanOnly, LanWithPxeBoot, not 'Sometimes'" "$T_ERR" && pass fwattr-plan-bad-value-says ||
	fail fwattr-plan-bad-value-says "$(cat "$T_ERR")"
t_run fwattr-plan-out-of-range 2 fwlens plan "$root" --set "AutoOnHr=24"
grep -q "AutoOnHr takes 0 to 23, not 24" "$T_ERR" && pass fwattr-plan-range-says || fail fwattr-plan-range-says "$(cat "$T_ERR")"
t_run fwattr-plan-unknown 2 fwlens plan "$root" --set "Nope=1"
t_run fwattr-plan-profile 2 fwlens plan "$root" --profile snp-host
t_run fwattr-plan-sce 2 fwlens plan "$root" --set "WakeOnLan=Disabled" --format sce
t_run fwattr-plan-altered 2 fwlens plan "$root" --set "Asset=x"
grep -q "Asset: its current value holds control characters" "$T_ERR" && pass fwattr-plan-altered-says || fail fwattr-plan-altered-says "$(cat "$T_ERR")"
t_run fwattr-plan-fwupdmgr 0 fwlens plan "$root" --set "WakeOnLan=Disabled" --set "OwnerTag=it's 1" --set "SecureBoot=Enabled" --format fwupdmgr
cp "$T_OUT" "$T_DIR/fwupd.sh"
grep -q "^change 'dell-wmi-sysman' 'OwnerTag' 'none' 'it'\\\\''s 1'$" "$T_DIR/fwupd.sh" && pass fwattr-plan-quoted ||
	fail fwattr-plan-quoted "$(grep '^change' "$T_DIR/fwupd.sh")"
grep -q "fwupdmgr set-bios-setting \"\$2\" \"\$4\"" "$T_DIR/fwupd.sh" && pass fwattr-plan-calls-fwupdmgr ||
	fail fwattr-plan-calls-fwupdmgr "no fwupdmgr call"
grep -q "^change 'dell-wmi-sysman' 'SecureBoot'" "$T_DIR/fwupd.sh" && fail fwattr-plan-skips-in-effect "SecureBoot is Enabled already" ||
	pass fwattr-plan-skips-in-effect
# run the sysfs script against the machine folder: dry run changes nothing, --apply writes and a changed value is refused
t_run fwattr-plan-sysfs 0 fwlens plan "$root" --set "WakeOnLan=Disabled" --set "OwnerTag=it's 1" --format sysfs
cp "$T_OUT" "$T_DIR/sysfs.sh"
CLASS="$root/sys/class/firmware-attributes" sh "$T_DIR/sysfs.sh" >"$T_DIR/dry" 2>&1 &&
	[ "$(cat "$cls/attributes/WakeOnLan/current_value")" = LanOnly ] && grep -q "would set 'Disabled'" "$T_DIR/dry" &&
	pass fwattr-sysfs-dry-run || fail fwattr-sysfs-dry-run "$(cat "$T_DIR/dry")"
CLASS="$root/sys/class/firmware-attributes" sh "$T_DIR/sysfs.sh" --apply >"$T_DIR/applied" 2>&1 &&
	[ "$(cat "$cls/attributes/WakeOnLan/current_value")" = Disabled ] && [ "$(cat "$cls/attributes/OwnerTag/current_value")" = "it's 1" ] &&
	pass fwattr-sysfs-apply || fail fwattr-sysfs-apply "$(cat "$T_DIR/applied")"
# applied again: in place, so "already set" and exit 0
CLASS="$root/sys/class/firmware-attributes" sh "$T_DIR/sysfs.sh" --apply >"$T_DIR/again" 2>&1 &&
	grep -q "WakeOnLan: already set to 'Disabled'" "$T_DIR/again" && pass fwattr-sysfs-already-set ||
	fail fwattr-sysfs-already-set "$(cat "$T_DIR/again")"
# changed since the plan to a third value: refused
echo LanWlan >"$cls/attributes/WakeOnLan/current_value"
CLASS="$root/sys/class/firmware-attributes" sh "$T_DIR/sysfs.sh" --apply >"$T_DIR/again" 2>&1 &&
	fail fwattr-sysfs-stale "a stale plan applied" ||
	{ grep -q "the current value is 'LanWlan', not the plan's 'LanOnly'" "$T_DIR/again" && pass fwattr-sysfs-stale ||
		fail fwattr-sysfs-stale "$(cat "$T_DIR/again")"; }
