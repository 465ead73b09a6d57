#!/bin/sh
# fwlens ifr / settings: golden outputs on the project's own synthetic blobs, bad input, and real
# forms compared line by line with IFRExtractor-RS output (the corpus dumps of the WRX90E modules,
# and the tool itself on the corpus modules and OVMF's twelve modules with forms when installed).
. "$(dirname "$0")/lib.sh"
G="$FWLENS_SRCDIR/tests/cli/golden/t0500-ifr"
SEED="$FWLENS_SRCDIR/tests/fuzz/corpus/hii-scan/forms-and-two-groups"

t_golden ifr-text "$G/ifr.txt" fwlens ifr "$SEED"
t_golden ifr-text-fr "$G/ifr-fr.txt" fwlens ifr "$SEED" --lang fr-FR
t_golden ifr-json "$G/ifr.json" fwlens ifr "$SEED" --format json
t_golden ifr-ifrextractor "$G/ifr.ifrx.txt" fwlens ifr "$SEED" --format ifrextractor
t_golden settings-text "$G/settings.txt" fwlens settings "$SEED"
t_golden settings-json "$G/settings.json" fwlens settings "$SEED" --format json
t_golden settings-sce "$G/settings.sce.txt" fwlens settings "$SEED" --format sce
t_golden settings-markdown "$G/settings.md" fwlens settings "$SEED" --format markdown
t_run settings-jsonl 0 fwlens settings "$SEED" --format jsonl
[ "$(wc -l <"$T_OUT")" -eq 3 ] && pass settings-jsonl-lines || fail settings-jsonl-lines "expected 3 lines"
t_run settings-xml 0 fwlens settings "$SEED" --format xml && t_contains settings-xml-prompt "<prompt>Mode</prompt>"

# strings only, nothing, a missing file, a module filter that matches nothing
t_run ifr-strings-only 3 fwlens ifr "$FWLENS_SRCDIR/tests/fuzz/corpus/hii-strings/en-us-ucs2"
grep -q "no HII form package" "$T_ERR" && pass ifr-strings-only-message || fail ifr-strings-only-message "$(cat "$T_ERR")"
t_run ifr-missing-file 4 fwlens ifr "$T_DIR/nope.bin"
t_run ifr-module-filter 3 fwlens ifr "$SEED" --module Nothing

# Compare our --format ifrextractor output with IFRExtractor-RS text. The only accepted difference:
# that tool prints GUID-op numbers (Label, Timeout, Class, SubClass) as hi*100+lo; fwlens prints
# the u16. Every other line must be byte-identical, strings included.
ifrx_same() {
	[ "$(wc -l <"$1")" -eq "$(wc -l <"$2")" ] || { echo "line counts differ" >&2; return 1; }
	paste -d '\n' "$1" "$2" | awk '
	function hex(s,   i, v) { v = 0; for (i = 1; i <= length(s); i++) v = v * 16 + index("0123456789ABCDEF", substr(s, i, 1)) - 1; return v }
	NR % 2 == 1 { a = $0; next }
	a == $0 { next }
	{
		if (match(a, /(LabelNumber|Timeout|Class|SubClass): 0x[0-9A-F]+$/) && substr(a, 1, RSTART - 1) == substr($0, 1, RSTART - 1)) {
			p = RSTART; mine = substr(a, p); theirs = substr($0, p)
			sub(/.*0x/, "", mine); sub(/.*0x/, "", theirs)
			v = hex(mine)
			if ((int(v / 256) * 100 + v % 256) % 65536 == hex(theirs)) { labels++; next }
		}
		bad++; if (bad < 4) print "differs: " a " <> " $0 > "/dev/stderr"
	}
	END { exit bad > 0 }'
}

CAP="$CORPUS/firmware/asus-wrx90e-sage-se-1203_rebuilt.cap"
if t_need_file wrx90e-forms "$CAP" "WRX90E capsule" && t_need_cmd wrx90e-forms UEFIExtract; then
	(cd "$T_DIR" && UEFIExtract "$CAP" E369E9DE-DC16-4F58-AC7B-088EA6DD5566 2E1B8E61-9D16-466B-A802-3B1E92EA95EC \
		899407D7-99FE-43D8-9A21-79EC328CAC21 -o shp -o stp -o setup -m body -m body -m body -t 10 -t 10 -t 10 >/dev/null 2>&1)
	for pair in shp:CbsSetupDxeSHP_zen5 stp:CbsSetupDxeSTP_zen4 setup:AmiSetup; do
		m=${pair%%:*} dump="$CORPUS/ifr/asus-wrx90e-sage-se_1203_${pair#*:}.ifr.txt"
		t_run "wrx90e-$m-decodes" 0 fwlens ifr "$T_DIR/$m/body.bin" --format ifrextractor || continue
		if ifrx_same "$T_OUT" "$dump" 2>"$T_DIR/why"; then pass "wrx90e-$m-matches-dump"; else fail "wrx90e-$m-matches-dump" "$(head -3 "$T_DIR/why")"; fi
	done
	# question by question from the settings model: (question id, varstore id, offset, prompt) of
	# every question with storage in the dumps is in `fwlens settings --format jsonl` (prompts
	# compared without the blanks around them, which settings trims)
	for pair in shp:CbsSetupDxeSHP_zen5 stp:CbsSetupDxeSTP_zen4 setup:AmiSetup; do
		m=${pair%%:*} dump="$CORPUS/ifr/asus-wrx90e-sage-se_1203_${pair#*:}.ifr.txt"
		fwlens settings "$T_DIR/$m/body.bin" --format jsonl >"$T_DIR/$m.jsonl" 2>/dev/null
		sed -n 's/^[[:space:]]*\(OneOf\|CheckBox\|Numeric\|String\|Password\|OrderedList\) Prompt: "\([^"]*\)".*QuestionId: 0x\([0-9A-F]*\), VarStoreId: 0x\([0-9A-F]*\), Var[A-Za-z]*: 0x\([0-9A-F]*\).*/\3 \4 \5 \2/p' "$dump" | grep -v '^[0-9A-F]* 0 ' | sed 's/^\([^ ]* [^ ]* [^ ]*\)  */\1 /; s/  *$//' | sort -u >"$T_DIR/$m.want"
		# a question shown in several forms is one setting: its other question ids are also_question_ids
		python3 -c '
