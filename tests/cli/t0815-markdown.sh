#!/bin/sh
# --format markdown of diff, doctor, query and find: tables that paste into notes as they are
# (tests/cli/mdtables.py: a header, one |---| per column, every row with as many cells, a | inside a
# cell escaped), golden on the samples; settings of several modules in one table per module; a
# prompt, menu and option text holding | and a line break stay inside their cells.
. "$(dirname "$0")/lib.sh"

G="$FWLENS_SRCDIR/tests/cli/golden/t0815-markdown"
CHECK="$FWLENS_SRCDIR/tests/cli/mdtables.py"
t_need_file markdown "$SAMPLES/ESC8000A-E13-ASUS-1201.CAP" "the samples (make samples)" || exit 0

tables() { # name: the last output's tables are well formed
	if python3 "$CHECK" "$T_OUT" >"$T_DIR/why" 2>&1; then pass "$1"; else fail "$1" "$(head -3 "$T_DIR/why" | tr '\n' ' ')"; fi
}

T_EXIT=1 t_golden diff-images "$G/diff-1104-1201.md" t_in_dir "$SAMPLES" \
	fwlens diff ESC8000A-E13-ASUS-1104.CAP ESC8000A-E13-ASUS-1201.CAP --format markdown
tables diff-images-tables
t_contains diff-images-module-setup "### Module Setup"
t_contains diff-images-module-cbs "### Module CbsSetupDxeBRH"
T_EXIT=1 t_golden diff-machines "$G/diff-s1104-s1201.md" t_in_dir "$SAMPLES" \
	fwlens diff sysroot-1104 sysroot-1201 --image ESC8000A-E13-ASUS-1201.CAP --format markdown
tables diff-machines-tables
t_contains diff-machines-values-source "Old values from efivarfs folder sysroot-1104/sys/firmware/efi/efivars; new values from efivarfs folder sysroot-1201/sys/firmware/efi/efivars."
T_EXIT=1 t_golden doctor "$G/doctor-s1201.md" t_in_dir "$SAMPLES" \
	fwlens doctor sysroot-1201 --image ESC8000A-E13-ASUS-1201.CAP --format markdown
tables doctor-tables
t_golden query "$G/query-1104.md" t_in_dir "$SAMPLES" \
	fwlens query ESC8000A-E13-ASUS-1104.CAP --topic pcie,sev-snp --format markdown
tables query-tables
t_contains query-module-heading "### pcie in module Setup"
t_golden find "$G/find-1104.md" t_in_dir "$SAMPLES" fwlens find ESC8000A-E13-ASUS-1104.CAP '^(SR-IOV|SMEE)' --format markdown
tables find-tables
t_contains find-module-heading "## Module CbsSetupDxeBRH"

# text, cut by hand into a settings list: | and line breaks in a prompt, a menu path and an option
t_run hostile-list 0 fwlens settings "$SAMPLES/ESC8000A-E13-ASUS-1104.CAP" --format json
python3 - "$T_OUT" "$T_DIR/old.json" "$T_DIR/new.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for s in d["settings"]:
    if s["prompt"] == "SMEE":
        s["prompt"] = "SMEE | TSME\nboth"
        s["path"] = "AMD CBS | CPU\nCommon"
        s["paths"] = [s["path"]]
json.dump(d, open(sys.argv[2], "w"))
for s in d["settings"]:
    if s["prompt"].startswith("SMEE"):
        s["options"][0]["text"] = "Off | no\nencryption"
        s["path"] = "AMD CBS | CPU\nMoved"
        s["paths"] = [s["path"]]
json.dump(d, open(sys.argv[3], "w"))
PY
T_EXIT=1 t_golden hostile-diff "$G/diff-hostile.md" t_in_dir "$T_DIR" fwlens diff old.json new.json --format markdown
tables hostile-diff-tables
t_contains hostile-diff-escaped '| moved | SMEE \| TSME both | AMD CBS \| CPU Moved | AMD CBS \| CPU Common |'
t_run hostile-find 0 fwlens find "$T_DIR/new.json" 'TSME' --in prompt --format markdown
tables hostile-find-tables
t_contains hostile-find-escaped '| SMEE \| TSME both | AMD CBS \| CPU Moved |'
