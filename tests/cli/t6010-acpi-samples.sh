#!/bin/sh
# fwlens acpi on the synthetic ESC8000A-E13 machines (build/samples): every table of both live
# roots, their topology (8 root bridges, 8 IOMMUs, a Generic Initiator per GPU; NPS1 in 1104,
# NPS4 in 1201) and the tables the 1104 capsule carries in raw sections.
. "$(dirname "$0")/lib.sh"

G="$FWLENS_SRCDIR/tests/cli/golden/t6010-acpi-samples"

for v in 1104 1201; do
	t_need_file "sysroot-$v" "$SAMPLES/sysroot-$v/sys/firmware/acpi/tables/IVRS" "samples not built (make samples)" || continue
	t_golden "tables-$v" "$G/sysroot-$v.txt" t_in_dir "$SAMPLES" fwlens acpi "sysroot-$v"
	t_run "tables-$v-json" 0 fwlens acpi "$SAMPLES/sysroot-$v" --format json && t_contains "ivrs-$v-snp" '"SNP"'
	if t_need_cmd "topo-$v" iasl; then
		t_golden "topo-$v" "$G/topo-$v.txt" t_in_dir "$SAMPLES" fwlens acpi topo "sysroot-$v"
		t_golden "topo-$v-json" "$G/topo-$v.json" t_in_dir "$SAMPLES" fwlens acpi topo "sysroot-$v" --format json
	fi
done
# The JSON contract on one machine (the other differs in SRAT/SSDT domains only, covered above).
if t_need_file json-1104 "$SAMPLES/sysroot-1104/sys/firmware/acpi/tables/IVRS" "samples not built (make samples)"; then
	t_golden json-1104 "$G/sysroot-1104.json" t_in_dir "$SAMPLES" fwlens acpi sysroot-1104 --format json
fi
if t_need_file capsule-1104 "$SAMPLES/ESC8000A-E13-ASUS-1104.CAP" "samples not built (make samples)"; then
	t_golden capsule-1104 "$G/capsule-1104.txt" t_in_dir "$SAMPLES" fwlens acpi ESC8000A-E13-ASUS-1104.CAP
fi
