#!/bin/sh
# AMISCE exports (SCEWIN/SCELNX /o) as a settings list on their own and as current values of an
# image: the two real exports of the corpus when present (skipped visibly when absent), a small
# export written here, and broken ones (exit 3 naming the line).
. "$(dirname "$0")/lib.sh"
cd "$T_DIR" || exit 1

# a hand-made export in the real layout: CRLF, a commented-out block, options and a number
printf '%s\r\n' '// Script File Name : nvram.txt' '// AMISCE Utility. Ver 5.05.1234' '' 'HIICrc32= 1A2B3C4D' '' \
	'Setup Question	= SMEE' 'Map String	= CbsCmnCpuSmeeBRH' 'Help String	= Control secure memory encryption' \
	'Token	=15	// Do NOT change this line' 'Offset	=33' 'Width	=01' 'BIOS Default	=[03]Auto ' \
	'Options	=[00]Disable	// Move "*" to the desired Option' '         *[01]Enable' '         [03]Auto' '' \
	'// Setup Question	= Old Block' '// Token	=99	// Do NOT change this line' '' \
	'Setup Question	= SEV-ES ASID Space Limit' 'Token	=700F	// Do NOT change this line' 'Offset	=35' 'Width	=04' \
	'BIOS Default	=<1> ' 'Value	=<100>' '' >nvram.txt
t_run small-settings 0 fwlens settings nvram.txt --format json
python3 - "$T_OUT" <<'PY' && pass small-decoded || fail small-decoded "fields not decoded as written"
import json, sys
d = json.load(open(sys.argv[1]))
s = d["settings"]
assert d["hii_crc32"] == "1A2B3C4D" and d["current_source"]["kind"] == "amisce"
assert [x["prompt"] for x in s] == ["SMEE", "SEV-ES ASID Space Limit"], [x["prompt"] for x in s]
a, b = s
assert (a["keyword"], a["question_id"], a["offset"], a["width"], a["current"], a["default"]) == \
    ("CbsCmnCpuSmeeBRH", 0x15, 0x33, 1, "Enable", "Auto"), a
assert [(o["value"], o["text"]) for o in a["options"]] == [(0, "Disable"), (1, "Enable"), (3, "Auto")]
assert (b["question_id"], b["offset"], b["width"], b["current_value"], b["default_value"]) == (0x700F, 0x35, 4, 100, 1), b
PY
CAP="$SAMPLES/ESC8000A-E13-ASUS-1104.CAP"
if t_need_file small-as-vars "$CAP" "the samples (make samples)"; then
	t_run small-as-vars 0 fwlens find "$CAP" '^(SMEE|SEV-ES ASID Space Limit)$' --in prompt --vars nvram.txt --format json
	python3 - "$T_OUT" <<'PY' && pass small-bound || fail small-bound "values not bound by offset, width and prompt"
import json, sys
d = json.load(open(sys.argv[1]))
assert {m["prompt"]: m["current"] for m in d["matches"]} == {"SMEE": "Enable", "SEV-ES ASID Space Limit": "100"}
PY
	# an offset whose question has another prompt is not bound, and said so
	sed 's/= SMEE/= Something Else/' nvram.txt >other.txt
	t_run prompt-checked 0 fwlens find "$CAP" '^SMEE$' --in prompt --vars other.txt --format json
	grep -q '"current": null' "$T_OUT" && grep -q "another prompt" "$T_ERR" && pass prompt-mismatch-warns ||
		fail prompt-mismatch-warns "a value bound despite another prompt, or no warning"
fi

# broken exports: exit 3 naming the line
printf 'HIICrc32= 1\nSetup Question = X\nOffset =zz\n' >bad-offset.txt
t_run bad-offset 3 fwlens settings bad-offset.txt
grep -q "line 3: Offset is not hex" "$T_ERR" && pass bad-offset-says || fail bad-offset-says "$(cat "$T_ERR")"
printf 'HIICrc32= 1\nSetup Question = X\nOptions =*[0Q]A\n' >bad-option.txt
t_run bad-option 3 fwlens settings bad-option.txt
printf 'HIICrc32= 1\nToken =5\n' >no-question.txt
t_run key-before-question 3 fwlens settings no-question.txt

# the real exports
for f in amisce-export_amd-desktop-partial_BIOSSettings.txt amisce-export_asus-intel-rocketlake_BIOSSettings.txt; do
	t_need_file "real-$f" "$CORPUS/firmware/$f" "the corpus" || continue
	t_run "real-$f" 0 fwlens settings "$CORPUS/firmware/$f" --format json
	cp "$T_OUT" real.json
done
if [ -f "$CORPUS/firmware/amisce-export_amd-desktop-partial_BIOSSettings.txt" ]; then
	fwlens settings "$CORPUS/firmware/amisce-export_amd-desktop-partial_BIOSSettings.txt" --format json >amd.json
	python3 - amd.json <<'PY' && pass real-amd-values || fail real-amd-values "decoded values differ from the file"
import json, sys
d = json.load(open(sys.argv[1]))
s = d["settings"]
assert len(s) == 43 and d["hii_crc32"] == "59B5A216", (len(s), d.get("hii_crc32"))
smt = [x for x in s if x["prompt"] == "SMT Control"][0]
assert (smt["question_id"], smt["offset"], smt["width"], smt["current"], smt["default"]) == (0x2A0C, 0x4F8, 1, "Disabled", "Auto"), smt
PY
fi
if [ -f "$CORPUS/firmware/amisce-export_asus-intel-rocketlake_BIOSSettings.txt" ]; then
	python3 - real.json <<'PY' && pass real-rocketlake-values || fail real-rocketlake-values "decoded values differ from the file"
import json, sys
d = json.load(open(sys.argv[1]))
s = d["settings"]
assert len(s) == 4527 and d["hii_crc32"] == "4BD96F42", (len(s), d.get("hii_crc32"))
m = s[0]
assert (m["prompt"], m["question_id"], m["offset"], m["width"], m["current"], m["default"]) == ("Manufacturer", 0x0A, 0x0E, 1, "Hidden", "Hidden"), m
bclk = [x for x in s if x["prompt"] == "  BCLK Frequency"][0]  # ASUS indents it; AMISCE keeps the blanks
assert (bclk["kind"], bclk["width"], bclk["current"]) == ("string", 0x28, ""), bclk
PY
fi
