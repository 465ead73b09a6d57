#!/bin/sh
# fwlens nvram: efivarfs files, folders and archives, NVAR and VSS stores, Secure Boot databases.
. "$(dirname "$0")/lib.sh"
G="$FWLENS_SRCDIR/tests/cli/golden/t4000-nvram"
FW="$CORPUS/firmware"

t_run nvram-missing-file 4 fwlens nvram "$T_DIR/nothing-here"
printf 'this is not an NVRAM store at all' >"$T_DIR/junk.bin"
t_run nvram-junk-is-bad-input 3 fwlens nvram "$T_DIR/junk.bin"
grep -q "not a firmware file fwlens knows" "$T_ERR" && pass nvram-junk-says-why || fail nvram-junk-says-why "$(cat "$T_ERR")"
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

# Firmware images, volumes and capsules go through the firmware tree.
OVMF=/usr/share/OVMF/OVMF_VARS_4M.ms.fd
if t_need_file nvram-ovmf "$OVMF" "Debian package ovmf"; then
	t_golden nvram-ovmf "$G/ovmf-vars.txt" t_in_dir /usr/share/OVMF fwlens nvram OVMF_VARS_4M.ms.fd
	t_golden nvram-ovmf-secureboot "$G/ovmf-vars-secureboot.json" t_in_dir /usr/share/OVMF fwlens nvram OVMF_VARS_4M.ms.fd --secureboot --format json
	t_run nvram-ovmf-secureboot-text 0 fwlens nvram "$OVMF" --secureboot
	t_contains nvram-ovmf-kek-subject "X509   CN=Microsoft Corporation KEK CA 2011,O=Microsoft Corporation,L=Redmond,ST=Washington,C=US"
	t_contains nvram-ovmf-db-subject "X509   CN=Microsoft Windows Production PCA 2011,O=Microsoft Corporation,L=Redmond,ST=Washington,C=US"
	t_contains nvram-ovmf-db-uefi-ca "X509   CN=Microsoft Corporation UEFI CA 2011,O=Microsoft Corporation,L=Redmond,ST=Washington,C=US"
	# The live variables are exactly UEFIExtract's "Auth" entries: offset, GUID, name.
	if t_need_cmd nvram-ovmf-uefiextract UEFIExtract; then
		cp "$OVMF" "$T_DIR/vars.fd"
		(cd "$T_DIR" && UEFIExtract vars.fd report >/dev/null 2>&1)
		awk -F'|' '$1 ~ /VSS entry/ && $2 ~ /Auth/ {
			base = $3; gsub(/ /, "", base); sub(/^0+/, "", base)
			guid = $6; sub(/^[ -]+/, "", guid); sub(/ +$/, "", guid)
			name = $7; sub(/^ +/, "", name); sub(/ +$/, "", name)
			print base, guid, name }' "$T_DIR/vars.fd.report.txt" >"$T_DIR/oracle"
		fwlens nvram "$OVMF" | awk '/^  0x/ { off = substr($1, 3); guid = $4; $1 = $2 = $3 = $4 = ""; sub(/^ +/, ""); print off, guid, $0 }' >"$T_DIR/ours"
		if [ -s "$T_DIR/oracle" ] && diff "$T_DIR/oracle" "$T_DIR/ours" >"$T_DIR/d"; then
			pass nvram-ovmf-uefiextract
		else
			fail nvram-ovmf-uefiextract "differs from UEFIExtract: $(head -5 "$T_DIR/d" | tr '\n' ' ')"
		fi
	fi
fi
if t_need_file nvram-yadro "$FW/yadro-purley-server_ami-nvram-volume.bin" "corpus YADRO NVRAM volume"; then
	t_golden nvram-yadro "$G/yadro.txt" fwlens nvram "$FW/yadro-purley-server_ami-nvram-volume.bin"
	t_run nvram-yadro-all-versions 0 fwlens nvram "$FW/yadro-purley-server_ami-nvram-volume.bin" --all-versions --format json
	n=$(grep -c '"state":' "$T_OUT")
	[ "$n" = 199 ] && pass nvram-yadro-199-records || fail nvram-yadro-199-records "$n records, UEFIExtract counts 199"
	t_run nvram-yadro-setup 0 fwlens nvram "$FW/yadro-purley-server_ami-nvram-volume.bin" --name NetworkStackVar --format json
	t_contains nvram-yadro-networkstackvar '"data": "0101000100010000"'
fi
if t_need_file nvram-wrx90e-volume "$FW/asus-wrx90e-sage-se-1203_nvram-volume-1.bin" "corpus WRX90E NVRAM volume"; then
	t_golden nvram-wrx90e-volume "$G/wrx90e-nvram-volume.txt" fwlens nvram "$FW/asus-wrx90e-sage-se-1203_nvram-volume-1.bin"
	t_golden nvram-wrx90e-setup "$G/wrx90e-setup.json" t_in_dir "$FW" fwlens nvram asus-wrx90e-sage-se-1203_nvram-volume-1.bin --name Setup --format json
fi
if t_need_file nvram-wrx90e-capsule "$FW/asus-wrx90e-sage-se-1203_rebuilt.cap" "corpus WRX90E rebuilt capsule"; then
	t_run nvram-wrx90e-capsule 0 fwlens nvram "$FW/asus-wrx90e-sage-se-1203_rebuilt.cap"
	t_contains nvram-wrx90e-capsule-volume-store "NVAR store StdDefaults at 0x1BE10A7, 24 variables"
	t_contains nvram-wrx90e-capsule-dxe-defaults "NVAR store StdDefaults in file 9221315B-30BB-46B5-813E-1B1BF4712BD3 (NVRAM external defaults), 24 variables"
fi
