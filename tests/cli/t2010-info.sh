#!/bin/sh
# fwlens info: headline facts of the fixtures (golden), the WRX90E capsule and OVMF when present.
. "$(dirname "$0")/lib.sh"

FIX="$FWLENS_SRCDIR/tests/data/firmware"
G="$FWLENS_SRCDIR/tests/cli/golden/t2010-info"
cd "$FIX" || exit 1

t_golden text-mini "$G/mini.txt" fwlens info mini.fv
t_golden json-mini "$G/mini.json" fwlens info mini.fv --format json
t_golden text-broken "$G/broken.txt" fwlens info broken.fv
t_golden text-capsule "$G/mini-cap.txt" fwlens info mini.cap
t_golden text-section "$G/pe32.txt" fwlens info pe32.sct
t_run missing-file 4 fwlens info "$T_DIR/nothing-here.fd"

WRX="$CORPUS/firmware/asus-wrx90e-sage-se-1203_rebuilt.cap"
if t_need_file wrx90e-info "$WRX" "corpus capsule"; then
	t_run wrx90e-info 0 fwlens info "$WRX" --format json
	t_contains wrx90e-kind '"kind": "capsule"'
	t_contains wrx90e-type '"type": "Aptio signed"'
	t_contains wrx90e-volumes '"volumes": 12,'
	t_contains wrx90e-files '"files": 846,'
	t_contains wrx90e-sections '"sections": 2386,'
	t_contains wrx90e-lzma '"LZMA": 47'
	t_contains wrx90e-zlib '"AMD zlib": 2'
	t_contains wrx90e-setup-has-hii '"name": "Setup"'
fi
OVMF=/usr/share/OVMF/OVMF_CODE_4M.fd
if t_need_file ovmf-info "$OVMF" "Debian package ovmf"; then
	t_run ovmf-info 0 fwlens info "$OVMF"
	t_contains ovmf-hii-modules "HII modules     12 ("
	t_contains ovmf-volumes "volumes         4"
fi
