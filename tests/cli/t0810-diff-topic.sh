#!/bin/sh
# diff --topic: only the settings and values of the named topics, each marked with its topics in
# every format (markdown golden, as the README shows it; JSON and text checked for the marks).
. "$(dirname "$0")/lib.sh"

G="$FWLENS_SRCDIR/tests/cli/golden/t0810-diff-topic"
t_need_file diff-topic "$SAMPLES/ESC8000A-E13-ASUS-1201.CAP" "the samples (make samples)" || exit 0

T_EXIT=1 t_golden diff-topic-markdown "$G/1104-1201-sev-snp-iommu.md" t_in_dir "$SAMPLES" \
	fwlens diff ESC8000A-E13-ASUS-1104.CAP ESC8000A-E13-ASUS-1201.CAP --topic sev-snp,iommu --format markdown
t_run diff-topic-json 1 fwlens diff "$SAMPLES/ESC8000A-E13-ASUS-1104.CAP" "$SAMPLES/ESC8000A-E13-ASUS-1201.CAP" --topic sev-snp,iommu --format json
python3 - "$T_OUT" <<'PY' && pass diff-topic-json-marks || fail diff-topic-json-marks "see above"
import json, sys
d = json.load(open(sys.argv[1]))
bad = []
items = [x for k in ("added", "removed", "moved", "changed") for x in d["settings"][k]] + d["values"]
if not items:
    bad.append("nothing left")
for x in items:
    if not x.get("topics") or not set(x["topics"]) <= {"sev-snp", "iommu"}:
        bad.append("%s: topics %s" % (x.get("prompt"), x.get("topics")))
if d["summary"].get("topics") != ["sev-snp", "iommu"]:
    bad.append("summary topics %s" % d["summary"].get("topics"))
if d["modules"] == {"added": [], "removed": [], "changed": []}:
    bad.append("the other sections were dropped")
print("\n".join(bad)) if bad else None
sys.exit(1 if bad else 0)
PY
t_run diff-topic-text 1 fwlens diff "$SAMPLES/ESC8000A-E13-ASUS-1104.CAP" "$SAMPLES/ESC8000A-E13-ASUS-1201.CAP" --topic p2p
t_contains diff-topic-text-header "Settings of topics p2p ("
t_contains diff-topic-text-mark "topics: p2p"
t_run diff-topic-bad 2 fwlens diff "$SAMPLES/ESC8000A-E13-ASUS-1104.CAP" "$SAMPLES/ESC8000A-E13-ASUS-1201.CAP" --topic iomu
grep -q "did you mean 'iommu'?" "$T_ERR" && pass diff-topic-bad-message || fail diff-topic-bad-message "$(cat "$T_ERR")"
