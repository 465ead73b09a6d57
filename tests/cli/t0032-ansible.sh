#!/bin/sh
# The Ansible playbooks of tools/ansible, run once each: capture.yml (--image-ref: the snapshots name
# the sample image, report.yml finds it in fwlens_image_dir) over an inventory of three
# hosts on the local connection, each reading a different sample machine as its root (two BIOS
# 1104 machines, one with the 1201 machine's state), plus a fourth whose root is missing and must
# fail with fwlens's message; then report.yml over the fetched snapshots (its rows and its gate);
# then apply.yml's BMC step (--tags bmc) against a stand-in Redfish BMC (tests/cli/redfish-bmc.py):
# the PATCH it sends, and a failure for an attribute the BMC does not have; then the whole of
# apply.yml for a plan made with fwlens (NPS4) on two hosts: the PATCH per host, capture again,
# and fwlens plan --verify, which passes on the host whose machine has NPS4 (the 1201 state) and
# fails the one still on NPS1 with the setting that differs. capture.yml refuses a host without
# fwlens when no package is given.
. "$(dirname "$0")/lib.sh"

CAP="$SAMPLES/ESC8000A-E13-ASUS-1104.CAP"
t_need_file ansible "$CAP" "the sample capsules are built by make samples" || exit 0
t_need_cmd ansible ansible-playbook || exit 0
t_need_cmd ansible jq || exit 0
PLAYBOOKS="$FWLENS_SRCDIR/tools/ansible"
. "$(dirname "$0")/ansible-lib.sh"

for spec in gpu01:1104 gpu02:1104 gpu03:1201; do
	h=${spec%%:*}
	cp -a "$SAMPLES/sysroot-${spec#*:}" "$T_DIR/$h"
	echo "$h" >"$T_DIR/$h/proc/sys/kernel/hostname"
done
{
	echo "[fleet]"
	for h in gpu01 gpu02 gpu03; do echo "$h fwlens_root=$T_DIR/$h"; done
	echo "gpu04 fwlens_root=$T_DIR/no-such-root"
	echo "[fleet:vars]"
	echo "ansible_connection=local"
} >"$T_DIR/hosts.ini"
mkdir -p "$T_DIR/work"
cd "$T_DIR/work" || exit 1

# capture: three snapshots fetched, the fourth host failed with fwlens's own message
status=0
ansible-playbook -i "$T_DIR/hosts.ini" "$PLAYBOOKS/capture.yml" -e fwlens_bin="$FWLENS" -e fwlens_become=false \
	-e "{\"fwlens_capture_options\": [\"--image-ref\", \"$CAP\"]}" >"$T_DIR/capture.log" 2>&1 || status=$?
for h in gpu01 gpu02 gpu03; do
	fwlens snapshot show "snaps/$h.fwsnap" --format json >"$T_DIR/show.json" 2>/dev/null
	[ "$(jq -r .facts.host "$T_DIR/show.json")" = "$h" ] && [ "$(jq -r .source.root "$T_DIR/show.json")" = "$T_DIR/$h" ] &&
		pass "capture-fetched-$h" || fail "capture-fetched-$h" "$(grep "\[$h\]" "$T_DIR/capture.log" | tail -n 3 | head -c 300)"
done
[ ! -e snaps/gpu04.fwsnap ] && [ "$status" -eq 2 ] && grep -q "fatal: \[gpu04\]: FAILED.*no-such-root" "$T_DIR/capture.log" &&
	grep -q "gpu01 *: ok=.*failed=0" "$T_DIR/capture.log" && pass capture-fails-host-with-message ||
	fail capture-fails-host-with-message "exit $status: $(grep -i 'gpu04' "$T_DIR/capture.log" | head -c 400)"
[ -z "$(find "$T_DIR" -maxdepth 1 -name 'ansible.*')" ] && pass capture-cleans-up ||
	fail capture-cleans-up "temporary snapshots or fetch folders left: $(find "$T_DIR" -maxdepth 1 -name 'ansible.*')"

# report: both files written; the gate fails the play because the sample machines fail a check
status=0
ansible-playbook "$PLAYBOOKS/report.yml" -e fwlens_bin="$FWLENS" -e fwlens_image_dir="$SAMPLES" >"$T_DIR/report.log" 2>&1 || status=$?
[ "$status" -eq 2 ] && grep -q "doctor failed on gpu01, gpu02, gpu03" "$T_DIR/report.log" && pass report-gate ||
	fail report-gate "exit $status: $(grep -E 'fatal|msg' "$T_DIR/report.log" | head -c 400)"
J=report/fleet.jsonl
if [ -s "$J" ] && jq -e . "$J" >/dev/null 2>&1; then pass report-jsonl-valid; else fail report-jsonl-valid "$(head -c 300 "$J" 2>&1)"; fi
# every line keyed by its snapshot and command; as many doctor lines per host as doctor prints
bad=""
for h in gpu01 gpu02 gpu03; do
	want=$(fwlens doctor "snaps/$h.fwsnap" --image "$CAP" --format jsonl -q | wc -l)
	have=$(jq -r --arg h $h 'select(.command == "doctor" and .snapshot == $h and .host == $h) | .id' "$J" | wc -l)
	[ "$want" -eq "$have" ] && [ "$have" -gt 20 ] || bad="$bad $h:$have/$want"
