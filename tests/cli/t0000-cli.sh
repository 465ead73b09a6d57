#!/bin/sh
# The command line itself: usage, help, version, exit codes for usage errors, atomic output.
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

# --output lands atomically: the file appears whole, and a failed run leaves nothing behind.
t_run output-file 0 fwlens version --format json -o "$T_DIR/v.json"
if [ -s "$T_DIR/v.json" ] && ! ls "$T_DIR"/v.json.tmp-* >/dev/null 2>&1; then pass output-file-landed; else fail output-file-landed "no file or a temporary left"; fi
t_run output-failed-run 2 fwlens version --format yaml -o "$T_DIR/bad.json"
if [ ! -e "$T_DIR/bad.json" ] && ! ls "$T_DIR"/bad.json.tmp-* >/dev/null 2>&1; then pass failed-run-leaves-nothing; else fail failed-run-leaves-nothing "output left behind"; fi

# Every command has help, and the man pages and completion scripts generate and parse.
for cmd in $(fwlens help | awk '/^commands:/{f=1;next} /^$/{f=0} f{print $1}'); do
	t_run "help-$cmd" 0 fwlens "$cmd" --help
done
t_run man-pages 0 fwlens help --man-dir "$T_DIR"
if [ -s "$T_DIR/fwlens.1" ] && [ -s "$T_DIR/fwlens-help.1" ]; then pass man-pages-written; else fail man-pages-written "missing pages"; fi
if command -v man >/dev/null 2>&1; then
	if MANWIDTH=80 man -l "$T_DIR/fwlens-help.1" 2>&1 >/dev/null | grep -q .; then fail man-page-renders "warnings: $(MANWIDTH=80 man -l "$T_DIR/fwlens-help.1" 2>&1 >/dev/null | head -3)"; else pass man-page-renders; fi
fi
t_run completion-bash 0 fwlens help --completion bash
if bash -n "$T_OUT"; then pass completion-bash-syntax; else fail completion-bash-syntax "bash -n failed"; fi
t_run completion-zsh 0 fwlens help --completion zsh
if command -v zsh >/dev/null 2>&1; then
	if zsh -n "$T_OUT"; then pass completion-zsh-syntax; else fail completion-zsh-syntax "zsh -n failed"; fi
fi
