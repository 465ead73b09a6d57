# Scenario 6 (guest side): doctor on a plain VM, as it is.
fwlens doctor / --format json >/lab/doctor-plain.json 2>/lab/doctor-plain.err
echo $? >/lab/doctor-plain.rc
for d in /sys/bus/pci/devices/*; do echo "$(basename "$d") $(cat "$d/vendor" "$d/device" "$d/class" | tr '\n' ' ')"; done >/lab/pci-ids.txt
