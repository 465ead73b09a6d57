#!/bin/sh
# The command line itself: usage, help, version, exit codes for usage errors, atomic output, man
# pages and shell completion.
. "$(dirname "$0")/lib.sh"

t_run usage-without-command 2 fwlens
t_run help-lists-commands 0 fwlens help && t_contains help-names-version "version"
t_run dash-dash-help 0 fwlens --help
t_run version 0 fwlens --version && t_contains version-names-liblzma "liblzma"
t_run version-json 0 fwlens version --format json && t_contains version-json-key '"dependencies"'
t_run unknown-command 2 fwlens verison
grep -q "version" "$T_ERR" && pass unknown-command-suggests || fail unknown-command-suggests "no suggestion: $(cat "$T_ERR")"
t_run unknown-option 2 fwlens version --formt json
grep -q -- "--format" "$T_ERR" && pass unknown-option-suggests || fail unknown-option-suggests "no suggestion"
t_run bad-format-value 2 fwlens version --format yaml
t_run help-of-command 0 fwlens help version && t_contains help-shows-usage "usage: fwlens version"
t_run help-of-unknown-command 2 fwlens help verison

# --output lands atomically: the file appears whole, and a failed run leaves nothing behind.
t_run output-file 0 fwlens version --format json -o "$T_DIR/v.json"
if [ -s "$T_DIR/v.json" ] && ! ls "$T_DIR"/v.json.tmp-* >/dev/null 2>&1; then pass output-file-landed; else fail output-file-landed "no file or a temporary left"; fi
t_run output-failed-run 2 fwlens version --format yaml -o "$T_DIR/bad.json"
if [ ! -e "$T_DIR/bad.json" ] && ! ls "$T_DIR"/bad.json.tmp-* >/dev/null 2>&1; then pass failed-run-leaves-nothing; else fail failed-run-leaves-nothing "output left behind"; fi

# The command table as JSON: every command, its formats, options and examples.
t_run help-json 0 fwlens help --format json
cp "$T_OUT" "$T_DIR/help.json"
cmds=$(fwlens help | awk '/^commands:/{f=1;next} /^$/{f=0} f && /^  [a-z]/{print $1}')
if [ -n "$cmds" ] && [ "$(echo $cmds)" = "$(python3 -c "import json; print(' '.join(c['name'] for c in json.load(open('$T_DIR/help.json'))['commands']))")" ]; then
	pass help-json-lists-every-command
else
	fail help-json-lists-every-command "text and JSON lists differ"
fi

# Every command: help with a description and examples, a synopsis whose --format list is the
# command's, and a man page.
python3 - "$T_DIR/help.json" <<'PY' >"$T_DIR/audit" 2>&1 && pass help-audit || fail help-audit "$(head -c 600 "$T_DIR/audit" | tr '\n' ' ')"
import json, re, sys
doc = json.load(open(sys.argv[1]))
bad = []
for c in doc["commands"]:
    n = c["name"]
    if not c["description"]:
        bad.append(f"{n}: no description")
    if not c["examples"]:
        bad.append(f"{n}: no examples")
    for e in c["examples"]:
        if not e["command"].startswith("fwlens "):
            bad.append(f"{n}: example does not start with fwlens: {e['command']}")
    # the synopsis names the arguments first, and ends with the --format values when there is a choice
    m = re.search(r"\[--format ([a-z|-]+)\]$", c["synopsis"])
    if len(c["formats"]) > 1 and not m:
        bad.append(f"{n}: synopsis does not end with [--format {'|'.join(c['formats'])}]")
    if m and m.group(1).split("|") != c["formats"]:
        bad.append(f"{n}: synopsis says --format {m.group(1)}, the command takes {'|'.join(c['formats'])}")
    if c["max_args"] != 0 and (c["synopsis"].startswith("[-") or c["synopsis"].startswith("--")):
        bad.append(f"{n}: synopsis starts with an option, not the arguments")
    # one name per format everywhere
    for f in c["formats"]:
        if f not in ("text", "json", "jsonl", "xml", "markdown", "sce", "ifrextractor", "prometheus", "openmetrics",
                     "redfish", "redfish-registry", "efivarfs", "dot", "fwupdmgr", "sysfs", "sh"):
            bad.append(f"{n}: unknown format name {f}")
    if c["formats"] and c["formats"][0] not in ("text", "markdown"):
        bad.append(f"{n}: the default format is {c['formats'][0]}, not text")
    if len(c["summary"]) > 110 or c["summary"].endswith("."):
        bad.append(f"{n}: summary too long or ends with a full stop")
    for o in c["options"]:
        if o["arg"] and "," in o["arg"] and not re.fullmatch(r"[A-Z]+\[,[A-Z]+\]", o["arg"]):
            bad.append(f"{n}: --{o['name']} list placeholder {o['arg']} is not X[,X]")
print("\n".join(bad))
sys.exit(1 if bad else 0)
PY
for cmd in $cmds; do
	t_run "help-$cmd" 0 fwlens "$cmd" --help
	# help text is laid out for 80 columns (examples may run longer: they are commands)
	wide=$(sed '/^examples:/,$d' "$T_OUT" | awk 'length($0) > 80' | head -n 1)
	[ -z "$wide" ] && pass "help-$cmd-80-columns" || fail "help-$cmd-80-columns" "wider than 80: $wide"
	if grep -q "$(printf '\033')" "$T_OUT"; then fail "help-$cmd-no-colour" "escape codes in piped help"; else pass "help-$cmd-no-colour"; fi
