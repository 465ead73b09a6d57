#!/bin/sh
# Hostile strings in the scripts and change files fwlens writes. Forms built here (make-hostile.py
# forms) hold, in prompts, option texts, defaults, help, x-UEFI keywords and a varstore name:
# quotes, $(...), backticks, line feeds, ESC/BEL/C1 controls, a bidirectional override and a
# 3000-character prompt; the image's own file name holds a line feed, a command, a quote and a
# byte that is not UTF-8. The efivarfs script must pass sh -n and shellcheck, keep every such
# byte in a one-line comment, and its dry run in an empty folder must leave the folder empty,
# the variables and a canary untouched and run nothing but its checks; the AMISCE script must
# refuse what it cannot carry (exit 5, naming the setting) and read back exactly what was
# planned; a Redfish body must refuse two settings with one keyword (exit 5, naming both).
. "$(dirname "$0")/lib.sh"

t_need_cmd hostile-scripts python3 || exit 0
cd "$T_DIR" || exit 1
python3 "$FWLENS_SRCDIR/tests/cli/make-hostile.py" forms forms.bin ev
IMG=$(printf 'img\n$(touch PWNED)\047`touch PWNED`\377.bin')
cp forms.bin "$IMG"
ESCS=$(printf '[\033\007\177]')
C1=$(printf '\302[\200-\237]')
no_pwned() { [ -z "$(find "$T_DIR" -name PWNED)" ]; }

# --- efivarfs ------------------------------------------------------------------------------------
# 1 an option text with a line feed and a command, 4 terminal controls in the prompt, 3 the forging
# default, 2 quotes and $(...) by keyword, 5 the long prompt, 8 a line feed in the keyword, 7 the
# varstore whose name holds a command (refused: efivarfs files with such names are not written)
t_run efivarfs-written 0 fwlens plan "$IMG" --vars ev --set BootMode=1 --set TermKw=1 --set ForgeDefault=0 \
	--set 'Quote$(touch PWNED)`x`=1' --set 'Setup+0x4=1' --set 'Setup+0x6=1' --set EvilStore=1 --format efivarfs \
	-o e.sh
t_run efivarfs-sh-n 0 sh -n e.sh
if t_need_cmd efivarfs-shellcheck shellcheck; then
	t_run efivarfs-shellcheck 0 shellcheck -s sh e.sh
fi
# every line from the forms is a comment, shown with visible escapes, exactly
{
	printf '%s\n' "# Written by fwlens $(fwlens version | sed -n 's/^fwlens \([^ ]*\).*/\1/p'): the change set for img\\n\$(touch PWNED)'\`touch PWNED\`\\xFF.bin as efivarfs writes."
	printf '%s\n' '#   1. Boot Mode: Safe -> Evil\n$(touch PWNED)\necho pwned'
	printf '%s\n' '#   2. Term \x1B]0;pwned\x07 \x1B[2J \u009B31m \u0085 \u202Eevil: A -> B'
	printf '%s\n' '#   3. Forge Default: Normal -> Normal'
	printf '%s\n' "#   4. Quote ' \" \`touch PWNED\` \$(touch PWNED) ; rm -rf ~ // not a comment: Off 'a' \"b\" -> On \`touch PWNED\` \$(touch PWNED)"
	printf '%s\n' "#   5. Long $(printf 'L%.0s' $(seq 3000)): Off -> On"
	printf '%s\n' '#   6. Keyword Break: Off -> On'
	printf '%s\n' "#   7. In Evil Store: Off -> On  REFUSED: the variable's name has characters a shell script would have to quote"
} >want-comments
grep -v '^#   [sE ]' e.sh | grep '^# \(Written\|  [0-9]\)' >got-comments
cmp -s want-comments got-comments && pass efivarfs-comments-exact ||
	fail efivarfs-comments-exact "$(diff want-comments got-comments | head -c 600)"
[ "$(grep -v '^#' e.sh | grep -c 'PWNED\|pwned\|Evil\|Forged')" -eq 0 ] && pass efivarfs-nothing-outside-comments ||
	fail efivarfs-nothing-outside-comments "$(grep -v '^#' e.sh | grep 'PWNED\|pwned\|Evil\|Forged' | head -3)"
