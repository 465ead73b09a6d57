#!/bin/sh
# fwlens verify: AMI Aptio capsule signatures, exit codes, --key, the real WRX90E header.
. "$(dirname "$0")/lib.sh"
G="$FWLENS_SRCDIR/tests/cli/golden/t4100-verify"
D="$FWLENS_SRCDIR/tests/data/capsule"
FW="$CORPUS/firmware"

t_run verify-missing-file 4 fwlens verify "$T_DIR/none.cap"
printf 'not a capsule at all, just text' >"$T_DIR/text.bin"
t_run verify-not-a-capsule 3 fwlens verify "$T_DIR/text.bin"
grep -q "not a signed capsule" "$T_ERR" && pass verify-not-a-capsule-says-so || fail verify-not-a-capsule-says-so "$(cat "$T_ERR")"
t_run verify-fmp-is-not-signed 3 fwlens verify "$FWLENS_SRCDIR/tests/fuzz/corpus/capsule/fmp.bin"

# A capsule signed here (tests/data/capsule/README.md): valid; a byte in the signed area breaks
# it and only that area's SHA-256 changes; a byte in the unsigned area does not.
t_golden verify-signed "$G/signed.txt" t_in_dir "$D" fwlens verify signed-pss.cap
t_golden verify-signed-json "$G/signed.json" t_in_dir "$D" fwlens verify signed-pss.cap --format json
cp "$D/signed-pss.cap" "$T_DIR/changed.cap"
printf '\001' | dd of="$T_DIR/changed.cap" bs=1 seek=$((0x500 + 0x123)) conv=notrunc 2>/dev/null
T_EXIT=1 t_golden verify-signed-area-changed "$G/signed-area-changed.json" t_in_dir "$T_DIR" fwlens verify changed.cap --format json
cp "$D/signed-pss.cap" "$T_DIR/nvram.cap"
printf '\001' | dd of="$T_DIR/nvram.cap" bs=1 seek=$((0x500 + 0x456)) conv=notrunc 2>/dev/null
t_run verify-unsigned-area-changed 0 fwlens verify "$T_DIR/nvram.cap"
t_run verify-key-root 0 fwlens verify --key "$D/root-key.pem" "$D/signed-pss.cap"
t_contains verify-key-root-named "required key found as the root key"
t_run verify-key-sign 0 fwlens verify --key "$D/sign-key.pem" "$D/signed-pss.cap" --format json
t_contains verify-key-sign-role '"role": "firmware"'
t_run verify-key-not-a-key 3 fwlens verify --key "$D/README.md" "$D/signed-pss.cap"
if t_need_cmd verify-key-other openssl; then
	openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -out "$T_DIR/other.pem" 2>/dev/null
	t_run verify-key-other 1 fwlens verify --key "$T_DIR/other.pem" "$D/signed-pss.cap"
	t_contains verify-key-other-says "required key not found"
fi
t_run verify-quiet 0 fwlens verify -q "$D/signed-pss.cap"
[ -s "$T_OUT" ] && fail verify-quiet-prints-nothing "printed: $(head -c 100 "$T_OUT")" || pass verify-quiet-prints-nothing

# The real ASUS WRX90E 1203 header: the root-key signature verifies (RSA-PSS, SHA-256, salt 8);
# the firmware areas are not in the 4 KiB file. The rebuilt capsule lost its PSP region: the
# firmware signature fails and the signed areas there are reported erased.
if t_need_file verify-wrx90e-header "$FW/asus-wrx90e-sage-se-1203_capsule-header.bin" "corpus WRX90E header"; then
	T_EXIT=1 t_golden verify-wrx90e-header "$G/wrx90e-header.json" t_in_dir "$FW" fwlens verify asus-wrx90e-sage-se-1203_capsule-header.bin --format json
