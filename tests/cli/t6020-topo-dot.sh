#!/bin/sh
# The topology as a picture: `acpi topo --format dot` on a sample machine folder and snapshot
# (golden), rendered by Graphviz into SVG whose nodes, edges and clusters are checked: each NUMA
# domain inside the socket Linux puts its CPUs on (sysfs physical_package_id and the node's
# cpulist), a domain whose CPUs span sockets and every domain of tables alone inside a cluster that
# says the socket is not known; `notes --svg DIR` links the drawing, and without Graphviz keeps the
# table and says so.
. "$(dirname "$0")/lib.sh"

G="$FWLENS_SRCDIR/tests/cli/golden/t6020-topo-dot"
t_need_file topo-dot "$SAMPLES/sysroot-1201" "the samples (make samples)" || exit 0
t_need_cmd topo-dot iasl || exit 0

t_golden topo-dot-1201 "$G/topo-1201.dot" t_in_dir "$SAMPLES" fwlens acpi topo sysroot-1201 --format dot
cp "$T_OUT" "$T_DIR/folder.dot"
# which NUMA domains each socket cluster holds in a DOT file: "socket0=0,1,2,3 socket1=4,5,6,7"
socket_domains() {
	python3 - "$1" <<'PY'
import re, sys
depth, cur, inside, out = 0, None, None, {}
for line in open(sys.argv[1]):
    m = re.search(r"subgraph cluster_(socket\w*)", line)
    if m:
        cur, inside = m.group(1), depth
        out.setdefault(cur, [])
    m = re.search(r"subgraph cluster_pxm(\d+)", line)
    if m and cur:
        out[cur].append(m.group(1))
    depth += line.count("{") - line.count("}")
    if cur and depth <= inside:
        cur = None
print(" ".join("%s=%s" % (k, ",".join(v)) for k, v in out.items()))
PY
}
# the machine's sysfs says the socket: PXM 0-3 on package 0, 4-7 on package 1 (NPS4)
got=$(socket_domains "$T_OUT")
[ "$got" = "socket0=0,1,2,3 socket1=4,5,6,7" ] && pass topo-dot-sockets || fail topo-dot-sockets "socket clusters: $got"
# the tables alone do not say it: one cluster, socket not known, around all eight
mkdir -p "$T_DIR/tables-only"
cp "$SAMPLES"/sysroot-1201/sys/firmware/acpi/tables/[A-Z]* "$T_DIR/tables-only/"
t_run topo-dot-tables-only 0 fwlens acpi topo "$T_DIR/tables-only" --format dot
got=$(socket_domains "$T_OUT")
[ "$got" = "socket_unknown=0,1,2,3,4,5,6,7" ] && pass topo-dot-tables-only-unknown || fail topo-dot-tables-only-unknown "socket clusters: $got"
# a node whose CPUs span packages (CPU 64 is on package 1) is not put under either
cp -R "$SAMPLES/sysroot-1201" "$T_DIR/span"
printf '0-14,64\n' >"$T_DIR/span/sys/devices/system/node/node0/cpulist"
t_run topo-dot-span 0 fwlens acpi topo "$T_DIR/span" --format dot
got=$(socket_domains "$T_OUT")
[ "$got" = "socket0=1,2,3 socket1=4,5,6,7 socket_unknown=0" ] && pass topo-dot-span-unknown || fail topo-dot-span-unknown "socket clusters: $got"
fwlens snapshot capture --root "$SAMPLES/sysroot-1201" -o "$T_DIR/s1201.fwsnap" -q
t_run topo-dot-snapshot 0 fwlens acpi topo "$T_DIR/s1201.fwsnap" --format dot
cmp -s "$T_OUT" "$T_DIR/folder.dot" && pass topo-dot-snapshot-same || fail topo-dot-snapshot-same "the snapshot draws differently from its folder"
t_run topo-dot-without-topo 0 fwlens acpi "$SAMPLES/sysroot-1201" --format dot
cmp -s "$T_OUT" "$T_DIR/folder.dot" && pass topo-dot-without-topo-same || fail topo-dot-without-topo-same "acpi SRC --format dot draws something else"

if t_need_cmd topo-svg dot; then
	dot -Tsvg "$T_DIR/folder.dot" -o "$T_DIR/t.svg" 2>"$T_ERR" && pass topo-svg-renders || fail topo-svg-renders "$(cat "$T_ERR")"
	python3 - "$T_DIR/t.svg" <<'PY' && pass topo-svg-nodes-edges || fail topo-svg-nodes-edges "see above"