if LC_ALL=C grep -q "$ESCS" e.sh || LC_ALL=C grep -q "$C1" e.sh || ! iconv -f UTF-8 -t UTF-8 e.sh >/dev/null 2>&1; then
	fail efivarfs-plain-bytes "a control byte or a byte that is not UTF-8 is in the script"
else
	pass efivarfs-plain-bytes
fi
grep -q "^change_var 'Setup-ec87d643-eba4-4bb5-a1e5-3f3e36b20da9' " e.sh && pass efivarfs-name-quoted ||
	fail efivarfs-name-quoted "no single-quoted change_var for Setup"

# the dry run in an empty folder: the folder stays empty, variables and canary untouched, and no
# command but the checks runs (stand-ins for every command that writes log their calls)
cp -a ev ev-run
echo 'canary' >canary
mkdir empty bin
for c in touch rm dd cp mv mkdir chattr mktemp ln chmod tee sh bash; do
	printf '#!/bin/sh\necho "%s $*" >>"%s/ran"\n' "$c" "$T_DIR" >"bin/$c"
	chmod +x "bin/$c"
done
(cd empty && PATH="$T_DIR/bin:$PATH" EFIVARS="$T_DIR/ev-run" BACKUP="$T_DIR/backup" /bin/sh ../e.sh) >"$T_OUT" 2>"$T_ERR" &&
	rc=0 || rc=$?
[ "$rc" -eq 0 ] && pass dry-run-exit-0 || fail dry-run-exit-0 "exit $rc: $(head -c 300 "$T_ERR")"
grep -q '^Setup-ec87d643-eba4-4bb5-a1e5-3f3e36b20da9: old bytes match; would write 20 bytes' "$T_OUT" &&
	pass dry-run-checks || fail dry-run-checks "$(head -c 300 "$T_OUT")"
[ -z "$(ls -A empty)" ] && pass dry-run-folder-empty || fail dry-run-folder-empty "$(ls -A empty)"
[ ! -e ran ] && pass dry-run-runs-nothing || fail dry-run-runs-nothing "$(cat ran)"
[ ! -e backup ] && diff -r ev ev-run >/dev/null && [ "$(cat canary)" = canary ] && pass dry-run-writes-nothing ||
	fail dry-run-writes-nothing "a variable, the canary or a backup changed"
no_pwned && pass dry-run-no-command || fail dry-run-no-command "a command from the forms ran"

# --apply on the copy writes what was planned: Boot Mode 1, Term 1, Forge Default 0, Quote 1,
# Long 1, Keyword Break 1 at Setup offsets 0..6, after the 4 attribute bytes
EFIVARS="$T_DIR/ev-run" BACKUP="$T_DIR/backup" t_run apply 0 sh e.sh --apply
[ "$(od -An -v -tx1 -j4 -N7 ev-run/Setup-ec87d643-eba4-4bb5-a1e5-3f3e36b20da9 | tr -d ' \n')" = 01010001010001 ] &&
	pass apply-bytes || fail apply-bytes "$(od -An -tx1 ev-run/Setup-ec87d643-eba4-4bb5-a1e5-3f3e36b20da9)"
no_pwned && pass apply-no-command || fail apply-no-command "a command from the forms ran"

# the plan and its verification as text: each entry one line, controls as visible escapes
fwlens plan "$IMG" --vars ev --set BootMode=1 --set TermKw=1 --format json >bm.json
t_run text-plan 0 fwlens plan "$IMG" --vars ev --set BootMode=1 --set TermKw=1
grep -qxF ' 1. Boot Mode  Safe -> Evil\n$(touch PWNED)\necho pwned' "$T_OUT" &&
	grep -qxF ' 2. Term \x1B]0;pwned\x07 \x1B[2J \u009B31m \u0085 \u202Eevil  A -> B' "$T_OUT" &&
	pass text-plan-one-line || fail text-plan-one-line "$(head -c 400 "$T_OUT")"
t_run text-verify 1 fwlens plan "$IMG" --vars ev --verify bm.json
grep -qxF '  different  Boot Mode = Safe (planned Evil\n$(touch PWNED)\necho pwned)' "$T_OUT" &&
	grep -q '^rebooted since the plan: ' "$T_OUT" && [ "$(wc -l <"$T_OUT")" -eq 5 ] && pass text-verify-one-line || fail text-verify-one-line "$(head -c 400 "$T_OUT")"

