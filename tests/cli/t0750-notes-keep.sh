#!/bin/sh
# notes: the GPU owners, NUMA and evidence sections on the sample machine, and the blocks the
# reader writes into the notes file survive `notes -o FILE` rewriting it.
. "$(dirname "$0")/lib.sh"

t_need_file samples-present "$SAMPLES/sysroot-1104" "the samples are not built (make samples)" || exit 0
M="$SAMPLES/sysroot-1104"
IMG="$SAMPLES/ESC8000A-E13-ASUS-1104.CAP"
t_run notes-write 0 fwlens notes "$M" --image "$IMG" -o "$T_DIR/v2.md"
cp "$T_DIR/v2.md" "$T_OUT"
t_contains notes-driver "- GPU driver: NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  575.57.08"
t_contains notes-owner-vm "| 0000:a3:00.0 | NVIDIA Corporation GB202GL [RTX PRO 6000 Blackwell Server Edition] (10de:2bb5) | not known | vfio-pci | 33 (DMA-FQ) | 1 | VM 100 (SEV-SNP) | etc/pve/qemu-server/100.conf: hostpci0: 0000:a3:00.0,pcie=1 |"
t_contains notes-owner-ct "| 0000:23:00.0 | NVIDIA RTX PRO 6000 Blackwell Server Edition (10de:2bb5) | 98.02.6a.00.05 | nvidia | 13 (DMA-FQ) | 0 | container 200 | etc/pve/lxc/200.conf: lxc.mount.entry: /dev/nvidia0 dev/nvidia0 none bind,optional,create=file |"
t_contains notes-nps "- NPS setting: NPS1 (AmdSetupBRH@0x"
t_contains notes-pxm "  - PXM 1 -> socket 1"
t_contains notes-evidence "- \`kernel-iommu-mode\` (pass):"
t_contains notes-block "<!-- fwlens:keep decisions -->"
# the reader fills the decisions block; the next run keeps it
python3 - "$T_DIR/v2.md" <<'PY'
import sys
p = sys.argv[1]
s = open(p).read()
a = s.index("<!-- fwlens:keep decisions -->\n") + len("<!-- fwlens:keep decisions -->\n")
b = s.index("<!-- fwlens:end decisions -->")
open(p, "w").write(s[:a] + "Kept translated domains and NCCL_P2P_DISABLE=1 (identity broke the FSP).\n" + s[b:])
PY
t_run notes-rewrite 0 fwlens notes "$M" --image "$IMG" -o "$T_DIR/v2.md"
cp "$T_DIR/v2.md" "$T_OUT"
t_contains notes-kept "Kept translated domains and NCCL_P2P_DISABLE=1 (identity broke the FSP)."
t_run notes-stdout 0 fwlens notes "$M" --image "$IMG"
grep -q "Kept translated" "$T_OUT" && fail notes-stdout-fresh "standard output took a block from elsewhere" || pass notes-stdout-fresh
t_run notes-identity 0 fwlens notes "$SAMPLES/sysroot-1104-identity" --image "$IMG"
t_contains notes-identity-mode "- IOMMU mode: translated (the default: no iommu=pt on the command line); groups 13, 15, 21, 23 identity now (switched after boot), not translated"
