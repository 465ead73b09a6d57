#!/bin/sh
# One set of profile names for doctor and plan: snp-host, vfio-host, p2p-host, security, all; the
# older sev-snp-host, vfio and p2p still accepted (and reported by their current name); a typo gets
# "did you mean" with the current name; both commands' help lists the names.
. "$(dirname "$0")/lib.sh"
M="$SAMPLES/sysroot-1104"
CAP="$SAMPLES/ESC8000A-E13-ASUS-1104.CAP"
t_need_file profiles "$CAP" "the samples (make samples)" || exit 0
cd "$T_DIR" || exit 1
export SOURCE_DATE_EPOCH=1767225600

for p in snp-host:snp-host sev-snp-host:snp-host vfio-host:vfio-host vfio:vfio-host p2p-host:p2p-host p2p:p2p-host \
	security:security all:all; do
	given=${p%%:*} want=${p#*:}
	t_exec fwlens doctor "$M" --profile "$given" --format json
	python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); sys.exit(0 if d["profile"] == sys.argv[2] else 1)' \
		"$T_OUT" "$want" && pass "doctor-$given" || fail "doctor-$given" "exit $T_STATUS, profile not $want"
done
# the old and the new name select the same checks
fwlens doctor "$M" --profile vfio --format json >old.json 2>/dev/null
fwlens doctor "$M" --profile vfio-host --format json >new.json 2>/dev/null
python3 -c '
import json
ids = lambda f: [c["id"] for c in json.load(open(f))["checks"]]
assert ids("old.json") == ids("new.json") and ids("old.json")
' && pass doctor-old-name-same-checks || fail doctor-old-name-same-checks "vfio and vfio-host differ"

# the SEV options at their defaults (SMEE Auto, SEV Control Disable), so snp-host has goals to plan
cp -a "$M" m
CBS="m/sys/firmware/efi/efivars/AmdSetupBRH-3a997502-647a-4c82-998e-52ef9486a247"
printf '\003\001' | dd of="$CBS" bs=1 seek=$((4 + 0x33)) conv=notrunc 2>/dev/null
for p in snp-host sev-snp-host p2p-host p2p vfio-host vfio all; do
	t_run "plan-$p" 0 fwlens plan m --image "$CAP" --profile "$p" --format json -o "plan-$p.json"
done
cmp -s plan-snp-host.json plan-sev-snp-host.json && pass plan-old-name-same || fail plan-old-name-same "sev-snp-host plans otherwise"
python3 -c '
import json
assert json.load(open("plan-sev-snp-host.json"))["profile"] == "snp-host"
d = json.load(open("plan-sev-snp-host.json"))
a = json.load(open("plan-all.json"))
assert json.load(open("plan-vfio.json"))["profile"] == "vfio-host"
mine = {e["prompt"] for e in d["entries"]}
assert mine and mine <= {e["prompt"] for e in a["entries"]}, (mine, a["entries"])
' && pass plan-all-includes-snp || fail plan-all-includes-snp "all does not plan the snp-host goals"

# p2p-host: what helps P2P on the sample host, not what passes already
python3 -c '
import json
d = json.load(open("plan-p2p-host.json"))
assert [e["prompt"] for e in d["entries"]] == [], d["entries"]
k = d["kernel_args"]
assert k["option"] == "pci=disable_acs_redir=0000:22:00.0;0000:22:01.0;0000:42:00.0;0000:42:01.0", k
assert k["ports"] == ["0000:22:00.0", "0000:22:01.0", "0000:42:00.0", "0000:42:01.0"], k
assert "0000:23:00.0 <-> 0000:24:00.0 meet at 0000:21:00.0" in k["why"] and not k["unknown"] and not k["running"], k
' && pass p2p-host-kernel-arg || fail p2p-host-kernel-arg "$(cat plan-p2p-host.json | head -c 600)"
t_run p2p-host-text 0 fwlens plan m --image "$CAP" --profile p2p-host
t_contains p2p-host-acs-passes "note: ACS Enable: not planned, doctor check bios-acs passes"
t_contains p2p-host-command "write it: fwlens plan 'm' --kernel-arg 'pci=disable_acs_redir=0000:22:00.0;0000:22:01.0;0000:42:00.0;0000:42:01.0' -o acs.sh"
# a GPU passed to a VM (vfio-pci) is no peer: its switch gets no option
cp -a m mv
ln -sfn ../../../../bus/pci/drivers/vfio-pci "mv/sys/bus/pci/devices/0000:24:00.0/driver"
mkdir -p mv/sys/bus/pci/drivers/vfio-pci
fwlens plan mv --image "$CAP" --profile p2p-host --format json -o plan-mv.json
python3 -c '
import json
k = json.load(open("plan-mv.json"))["kernel_args"]
assert k["ports"] == ["0000:42:00.0", "0000:42:01.0"], k
' && pass p2p-host-vfio-gpu-no-peer || fail p2p-host-vfio-gpu-no-peer "$(head -c 600 plan-mv.json)"
t_run plan-security 2 fwlens plan "$M" --image "$CAP" --profile security
grep -q "no BIOS goals to plan" "$T_ERR" && pass plan-security-says || fail plan-security-says "$(cat "$T_ERR")"

# typos: the nearest current name
t_run doctor-typo 2 fwlens doctor "$M" --profile snp-hots
grep -q "did you mean 'snp-host'?" "$T_ERR" && pass doctor-typo-hint || fail doctor-typo-hint "$(cat "$T_ERR")"
t_run plan-typo 2 fwlens plan "$M" --image "$CAP" --profile vifo
grep -q "not 'vifo'; did you mean 'vfio-host'?" "$T_ERR" && pass plan-typo-hint || fail plan-typo-hint "$(cat "$T_ERR")"
t_run plan-typo-p2p 2 fwlens plan "$M" --image "$CAP" --profile p2p-hots
grep -q "did you mean 'p2p-host'?" "$T_ERR" && pass plan-typo-p2p-hint || fail plan-typo-p2p-hint "$(cat "$T_ERR")"
t_run far-typo 2 fwlens doctor "$M" --profile gpu
grep -q "did you mean" "$T_ERR" && fail far-typo-no-hint "a hint for a name far from all" || pass far-typo-no-hint

# help
t_run doctor-help 0 fwlens doctor --help
t_contains doctor-help-names "--profile snp-host|vfio-host|p2p-host|all|security"
t_run plan-help 0 fwlens plan --help
t_contains plan-help-names "snp-host, vfio-host, p2p-host or all"