# --- AMISCE ----------------------------------------------------------------------------------------
# refused, exit 5, naming the setting and the field; nothing written
refused() {
	r_name=$1 r_says=$2 # t_run sets name and want
	shift 2
	t_run "$r_name" 5 fwlens plan "$IMG" --vars ev "$@" --format sce -o refused.sce || return
	grep -qF -- "$r_says" "$T_ERR" && [ "$(wc -l <"$T_ERR")" -eq 1 ] && pass "$r_name-names" ||
		fail "$r_name-names" "$(head -c 400 "$T_ERR")"
	[ ! -e refused.sce ] && pass "$r_name-nothing-written" || fail "$r_name-nothing-written" "refused.sce exists"
}
refused sce-option-line-feed "setting 'Boot Mode' (question 0x100, Setup+0x0): its option 0x1 text holds \\n at byte 4" \
	--set BootMode=1
refused sce-default-forged "setting 'Forge Default' (question 0x102, Setup+0x2): its option 0x1 text holds \\n at byte 4" \
	--set ForgeDefault=0
refused sce-prompt-controls "setting 'Term \\x1B]0;pwned\\x07 \\x1B[2J \\u009B31m \\u0085 \\u202Eevil' (question 0x103, Setup+0x3): its prompt holds \\x1B at byte 5" \
	--set TermKw=1
refused sce-keyword-line-feed "its x-UEFI keyword holds \\n at byte 2" --set 'Setup+0x6=1'
t_run settings-sce-refused 5 fwlens settings "$IMG" --vars ev --format sce
grep -qF "setting 'Boot Mode'" "$T_ERR" && [ ! -s "$T_OUT" ] && pass settings-sce-refused-names ||
	fail settings-sce-refused-names "$(head -c 300 "$T_ERR")"

# what it can carry is written one field a line and reads back exactly
t_run sce-written 0 fwlens plan "$IMG" --vars ev --set 'Quote$(touch PWNED)`x`=1' --set 'Setup+0x4=1' \
	--set 'Shared Twin=1' --set EvilStore=1 --set Spaced=1 --format sce -o "$IMG.sce"
cp "$IMG.sce" rt.sce
bad=$(grep -v -e '^$' -e '^//' -e '^\(Setup Question\|Map String\|Help String\|Token\|Offset\|Width\|BIOS Default\|Options\|Value\)	=' \
	-e '^         \*\?\[[0-9A-F]*\]' rt.sce | head -3)
[ -z "$bad" ] && [ "$(grep -c '^Setup Question' rt.sce)" -eq 5 ] && pass sce-one-field-a-line ||
	fail sce-one-field-a-line "lines of no field: $bad"
if LC_ALL=C grep -q "$ESCS" rt.sce || LC_ALL=C grep -q "$C1" rt.sce || ! iconv -f UTF-8 -t UTF-8 rt.sce >/dev/null 2>&1; then
	fail sce-plain-bytes "a control byte or a byte that is not UTF-8 is in the script"
else
	pass sce-plain-bytes
fi
grep -qxF '// Script File Name : img\n$(touch PWNED)'"'"'`touch PWNED`\xFF.bin.sce' rt.sce && pass sce-file-name-comment ||
	fail sce-file-name-comment "$(head -n 1 rt.sce)"
grep -qxF 'Help String	= line one line two \x1B[31m$(touch PWNED)' rt.sce && pass sce-help-one-line ||
	fail sce-help-one-line "$(grep -A0 'Help String	= line' rt.sce | head -c 200)"
fwlens plan "$IMG" --vars ev --set 'Quote$(touch PWNED)`x`=1' --set 'Setup+0x4=1' --set 'Shared Twin=1' --set EvilStore=1 \
	--set Spaced=1 --format json >plan.json
t_run sce-reads-back 0 fwlens settings rt.sce --format json
python3 - plan.json "$T_OUT" <<'PY' && pass sce-round-trip || fail sce-round-trip "the script does not read back as planned"
import json, sys
plan, back = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
want = [(e["prompt"], e["keyword"], e["question_id"], e["offset"], e["width"], e["new"]["value"], e["new"]["text"])
        for e in plan["entries"]]
got = [(s["prompt"], s["keyword"], s["question_id"], s["offset"], s["width"], s["current_value"], s["current"])
       for s in back["settings"]]
