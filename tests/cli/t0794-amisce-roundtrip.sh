#!/bin/sh
# AMISCE round trips: an export written back by `settings EXPORT --format sce` is the same file
# byte for byte, and `plan EXPORT --set ... --format sce` differs from it only in the planned
# "*" marks and Value numbers. An export made here from the sample's settings (in the layout
# real exports have: CRLF, header comments, a "\r\r\n" line, a commented-out block, Latin-1
# text, bare hex values with comments, copies of one question) runs without the corpus; the two
# real exports of the corpus run when present.
. "$(dirname "$0")/lib.sh"
cd "$T_DIR" || exit 1
CAP="$SAMPLES/ESC8000A-E13-ASUS-1104.CAP"
t_need_file sample "$CAP" "the samples (make samples)" || exit 0

fwlens settings "$CAP" --format json >settings.json
python3 - settings.json export.txt <<'PY' || fail synthetic-export "could not write the export"
import json, sys
s = json.load(open(sys.argv[1]))["settings"]
out = []
L = out.append
L(b"// Script File Name : BIOSSettings.txt")
L(b"// Created on 12/01/26 at 10:11:12    ")
L(b"// AMISCE Utility. Ver 5.05.1234")
L(b"// Copyright (c) 2020 AMI. All rights reserved.\r")
L(b"HIICrc32= 0BADCAFE\r")
L(b"")
def q(x, extra=b""):
    L(b"Setup Question\t= " + x["prompt"].encode())
    if x.get("keyword"):
        L(b"Map String\t= " + x["keyword"].encode())
    if x.get("help"):
        L(b"Help String\t= " + x["help"].replace("\n", " ").encode())
    L(b"Token\t=%02X\t// Do NOT change this line" % x["question_id"])
    L(b"Offset\t=%02X" % x["offset"])
    L(b"Width\t=%02X" % x["width"])
    d = x["defaults"][0]["value"] if x["defaults"] else 0
    if x["kind"] == "one-of":
        t = [o["text"] for o in x["options"] if o["value"] == d]
        L(b"BIOS Default\t=[%02X]%s " % (d, (t[0] if t else "").encode()))
        for i, o in enumerate(x["options"]):
            mark = b"*" if o["value"] == d else b""
            L((b"Options\t=" if i == 0 else b"         ") + mark + b"[%02X]%s" % (o["value"], o["text"].encode()) +
              (b"\t// Move \"*\" to the desired Option" if i == 0 else b""))
    elif x["kind"] == "numeric":
        L(b"BIOS Default\t=<%d> " % d)
        L(b"Value\t=<%d>" % d)
    elif x["kind"] == "checkbox":
        L(b"BIOS Default\t=%X " % d)
        L(b"Value\t=%X\t// Enabled = 1, Disabled = 0" % d)
    else:
        L(b"Value\t=\"\"")
    L(b"")
for x in s:
    if x["kind"] in ("one-of", "numeric", "checkbox", "string") and x.get("offset") is not None:
        q(x)
# a question listed twice (AMISCE writes one block per form a question is in)
q([x for x in s if x["prompt"] == "SMEE"][0])
# a commented-out block and a prompt in the Windows code page
L(b"// Setup Question\t= Old Block")
L(b"// Token\t=99\t// Do NOT change this line")
L(b"")
L(b"Setup Question\t= Intel SpeedStep\xae")
L(b"Token\t=7F00\t// Do NOT change this line")
L(b"Offset\t=7F0")
L(b"Width\t=01")
L(b"BIOS Default\t=[01]Enabled ")
L(b"Options\t=[00]Disabled\t// Move \"*\" to the desired Option")
L(b"         *[01]Enabled ")
open(sys.argv[2], "wb").write(b"\r\n".join(out) + b"\r\n")
PY

# written back byte for byte
t_run synthetic-settings 0 fwlens settings export.txt --format sce -o back.txt
cmp export.txt back.txt >/dev/null && pass synthetic-byte-for-byte || fail synthetic-byte-for-byte "$(cmp export.txt back.txt)"
fwlens settings export.txt --format sce >back-stdout.txt
cmp export.txt back-stdout.txt >/dev/null && pass synthetic-byte-for-byte-stdout || fail synthetic-byte-for-byte-stdout "$(cmp export.txt back-stdout.txt)"
# the decoded fields spell all but the lines AMISCE writes in other forms (the "\r\r\n" header
# lines, the commented block, the Latin-1 prompt and the option with a trailing blank, the
# checkbox Value comments)
fwlens settings export.txt --format sce -v 2>log.txt >/dev/null
ncheckbox=$(python3 -c 'import json,sys; print(sum(1 for x in json.load(open("settings.json"))["settings"] if x["kind"]=="checkbox" and x.get("offset") is not None))')
want_raw=$((4 + 3 + 2 + ncheckbox))
grep -q "kept as written" log.txt && grep -q ", $want_raw kept as written" log.txt && pass synthetic-fields-spell-lines ||
	fail synthetic-fields-spell-lines "want $want_raw kept lines: $(grep lines log.txt)"

