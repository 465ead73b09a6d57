#!/bin/sh
# PCI device names from the system's PCI ID database (Debian's pci.ids through libpci), beside the
# ids, in notes, doctor and the topology: one sample GPU given the id of a device the database
# names (10de:2331, "GH100 [H100 PCIe]"), another an id it lacks (10de:fff0: the ids alone);
# FWLENS_PCI_IDS names another database, an empty one gives ids only.
. "$(dirname "$0")/lib.sh"

IDS=/usr/share/misc/pci.ids
CAP="$SAMPLES/ESC8000A-E13-ASUS-1201.CAP"
t_need_file pci-names "$CAP" "the sample capsules are built by make samples" || exit 0
t_need_file pci-names "$IDS" "Debian's pci.ids (package pci.ids)" || exit 0
if ! grep -q '^	2331  GH100 \[H100 PCIe\]$' "$IDS" || grep -q '^	fff0 ' "$IDS"; then
	skip pci-names "this pci.ids names 10de:2331 and 10de:fff0 otherwise than Debian 12's"
	exit 0
fi
unset FWLENS_PCI_IDS # the system's database

cp -a "$SAMPLES/sysroot-1201" "$T_DIR/root"
# a device's id is in its configuration space (bytes 2-3) and in its sysfs "device" file
set_device() {
	dir="$T_DIR/root/sys/bus/pci/devices/$1"
	python3 -c 'import sys; p = sys.argv[1] + "/config"; b = bytearray(open(p, "rb").read()); b[2:4] = int(sys.argv[2], 16).to_bytes(2, "little"); open(p, "wb").write(b)' "$dir" "$2"
	echo "0x$2" >"$dir/device"
}
set_device 0000:23:00.0 2331
# without the driver's own model name doctor takes the database's
rm -f "$T_DIR/root/proc/driver/nvidia/gpus/0000:23:00.0/information"
set_device 0000:24:00.0 fff0

t_run notes 0 fwlens notes "$T_DIR/root" --image "$CAP"
t_contains notes-name-with-ids "| 0000:23:00.0 NVIDIA Corporation GH100 [H100 PCIe] (10de:2331) | nvidia |"
t_contains notes-ids-alone "| 0000:24:00.0 10de:fff0 | nvidia |"

t_run topo 0 fwlens acpi topo "$T_DIR/root" --format dot
grep -qF 'label="GPU 0000:23:00.0
NVIDIA Corporation GH100 [H100 PCIe] (10de:2331)
owner:' "$T_OUT" && grep -qF 'label="GPU 0000:24:00.0
10de:fff0
owner:' "$T_OUT" && pass topo-names || fail topo-names "$(grep -A1 'GPU 0000:2[34]' "$T_OUT" | head -c 300)"

fwlens doctor "$T_DIR/root" --image "$CAP" --format json -q >"$T_DIR/doctor.json"
grep -qF '0000:23:00.0 NVIDIA Corporation GH100 [H100 PCIe] (10de:2331)' "$T_DIR/doctor.json" &&
	! grep -qF 'GH100 [H100 PCIe] (10de:2331) (10de' "$T_DIR/doctor.json" && pass doctor-names ||
	fail doctor-names "$(grep -o '0000:23:00.0[^"]\{0,80\}' "$T_DIR/doctor.json" | head -n 3)"

# another database: an empty one names nothing
: >"$T_DIR/empty.ids"
FWLENS_PCI_IDS="$T_DIR/empty.ids" fwlens notes "$T_DIR/root" --image "$CAP" >"$T_OUT" 2>"$T_ERR"
t_contains empty-database-ids-alone "| 0000:23:00.0 10de:2331 | nvidia |"