done
[ -z "$bad" ] && pass report-doctor-lines || fail report-doctor-lines "$bad"
[ "$(jq -r 'select(.command == "query" and .host == "gpu02" and .prompt == "SEV-ES ASID Space Limit") | .current' "$J")" = 100 ] &&
	pass report-query-lines || fail report-query-lines "no ASID limit of gpu02"
want=$(fwlens diff snaps/gpu01.fwsnap snaps/gpu03.fwsnap --image "$CAP" --format jsonl -q | wc -l)
have=$(jq -r 'select(.command == "diff" and .host == "gpu03" and .baseline_host == "gpu01") | .section' "$J" | wc -l)
none=$(jq -r 'select(.command == "diff" and .host != "gpu03") | .host' "$J" | wc -l)
[ "$want" -eq "$have" ] && [ "$have" -gt 0 ] && [ "$none" -eq 0 ] && pass report-diff-lines ||
	fail report-diff-lines "gpu03: $have of $want lines; $none lines for other hosts"
# the markdown: a row per host under the failing check, and the settings gpu03 changed, per host
M=report/fleet.md
grep -qxF "3 hosts; reference host gpu01; settings decoded with the images the snapshots name, from $SAMPLES." "$M" &&
	grep -qxF '| host | doctor | p2p-io-page-faults |' "$M" && grep -qxF '| gpu01 | fail | fail |' "$M" &&
	grep -qxF '| gpu03 | fail | fail |' "$M" && pass report-md-failing-checks ||
	fail report-md-failing-checks "$(sed -n '/Failing/,/Settings/p' "$M" | head -c 400)"
grep -qxF '| setting | gpu01 (reference) | gpu02 | gpu03 |' "$M" &&
	grep -qxF '| Setup > Advanced > AMD CBS > DF Common Options > Memory Addressing > NUMA nodes per socket | NPS1 | NPS1 | NPS4 |' "$M" &&
	[ "$(grep -c '^| .* > .* |' "$M")" -eq "$(jq -r 'select(.command == "diff" and .section == "values") | .prompt' "$J" | wc -l)" ] &&
	pass report-md-settings || fail report-md-settings "$(sed -n '/Settings that/,$p' "$M" | head -c 500)"

# apply, the BMC step: the Redfish body of a plan becomes one PATCH of the settings object with the ETag
start_bmc
{
	echo "[fleet]"
	echo "gpu01 bmc_host=127.0.0.1:$(cat "$T_DIR/bmc/port") bmc_user=admin bmc_password=admin"
	echo "[fleet:vars]"
	echo "ansible_connection=local"
} >"$T_DIR/bmc.ini"
echo '{"Attributes": {"CbsCmnSmeeCtrl": "Enabled", "CbsCmnSnpMemCover": "Enabled", "PCIS007": "Enabled"}}' >"$T_DIR/plan.redfish.json"
status=0
ansible-playbook -i "$T_DIR/bmc.ini" "$PLAYBOOKS/apply.yml" --tags bmc -e fwlens_redfish="$T_DIR/plan.redfish.json" \
	>"$T_DIR/apply.log" 2>&1 || status=$?
# PCIS007 is already Enabled: only the two changes are sent
[ "$status" -eq 0 ] && [ "$(jq -c . "$T_DIR/bmc/patches.jsonl" 2>/dev/null)" = \
	'{"path":"/redfish/v1/Systems/Self/Bios/SD","if_match":"W/\"bios-settings-1\"","body":{"Attributes":{"CbsCmnSmeeCtrl":"Enabled","CbsCmnSnpMemCover":"Enabled"}}}' ] &&
	pass apply-bmc-patch || fail apply-bmc-patch "exit $status: $(cat "$T_DIR/bmc/patches.jsonl" 2>/dev/null) $(grep -E 'fatal|msg' "$T_DIR/apply.log" | head -c 300)"
echo '{"Attributes": {"CbsCmnSmeeCtrl": "Enabled", "NoSuchAttribute": 1}}' >"$T_DIR/bad.redfish.json"
status=0
ansible-playbook -i "$T_DIR/bmc.ini" "$PLAYBOOKS/apply.yml" --tags bmc -e fwlens_redfish="$T_DIR/bad.redfish.json" \
	>"$T_DIR/apply.log" 2>&1 || status=$?
[ "$status" -eq 2 ] && grep -q "Unsupported attributes.*NoSuchAttribute" "$T_DIR/apply.log" && pass apply-bmc-unknown-attribute-fails ||
	fail apply-bmc-unknown-attribute-fails "exit $status: $(grep -E 'fatal|WARN' "$T_DIR/apply.log" | head -c 300)"
