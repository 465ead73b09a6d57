#!/bin/sh
# fwlens diff: every change planted between the sample BIOS 1104 and 1201 capsules is reported in
# its category (read from build/samples/planted-changes.json), a capsule against itself is equal,
# the two sample machines report their value, ACPI (NUMA) and kernel changes, the WRX90E Zen 4 and
# Zen 5 CBS forms report moved menus as moves, settings lists from standard input, bad input.
. "$(dirname "$0")/lib.sh"
G="$FWLENS_SRCDIR/tests/cli/golden/t0800-diff"
LIST="$FWLENS_SRCDIR/tests/data/query/settings.json"
from_stdin() { f=$1; shift; "$@" <"$f"; }

# Settings lists: a list against itself, and against a copy with planted changes.
t_run list-self 0 fwlens diff "$LIST" "$LIST"
t_contains list-self-equal "no differences"
python3 - "$LIST" "$T_DIR/changed.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
s = d["settings"]
by = {x["prompt"]: x for x in s}
by["IOMMU"]["path"] = "AMD CBS > NBIO Common Options"             # menu moved
by["IOMMU"]["paths"] = [by["IOMMU"]["path"]]
by["IOMMU"]["offset"] = 0x123
by["ACS Enable"]["defaults"][0]["value"] = 1                      # default changed
by["NUMA nodes per socket"]["current"] = 3                        # value changed
by["SMEE"]["offset"] = 0x38                                       # layout shift only
s.remove(by["Fan Profile"])                                       # removed
s.append(dict(by["Core Performance Boost"], prompt="SEV-TIO Support", offset=0x601))  # added
json.dump(d, open(sys.argv[2], "w"), indent=1)
PY
cp "$LIST" "$T_DIR/settings.json"
T_EXIT=1 t_golden list-text "$G/list.txt" t_in_dir "$T_DIR" fwlens diff settings.json changed.json
T_EXIT=1 t_golden list-text-verbose "$G/list-verbose.txt" t_in_dir "$T_DIR" fwlens diff settings.json changed.json -v
T_EXIT=1 t_golden list-json "$G/list.json" t_in_dir "$T_DIR" fwlens diff settings.json changed.json --format json
T_EXIT=1 t_golden list-markdown "$G/list.md" t_in_dir "$T_DIR" fwlens diff settings.json changed.json --format markdown
T_EXIT=1 t_golden list-stdin "$G/list-stdin.txt" t_in_dir "$T_DIR" from_stdin settings.json fwlens diff - changed.json
t_run list-xml 1 fwlens diff "$LIST" "$T_DIR/changed.json" --format xml && t_contains list-xml-moved "<moved>"
t_run stdin-twice 2 fwlens diff - -
t_run missing-file 4 fwlens diff "$LIST" "$T_DIR/nope.cap"
printf 'not a settings list' >"$T_DIR/bad.json"
t_run bad-list 3 fwlens diff "$LIST" "$T_DIR/bad.json"
[ "$(wc -l <"$T_ERR")" -eq 1 ] && pass bad-list-one-line || fail bad-list-one-line "$(cat "$T_ERR")"

# The sample capsules: every planted change in its category.
PLANTED="$SAMPLES/planted-changes.json"
if t_need_file planted "$PLANTED" "the samples (make samples)"; then
	t_run capsule-self 0 fwlens diff "$SAMPLES/ESC8000A-E13-ASUS-1104.CAP" "$SAMPLES/ESC8000A-E13-ASUS-1104.CAP"
	t_contains capsule-self-equal "no differences"
	t_run capsules 1 fwlens diff "$SAMPLES/ESC8000A-E13-ASUS-1104.CAP" "$SAMPLES/ESC8000A-E13-ASUS-1201.CAP" --format json
	cp "$T_OUT" "$T_DIR/capsules.json"
	python3 - "$PLANTED" "$T_DIR/capsules.json" <<'PY' && pass capsules-planted || fail capsules-planted "see above"
import json, sys
planted = json.load(open(sys.argv[1]))
diff = json.load(open(sys.argv[2]))
bad, checked = [], 0
def path_ok(mine, want):
    # the same menu named from the formset ("AMD CBS > ...") or from the setup root ("Advanced > AMD CBS > ...")
    return mine is not None and (mine == want or mine.endswith(" > " + want) or want.endswith(" > " + mine))
for p in planted.get("settings", []):
    checked += 1
    got = [x for x in diff["settings"][p["change"]] if x["prompt"] == p["prompt"] and path_ok(x["path"], p["path"])]
    if not got:
        bad.append("setting %s %r at %r (%s)" % (p["change"], p["prompt"], p["path"], p["what"]))
    elif p["change"] == "changed" and p["what"].startswith("default") and not any(
            c["field"] == "default" for x in got for c in x["changes"]):
        bad.append("setting %r: no default change (%s)" % (p["prompt"], p["what"]))
    elif p["change"] == "changed" and p["what"].startswith("options") and not any(
            c["field"] == "options" for x in got for c in x["changes"]):
        bad.append("setting %r: no options change (%s)" % (p["prompt"], p["what"]))
