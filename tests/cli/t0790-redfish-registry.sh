#!/bin/sh
# Redfish names by BMC: `plan --format redfish --registry FILE` maps each planned setting through
# the BMC's AttributeRegistry (hand-written ones under tests/data/redfish, one per naming style):
# x-UEFI keywords (AMI MegaRAC), keywords without the CPU-generation suffix with values spelled as
# name plus option, prompts numbered with the question id or offset (SMEE#0015), opaque names
# told apart by display name and menu path. A planned setting the registry lacks is exit 3 naming
# it; without a registry the output says which convention it assumed. The registry `settings
# --format redfish-registry` writes follows the schema (Menus, MenuPath, DefaultValue,
# ResetRequired, Dependencies).
. "$(dirname "$0")/lib.sh"
cd "$T_DIR" || exit 1
CAP="$SAMPLES/ESC8000A-E13-ASUS-1104.CAP"
R="$FWLENS_SRCDIR/tests/data/redfish"
t_need_file sample "$CAP" "the samples (make samples)" || exit 0

plan() { # REGISTRY: the body planned for four settings
	t_run "$1" "$2" fwlens plan "$CAP" --set SMEE=Enable --set 'SEV-ES ASID Space Limit=100' \
		--set 'SNP Memory (RMP Table) Coverage=Enabled' --set 'SVM Mode=Enabled' --format redfish --registry "$R/$1.json" -v
}
body() { # NAME EXPECTED-JSON
	python3 - "$T_OUT" "$2" <<'PY' && pass "$1" || fail "$1" "$(cat "$T_OUT")"
import json, sys
assert json.load(open(sys.argv[1])) == {"Attributes": json.loads(sys.argv[2])}
PY
}

plan ami-keywords 0
body ami-keywords-body '{"CbsCmnCpuSmeeBRH": "Enable", "CbsCmnCpuSevAsidSpaceLimitBRH": 100, "CbsDbgCpuSnpMemCoverBRH": "Enabled", "SvmMode": "Enabled"}'
grep -q "SMEE -> Redfish attribute CbsCmnCpuSmeeBRH, found by its x-UEFI keyword CbsCmnCpuSmeeBRH" "$T_ERR" && pass ami-keywords-how ||
	fail ami-keywords-how "$(cat "$T_ERR")"

plan numbered 0
body numbered-body '{"SMEE#0015": "1", "SEVESASIDSpaceLimit#700F": 100, "SNPMemoryRMPTableCoverage#0039": "1", "SVMMode_000B": true}'
grep -q "SNP Memory (RMP Table) Coverage -> Redfish attribute SNPMemoryRMPTableCoverage#0039, found by its prompt and offset 0x39" "$T_ERR" &&
	grep -q "SMEE -> Redfish attribute SMEE#0015, found by its prompt and question id 0x15" "$T_ERR" && pass numbered-how ||
	fail numbered-how "$(cat "$T_ERR")"

# the suffix-less registry has no SVM Mode: exit 3 naming it, no body
plan no-suffix 3
grep -q "'SVM Mode' (question 0xB, Setup+0xFD): the registry .*no-suffix.json lacks this planned setting: no attribute named SvmMode" "$T_ERR" &&
	[ ! -s "$T_OUT" ] && pass no-suffix-lacks-svm || fail no-suffix-lacks-svm "$(cat "$T_ERR")"
t_run no-suffix-cbs 0 fwlens plan "$CAP" --set SMEE=Enable --set 'SEV-ES ASID Space Limit=100' \
	--set 'SNP Memory (RMP Table) Coverage=Enabled' --format redfish --registry "$R/no-suffix.json" -v
body no-suffix-body '{"CbsCmnCpuSmee": "CbsCmnCpuSmee_Enable", "CbsCmnCpuSevAsidSpaceLimit": 100, "CbsDbgCpuSnpMemCover": "CbsDbgCpuSnpMemCover_Enabled"}'
grep -q "found by its x-UEFI keyword without the CPU-generation suffix, CbsCmnCpuSmee" "$T_ERR" && pass no-suffix-how || fail no-suffix-how "$(cat "$T_ERR")"

# opaque names: the SMEE of the forms' menu, not the other vendor menu's
t_run display-names 0 fwlens plan "$CAP" --set SMEE=Enable --set 'SEV-ES ASID Space Limit=100' --format redfish \
	--registry "$R/display-names.json" -v
body display-names-body '{"Attr0102": "X1", "Attr0103": 100}'
grep -q 'found by its display name "SMEE" and menu path ./Advanced/AMD CBS/CPU Common Options' "$T_ERR" && pass display-names-how ||
	fail display-names-how "$(cat "$T_ERR")"
# a value the registry lacks, a number outside its bounds
python3 - "$R/display-names.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
r["RegistryEntries"]["Attributes"][1]["Value"] = [v for v in r["RegistryEntries"]["Attributes"][1]["Value"] if v["ValueName"] != "X3"]
json.dump(r, open("no-auto.json", "w"))
PY
t_run display-names-no-value 3 fwlens plan "$CAP" --set SMEE=Auto --format redfish --registry no-auto.json
grep -q 'Redfish attribute Attr0102 (SMEE): the registry has no value "Auto"' "$T_ERR" && pass no-value-says || fail no-value-says "$(cat "$T_ERR")"
t_run bounds 3 fwlens plan "$CAP" --set 'SEV-ES ASID Space Limit=1007' --format redfish --registry "$R/ami-keywords.json"
grep -q "1007 is outside the registry's bounds" "$T_ERR" && pass bounds-says || fail bounds-says "$(cat "$T_ERR")"
# a registry of another CPU generation's BIOS: its SMEE is not this one
sed 's/CbsCmnCpuSmeeBRH/CbsCmnCpuSmeeSHP/' "$R/ami-keywords.json" >other-gen.json
t_run other-generation 3 fwlens plan "$CAP" --set SMEE=Enable --format redfish --registry other-gen.json
grep -q "CbsCmnCpuSmeeSHP has its display name but is the keyword of another CPU generation's module" "$T_ERR" &&
	pass other-generation-says || fail other-generation-says "$(cat "$T_ERR")"
