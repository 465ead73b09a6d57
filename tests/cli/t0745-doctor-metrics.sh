#!/bin/sh
# doctor --format prometheus|openmetrics: a snapshot of a named sample host taken at a known time;
# every check's status, the counts and the versions as samples labelled by host, checked against
# the same run's JSON; promtool lints the 0.0.4 text where installed. The systemd units the Debian
# package ships pass systemd-analyze verify, and the service scores "OK" or better in
# systemd-analyze security with the three capabilities the capture needs.
. "$(dirname "$0")/lib.sh"

CAP="$SAMPLES/ESC8000A-E13-ASUS-1104.CAP"
t_need_file metrics "$CAP" "the sample capsules are built by make samples" || exit 0
t_need_cmd metrics jq || exit 0

cp -a "$SAMPLES/sysroot-1104" "$T_DIR/root"
echo gpu07 >"$T_DIR/root/proc/sys/kernel/hostname"
SOURCE_DATE_EPOCH=1767225600 fwlens snapshot capture -q --root "$T_DIR/root" --image "$CAP" -o "$T_DIR/h.fwsnap"
SNAP="$T_DIR/h.fwsnap"
fwlens doctor "$SNAP" -q --format json >"$T_DIR/doctor.json"

for fmt in prometheus openmetrics; do
	t_run "$fmt-exit-1-on-fail" 1 fwlens doctor "$SNAP" -q --format $fmt
	cp "$T_OUT" "$T_DIR/$fmt.txt"
	# each check: 1 at the status the JSON gives, 0 at the other three
	label=status
	[ $fmt = openmetrics ] && label=fwlens_doctor_check_status
	bad=$(jq -r '.checks[] | [.id, .status] | @tsv' "$T_DIR/doctor.json" | while IFS='	' read -r id st; do
		for s in pass warn fail skip pending accepted; do
			v=0
			[ "$s" = "$st" ] && v=1
			grep -qxF "fwlens_doctor_check_status{host=\"gpu07\",check=\"$id\",$label=\"$s\"} $v" "$T_DIR/$fmt.txt" ||
				echo "$id/$s"
		done
	done)
	n=$(jq '.checks | length' "$T_DIR/doctor.json")
	lines=$(grep -c '^fwlens_doctor_check_status{' "$T_DIR/$fmt.txt")
	[ -z "$bad" ] && [ "$n" -gt 20 ] && [ "$lines" -eq $((n * 6)) ] && pass "$fmt-check-states" ||
		fail "$fmt-check-states" "$lines lines for $n checks; wrong: $(echo $bad | head -c 200)"
	bad=""
	for s in pass warn fail skip; do
		want=$(jq --arg s $s '[.checks[] | select(.status == $s)] | length' "$T_DIR/doctor.json")
		grep -qxF "fwlens_doctor_checks{host=\"gpu07\",status=\"$s\"} $want" "$T_DIR/$fmt.txt" || bad="$bad $s"
	done
	[ -z "$bad" ] && pass "$fmt-counts" || fail "$fmt-counts" "wrong counts:$bad"
	# 2026-01-01T00:00:00Z, from the snapshot's manifest
	grep -qxF 'fwlens_snapshot_captured_timestamp_seconds{host="gpu07"} 1767225600' "$T_DIR/$fmt.txt" &&
		pass "$fmt-capture-time" || fail "$fmt-capture-time" "$(grep captured "$T_DIR/$fmt.txt")"
	grep -qxF 'fwlens_bios_info{host="gpu07",version="1104",source="DMI"} 1' "$T_DIR/$fmt.txt" &&
		grep -qxF 'fwlens_agesa_info{host="gpu07",version="TurinPI-SP5 1.0.0.4",source="AGESA! marker"} 1' "$T_DIR/$fmt.txt" &&
		grep -qxF 'fwlens_sev_firmware_info{host="gpu07",version="1.55 build 21",source="kernel log"} 1' "$T_DIR/$fmt.txt" &&
		pass "$fmt-versions" || fail "$fmt-versions" "$(grep _info "$T_DIR/$fmt.txt" | tr '\n' ' ')"
done

# OpenMetrics: typed families (stateset, info, a gauge with its unit), one "# EOF" at the end
grep -qxF '# TYPE fwlens_doctor_check_status stateset' "$T_DIR/openmetrics.txt" &&
	grep -qxF '# TYPE fwlens_bios info' "$T_DIR/openmetrics.txt" &&
	grep -qxF '# UNIT fwlens_snapshot_captured_timestamp_seconds seconds' "$T_DIR/openmetrics.txt" &&
	[ "$(tail -n 1 "$T_DIR/openmetrics.txt")" = "# EOF" ] && [ "$(grep -c '^# EOF' "$T_DIR/openmetrics.txt")" -eq 1 ] &&
	pass openmetrics-families || fail openmetrics-families "$(grep '^# [TU]' "$T_DIR/openmetrics.txt" | tr '\n' ' ')"

