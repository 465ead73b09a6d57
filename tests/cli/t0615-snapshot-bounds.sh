#!/bin/sh
# Snapshot capture and loading within the same bounds: a folder of links to itself is read once,
# a file reached through several links is stored once, what is left out for depth is recorded,
# names of any length and names that are not UTF-8 round-trip, and compressed members are
# bounded before anything is inflated.
. "$(dirname "$0")/lib.sh"

root="$T_DIR/root"
tables="$root/sys/firmware/acpi/tables"
mkdir -p "$tables/loop" "$tables/dynamic" "$tables/a/b/c/d/e" "$root/proc"
if [ -f "$SAMPLES/sysroot-1104/sys/firmware/acpi/tables/DSDT" ]; then
	cp "$SAMPLES/sysroot-1104/sys/firmware/acpi/tables/DSDT" "$tables/DSDT"
else
	printf 'DSDT and some AML' >"$tables/DSDT"
fi
# 12 links to the folder itself: 22,621 members before (every path to depth 4)
for i in 1 2 3 4 5 6 7 8 9 10 11 12; do ln -s . "$tables/loop/l$i"; done
ln "$tables/DSDT" "$tables/dynamic/SSDT7"    # a hard link: the same device and inode
ln -s ../DSDT "$tables/dynamic/SSDT8"        # a symbolic link to it
printf 'deep' >"$tables/a/b/c/d/e/F"         # five folders down
printf 'x' >"$tables/T$(printf '\377')"      # a name that is not UTF-8
long=$(printf '%0200d' 0 | tr 0 n)
mkdir -p "$tables/$long/$long"
printf 'long' >"$tables/$long/$long/$long"   # a name of 650 bytes (pax path record)

snap="$T_DIR/s.fwsnap"
t_run capture-loop 0 timeout 20 "$FWLENS" snapshot capture --root "$root" -o "$snap" -q
tar xOf "$snap" manifest.json >"$T_DIR/manifest.json" 2>/dev/null
members=$(tar tf "$snap" 2>/dev/null | grep -c '^files/')
[ "$members" -eq 3 ] && pass capture-loop-once || fail capture-loop-once "$members members (DSDT, T\\377, the long name expected)"
[ "$(grep -c '"path": "sys/firmware/acpi/tables/loop/l' "$T_DIR/manifest.json")" -eq 12 ] &&
	grep -q '"target": "sys/firmware/acpi/tables/loop"' "$T_DIR/manifest.json" &&
	pass capture-loop-links-recorded || fail capture-loop-links-recorded "the 12 links are not recorded as links"
# the hard link and the symbolic link are links to the file taken once
python3 - "$T_DIR/manifest.json" <<'PY' && pass capture-same-inode-once || fail capture-same-inode-once "see the manifest"
import json, sys
m = json.load(open(sys.argv[1]))
links = {l["path"]: l["target"] for l in m["links"]}
t = "sys/firmware/acpi/tables/"
assert links[t + "dynamic/SSDT7"] == t + "DSDT", links
assert links[t + "dynamic/SSDT8"] == t + "DSDT", links
assert not any(x["path"].startswith(t + "dynamic/") for x in m["members"])
PY
grep -q '"path": "sys/firmware/acpi/tables/a/b/c/d/e"' "$T_DIR/manifest.json" &&
	grep -q '"reason": "not captured: a folder deeper than 4 levels"' "$T_DIR/manifest.json" &&
	pass capture-depth-recorded || fail capture-depth-recorded "no unreadable entry for a/b/c/d/e"
# the name that is not UTF-8: escaped, with its bytes in hex
grep -q '"path": "sys/firmware/acpi/tables/T\\\\xff"' "$T_DIR/manifest.json" &&
	grep -q '"path_hex": "7379732f6669726d776172652f616370692f7461626c65732f54ff"' "$T_DIR/manifest.json" &&
	pass manifest-raw-name-kept || fail manifest-raw-name-kept "$(grep -n 'T\\' "$T_DIR/manifest.json")"
# every member, the long and the raw name too, reads back with its SHA-256; the links resolve
t_run show-roundtrip 0 fwlens snapshot show "$snap"
t_contains show-roundtrip-members "3 files, 14 links; 3 checked, 0 mismatched"
# a path stored as a link to the file taken once reads that file's bytes
if t_need_file acpi-through-link "$SAMPLES/sysroot-1104/sys/firmware/acpi/tables/DSDT" "the samples are not built"; then
	t_run acpi-through-link 0 fwlens acpi "$snap"
	grep -q 'file dynamic/SSDT7 holds a DSDT table' "$T_OUT" && grep -q 'file dynamic/SSDT8 holds a DSDT table' "$T_OUT" &&
		pass acpi-through-link-read || fail acpi-through-link-read "$(grep -i 'ssdt' "$T_OUT" | head -3)"
fi

# Compressed members: three of 100 MiB each pass the 256 MiB budget at the third, refused from
# its stated size before it is inflated (2 GiB of members were allowed before).
python3 - "$T_DIR" <<'PY'
import io, json, sys, tarfile, zlib, struct
d = sys.argv[1]
def gz(n, lie=None):
    c = zlib.compressobj(1, zlib.DEFLATED, 31)
    out = [c.compress(b"\0" * (1 << 20)) for _ in range(n >> 20)] + [c.flush()]
    data = b"".join(out)
    return data[:-4] + struct.pack("<I", lie) if lie else data
def snap(name, members):
    man = json.dumps({"format": "fwlens-snapshot", "version": 1, "members": [], "links": [], "nodes": [],
                      "unreadable": []}).encode()
    with tarfile.open(d + "/" + name, "w", format=tarfile.USTAR_FORMAT) as t:
        for n, b in [("manifest.json", man)] + members:
            i = tarfile.TarInfo(n); i.size = len(b); t.addfile(i, io.BytesIO(b))
snap("bomb.fwsnap", [("files/m%d.gz" % k, gz(100 << 20)) for k in range(3)])
snap("liar.fwsnap", [("files/m.gz", gz(1 << 20, lie=100 << 20))])
PY
t_run gzip-budget 3 fwlens snapshot show "$T_DIR/bomb.fwsnap"
grep -q 'bomb.fwsnap: member files/m2.gz at 0x[0-9a-f]*: inflates to 104857600 bytes, more than is left of the budget for compressed members (58720256)' "$T_ERR" &&
	pass gzip-budget-message || fail gzip-budget-message "$(cat "$T_ERR")"
t_run gzip-stated-size 3 fwlens snapshot show "$T_DIR/liar.fwsnap"
grep -q 'liar.fwsnap: member files/m.gz at 0x[0-9a-f]*: inflates to 104857600 bytes, more than deflate can give from its size' "$T_ERR" &&
	pass gzip-stated-size-message || fail gzip-stated-size-message "$(cat "$T_ERR")"

# A snapshot written by the hand-written ustar writer before libarchive still loads, every member
# matching its SHA-256 (the gzip member DSDT.gz too).
t_run old-snapshot-loads 0 fwlens snapshot show "$FWLENS_SRCDIR/tests/fuzz/corpus/snapshot/small.fwsnap"
t_contains old-snapshot-members "11 files, 3 links; 11 checked, 0 mismatched"
