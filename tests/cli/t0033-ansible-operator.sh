#!/bin/sh
# The playbooks of tools/ansible as an operator runs them, outside the harness of t0032: the three
# commands of README.md's "With Ansible" block run as the README gives them (relative paths from
# the operator's folder: fwlens_deb=build/deb/..., fwlens_image=BIOS.CAP, fwlens_plan=plan.json,
# fwlens_redfish=plan.redfish.json; fwlens on PATH; only /srv/bios is replaced by a folder of the
# test) on two hosts over the local connection, with a stand-in Redfish BMC; snapshots keep the
# mode fwlens gives them (0600). Then every playbook in --check mode: capture says what it would
# write and writes nothing, report evaluates its gate and writes nothing, apply reads the BMC and
# says what it would change (or fails a host whose BMC lacks an attribute) without a PATCH. apply
# fails before any BMC change when the plan is missing. report says which hosts lack forms or EFI
# variables instead of listing every setting as a difference.
. "$(dirname "$0")/lib.sh"

CAP="$SAMPLES/ESC8000A-E13-ASUS-1104.CAP"
t_need_file ansible-operator "$CAP" "the sample capsules are built by make samples" || exit 0
t_need_cmd ansible-operator ansible-playbook || exit 0
t_need_cmd ansible-operator jq || exit 0
t_need_cmd ansible-operator openssl || exit 0
. "$(dirname "$0")/ansible-lib.sh"

# fwlens on PATH, as on a controller and hosts where the package is installed
mkdir -p "$T_DIR/bin"
printf '#!/bin/sh\nexec "%s" "$@"\n' "$FWLENS" >"$T_DIR/bin/fwlens"
chmod +x "$T_DIR/bin/fwlens"
export PATH="$T_DIR/bin:$PATH"

start_bmc

# the operator's folder: the source's playbooks where the README says, a package file, the image,
# the images folder, and an inventory whose host lines carry what the README leaves to it
W="$T_DIR/operator"
mkdir -p "$W/tools" "$W/build/deb" "$T_DIR/srv-bios"
ln -s "$FWLENS_SRCDIR/tools/ansible" "$W/tools/ansible"
: >"$W/build/deb/fwlens_0.9.0_amd64.deb"
ln -s "$CAP" "$W/BIOS.CAP"
ln -s "$CAP" "$T_DIR/srv-bios/"
for spec in gpu01:1104 gpu02:1201; do
	h=${spec%%:*}
	cp -a "$SAMPLES/sysroot-${spec#*:}" "$T_DIR/$h"
	echo "$h" >"$T_DIR/$h/proc/sys/kernel/hostname"
done
{
	echo "[fleet]"
	for h in gpu01 gpu02; do
		echo "$h fwlens_root=$T_DIR/$h fwlens_capture_options='[\"--image-ref\", \"$CAP\"]' bmc_host=$BMC bmc_user=admin bmc_password=admin"
	done
	echo "[fleet:vars]"
	echo "ansible_connection=local"
	echo "fwlens_become=false"
	echo "fwlens_wait=false"
} >"$W/hosts.ini"
cd "$W" || exit 1

# The README's block, command by command, with the plan of its apply.yml header made in between
sed -n '/^### With Ansible$/,/^### /p' "$FWLENS_SRCDIR/README.md" | sed -n '/^```sh$/,/^```$/p' | grep -v '^```' |
	grep -v '^#' | sed -e :a -e '/\\$/N; s/\\\n//; ta' | sed "s|/srv/bios|$T_DIR/srv-bios|g" >"$T_DIR/readme-commands"
[ "$(wc -l <"$T_DIR/readme-commands")" -eq 3 ] && grep -q 'fwlens_deb=build/deb/' "$T_DIR/readme-commands" &&
	grep -q 'fwlens_plan=plan.json' "$T_DIR/readme-commands" && pass readme-block-found ||
	fail readme-block-found "$(head -c 400 "$T_DIR/readme-commands")"
run_readme() {
	# run_readme N LOG: the Nth command of the block, its exit status in $status
	status=0
	sed -n "$1p" "$T_DIR/readme-commands" >"$T_DIR/cmd.sh"
	sh "$T_DIR/cmd.sh" >"$2" 2>&1 || status=$?
}

run_readme 1 "$T_DIR/capture.log"
modes=$(stat -c '%n %a' snaps/gpu01.fwsnap snaps/gpu02.fwsnap 2>&1 | tr '\n' ' ')
[ "$status" -eq 0 ] && [ "$modes" = "snaps/gpu01.fwsnap 600 snaps/gpu02.fwsnap 600 " ] &&
	[ "$(fwlens snapshot show snaps/gpu02.fwsnap --format json | jq -r .facts.host)" = gpu02 ] &&
	pass readme-capture-keeps-mode || fail readme-capture-keeps-mode "exit $status; $modes $(grep -E 'fatal|msg' "$T_DIR/capture.log" | head -c 300)"
