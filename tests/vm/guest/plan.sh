# Scenario 4, second boot: plan one setting from the live machine, run the efivarfs script on the
# real efivarfs (the variable file is immutable now), read back, verify before the reboot.
name=AmdSetupBRH-3a997502-647a-4c82-998e-52ef9486a247
cd /lab || exit 1
lsattr -d /sys/firmware/efi/efivars/$name >/lab/plan-lsattr-before.txt 2>&1
fwlens plan / --image /lab/in/image.cap --set 'SEV-ES ASID Space Limit=100' --format json -o plan.json 2>plan-json.err
fwlens plan / --image /lab/in/image.cap --set 'SEV-ES ASID Space Limit=100' --format efivarfs -o apply.sh 2>plan-sh.err
# a second plan from the same bytes, to another value: stale once apply.sh has written
fwlens plan / --image /lab/in/image.cap --set 'SEV-ES ASID Space Limit=50' --format efivarfs -o other.sh 2>plan-other.err
BACKUP=/lab/backup sh apply.sh >dry-run.out 2>&1
echo $? >dry-run.rc
BACKUP=/lab/backup sh apply.sh --apply >apply.out 2>&1
echo $? >apply.rc
lsattr -d /sys/firmware/efi/efivars/$name >/lab/plan-lsattr-after.txt 2>&1
od -An -v -tx1 /sys/firmware/efi/efivars/$name | tr -d ' \n' >/lab/after-apply.hex
fwlens plan / --image /lab/in/image.cap --verify plan.json >verify-before.out 2>&1
echo $? >verify-before.rc
