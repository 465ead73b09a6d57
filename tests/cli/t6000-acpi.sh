#!/bin/sh
# fwlens acpi: golden output for every corpus dump and the test tables, the error exits, folders
# and live roots, and `acpi topo` through iasl.
. "$(dirname "$0")/lib.sh"

G="$FWLENS_SRCDIR/tests/cli/golden/t6000-acpi"
DATA="$FWLENS_SRCDIR/tests/data/acpi"

# --- every corpus dump: text and JSON --------------------------------------------------------------
for dump in asrock-970m-pro3 asrock-x370-killer-sli-coreboot asus-minipc-pn51 asus-prime-x399-a \
	asus-rog-strix-x670e-f asus-rog-zenith-ii-extreme-alpha dell-poweredge-r820 gmktec-nucbox-k6 \
	supermicro-h8dgu supermicro-x8dtt; do
	f="$dump.acpidump.txt"
	t_need_file "corpus-$dump" "$CORPUS/acpi/$f" "corpus dump not present" || continue
	t_golden "text-$dump" "$G/$dump.txt" t_in_dir "$CORPUS/acpi" fwlens acpi "$f"
	t_golden "json-$dump" "$G/$dump.json" t_in_dir "$CORPUS/acpi" fwlens acpi "$f" --format json
done

# --- tables written for the tests ------------------------------------------------------------------
for t in ivrs-ivmd srat-gi bad-checksum hmat-cedt; do
	t_golden "text-$t" "$G/$t.txt" t_in_dir "$DATA" fwlens acpi "$t.acpidump.txt"
	t_golden "json-$t" "$G/$t.json" t_in_dir "$DATA" fwlens acpi "$t.acpidump.txt" --format json
done
t_run bad-checksum-exit-0 0 fwlens acpi "$DATA/bad-checksum.acpidump.txt" && t_contains bad-checksum-says-bad " BAD "
t_run xml 0 fwlens acpi "$DATA/ivrs-ivmd.acpidump.txt" --format xml
if command -v xmllint >/dev/null 2>&1; then
	if xmllint --noout "$T_OUT" 2>/dev/null; then pass xml-well-formed; else fail xml-well-formed "xmllint rejects it"; fi
fi
t_contains xml-has-efr-features "<efr_feature>SNP</efr_feature>"
t_run table-filter 0 fwlens acpi "$DATA/ivrs-ivmd.acpidump.txt" --table apic --format json
if grep -q '"IVRS"' "$T_OUT"; then fail table-filter-excludes "IVRS listed"; else pass table-filter-excludes; fi

# --- tables inside firmware images ------------------------------------------------------------------
WRX="$CORPUS/firmware/asus-wrx90e-sage-se-1203_rebuilt.cap"
if t_need_file image-wrx90e "$WRX" "corpus capsule not present"; then
	t_golden image-wrx90e "$G/image-wrx90e.txt" t_in_dir "$CORPUS/firmware" fwlens acpi asus-wrx90e-sage-se-1203_rebuilt.cap
fi
printf 'this is not a firmware image and holds no table, padded to be long enough to scan\n' >"$T_DIR/plain.bin"
t_run image-without-tables 3 fwlens acpi "$T_DIR/plain.bin"

# --- errors: one line, the right exit code ---------------------------------------------------------
one_line() {
	if [ "$(wc -l <"$T_ERR")" -eq 1 ]; then pass "$1"; else fail "$1" "stderr has $(wc -l <"$T_ERR") lines"; fi
}
t_run missing-file 4 fwlens acpi "$T_DIR/nope.dat" && one_line missing-file-one-line
printf 'this is not ACPI\n' >"$T_DIR/garbage"
t_run garbage 3 fwlens acpi "$T_DIR/garbage" && one_line garbage-one-line
# a 36-byte MCFG header claiming 0x100 bytes
printf 'MCFG\000\001\000\000\001\000FWTESTUNITTEST\001\000\000\000FWLN\001\000\000\000' >"$T_DIR/short.dat"
t_run truncated-table 3 fwlens acpi "$T_DIR/short.dat" && one_line truncated-one-line
grep -q "Length 0x100" "$T_ERR" && pass truncated-names-length || fail truncated-names-length "$(cat "$T_ERR")"
t_run table-not-present 3 fwlens acpi "$DATA/srat-gi.acpidump.txt" --table IVRS
t_run bad-table-option 2 fwlens acpi "$DATA/srat-gi.acpidump.txt" --table IVRSX
t_run unknown-subcommand 2 fwlens acpi topology "$DATA/srat-gi.acpidump.txt"
printf 'IVRS @ 0x0\n    0000: 49 56 52 53\n    0010: 00\n' >"$T_DIR/damaged.txt"
t_run damaged-acpidump 3 fwlens acpi "$T_DIR/damaged.txt" && one_line damaged-one-line
grep -q "line 3" "$T_ERR" && pass damaged-names-line || fail damaged-names-line "$(cat "$T_ERR")"

