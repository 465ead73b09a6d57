#!/bin/sh
# What fwlens writes is safe, whatever the firmware and the machine say (issue 25): every command in
# every output format it takes, on the hostile samples (ESC8000A-E13-HOSTILE.CAP and
# sysroot-hostile/, samples/hostile.c) alone and together, each output checked with the tool of
# its language: jq (JSON, each JSON-lines line), xmllint (XML), promtool (Prometheus text), the
# markdown table checker, dot (the topology), sh -n and shellcheck (efivarfs scripts, then a dry
# run in an empty folder), AMISCE files read back by fwlens; text (also with --color always, less
# fwlens' own SGR codes) and stderr carry no control character but tab and LF and no line forged
# by a line feed in a hostile string (but ifrextractor, which copies line feeds as IFRExtractor
# prints them). The hostile texts come back exactly where a format can
# carry them (hostile-check.py holds them).
# Exit status: 0 or 1; an AMISCE value that cannot be written faithfully may be refused instead,
# with another status, one line on stderr naming the setting and no output.
. "$(dirname "$0")/lib.sh"

t_need_cmd hostile-writes python3 || exit 0
t_need_file hostile-writes "$SAMPLES/ESC8000A-E13-HOSTILE.CAP" "the hostile samples (make samples)" || exit 0
CHECK="$FWLENS_SRCDIR/tests/cli/hostile-check.py"
MDTABLES="$FWLENS_SRCDIR/tests/cli/mdtables.py"
have() { command -v "$1" >/dev/null 2>&1; }
for tool in jq xmllint promtool shellcheck dot; do
	have "$tool" || skip "hostile-writes-$tool" "$tool is not installed: its checks are left out"
done

mkdir -p "$T_DIR/o" "$T_DIR/cwd" "$T_DIR/in"
: >"$T_DIR/stamp"
# the source's file name is hostile too: quotes, $(...), backticks, a line feed, ESC
IMG="$T_DIR/in/img \$(touch PWNED) 'q' \`id\`$(printf '\n\033[2J').CAP"
cp "$SAMPLES/ESC8000A-E13-HOSTILE.CAP" "$IMG"
ROOT="$SAMPLES/sysroot-hostile"
REF="$SAMPLES/ESC8000A-E13-ASUS-1104.CAP"
cd "$T_DIR/cwd" || exit 1
fwlens snapshot capture --root "$ROOT" -q -o "$T_DIR/in/machine.fwsnap" || fail capture-machine "exit $?"
fwlens snapshot capture --root "$ROOT" --image "$IMG" -q -o "$T_DIR/in/both.fwsnap" || fail capture-both "exit $?"
fwlens snapshot capture --root "$SAMPLES/sysroot-1104" -q -o "$T_DIR/in/ref.fwsnap" || fail capture-ref "exit $?"
MACH="$T_DIR/in/machine.fwsnap"
BOTH="$T_DIR/in/both.fwsnap"
REFSNAP="$T_DIR/in/ref.fwsnap"

# the hostile prompts, as the decoder gives them (lone surrogates read as U+FFFD)
QUOTES="Hostile quotes 'single' \"double\" \$(touch PWNED) \`touch PWNED\` | # <script>x</script> &amp;"
ONEOF=$(printf 'Hostile one-of \033[31mred\033[0m\007 \302\2332J \302\205 $(touch PWNED)\nsecond line')
NUMERIC=$(printf 'Hostile numeric \357\277\275 lone \357\277\275 surrogates \033]0;title\007')
CHECKBOX=$(printf 'Hostile checkbox\n# Forged heading\n| forged | row |')

# How a failing output is shown: the first bytes of a file, escaped
show() { head -c "${2:-300}" "$1" | od -An -c | tr -s ' \n' ' ' | head -c 600; }

# The checks written in Python run in one process at the end (hostile-check.py batch): a line per
# check, CHECK<TAB>NAME<TAB>FILE...
MANIFEST="$T_DIR/checks"
: >"$MANIFEST"
later() {
	printf '%s\t%s' "$1" "$2" >>"$MANIFEST"
	shift 2
	printf '\t%s' "$@" >>"$MANIFEST"
	printf '\n' >>"$MANIFEST"
}