# A host name with a quote and a backslash stays one label value.
printf 'odd"host\\\n' >"$T_DIR/root/proc/sys/kernel/hostname"
fwlens doctor "$T_DIR/root" -q --format prometheus >"$T_DIR/odd.txt"
grep -qF 'fwlens_doctor_checks{host="odd\"host\\",status="pass"}' "$T_DIR/odd.txt" && pass label-escaped ||
	fail label-escaped "$(grep -m1 fwlens_doctor_checks "$T_DIR/odd.txt")"

if t_need_cmd promtool-lint promtool; then
	for f in prometheus odd; do
		if promtool check metrics <"$T_DIR/$f.txt" >"$T_DIR/lint" 2>&1; then pass "promtool-$f"; else
			fail "promtool-$f" "$(head -c 300 "$T_DIR/lint")"; fi
	done
fi

# The Debian package's units, with the program path of this build.
if t_need_cmd systemd-units systemd-analyze; then
	for u in service timer; do
		sed "s|/usr/bin/fwlens|$FWLENS|g" "$FWLENS_SRCDIR/debian/fwlens.fwlens-doctor.$u" >"$T_DIR/fwlens-doctor.$u"
	done
	if systemd-analyze verify --man=no "$T_DIR/fwlens-doctor.service" "$T_DIR/fwlens-doctor.timer" >"$T_DIR/verify" 2>&1 &&
		[ ! -s "$T_DIR/verify" ]; then
		pass systemd-analyze-verify
	else
		fail systemd-analyze-verify "$(head -c 300 "$T_DIR/verify")"
	fi
	# the sandbox: "OK" or better (exposure below 2.0; 9.0 is UNSAFE); the capabilities are exactly
	# the three the capture's reads need, the network is gone, the devices are the MSR and SEV ones
	if systemd-analyze security --offline=true --threshold=19 "$T_DIR/fwlens-doctor.service" >"$T_DIR/security" 2>&1; then
		score=$(sed -n 's/^→ Overall exposure level for fwlens-doctor.service: \([0-9.]*\) \([A-Z]*\).*/\1 \2/p' "$T_DIR/security")
		case "$score" in
		"1."[0-9]" OK" | "0."[0-9]" "*) pass systemd-analyze-security ;;
		*) fail systemd-analyze-security "score '$score': $(tail -n 3 "$T_DIR/security" | head -c 300)" ;;
		esac
	else
		fail systemd-analyze-security "$(tail -n 3 "$T_DIR/security" | head -c 300)"
	fi
	[ "$(sed -n 's/^CapabilityBoundingSet=//p' "$T_DIR/fwlens-doctor.service")" = "CAP_SYS_RAWIO CAP_SYS_ADMIN CAP_SYSLOG" ] &&
		grep -qx 'PrivateNetwork=yes' "$T_DIR/fwlens-doctor.service" && grep -qx 'RestrictAddressFamilies=none' "$T_DIR/fwlens-doctor.service" &&
		grep -qx 'DevicePolicy=closed' "$T_DIR/fwlens-doctor.service" &&
		[ "$(sed -n 's/^DeviceAllow=//p' "$T_DIR/fwlens-doctor.service" | tr '\n' ,)" = "char-cpu/msr r,/dev/sev r," ] &&
		grep -q '^✗ CapabilityBoundingSet=~CAP_SYS_RAWIO ' "$T_DIR/security" && grep -q '^✓ CapabilityBoundingSet=~CAP_NET_ADMIN ' "$T_DIR/security" &&
		grep -q '^✓ PrivateNetwork=' "$T_DIR/security" && grep -q '^✓ SystemCallFilter=~@privileged ' "$T_DIR/security" &&
		pass units-sandbox-capabilities || fail units-sandbox-capabilities "$(grep -E '^(Capability|Device|Private|Restrict)' "$T_DIR/fwlens-doctor.service" | tr '\n' ' ')"
	grep -q '^OnBootSec=3min$' "$T_DIR/fwlens-doctor.timer" && pass timer-runs-after-boot || fail timer-runs-after-boot "no OnBootSec"
	grep -q '^OnCalendar=daily$' "$T_DIR/fwlens-doctor.timer" &&
		grep -q '^ExecStart=.* doctor .*--format prometheus -o /var/lib/prometheus/node-exporter/fwlens.prom$' "$T_DIR/fwlens-doctor.service" &&
		pass units-daily-textfile || fail units-daily-textfile "timer or service lines changed"
fi