# --- folders and live roots ------------------------------------------------------------------------
ZEN="$CORPUS/acpi/asus-rog-zenith-ii-extreme-alpha.acpidump.txt"
if t_need_file folder "$ZEN" "corpus dump not present" && t_need_cmd folder acpixtract; then
	root="$T_DIR/root"
	tables="$root/sys/firmware/acpi/tables"
	mkdir -p "$tables/dynamic" "$tables/data" "$T_DIR/x"
	(cd "$T_DIR/x" && acpixtract -a "$ZEN" >/dev/null 2>&1)
	for f in "$T_DIR"/x/*.dat; do
		name=$(basename "$f" .dat | tr a-z A-Z)
		cp "$f" "$tables/$name"
	done
	mv "$tables/SSDT7" "$tables/dynamic/SSDT7"
	printf 'error record' >"$tables/data/BERT"
	t_run folder-tables 0 fwlens acpi "$tables" --format json
	n=$(grep -c '"signature"' "$T_OUT")
	[ "$n" -eq 22 ] && pass folder-has-22-tables || fail folder-has-22-tables "$n tables"
	grep -q '"origin": "dynamic/SSDT7"' "$T_OUT" && pass folder-reads-dynamic || fail folder-reads-dynamic "no dynamic/SSDT7"
	# The decoded IVRS is the same from the folder and from the dump.
	"$FWLENS" acpi "$tables" --table IVRS --format json | grep -v '"path"\|"kind"\|"origin"\|"tables":' >"$T_DIR/a"
	"$FWLENS" acpi "$ZEN" --table IVRS --format json | grep -v '"path"\|"kind"\|"origin"\|"tables":' >"$T_DIR/b"
	cmp -s "$T_DIR/a" "$T_DIR/b" && pass folder-ivrs-equals-dump || fail folder-ivrs-equals-dump "differs"
	t_run sysroot 0 fwlens acpi "$root"
	t_contains sysroot-kind "sysroot, 22 tables"
	if t_need_cmd topo-sysroot iasl; then
		# A live root also places PCI devices under their bridges.
		mkdir -p "$root/sys/bus/pci/devices/0000:41:00.0" "$root/sys/devices/pci0000:40/firmware_node"
		printf '\\_SB_.S0D2\n' >"$root/sys/devices/pci0000:40/firmware_node/path"
		printf '0x10de\n' >"$root/sys/bus/pci/devices/0000:41:00.0/vendor"
		printf '0x2684\n' >"$root/sys/bus/pci/devices/0000:41:00.0/device"
		printf '0x030000\n' >"$root/sys/bus/pci/devices/0000:41:00.0/class"
		printf '2\n' >"$root/sys/bus/pci/devices/0000:41:00.0/numa_node"
		ln -s ../../../../kernel/iommu_groups/17 "$root/sys/bus/pci/devices/0000:41:00.0/iommu_group"
		t_golden topo-sysroot "$G/topo-sysroot.txt" t_in_dir "$T_DIR" fwlens acpi topo root
	fi
fi

# --- acpi topo ---------------------------------------------------------------------------------------
if t_need_file topo "$ZEN" "corpus dump not present" && t_need_cmd topo iasl; then
	t_golden topo-zenith "$G/topo-zenith.txt" t_in_dir "$CORPUS/acpi" fwlens acpi topo asus-rog-zenith-ii-extreme-alpha.acpidump.txt
	t_golden topo-zenith-json "$G/topo-zenith.json" t_in_dir "$CORPUS/acpi" fwlens acpi topo asus-rog-zenith-ii-extreme-alpha.acpidump.txt --format json
	if t_need_file topo-x399 "$CORPUS/acpi/asus-prime-x399-a.acpidump.txt" "corpus dump not present"; then
		# two of the four dies absent (_STA 0): no buses, no IOMMU, no domain for them
		t_golden topo-x399 "$G/topo-x399.txt" t_in_dir "$CORPUS/acpi" fwlens acpi topo asus-prime-x399-a.acpidump.txt
	fi
	if t_need_file topo-r820 "$CORPUS/acpi/dell-poweredge-r820.acpidump.txt" "corpus dump not present"; then
		t_golden topo-r820 "$G/topo-r820.txt" t_in_dir "$CORPUS/acpi" fwlens acpi topo dell-poweredge-r820.acpidump.txt
	fi
	T_STATUS=0
	FWLENS_IASL="$T_DIR/no-such-iasl" "$FWLENS" acpi topo "$ZEN" >"$T_OUT" 2>"$T_ERR" || T_STATUS=$?
	if [ "$T_STATUS" -eq 4 ] && grep -q "acpica-tools" "$T_ERR"; then pass topo-without-iasl; else fail topo-without-iasl "exit $T_STATUS: $(cat "$T_ERR")"; fi
	one_line topo-without-iasl-one-line
	t_run topo-no-dsl 0 fwlens acpi topo "$ZEN" --no-dsl && t_contains topo-no-dsl-iommus "IOMMUs"
fi
t_golden topo-srat-only "$G/topo-srat-gi.txt" t_in_dir "$DATA" fwlens acpi topo srat-gi.acpidump.txt

# --- tables described by a layout are compared field by field -------------------------------------
# An HPET as AMD boards have it (56 bytes), then the same with another timer address and minimum tick.
for side in a b; do mkdir -p "$T_DIR/m-$side/sys/firmware/acpi/tables"; done
printf '\110\120\105\124\070\000\000\000\001\030\106\127\124\105\123\124\125\116\111\124\124\105\123\124\001\000\000\000\106\127\114\116\001\000\000\000\001\202\042\020\000\100\000\000\000\000\320\376\000\000\000\000\000\356\067\000' >"$T_DIR/m-a/sys/firmware/acpi/tables/HPET"
printf '\110\120\105\124\070\000\000\000\001\007\106\127\124\105\123\124\125\116\111\124\124\105\123\124\001\000\000\000\106\127\114\116\001\000\000\000\001\202\042\020\000\100\000\000\000\020\320\376\000\000\000\000\000\356\070\000' >"$T_DIR/m-b/sys/firmware/acpi/tables/HPET"
t_run hpet-decoded 0 fwlens acpi "$T_DIR/m-a/sys/firmware/acpi/tables/HPET" && t_contains hpet-minimum-tick "MinimumTick: 14318"
t_run diff-hpet-fields 1 fwlens diff "$T_DIR/m-a" "$T_DIR/m-b"
t_contains diff-hpet-address "Address.Address: 0xfed00000 -> 0xfed01000"
t_contains diff-hpet-tick "MinimumTick: 14318 -> 14574"
# A table with a view of its own (MCFG) is compared the same way, its values named as in its JSON.
for side in a b; do mkdir -p "$T_DIR/c-$side/sys/firmware/acpi/tables"; done
mcfg() { # $1 = end bus (octal escape)
	printf '\115\103\106\107\074\000\000\000\001\000\106\127\124\105\123\124\125\116\111\124\124\105\123\124\001\000\000\000\106\127\114\116\001\000\000\000'
	printf '\000\000\000\000\000\000\000\000\000\000\000\340\000\000\000\000\000\000\000'"$1"'\000\000\000\000'
}
mcfg '\377' >"$T_DIR/c-a/sys/firmware/acpi/tables/MCFG"
mcfg '\177' >"$T_DIR/c-b/sys/firmware/acpi/tables/MCFG"
t_run mcfg-decoded 0 fwlens acpi "$T_DIR/c-a/sys/firmware/acpi/tables/MCFG" && t_contains mcfg-text "segment 0000 buses 00-ff  ECAM at 0xe0000000"
t_run diff-mcfg-fields 1 fwlens diff "$T_DIR/c-a" "$T_DIR/c-b"
t_contains diff-mcfg-end-bus "MCFG allocation 1 end_bus: 255 -> 127"
# SRAT is compared by its domains first; when they agree, field by field. MADT field by field.
for side in a b; do mkdir -p "$T_DIR/s-$side/sys/firmware/acpi/tables"; done
python3 - "$T_DIR" <<'PY'
import struct, sys
def table(sig, body):
    t = bytearray(sig + struct.pack("<IB", 36 + len(body), 1) + b"\0FWTESTUNITTEST" + struct.pack("<I", 1) + b"FWLN" + struct.pack("<I", 1) + body)
    t[9] = (256 - sum(t) % 256) % 256
    return bytes(t)
for side, flags, gsi in (("a", 1, 9), ("b", 3, 10)):
    memory = struct.pack("<BBIHQQIII Q", 1, 40, 0, 0, 0, 1 << 30, 0, flags, 0, 0)[:40]
    srat = table(b"SRAT", struct.pack("<I", 1) + bytes(8) + memory)
    madt = table(b"APIC", struct.pack("<II", 0xFEE00000, 1) + struct.pack("<BBBBII", 1, 12, 2, 0, 0xFEC00000, 0) +
                 struct.pack("<BBBBIH", 2, 10, 0, 9, gsi, 0xD))
    for name, data in (("SRAT", srat), ("APIC", madt)):
        open("%s/s-%s/sys/firmware/acpi/tables/%s" % (sys.argv[1], side, name), "wb").write(data)
PY
t_run diff-srat-madt-fields 1 fwlens diff "$T_DIR/s-a" "$T_DIR/s-b"
t_contains diff-srat-falls-back-to-fields "SRAT memory affinity 1 flags: 0x1 (Enabled) -> 0x3 (Enabled|HotPluggable)"
t_contains diff-madt-fields "MADT interrupt source override 1 gsi: 9 -> 10"
