#!/bin/sh
# What every command does the same way: --format names and their output (JSON that parses, JSON
# lines keyed by source, XML that is well formed, text without control characters), colour only
# on a terminal, -q and -v, exit codes (0 ok, 1 differences, 2 usage, 3 bad input, 4 I/O), and
# --output written atomically (a failed run leaves the previous file untouched).
. "$(dirname "$0")/lib.sh"

CAP="$SAMPLES/ESC8000A-E13-ASUS-1104.CAP"
CAP2="$SAMPLES/ESC8000A-E13-ASUS-1201.CAP"
ROOT="$SAMPLES/sysroot-1104"
t_need_file samples "$CAP" "the sample capsules are built by make samples" || exit 0
fwlens snapshot capture --root "$ROOT" --image "$CAP" -o "$T_DIR/s1104.fwsnap" -q

# name | arguments (one sample invocation per command; help and version take none)
cat >"$T_DIR/cases" <<EOF2
info|$CAP
tree|$CAP
psp|$CAP
nvram|$CAP
verify|$CAP
ifr|$CAP
settings|$CAP
find|$CAP SEV
query|$CAP --topic iommu
acpi|$ROOT
diff|$CAP $CAP2
snapshot|show $T_DIR/s1104.fwsnap
doctor|$ROOT --image $CAP
notes|$ROOT --image $CAP
help|
version|
EOF2

# Run every command in every format it offers; one checker reads all the outputs afterwards.
mkdir -p "$T_DIR/formats"
while IFS='|' read -r cmd args; do
	formats=$(fwlens help "$cmd" --format json | python3 -c "import json,sys; print(' '.join(json.load(sys.stdin)['formats']))")
	for fmt in $formats; do
		T_STATUS=0
		# shellcheck disable=SC2086
		fwlens $cmd $args --format "$fmt" >"$T_DIR/formats/$cmd.$fmt" 2>"$T_ERR" </dev/null || T_STATUS=$?
		if [ "$T_STATUS" -gt 1 ]; then
			fail "$cmd-$fmt" "exit $T_STATUS: $(head -c 200 "$T_ERR")"
			rm -f "$T_DIR/formats/$cmd.$fmt"
			continue
		fi
		# colour is for text on a terminal: forced on, documents stay plain
		if [ "$fmt" != text ]; then
			# shellcheck disable=SC2086
			fwlens $cmd $args --format "$fmt" --color=always 2>/dev/null </dev/null | grep -q "$(printf '\033')" &&
				fail "$cmd-$fmt-plain" "escape codes in $fmt with --color always" || pass "$cmd-$fmt-plain"
		fi
	done
done <"$T_DIR/cases"
python3 - "$T_DIR/formats" "$T_SUITE" <<'PY'
import json, os, sys, xml.dom.minidom
folder, suite = sys.argv[1], sys.argv[2]
def check(fmt, data):
    if b"\x1b" in data:
        return "escape codes without a terminal"
    if any(c < 32 and c not in (9, 10) for c in data):
        return "control characters in the output"
    text = data.decode("utf-8")
    if fmt == "json":
        json.loads(text)
    elif fmt == "jsonl":
        for n, line in enumerate(text.splitlines(), 1):
            o = json.loads(line)
            if not isinstance(o, dict) or next(iter(o), None) != "source":
                return f"line {n} does not start with \"source\""
    elif fmt == "xml":
        xml.dom.minidom.parseString(data)
    return None
for name in sorted(os.listdir(folder)):
    cmd, fmt = name.split(".", 1)
    try:
        why = check(fmt, open(os.path.join(folder, name), "rb").read())
    except Exception as e:
        why = f"{type(e).__name__}: {e}"
    print(f"FAIL {suite}/{cmd}-{fmt}: {why}" if why else f"ok {suite}/{cmd}-{fmt}")
PY

