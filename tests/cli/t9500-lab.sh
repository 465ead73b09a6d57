#!/bin/sh
# The real-kernel lab (tests/vm/README.md): Debian's kernel under QEMU (TCG) with OVMF, an
# emulated AMD IOMMU and two NUMA nodes, running this build of fwlens. Three boots share one
# OVMF VARS file; each scenario's guest part writes what Linux and fwlens said, and this side
# asserts they agree. Skips with the reason when QEMU, OVMF, busybox-static or the kernel are
# not there (tools/deps.sh installs and fetches them), or under a sanitizer build.
. "$(dirname "$0")/lib.sh"
LAB_SH="$FWLENS_SRCDIR/tests/vm/lab.sh"
export LAB="$FWLENS_BUILD/lab"
CAP="$SAMPLES/ESC8000A-E13-ASUS-1104.CAP"
VAR=AmdSetupBRH-3a997502-647a-4c82-998e-52ef9486a247
case $FWLENS_BUILD in */sanitize) skip lab "not run under a sanitizer build (the plain build runs it)"; exit 0 ;; esac
[ "${FWLENS_LAB:-1}" = 0 ] && { skip lab "FWLENS_LAB=0"; exit 0; }
t_need_file lab "$CAP" "the samples (make samples)" || exit 0
why=$(sh "$LAB_SH" prepare 2>&1)
if [ $? -ne 0 ]; then skip lab "$why"; exit 0; fi
OUT="$LAB/out"
rm -rf "$OUT" "$LAB/lab.vars"
mkdir -p "$OUT/a/in" "$OUT/b/in" "$OUT/c/in"
cp "$SAMPLES/sysroot-1104/sys/firmware/efi/efivars/$VAR" "$OUT/a/in/"
# SEV-ES ASID Space Limit 1 (AmdSetupBRH+0x35, after the 4 attribute bytes): the plan sets 100
printf '\001\000\000\000' | dd of="$OUT/a/in/$VAR" bs=1 seek=$((4 + 0x35)) conv=notrunc 2>/dev/null
ln "$CAP" "$OUT/b/in/image.cap" 2>/dev/null || cp "$CAP" "$OUT/b/in/image.cap"
ln "$CAP" "$OUT/c/in/image.cap" 2>/dev/null || cp "$CAP" "$OUT/c/in/image.cap"
json() { python3 "$FWLENS_SRCDIR/tests/cli/lab_check.py" "$@"; }

start=$(date +%s)
booted() {
	if sh "$LAB_SH" boot "$@" 2>"$T_ERR"; then
		pass "boot-$1"
		echo "# lab boot $1: $(cat "$OUT/$1.seconds") s" >&2
		return 0
	fi
	fail "boot-$1" "$(tail -c 400 "$T_ERR" | tr '\n' ' ')"
	return 1
}

# Boot a: passthrough default domains; topology, the plain VM, the live kernel log, the identity
# groups, the variable the change is planned on, and last (it loads the msr module) the security report.
if booted a "$LAB/lab.vars" topo,plain,kmsg,passthrough,seed,security iommu.passthrough=1 lab.boot=a; then
	A=$OUT/a
	# 1. topology: every device's NUMA node and IOMMU group as Linux gives them
	[ "$(cat "$A/topo.rc")" = 0 ] && pass topo-runs || fail topo-runs "exit $(cat "$A/topo.rc"): $(head -c 300 "$A/topo.err")"
	json topo "$A" && pass topo-agrees-with-sysfs || fail topo-agrees-with-sysfs "see above"
	json ivrs "$A" && pass ivrs-covers-groups || fail ivrs-covers-groups "see above"
	json tables "$A" && pass tables-decode || fail tables-decode "see above"
	if command -v iasl >/dev/null 2>&1; then
		json iasl "$A" && pass tables-agree-with-iasl || fail tables-agree-with-iasl "see above"
	else
		skip tables-agree-with-iasl "iasl is not installed"
	fi
	# 6. the plain VM
	[ "$(cat "$A/doctor-plain.rc")" = 0 ] && pass plain-doctor-exit-0 || fail plain-doctor-exit-0 "exit $(cat "$A/doctor-plain.rc")"
	json plain "$A" && pass plain-nothing-failed-no-gpu || fail plain-nothing-failed-no-gpu "see above"
	# 3. the live kernel log
	json kmsg "$A" && pass kmsg-live-log || fail kmsg-live-log "see above"
	# 2a. every group identity when booted with iommu.passthrough=1
	json passthrough "$A" && pass passthrough-identity || fail passthrough-identity "see above"
	# 4. OVMF's own forms: the TCG2 varstores have no runtime access, efivarfs cannot write them
	json tcg2 "$A" && pass ovmf-tcg2-refused || fail ovmf-tcg2-refused "see above"
	[ "$(cat "$A/seed.rc")" = 0 ] && pass seed-variable || fail seed-variable "writing $VAR through efivarfs failed"
	# 7. the security report: skipped as a guest; as a host, OVMF's Secure Boot variables, no /dev/kvm
	# or /dev/sev, the memlock limit and the MSRs dd reads through the msr module decide each verdict
	json security "$A" && pass security-report-agrees || fail security-report-agrees "see above"
	echo "# lab security: msr module $(cat "$A/msr-state.txt")" >&2
fi

# Boot b (translated domains): first capture, a group switched at runtime, the change applied
if booted b "$LAB/lab.vars" s1,domains,plan lab.boot=b; then
	B=$OUT/b
	json domains "$B" && pass domain-switch || fail domain-switch "see above"
	json applied "$B" && pass efivarfs-applied || fail efivarfs-applied "see above"
	cp "$B/plan.json" "$B/apply.sh" "$B/other.sh" "$OUT/c/in/"
fi

# Boot c, same VARS file: in effect after the reboot, a stale plan refused, second capture
if booted c "$LAB/lab.vars" after lab.boot=c; then
	C=$OUT/c
	json after "$C" && pass plan-in-effect-after-reboot || fail plan-in-effect-after-reboot "see above"
	json stale "$C" && pass stale-plan-refused || fail stale-plan-refused "see above"
	# 5. two boots, one diff: the command line and the changed variable
	t_exec fwlens diff "$OUT/b/s1.fwsnap" "$C/s2.fwsnap" --image-dir "$OUT/c/in" --format json
	cp "$T_OUT" "$C/diff.json"
	json diff "$C" && pass diff-two-boots || fail diff-two-boots "exit $T_STATUS; see above"
fi
echo "# lab: $(($(date +%s) - start)) s in all" >&2
