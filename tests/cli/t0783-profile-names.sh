#!/bin/sh
# One set of profile names for doctor and plan: snp-host, vfio-host, p2p-host, security, all; the
# older sev-snp-host, vfio and p2p still accepted (and reported by their current name); a typo gets
# "did you mean" with the current name; both commands' help lists the names.
. "$(dirname "$0")/lib.sh"
M="$SAMPLES/sysroot-1104"
CAP="$SAMPLES/ESC8000A-E13-ASUS-1104.CAP"
t_need_file profiles "$CAP" "the samples (make samples)" || exit 0
cd "$T_DIR" || exit 1

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

for p in snp-host sev-snp-host p2p-host p2p vfio-host vfio all; do
	t_run "plan-$p" 0 fwlens plan "$M" --image "$CAP" --profile "$p" --format json -o "plan-$p.json"
done
cmp -s plan-snp-host.json plan-sev-snp-host.json && pass plan-old-name-same || fail plan-old-name-same "sev-snp-host plans otherwise"
python3 -c '
import json
assert json.load(open("plan-sev-snp-host.json"))["profile"] == "snp-host"
d = json.load(open("plan-vfio.json"))
a = json.load(open("plan-all.json"))
assert d["profile"] == "vfio-host", d["profile"]
mine = {e["prompt"] for e in d["entries"]}
assert mine and mine <= {e["prompt"] for e in a["entries"]}, (mine, a["entries"])
' && pass plan-all-includes-vfio || fail plan-all-includes-vfio "all does not plan the vfio-host goals"
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