# a plan moves only the planned marks: one-of (2 lines: the old "*" and the new), a number (1 line),
# a checkbox in bare hex with its comment (1 line), a question listed twice (2 x 2 lines)
t_run synthetic-plan 0 fwlens plan export.txt --set 'Above 4GB MMIO Limit=41bit (2TB)' --set 'SEV-ES ASID Space Limit=100' \
	--set 'SMEE=Enable' --set '0x7F00=Disabled' --format sce -o planned.txt
diff export.txt planned.txt >d.txt
changed=$(grep -c '^>' d.txt)
[ "$changed" -eq 9 ] && [ "$(grep -c '^<' d.txt)" -eq 9 ] && pass synthetic-plan-lines || fail synthetic-plan-lines "$changed lines changed: $(cat d.txt)"
tr -d '\r' <d.txt >d-lf.txt
grep -qx '>          \*\[29\]41bit (2TB)' d-lf.txt && grep -qx '>          \[2B\]43bit (8TB)' d-lf.txt &&
	grep -qx '> Value	=<100>' d-lf.txt && [ "$(grep -cx '>          \*\[01\]Enable' d-lf.txt)" -eq 2 ] &&
	grep -qx '> Options	=\*\[00\]Disabled	// Move "\*" to the desired Option' d-lf.txt &&
	grep -qx '>          \[01\]Enabled ' d-lf.txt && pass synthetic-plan-marks || fail synthetic-plan-marks "$(cat d-lf.txt)"
# the plan keeps the export's line ends (every line CRLF)
[ "$(grep -c "$(printf '\r')\$" planned.txt)" -eq "$(wc -l <planned.txt)" ] && pass synthetic-plan-crlf || fail synthetic-plan-crlf "lines without CR"
# reads back with the new values
t_run synthetic-plan-reads-back 0 fwlens settings planned.txt --format json
python3 - "$T_OUT" <<'PY' && pass synthetic-plan-values || fail synthetic-plan-values "values do not read back"
import json, sys
s = json.load(open(sys.argv[1]))["settings"]
cur = {}
for x in s:
    cur.setdefault(x["prompt"], []).append(x.get("current"))
assert cur["Above 4GB MMIO Limit"] == ["41bit (2TB)"], cur["Above 4GB MMIO Limit"]
assert cur["SEV-ES ASID Space Limit"] == ["100"], cur["SEV-ES ASID Space Limit"]
assert cur["SMEE"] == ["Enable", "Enable"], cur["SMEE"]
PY
# a checkbox written as bare hex keeps its comment
ckb=$(python3 -c 'import json; print([x["prompt"] for x in json.load(open("settings.json"))["settings"] if x["kind"]=="checkbox" and x.get("offset") is not None][0])')
t_run synthetic-plan-checkbox 0 fwlens plan export.txt --set "$ckb=1" --set "$ckb=1" --format sce -o ckb.txt
diff export.txt ckb.txt | tr -d '\r' | grep '^>' >ckb.d
grep -qx '> Value	=1	// Enabled = 1, Disabled = 0' ckb.d && [ "$(wc -l <ckb.d)" -le 1 ] && pass synthetic-checkbox-comment ||
	fail synthetic-checkbox-comment "$(cat ckb.d)"

# the text and JSON forms name the old and new values; errors are exit 2 naming what failed
t_run plan-json 0 fwlens plan export.txt --set 'SMEE=Enable' --format json
python3 - "$T_OUT" <<'PY' && pass plan-json-fields || fail plan-json-fields "fields differ"
import json, sys
d = json.load(open(sys.argv[1]))
e, = d["entries"]
assert (d["hii_crc32"], e["prompt"], e["keyword"], e["token"], e["offset"], e["width"], e["old"], e["new"], e["change"]) == \
    ("0BADCAFE", "SMEE", "CbsCmnCpuSmeeBRH", 21, 51, 1, "Auto", "Enable", True), (d, e)
assert d["dependencies"].startswith("not known"), d["dependencies"]
PY
t_run plan-text 0 fwlens plan export.txt --set 'SMEE=Auto'
t_contains plan-text-already 'SMEE: Auto -> Auto (already set)  [Token 15, Offset 33, Width 1'
t_run plan-bad-value 2 fwlens plan export.txt --set 'SMEE=Maybe'
grep -qF 'SMEE: "Maybe" is not one of its options: Disable (0x0), Enable (0x1), Auto (0x3)' "$T_ERR" && pass plan-bad-value-says ||
	fail plan-bad-value-says "$(cat "$T_ERR")"
