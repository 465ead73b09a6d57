#!/bin/sh
# One value per setting: settings, find, query, doctor, notes and diff give the same current value
# for the same input, and each says where it came from (current_source): the image's own NVRAM
# store with its offset, an efivarfs folder, a snapshot, or what --vars names (a folder, a tar of
# one, a whole image). --vars overrides the source's own variables.
. "$(dirname "$0")/lib.sh"
CAP="$SAMPLES/ESC8000A-E13-ASUS-1104.CAP"
t_need_file current-source "$CAP" "the samples (make samples)" || exit 0
CAP2="$SAMPLES/ESC8000A-E13-ASUS-1201.CAP"

# a copy of the 1104 machine whose SMEE is Auto (the image's own store says Enable)
M="$T_DIR/m"
cp -a "$SAMPLES/sysroot-1104" "$M"
EV="$M/sys/firmware/efi/efivars"
printf '\003' | dd of="$EV/AmdSetupBRH-3a997502-647a-4c82-998e-52ef9486a247" bs=1 seek=$((4 + 0x33)) conv=notrunc 2>/dev/null
(cd "$EV/.." && tar cf "$T_DIR/efivars.tar" efivars)
fwlens snapshot capture -q --root "$M" --image "$CAP" -o "$T_DIR/m.fwsnap"

# check NAME WANT-VALUE WANT-KIND SRC [options...]: every command on SRC
check() {
	name=$1 want=$2 kind=$3
	shift 3
	fwlens settings "$@" --format json >"$T_DIR/settings.json" 2>/dev/null
	fwlens find "$1" '^SMEE$' --in prompt $(shift; echo "$@") --format json >"$T_DIR/find.json" 2>/dev/null
	fwlens query "$1" --topic sev-snp $(shift; echo "$@") --format json >"$T_DIR/query.json" 2>/dev/null
	fwlens doctor "$1" --profile sev-snp-host $(shift; echo "$@") --format json >"$T_DIR/doctor.json" 2>/dev/null
	fwlens notes "$1" $(shift; echo "$@") >"$T_DIR/notes.md" 2>/dev/null
	python3 - "$T_DIR" "$want" "$kind" <<'PY' && pass "$name" || fail "$name" "$(cat "$T_DIR/why")"
import json, sys
d, want, kind = sys.argv[1], sys.argv[2], sys.argv[3]
bad = []
def load(n):
    return json.load(open("%s/%s.json" % (d, n)))
s = load("settings")
src = s["current_source"]
if src["kind"] != kind:
    bad.append("settings: current_source kind %s, expected %s" % (src["kind"], kind))
text = src["text"]
smee = [x for x in s["settings"] if x["prompt"] == "SMEE"][0]
got = {"settings": smee.get("current_text")}
if smee.get("current_source") != text:
    bad.append("settings: the setting's current_source differs from the document's")
f = load("find")
got["find"] = f["matches"][0]["current"]
q = [m for m in load("query")["matches"] if m["prompt"] == "SMEE"][0]
got["query"] = q["current"]
for n, o in (("find", f), ("query", load("query")), ("doctor", load("doctor"))):
    if o["current_source"]["text"] != text:
        bad.append("%s: current_source %r, settings say %r" % (n, o["current_source"]["text"], text))
for n, m in (("find", f["matches"][0]), ("query", q)):
    if m.get("current_source") != text:
        bad.append("%s: the match's current_source %r" % (n, m.get("current_source")))
ev = [c for c in load("doctor")["checks"] if c["id"] == "bios-smee"][0]["evidence"]
t = ev[0]["text"] if ev and isinstance(ev[0], dict) else (ev[0] if ev else "")
got["doctor"] = t.split(" = ")[1].split(" (")[0] if " = " in t else None
notes = open(d + "/notes.md").read()
row = [l for l in notes.splitlines() if l.startswith("| SMEE |")]
got["notes"] = row[0].split(" | ")[2].split(" (")[0] if row else None
if ("Current values from %s." % text) not in notes:
    bad.append("notes: no line naming %r" % text)
for k, v in got.items():
    if v != want:
        bad.append("%s: SMEE = %r, expected %r" % (k, v, want))
open(d + "/why", "w").write("; ".join(bad))
sys.exit(1 if bad else 0)
PY
}

check image-own-store Enable image-nvram "$CAP"
grep -q '"offset_hex": "0x1BE1090"' "$T_DIR/settings.json" && pass image-store-offset ||
	fail image-store-offset "no store offset 0x1BE1090 in current_source"
check folder Auto efivarfs "$M" --image "$CAP"
check snapshot Auto snapshot "$T_DIR/m.fwsnap"
check vars-folder Auto vars "$CAP" --vars "$EV"
check vars-tar Auto vars "$CAP" --vars "$T_DIR/efivars.tar"
check vars-whole-image Enable vars "$CAP" --vars "$CAP2"
check vars-over-machine Enable vars "$M" --image "$CAP" --vars "$SAMPLES/sysroot-1104/sys/firmware/efi/efivars"

# diff names each side's source
fwlens diff "$CAP" "$CAP" --vars-b "$EV" --format json >"$T_DIR/diff.json" 2>/dev/null
python3 - "$T_DIR/diff.json" <<'PY' && pass diff-sources || fail diff-sources "diff sides do not name their current values"
import json, sys
d = json.load(open(sys.argv[1]))
a, b = d["sources"]["old"]["current_source"], d["sources"]["new"]["current_source"]
assert a["kind"] == "image-nvram" and b["kind"] == "vars", (a, b)
assert [v for v in d["values"] if v["prompt"] == "SMEE"], "SMEE value change missing"
PY
# a bad --vars is an error naming it, exit 4 for a missing file, 3 for bytes that hold no variables
t_run vars-missing 4 fwlens settings "$CAP" --vars "$T_DIR/nope"
grep -q -- "--vars: " "$T_ERR" && pass vars-missing-says || fail vars-missing-says "the error does not name --vars"
printf 'not variables at all' >"$T_DIR/junk.bin"
t_run vars-junk 3 fwlens find "$CAP" SMEE --vars "$T_DIR/junk.bin"
