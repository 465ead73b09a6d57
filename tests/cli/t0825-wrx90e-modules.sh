#!/bin/sh
# The real WRX90E capsule (two AMD CBS modules, Zen 5 and Zen 4, beside AMI Setup): settings, find
# and query list module by module and name the module of every section; a question AMI Setup
# repeats in several forms at one varstore offset is one setting with every menu path and the
# conditions of all its copies (hidden only where every copy is hidden).
. "$(dirname "$0")/lib.sh"

CAP="$CORPUS/firmware/asus-wrx90e-sage-se-1203_rebuilt.cap"
t_need_file wrx90e-modules "$CAP" "the WRX90E capsule of the corpus" || exit 0

t_run wrx90e-settings 0 fwlens settings "$CAP"
t_contains wrx90e-settings-shp "== module CbsSetupDxeSHP ("
t_contains wrx90e-settings-stp "== module CbsSetupDxeSTP ("
t_contains wrx90e-settings-section "Setup > Advanced > AMD CBS > NBIO Common Options > IOMMU/Security  [CbsSetupDxeSHP]"
t_contains wrx90e-settings-count "4948 settings"
t_run wrx90e-settings-json 0 fwlens settings "$CAP" --format json
python3 - "$T_OUT" <<'PY' && pass wrx90e-one-question-one-setting || fail wrx90e-one-question-one-setting "see above"
import collections, json, sys
d = json.load(open(sys.argv[1]))["settings"]
bad = []
if len(d) != 4948:
    bad.append("%d settings, expected 4948 (5428 questions, 480 of them repeats)" % len(d))
# no two settings of one formset share varstore, offset, width, bits, kind and prompt
key = collections.Counter((s["module"], s["formset"], s["varstore"], s.get("offset"), s["width"], s.get("bit_offset"), s["kind"], s["prompt"])
                          for s in d if s.get("offset") is not None and s["width"])
dups = [k for k, n in key.items() if n > 1]
if dups:
    bad.append("%d repeated questions left, e.g. %s" % (len(dups), dups[:2]))
by = {s["prompt"]: s for s in d if s["varstore"] == "Setup"}
num = by.get("Bootup NumLock State")
if not num or num["paths"] != ["Setup > Boot", "Setup > Boot > Boot Configuration"] or num["conditions"]:
    bad.append("Bootup NumLock State: %s" % (num and (num["paths"], num["conditions"])))
out = by.get("Output Select")
if not out or len(out["options"]) != 8 or [c["expression"] for c in out["conditions"]] != ["Q0x517 not in {1, 2, 3, 4, 5, 6, 7, 8}"]:
    bad.append("Output Select: %s" % (out and ([o["text"] for o in out["options"]], [c["expression"] for c in out["conditions"]])))
# two prompts over one byte stay two settings
tpm = [s["prompt"] for s in d if s["varstore"] == "Setup" and s.get("offset") == 15]
if sorted(tpm) != ["TCM State", "TPM State"]:
    bad.append("Setup+0xF: %s" % tpm)
print("\n".join(bad)) if bad else None
sys.exit(1 if bad else 0)
PY
t_run wrx90e-find-modules 0 fwlens find "$CAP" '^SEV-SNP Support$' --in prompt
t_contains wrx90e-find-shp "  module CbsSetupDxeSHP ("
t_contains wrx90e-find-stp "  module CbsSetupDxeSTP ("
t_run wrx90e-query-markdown 0 fwlens query "$CAP" --topic iommu --format markdown
t_contains wrx90e-query-md-shp "### iommu in module CbsSetupDxeSHP"
t_contains wrx90e-query-md-stp "### iommu in module CbsSetupDxeSTP"
if python3 "$FWLENS_SRCDIR/tests/cli/mdtables.py" "$T_OUT" >"$T_DIR/why" 2>&1; then pass wrx90e-query-md-tables; else fail wrx90e-query-md-tables "$(head -3 "$T_DIR/why")"; fi