done

# Man pages: one per command, each renders without a warning.
t_run man-pages 0 fwlens help --man-dir "$T_DIR/man"
missing=""
for cmd in $cmds; do [ -s "$T_DIR/man/fwlens-$cmd.1" ] || missing="$missing $cmd"; done
if [ -s "$T_DIR/man/fwlens.1" ] && [ -z "$missing" ]; then pass man-pages-written; else fail man-pages-written "missing pages:$missing"; fi
if t_need_cmd man-pages-render man; then
	warned=""
	for page in "$T_DIR"/man/*.1; do
		w=$(MANWIDTH=80 man -l "$page" 2>&1 >/dev/null | head -n 2)
		[ -n "$w" ] && warned="$warned $(basename "$page"): $w"
	done
	[ -z "$warned" ] && pass man-pages-render || fail man-pages-render "$warned"
	MANWIDTH=80 man -l "$T_DIR/man/fwlens-query.1" 2>/dev/null | grep -q "sev-snp,iommu" && pass man-page-has-examples ||
		fail man-page-has-examples "no examples in fwlens-query(1)"
fi

# ENVIRONMENT names every variable the program reads: the getenv calls of the program's sources, the
# variables the environment reader hands down (parsers/env.h), and PATH where it runs helpers.
( cd "$FWLENS_SRCDIR" && {
	grep -ohE '(secure_)?getenv\("[A-Za-z_][A-Za-z0-9_]*"\)' parsers/*.[ch] capsule/*.[ch] ifr/*.[ch] acpi/*.[ch] tools/*/*.[ch] |
		sed -E 's/.*\("([^"]*)"\)/\1/'
	sed -nE 's@.*/\* ([A-Z][A-Z0-9_]+): .*@\1@p' parsers/env.h
	grep -lq posix_spawnp parsers/*.c acpi/*.c tools/*/*.c && echo PATH
} | sort -u ) >"$T_DIR/env-read"
missing=""
for page in fwlens.1 fwlens-doctor.1; do
	sed -n '/^\.SH ENVIRONMENT$/,/^\.SH /p' "$T_DIR/man/$page" >"$T_DIR/env-section"
	while read -r v; do
		# each as a tagged paragraph: the name, then a sentence
		awk -v v="$v" 'p && NF > 2 { ok = 1 } { p = ($0 == ".B " v) } END { exit !ok }' \
			"$T_DIR/env-section" || missing="$missing $page:$v"
	done <"$T_DIR/env-read"
done
n=$(wc -l <"$T_DIR/env-read")
[ "$n" -ge 13 ] && grep -qx FWLENS_LIMITS "$T_DIR/env-read" && [ -z "$missing" ] && pass man-environment-complete ||
	fail man-environment-complete "$n variables read; missing from the manual:$missing"

# Completion scripts: syntax, and what bash offers at each place.
t_run completion-bash 0 fwlens help --completion bash
cp "$T_OUT" "$T_DIR/fwlens.bash"
if bash -n "$T_DIR/fwlens.bash"; then pass completion-bash-syntax; else fail completion-bash-syntax "bash -n failed"; fi
t_run completion-zsh 0 fwlens help --completion zsh
if t_need_cmd completion-zsh-syntax zsh; then
	if zsh -n "$T_OUT"; then pass completion-zsh-syntax; else fail completion-zsh-syntax "zsh -n failed"; fi
fi
topics=$(fwlens query --list-topics | awk '{print $1}' | tr '\n' ' ')
grep -q "sev-snp" "$T_DIR/fwlens.bash" && grep -q "sev-snp" "$T_OUT" && pass completion-has-topics ||
	fail completion-has-topics "topic names missing"
complete_bash() {
	# complete_bash NAME "WANT" WORD... : the completions bash offers for the last WORD
	name=$1 want=$2
	shift 2
	got=$(cd "$T_DIR" && bash -c '. ./fwlens.bash; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _fwlens; echo "${COMPREPLY[*]}"' x "$@")
	[ "$got" = "$want" ] && pass "completion-$name" || fail "completion-$name" "got '$got', expected '$want'"
}
complete_bash command "query" fwlens qu
complete_bash topic "sev-snp" fwlens query --topic s
complete_bash topic-list "iommu,p2p iommu,pcie" fwlens query BIOS.CAP --topic iommu,p
complete_bash all-topics "$(echo $topics)" fwlens query -t ""
complete_bash profile "snp-host vfio-host p2p-host all security" fwlens doctor / --profile ""
complete_bash format "text json jsonl xml markdown" fwlens find --format ""
complete_bash format-equals "json jsonl" fwlens query --format = j
complete_bash subcommand "capture show" fwlens snapshot ""
complete_bash help-command "settings snapshot" fwlens help s
complete_bash option "--list-topics" fwlens query --li
complete_bash short-option-value "lzma lzmaf86" fwlens decompress -a l
complete_bash section "pe32" fwlens extract BIOS.CAP --section p
complete_bash no-guess "" fwlens extract BIOS.CAP --guid ""

# The topic names as data, the same as the text list and the completion's.
t_run list-topics-json 0 fwlens query --list-topics --format json
[ "$(python3 -c "import json; print(' '.join(t['name'] for t in json.load(open('$T_OUT'))['topics']))")" = "$(echo $topics)" ] &&
	pass list-topics-json-names || fail list-topics-json-names "JSON and text topic lists differ"