# Colour: on a terminal (a pseudo-terminal from script(1)), never with NO_COLOR or --color never,
# and when forced into a pipe.
esc=$(printf '\033')
if t_need_cmd colour-on-terminal script; then
	# script(1) echoes its input into the capture when stdin is not a terminal; on a loaded
	# machine what it sends at the end of /dev/null lands inside the output: --echo never.
	echo_never=""
	script -q -E never -ec true /dev/null >/dev/null 2>&1 </dev/null && echo_never="-E never"
	tty_run() { script -q $echo_never -ec "$*" /dev/null 2>/dev/null </dev/null; }
	tty_run "'$FWLENS' doctor '$ROOT' --image '$CAP'" >"$T_DIR/tty" || true
	grep -q "$esc\[3[12]m" "$T_DIR/tty" && pass colour-on-terminal || fail colour-on-terminal "no colour on a terminal"
	NO_COLOR=1 tty_run "'$FWLENS' doctor '$ROOT' --image '$CAP'" >"$T_DIR/tty" || true
	grep -q "$esc\[" "$T_DIR/tty" && fail no-colour-with-NO_COLOR "colour despite NO_COLOR" || pass no-colour-with-NO_COLOR
	tty_run "'$FWLENS' doctor '$ROOT' --image '$CAP' --color never" >"$T_DIR/tty" || true
	grep -q "$esc\[" "$T_DIR/tty" && fail no-colour-when-never "colour despite --color never" || pass no-colour-when-never
	# a terminal on stderr only: the progress and colour of stdout follow stdout
	tty_run "'$FWLENS' doctor '$ROOT' --image '$CAP' > '$T_DIR/piped'" || true
	grep -q "$esc" "$T_DIR/piped" && fail no-colour-in-file "escape codes in a redirected stdout" || pass no-colour-in-file
fi
fwlens doctor "$ROOT" --image "$CAP" --color=always >"$T_DIR/forced" 2>/dev/null

# Progress: a line on stderr when it is a terminal and the work takes longer than the delay
# (FWLENS_PROGRESS_DELAY, 1 s by default); never in a pipe or a file, never with -q.
if t_need_cmd progress-on-terminal script; then
	FWLENS_PROGRESS_DELAY=0 tty_run "'$FWLENS' extract '$CAP' --all '$T_DIR/dump1'" >"$T_DIR/tty" || true
	grep -q "extracting: [0-9]*/[0-9]* ([0-9]*%)" "$T_DIR/tty" && pass progress-on-terminal ||
		fail progress-on-terminal "no progress line: $(head -c 200 "$T_DIR/tty" | od -c | head -n 3 | tr '\n' ' ')"
	# the result starts on a clean line: after the line was cleared, or at its start when the work
	# ended before the first progress line was drawn. script(1) on a loaded machine may lose the
	# child's last output; such a capture is taken again rather than judged.
	n=0
	while ! grep -q "bytes written" "$T_DIR/tty" && [ "$n" -lt 3 ]; do
		n=$((n + 1))
		rm -rf "$T_DIR/dump1"
		FWLENS_PROGRESS_DELAY=0 tty_run "'$FWLENS' extract '$CAP' --all '$T_DIR/dump1'" >"$T_DIR/tty" || true
	done
	tr '\r' '\n' <"$T_DIR/tty" | grep -q "^\($esc\[K\)\{0,1\}[0-9]* nodes, [0-9]* bytes written" && pass progress-cleared ||
		fail progress-cleared "the result shares the progress line: $(tr '\r' '\n' <"$T_DIR/tty" | grep "bytes written" | od -c | head -n 2 | tr '\n' ' ')"
	FWLENS_PROGRESS_DELAY=0 tty_run "'$FWLENS' extract '$CAP' --all '$T_DIR/dump2' -q" >"$T_DIR/tty" || true
	grep -q "extracting" "$T_DIR/tty" && fail progress-quiet "progress despite -q" || pass progress-quiet
	FWLENS_PROGRESS_DELAY=60 tty_run "'$FWLENS' extract '$CAP' --all '$T_DIR/dump3'" >"$T_DIR/tty" || true
	grep -q "extracting" "$T_DIR/tty" && fail progress-waits "progress for work shorter than the delay" || pass progress-waits
	FWLENS_PROGRESS_DELAY=0 tty_run "'$FWLENS' diff '$CAP' '$CAP2' >/dev/null" >"$T_DIR/tty" || true
	grep -q "diff: reading both sides" "$T_DIR/tty" && pass progress-diff || fail progress-diff "no progress line"
	# binary output never goes to a terminal, whether stdout is implied or named with -o -
	for args in "extract '$CAP' --guid Setup" "extract '$CAP' --guid Setup -o -" "snapshot capture --root '$ROOT' -o -" \
		"decompress --algo lzma '$CAP' -o -"; do
		tty_run "'$FWLENS' $args; echo exit \$?" >"$T_DIR/tty" || true
		grep -q "refusing to write binary data to a terminal" "$T_DIR/tty" && grep -q "exit 2" "$T_DIR/tty" &&
			pass "binary-not-to-terminal: ${args%% *}" || fail "binary-not-to-terminal: $args" "$(head -c 200 "$T_DIR/tty")"
	done
