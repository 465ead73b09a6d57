#!/bin/sh
# fwlens query and find: golden outputs on a settings list read from standard input, topic
# precision and recall on the real WRX90E capsule (its Zen 5 and Zen 4 CBS modules and AMI Setup),
# the sample capsule, machine facts on the sample sysroot, and bad input.
. "$(dirname "$0")/lib.sh"
G="$FWLENS_SRCDIR/tests/cli/golden/t0720-query"
LIST="$FWLENS_SRCDIR/tests/data/query/settings.json"
from_stdin() { f=$1; shift; "$@" <"$f"; }

t_golden query-text "$G/query.txt" from_stdin "$LIST" fwlens query - --topic sev-snp,iommu,p2p,numa
t_golden query-json "$G/query.json" from_stdin "$LIST" fwlens query - --topic sev-snp,iommu,p2p,numa --format json
t_golden query-markdown "$G/query.md" from_stdin "$LIST" fwlens query - --topic sev-snp --format markdown
t_golden find-text "$G/find.txt" from_stdin "$LIST" fwlens find - "encrypt|^IOMMU$"
t_golden find-json "$G/find.json" t_in_dir "$FWLENS_SRCDIR/tests/data/query" fwlens find settings.json "^Above 4G" --format json
t_run query-jsonl 0 fwlens query "$LIST" --format jsonl
[ "$(wc -l <"$T_OUT")" -eq 7 ] && pass query-jsonl-lines || fail query-jsonl-lines "expected 7 lines, got $(wc -l <"$T_OUT")"
t_run query-xml 0 fwlens query "$LIST" --topic numa --format xml && t_contains query-xml-prompt "<prompt>NUMA nodes per socket</prompt>"
t_run find-in-varstore 0 fwlens find "$LIST" '^Setup$' --in varstore --format json
[ "$(grep -c '"prompt"' "$T_OUT")" -eq 2 ] && pass find-in-varstore-count || fail find-in-varstore-count "expected the two Setup settings"
t_run find-nothing 1 fwlens find "$LIST" 'no such thing'
t_run find-bad-regex 2 fwlens find "$LIST" '('
t_run find-bad-field 2 fwlens find "$LIST" x --in colour
t_run query-bad-topic 2 fwlens query "$LIST" --topic sev-snp,gpu
grep -q "unknown topic 'gpu'" "$T_ERR" && pass query-bad-topic-message || fail query-bad-topic-message "$(cat "$T_ERR")"
# a mistyped topic, field or format gets the nearest name suggested
t_run query-near-topic 2 fwlens query "$LIST" --topic iomu,cxl
grep -q "unknown topic 'iomu'; did you mean 'iommu'?" "$T_ERR" && pass query-near-topic-message || fail query-near-topic-message "$(cat "$T_ERR")"
t_run find-near-field 2 fwlens find "$LIST" x --in promt
grep -q "did you mean 'prompt'?" "$T_ERR" && pass find-near-field-message || fail find-near-field-message "$(cat "$T_ERR")"
t_run query-near-format 2 fwlens query "$LIST" --format markdwn
grep -q "did you mean 'markdown'?" "$T_ERR" && pass query-near-format-message || fail query-near-format-message "$(cat "$T_ERR")"
t_run query-list-topics 0 fwlens query --list-topics
t_contains query-list-topics-sev "sev-snp"
printf '{"settings": [{"help": "no prompt"}]}' >"$T_DIR/bad.json"
t_run query-bad-list 3 fwlens query "$T_DIR/bad.json"
grep -q 'record 1 has no "prompt"' "$T_ERR" && pass query-bad-list-message || fail query-bad-list-message "$(cat "$T_ERR")"
printf '<topics version="1"><topic name="x" title="X"><description>d</description><setting id="s"><prompt>Fan Profile</prompt><why>fans</why></setting></topic></topics>' >"$T_DIR/rules.xml"
t_run query-rules-file 0 fwlens query "$LIST" --rules "$T_DIR/rules.xml" --format json
t_contains query-rules-file-match '"reason": "x: fans"'

# The real WRX90E capsule: the settings that matter for SEV-SNP, the IOMMU, ACS, P2P and NUMA,
# each under its topic, from both CBS modules and AMI Setup, with varstore and offset; few in all.
CAP="$CORPUS/firmware/asus-wrx90e-sage-se-1203_rebuilt.cap"
if t_need_file wrx90e-query "$CAP" "the WRX90E capsule of the corpus"; then
	t_run wrx90e-query 0 fwlens query "$CAP" --topic sev-snp,iommu,acs,p2p,numa --format json
	python3 - "$T_OUT" <<'PY' && pass wrx90e-query-recall-precision || fail wrx90e-query-recall-precision "see above"
