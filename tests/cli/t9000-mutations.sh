#!/bin/sh
# Mutation test: every fixture and sample, mutated deterministically from its decoded structure
# (truncations at structure boundaries, bit flips, length and count fields set to 0, 1 and
# all-ones, pointers outside, directory loops, decompression bombs), through every command that
# reads it. Each run must use less than 5 s of CPU (10 s under AddressSanitizer) (a hang is killed after 20 s) and end with exit
# 0, 1 or 3, one error line at most and no crash, within the memory bound. See
# tests/mutate/mutate.c; the summary line gives the counts.
#
# FWLENS_MUTATIONS=N sets the mutations per kind and input (default 3; 0 skips the test).
. "$(dirname "$0")/lib.sh"

MUTATE="$FWLENS_BUILD/tests/mutate"
PER=${FWLENS_MUTATIONS:-3}
if [ "$PER" = 0 ]; then
	skip mutations "FWLENS_MUTATIONS=0"
	exit 0
fi
if [ ! -x "$MUTATE" ]; then
	fail mutations "$MUTATE was not built"
	exit 0
fi
# Sanitizer builds are slower and their memory is not the program's: fewer mutations, no RSS bound.
rss="" image=""
case "$FWLENS_BUILD" in */sanitize) rss="--no-rss" PER=$(((PER + 1) / 2)) ;; esac

# A RAM-backed work folder when there is one: extract --all creates hundreds of files per run.
WORK=$(mktemp -d /dev/shm/fwlens-mutate.XXXXXX 2>/dev/null || mktemp -d "$T_DIR/mutate.XXXXXX")
trap 'rm -rf "$T_DIR" "$WORK"' EXIT INT TERM

D="$FWLENS_SRCDIR/tests/data"
C="$FWLENS_SRCDIR/tests/fuzz/corpus"
set -- \
	firmware:"$D/firmware/mini.cap" firmware:"$D/firmware/mini.fv" firmware:"$D/firmware/ffs3.fv" \
	firmware:"$D/firmware/broken.fv" firmware:"$D/firmware/evil.fv" firmware:"$D/firmware/dxe.ffs" \
	firmware:"$D/firmware/pe32.sct" firmware:"$D/capsule/signed-pss.cap" firmware:"$D/amd/psp-layout.bin" \
	firmware:"$C/firmware/amd-microcode-container.bin" firmware:"$C/firmware/amd-apcb-v3.bin" \
	nvram:"$C/nvar/store-links-defaults.bin" nvram:"$C/vss/auth.bin" nvram:"$C/vss/vss2-ftw.bin" \
	nvram:"$C/vss/dollar-vss.bin" nvram:"$C/efivarfs/archive.tar" \
	hii:"$C/hii-scan/forms-and-two-groups" hii:"$C/hii-scan/formset-only" \
	acpidump:"$D/acpi/ivrs-ivmd.acpidump.txt" acpidump:"$D/acpi/srat-gi.acpidump.txt" \
	acpidump:"$D/acpi/bad-checksum.acpidump.txt" \
	lzma:"$D/compress/words.lzma" lzmaf86:"$D/compress/code.lzmaf86" tiano:"$D/compress/words.tiano" \
	efi11:"$D/compress/words.efi11" brotli:"$D/compress/words.brotli" gzip:"$D/compress/words.gzip" \
	zlib-amd:"$D/compress/words.zlib-amd" zlib-amd:"$D/compress/zeros-1m.zlib-amd" \
	bombs:
if [ -f "$SAMPLES/ESC8000A-E13-ASUS-1104.CAP" ]; then
	# the second sample differs in planted places only: fewer mutations
	set -- "$@" firmware:"$SAMPLES/ESC8000A-E13-ASUS-1104.CAP" firmware/1:"$SAMPLES/ESC8000A-E13-ASUS-1201.CAP"
	# the machine's ACPI tables as one binary, its DSDT, and the machine as a snapshot
	cat "$SAMPLES"/sysroot-1104/sys/firmware/acpi/tables/[A-Z]* >"$WORK/tables-1104.bin" 2>/dev/null
	set -- "$@" acpi:"$WORK/tables-1104.bin"
	if command -v iasl >/dev/null 2>&1; then
		set -- "$@" aml/2:"$SAMPLES/asl/dsdt-1104.aml"
	else
		skip mutations-aml "iasl is not installed"
	fi
	if "$FWLENS" snapshot capture --root "$SAMPLES/sysroot-1104" -o "$WORK/s1104.fwsnap" 2>/dev/null; then
		set -- "$@" snapshot:"$WORK/s1104.fwsnap"
	else
		fail mutations-snapshot "snapshot capture of $SAMPLES/sysroot-1104 failed"
	fi
	# the machine's EFI variables (a tar of its efivarfs) and the capsule's NVRAM defaults: hostile
	# values bound to the capsule's forms by settings --vars
	(cd "$SAMPLES/sysroot-1104/sys/firmware/efi/efivars" && tar -cf "$WORK/efivars-1104.tar" ./*) &&
		set -- "$@" nvram:"$WORK/efivars-1104.tar"
	"$FWLENS" extract "$SAMPLES/ESC8000A-E13-ASUS-1104.CAP" --guid 9221315B-30BB-46B5-813E-1B1BF4712BD3 --section raw \
		-o "$WORK/defaults-1104.nvar" 2>/dev/null && set -- "$@" nvram:"$WORK/defaults-1104.nvar"
	image="$SAMPLES/ESC8000A-E13-ASUS-1104.CAP"
else
	skip mutations-samples "the samples are not built (make samples)"
fi

[ -n "$image" ] && set -- --image "$image" "$@"
[ -n "$rss" ] && set -- "$rss" "$@"
"$MUTATE" --fwlens "$FWLENS" --work "$WORK/run" --per-input "$PER" "$@"
