#!/bin/sh
# diff of modules and variables held in several copies (the sample images repeat their DXE volume
# and their NVRAM stores): one line for all copies when they changed alike ("both copies"), one
# per copy with its volume or record when they did not; modules known only by GUID counted per
# volume unless -v; values say where they were read from.
. "$(dirname "$0")/lib.sh"

t_need_file diff-copies "$SAMPLES/ESC8000A-E13-ASUS-1201.CAP" "the samples (make samples)" || exit 0
A="$SAMPLES/ESC8000A-E13-ASUS-1104.CAP" B="$SAMPLES/ESC8000A-E13-ASUS-1201.CAP"

t_run diff-copies-text 1 fwlens diff "$A" "$B"
t_contains diff-copies-module-volume-1 "~ 7DF8ABB4-E5EA-46D6-B98C-34BD61E3E059 AmdPlatformPei  (volume @0x1C01000)"
t_contains diff-copies-module-volume-2 "~ 7DF8ABB4-E5EA-46D6-B98C-34BD61E3E059 AmdPlatformPei  (volume @0x1E01000)"
t_contains diff-copies-unnamed-volume "~ 2 modules without a name changed in volume @0x1001000 (GUIDs with -v)"
t_contains diff-copies-unnamed-both "~ 7 modules without a name changed in both copies (GUIDs with -v)"
t_contains diff-copies-variable-both "~ StdDefaults 4599D26F-1A11-49B8-B91F-858745CFF824 in NVAR  (both copies)"
t_contains diff-copies-module-named "~ B6488E5A-6DA2-459A-A958-185B31F20CCF CbsSetupDxeBRH"
[ "$(grep -c 'StdDefaults 4599D26F' "$T_OUT")" -eq 1 ] && pass diff-copies-variable-once || fail diff-copies-variable-once "$(grep 'StdDefaults 4599D26F' "$T_OUT")"
t_run diff-copies-verbose 1 fwlens diff -v "$A" "$B"
t_contains diff-copies-verbose-guid "~ A019C128-FD4B-4CAB-BA34-ED1E7B4FDB20  (both copies)"
t_run diff-copies-json 1 fwlens diff "$A" "$B" --format json
python3 - "$T_OUT" <<'PY' && pass diff-copies-json-where || fail diff-copies-json-where "see above"
import json, sys
d = json.load(open(sys.argv[1]))
mods = d["modules"]["changed"]
bad = []
pei = sorted(m.get("where") for m in mods if m.get("name") == "AmdPlatformPei")
if pei != ["volume @0x1C01000", "volume @0x1E01000"]:
    bad.append("AmdPlatformPei copies: %s" % pei)
both = [m["key"] for m in mods if m.get("where") == "both copies"]
if len(both) != 7 or len(set(both)) != 7:
    bad.append("both copies: %s" % both)
if len(mods) != 16:
    bad.append("%d changed modules" % len(mods))
var = [v for v in d["variables"]["changed"] if v["key"].startswith("StdDefaults ")]
if len(var) != 1 or var[0].get("where") != "both copies":
    bad.append("StdDefaults: %s" % var)
print("\n".join(bad)) if bad else None
sys.exit(1 if bad else 0)
PY

# two machines: values name where each side's came from
t_run diff-values-source 1 fwlens diff "$SAMPLES/sysroot-1104" "$SAMPLES/sysroot-1201" --image "$B" --format json
python3 - "$T_OUT" "$SAMPLES" <<'PY' && pass diff-values-source-json || fail diff-values-source-json "see above"
import json, sys
d = json.load(open(sys.argv[1]))
s = sys.argv[2]
bad = []
if not d["values"]:
    bad.append("no values")
for v in d["values"]:
    if v.get("old_source") != "efivarfs folder %s/sysroot-1104/sys/firmware/efi/efivars" % s or \
       v.get("new_source") != "efivarfs folder %s/sysroot-1201/sys/firmware/efi/efivars" % s:
        bad.append("%s: %s / %s" % (v["prompt"], v.get("old_source"), v.get("new_source")))
print("\n".join(bad)) if bad else None
sys.exit(1 if bad else 0)
PY
t_run diff-values-source-text 1 fwlens diff "$SAMPLES/sysroot-1104" "$SAMPLES/sysroot-1201" --image "$B"
t_contains diff-values-source-old "old values from efivarfs folder $SAMPLES/sysroot-1104/sys/firmware/efi/efivars"
t_contains diff-values-source-new "new values from efivarfs folder $SAMPLES/sysroot-1201/sys/firmware/efi/efivars"
# a value that only follows its changed default is not repeated under Values
t_run diff-values-default 1 fwlens diff "$SAMPLES/sysroot-1104" "$SAMPLES/sysroot-1201" --image-a "$A" --image-b "$B" --format json
python3 - "$T_OUT" <<'PY' && pass diff-values-not-defaults || fail diff-values-not-defaults "see above"
import json, sys
d = json.load(open(sys.argv[1]))
defaults = {c["prompt"] for c in d["settings"]["changed"] for f in c["changes"] if f["field"] == "default"}
bad = []
for v in d["values"]:
    if v["prompt"] in defaults:
        bad.append("%s: %s -> %s listed as a value and as a default change" % (v["prompt"], v["old"], v["new"]))
if not defaults:
    bad.append("no default changes to check against")
print("\n".join(bad)) if bad else None
sys.exit(1 if bad else 0)
PY