import json, sys
for line in open(sys.argv[1]):
    s = json.loads(line)
    for q in [s["question_id"]] + s.get("also_question_ids", []):
        print(("%X %X %X %s" % (q, s["varstore_id"], s["offset"] if s.get("offset") is not None else -1, s["prompt"])).rstrip())
' "$T_DIR/$m.jsonl" | sort -u >"$T_DIR/$m.have"
		missing=$(comm -23 "$T_DIR/$m.want" "$T_DIR/$m.have" | wc -l)
		total=$(wc -l <"$T_DIR/$m.want")
		if [ "$total" -gt 100 ] && [ "$missing" -eq 0 ]; then pass "wrx90e-$m-every-question ($total)"; else fail "wrx90e-$m-every-question" "$missing of $total missing: $(comm -23 "$T_DIR/$m.want" "$T_DIR/$m.have" | head -2 | tr '\n' ' ')"; fi
	done
fi

# The corpus modules and OVMF's modules, against IFRExtractor-RS itself (a private oracle: used
# only when installed). Each form package must match one of the tool's form x string outputs.
ifrx_module() { # NAME FILE
	mname=$1 file=$2
	cp "$file" "$T_DIR/m.bin" && rm -f "$T_DIR"/m.bin.*.ifr.txt "$T_DIR"/part.*
	(cd "$T_DIR" && ifrextractor m.bin >/dev/null 2>&1)
	t_run "$mname-decodes" 0 fwlens ifr "$file" --format ifrextractor || return
	(cd "$T_DIR" && csplit -s -z -f part. "$T_OUT" '/^Program version/' '{*}')
	k=0
	for part in "$T_DIR"/part.*; do
		ok=no
		for ref in "$T_DIR"/m.bin.$k.*.en-US.uefi.ifr.txt; do
			[ -f "$ref" ] && ifrx_same "$part" "$ref" 2>/dev/null && ok=yes && break
		done
		[ $ok = yes ] && pass "$mname-formset-$k-matches" || fail "$mname-formset-$k-matches" "no IFRExtractor-RS output matches"
		k=$((k + 1))
	done
	n=$(ls "$T_DIR"/m.bin.*.ifr.txt 2>/dev/null | sed 's/.*m\.bin\.\([0-9]*\)\..*/\1/' | sort -u | wc -l)
	[ "$n" -eq "$k" ] && pass "$mname-formset-count" || fail "$mname-formset-count" "fwlens $k, IFRExtractor-RS $n"
}
if t_need_cmd ifrextractor-oracle ifrextractor; then
	for f in "$CORPUS"/firmware/*Setup*.sct "$CORPUS"/firmware/*Setup*.efi; do
		[ -f "$f" ] && ifrx_module "corpus-$(basename "$f" | cut -d_ -f1-2)" "$f"
	done
	OVMF=/usr/share/OVMF/OVMF_CODE_4M.fd
	if t_need_file ovmf-forms "$OVMF" "ovmf package" && t_need_cmd ovmf-forms UEFIExtract; then
		mkdir -p "$T_DIR/ovmf" && cp "$OVMF" "$T_DIR/ovmf/o.fd"
		(cd "$T_DIR/ovmf" && UEFIExtract o.fd unpack >/dev/null 2>&1)
		count=0
		for f in "$T_DIR"/ovmf/o.fd.dump/Section_PE32_image_*_body.bin; do
			fwlens ifr "$f" --format ifrextractor >/dev/null 2>&1 || continue
			count=$((count + 1))
			ifrx_module "ovmf-$(basename "$f" | cut -d_ -f5)" "$f"
		done
		[ "$count" -eq 12 ] && pass ovmf-twelve-modules-with-forms || fail ovmf-twelve-modules-with-forms "found $count"
	fi
fi

# The whole WRX90E capsule: every module with forms, each compressed section inflated once, every
# formset paired with strings that cover every id it uses.
if t_need_file wrx90e-capsule "$CAP" "WRX90E capsule"; then
	t_run wrx90e-capsule-ifr 0 fwlens ifr "$CAP" --format json
	n=$(grep -c '^      "package_offset"' "$T_OUT")
	[ "$n" -eq 21 ] && pass wrx90e-capsule-21-formsets || fail wrx90e-capsule-21-formsets "found $n"
	t_contains wrx90e-capsule-cbs-shp '"module_name": "CbsSetupDxeSHP"'
	t_contains wrx90e-capsule-setup '"module": "899407D7-99FE-43D8-9A21-79EC328CAC21"'
	t_run wrx90e-capsule-settings 0 fwlens settings "$CAP" --module CbsSetupDxeSHP --format jsonl
	# 988 questions with storage, three of them a second copy of one (Split RMP Table, ...)
	[ "$(wc -l <"$T_OUT")" -eq 985 ] && pass wrx90e-capsule-shp-985-settings || fail wrx90e-capsule-shp-985-settings "$(wc -l <"$T_OUT")"
fi
