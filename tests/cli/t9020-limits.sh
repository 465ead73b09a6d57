#!/bin/sh
# The limits README "Limits" documents, each at its value and one past it, through the commands a
# user runs: nesting depth, node count, bytes one compressed section inflates to, UI text length,
# ACPI tables per input, machine file size, topic rules file size. (The decompressed total,
# variable names, IFR scopes, AMD directory entries and snapshot members are tested in
# tests/unit/test-hardening.c and test-amd-flash.c.)
. "$(dirname "$0")/lib.sh"

t_need_cmd limits python3 || exit 0
HOSTILE="$FWLENS_SRCDIR/tests/cli/make-hostile.py"
sanitize=0
case "$FWLENS_BUILD" in */sanitize) sanitize=1 ;; esac

# exit status, the error line, and peak RSS in KiB of one run
measure() {
	/usr/bin/time -f '%M' -o "$T_DIR/rss" "$@" >"$T_OUT" 2>"$T_ERR" && T_STATUS=0 || T_STATUS=$?
	T_RSS=$(tail -n 1 "$T_DIR/rss")
}

# --- nesting depth 64: a file holding 21 nested volumes reaches depth 64 exactly ---------------
python3 "$HOSTILE" nestedfile 21 "$T_DIR/depth64.ffs"
t_run depth-at-limit 0 fwlens tree "$T_DIR/depth64.ffs" --format json
python3 -c '
import json, sys
def depth(n, d=0):
    return max([d] + [depth(c, d + 1) for c in n["children"]])
sys.exit(0 if depth(json.load(open(sys.argv[1]))["root"]) == 64 else 1)' "$T_OUT" && pass depth-at-limit-is-64 ||
	fail depth-at-limit-is-64 "the deepest node is not at depth 64"
python3 "$HOSTILE" nested 22 "$T_DIR/depth65.fv"
t_run depth-past-limit 3 fwlens tree "$T_DIR/depth65.fv"
grep -q '^fwlens tree: error: section at 0x[0-9a-f]*: nesting is deeper than the limit of 64 levels$' "$T_ERR" &&
	[ "$(wc -l <"$T_ERR")" -eq 1 ] && pass depth-past-limit-message || fail depth-past-limit-message "$(cat "$T_ERR")"

# --- 1,000,000 nodes: a volume, its ext-header pad file, a file and 999,997 empty sections ------
python3 "$HOSTILE" sections 999997 "$T_DIR/nodes.fv"
t_run nodes-at-limit 0 fwlens info "$T_DIR/nodes.fv" --format json
grep -q '"sections": 999997,' "$T_OUT" && pass nodes-at-limit-count || fail nodes-at-limit-count "$(grep sections "$T_OUT")"
python3 "$HOSTILE" sections 999998 "$T_DIR/nodes1.fv"
t_run nodes-past-limit 3 fwlens info "$T_DIR/nodes1.fv"
grep -q 'error: free-space at 0x[0-9a-f]*: more than the limit of 1000000 nodes$' "$T_ERR" &&
	pass nodes-past-limit-message || fail nodes-past-limit-message "$(cat "$T_ERR")"
rm -f "$T_DIR/nodes.fv" "$T_DIR/nodes1.fv"

# --- 512 MiB from one compressed section: an AMD zlib stream of zeros of exactly 512 MiB -------
# inflates, and peak memory stays within input + inflated bytes + 32 MiB; one byte more is left
# compressed with the limit named.
MUTATE="$FWLENS_BUILD/tests/mutate"
if [ -x "$MUTATE" ]; then
	"$MUTATE" --write-bomb 536870912 "$T_DIR/bomb.fv"
	measure "$FWLENS" info "$T_DIR/bomb.fv" --format json
	size=$(wc -c <"$T_DIR/bomb.fv")
	budget=$(((size + 536870912) / 1024 + 32768))
	if [ "$T_STATUS" -eq 0 ] && grep -q '"not_decompressed": 0,' "$T_OUT" && grep -q '"decompressed_bytes": 536870912' "$T_OUT"; then
		pass section-bytes-at-limit
	else
		fail section-bytes-at-limit "exit $T_STATUS: $(grep -A6 '"compressed"' "$T_OUT" | tr '\n' ' ')"
	fi
	if [ "$sanitize" = 1 ] || [ "$T_RSS" -le "$budget" ]; then
		pass section-bytes-at-limit-memory
	else
		fail section-bytes-at-limit-memory "peak RSS $T_RSS KiB, budget $budget KiB"
	fi
	"$MUTATE" --write-bomb 536870913 "$T_DIR/bomb1.fv"
	t_run section-bytes-past-limit 0 fwlens tree "$T_DIR/bomb1.fv"
	grep -q 'AMD zlib stream: output is over the limit of 0x20000000' "$T_ERR" && pass section-bytes-past-limit-message ||
		fail section-bytes-past-limit-message "$(cat "$T_ERR")"
	rm -f "$T_DIR/bomb.fv" "$T_DIR/bomb1.fv"
else
	fail section-bytes "$MUTATE was not built"
fi

