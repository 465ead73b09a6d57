# Scenario 4 and 5, third boot: the change is in effect after the reboot; the plan's script run
# again says "already set"; a plan made from the old bytes to another value finds neither its old
# nor its new bytes and refuses without writing; the second capture.
name=AmdSetupBRH-3a997502-647a-4c82-998e-52ef9486a247
cd /lab || exit 1
fwlens plan / --image /lab/in/image.cap --verify /lab/in/plan.json >verify-after.out 2>&1
echo $? >verify-after.rc
od -An -v -tx1 /sys/firmware/efi/efivars/$name | tr -d ' \n' >/lab/stale-before.hex
BACKUP=/lab/backup-again sh /lab/in/apply.sh --apply >again.out 2>&1
echo $? >again.rc
BACKUP=/lab/backup-stale sh /lab/in/other.sh --apply >stale.out 2>&1
echo $? >stale.rc
od -An -v -tx1 /sys/firmware/efi/efivars/$name | tr -d ' \n' >/lab/stale-after.hex
fwlens snapshot capture -q --image-ref /lab/in/image.cap -o /lab/s2.fwsnap 2>/lab/s2.err
echo $? >/lab/s2.rc
