#!/bin/sh
# Hostile strings in every output format: firmware strings (a setup module whose formset, prompts,
# help texts, options, varstore and UI names carry quotes, $(...), backticks, line feeds, '|', '#' at
# a line start, <script>, ESC/BEL/CSI/OSC, C1 controls, a bidi override, wide characters and long
# strings: make-hostile.py formsvol) and a machine's hostname, DMI strings and kernel command line
# (the same kinds, and bytes that are not UTF-8). Each output is checked with the tool of its
# language: jq for JSON and JSON lines, xmllint (and the tree schema) for XML, promtool for the
# Prometheus text, the markdown table checker for markdown, and no escape or C1 byte in text (with
# --color always, none but fwlens's own colours). Diagnostics stay one line each.
. "$(dirname "$0")/lib.sh"

t_need_cmd hostile-formats python3 || exit 0
SAMPLES="$FWLENS_BUILD/samples"
if [ ! -d "$SAMPLES/sysroot-1201" ]; then
	echo "skip $T_SUITE/all: the samples are not built (make samples)"
	exit 0
fi
MDCHECK="$FWLENS_SRCDIR/tests/cli/mdtables.py"
have_jq=1 have_xmllint=1 have_promtool=1
t_need_cmd jq jq || have_jq=0
t_need_cmd xmllint xmllint || have_xmllint=0
t_need_cmd promtool promtool || have_promtool=0

# --- inputs ---------------------------------------------------------------------------------------
python3 "$FWLENS_SRCDIR/tests/cli/make-hostile.py" formsvol "$T_DIR/forms.fv"
python3 "$FWLENS_SRCDIR/tests/cli/make-hostile.py" names "$T_DIR/names.fv"
root="$T_DIR/root"
cp -a "$SAMPLES/sysroot-1201" "$root"
dmi="$root/sys/class/dmi/id"
# a hostname that is not UTF-8 (Latin-1 bytes), with a line feed, quotes and a terminal title
printf 'pve\351-01"\\\n# Forged heading\033]0;owned\007\233' >"$root/proc/sys/kernel/hostname"
printf '1201 \377\376 `id` $(touch PWNED) <script>x</script>\n' >"$dmi/bios_version"
printf 'K15PG|D24\n| forged | row |\n' >"$dmi/board_name"
printf 'ESC8000A\033[2J\033[31mE13\302\233\n' >"$dmi/product_name"
printf 'ASUSTeK <!-- \342\200\256 \344\270\255\346\226\207\n' >"$dmi/sys_vendor"
printf 'BOOT_IMAGE=/vmlinuz amd_iommu=on `reboot` $(id) | # \033[8m \377 iommu=pt\n' >"$root/proc/cmdline"
snap="$T_DIR/hostile.fwsnap"
t_run capture 0 fwlens snapshot capture --root "$root" -q -o "$snap"