n=0
# hw LABEL FORMAT ARG...: run `fwlens ARG... --format FORMAT` and check what it wrote
hw() {
	label=$1 fmt=$2
	shift 2
	n=$((n + 1))
	out="$T_DIR/o/$n.out" err="$T_DIR/o/$n.err"
	st=0
	fwlens "$@" --format "$fmt" >"$out" 2>"$err" || st=$?
	name="$label/$fmt"
	# stderr: one line per diagnostic, no control character, nothing forged
	later text "$name-stderr" "$err"
	if [ "$st" -gt 1 ]; then
		# an AMISCE value that cannot be written faithfully: refused, one line naming the setting,
		# no output
		if [ "$fmt" = sce ] && [ "$st" -lt 128 ] && [ "$(wc -l <"$err")" -eq 1 ] && grep -q 'Hostile ' "$err" &&
			[ ! -s "$out" ]; then
			pass "$name-refused-exit-$st"
			return 0
		fi
		fail "$name" "exit $st; stderr: $(show "$err")"
		return 1
	fi
	check_format "$name" "$fmt" "$out" "$@"
}

check_format() {
	name=$1 fmt=$2 out=$3
	shift 3
	case $fmt in
	text | ifrextractor | sce)
		# the same run with --color always: only fwlens' own SGR codes added
		fwlens "$@" --format "$fmt" --color always >"$out.color" 2>/dev/null
		if [ "$fmt" = ifrextractor ]; then later text-lines-kept "$name" "$out" "$out.color"; else
			later text "$name" "$out" "$out.color"; fi
		if [ "$fmt" = sce ]; then
			# the AMISCE file reads back as an export
			if fwlens settings "$out" --format json >"$out.back" 2>"$out.back.err"; then pass "$name-reads-back"; else
				fail "$name-reads-back" "$(show "$out.back.err")"; fi
		fi
		;;
	json | redfish | redfish-registry)
		if have jq && ! jq -e . "$out" >/dev/null 2>"$out.jq"; then
			fail "$name-jq" "$(head -c 200 "$out.jq"): $(show "$out")"
		fi
		later utf8 "$name" "$out"
		;;
	jsonl)
		if have jq && ! jq -e . "$out" >/dev/null 2>"$out.jq"; then fail "$name-jq" "$(head -c 200 "$out.jq")"; fi
		later jsonl "$name" "$out"
		;;
	xml)
		if ! have xmllint; then :; elif xmllint --noout "$out" 2>"$out.lint"; then pass "$name"; else
			fail "$name" "xmllint: $(head -n 2 "$out.lint" | tr '\n' ' ' | head -c 300)"; fi
		;;
	markdown) later markdown "$name" "$out" ;;
	prometheus | openmetrics)
		later metrics-lines "$name" "$out"
		if [ "$fmt" = prometheus ] && have promtool; then
			if promtool check metrics <"$out" >"$out.lint" 2>&1; then pass "$name-promtool"; else
				fail "$name-promtool" "$(head -c 300 "$out.lint")"; fi
		fi
		;;
	dot)
		if ! have dot; then :; elif dot -Tsvg -o /dev/null "$out" 2>"$out.dot"; then pass "$name"; else
			fail "$name" "dot: $(head -c 300 "$out.dot"): $(show "$out")"; fi
		;;
	efivarfs) check_script "$name" "$out" ;;
	*) fail "$name" "no check for the format $fmt" ;;
	esac
}