t_run plan-unknown 2 fwlens plan export.txt --set 'No Such Thing=1'
grep -qF "no question matches 'No Such Thing'" "$T_ERR" && pass plan-unknown-says || fail plan-unknown-says "$(cat "$T_ERR")"
t_run plan-number-range 2 fwlens plan export.txt --set 'SEV-ES ASID Space Limit=4294967296'
grep -qF 'takes a number from 0 to 4294967295 (width 4)' "$T_ERR" && pass plan-number-range-says || fail plan-number-range-says "$(cat "$T_ERR")"
t_run plan-redfish-refused 2 fwlens plan export.txt --set 'SMEE=Enable' --format redfish
t_run plan-profile-refused 2 fwlens plan export.txt --profile snp-host
[ ! -e nothing.txt ] && t_run plan-nothing-written 2 fwlens plan export.txt --set 'SMEE=Maybe' --format sce -o nothing.txt
[ ! -e nothing.txt ] && pass plan-error-writes-nothing || fail plan-error-writes-nothing "nothing.txt written"

# an export with LF line ends and no line end at its end stays so
tr -d '\r' <export.txt | head -c -1 >lf.txt
t_run lf-settings 0 fwlens settings lf.txt --format sce -o lf-back.txt
cmp lf.txt lf-back.txt >/dev/null && pass lf-byte-for-byte || fail lf-byte-for-byte "$(cmp lf.txt lf-back.txt)"

# the real exports
for f in amisce-export_amd-desktop-partial_BIOSSettings.txt amisce-export_asus-intel-rocketlake_BIOSSettings.txt; do
	t_need_file "real-$f" "$CORPUS/firmware/$f" "the corpus" || continue
	t_run "real-$f" 0 fwlens settings "$CORPUS/firmware/$f" --format sce -o real.txt
	cmp "$CORPUS/firmware/$f" real.txt >/dev/null && pass "real-byte-for-byte-$f" || fail "real-byte-for-byte-$f" "$(cmp "$CORPUS/firmware/$f" real.txt)"
done
f="$CORPUS/firmware/amisce-export_amd-desktop-partial_BIOSSettings.txt"
if [ -f "$f" ]; then
	# SMT Control: seven questions, two of them one question (Token 2ADA) listed twice
	t_run real-amd-ambiguous 2 fwlens plan "$f" --set 'SMT Control=Auto'
	[ "$(grep -c '^candidate: SMT Control' "$T_ERR")" -eq 7 ] && pass real-amd-candidates || fail real-amd-candidates "$(cat "$T_ERR")"
	t_run real-amd-plan 0 fwlens plan "$f" --set '0x2ADA=Auto' --set 'SB Clock Spread Spectrum=Disabled' --format sce -o amd-plan.txt
	diff "$f" amd-plan.txt | tr -d '\r' >amd.d
	[ "$(grep -c '^>' amd.d)" -eq 6 ] && grep -qx '> Options	=\*\[01\]Auto	// Move "\*" to the desired Option' amd.d &&
		grep -qx '> Options	=\*\[00\]Disabled	// Move "\*" to the desired Option' amd.d && pass real-amd-plan-marks ||
		fail real-amd-plan-marks "$(cat amd.d)"
fi
f="$CORPUS/firmware/amisce-export_asus-intel-rocketlake_BIOSSettings.txt"
if [ -f "$f" ]; then
	t_run real-rocketlake-plan 0 fwlens plan "$f" --set '0x2B9A=3' --set 'PTID Support=0' --set 'Manufacturer=Show' --format sce -o rl-plan.txt
	diff "$f" rl-plan.txt | tr -d '\r' >rl.d
	[ "$(grep -c '^>' rl.d)" -eq 4 ] && grep -qx '> Value	=<3>' rl.d && grep -qx '> Value	=0	// Enabled = 1, Disabled = 0' rl.d &&
		grep -qx '>          \*\[01\]Show' rl.d && pass real-rocketlake-plan-lines || fail real-rocketlake-plan-lines "$(cat rl.d)"
fi

# a plan from the image with the export's values: the planned questions only, with the export's
# CRLF line ends and its HIICrc32
t_run image-vars-sce 0 fwlens plan "$CAP" --vars export.txt --set SMEE=Enable --format sce -o image.txt
[ "$(grep -c "$(printf '\r')\$" image.txt)" -eq "$(wc -l <image.txt)" ] && tr -d '\r' <image.txt | grep -qx 'HIICrc32= 0BADCAFE' &&
	[ "$(grep -c '^Setup Question' image.txt)" -eq 1 ] && pass image-vars-sce-crlf || fail image-vars-sce-crlf "$(head -5 image.txt | od -c | head -5)"
t_run image-vars-sce-reads 0 fwlens settings "$CAP" --vars image.txt --module CbsSetupDxeBRH --format json
python3 - "$T_OUT" <<'PY' && pass image-vars-sce-reads-back || fail image-vars-sce-reads-back "SMEE not read back as Enable"
import json, sys
s = json.load(open(sys.argv[1]))["settings"]
assert [x.get("current_text") for x in s if x["prompt"] == "SMEE"] == ["Enable"]
PY
