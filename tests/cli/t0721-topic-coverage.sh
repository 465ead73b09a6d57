#!/bin/sh
# Every topic rule is checked against real names: the prompts of both CBS modules (Zen 5 and
# Zen 4) and AMI Setup of the WRX90E capsule, and of the sample CBS forms. The rules that match
# nothing anywhere are listed in a golden file, so a rule whose prompt is misspelled, or a new
# rule for a name no form in hand carries, shows up in review. Without the corpus capsule the
# check is skipped visibly (the sample forms alone leave too many rules unmatched to judge).
. "$(dirname "$0")/lib.sh"

CAP="$CORPUS/firmware/asus-wrx90e-sage-se-1203_rebuilt.cap"
G="$FWLENS_SRCDIR/tests/cli/golden/t0721-topic-coverage"
RULES="$FWLENS_SRCDIR/tools/query/rules/topics.xml"

if t_need_file topic-coverage "$CAP" "the WRX90E capsule of the corpus" &&
	t_need_file topic-coverage-samples "$SAMPLES/ESC8000A-E13-ASUS-1201.CAP" "the samples (make samples)"; then
	t_run topic-coverage-wrx90e 0 fwlens query "$CAP" --topic all --format json && cp "$T_OUT" "$T_DIR/real.json"
	t_run topic-coverage-sample 0 fwlens query "$SAMPLES/ESC8000A-E13-ASUS-1201.CAP" --topic all --format json &&
		cp "$T_OUT" "$T_DIR/sample.json"
	python3 - "$RULES" "$T_DIR/real.json" "$T_DIR/sample.json" >"$T_DIR/unmatched.txt" <<'PY'
import json, sys
import xml.etree.ElementTree as ET
rules = [(t.get("name"), s.get("id")) for t in ET.parse(sys.argv[1]).getroot() for s in t.findall("setting")]
hits = {}  # (topic, rule) -> where it matched
for where, path in (("WRX90E", sys.argv[2]), ("sample", sys.argv[3])):
    for m in json.load(open(path))["matches"]:
        for r in m["reasons"]:
            hits.setdefault((r["topic"], r["rule"]), set()).add(m.get("module_name") or where)
for topic, rule in rules:
    if (topic, rule) not in hits:
        print("%s/%s matches no prompt of the WRX90E CBS modules, AMI Setup or the sample forms" % (topic, rule))
PY
	T_EXIT=0 t_golden topic-coverage-unmatched "$G/unmatched-rules.txt" cat "$T_DIR/unmatched.txt"
	# both real CBS modules are reached by the rules, not only one generation
	python3 - "$T_DIR/real.json" <<'PY' && pass topic-coverage-both-modules || fail topic-coverage-both-modules "see above"
import json, sys
seen = {}
for m in json.load(open(sys.argv[1]))["matches"]:
    seen.setdefault(m["module_name"], 0)
    seen[m["module_name"]] += 1
ok = seen.get("CbsSetupDxeSHP", 0) > 40 and seen.get("CbsSetupDxeSTP", 0) > 30
print(seen) if not ok else None
sys.exit(0 if ok else 1)
PY
fi
