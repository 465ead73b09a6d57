# The security report (guest side): what Linux shows about what `doctor --profile security`
# judges (the Secure Boot variables, /dev/kvm and /dev/sev, the memlock limit, HWCR and SMM_ADDR
# read with dd through the msr module when the lab kernel has it), then a capture as root and the
# report on it, as the guest it is and judged as a host (--role host). Runs last in its boot: the
# msr module it loads is not there for the other parts.
G=8be4df61-93ca-11d2-aa0d-00e098032b8c
S=d719b2cb-3d3a-4596-a3bc-dad00e67656f
if [ ! -f /lib/modules/msr.ko ]; then
	echo "absent: the lab kernel has no msr module" >/lab/msr-state.txt
elif insmod /lib/modules/msr.ko 2>/lab/msr-insmod.err; then
	echo "loaded" >/lab/msr-state.txt
else
	echo "absent: insmod msr.ko failed: $(head -n 1 /lab/msr-insmod.err)" >/lab/msr-state.txt
fi
for v in SecureBoot-$G SetupMode-$G PK-$G KEK-$G db-$S dbx-$S; do
	f=/sys/firmware/efi/efivars/$v
	if [ -e "$f" ]; then echo "${v%%-*} $(od -An -tx1 "$f" | tr -s ' \n' '  ')"; else echo "${v%%-*} absent"; fi
done >/lab/sec-efivars.txt
for d in /dev/kvm /dev/sev; do
	if [ -e "$d" ]; then echo "$d present"; else echo "$d absent"; fi
done >/lab/sec-devices.txt
grep 'Max locked memory' /proc/self/limits >/lab/sec-memlock.txt
grep -c '^processor' /proc/cpuinfo >/lab/sec-cpus.txt
# MSRs read with dd: the msr device reads the MSR whose number is the file offset, 8 bytes at a time
: >/lab/sec-msr.txt
for c in /dev/cpu/[0-9]*; do
	[ -e "$c/msr" ] || continue
	for m in C0010010 C0010015 C0010112 C0010113; do
		if v=$(dd if="$c/msr" bs=8 count=1 iflag=skip_bytes skip=$((0x$m)) 2>/lab/sec-dd.err | od -An -tx8) &&
			[ -n "$(echo "$v" | tr -d ' ')" ]; then
			echo "${c##*/} $m 0x$(echo "$v" | tr -d ' ')"
		else
			echo "${c##*/} $m error $(grep -o 'Input/output error\|Permission denied\|No such device' /lab/sec-dd.err | head -n 1)"
		fi
	done >>/lab/sec-msr.txt
done
fwlens snapshot capture -q -o /lab/sec.fwsnap 2>/lab/sec-capture.err
echo $? >/lab/sec-capture.rc
fwlens doctor /lab/sec.fwsnap --profile security --format json >/lab/sec-guest.json 2>/lab/sec-guest.err
echo $? >/lab/sec-guest.rc
fwlens doctor /lab/sec.fwsnap --role host --profile security --format json >/lab/sec-host.json 2>/lab/sec-host.err
echo $? >/lab/sec-host.rc
