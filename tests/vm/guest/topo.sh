# Scenario 1 (guest side): what Linux says about every PCI device, fwlens' topology and table
# decode, and the tables themselves for iasl -d on the host.
for d in /sys/bus/pci/devices/*; do
	g=$(readlink "$d/iommu_group" 2>/dev/null)
	echo "$(basename "$d") $(cat "$d/numa_node") ${g##*/}"
done >/lab/sysfs-pci.txt
ls /sys/kernel/iommu_groups >/lab/sysfs-groups.txt
mkdir -p /lab/tables
for t in /sys/firmware/acpi/tables/*; do [ -f "$t" ] && cat "$t" >"/lab/tables/$(basename "$t")"; done
fwlens acpi topo / --format json >/lab/topo.json 2>/lab/topo.err
echo $? >/lab/topo.rc
fwlens acpi / --format json >/lab/acpi.json 2>/lab/acpi.err
echo $? >/lab/acpi.rc
# iasl in the guest, on the tables Linux exposes (fwlens runs it for the DSDT's root bridges)
mkdir -p /tmp/iasl && cp /lab/tables/DSDT /tmp/iasl/dsdt.dat && (cd /tmp/iasl && iasl -d dsdt.dat >/dev/null 2>&1)
[ -f /tmp/iasl/dsdt.dsl ] && cp /tmp/iasl/dsdt.dsl /lab/dsdt.dsl
