# Scenario 4, first boot: create the setup variable of the sample BIOS in OVMF's variable store
# through efivarfs (a new non-volatile variable, kept in the VARS file across reboots).
name=AmdSetupBRH-3a997502-647a-4c82-998e-52ef9486a247
cat /lab/in/$name >/sys/firmware/efi/efivars/$name
echo $? >/lab/seed.rc
od -An -v -tx1 /sys/firmware/efi/efivars/$name | tr -d ' \n' >/lab/seed.hex
# OVMF's own forms: the TCG2 varstores are EFI variables without runtime access
fwlens plan / --image /usr/share/OVMF/OVMF_CODE_4M.fd --set 'Attempt TPM Device=TPM 2.0' --format json >/lab/tcg2-plan.json 2>/lab/tcg2-plan.err
echo $? >/lab/tcg2-plan.rc
ls /sys/firmware/efi/efivars >/lab/efivars-a.txt
