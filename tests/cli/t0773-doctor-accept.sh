#!/bin/sh
# Accepting a check: --accept CHECK=REASON and etc/fwlens/accept lines "CHECK [sha=FP] REASON".
# An accepted check says accepted with the reason and evidence and does not fail the run; a new
# kind of evidence (a new fault pair) brings it back; bad lines are exit 3 naming the line.
. "$(dirname "$0")/lib.sh"

t_need_file samples-present "$SAMPLES/sysroot-1104" "the samples are not built (make samples)" || exit 0

m="$T_DIR/m"
cp -R "$SAMPLES/sysroot-1104" "$m"
t_run p2p-fails 1 fwlens doctor "$m" --profile p2p
t_run accept-line 0 fwlens doctor "$m" --profile p2p --accept-line p2p-io-page-faults
line=$(cat "$T_OUT")
case "$line" in
p2p-io-page-faults\ sha=[0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f]\ REASON)
	pass accept-line-shape ;;
*) fail accept-line-shape "$line" ;;
esac
sha=$(echo "$line" | sed 's/.*sha=\([0-9a-f]*\) .*/\1/')

# from the command line
t_run accept-arg 0 fwlens doctor "$m" --profile p2p --accept "p2p-io-page-faults=NCCL_P2P_DISABLE=1 is set on the host" --format json
python3 - "$T_OUT" "$sha" <<'PY' && pass accept-arg-shows-accepted || fail accept-arg-shows-accepted "see above"
import json, sys
d = json.load(open(sys.argv[1])); sha = sys.argv[2]
c = {x["id"]: x for x in d["checks"]}
p = c["p2p-io-page-faults"]
assert p["status"] == "accepted" and p["judged"] == "fail", p
assert p["accepted"] == "NCCL_P2P_DISABLE=1 is set on the host", p
assert p["fingerprint"] == sha, (p["fingerprint"], sha)
assert p["evidence"][-1] == {"kind": "accepted", "from": "--accept",
    "text": f"accepted (fail, evidence sha={sha}): NCCL_P2P_DISABLE=1 is set on the host"}, p["evidence"][-1]
assert any("IO_PAGE_FAULT" in e["text"] for e in p["evidence"]), "the evidence stays"
assert d["summary"]["accepted"] == 1 and d["summary"]["fail"] == 0, d["summary"]
PY

# from the machine's file, with the fingerprint; a snapshot carries the file
mkdir -p "$m/etc/fwlens"
printf '# accepted by the admin\n\np2p-io-page-faults sha=%s NCCL_P2P_DISABLE=1 is set on the host\n' "$sha" >"$m/etc/fwlens/accept"
t_run accept-file 0 fwlens doctor "$m" --profile p2p
t_contains accept-file-text "ACCEPTED  No IOMMU faults between GPUs  (p2p-io-page-faults)"
t_contains accept-file-from "etc/fwlens/accept:3: accepted (fail, evidence sha=$sha):"
t_contains accept-file-summary ", 1 accepted"
fwlens snapshot capture --root "$m" -o "$T_DIR/m.fwsnap" -q
t_run accept-snapshot 0 fwlens doctor "$T_DIR/m.fwsnap" --profile p2p

# more faults of the same pair keep the acceptance
printf '[ 4100.000000] nvidia 0000:23:00.0: AMD-Vi: Event logged [IO_PAGE_FAULT domain=0x001d address=0x2a003040000 flags=0x0020]\n' >>"$m/var/log/dmesg"
t_run accept-same-kind 0 fwlens doctor "$m" --profile p2p --format json
python3 -c "
import json; c={x['id']:x for x in json.load(open('$T_OUT'))['checks']}
assert c['p2p-io-page-faults']['status']=='accepted', c['p2p-io-page-faults']['status']" \
	&& pass accept-more-of-the-same || fail accept-more-of-the-same "a repeat of the same pair ended the acceptance"

# a new fault pair: reported again, both fingerprints named
printf '[ 4200.000000] nvidia 0000:43:00.0: AMD-Vi: Event logged [IO_PAGE_FAULT domain=0x0025 address=0x2a000040000 flags=0x0020]\n' >>"$m/var/log/dmesg"
t_run accept-new-kind 1 fwlens doctor "$m" --profile p2p --format json
python3 - "$T_OUT" "$sha" <<'PY' && pass accept-new-pair-reported || fail accept-new-pair-reported "see above"
import json, sys
c = {x["id"]: x for x in json.load(open(sys.argv[1]))["checks"]}
p = c["p2p-io-page-faults"]; sha = sys.argv[2]
assert p["status"] == "fail" and "accepted" not in p, p["status"]
last = p["evidence"][-1]
assert last["kind"] == "accepted" and last["from"] == "etc/fwlens/accept:3", last
assert last["text"] == (f"accepted for evidence sha={sha} (\"NCCL_P2P_DISABLE=1 is set on the host\"); the evidence now "
                        f"is sha={p['fingerprint']}, of other kinds: reported again"), last
assert p["fingerprint"] != sha
PY

# bad input: exit 3 naming the line; an unknown check on the command line is a usage error
printf 'p2p-io-page-faults\n' >"$m/etc/fwlens/accept"
t_run accept-no-reason 3 fwlens doctor "$m" --profile p2p
grep -q "etc/fwlens/accept line 1: p2p-io-page-faults has no reason" "$T_ERR" && pass accept-no-reason-says || fail accept-no-reason-says "$(cat "$T_ERR")"
printf '# fine\nno-such-check because\n' >"$m/etc/fwlens/accept"
t_run accept-unknown-check 3 fwlens doctor "$m" --profile p2p
grep -q "etc/fwlens/accept:2: no check is called 'no-such-check'" "$T_ERR" && pass accept-unknown-check-says || fail accept-unknown-check-says "$(cat "$T_ERR")"
rm "$m/etc/fwlens/accept"
t_run accept-bad-arg 2 fwlens doctor "$m" --accept "p2p-io-page-faults"
t_run accept-arg-unknown 2 fwlens doctor "$m" --accept "nope=x"
# a passing check is not turned into accepted
t_run accept-pass-stays 0 fwlens doctor "$m" --profile p2p --accept p2p-io-page-faults=x --accept gpu-numa=y --format json
python3 -c "
import json; c={x['id']:x for x in json.load(open('$T_OUT'))['checks']}
assert c['gpu-numa']['status']=='pass', c['gpu-numa']['status']" && pass accept-pass-stays-pass || fail accept-pass-stays-pass "a pass became accepted"