fi
if t_need_file verify-wrx90e-rebuilt "$FW/asus-wrx90e-sage-se-1203_rebuilt.cap" "corpus WRX90E rebuilt capsule"; then
	T_EXIT=1 t_golden verify-wrx90e-rebuilt "$G/wrx90e-rebuilt.txt" t_in_dir "$FW" fwlens verify asus-wrx90e-sage-se-1203_rebuilt.cap
	t_contains verify-wrx90e-rebuilt-names-lost "#15 0x12E8A4+0xED175C"
fi

# The sample ESC8000A-E13 1104 capsule (make samples), signed with the sample test keys.
S1104="$SAMPLES/ESC8000A-E13-ASUS-1104.CAP"
if t_need_file verify-sample "$S1104" "sample capsule (make samples)"; then
	t_golden verify-sample "$G/sample-1104.json" t_in_dir "$SAMPLES" fwlens verify ESC8000A-E13-ASUS-1104.CAP --format json
	t_run verify-sample-root-key 0 fwlens verify --key "$SAMPLES/test-root-key.pub.pem" "$S1104"
	t_contains verify-sample-root-key-found "required key found as the root key"
	t_run verify-sample-signing-key 0 fwlens verify --key "$SAMPLES/test-signing-key.pem" "$S1104"
	t_contains verify-sample-signing-key-found "required key found as the firmware key"
	# one byte in the signed DXE volume (area 11, image 0x1000000+0xB40000): invalid, and the
	# only area whose SHA-256 changes is area 11
	fwlens verify "$S1104" >"$T_DIR/before.txt"
	cp "$S1104" "$T_DIR/dxe.cap"
	printf '\125' | dd of="$T_DIR/dxe.cap" bs=1 seek=$((0x1000 + 0x1000000 + 0x123457)) conv=notrunc 2>/dev/null
	t_run verify-sample-signed-area-changed 1 fwlens verify "$T_DIR/dxe.cap"
	t_contains verify-sample-signed-area-changed-why "the signed bytes changed"
	cp "$T_OUT" "$T_DIR/after.txt"
	changed=$(diff "$T_DIR/before.txt" "$T_DIR/after.txt" | awk '/^> +[0-9]+ +0x/ { print $2 }' | tr '\n' ' ')
	[ "$changed" = "11 " ] && pass verify-sample-names-changed-area || fail verify-sample-names-changed-area "areas that changed: '$changed'"
	# a byte in the NVRAM volume (area 6, not signed): still valid
	cp "$S1104" "$T_DIR/nvram.cap"
	printf '\125' | dd of="$T_DIR/nvram.cap" bs=1 seek=$((0x1000 + 0x1BE0000 + 0x2000)) conv=notrunc 2>/dev/null
	t_run verify-sample-nvram-changed 0 fwlens verify "$T_DIR/nvram.cap"
	# the ROM area map: unmarking area 6 (NVRAM) as not signed changes the signed table
	cp "$S1104" "$T_DIR/map.cap"
	printf '\002' | dd of="$T_DIR/map.cap" bs=1 seek=$((0x458 + 6 * 24 + 21)) conv=notrunc 2>/dev/null
	t_run verify-sample-map-changed 1 fwlens verify "$T_DIR/map.cap"
fi

# A flash image without the capsule header: the FwCapsuleHdr file inside it is only AMI's empty
# template on the WRX90E (the .CAP carries the real header in front of the ROM).
if t_need_file verify-embedded-template "$FW/asus-wrx90e-sage-se-1203_rebuilt.cap" "corpus WRX90E rebuilt capsule"; then
	dd if="$FW/asus-wrx90e-sage-se-1203_rebuilt.cap" of="$T_DIR/rom.bin" bs=4096 skip=1 2>/dev/null
	t_run verify-embedded-template 3 fwlens verify "$T_DIR/rom.bin"
	grep -q "empty certificate (an unsigned template)" "$T_ERR" && pass verify-embedded-template-says-so ||
		fail verify-embedded-template-says-so "$(cat "$T_ERR")"
fi