# --- the tool of each language --------------------------------------------------------------------
checked=0
check_json() { # NAME FILE
	checked=$((checked + 1))
	[ "$have_jq" = 1 ] || return 0
	if jq -e . "$2" >/dev/null 2>"$T_DIR/why" && python3 -c 'import json,sys; json.loads(open(sys.argv[1],"rb").read().decode("utf-8"))' "$2" 2>>"$T_DIR/why"; then
		pass "$1"
	else
		fail "$1" "$(head -c 300 "$T_DIR/why")"
	fi
}
check_jsonl() {
	checked=$((checked + 1))
	[ "$have_jq" = 1 ] || return 0
	lines=$(wc -l <"$2")
	if jq -ec . "$2" >"$T_DIR/jsonl.out" 2>"$T_DIR/why" && [ "$(wc -l <"$T_DIR/jsonl.out")" -eq "$lines" ]; then
		pass "$1"
	else
		fail "$1" "$lines lines: $(head -c 300 "$T_DIR/why")"
	fi
}
check_xml() { # NAME FILE [SCHEMA]
	checked=$((checked + 1))
	[ "$have_xmllint" = 1 ] || return 0
	if xmllint --noout ${3:+--schema "$3"} "$2" >"$T_DIR/why" 2>&1; then pass "$1"; else fail "$1" "$(head -c 300 "$T_DIR/why")"; fi
}
check_md() {
	checked=$((checked + 1))
	if python3 "$MDCHECK" --forbid-line-start "# Forged" --forbid-line-start "| forged" "$2" >"$T_DIR/why" 2>&1 ||
		{ grep -q '^no table in' "$T_DIR/why" && [ "$(wc -l <"$T_DIR/why")" -eq 1 ]; }; then
		pass "$1"
	else
		fail "$1" "$(head -c 400 "$T_DIR/why")"
	fi
}
# text: valid UTF-8, no C0 control but tab and line feed, no C1 (raw or encoded), no ESC but,
# with colour, fwlens's own SGR sequences
check_text() { # NAME FILE COLOUR
	checked=$((checked + 1))
	python3 - "$2" "$3" <<'PY' >"$T_DIR/why" 2>&1 && pass "$1" || fail "$1" "$(head -c 300 "$T_DIR/why")"
import re, sys
data = open(sys.argv[1], "rb").read()
if sys.argv[2] == "always":
    data = re.sub(rb"\x1b\[(0|1|2|31|32|33|34|36)m", b"", data)
text = data.decode("utf-8")  # raises on bytes that are not UTF-8
bad = sorted({"%02x" % ord(c) for c in text if (ord(c) < 32 and c not in "\t\n") or 0x7F <= ord(c) <= 0x9F
              or 0x202A <= ord(c) <= 0x202E})
if bad:
    sys.exit("control characters reach the terminal: " + " ".join(bad))
PY
}
check_metrics() {
	checked=$((checked + 1))
	if ! python3 -c 'import sys; open(sys.argv[1],"rb").read().decode("utf-8")' "$2" 2>"$T_DIR/why"; then
		fail "$1" "not UTF-8: $(head -c 200 "$T_DIR/why")"
	elif [ "$have_promtool" = 1 ] && [ "${3:-}" != openmetrics ] && ! promtool check metrics <"$2" >"$T_DIR/why" 2>&1; then
		fail "$1" "$(head -c 300 "$T_DIR/why")"
	else
		pass "$1"
	fi
}
# one line per diagnostic: every stderr line starts with "fwlens" and none holds a control byte
check_stderr() {
	if [ -s "$2" ] && ! python3 - "$2" <<'PY' >"$T_DIR/why" 2>&1; then
import sys
for line in open(sys.argv[1], "rb").read().decode("utf-8").split("\n")[:-1]:
    if not line.startswith(("fwlens", "usage:", "(see")) or any(ord(c) < 32 and c != "\t" for c in line):
        sys.exit("diagnostic line %r" % line[:120])
PY
		fail "$1-stderr" "$(head -c 300 "$T_DIR/why")"
	fi
}

# run CMD in every format it has: NAME "FORMATS" ARGS...
every_format() {
	name=$1 formats=$2
	shift 2
	for fmt in $formats; do
		out="$T_DIR/$name.$fmt"
		"$FWLENS" "$@" --format "$fmt" >"$out" 2>"$T_DIR/$name.$fmt.err"
		rc=$?
		if [ "$rc" -gt 1 ]; then
			fail "$name-$fmt" "exit $rc: $(head -c 300 "$T_DIR/$name.$fmt.err")"
			continue
		fi
		check_stderr "$name-$fmt" "$T_DIR/$name.$fmt.err"
		case $fmt in
		json) check_json "$name-json" "$out" ;;
		jsonl) check_jsonl "$name-jsonl" "$out" ;;
		xml) check_xml "$name-xml" "$out" ;;
		markdown) check_md "$name-markdown" "$out" ;;
		prometheus | openmetrics) check_metrics "$name-$fmt" "$out" "$fmt" ;;
		text)
			check_text "$name-text" "$out" never
			"$FWLENS" "$@" --format text --color always >"$out.colour" 2>/dev/null
			check_text "$name-text-colour" "$out.colour" always
			;;
		esac
	done
}

# --- firmware strings -----------------------------------------------------------------------------
every_format settings "text json jsonl xml markdown" settings "$T_DIR/forms.fv"
every_format ifr "text json xml" ifr "$T_DIR/forms.fv"
every_format find "text json jsonl xml markdown" find "$T_DIR/forms.fv" "."
every_format query "text json jsonl xml markdown" query "$T_DIR/forms.fv"
every_format tree-forms "text json xml" tree "$T_DIR/forms.fv"
every_format tree-names "text json xml" tree "$T_DIR/names.fv"
every_format info-names "text json xml" info "$T_DIR/names.fv"
every_format diff-images "text json jsonl xml markdown" diff "$T_DIR/names.fv" "$T_DIR/forms.fv"
if [ "$have_xmllint" = 1 ]; then
	fwlens tree "$T_DIR/names.fv" --format xml >"$T_DIR/tree-names.schema.xml" 2>/dev/null
	check_xml tree-names-schema "$T_DIR/tree-names.schema.xml" "$FWLENS_SRCDIR/tools/cli/tree.xsd"
