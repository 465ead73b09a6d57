#!/bin/sh
# The p2p-proof doctor check on saved outputs of the tools that prove P2P (tests/data/p2p, written
# by hand in the tools' documented formats for the sample host's four host GPUs 23, 24, 43, 44):
# nvidia-smi topo -p2p r named through nvidia-smi's GPU list, topo -m alone (no result: skip),
# p2pBandwidthLatencyTest (no peer access across the root complex; a same-switch pair whose
# enabled bandwidth is not faster fails), all_reduce_perf with and without P2P; notes carries the
# verdict; a snapshot keeps fwlens/p2p and doctor reads it from there; bad files are refused.
. "$(dirname "$0")/lib.sh"
M="$SAMPLES/sysroot-1104"
D="$FWLENS_SRCDIR/tests/data/p2p"
t_need_file p2p-proof "$M/proc/cmdline" "the samples (make samples)" || exit 0
cd "$T_DIR" || exit 1

proof() { # NAME EXIT FILE...: doctor's p2p-proof result as "STATUS|explanation" in proof.txt
	name=$1 want=$2
	shift 2
	args=""
	for f in "$@"; do args="$args --p2p-evidence $D/$f"; done
	# shellcheck disable=SC2086
	t_run "$name" "$want" fwlens doctor "$M" --profile p2p-host $args --format json
	python3 -c '
import json, sys
for c in json.load(open(sys.argv[1]))["checks"]:
    if c["id"] == "p2p-proof":
        open("proof.txt", "w").write(c["status"] + "|" + (c["explanation"] or "") + "\nfix: " + (c["fix"] or "") + "\n" +
                                     "\n".join(e["from"] + " " + e["text"] for e in c["evidence"]) + "\n")
' "$T_OUT"
}
has() { # NAME TEXT
	if grep -qF -- "$2" proof.txt; then pass "$1"; else fail "$1" "not in the verdict: $2 ($(head -c 400 proof.txt))"; fi
}

proof topo-p2p 1 topo-p2p-r.txt gpus.csv
has topo-p2p-warn "warn|The driver does not allow P2P for: "
has topo-p2p-pair "GPU0 (0000:23:00.0, by nvidia-smi's list)-GPU2 (0000:43:00.0, by nvidia-smi's list) CNS (chipset not supported, $D/topo-p2p-r.txt:2)"
has topo-p2p-row "$D/topo-p2p-r.txt:3 nvidia-smi topo -p2p: GPU1 (0000:24:00.0, by nvidia-smi's list) OK X CNS CNS"
has topo-p2p-list "$D/gpus.csv nvidia-smi index 3 is 0000:44:00.0"
proof topo-p2p-no-list 1 topo-p2p-r.txt
has topo-p2p-no-address "nvidia-smi topo prints no PCI addresses: give the output of nvidia-smi --query-gpu=index,pci.bus_id --format=csv"
proof topo-p2p-ok 1 topo-p2p-r-all-ok.txt
has topo-p2p-ok-pass "pass|P2P works where measured: 6 pairs OK in topo -p2p, 0 directions faster with P2P enabled."
proof topo-m 1 topo-m.txt
has topo-m-skip "skip|The files hold no P2P result"
has topo-m-row "$D/topo-m.txt:4 nvidia-smi topo -m: GPU2 NODE NODE X PXB"

proof bandwidth 1 p2pBandwidthLatencyTest.txt
has bandwidth-warn "warn|No peer access (CANNOT Access Peer), so copies go through the host: GPU0 (0000:23:00.0)->GPU2 (0000:43:00.0) ($D/p2pBandwidthLatencyTest.txt:7)"
grep -qF "GPU0 (0000:23:00.0)->GPU1" proof.txt && fail bandwidth-same-switch-fine "a faster pair named" || pass bandwidth-same-switch-fine
proof bandwidth-slow 1 p2pBandwidthLatencyTest-slow.txt
has bandwidth-slow-fail "fail|Enabling P2P is not faster for: GPU0 (0000:23:00.0)->GPU1 (0000:24:00.0) 24.12 GB/s enabled vs 26.84 disabled ($D/p2pBandwidthLatencyTest-slow.txt:36, 30); GPU1 (0000:24:00.0)->GPU0 (0000:23:00.0) 24.05 GB/s enabled vs 26.90 disabled"
has bandwidth-slow-fix "fwlens plan SRC --profile p2p-host"

