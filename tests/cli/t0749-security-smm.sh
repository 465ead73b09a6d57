#!/bin/sh
# doctor --profile security, sec-smm-tseg: SMM_ADDR and SMM_MASK (MSR C001_0112, C001_0113) of
# each CPU as the capture recorded them, on copies of the reference host (256 CPUs): TSeg
# protected everywhere (pass), TValid clear (fail), TClose set on one CPU (fail, SinkClose), a CPU
# with another TSeg (warn), a quarter of the CPUs read (warn), a small uncached TSeg (pass, decoded
# size and type), MSRs not readable (skip with the reason), a probe without the part (skip) and
# values that are not numbers (skip). Exact verdicts, evidence and JSON data.
. "$(dirname "$0")/lib.sh"

t_need_file samples-present "$SAMPLES/sysroot-1104" "the samples are not built (make samples)" || exit 0
MACHINES="protected tvalid tclose differ quarter small unreadable older garbage"
for m in $MACHINES; do
	cp -R "$SAMPLES/sysroot-1104" "$T_DIR/$m"
done
python3 - "$T_DIR" <<'PY' || { fail smm-machines "could not build the machines"; exit 0; }
import json, os, sys
d = sys.argv[1]
SOURCE = "/dev/cpu/N/msr MSR C001_0112 (SMM_ADDR), C001_0113 (SMM_MASK)"
# 8 MiB at 0xae000000: mask bits 47:17 = ~(8 MiB - 1), TMTypeDram 6 (WB), TValid
GOOD = "0xffffff806002"
def smm(cpus, addr=lambda c: "0xae000000", mask=lambda c: GOOD):
    return {"read": True, "source": SOURCE, "cpus_listed": 256,
            "cpus": [{"cpu": c, "smm_addr": addr(c), "smm_mask": mask(c)} for c in cpus]}
every = range(256)
parts = {
    "protected": smm(every),
    "tvalid": smm(every, mask=lambda c: "0xffffff806000"),
    "tclose": smm(every, mask=lambda c: "0xffffff80600a" if c == 5 else GOOD),
    "differ": smm(every, addr=lambda c: "0xad800000" if c >= 200 else "0xae000000"),
    "quarter": smm(range(64)),
    # 1 MiB at 0xbff00000, UC, bits above 47 set in both (ignored), AValid and TValid
    "small": smm(every, addr=lambda c: "0xffff0000bff00000", mask=lambda c: "0xfffffffffff00003"),
    "unreadable": {"read": False, "source": SOURCE, "why": "/dev/cpu/0/msr: Permission denied"},
    "garbage": {"read": True, "source": SOURCE, "cpus": [{"cpu": 0, "smm_addr": 5, "smm_mask": "0xzz"}, "x"]},
}
for name in parts.keys() | {"older"}:
    p = os.path.join(d, name, "fwlens/probes/sev.json")
    j = json.load(open(p))
    if name in parts:
        j["smm"] = parts[name]
    json.dump(j, open(p, "w"), indent=2)
PY

for m in $MACHINES; do
	t_run "smm-$m" 1 fwlens doctor "$T_DIR/$m" --profile security --format json
	cp "$T_OUT" "$T_DIR/$m.json"
done
python3 - "$T_DIR" <<'PY' && pass smm-verdicts || fail smm-verdicts "see above"
import json, os, sys
d = sys.argv[1]
def check(name):
    doc = json.load(open(os.path.join(d, name + ".json")))
    return {c["id"]: c for c in doc["checks"]}["sec-smm-tseg"]
def ev(c): return [e["from"] + ": " + e["text"] for e in c["evidence"]]
P = "fwlens/probes/sev.json: "
bad = []
def expect(name, status, explanation, evidence=(), data=None):
    c = check(name)
    if c["status"] != status or c["explanation"] != explanation:
        bad.append("%s: %s %r\n   expected %s %r" % (name, c["status"], c["explanation"], status, explanation))
    for e in evidence:
        if e not in ev(c):
            bad.append("%s: no evidence %r in %s" % (name, e, ev(c)))
    if data is not None and c.get("data") != data:
        bad.append("%s: data %s" % (name, c.get("data")))
    return c

FIRST = (P + "CPU 0 SMM_ADDR 0xae000000 SMM_MASK 0xffffff806002: TSeg base 0xae000000 size 8192 KiB (WB), TValid 1 "
         "TClose 0, AValid 0 AClose 0")