fi
FWLENS_PROGRESS_DELAY=0 fwlens extract "$CAP" --all "$T_DIR/dump4" >/dev/null 2>"$T_DIR/err"
if grep -q "extracting\|$(printf '\r')" "$T_DIR/err"; then fail progress-not-in-pipe "progress on a redirected stderr"; else pass progress-not-in-pipe; fi
FWLENS_PROGRESS_DELAY=0 fwlens snapshot capture --root "$ROOT" -o "$T_DIR/p.fwsnap" 2>"$T_DIR/err"
if grep -q "capturing\|$(printf '\r')" "$T_DIR/err"; then fail progress-not-in-file "progress in a file"; else pass progress-not-in-file; fi
grep -q "$esc\[" "$T_DIR/forced" && pass colour-forced || fail colour-forced "--color always printed no colour"

# Strings from the input never drive the terminal: a prompt carrying an OSC title sequence, a BEL,
# a carriage return, a screen clear and a C1 CSI prints escaped ('\x1b') in every text format, coloured or
# not, while JSON keeps the bytes (escaped).
fwlens settings "$CAP" --format json | python3 -c "
import json, sys
d = json.load(sys.stdin)
d['settings'][5]['prompt'] = 'Evil \x1b]0;owned\x07 title\r\x1b[2J\u009b31m end'
json.dump(d, open('$T_DIR/evil.json', 'w'))
"
for fmt in text markdown; do
	for colour in never always; do
		fwlens find "$T_DIR/evil.json" owned --format $fmt --color=$colour >"$T_DIR/evil.out" 2>/dev/null
		python3 - "$T_DIR/evil.out" "$colour" <<'PY' && pass "hostile-strings-$fmt-$colour" || fail "hostile-strings-$fmt-$colour" "$(head -c 300 "$T_DIR/evil.out" | od -c | head -n 4 | tr '\n' ' ')"
import re, sys
data = open(sys.argv[1], "rb").read()
ours = rb"\x1b\[(0|1|2|31|32|33|34|36)m"
rest = re.sub(ours, b"", data) if sys.argv[2] == "always" else data
bad = [c for c in rest if (c < 32 and c not in (9, 10)) or c == 127]
sys.exit(1 if bad or b"\xc2\x9b" in data or b"owned" not in data else 0)
PY
	done
done
fwlens find "$T_DIR/evil.json" owned --format json | grep -qi 'u001b]0;owned' && pass hostile-strings-json-kept || fail hostile-strings-json-kept "JSON lost the bytes"

# -q silences warnings, -v logs to stderr; neither changes standard output.
t_run warns 0 fwlens query "$ROOT" --topic iommu
[ "$(grep -c "warning:" "$T_ERR")" -eq 1 ] && pass warning-shown-once || fail warning-shown-once "$(cat "$T_ERR")"
fwlens notes "$ROOT" >/dev/null 2>"$T_DIR/notes.err"
[ "$(grep -c "warning:" "$T_DIR/notes.err")" -eq 1 ] && pass notes-warning-once || fail notes-warning-once "$(head -c 300 "$T_DIR/notes.err")"
cp "$T_OUT" "$T_DIR/plain"
t_run quiet 0 fwlens query "$ROOT" --topic iommu -q
[ ! -s "$T_ERR" ] && pass quiet-silences || fail quiet-silences "stderr: $(head -c 200 "$T_ERR")"
cmp -s "$T_OUT" "$T_DIR/plain" && pass quiet-same-output || fail quiet-same-output "stdout changed with -q"
t_run verbose 0 fwlens query "$ROOT" --topic iommu -vv
grep -q "firmware\|machine" "$T_ERR" && pass verbose-logs || fail verbose-logs "nothing logged with -vv"
cmp -s "$T_OUT" "$T_DIR/plain" && pass verbose-same-output || fail verbose-same-output "stdout changed with -vv"
# every command says what it did with -v, and nothing without
while IFS='|' read -r cmd args; do
	# shellcheck disable=SC2086
	fwlens $cmd $args -v >/dev/null 2>"$T_DIR/v.err" </dev/null
	grep -q "^fwlens $cmd: done in [0-9.]* s, exit status [01]$" "$T_DIR/v.err" && pass "$cmd-verbose" ||
		fail "$cmd-verbose" "$(head -c 200 "$T_DIR/v.err")"
done <"$T_DIR/cases"

