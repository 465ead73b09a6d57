#!/bin/sh
# fwlens tree: text, JSON and XML on the project's fixtures (golden), XML schema validation,
# errors and exit codes; the WRX90E capsule when the corpus is present.
. "$(dirname "$0")/lib.sh"

FIX="$FWLENS_SRCDIR/tests/data/firmware"
G="$FWLENS_SRCDIR/tests/cli/golden/t2000-tree"
XSD="$FWLENS_SRCDIR/tools/cli/tree.xsd"
cd "$FIX" || exit 1

t_golden text-mini "$G/mini.txt" fwlens tree mini.fv --crc
t_golden text-capsule "$G/mini-cap.txt" fwlens tree mini.cap
t_golden text-max-depth "$G/mini-depth1.txt" fwlens tree mini.fv --max-depth 1
t_golden json-mini "$G/mini.json" fwlens tree mini.fv --format json
t_golden json-ffs3 "$G/ffs3.json" fwlens tree ffs3.fv --format json
t_golden text-broken "$G/broken.txt" fwlens tree broken.fv
# Diagnostics go to stderr, one line each.
grep -q "warning: FFS file at 0x98: header checksum is invalid, should be 0x66" "$T_ERR" &&
	pass broken-warns-on-stderr || fail broken-warns-on-stderr "$(cat "$T_ERR")"
t_golden json-broken "$G/broken.json" fwlens tree broken.fv --format json -q
t_golden text-layout-only "$G/mini-layout-only.txt" fwlens tree mini.fv --layout-only

if t_need_cmd xml-validates xmllint; then
	for f in mini.fv broken.fv mini.cap dxe.ffs pe32.sct ffs3.fv more.fv evil.fv; do
		t_run "xml-$f" 0 fwlens tree "$f" --format xml --crc -q
		if xmllint --noout --schema "$XSD" "$T_OUT" 2>"$T_DIR/xmllint"; then
			pass "xml-$f-validates"
		else
			fail "xml-$f-validates" "$(head -c 300 "$T_DIR/xmllint")"
		fi
	done
fi

# JSON member names: every field of every node of the sample capsule under a snake_case name,
# and (one release) under its old name with the same value; none collides with another
CAP="$SAMPLES/ESC8000A-E13-ASUS-1104.CAP"
if t_need_file json-member-names "$CAP" "the sample capsules are built by make samples"; then
	fwlens tree "$CAP" --format json >"$T_DIR/cap.json"
	bad=$(jq -r '.. | objects | select(has("fields")) | .fields | to_entries |
		[(map(select(.key | test("^[a-z0-9_]+$"))) | length), (map(select(.key | test("^[a-z0-9_]+$") | not)) | length)] |
		select(.[0] != .[1]) | @tsv' "$T_DIR/cap.json" | head -n 3)
	psp=$(jq -c '[.. | objects | select(.fields.checksum_valid != null) | .fields | [.checksum_valid, .["Checksum valid"]]] | unique' "$T_DIR/cap.json")
	fv=$(jq -c '[.. | objects | select(.kind == "volume") | .fields | [.fv_length == .FvLength, .header_checksum_valid]] | unique' "$T_DIR/cap.json")
	[ -z "$bad" ] && [ "$psp" = '[[true,true]]' ] && [ "$fv" = '[[true,true]]' ] && pass json-member-names ||
		fail json-member-names "snake/old counts differ: $bad; PSP checksums $psp; volumes $fv"
fi

t_run missing-argument 2 fwlens tree
t_run missing-file 4 fwlens tree "$T_DIR/does-not-exist.bin"
printf 'just some text, nothing a firmware parser could use\n' >"$T_DIR/junk.txt"
t_run not-firmware 3 fwlens tree "$T_DIR/junk.txt"
grep -q "not a firmware file" "$T_ERR" && pass not-firmware-says-why || fail not-firmware-says-why "$(cat "$T_ERR")"
t_run bad-max-depth 2 fwlens tree mini.fv --max-depth x

WRX="$CORPUS/firmware/asus-wrx90e-sage-se-1203_rebuilt.cap"
if t_need_file wrx90e-tree "$WRX" "corpus capsule"; then
	t_run wrx90e-xml 0 fwlens tree "$WRX" --format xml -q
	files=$(grep -c '<node kind="file"' "$T_OUT")
	[ "$files" = 846 ] && pass wrx90e-846-files || fail wrx90e-846-files "found $files"
	if command -v xmllint >/dev/null 2>&1; then
		xmllint --noout --schema "$XSD" "$T_OUT" 2>/dev/null && pass wrx90e-xml-validates ||
			fail wrx90e-xml-validates "schema errors"
	fi
	# the tree keeps at most 256 bytes a node (README "Limits"); -vv says what it holds
	t_run wrx90e-memory 0 fwlens tree "$WRX" -vv
	line=$(grep 'debug: tree: ' "$T_ERR")
	nodes=$(echo "$line" | sed -n 's/.*tree: \([0-9]*\) nodes in \([0-9]*\) bytes.*/\1/p')
	bytes=$(echo "$line" | sed -n 's/.*tree: \([0-9]*\) nodes in \([0-9]*\) bytes.*/\2/p')
	[ "$nodes" = 3444 ] && pass wrx90e-memory-nodes || fail wrx90e-memory-nodes "nodes: '$line'"
	[ -n "$bytes" ] && [ "$bytes" -le $((3444 * 256)) ] && [ "$bytes" -gt $((3444 * 152)) ] &&
		pass wrx90e-memory-per-node || fail wrx90e-memory-per-node "over 256 bytes a node: '$line'"
fi