expect("protected", "pass", "TSeg (0xae000000, 8192 KiB) is protected (TValid set, TClose clear) on all 256 CPUs read.",
       [FIRST, P + "TValid set on 256, TClose set on 0 of 256 CPUs read (256 msr nodes listed, 256 CPUs in /proc/cpuinfo)"],
       {"tseg_base": "0xae000000", "tseg_size": 8388608, "tseg_memory_type": "WB", "cpus_read": 256, "tvalid_clear": 0,
        "tclose_set": 0, "tseg_differs": 0})
c = expect("tvalid", "fail", "TSeg protection (TValid) is off on 256 of the 256 CPUs read (first: CPU 0 SMM_MASK "
           "0xffffff806000): code outside SMM can read and write SMRAM there.",
           [P + "TValid set on 0, TClose set on 0 of 256 CPUs read (256 msr nodes listed, 256 CPUs in /proc/cpuinfo)"])
assert c["fix"].startswith("Update the BIOS: it must set TValid"), c["fix"]
c = expect("tclose", "fail", "TClose (SMM_MASK bit 3) is set on 1 of the 256 CPUs read while the OS runs (first: CPU 5 "
           "SMM_MASK 0xffffff80600a): SMM's data accesses to TSeg go to MMIO, the precondition of SinkClose "
           "(CVE-2023-31315).", [FIRST], None)
assert c["data"]["tclose_set"] == 1 and "AMD-SB-7014" in c["fix"], c
expect("differ", "warn", "The CPUs describe different TSeg ranges (first differing: CPU 200 SMM_ADDR 0xad800000 SMM_MASK "
       "0xffffff806002): SMRAM may be unprotected on some of them.")
expect("quarter", "warn", "TSeg is protected on every CPU read, but only 64 of the 256 CPUs were read.",
       [P + "TValid set on 64, TClose set on 0 of 64 CPUs read (256 msr nodes listed, 256 CPUs in /proc/cpuinfo)"])
expect("small", "pass", "TSeg (0xbff00000, 1024 KiB) is protected (TValid set, TClose clear) on all 256 CPUs read.",
       [P + "CPU 0 SMM_ADDR 0xffff0000bff00000 SMM_MASK 0xfffffffffff00003: TSeg base 0xbff00000 size 1024 KiB (UC), "
        "TValid 1 TClose 0, AValid 1 AClose 0"])
expect("unreadable", "skip", "SMM_ADDR and SMM_MASK (MSR C001_0112, C001_0113) of each CPU not read: /dev/cpu/0/msr: "
       "Permission denied")
expect("older", "skip", "The probe holds no SMM_ADDR and SMM_MASK (MSR C001_0112, C001_0113) of each CPU (captured by an "
       "older fwlens).")
expect("garbage", "skip", "No CPU's SMM_ADDR and SMM_MASK were read.")
assert not bad, "\n".join(bad)
PY
# the level: a TSeg left open holds the report at 0 whatever else passes
python3 -c "import json; d=json.load(open('$T_DIR/tvalid.json')); assert d['security_level']['level'] == 0, d['security_level']" \
	&& pass smm-level || fail smm-level "$(head -c 300 "$T_DIR/tvalid.json")"
t_run smm-text 1 fwlens doctor "$T_DIR/tclose" --profile security
t_contains smm-text-sinkclose "SinkClose"
# a live capture on this machine records the part, read or with the reason it was not
SOURCE_DATE_EPOCH=1767323045 fwlens snapshot capture -o "$T_DIR/live.fwsnap" -q 2>/dev/null
if [ -f "$T_DIR/live.fwsnap" ]; then
	t_exec fwlens doctor "$T_DIR/live.fwsnap" --role host --profile security --format json
	python3 -c "
import json
c = {c['id']: c for c in json.load(open('$T_OUT'))['checks']}['sec-smm-tseg']
texts = [e['text'] for e in c['evidence']]
if c['status'] == 'skip' and 'platform was not probed' in c['explanation']:
    pass  # not root: the probe is not taken at all
elif c['status'] == 'skip':
    assert c['explanation'].startswith('SMM_ADDR and SMM_MASK (MSR C001_0112, C001_0113) of each CPU not read: /dev/cpu/'), c
else:
    assert any(t.startswith('CPU ') and ' SMM_ADDR 0x' in t for t in texts), c
" && pass smm-live-recorded || fail smm-live-recorded "$(head -c 400 "$T_OUT")"
else
	skip smm-live-recorded "snapshot capture on this machine made no snapshot"
fi
