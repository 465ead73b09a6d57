#!/bin/sh
# SEV firmware versions as the kernel prints them ("1.55 build 21") and SNP TCB versions as their
# security version numbers: psp on the sample image (SEV code header 0.1.37.15), notes from the
# PSP platform status a snapshot probed (per CPU family's TCB layout) and from the kernel log.
. "$(dirname "$0")/lib.sh"
cd "$T_DIR" || exit 1
CAP="$SAMPLES/ESC8000A-E13-ASUS-1104.CAP"
t_need_file sample "$CAP" "the samples (make samples)" || exit 0

t_run psp-text 0 fwlens psp "$CAP"
t_contains psp-sev-kernel-words "  SEV        1.55 build 21 (SEV code header version 0.1.37.15)"
t_run psp-json 0 fwlens psp "$CAP" --format json
python3 - "$T_OUT" <<'PY' && pass psp-json-sev-firmware || fail psp-json-sev-firmware "fields differ"
import json, sys
v = json.load(open(sys.argv[1]))["versions"]
assert v["sev"] == "0.1.37.15" and v["sev_firmware"] == {"api_major": 1, "api_minor": 55, "build": 21, "text": "1.55 build 21"}, v
PY

# notes: the probe's platform status first (family 1Ah: FMC first), the kernel log otherwise
cp -R "$SAMPLES/sysroot-1104" root
t_run notes-probe 0 fwlens notes root
t_contains notes-probe-sev "- SEV firmware: 1.55 build 21 (SNP_PLATFORM_STATUS, fwlens/probes/sev.json)"
t_contains notes-probe-tcb "- SNP TCB: FMC 4, boot loader 0, TEE 0, SNP 0, microcode 27 (current = reported, 0x1b00000000000004)"
# a Genoa (family 19h) whose current TCB is newer than the reported one, SEV and SNP status apart
sed -i 's/^cpu family\t: 26/cpu family\t: 25/; s/^model\t\t: 2$/model\t\t: 17/' root/proc/cpuinfo
python3 - root/fwlens/probes/sev.json <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["platform"]["snp"]["current_tcb"] = "0xd315000000000008"
d["platform"]["snp"]["reported_tcb"] = "0xd115000000000007"
d["platform"]["sev"]["build"] = 20
json.dump(d, open(sys.argv[1], "w"))
PY
t_run notes-genoa 0 fwlens notes root
t_contains notes-genoa-sev "- SEV firmware: 1.55 build 21 (SNP_PLATFORM_STATUS, fwlens/probes/sev.json); SEV_PLATFORM_STATUS says 1.55 build 20"
t_contains notes-genoa-tcb "- SNP TCB: current boot loader 8, TEE 0, SNP 21, microcode 211 (0xd315000000000008), reported boot loader 7, TEE 0, SNP 21, microcode 209 (0xd115000000000007)"
# no probe: the ccp driver's line
rm root/fwlens/probes/sev.json
t_run notes-log 0 fwlens notes root
t_contains notes-log-sev "- SEV firmware: 1.55 build 21 (kernel log: SEV-SNP API:1.55 build:21)"
grep -q "SNP TCB" "$T_OUT" && fail notes-log-no-tcb "a TCB without the probe" || pass notes-log-no-tcb