# without a registry: the keywords, and the convention said
t_run no-registry 0 fwlens plan "$CAP" --set SMEE=Enable --format redfish
grep -q "Redfish names: the forms' x-UEFI keywords, the names AMI MegaRAC BMCs give BIOS attributes" "$T_ERR" &&
	pass no-registry-says-convention || fail no-registry-says-convention "$(cat "$T_ERR")"

# the registry fwlens writes: the schema's shape, checked with jq, and exact decoded entries
if t_need_cmd registry-jq jq; then
	t_run registry 0 fwlens settings "$CAP" --format redfish-registry
	jq -e '
	  (.["@odata.type"] == "#AttributeRegistry.v1_3_0.AttributeRegistry") and
	  (.RegistryEntries.Attributes | length > 0) and
	  (.RegistryEntries.Attributes | all(has("AttributeName") and has("DisplayName") and has("Type") and has("DefaultValue")
	      and (.ResetRequired == true) and (.MenuPath | startswith("./")) and has("Hidden") and has("GrayOut") and has("ReadOnly"))) and
	  (.RegistryEntries.Menus | length > 0) and
	  (.RegistryEntries.Menus | all(has("MenuName") and has("DisplayName") and (.MenuPath | startswith("./"))
	      and has("ReadOnly") and has("GrayOut") and has("Hidden"))) and
	  (.RegistryEntries.Dependencies | length > 0) and
	  (.RegistryEntries.Dependencies | all(.Type == "Map" and (.DependencyFor | type == "string") and
	      (.Dependency.MapToProperty | IN("Hidden", "GrayOut", "ReadOnly")) and .Dependency.MapToValue == true and
	      (.Dependency.MapToAttribute == .DependencyFor) and (.Dependency.MapFrom | length > 0) and
	      (.Dependency.MapFrom | all(has("MapFromAttribute") and (.MapFromCondition | IN("EQU", "NEQ", "GTR", "GEQ", "LSS", "LEQ"))
	          and has("MapFromValue"))) and
	      ([.Dependency.MapFrom[1:][] | .MapTerms] | all(IN("AND", "OR"))))) and
	  (.Oem.fwlens.DependenciesSkipped | type == "number")' "$T_OUT" >/dev/null && pass registry-shape || fail registry-shape "jq shape check failed"
	python3 - "$T_OUT" <<'PY' && pass registry-entries || fail registry-entries "decoded entries differ"
import json, sys
r = json.load(open(sys.argv[1]))
e = r["RegistryEntries"]
a = {x["AttributeName"]: x for x in e["Attributes"]}
smee = a["CbsCmnCpuSmeeBRH"]
assert (smee["MenuPath"], smee["DefaultValue"], smee["Type"], [v["ValueName"] for v in smee["Value"]]) == \
    ("./Setup/Advanced/AMD CBS/CPU Common Options", "Auto", "Enumeration", ["Disable", "Enable", "Auto"]), smee
lim = a["CbsCmnCpuSevAsidSpaceLimitBRH"]
assert (lim["Type"], lim["DefaultValue"]) == ("Integer", 1), lim
menus = {m["MenuPath"]: m["DisplayName"] for m in e["Menus"]}
assert menus["./Setup/Advanced/AMD CBS"] == "AMD CBS" and menus["./Setup/Advanced/AMD CBS/CPU Common Options"] == "CPU Common Options", menus
assert menus["./Setup/Advanced"] == "Advanced", menus
deps = [d for d in e["Dependencies"] if d["DependencyFor"] == "CbsPspSevCtrlBRH"]
# SEV Control: suppress-if SMEE != Enable
assert any(d["Dependency"]["MapToProperty"] == "Hidden" and d["Dependency"]["MapFrom"] ==
           [{"MapFromAttribute": "CbsCmnCpuSmeeBRH", "MapFromProperty": "CurrentValue", "MapFromCondition": "NEQ",
             "MapFromValue": "Enable"}] for d in deps), deps
rebar = [d for d in e["Dependencies"] if d["DependencyFor"] == "ReBarSupport" and d["Dependency"]["MapToProperty"] == "GrayOut"]
assert rebar and rebar[0]["Dependency"]["MapFrom"][0]["MapFromAttribute"] == "Access", rebar
PY
fi
W="$CORPUS/firmware/asus-wrx90e-sage-se-1203_rebuilt.cap"
if t_need_file registry-wrx90e "$W" "the WRX90E capsule of the corpus"; then
	t_run registry-wrx90e 0 fwlens settings "$W" --format redfish-registry
	python3 - "$T_OUT" <<'PY' && pass registry-wrx90e-skips-counted || fail registry-wrx90e-skips-counted "skips not counted"
import json, sys
r = json.load(open(sys.argv[1]))
o = r["Oem"]["fwlens"]
assert o["DependenciesSkipped"] == len(o["Skipped"]) > 0, o["DependenciesSkipped"]
assert all(s["Why"] and s["Condition"] and s["Kind"] in ("suppress-if", "gray-out-if", "disable-if") for s in o["Skipped"])
assert any(len(d["Dependency"]["MapFrom"]) > 1 for d in r["RegistryEntries"]["Dependencies"])
PY
fi