import re, sys
import xml.etree.ElementTree as ET
ns = {"s": "http://www.w3.org/2000/svg"}
root = ET.parse(sys.argv[1]).getroot()
nodes, edges, clusters, boxes = {}, [], [], {}
for g in root.iter("{http://www.w3.org/2000/svg}g"):
    title = g.find("s:title", ns)
    text = " ".join(t.text or "" for t in g.iter("{http://www.w3.org/2000/svg}text"))
    if g.get("class") == "node":
        nodes[title.text] = text
    elif g.get("class") == "edge":
        edges.append((title.text, text))
    elif g.get("class") == "cluster":
        clusters.append(text)
        pts = [tuple(map(float, p.split(","))) for p in g.find("s:polygon", ns).get("points").split()]
        boxes[text] = (min(x for x, _ in pts), min(y for _, y in pts), max(x for x, _ in pts), max(y for _, y in pts))
bad = []
gpus = [n for n, t in nodes.items() if t.startswith("GPU ")]
bridges = [n for n in nodes if re.fullmatch(r"br\d+", n)]
iommus = [n for n in nodes if n.startswith("iommu")]
if len(gpus) != 8: bad.append("%d GPU nodes, want 8" % len(gpus))
if len(bridges) != 8: bad.append("%d root bridges, want 8" % len(bridges))
if len(iommus) != 8: bad.append("%d IOMMUs, want 8" % len(iommus))
if not any("NUMA domain" in c for c in clusters): bad.append("no NUMA domain cluster")
# the machine's sysfs says which socket each domain is on: two socket clusters, each drawn around
# its four domains
def inside(a, b): return a[0] >= b[0] and a[1] >= b[1] and a[2] <= b[2] and a[3] <= b[3]
for k in (0, 1):
    sock = [c for c in clusters if c.startswith("socket %d " % k)]
    if len(sock) != 1:
        bad.append("%d clusters for socket %d" % (len(sock), k))
        continue
    for p in range(8):
        dom = [c for c in clusters if c.startswith("NUMA domain (PXM) %d:" % p)]
        if len(dom) != 1 or inside(boxes[dom[0]], boxes[sock[0]]) != (p // 4 == k):
            bad.append("PXM %d is %s socket %d's cluster" % (p, "outside" if p // 4 == k else "inside", k))
if any(c.startswith("socket not known") for c in clusters): bad.append("a socket-not-known cluster on a machine whose sysfs says")
if not any("ACS redirect on" in t for t in nodes.values()): bad.append("no port with ACS redirect on")
if not all("IOMMU group" in nodes[g] and "owner:" in nodes[g] for g in gpus): bad.append("a GPU without owner or group")
if not any("IO_PAGE_FAULT" in t for _, t in edges): bad.append("no IO_PAGE_FAULT pair")
if sum(1 for e, _ in edges if "&#45;&gt;" in e or "->" in e) < 16: bad.append("only %d edges" % len(edges))
print("\n".join(bad)) if bad else None
sys.exit(1 if bad else 0)
PY
	t_run notes-svg 0 fwlens notes "$SAMPLES/sysroot-1201" --image "$SAMPLES/ESC8000A-E13-ASUS-1201.CAP" --svg "$T_DIR/pics"
	t_contains notes-svg-link "![Topology: NUMA domains, root bridges, IOMMUs, ports with ACS, GPUs]($T_DIR/pics/topology.svg)"
	[ -s "$T_DIR/pics/topology.svg" ] && pass notes-svg-file || fail notes-svg-file "no $T_DIR/pics/topology.svg"
fi
# without Graphviz: the table stays, the link goes, a message says why, and the run succeeds
FWLENS_DOT="$T_DIR/no-such-dot" t_run notes-svg-no-dot 0 fwlens notes "$SAMPLES/sysroot-1201" --image "$SAMPLES/ESC8000A-E13-ASUS-1201.CAP" --svg "$T_DIR/pics2"
grep -q "is not installed: drawing the topology needs Graphviz" "$T_ERR" && pass notes-svg-no-dot-message || fail notes-svg-no-dot-message "$(cat "$T_ERR")"
grep -q '!\[Topology' "$T_OUT" && fail notes-svg-no-dot-link "a link to a picture that was not drawn" || pass notes-svg-no-dot-link
t_contains notes-svg-no-dot-table "| GPU | Driver | Upstream ports |"