# --- UI text of 1024 characters ---------------------------------------------------------------
python3 "$HOSTILE" uiname 1024 "$T_DIR/ui1024.fv"
t_run ui-text-at-limit 0 fwlens tree "$T_DIR/ui1024.fv" --format json
python3 "$HOSTILE" uiname 1025 "$T_DIR/ui1025.fv"
t_exec fwlens tree "$T_DIR/ui1025.fv" --format json
cp "$T_OUT" "$T_DIR/ui1025.json"
t_exec fwlens tree "$T_DIR/ui1024.fv" --format json
python3 - "$T_OUT" "$T_DIR/ui1025.json" <<'PY' && pass ui-text-limit || fail ui-text-limit "names or diagnostics differ from 1024 kept, 1025 cut"
import json, sys
def file_of(path):
    for n in json.load(open(path))["root"]["children"]:
        if n.get("name"):
            return n
at, past = file_of(sys.argv[1]), file_of(sys.argv[2])
cut = "text of 1025 characters cut to the limit of 1024"
msgs = lambda n: [d["message"] for c in n["children"] for d in c["diagnostics"]]
sys.exit(0 if len(at["name"]) == 1024 and not msgs(at) and len(past["name"]) == 1024 and cut in msgs(past) else 1)
PY

# --- 4096 ACPI tables in one input ------------------------------------------------------------
python3 - "$T_DIR" <<'PY'
import struct, sys
def table(i):
    t = bytearray(b"OEM" + bytes([0x41 + i % 26]) + struct.pack("<IBB", 36, 1, 0) + b"FUZZER" + b"LIMITS  " +
                  struct.pack("<I", i) + b"FWLN" + struct.pack("<I", 1))
    t[9] = (-sum(t)) & 0xFF
    return bytes(t)
for n, name in ((4096, "tables4096.bin"), (4097, "tables4097.bin")):
    open(sys.argv[1] + "/" + name, "wb").write(b"".join(table(i) for i in range(n)))
PY
t_run acpi-tables-at-limit 0 fwlens acpi "$T_DIR/tables4096.bin" --format json
[ "$(grep -c '"signature": "OEM' "$T_OUT")" -eq 4096 ] && pass acpi-tables-at-limit-count ||
	fail acpi-tables-at-limit-count "$(grep -c '"signature": "OEM' "$T_OUT") tables"
t_run acpi-tables-past-limit 3 fwlens acpi "$T_DIR/tables4097.bin"
grep -q 'more than 4096 ACPI tables' "$T_ERR" && pass acpi-tables-past-limit-message || fail acpi-tables-past-limit-message "$(cat "$T_ERR")"

# --- a machine file of 128 MiB (sparse), and one byte more ------------------------------------
root="$T_DIR/root"
mkdir -p "$root/var/log" "$root/proc"
echo 'BOOT_IMAGE=/vmlinuz' >"$root/proc/cmdline"
truncate -s 134217728 "$root/var/log/dmesg"
t_run machine-file-at-limit 0 fwlens snapshot capture --root "$root" -o "$T_DIR/at.fwsnap" -q
t_run machine-file-at-limit-loads 0 fwlens snapshot show "$T_DIR/at.fwsnap" --format json
t_contains machine-file-at-limit-kept '"kernel_log": true'
truncate -s 134217729 "$root/var/log/dmesg"
t_run machine-file-past-limit 0 fwlens snapshot capture --root "$root" -o "$T_DIR/past.fwsnap" -q
tar xOf "$T_DIR/past.fwsnap" manifest.json | grep -q 'var/log/dmesg: File too large' && pass machine-file-past-limit-recorded ||
	fail machine-file-past-limit-recorded "the manifest does not say the file was too large"
rm -rf "$root" "$T_DIR/at.fwsnap" "$T_DIR/past.fwsnap"

# --- a topic rules file of 16 MiB (the built-in rules padded with a comment) --------------------
rules="$FWLENS_SRCDIR/tools/query/rules/topics.xml"
pad() { # pad FILE TOTAL: the rules, then comments (libxml2 caps one text node at 10 MB) up to TOTAL bytes
	python3 - "$rules" "$1" "$2" <<'PY'
import sys
rules = open(sys.argv[1], "rb").read()
left = int(sys.argv[3]) - len(rules)
line = b"<!--" + b" " * 1016 + b"-->\n"
out = rules + line * (left // len(line) - 1)
left = int(sys.argv[3]) - len(out)
open(sys.argv[2], "wb").write(out + b"<!--" + b" " * (left - 8) + b"-->\n")
PY
}
pad "$T_DIR/rules16.xml" 16777216
[ "$(wc -c <"$T_DIR/rules16.xml")" -eq 16777216 ] || fail rules-size "padding made $(wc -c <"$T_DIR/rules16.xml") bytes"
t_run rules-at-limit 0 fwlens query --rules "$T_DIR/rules16.xml" --list-topics
t_contains rules-at-limit-topics "sev-snp"
pad "$T_DIR/rules16p.xml" 16777217
t_run rules-past-limit 3 fwlens query --rules "$T_DIR/rules16p.xml" --list-topics
grep -q 'larger than' "$T_ERR" && [ "$(wc -l <"$T_ERR")" -eq 1 ] && pass rules-past-limit-message ||
	fail rules-past-limit-message "$(cat "$T_ERR")"