# Exit codes: a missing file is 4, bytes that are no known input are 3, a bad command line is 2.
head -c 65536 /dev/zero | tr '\0' 'Z' >"$T_DIR/junk.bin"
for cmd in info tree psp nvram verify ifr settings query doctor notes acpi "snapshot show" "decompress --algo lzma" "diff $CAP"; do
	name=$(echo "$cmd" | cut -d' ' -f1)
	# shellcheck disable=SC2086
	t_run "$name-missing-file" 4 fwlens $cmd "$T_DIR/nowhere"
	grep -q "nowhere" "$T_ERR" && [ "$(wc -l <"$T_ERR")" -eq 1 ] && pass "$name-missing-file-one-line" ||
		fail "$name-missing-file-one-line" "$(head -c 200 "$T_ERR")"
	# shellcheck disable=SC2086
	t_run "$name-junk" 3 fwlens $cmd "$T_DIR/junk.bin"
	# shellcheck disable=SC2086
	t_run "$name-unknown-option" 2 fwlens $cmd "$CAP" --no-such-option
done
t_run find-missing-file 4 fwlens find "$T_DIR/nowhere" SEV
t_run find-junk 3 fwlens find "$T_DIR/junk.bin" SEV
t_run find-bad-regex 2 fwlens find "$CAP" '(' 
t_run find-nothing 1 fwlens find "$CAP" 'no such setting anywhere'
t_run extract-missing-file 4 fwlens extract "$T_DIR/nowhere" --guid Setup -o "$T_DIR/x.bin"
t_run extract-junk 3 fwlens extract "$T_DIR/junk.bin" --guid Setup -o "$T_DIR/x.bin"
t_run extract-no-such-guid 3 fwlens extract "$CAP" --guid 00000000-1111-2222-3333-444444444444 -o "$T_DIR/x.bin"
t_run diff-equal 0 fwlens diff "$CAP" "$CAP"
t_run diff-different 1 fwlens diff "$CAP" "$CAP2"
t_run verify-valid 0 fwlens verify "$CAP"
t_run doctor-fails 1 fwlens doctor "$ROOT" --image "$CAP"
t_run snapshot-capture-needs-output 2 fwlens snapshot capture --root "$ROOT"
t_run snapshot-bad-subcommand 2 fwlens snapshot shoe "$T_DIR/s1104.fwsnap"

# --output is atomic on every command: a failed run leaves the previous file as it was and no
# temporary beside it; a run that succeeds (or finds differences) replaces it.
atomic() {
	# atomic NAME WANT_EXIT ARGS...: run with -o over an existing file
	a_name=$1 a_want=$2
	shift 2
	echo previous >"$T_DIR/out/result"
	t_run "atomic-$a_name" "$a_want" fwlens "$@" -o "$T_DIR/out/result"
	leftovers=$(ls "$T_DIR/out" | grep -v '^result$' || true)
	if [ -n "$leftovers" ]; then
		fail "atomic-$a_name-no-temporary" "left behind: $leftovers"
	else
		pass "atomic-$a_name-no-temporary"
	fi
	if [ "$a_want" -ge 2 ]; then
		[ "$(cat "$T_DIR/out/result")" = previous ] && pass "atomic-$a_name-kept" || fail "atomic-$a_name-kept" "the previous file was changed"
	else
		[ "$(cat "$T_DIR/out/result")" != previous ] && [ -s "$T_DIR/out/result" ] && pass "atomic-$a_name-replaced" ||
			fail "atomic-$a_name-replaced" "the output did not land"
	fi
}
mkdir -p "$T_DIR/out"
atomic info-ok 0 info "$CAP"
atomic info-junk 3 info "$T_DIR/junk.bin"
atomic tree-missing 4 tree "$T_DIR/nowhere" --format json
atomic settings-junk 3 settings "$T_DIR/junk.bin" --format jsonl
atomic settings-bad-module 3 settings "$CAP" --module NoSuchModule
atomic diff-different 1 diff "$CAP" "$CAP2" --format json
atomic diff-missing 4 diff "$CAP" "$T_DIR/nowhere"
atomic doctor-fail 1 doctor "$ROOT" --image "$CAP" --format jsonl
atomic doctor-junk 3 doctor "$T_DIR/junk.bin"
atomic notes-missing-previous 4 notes "$ROOT" --image "$CAP" --previous "$T_DIR/nowhere"
atomic acpi-junk 3 acpi "$T_DIR/junk.bin"
atomic extract-no-guid 3 extract "$CAP" --guid 00000000-1111-2222-3333-444444444444
atomic decompress-junk 3 decompress --algo lzma "$T_DIR/junk.bin"
atomic snapshot-missing-root 4 snapshot capture --root "$T_DIR/nowhere"
atomic usage-error 2 query "$CAP" --topic iommu --format yaml