[ -z "$(find "$T_DIR" -maxdepth 1 -name 'ansible.*')" ] && pass capture-cleans-up ||
	fail capture-cleans-up "left: $(find "$T_DIR" -maxdepth 1 -name 'ansible.*')"

run_readme 2 "$T_DIR/report.log"
[ "$status" -eq 2 ] && grep -q "doctor failed on gpu01, gpu02 (see $W/report/fleet.md)" "$T_DIR/report.log" &&
	grep -qxF '| Setup > Advanced > AMD CBS > DF Common Options > Memory Addressing > NUMA nodes per socket | NPS1 | NPS4 |' report/fleet.md &&
	grep -qxF '2 hosts; reference host gpu01; settings decoded with BIOS.CAP.' report/fleet.md &&
	pass readme-report || fail readme-report "exit $status: $(grep -E 'fatal|msg' "$T_DIR/report.log" | head -c 300)"

fwlens plan snaps/gpu01.fwsnap --image-dir "$SAMPLES" --set 'NUMA nodes per socket=NPS4' --format json -o plan.json
fwlens plan snaps/gpu01.fwsnap --image-dir "$SAMPLES" --set 'NUMA nodes per socket=NPS4' --format redfish -o plan.redfish.json
# the hosts boot after the plan was made (a boot time later than the plan's): verify may call values in effect
for h in gpu01 gpu02; do echo "btime $(($(date +%s) + 5))" >"$T_DIR/$h/proc/stat"; done
rm -rf snaps
run_readme 3 "$T_DIR/apply.log"
[ "$(jq -c .body "$T_DIR/bmc/patches.jsonl" 2>/dev/null | sort -u)" = '{"Attributes":{"CbsDfCmnDramNpsBRH":"NPS4"}}' ] &&
	[ "$(wc -l <"$T_DIR/bmc/patches.jsonl")" -eq 2 ] && [ "$(stat -c %a snaps/gpu02.fwsnap)" = 600 ] &&
	pass readme-apply-patch-and-capture || fail readme-apply-patch-and-capture "$(head -c 300 "$T_DIR/bmc/patches.jsonl" 2>&1)"
[ "$status" -eq 2 ] && grep -q "fatal: \[gpu01\]: FAILED.*different  NUMA nodes per socket = NPS1 (planned NPS4)" "$T_DIR/apply.log" &&
	grep -q "gpu02 *: ok=.*failed=0" "$T_DIR/apply.log" && pass readme-apply-verify ||
	fail readme-apply-verify "exit $status: $(grep -E 'fatal|gpu0[12] *:' "$T_DIR/apply.log" | head -c 400)"

# A later input missing: refused before any BMC is asked anything
: >"$T_DIR/bmc/patches.jsonl"
status=0
ansible-playbook -i hosts.ini tools/ansible/apply.yml -e fwlens_plan=no-such-plan.json -e fwlens_redfish=plan.redfish.json \
	>"$T_DIR/apply.log" 2>&1 || status=$?
[ "$status" -eq 2 ] && [ ! -s "$T_DIR/bmc/patches.jsonl" ] && grep -q "no-such-plan.json" "$T_DIR/apply.log" &&
	! grep -q "Set the BIOS attributes" "$T_DIR/apply.log" && pass apply-missing-plan-before-bmc ||
	fail apply-missing-plan-before-bmc "exit $status: $(grep -E 'fatal|TASK' "$T_DIR/apply.log" | head -c 400)"
status=0
ansible-playbook -i hosts.ini tools/ansible/apply.yml -e fwlens_plan=plan.json -e fwlens_redfish=plan.redfish.json \
	-e fwlens_image_dir=no-such-dir >"$T_DIR/apply.log" 2>&1 || status=$?
[ "$status" -eq 2 ] && [ ! -s "$T_DIR/bmc/patches.jsonl" ] && grep -q "no-such-dir not found" "$T_DIR/apply.log" &&
	pass apply-missing-image-dir-before-bmc || fail apply-missing-image-dir-before-bmc "exit $status: $(grep -E 'fatal' "$T_DIR/apply.log" | head -c 300)"

# --check: capture reads and says what it would write, and writes nothing
mkdir "$T_DIR/check" && cd "$T_DIR/check" || exit 1
status=0
ansible-playbook -i "$W/hosts.ini" "$W/tools/ansible/capture.yml" --check >"$T_DIR/check.log" 2>&1 || status=$?
[ "$status" -eq 0 ] && [ ! -e snaps ] && grep -q "would write $T_DIR/check/snaps/gpu01.fwsnap ([0-9]* bytes, mode 0600)" "$T_DIR/check.log" &&
	grep -q "would write $T_DIR/check/snaps/gpu02.fwsnap" "$T_DIR/check.log" && pass check-capture ||
	fail check-capture "exit $status: $(grep -E 'fatal|msg' "$T_DIR/check.log" | head -c 400)"
