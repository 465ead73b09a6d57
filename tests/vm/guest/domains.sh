# Scenario 2b (guest side): one device's group switched to identity at runtime and back
# (unbind, write the type, bind), with sysfs, doctor, capture and notes at each state.
dev=0000:41:00.0
g=$(readlink /sys/bus/pci/devices/$dev/iommu_group); g=${g##*/}
echo "$g" >/lab/dom-group.txt
drv=$(readlink /sys/bus/pci/devices/$dev/driver); drv=${drv##*/}
echo "$drv" >/lab/dom-driver.txt
state() {
	cat /sys/kernel/iommu_groups/$g/type >"/lab/dom-$1-sysfs.txt"
	fwlens doctor / --role host --format json >"/lab/dom-$1-doctor.json" 2>/dev/null
	fwlens snapshot capture -q -o "/lab/dom-$1.fwsnap" 2>/dev/null
	fwlens notes / -o "/lab/dom-$1-notes.md" 2>/dev/null
}
switch() {
	[ -n "$drv" ] && echo $dev >/sys/bus/pci/drivers/$drv/unbind
	echo "$1" >/sys/kernel/iommu_groups/$g/type || echo "write $1 failed" >>/lab/dom-errors.txt
	[ -n "$drv" ] && echo $dev >/sys/bus/pci/drivers/$drv/bind
}
state before
switch identity
state identity
switch DMA
state back
