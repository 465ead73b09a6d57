#!/bin/sh
# fwlens extract: one node by GUID or name, a section body, and --all into a folder with names that
# try to escape it.
. "$(dirname "$0")/lib.sh"

FIX="$FWLENS_SRCDIR/tests/data/firmware"
cd "$FIX" || exit 1

# The DXE driver as stored equals the lone FFS file fixture; its PE32 body is pe32.sct minus the
# 4-byte section header.
t_run guid-file 0 fwlens extract mini.fv --guid F1E2D3C4-0001-4F00-8000-000000000001 -o "$T_DIR/dxe.ffs"
cmp -s "$T_DIR/dxe.ffs" dxe.ffs && pass guid-file-bytes || fail guid-file-bytes "differs from dxe.ffs"
t_run section-pe32 0 fwlens extract mini.fv --guid f1e2d3c4-0001-4f00-8000-000000000001 --section pe32 -o "$T_DIR/pe.efi"
tail -c +5 pe32.sct >"$T_DIR/pe.want"
cmp -s "$T_DIR/pe.efi" "$T_DIR/pe.want" && pass section-pe32-bytes || fail section-pe32-bytes "differs from pe32.sct body"
# A raw section inside LZMA data comes out decompressed.
t_run section-raw-compressed 0 fwlens extract mini.fv --guid F1E2D3C4-0002-4F00-8000-000000000002 --section raw -o "$T_DIR/raw.bin"
[ "$(cat "$T_DIR/raw.bin")" = "hello, firmware" ] && pass section-raw-bytes || fail section-raw-bytes "$(cat "$T_DIR/raw.bin")"
t_run section-body-inflated 0 fwlens extract mini.fv --guid EE4E5898-3914-4259-9D6E-DC7BD79403CF --section body -o "$T_DIR/lzma.body"
[ "$(wc -c <"$T_DIR/lzma.body")" -eq 1048 ] && pass section-body-size || fail section-body-size "$(wc -c <"$T_DIR/lzma.body")"
# The stored body of the LZMA section is its compressed stream: decompress gives the inflated body.
t_run section-stored 0 fwlens extract mini.fv --guid EE4E5898-3914-4259-9D6E-DC7BD79403CF --section stored -o "$T_DIR/lzma.stored"
t_run stored-decompresses 0 fwlens decompress --algo lzma "$T_DIR/lzma.stored" -o "$T_DIR/lzma.plain"
cmp -s "$T_DIR/lzma.plain" "$T_DIR/lzma.body" && pass stored-round-trip || fail stored-round-trip "decompressed stored body differs"
t_run no-such-guid 3 fwlens extract mini.fv --guid 01234567-89AB-CDEF-0123-456789ABCDEF -o "$T_DIR/none"
[ ! -e "$T_DIR/none" ] && pass failed-extract-writes-nothing || fail failed-extract-writes-nothing "file left"
t_run no-such-section 3 fwlens extract mini.fv --guid F1E2D3C4-0008-4F00-8000-000000000008 --section pe32 -o "$T_DIR/none"
t_run bad-section-kind 2 fwlens extract mini.fv --guid F1E2D3C4-0001-4F00-8000-000000000001 --section elf -o "$T_DIR/none"
t_run guid-and-all 2 fwlens extract mini.fv --guid F1E2D3C4-0001-4F00-8000-000000000001 --all "$T_DIR/x"
t_run neither 2 fwlens extract mini.fv
t_run bad-guid 2 fwlens extract mini.fv --guid not-a-guid -o "$T_DIR/none"

# --all: a folder per node, nested like the tree.
t_run all-mini 0 fwlens extract mini.fv --all "$T_DIR/mini"
t_contains all-mini-count "38 nodes"
d="$T_DIR/mini/0 F1E2D3C4-000C-4F00-8000-00000000000C/0 F1E2D3C4-0001-4F00-8000-000000000001 FwlensSampleDxe"
cmp -s "$d/1 PE32 image section/body.bin" "$T_DIR/pe.want" && pass all-pe32-body || fail all-pe32-body "missing or different"
grep -q "^  Machine name: X64$" "$d/1 PE32 image section/info.txt" && pass all-info-fields || fail all-info-fields "no Machine name"
t_run all-not-empty 4 fwlens extract mini.fv --all "$T_DIR/mini"
grep -q "not empty" "$T_ERR" && pass all-refuses-non-empty || fail all-refuses-non-empty "$(cat "$T_ERR")"

# Hostile names stay inside the folder: nothing is created next to it or above it.
mkdir -p "$T_DIR/jail"
t_run all-evil 0 fwlens extract evil.fv --all "$T_DIR/jail/out"
outside=$(find "$T_DIR/jail" -mindepth 1 -maxdepth 1 ! -name out | wc -l)
[ "$outside" -eq 0 ] && [ ! -e "$T_DIR/x" ] && [ ! -e /etc/passwd.bin ] && pass evil-stays-inside || fail evil-stays-inside "$outside entries beside out/"
bad=$(find "$T_DIR/jail/out" -name '*[!A-Za-z0-9 ._+()/-]*' | wc -l)
[ "$bad" -eq 0 ] && pass evil-names-clean || fail evil-names-clean "$bad names with other characters"
long=$(find "$T_DIR/jail/out" -type d | awk -F/ '{ if (length($NF) > 80) n++ } END { print n + 0 }')
[ "$long" -eq 0 ] && pass evil-names-short || fail evil-names-short "$long names over 80 bytes"
[ "$(find "$T_DIR/jail/out" -name info.txt | wc -l)" -eq 23 ] && pass evil-all-nodes || fail evil-all-nodes "node folders missing"
# a symlink planted where a node folder would go is not followed
mkdir -p "$T_DIR/plant"
ln -s "$T_DIR/jail" "$T_DIR/plant/0 E0000000-0000-4000-8000-0000000000F0"
t_run all-symlink-planted 4 fwlens extract evil.fv --all "$T_DIR/plant"
