# Scenario 3 (guest side): a line written to the kernel log after /var/log/dmesg was saved at
# boot (a copy of a real AMD-Vi fault line, with this VM's device), then a live capture and doctor.
line="AMD-Vi: Event logged [IO_PAGE_FAULT device=0000:41:00.0 domain=0x000c address=0xfd000000 flags=0x0020]"
echo "$line" >/dev/kmsg
echo "$line" >/lab/kmsg-line.txt
grep -c IO_PAGE_FAULT /var/log/dmesg >/lab/kmsg-in-var-log.txt
fwlens snapshot capture -q -o /lab/kmsg.fwsnap 2>/lab/kmsg-capture.err
echo $? >/lab/kmsg-capture.rc
fwlens doctor / --role host --profile p2p --format json >/lab/doctor-kmsg.json 2>/lab/doctor-kmsg.err
echo $? >/lab/doctor-kmsg.rc
