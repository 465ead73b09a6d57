#!/bin/sh
# fwlens psp: EFS, PSP/BIOS/combo directories, checksums, links, versions.
. "$(dirname "$0")/lib.sh"
G="$FWLENS_SRCDIR/tests/cli/golden/t4200-psp"
D="$FWLENS_SRCDIR/tests/data/amd"
FW="$CORPUS/firmware"

t_run psp-missing-file 4 fwlens psp "$T_DIR/none.bin"
printf 'plain text, not firmware' >"$T_DIR/text.bin"
t_run psp-not-firmware 3 fwlens psp "$T_DIR/text.bin"
# firmware with nothing AMD in it (no EFS, AGESA string, SEV firmware or microcode entry)
if t_need_file psp-not-amd /usr/share/OVMF/OVMF_CODE_4M.fd "Debian ovmf"; then
	t_run psp-not-amd 3 fwlens psp /usr/share/OVMF/OVMF_CODE_4M.fd
	grep -q "no AMD Embedded Firmware Structure, AGESA string, SEV firmware or microcode entry" "$T_ERR" &&
		pass psp-not-amd-says-why || fail psp-not-amd-says-why "$(cat "$T_ERR")"
fi

# tests/data/amd/psp-layout.bin: the image tests/unit/test-amd-flash.c builds (sample()).
t_golden psp-layout "$G/layout.txt" t_in_dir "$D" fwlens psp psp-layout.bin
t_golden psp-layout-json "$G/layout.json" t_in_dir "$D" fwlens psp psp-layout.bin --inflate --format json
t_contains psp-inflated-size '"inflated_size": 12288'
t_run psp-in-tree 0 fwlens tree "$D/psp-layout.bin"
t_contains psp-tree-shows-directory "PSP directory"
t_contains psp-tree-shows-entry "PSP boot loader"
# a changed entry breaks the $PSP checksum
cp "$D/psp-layout.bin" "$T_DIR/bad.bin"
printf '\002' | dd of="$T_DIR/bad.bin" bs=1 seek=$((0x30014)) conv=notrunc 2>/dev/null
t_run psp-bad-checksum 0 fwlens psp "$T_DIR/bad.bin"
t_contains psp-bad-checksum-shown '$PSP at 0x30000: 5 entries, checksum 0x938E49C0 INVALID'
t_run psp-xml 0 fwlens psp "$D/psp-layout.bin" --format xml
if command -v xmllint >/dev/null 2>&1; then
	xmllint --noout "$T_OUT" && pass psp-xml-well-formed || fail psp-xml-well-formed "xmllint rejects it"
fi

# The WRX90E rebuilt capsule lost its PSP region: no EFS, but the versions of the BIOS remain.
if t_need_file psp-wrx90e "$FW/asus-wrx90e-sage-se-1203_rebuilt.cap" "corpus WRX90E rebuilt capsule"; then
	t_golden psp-wrx90e "$G/wrx90e.txt" fwlens psp "$FW/asus-wrx90e-sage-se-1203_rebuilt.cap"
	grep -q "no AMD Embedded Firmware Structure found" "$T_ERR" && pass psp-wrx90e-warns || fail psp-wrx90e-warns "$(cat "$T_ERR")"
fi

# The sample ESC8000A-E13 1104 capsule (make samples): combo directories, both levels, every
# checksum valid, versions.
S1104="$SAMPLES/ESC8000A-E13-ASUS-1104.CAP"
if t_need_file psp-sample "$S1104" "sample capsule (make samples)"; then
	t_golden psp-sample "$G/sample-1104.txt" fwlens psp "$S1104"
	t_golden psp-sample-json "$G/sample-1104.json" t_in_dir "$SAMPLES" fwlens psp ESC8000A-E13-ASUS-1104.CAP --format json
	if grep -q '"checksum_valid": false' "$T_OUT"; then fail psp-sample-checksums-valid "an invalid checksum"; else pass psp-sample-checksums-valid; fi
	n=$(grep -c '"checksum_valid": true' "$T_OUT")
	[ "$n" = 6 ] && pass psp-sample-six-directories || fail psp-sample-six-directories "$n directories with a valid checksum"
	t_contains psp-sample-agesa '"TurinPI-SP5 1.0.0.4"'
fi

# AMD blobs on their own (tests/fuzz/corpus/firmware: built like tests/unit/test-amd-flash.c's):
# a Linux microcode container with two patches, and an APCB v3 block.
S="$FWLENS_SRCDIR/tests/fuzz/corpus/firmware"
t_golden psp-ucode-container-tree "$G/ucode-container-tree.txt" t_in_dir "$S" fwlens tree amd-microcode-container.bin
t_run psp-ucode-container-info 0 fwlens info "$S/amd-microcode-container.bin"
t_contains psp-ucode-container-kind "amd-microcode (AMD ucode container)"
t_run psp-ucode-container-versions 0 fwlens psp "$S/amd-microcode-container.bin"
t_contains psp-ucode-container-patch-1 "microcode  0x0A101148 for processor revision 0xA101, 2025-07-18"
t_contains psp-ucode-container-patch-2 "microcode  0x0A10114C for processor revision 0xA111, 2025-07-18"
# a microcode file has no EFS to miss: no warning about one
[ -s "$T_ERR" ] && fail psp-ucode-container-no-efs-warning "$(cat "$T_ERR")" || pass psp-ucode-container-no-efs-warning
t_golden psp-apcb-json "$G/apcb-v3.json" t_in_dir "$S" fwlens tree amd-apcb-v3.bin --format json