assert len(want) == 5 and want == got, (want, got)
assert want[4][0] == "Spaced Prompt" and want[4][6] == "  On", want[4]  # the forms' model trims prompts
assert want[0][0] == "Quote ' \" `touch PWNED` $(touch PWNED) ; rm -rf ~ // not a comment", want[0]
assert want[0][6] == "On `touch PWNED` $(touch PWNED)", want[0]
PY
# the script as current values of the image: each planned setting has its planned value
t_run sce-as-vars 0 fwlens settings "$IMG" --vars rt.sce --format json
python3 - "$T_OUT" <<'PY' && pass sce-as-vars-values || fail sce-as-vars-values "the values do not bind back"
import json, sys
d = json.load(open(sys.argv[1]))
v = {s["prompt"][:20]: s["current"] for s in d["settings"] if s.get("current") is not None}
assert v == {"Quote ' \" `touch PWN": 1, "Long " + "L" * 15: 1, "Shared Twin": 1, "In Evil Store": 1,
             "Spaced Prompt": 1}, v
PY

# a HIICrc32 from an export given with --vars: written when it is hex, refused when it is not
printf 'HIICrc32= 1A2B3C4D\r\n\r\nSetup Question\t= Shared Twin\r\nToken\t=105\r\nOffset\t=5\r\nWidth\t=01\r\nOptions\t=*[00]Off\r\n         [01]On\r\n' >export.txt
t_run sce-hii-crc 0 fwlens plan "$IMG" --vars export.txt --set 'Shared Twin=1' --format sce
t_contains sce-hii-crc-line 'HIICrc32= 1A2B3C4D'
printf 'HIICrc32= 1A2B\033[2J\r\n\r\nSetup Question\t= Shared Twin\r\nToken\t=105\r\nOffset\t=5\r\nWidth\t=01\r\nOptions\t=*[00]Off\r\n         [01]On\r\n' >export.txt
t_run sce-hii-crc-refused 5 fwlens plan "$IMG" --vars export.txt --set 'Shared Twin=1' --format sce
grep -qF "HIICrc32 '1A2B\\x1B[2J'" "$T_ERR" && pass sce-hii-crc-refused-names || fail sce-hii-crc-refused-names "$(cat "$T_ERR")"

# --- Redfish ----------------------------------------------------------------------------------------
t_run redfish-keyword-clash 5 fwlens plan "$IMG" --vars ev --set 'Setup+0x4=1' --set 'Shared Twin=1' --format redfish
grep -qF "Redfish attribute SharedKw names two planned settings, 'Long LLLLL" "$T_ERR" &&
	grep -qF "...' (question 0x104, Setup+0x4) and 'Shared Twin' (question 0x105, Setup+0x5)" "$T_ERR" &&
	[ ! -s "$T_OUT" ] && pass redfish-clash-names-both || fail redfish-clash-names-both "$(head -c 400 "$T_ERR")"
t_run redfish-hostile-keyword 0 fwlens plan "$IMG" --vars ev --set 'Quote$(touch PWNED)`x`=1' --set 'Setup+0x6=1' --format redfish
python3 - "$T_OUT" <<'PY' && pass redfish-exact || fail redfish-exact "the body does not carry the names and values exactly"
import json, sys
d = json.load(open(sys.argv[1]))
assert d == {"Attributes": {"Quote$(touch PWNED)`x`": "On `touch PWNED` $(touch PWNED)",
                            "Kw\n$(touch PWNED)": "On"}}, d
PY
W="$CORPUS/firmware/asus-wrx90e-sage-se-1203_rebuilt.cap"
if t_need_file redfish-pcie000 "$W" "the corpus"; then
	t_run redfish-pcie000 5 fwlens plan "$W" --set 'PcieSataModVar+0x0=AHCI Mode' --set 'PcieSataModVar+0x1=AHCI Mode' \
		--set 'PcieSataModVar+0x2=RAID Mode' --format redfish
	grep -qF "PCIE000 names two planned settings, 'SATA mode' (question 0x348, PcieSataModVar+0x0) and 'SATA mode' (question 0x349, PcieSataModVar+0x1)" "$T_ERR" &&
		grep -qF "'SATA mode' (question 0x348, PcieSataModVar+0x0) and 'SATA mode' (question 0x34A, PcieSataModVar+0x2)" "$T_ERR" &&
		pass redfish-pcie000-names || fail redfish-pcie000-names "$(cat "$T_ERR")"
fi
no_pwned && pass no-command-ran || fail no-command-ran "a command from the forms ran"
