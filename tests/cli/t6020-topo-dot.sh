#!/bin/sh
# The topology as a picture: `acpi topo --format dot` on a sample machine folder and snapshot
# (golden), rendered by Graphviz into SVG whose nodes, edges and clusters (NUMA domains inside a
# socket cluster that says the socket is not known) are checked; `notes --svg DIR`
# links the drawing, and without Graphviz keeps the table and says so.
. "$(dirname "$0")/lib.sh"

G="$FWLENS_SRCDIR/tests/cli/golden/t6020-topo-dot"
t_need_file topo-dot "$SAMPLES/sysroot-1201" "the samples (make samples)" || exit 0
t_need_cmd topo-dot iasl || exit 0

t_golden topo-dot-1201 "$G/topo-1201.dot" t_in_dir "$SAMPLES" fwlens acpi topo sysroot-1201 --format dot
cp "$T_OUT" "$T_DIR/folder.dot"
# the eight NUMA domains are drawn inside the socket cluster
python3 - "$T_OUT" <<'PY' && pass topo-dot-sockets || fail topo-dot-sockets "the NUMA domains are not all inside the socket cluster"
import sys
depth, inside, n = 0, None, 0
for line in open(sys.argv[1]):
    if "subgraph cluster_socket_unknown" in line:
        inside = depth
    if inside is not None and "subgraph cluster_pxm" in line:
        n += 1
    depth += line.count("{") - line.count("}")
    if inside is not None and depth <= inside:
        inside = None
sys.exit(0 if n == 8 else 1)
PY
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
nodes, edges, clusters = {}, [], []
for g in root.iter("{http://www.w3.org/2000/svg}g"):
    title = g.find("s:title", ns)
    text = " ".join(t.text or "" for t in g.iter("{http://www.w3.org/2000/svg}text"))
    if g.get("class") == "node":
        nodes[title.text] = text
    elif g.get("class") == "edge":
        edges.append((title.text, text))
    elif g.get("class") == "cluster":
        clusters.append(text)
bad = []
gpus = [n for n, t in nodes.items() if t.startswith("GPU ")]
bridges = [n for n in nodes if re.fullmatch(r"br\d+", n)]
iommus = [n for n in nodes if n.startswith("iommu")]
if len(gpus) != 8: bad.append("%d GPU nodes, want 8" % len(gpus))
if len(bridges) != 8: bad.append("%d root bridges, want 8" % len(bridges))
if len(iommus) != 8: bad.append("%d IOMMUs, want 8" % len(iommus))
if not any("NUMA domain" in c for c in clusters): bad.append("no NUMA domain cluster")
# no table the samples carry says which socket a domain is on: one cluster around them says so
if sum(1 for c in clusters if c.startswith("socket not known")) != 1: bad.append("no socket cluster")
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
