#!/bin/sh
# fwlens nvram: efivarfs files, folders and archives, NVAR and VSS stores, Secure Boot databases.
. "$(dirname "$0")/lib.sh"
G="$FWLENS_SRCDIR/tests/cli/golden/t4000-nvram"
FW="$CORPUS/firmware"

t_run nvram-missing-file 4 fwlens nvram "$T_DIR/nothing-here"
printf 'this is not an NVRAM store at all' >"$T_DIR/junk.bin"
t_run nvram-junk-is-bad-input 3 fwlens nvram "$T_DIR/junk.bin"
grep -q "not an NVRAM store" "$T_ERR" && pass nvram-junk-says-why || fail nvram-junk-says-why "$(cat "$T_ERR")"
t_run nvram-needs-an-argument 2 fwlens nvram

# An efivarfs folder built here: a variable, a file that is not Name-guid, and a truncated one.
mkdir -p "$T_DIR/efivars"
printf '\007\000\000\000\005\000' >"$T_DIR/efivars/Timeout-8be4df61-93ca-11d2-aa0d-00e098032b8c"
printf '\007\000\000\000en-US\000' >"$T_DIR/efivars/PlatformLang-8be4df61-93ca-11d2-aa0d-00e098032b8c"
printf 'x' >"$T_DIR/efivars/Short-8be4df61-93ca-11d2-aa0d-00e098032b8c"
printf 'hello' >"$T_DIR/efivars/README"
t_golden nvram-efivars-folder "$G/folder.json" t_in_dir "$T_DIR" fwlens nvram efivars --format json
grep -q "Short-8be4df61-93ca-11d2-aa0d-00e098032b8c: 1 bytes are too few" "$T_ERR" && pass nvram-folder-warns-short ||
	fail nvram-folder-warns-short "no warning: $(cat "$T_ERR")"
t_run nvram-folder-name-filter 0 fwlens nvram "$T_DIR/efivars" --name Timeout
t_contains nvram-folder-name-filter-shows "Timeout" && ! grep -q PlatformLang "$T_OUT" && pass nvram-folder-name-filter-only ||
	fail nvram-folder-name-filter-only "PlatformLang listed"

if t_need_file nvram-t100ta-stddefaults "$FW/asus-t100ta-aptio4_efivar_StdDefaults-nvar.bin" "corpus T100TA StdDefaults"; then
	cp "$FW/asus-t100ta-aptio4_efivar_StdDefaults-nvar.bin" "$T_DIR/StdDefaults-4599d26f-1a11-49b8-b91f-858745cff824"
	t_golden nvram-t100ta-stddefaults "$G/t100ta-stddefaults.txt" t_in_dir "$T_DIR" fwlens nvram StdDefaults-4599d26f-1a11-49b8-b91f-858745cff824
	t_golden nvram-t100ta-stddefaults-json "$G/t100ta-stddefaults.json" t_in_dir "$T_DIR" fwlens nvram StdDefaults-4599d26f-1a11-49b8-b91f-858745cff824 --format json
	# the same bytes under the corpus name: attributes, then an NVAR store
	t_run nvram-t100ta-stddefaults-renamed 0 fwlens nvram "$FW/asus-t100ta-aptio4_efivar_StdDefaults-nvar.bin"
	t_contains nvram-t100ta-stddefaults-renamed-store "NVAR store at 0x4, 7 variables"
fi

if t_need_file nvram-t100ta-tar "$FW/asus-t100ta-aptio4_efivarfs-dump.tar" "corpus T100TA efivarfs tar"; then
	t_golden nvram-t100ta-tar "$G/t100ta-tar.txt" fwlens nvram "$FW/asus-t100ta-aptio4_efivarfs-dump.tar"
	t_golden nvram-t100ta-tar-secureboot "$G/t100ta-tar-secureboot.json" t_in_dir "$FW" fwlens nvram asus-t100ta-aptio4_efivarfs-dump.tar --secureboot --format json
	t_run nvram-t100ta-tar-xml 0 fwlens nvram "$FW/asus-t100ta-aptio4_efivarfs-dump.tar" --format xml --name Setup
	if command -v xmllint >/dev/null 2>&1; then
		xmllint --noout "$T_OUT" && pass nvram-xml-well-formed || fail nvram-xml-well-formed "xmllint rejects it"
	fi
fi