import json, sys
d = json.load(open(sys.argv[1]))
m = d["matches"]
want = {  # prompt: (topic, modules it must come from)
    "SMEE": ("sev-snp", {"CbsSetupDxeSHP", "CbsSetupDxeSTP"}),
    "SEV Control": ("sev-snp", {"CbsSetupDxeSHP"}),
    "TSME": ("sev-snp", {"CbsSetupDxeSHP", "CbsSetupDxeSTP"}),
    "SEV-SNP Support": ("sev-snp", {"CbsSetupDxeSHP", "CbsSetupDxeSTP"}),
    "SNP Memory (RMP Table) Coverage": ("sev-snp", {"CbsSetupDxeSHP", "CbsSetupDxeSTP"}),
    "SEV-ES ASID Space Limit": ("sev-snp", {"CbsSetupDxeSHP", "CbsSetupDxeSTP"}),
    "IOMMU": ("iommu", {"CbsSetupDxeSHP", "CbsSetupDxeSTP"}),
    "ACS Enable": ("acs", {"CbsSetupDxeSHP", "CbsSetupDxeSTP"}),
    "PCIe ARI Support": ("p2p", {"CbsSetupDxeSHP", "CbsSetupDxeSTP"}),
    "PCIe Ten Bit Tag Support": ("p2p", {"CbsSetupDxeSHP", "CbsSetupDxeSTP"}),
    "Above 4G Decoding": ("p2p", {"Setup"}),
    "Resize BAR Support": ("p2p", {"Setup"}),
    "ACPI SRAT L3 Cache As NUMA Domain": ("numa", {"CbsSetupDxeSHP", "CbsSetupDxeSTP"}),
}
bad = []
for prompt, (topic, modules) in want.items():
    got = [x for x in m if x["prompt"] == prompt and topic in x["topics"]]
    seen = {x["module_name"] for x in got}
    if not modules <= seen:
        bad.append("%s under %s from %s (got %s)" % (prompt, topic, sorted(modules), sorted(seen)))
    for x in got:
        if not x["varstore"] or x["offset"] is None or not x["reason"]:
            bad.append("%s: no varstore, offset or reason" % prompt)
if len(m) >= 250:
    bad.append("%d matches: not precise" % len(m))
if bad:
    print("\n".join(bad))
sys.exit(1 if bad else 0)
PY
	t_run wrx90e-find 0 fwlens find "$CAP" '^SEV-SNP Support$' --in prompt --format json
	t_contains wrx90e-find-zen5 '"offset_hex": "0x374"'
	t_contains wrx90e-find-zen4 '"offset_hex": "0x133"'
fi

# The sample capsule and machine: matches with current values, and the machine's topic facts.
if t_need_file sample-query "$SAMPLES/sysroot-1201" "the samples (make samples)"; then
	t_run sample-query-capsule 0 fwlens query "$SAMPLES/ESC8000A-E13-ASUS-1201.CAP" --topic sev-snp --format json
	t_contains sample-query-smee '"prompt": "SMEE"'
	t_run sample-query-machine 0 fwlens query "$SAMPLES/sysroot-1201" --image "$SAMPLES/ESC8000A-E13-ASUS-1201.CAP" --topic numa,acs --format json
	python3 - "$T_OUT" <<'PY' && pass sample-query-machine-facts || fail sample-query-machine-facts "see above"
import json, sys
d = json.load(open(sys.argv[1]))
facts = {(f["topic"], f["id"]): f for f in d["facts"]}
nps = [m for m in d["matches"] if m["prompt"] == "NUMA nodes per socket"]
ok = True
if not nps or nps[0]["current"] != "NPS4":
    print("NPS current value not NPS4: %s" % nps); ok = False
if facts[("numa", "srat")]["state"] != "present":
    print("SRAT not present"); ok = False
if facts[("acs", "disable-acs-redir")]["state"] != "present":
    print("disable_acs_redir not found on the command line"); ok = False
sys.exit(0 if ok else 1)
PY
	t_run sample-query-machine-without-forms 0 fwlens query "$SAMPLES/sysroot-1201" --topic iommu
	grep -q "give --image" "$T_ERR" && pass sample-query-machine-warns || fail sample-query-machine-warns "$(cat "$T_ERR")"
	t_run sample-find-machine-without-forms 3 fwlens find "$SAMPLES/sysroot-1201" SMEE
fi
