#!/bin/sh
# doctor and notes on the sample ESC8000A-E13 machines, captured as snapshots with their BIOS
# images: the doctor names the faulting GPUs, their groups, the translation mode and the ACS path;
# the notes of 1201 against 1104 are held whole in a golden file.
. "$(dirname "$0")/lib.sh"
G="$FWLENS_SRCDIR/tests/cli/golden/t0730-samples"

t_need_file samples-present "$SAMPLES/sysroot-1104" "the samples are not built (make samples)" || exit 0
for v in 1104 1201; do
	SOURCE_DATE_EPOCH=1767225600 t_run "capture-$v" 0 fwlens snapshot capture --root "$SAMPLES/sysroot-$v" \
		--image "$SAMPLES/ESC8000A-E13-ASUS-$v.CAP" -o "$T_DIR/s$v.fwsnap" -q
done

T_EXIT=1 t_golden doctor-1104-json "$G/doctor-1104.json" t_in_dir "$T_DIR" "$FWLENS" doctor s1104.fwsnap --format json
python3 - "$T_OUT" <<'PY' && pass doctor-1104-finding || fail doctor-1104-finding "the P2P finding lacks a fact"
import json, sys
d = json.load(open(sys.argv[1]))
checks = {c["id"]: c for c in d["checks"]}
assert len(checks) >= 15
f = checks["p2p-io-page-faults"]
assert f["status"] == "fail"
e = f["explanation"]
# both GPUs by PCI address, their IOMMU groups, the translation mode, the ACS path, the fix
assert "GPU 0000:23:00.0 (IOMMU group 13, DMA-FQ)" in e and "BAR1 of GPU 0000:24:00.0 (group 15, DMA-FQ)" in e, e
assert "ACS redirect" in e
assert any("0000:22:00.0 (Downstream Port): ACS at 0x170" in x["text"] and "ReqRedir+" in x["text"]
           and x["from"] == "sys/bus/pci/devices/0000:22:00.0/config" for x in f["evidence"])
assert "NCCL_P2P_DISABLE=1" in f["fix"] and "iommu=pt" in f["fix"]
for c in d["checks"]:
    assert c["status"] in ("pass", "warn", "fail", "skip") and c["evidence"], c["id"]
PY
t_golden notes-1201 "$G/notes-1201.md" t_in_dir "$T_DIR" "$FWLENS" notes s1201.fwsnap --previous s1104.fwsnap
t_contains notes-title "# ESC8000A-E13 UEFI settings: BIOS 1201 (08/22/2025)"
for row in "| SMEE | Setup > Advanced > AMD CBS > CPU Common Options | Enable (0x1) |" \
	"| SEV-SNP Support | Setup > Advanced > AMD CBS > NBIO Common Options > IOMMU/Security | Enable (0x1) |" \
	"| SNP Memory (RMP Table) Coverage | Setup > Advanced > AMD CBS > CPU Common Options | Enabled (0x1) |" \
	"| IOMMU | Setup > Advanced > AMD CBS > NBIO Common Options > IOMMU/Security | Enabled (0x1) |" \
	"| ACS Enable | Setup > Advanced > AMD CBS > NBIO Common Options > PCIE | Auto (0xf) |" \
	"| 0000:43:00.0 NVIDIA Corporation GB202GL [RTX PRO 6000 Blackwell Server Edition] (10de:2bb5) | nvidia |" "## Changes since s1104.fwsnap" \
	"| NUMA nodes per socket | Setup > Advanced > AMD CBS > DF Common Options > Memory Addressing | NPS1 | NPS4 |"; do
	t_contains "notes-row-$(echo "$row" | cut -d'|' -f2 | tr -cd 'a-zA-Z0-9')" "$row"
done
