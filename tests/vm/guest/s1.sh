# Scenario 5, first capture (the boot before the change).
fwlens snapshot capture -q --image-ref /lab/in/image.cap -o /lab/s1.fwsnap 2>/lab/s1.err
echo $? >/lab/s1.rc