# An efivarfs script: sh -n, shellcheck, then a dry run in an empty folder on a copy of the
# machine's variables, with the commands a write would need logged: it leaves the folder empty,
# the variables unchanged, creates no PWNED and runs nothing but the checks. A plan made from the
# machine's own variables (DRY_RUN_MATCHES=1) finds the old bytes it planned from.
check_script() {
	name=$1 script=$2
	later text "$name-script" "$script"
	if ! sh -n "$script" 2>"$script.n"; then fail "$name-sh-n" "$(head -c 300 "$script.n")"; return; fi
	pass "$name-sh-n"
	if have shellcheck; then
		if shellcheck -s sh "$script" >"$script.sc" 2>&1; then pass "$name-shellcheck"; else
			fail "$name-shellcheck" "$(grep -m 3 'SC[0-9]' "$script.sc" | tr '\n' ' ')"; fi
	fi
	run="$T_DIR/run$n"
	mkdir -p "$run/empty" "$run/bin" "$run/tmp"
	cp -R "$ROOT/sys/firmware/efi/efivars" "$run/efivars"
	# the commands a write or an injected command would run: logged, nothing done
	for c in chattr dd cp mkdir mv touch id tee ln rm; do
		printf '#!/bin/sh\necho "%s $*" >>"%s/ran"\n' "$c" "$run" >"$run/bin/$c"
		chmod +x "$run/bin/$c"
	done
	st=0
	(cd "$run/empty" && PATH="$run/bin:$PATH" TMPDIR="$run/tmp" EFIVARS="$run/efivars" sh "$script" >"$run/out" 2>"$run/err") ||
		st=$?
	# rm is the script's own clean-up of its temporary file
	ran=$(grep -v '^rm ' "$run/ran" 2>/dev/null | head -n 3 | tr '\n' ' ')
	if [ "$st" -le 1 ] && [ -z "$(ls -A "$run/empty")" ] && [ -z "$ran" ] &&
		diff -r "$ROOT/sys/firmware/efi/efivars" "$run/efivars" >/dev/null &&
		{ [ "$DRY_RUN_MATCHES" = 0 ] || grep -q 'old bytes match' "$run/out"; }; then
		pass "$name-dry-run"
	else
		fail "$name-dry-run" "exit $st; left in the folder: $(ls -A "$run/empty" | head -n 3 | tr '\n' ' ');" \
			"ran: $ran; said: $(head -c 200 "$run/out" "$run/err" | tr '\n' ' ')"
	fi
}

# ---- the image alone ----------------------------------------------------------------------------
for fmt in text json xml; do
	hw info "$fmt" info "$IMG"
	hw tree "$fmt" tree "$IMG"
	hw verify "$fmt" verify "$IMG"
	hw psp "$fmt" psp "$IMG"
	hw nvram "$fmt" nvram "$IMG"
	hw help "$fmt" help
	hw version "$fmt" version
done
for fmt in text json xml ifrextractor; do
	hw ifr "$fmt" ifr "$IMG"
	[ "$fmt" = json ] && cp "$out" "$T_DIR/ifr.json"
done
for fmt in text json jsonl xml sce markdown redfish-registry; do
	hw settings "$fmt" settings "$IMG"
	[ "$fmt" = json ] && cp "$out" "$T_DIR/settings.json"
	[ "$fmt" = jsonl ] && cp "$out" "$T_DIR/settings.jsonl"
	[ "$fmt" = xml ] && cp "$out" "$T_DIR/settings.xml"
done
for fmt in text json jsonl xml markdown; do
	hw find "$fmt" find "$IMG" '^Hostile '
	[ "$fmt" = json ] && cp "$out" "$T_DIR/find.json"
	hw query "$fmt" query "$IMG"
	hw diff-images "$fmt" diff "$REF" "$IMG"
done
hw notes-image markdown notes "$IMG"
# extract and decompress take no format: what extract says is text
(cd "$T_DIR" && fwlens extract "$IMG" --all "$T_DIR/extracted" >"$T_DIR/o/extract.out" 2>&1) && pass extract-all ||
	fail extract-all "$(show "$T_DIR/o/extract.out")"
later text extract-all-says "$T_DIR/o/extract.out"

# exact: the hostile texts come back where JSON and XML can carry them
later ifr exact-ifr-json "$T_DIR/ifr.json"
later settings exact-settings-json "$T_DIR/settings.json"
later jsonl-settings exact-settings-jsonl "$T_DIR/settings.jsonl"
later find exact-find-json "$T_DIR/find.json"
later xml-has exact-settings-xml "$T_DIR/settings.xml"
fwlens settings "$IMG" --format text >"$T_DIR/settings.txt" 2>/dev/null
grep -qF -- "$QUOTES" "$T_DIR/settings.txt" && pass exact-text || fail exact-text "the quotes prompt is not in the text verbatim"