for p in planted.get("modules", []):
    checked += 1
    if not any(x["key"] == p["guid"] for x in diff["modules"][p["change"]]):
        bad.append("module %s %s %s (%s)" % (p["change"], p["name"], p["guid"], p["what"]))
for p in planted.get("varstores", []):
    checked += 1
    if not any(x["key"] == p["name"] for x in diff["varstores"][p["change"]]):
        bad.append("varstore %s %s (%s)" % (p["change"], p["name"], p["what"]))
for key, v in planted.get("versions", {}).items():
    checked += 1
    got = diff["versions"].get(key)
    # the same fact may be spelled with its marker ("AGESA!V9 ...") or list every patch level
    if not got or not got["old"] or not got["new"] or not (v["old"].endswith(got["old"]) or v["old"] in got["old"]) \
            or not (v["new"].endswith(got["new"]) or v["new"] in got["new"]):
        bad.append("version %s: %s -> %s, reported %s" % (key, v["old"], v["new"], got))
print("# %d planted changes checked" % checked)
if bad:
    print("\n".join(bad))
sys.exit(1 if bad or checked < 10 else 0)
PY
	t_run capsules-markdown 1 fwlens diff "$SAMPLES/ESC8000A-E13-ASUS-1104.CAP" "$SAMPLES/ESC8000A-E13-ASUS-1201.CAP" --format markdown
	t_contains capsules-markdown-moved "| moved | xGMI Force Link Width Control |"
fi

# The sample machines, as folders and as snapshots: the same answers, with the value, ACPI (NUMA)
# and kernel changes the samples made between them.
if t_need_file machines "$SAMPLES/sysroot-1201" "the samples (make samples)"; then
	for v in 1104 1201; do
		fwlens snapshot capture -q --root "$SAMPLES/sysroot-$v" --image "$SAMPLES/ESC8000A-E13-ASUS-$v.CAP" -o "$T_DIR/s$v.fwsnap"
	done
	t_run machines-folders 1 fwlens diff "$SAMPLES/sysroot-1104" "$SAMPLES/sysroot-1201" \
		--image-a "$SAMPLES/ESC8000A-E13-ASUS-1104.CAP" --image-b "$SAMPLES/ESC8000A-E13-ASUS-1201.CAP" --format json
	cp "$T_OUT" "$T_DIR/folders.json"
	t_run machines-snapshots 1 fwlens diff "$T_DIR/s1104.fwsnap" "$T_DIR/s1201.fwsnap" --format json
	cp "$T_OUT" "$T_DIR/snapshots.json"
	fwlens settings "$T_DIR/s1104.fwsnap" --format json >"$T_DIR/set1104.json"
	fwlens settings "$T_DIR/s1201.fwsnap" --format json >"$T_DIR/set1201.json"
	python3 - "$T_DIR/folders.json" "$T_DIR/snapshots.json" "$SAMPLES" "$T_DIR" <<'PY' && pass machines-changes || fail machines-changes "see above"
import json, os, sys
a = json.load(open(sys.argv[1])); b = json.load(open(sys.argv[2]))
samples, tmp = sys.argv[3], sys.argv[4]
sys.path.insert(0, os.path.join(os.environ["FWLENS_SRCDIR"], "tests", "cli"))
from jsonutil import drop
for d in (a, b):
    d.pop("sources")
    for k in ("current_source", "old_source", "new_source"):
        drop(d, k)  # where values came from names each input (a folder, a snapshot)
bad = []
if a != b:
    bad.append("the snapshots do not give the folders' diff")
# every setting whose current value differs between the two machines, as `settings` reads them,
# except those where each machine holds its own BIOS's default and the default changed: that is
# a default change (settings section), not a value change
def values(path):
    out = {}
    for x in json.load(open(path))["settings"]:
        std = [d["value"] for d in x.get("defaults", []) if d.get("store") == "standard" and "value" in d]
        out[(x["prompt"], x["path"])] = (x.get("current_text", x.get("current")), x.get("current"), std[0] if std else None)
    return out
va, vb = values(tmp + "/set1104.json"), values(tmp + "/set1201.json")
changed = {k for k in va.keys() & vb.keys() if va[k][0] != vb[k][0]}
follows = {k for k in changed if va[k][1] == va[k][2] and vb[k][1] == vb[k][2] and va[k][2] != vb[k][2]}
want = changed - follows
got = {(v["prompt"], v["path"]) for v in b["values"]}
if not want or want - got:
    bad.append("value changes missing: %s" % sorted(want - got))
if got & follows:
    bad.append("default changes repeated as value changes: %s" % sorted(got & follows))
if not follows:
    bad.append("the samples plant a default change the machines follow (Above 4GB MMIO Limit)")