proof nccl-off 1 all_reduce_perf-p2p-disabled.txt
has nccl-off-warn "warn|NCCL: $D/all_reduce_perf-p2p-disabled.txt: busbw 15.64 GB/s at 134217728 bytes (line 18), average 9.71 GB/s (line 20), run with NCCL_P2P_DISABLE=1 (line 8): it measures the fallback, not P2P."
proof nccl-on 1 all_reduce_perf-p2p.txt
has nccl-on-pass "pass|NCCL: $D/all_reduce_perf-p2p.txt: busbw 38.34 GB/s at 134217728 bytes (line 18), average 22.17 GB/s (line 20), channels via P2P/CUMEM/read (line 9)."
proof none 1
has none-skip "skip|No P2P evidence: give --p2p-evidence FILE"

# notes carries the verdict
t_run notes 0 fwlens notes "$M" --p2p-evidence "$D/topo-p2p-r.txt" --p2p-evidence "$D/gpus.csv"
t_contains notes-p2p-proof "GPU0 (0000:23:00.0, by nvidia-smi's list)-GPU2 (0000:43:00.0, by nvidia-smi's list) CNS"

# a machine folder holding nvidia-smi's outputs: the snapshot keeps them, doctor reads them there
cp -a "$M" m
mkdir -p m/fwlens/p2p
cp "$D/topo-p2p-r.txt" m/fwlens/p2p/nvidia-smi-topo-p2p-r.txt
cp "$D/gpus.csv" m/fwlens/p2p/nvidia-smi-gpus.csv
fwlens snapshot capture -q --root m -o m.fwsnap
t_run snapshot-doctor 1 fwlens doctor m.fwsnap --profile p2p-host --format json
python3 -c '
import json, sys
c = [c for c in json.load(open(sys.argv[1]))["checks"] if c["id"] == "p2p-proof"][0]
assert c["status"] == "warn", c
assert "GPU1 (0000:24:00.0, by nvidia-smi'"'"'s list)-GPU3 (0000:44:00.0, by nvidia-smi'"'"'s list) CNS (chipset not supported, fwlens/p2p/nvidia-smi-topo-p2p-r.txt:3)" in c["explanation"], c["explanation"]
' "$T_OUT" && pass snapshot-keeps-p2p || fail snapshot-keeps-p2p "$(head -c 300 "$T_OUT")"

# bad input: one line naming the file and line, exit 3
t_run bad-row 3 fwlens doctor "$M" --p2p-evidence "$D/bad-topo-short-row.txt"
grep -q "bad-topo-short-row.txt line 2: row GPU0 has fewer cells than the header has GPUs" "$T_ERR" && pass bad-row-says ||
	fail bad-row-says "$(cat "$T_ERR")"
printf 'hello\n' >junk.txt
t_run not-an-output 3 fwlens doctor "$M" --p2p-evidence junk.txt
grep -q "junk.txt: not an output fwlens reads" "$T_ERR" && pass not-an-output-says || fail not-an-output-says "$(cat "$T_ERR")"
printf '\tGPU0\tGPU1\nGPU0\tX\tOK\000\nGPU1\tOK\tX\n' >nul.txt
t_run nul-byte 3 fwlens doctor "$M" --p2p-evidence nul.txt
grep -q "nul.txt: a NUL byte at offset 20" "$T_ERR" && pass nul-byte-says || fail nul-byte-says "$(cat "$T_ERR")"
sed -e '/^     1  52.41/d' "$D/p2pBandwidthLatencyTest.txt" | sed -e 's/^     2  26.74  26.66 1448.90  52.29 $/     2  26.74  26.66/' >short-bw.txt
t_run bad-bandwidth-row 3 fwlens doctor "$M" --p2p-evidence short-bw.txt
grep -q "short-bw.txt line 37: row 2 of a 4-GPU P2P=Enabled matrix has 2 values" "$T_ERR" && pass bad-bandwidth-row-says ||
	fail bad-bandwidth-row-says "$(cat "$T_ERR")"
t_run missing-file 4 fwlens doctor "$M" --p2p-evidence nowhere.txt
