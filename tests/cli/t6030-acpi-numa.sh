#!/bin/sh
# The NUMA and topology tables beyond SRAT and SLIT (tests/data/acpi/numa-tables.acpidump.txt,
# laid out from ACPI 6.5, CXL 3.0 and amdkfd's kfd_crat.h): HMAT's locality matrices with their
# units, CEDT's CXIMS and RDPAS, PPTT, CRAT and CDIT in text and JSON; `diff` between two machines
# whose tables differ in one value of each; `acpi topo` placing the NUMA domains into sockets
# from PPTT alone, as text, JSON and DOT. Debian's iasl 20200925 decodes no CEDT, CRAT or CDIT:
# for those the specification is the oracle (the unit tests compare HMAT, PPTT, MADT and SRAT
# with iasl -d).
. "$(dirname "$0")/lib.sh"

G="$FWLENS_SRCDIR/tests/cli/golden/t6030-acpi-numa"
DATA="$FWLENS_SRCDIR/tests/data/acpi"

t_golden text "$G/numa-tables.txt" t_in_dir "$DATA" fwlens acpi numa-tables.acpidump.txt
t_golden json "$G/numa-tables.json" t_in_dir "$DATA" fwlens acpi numa-tables.acpidump.txt --format json
t_golden topo-text "$G/topo.txt" t_in_dir "$DATA" fwlens acpi topo numa-tables.acpidump.txt
t_golden topo-json "$G/topo.json" t_in_dir "$DATA" fwlens acpi topo numa-tables.acpidump.txt --format json
t_golden topo-dot "$G/topo.dot" t_in_dir "$DATA" fwlens acpi topo numa-tables.acpidump.txt --format dot

# the same tables as two machine roots (sys/firmware/acpi/tables), for diff
roots() {
	python3 - "$DATA/numa-tables.acpidump.txt" "$T_DIR/a" "$DATA/numa-tables-changed.acpidump.txt" "$T_DIR/b" <<'PY'
import os, re, sys
for src, root in ((sys.argv[1], sys.argv[2]), (sys.argv[3], sys.argv[4])):
    d = os.path.join(root, "sys/firmware/acpi/tables")
    os.makedirs(d)
    os.makedirs(os.path.join(root, "proc"))
    sig, data = None, {}
    for line in open(src):
        m = re.match(r"^(\w{4}) @ 0x", line)
        if m:
            sig = m.group(1)
            data[sig] = bytearray()
            continue
        m = re.match(r"^\s+[0-9A-F]{4}: ((?:[0-9A-F]{2} )+)", line)
        if m and sig:
            data[sig] += bytes(int(x, 16) for x in m.group(1).split())
    for s, b in data.items():
        open(os.path.join(d, s), "wb").write(b)
PY
}
roots
T_EXIT=1 t_golden diff-text "$G/diff.txt" t_in_dir "$T_DIR" fwlens diff a b -q
T_EXIT=1 t_golden diff-json "$G/diff.json" t_in_dir "$T_DIR" fwlens diff a b -q --format json
# one change in each table, and nothing else
python3 - "$T_OUT" <<'PY' && pass diff-one-change-each || fail diff-one-change-each "see above"
import json, sys
d = json.load(open(sys.argv[1]))
got = {x["key"]: [c["field"] for c in x["changes"]] for x in d["acpi"]["changed"]}
want = {
    "HMAT": ["HMAT system locality latency and bandwidth 1 entries initiator 1 target 0"],
    "CEDT": ["CEDT CXL XOR interleave math structure 1 xor_maps"],
    "PPTT": ["PPTT processor hierarchy node 6 parent"],
    "CRAT": ["compute unit affinity 1 cpu_cores", "I/O link affinity 1 xgmi_weight"],
    "CDIT": ["distances"],
}
if got != want:
    print("changed fields: %s" % got)
    sys.exit(1)
PY
# processor 33 moved to package 0: domain 1 spans two packages, its socket is not known
t_run topo-changed 0 fwlens acpi topo "$DATA/numa-tables-changed.acpidump.txt" --format dot
if grep -q 'cluster_socket_unknown' "$T_OUT" && grep -q 'cluster_socket0' "$T_OUT" && ! grep -q 'cluster_socket1' "$T_OUT"; then
	pass topo-changed-socket-unknown
else
	fail topo-changed-socket-unknown "socket clusters: $(grep -o 'cluster_socket[a-z0-9_]*' "$T_OUT" | tr '\n' ' ')"
fi
# the picture: Graphviz draws socket 0 around domain 0 and socket 1 around domain 1, each labelled PPTT
if t_need_cmd topo-svg dot; then
	dot -Tsvg "$G/topo.dot" -o "$T_DIR/t.svg" 2>"$T_ERR" && pass topo-svg-renders || fail topo-svg-renders "$(cat "$T_ERR")"
	python3 - "$T_DIR/t.svg" <<'PY' && pass topo-svg-sockets || fail topo-svg-sockets "see above"
import sys
import xml.etree.ElementTree as ET
ns = {"s": "http://www.w3.org/2000/svg"}
boxes = {}
for g in ET.parse(sys.argv[1]).getroot().iter("{http://www.w3.org/2000/svg}g"):
    if g.get("class") != "cluster":
        continue
    text = " ".join(t.text or "" for t in g.iter("{http://www.w3.org/2000/svg}text"))
    pts = [tuple(map(float, p.split(","))) for p in g.find("s:polygon", ns).get("points").split()]
    boxes[text] = (min(x for x, _ in pts), min(y for _, y in pts), max(x for x, _ in pts), max(y for _, y in pts))
def inside(a, b): return a[0] >= b[0] and a[1] >= b[1] and a[2] <= b[2] and a[3] <= b[3]
bad = []
for k in (0, 1):
    sock = [c for c in boxes if c.startswith("socket %d (PPTT" % k)]
    dom = [c for c in boxes if c.startswith("NUMA domain (PXM) %d:" % k)]
    other = [c for c in boxes if c.startswith("NUMA domain (PXM) %d:" % (1 - k))]
    if len(sock) != 1 or len(dom) != 1 or not inside(boxes[dom[0]], boxes[sock[0]]) or inside(boxes[other[0]], boxes[sock[0]]):
        bad.append("socket %d: clusters %s" % (k, sorted(boxes)))
if any(c.startswith("socket not known") for c in boxes): bad.append("a socket-not-known cluster")
print("\n".join(bad)) if bad else None
sys.exit(1 if bad else 0)
PY
fi

# the help names every table decoded field by field (the rows of acpi/decode.c with a layout or hook)
t_run help 0 fwlens acpi --help
missing=""
for sig in $(grep -o '\(LAYOUT\|HOOK\)("[A-Z0-9]*"' "$FWLENS_SRCDIR/acpi/decode.c" | sed 's/.*("//;s/"//'); do
	tr '\n' ' ' <"$T_OUT" | grep -q "[ (]$sig[ ,.)]" || missing="$missing $sig"
done
if [ -z "$missing" ]; then pass help-lists-decoded-tables; else fail help-lists-decoded-tables "not in acpi --help:$missing"; fi