defaults = {(s["prompt"], s["path"]) for s in b["settings"]["changed"] for c in s["changes"] if c["field"] == "default"}
if follows - defaults:
    bad.append("default changes not in the settings section: %s" % sorted(follows - defaults))
# every ACPI table whose bytes differ between the two sysroots
def tables(v):
    d = "%s/sysroot-%s/sys/firmware/acpi/tables" % (samples, v)
    return {n: open(os.path.join(d, n), "rb").read() for n in os.listdir(d) if os.path.isfile(os.path.join(d, n))}
ta, tb = tables("1104"), tables("1201")
changed_files = {n for n in ta.keys() & tb.keys() if ta[n] != tb[n]}
changed = {x["key"].split()[0] for x in b["acpi"]["changed"] if x.get("group") == "tables"}
missing = {n for n in changed_files if n.rstrip("0123456789") not in changed}
if not changed_files or missing:
    bad.append("ACPI table changes missing: %s" % sorted(missing))
srat = {c["field"]: c for x in b["acpi"]["changed"] if x["key"] == "SRAT" for c in x["changes"]}
if "proximity domains" not in srat:
    bad.append("SRAT: no proximity domain change (NPS)")
if not any(x.get("group") == "root bridges" for x in b["acpi"]["changed"]):
    bad.append("no root bridge _PXM change")
# every kernel option that differs between the two command lines
def options(v):
    opts = {}
    for tok in open("%s/sysroot-%s/proc/cmdline" % (samples, v)).read().split():
        k, _, val = tok.partition("=")
        opts.setdefault(k, []).append(tok)
    return opts
oa, ob = options("1104"), options("1201")
want = {k for k in oa.keys() | ob.keys() if oa.get(k) != ob.get(k)}
got = {x["key"] for x in b["kernel"].get("cmdline", [])}
if not want or want != got:
    bad.append("command line changes: want %s, got %s" % (sorted(want), sorted(got)))
if not b["kernel"].get("iommu-groups"):
    bad.append("IOMMU group changes missing")
if bad:
    print("\n".join(bad))
sys.exit(1 if bad else 0)
PY
fi

# The WRX90E capsule: its Zen 4 and Zen 5 CBS forms, where IOMMU, ACS Enable, ARI, Ten Bit Tag
# and SEV-SNP Support moved from NBIO Common Options to NBIO > PCIE and NBIO > IOMMU/Security.
CAP="$CORPUS/firmware/asus-wrx90e-sage-se-1203_rebuilt.cap"
if t_need_file wrx90e-zen "$CAP" "the WRX90E capsule of the corpus"; then
	t_run wrx90e-zen 1 fwlens diff "$CAP" "$CAP" --module-a CbsSetupDxeSTP --module-b CbsSetupDxeSHP --format json
	python3 - "$T_OUT" <<'PY' && pass wrx90e-zen-moves || fail wrx90e-zen-moves "see above"
import json, sys
d = json.load(open(sys.argv[1]))
moved = {x["prompt"]: x for x in d["settings"]["moved"]}
want = {"IOMMU": "IOMMU/Security", "ACS Enable": "PCIE", "PCIe ARI Support": "PCIE",
        "PCIe Ten Bit Tag Support": "PCIE", "SEV-SNP Support": "IOMMU/Security"}
bad = []
for prompt, sub in want.items():
    m = moved.get(prompt)
    if not m or m["old_path"] != "Setup > Advanced > AMD CBS > NBIO Common Options" or m["path"] != "Setup > Advanced > AMD CBS > NBIO Common Options > " + sub:
        bad.append("%s: %s" % (prompt, m and (m["old_path"], m["path"])))
    for side in ("added", "removed"):
        if any(x["prompt"] == prompt for x in d["settings"][side]):
            bad.append("%s also reported as %s" % (prompt, side))
if [c for c in d["varstores"]["changed"] if c["key"] == "AmdSetupSTP"] == []:
    bad.append("varstore rename AmdSetupSTP -> AmdSetupSHP missing")
if bad:
    print("\n".join(bad))
sys.exit(1 if bad else 0)
PY
	t_run wrx90e-self 0 fwlens diff "$CAP" "$CAP"
	# two different images: the ACPI tables the WRX90E modules carry and the sample image does not
	if t_need_file wrx90e-acpi "$SAMPLES/ESC8000A-E13-ASUS-1201.CAP" "the samples (make samples)"; then
		t_run wrx90e-acpi 1 fwlens diff "$CAP" "$SAMPLES/ESC8000A-E13-ASUS-1201.CAP" --format json
		python3 - "$T_OUT" <<'PY' && pass wrx90e-acpi-tables || fail wrx90e-acpi-tables "see above"
import json, sys
d = json.load(open(sys.argv[1]))
removed = {x["key"] for x in d["acpi"]["removed"]}
ok = "SSDT ALIB" in removed and d["versions"]["bios_version"] == {"old": "1203", "new": "1201"}
if not ok:
    print(sorted(removed), d["versions"].get("bios_version"))
sys.exit(0 if ok else 1)
PY
	fi
fi