fi
# every hostile prompt is in the settings JSON as it was written (nothing dropped, nothing cut)
if [ "$have_jq" = 1 ]; then
	got=$(jq -r '.settings[].prompt' "$T_DIR/settings.json" | grep -c .)
	[ "$(jq '.settings | length' "$T_DIR/settings.json")" -eq 9 ] && jq -e '.settings[0].prompt == "Quote \" and '"'"' $(touch PWNED) `id`"' "$T_DIR/settings.json" >/dev/null &&
		jq -e '.settings[4].prompt == "\u001b]0;title\u0007\u001b[2J\u001b[31mred\u001b[0m"' "$T_DIR/settings.json" >/dev/null &&
		pass settings-json-exact || fail settings-json-exact "$got prompts: $(jq -c '[.settings[].prompt[:20]]' "$T_DIR/settings.json" | head -c 300)"
fi
# the terminal sees the escape sequences as text
grep -qF '\x1b]0;title\x07\x1b[2J' "$T_DIR/settings.text" && grep -qF '\u009b31m' "$T_DIR/settings.text" &&
	pass text-escapes-visible || fail text-escapes-visible "$(grep -m1 title "$T_DIR/settings.text" | head -c 200)"

# --- machine strings ------------------------------------------------------------------------------
for src in root snap; do
	eval "path=\$$src"
	every_format "doctor-$src" "text json jsonl xml markdown prometheus openmetrics" doctor "$path"
	every_format "snapshot-show-$src" "text json xml" snapshot show "$path"
	every_format "notes-$src" "markdown" notes "$path"
done
every_format query-root "text json jsonl xml markdown" query "$root"
every_format diff-root "text json jsonl xml markdown" diff "$SAMPLES/sysroot-1201" "$root"

# a hostname and a BIOS version that are not UTF-8 keep their members: U+FFFD in the string, the
# bytes in NAME_hex (the host reader has already made ESC and BEL spaces)
if [ "$have_jq" = 1 ]; then
	host_hex=$(printf 'pve\351-01"\\\n# Forged heading ]0;owned \233' | od -An -tx1 | tr -d ' \n')
	bios_hex=$(printf '1201 \377\376 `id` $(touch PWNED) <script>x</script>' | od -An -tx1 | tr -d ' \n')
	for src in root snap; do
		f="$T_DIR/snapshot-show-$src.json"
		jq -e --arg h "$host_hex" --arg b "$bios_hex" '.facts | (.host | startswith("pve\ufffd-01")) and .host_hex == $h
			and (.bios_version | startswith("1201 \ufffd\ufffd `id`")) and .bios_version_hex == $b' "$f" >/dev/null &&
			pass "facts-kept-$src" || fail "facts-kept-$src" "$(jq -c '.facts' "$f" | head -c 400)"
		jq -e --arg h "$host_hex" 'select(.host_hex != $h)' "$T_DIR/doctor-$src.jsonl" >/dev/null &&
			fail "doctor-host-kept-$src" "$(head -c 300 "$T_DIR/doctor-$src.jsonl")" || pass "doctor-host-kept-$src"
	done
fi
# the metrics name the host by its visible escapes, one label value on one line
grep -qF 'host="pve\\xe9-01\"\\\n# Forged heading ]0;owned \\x9b"' "$T_DIR/doctor-root.prometheus" &&
	pass metrics-host-label || fail metrics-host-label "$(grep -m1 '^fwlens_doctor_checks' "$T_DIR/doctor-root.prometheus" | head -c 300)"

# --- diagnostics ----------------------------------------------------------------------------------
"$FWLENS" settings "$(printf '%s/no\033]0;x\007such\nfile\377')" >/dev/null 2>"$T_DIR/diag.err"
[ "$(wc -l <"$T_DIR/diag.err")" -eq 1 ] && ! grep -q "$(printf '\033')" "$T_DIR/diag.err" && grep -qF 'no\x1b]0;x\x07such\x0afile\xff' "$T_DIR/diag.err" &&
	pass diagnostic-one-line || fail diagnostic-one-line "$(od -c "$T_DIR/diag.err" | head -5 | tr '\n' ' ')"
"$FWLENS" "$(printf 'bad\033[2Jname')" 2>"$T_DIR/cmd.err" >/dev/null
! grep -q "$(printf '\033')" "$T_DIR/cmd.err" && pass unknown-command-escaped || fail unknown-command-escaped "$(head -c 200 "$T_DIR/cmd.err")"

# --- no source of JSON around the one that keeps strings that are not UTF-8 -------------------------
direct=$(grep -rln '#include <jansson.h>' "$FWLENS_SRCDIR/parsers" "$FWLENS_SRCDIR/capsule" "$FWLENS_SRCDIR/ifr" \
	"$FWLENS_SRCDIR/acpi" "$FWLENS_SRCDIR/tools" | grep -v 'parsers/json-text.h$')
[ -z "$direct" ] && pass json-one-entry || fail json-one-entry "include <jansson.h> directly: $direct"
echo "# $checked outputs checked"
