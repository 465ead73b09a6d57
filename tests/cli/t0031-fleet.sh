#!/bin/sh
# The fleet recipe of README.md ("Fleets", without Ansible), run as written: three sample hosts (two running
# BIOS 1104, one with the 1201 machine's state), ssh replaced by a stand-in that runs the remote
# fwlens here against the host's root folder. Checks what the recipe promises: snapshots that
# know their host, JSON lines keyed by host, drift from the reference, and a gate that fails.
. "$(dirname "$0")/lib.sh"

CAP="$SAMPLES/ESC8000A-E13-ASUS-1104.CAP"
t_need_file fleet "$CAP" "the sample capsules are built by make samples" || exit 0
t_need_cmd fleet jq || exit 0
README="$FWLENS_SRCDIR/README.md"

WORK="$T_DIR/work"
FLEET="$T_DIR/fleet"
mkdir -p "$WORK" "$FLEET" "$T_DIR/bin"
awk '/^<!-- fleet recipe: run by/ { on = 1; next } /^<!-- fleet recipe end -->$/ { on = 0 } on' "$README" |
	sed '/^```/d' >"$T_DIR/recipe.sh"
if [ "$(grep -c 'xargs -P' "$T_DIR/recipe.sh")" -ge 4 ]; then pass recipe-found; else fail recipe-found "no recipe in README.md"; exit 0; fi

# The hosts: copies of the sample machines with a host name.
for spec in gpu01:1104 gpu02:1104 gpu03:1201; do
	h=${spec%%:*}
	cp -a "$SAMPLES/sysroot-${spec#*:}" "$FLEET/$h"
	echo "$h" >"$FLEET/$h/proc/sys/kernel/hostname"
	echo "$h" >>"$WORK/hosts.txt"
done
ln -s "$CAP" "$WORK/BIOS.CAP"
ln -s "$FWLENS" "$T_DIR/bin/fwlens"
# ssh root@HOST CMD...: CMD runs here, reading the host's folder as its root
cat >"$T_DIR/bin/ssh" <<EOF2
#!/bin/sh
host=\${1#*@}
shift
exec sh -c "\$(echo "\$*" | sed "s|snapshot capture|snapshot capture --root $FLEET/\$host|")"
EOF2
chmod +x "$T_DIR/bin/ssh"

status=0
(cd "$WORK" && PATH="$T_DIR/bin:$PATH" sh "$T_DIR/recipe.sh" >"$T_DIR/out" 2>"$T_DIR/err" </dev/null) || status=$?

# 1. snapshots that know their host
for h in gpu01 gpu02 gpu03; do
	fwlens snapshot show "$WORK/snaps/$h.fwsnap" --format json >"$T_DIR/show.json" 2>/dev/null
	[ "$(jq -r .facts.host "$T_DIR/show.json")" = "$h" ] && pass "captured-$h" || fail "captured-$h" "no snapshot naming $h"
done
# 2. doctor lines keyed by host, and the failing check of the sample machines listed per host
hosts=$(cat "$WORK"/out/*.doctor.jsonl | jq -r .host | sort -u | tr '\n' ' ')
[ "$hosts" = "gpu01 gpu02 gpu03 " ] && pass doctor-keyed-by-host || fail doctor-keyed-by-host "hosts in the lines: $hosts"
n=$(cat "$WORK"/out/*.doctor.jsonl | jq -s 'map(select(.captured != null and .source != null)) | length')
total=$(cat "$WORK"/out/*.doctor.jsonl | wc -l)
[ "$n" -eq "$total" ] && [ "$total" -gt 30 ] && pass doctor-lines-keyed || fail doctor-lines-keyed "$n of $total lines keyed"
grep -q "^gpu01	p2p-io-page-faults	" "$T_DIR/out" && pass doctor-fails-listed || fail doctor-fails-listed "$(head -c 300 "$T_DIR/out")"
# 3. a setting's current value per host (the 1104 machines set the ASID limit to 100)
grep -q "^gpu02	SEV-ES ASID Space Limit	100$" "$T_DIR/out" && pass query-per-host || fail query-per-host "$(grep ASID "$T_DIR/out" | head -3)"
# 4. drift: none from the reference to its twin, some to the 1201 machine, as many lines as differences
[ "$(cat "$WORK/out/gpu02.diff.rc")" = "gpu02 0" ] && [ ! -s "$WORK/out/gpu02.diff.jsonl" ] && pass drift-none ||
	fail drift-none "gpu02: $(cat "$WORK/out/gpu02.diff.rc")"
[ "$(cat "$WORK/out/gpu03.diff.rc")" = "gpu03 1" ] && pass drift-found || fail drift-found "gpu03: $(cat "$WORK/out/gpu03.diff.rc")"
want=$(fwlens diff "$WORK/snaps/gpu01.fwsnap" "$WORK/snaps/gpu03.fwsnap" --image "$CAP" --format json -q | jq .summary.differences)
have=$(wc -l <"$WORK/out/gpu03.diff.jsonl")
[ "$want" = "$have" ] && pass drift-one-line-per-difference || fail drift-one-line-per-difference "$have lines, $want differences"
[ "$(jq -r 'select(.host != "gpu03" or .baseline_host != "gpu01") | .host' "$WORK/out/gpu03.diff.jsonl" | wc -l)" -eq 0 ] &&
	pass drift-keyed || fail drift-keyed "lines not keyed by gpu03 with baseline gpu01"
grep -q "^gpu03	kernel	release	6.14.8-2-pve	6.14.11-2-pve$" "$T_DIR/out" && pass drift-listed || fail drift-listed "no kernel release change listed"
# 5. the gate fails the job, naming the hosts
[ "$status" -eq 1 ] && grep -q "^doctor failed on gpu01" "$T_DIR/out" && pass gate-fails ||
	fail gate-fails "exit $status: $(tail -n 3 "$T_DIR/out" | tr '\n' ' ') $(head -c 200 "$T_DIR/err")"
[ ! -s "$T_DIR/err" ] && pass recipe-quiet || fail recipe-quiet "stderr: $(head -c 300 "$T_DIR/err")"