# ... report runs fwlens and its gate, and writes nothing
status=0
ansible-playbook "$W/tools/ansible/report.yml" --check -e fwlens_snaps="$W/snaps" -e fwlens_image_dir="$SAMPLES" \
	>"$T_DIR/check.log" 2>&1 || status=$?
[ "$status" -eq 2 ] && [ ! -e report ] && grep -q "doctor failed on gpu01, gpu02 (--check: nothing written)" "$T_DIR/check.log" &&
	pass check-report-gate || fail check-report-gate "exit $status: $(grep -E 'fatal|msg' "$T_DIR/check.log" | head -c 400)"
# ... apply reads each BMC and says what it would change; no PATCH
: >"$T_DIR/bmc/patches.jsonl"
status=0
ansible-playbook -i "$W/hosts.ini" "$W/tools/ansible/apply.yml" --check -e fwlens_plan="$W/plan.json" \
	-e fwlens_redfish="$W/plan.redfish.json" -e fwlens_image_dir="$SAMPLES" >"$T_DIR/check.log" 2>&1 || status=$?
[ "$status" -eq 0 ] && [ ! -s "$T_DIR/bmc/patches.jsonl" ] && [ ! -e snaps ] &&
	[ "$(grep -c 'would set CbsDfCmnDramNpsBRH from \\"NPS1\\" to \\"NPS4\\"' "$T_DIR/check.log")" -eq 2 ] &&
	grep -q "after the capture: fwlens plan $T_DIR/check/snaps/gpu01.fwsnap --verify $W/plan.json --image-dir $SAMPLES" "$T_DIR/check.log" &&
	pass check-apply || fail check-apply "exit $status: $(grep -E 'fatal|msg|would' "$T_DIR/check.log" | head -c 500)"
echo '{"Attributes": {"CbsCmnSmeeCtrl": "Enabled", "NoSuchAttribute": 1}}' >"$T_DIR/bad.redfish.json"
status=0
ansible-playbook -i "$W/hosts.ini" "$W/tools/ansible/apply.yml" --check --tags bmc -e fwlens_redfish="$T_DIR/bad.redfish.json" \
	>"$T_DIR/check.log" 2>&1 || status=$?
[ "$status" -eq 2 ] && [ ! -s "$T_DIR/bmc/patches.jsonl" ] && grep -q "Unsupported attributes on the BMC of gpu01: NoSuchAttribute" "$T_DIR/check.log" &&
	pass check-apply-unknown-attribute || fail check-apply-unknown-attribute "exit $status: $(grep -E 'fatal|msg' "$T_DIR/check.log" | head -c 300)"
kill $bmc 2>/dev/null

# report: a host without BIOS forms and one without EFI variables are what they lack, not rows
mkdir -p "$T_DIR/lack/snaps" && cd "$T_DIR/lack" || exit 1
cp "$W/snaps/gpu01.fwsnap" "$W/snaps/gpu02.fwsnap" snaps/
fwlens snapshot capture -q --root "$T_DIR/gpu01" -o snaps/gpu05.fwsnap
cp -a "$T_DIR/gpu01" "$T_DIR/gpu06"
rm -rf "$T_DIR/gpu06/sys/firmware/efi/efivars"
echo gpu06 >"$T_DIR/gpu06/proc/sys/kernel/hostname"
fwlens snapshot capture -q --root "$T_DIR/gpu06" --image-ref "$CAP" -o snaps/gpu06.fwsnap
ansible-playbook "$W/tools/ansible/report.yml" -e fwlens_image_dir="$SAMPLES" -e fwlens_gate=false >"$T_DIR/lack.log" 2>&1
M=report/fleet.md
grep -qxF '| setting | gpu01 (reference) | gpu02 | gpu05 | gpu06 |' "$M" &&
	grep -qxF '| Setup > Advanced > AMD CBS > DF Common Options > Memory Addressing > NUMA nodes per socket | NPS1 | NPS4 | not known | not known |' "$M" &&
	[ "$(grep -c '^| .* > .* |' "$M")" -eq "$(jq -r 'select(.command == "diff" and .snapshot == "gpu02" and .section == "values") | .prompt' report/fleet.jsonl | wc -l)" ] &&
	grep -qxF '| gpu05 | forms (no BIOS image: give fwlens_image or fwlens_image_dir, or capture with --image) | its BIOS checks skip; its settings are not compared |' "$M" &&
	grep -qE '^\| gpu06 \| current values \(AmdSetupBRH, Setup not captured\) \| [0-9]{3} settings not compared; its checks on them skip \|$' "$M" &&
	[ "$(jq -r 'select(.command == "diff" and .snapshot == "gpu06" and .section == "values") | .prompt' report/fleet.jsonl | wc -l)" -gt 100 ] &&
	pass report-says-what-hosts-lack || fail report-says-what-hosts-lack "$(sed -n '/^## Settings/,$p' "$M" | head -c 900)"
