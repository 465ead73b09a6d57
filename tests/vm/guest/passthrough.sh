# Scenario 2a (guest side): booted with iommu.passthrough=1; what sysfs says and what fwlens says.
for g in /sys/kernel/iommu_groups/*; do echo "${g##*/} $(cat "$g/type")"; done >/lab/pt-sysfs-types.txt
fwlens doctor / --role host --format json >/lab/pt-doctor.json 2>/lab/pt-doctor.err
fwlens snapshot capture -q -o /lab/pt.fwsnap 2>/lab/pt-capture.err
fwlens notes / -o /lab/pt-notes.md 2>/lab/pt-notes.err
echo $? >/lab/pt-notes.rc