echo '{"settings": []}' >"$T_DIR/notbody.json"
status=0
ansible-playbook -i "$T_DIR/bmc.ini" "$PLAYBOOKS/apply.yml" --tags bmc -e fwlens_redfish="$T_DIR/notbody.json" \
	>"$T_DIR/apply.log" 2>&1 || status=$?
[ "$status" -eq 2 ] && grep -q "is not a Redfish BIOS body" "$T_DIR/apply.log" && pass apply-refuses-other-json ||
	fail apply-refuses-other-json "exit $status: $(grep -E 'fatal|msg' "$T_DIR/apply.log" | head -c 300)"

# apply, the whole play: the plan's Redfish body through each BMC, no prompt, capture again, verify
fwlens plan snaps/gpu01.fwsnap --image-dir "$SAMPLES" --set 'NUMA nodes per socket=NPS4' --format json -o "$T_DIR/plan.json"
fwlens plan snaps/gpu01.fwsnap --image-dir "$SAMPLES" --set 'NUMA nodes per socket=NPS4' --format redfish -o "$T_DIR/plan.redfish.json"
# the hosts boot after the plan was made (a boot time later than the plan's): verify may call values in effect
for h in gpu01 gpu03; do echo "btime $(($(date +%s) + 5))" >"$T_DIR/$h/proc/stat"; done
: >"$T_DIR/bmc/patches.jsonl"
{
	echo "[fleet]"
	for h in gpu01 gpu03; do echo "$h fwlens_root=$T_DIR/$h bmc_host=127.0.0.1:$(cat "$T_DIR/bmc/port") bmc_user=admin bmc_password=admin"; done
	echo "[fleet:vars]"
	echo "ansible_connection=local"
} >"$T_DIR/apply.ini"
status=0
ansible-playbook -i "$T_DIR/apply.ini" "$PLAYBOOKS/apply.yml" -e fwlens_wait=false -e fwlens_bin="$FWLENS" -e fwlens_become=false \
	-e "{\"fwlens_capture_options\": [\"--image-ref\", \"$CAP\"]}" -e fwlens_image_dir="$SAMPLES" -e fwlens_snaps="$T_DIR/applied" \
	-e fwlens_plan="$T_DIR/plan.json" -e fwlens_redfish="$T_DIR/plan.redfish.json" >"$T_DIR/apply.log" 2>&1 || status=$?
[ "$(jq -c .body "$T_DIR/bmc/patches.jsonl" 2>/dev/null | sort -u)" = '{"Attributes":{"CbsDfCmnDramNpsBRH":"NPS4"}}' ] &&
	[ "$(wc -l <"$T_DIR/bmc/patches.jsonl")" -eq 2 ] && pass apply-patch-per-host ||
	fail apply-patch-per-host "$(cat "$T_DIR/bmc/patches.jsonl" 2>/dev/null | head -c 300)"
[ "$(fwlens snapshot show "$T_DIR/applied/gpu01.fwsnap" --format json 2>/dev/null | jq -r .facts.host)" = gpu01 ] &&
	[ "$(fwlens snapshot show "$T_DIR/applied/gpu03.fwsnap" --format json 2>/dev/null | jq -r .facts.host)" = gpu03 ] &&
	pass apply-captures-again || fail apply-captures-again "$(ls "$T_DIR/applied" 2>&1 | head -c 200)"
[ "$status" -eq 2 ] && grep -q "fatal: \[gpu01\]: FAILED.*different  NUMA nodes per socket = NPS1 (planned NPS4)" "$T_DIR/apply.log" &&
	grep -q "gpu01 *: ok=.*failed=1" "$T_DIR/apply.log" && grep -q "gpu03 *: ok=.*failed=0" "$T_DIR/apply.log" &&
	! grep -q "fatal: \[gpu03\]" "$T_DIR/apply.log" && pass apply-verify ||
	fail apply-verify "exit $status: $(grep -E 'fatal|gpu0[13] *:' "$T_DIR/apply.log" | head -c 500)"
kill $bmc 2>/dev/null
if ansible-playbook --syntax-check "$PLAYBOOKS/apply.yml" >"$T_DIR/apply.log" 2>&1; then pass apply-syntax; else
	fail apply-syntax "$(tail -c 300 "$T_DIR/apply.log")"; fi

# capture.yml on a host without fwlens and without a package to install: refused by name
status=0
ansible-playbook -i "$T_DIR/hosts.ini" "$PLAYBOOKS/capture.yml" --limit gpu01 -e fwlens_bin="$T_DIR/no-such-fwlens" \
	-e fwlens_become=false -e fwlens_snaps="$T_DIR/none" >"$T_DIR/capture.log" 2>&1 || status=$?
[ "$status" -eq 2 ] && grep -q "fwlens is not installed on gpu01 and no fwlens_deb was given" "$T_DIR/capture.log" &&
	[ ! -e "$T_DIR/none" ] && pass capture-needs-package ||
	fail capture-needs-package "exit $status: $(grep -E 'fatal|msg' "$T_DIR/capture.log" | head -c 300)"