# ---- the machine alone, and with the image -----------------------------------------------------
for fmt in text json xml; do
	hw snapshot-machine "$fmt" snapshot show "$MACH"
	[ "$fmt" = json ] && cp "$out" "$T_DIR/show.json"
	hw snapshot-both "$fmt" snapshot show "$BOTH"
	hw nvram-efivars "$fmt" nvram "$ROOT/sys/firmware/efi/efivars"
done
for fmt in text json xml dot; do
	hw acpi "$fmt" acpi "$MACH"
	hw acpi-topo "$fmt" acpi topo "$MACH"
done
for fmt in text json jsonl xml markdown prometheus openmetrics; do
	hw doctor-machine "$fmt" doctor "$MACH"
	[ "$fmt" = jsonl ] && cp "$out" "$T_DIR/doctor.jsonl"
	[ "$fmt" = prometheus ] && cp "$out" "$T_DIR/doctor.prom"
	hw doctor-both "$fmt" doctor "$BOTH"
done
for fmt in text json jsonl xml sce markdown redfish-registry; do
	hw settings-both "$fmt" settings "$BOTH"
	[ "$fmt" = json ] && cp "$out" "$T_DIR/settings-both.json"
done
for fmt in text json jsonl xml markdown; do
	hw find-both "$fmt" find "$BOTH" '^Hostile '
	hw query-both "$fmt" query "$BOTH"
	hw diff-machines "$fmt" diff "$REFSNAP" "$MACH"
	hw diff-both "$fmt" diff "$REFSNAP" "$BOTH"
done
hw notes-machine markdown notes "$MACH"
hw notes-both markdown notes "$BOTH"
later machine-json exact-snapshot-show-json "$T_DIR/show.json"
later machine-json exact-doctor-jsonl "$T_DIR/doctor.jsonl" host
later metrics exact-metrics-host "$T_DIR/doctor.prom"
later settings exact-settings-machine-json "$T_DIR/settings-both.json"
# The machine's values bound to a varstore whose name is not ASCII (line feed, ESC, 0xFF): the IFR
# name's bytes widened as firmware names the variable, and efivarfs' UTF-8 file name, are the same
# characters; the current values are the variable's (1 and 42), not the defaults.
later settings-current machine-values-bound "$T_DIR/settings-both.json"

# ---- plans: every hostile question and one ordinary setting, in every form ----------------------
for src in image:"$IMG" both:"$BOTH"; do
	DRY_RUN_MATCHES=0
	[ "${src%%:*}" = both ] && DRY_RUN_MATCHES=1
	for fmt in text json jsonl sce redfish efivarfs; do
		hw "plan-${src%%:*}" "$fmt" plan "${src#*:}" --set "$QUOTES=1" --set "$ONEOF=2" --set "$NUMERIC=42" \
			--set "$CHECKBOX=1" --set "SVM Mode=Disabled"
		[ "$fmt" = redfish ] && later redfish "plan-${src%%:*}/redfish-keyword" "$out"
	done
done
# AMISCE round trip: a question whose texts AMISCE can carry reads back exactly as planned
hw plan-sce-quotes sce plan "$BOTH" --set "$QUOTES=1"
later sce-back amisce-round-trip "$out.back" quotes
# one whose option texts hold ESC and line feeds: refused, or written so that it reads back exactly
hw plan-sce-oneof sce plan "$BOTH" --set "$ONEOF=2"
[ -s "$out" ] && later sce-back amisce-oneof-round-trip "$out.back" oneof

# nothing ran anything
pwned=$(find "$T_DIR" "$FWLENS_SRCDIR" "$SAMPLES" /tmp -maxdepth 4 -name 'PWNED*' -newer "$T_DIR/stamp" 2>/dev/null | head -n 3)
[ -z "$pwned" ] && pass no-pwned || fail no-pwned "created: $pwned"
[ -z "$(ls -A "$T_DIR/cwd")" ] && pass cwd-untouched || fail cwd-untouched "$(ls -A "$T_DIR/cwd" | head -n 3 | tr '\n' ' ')"
python3 "$CHECK" batch "$MANIFEST" "$T_SUITE"
