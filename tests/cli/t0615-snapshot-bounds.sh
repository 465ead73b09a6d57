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
# the name that is not UTF-8: U+FFFD in the string, its bytes in hex
grep -q "\"path\": \"sys/firmware/acpi/tables/T$(printf '\357\277\275')\"" "$T_DIR/manifest.json" &&
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

# Budgets (members, bytes of all members, bytes of one member: 200,000, 2 GiB, 128 MiB) met
# through FWLENS_LIMITS, the same code lowered: capture takes what the loader accepts under the
# same limits and names what it left out in the manifest's unreadable list; the loader refuses a
# snapshot one past each of them. 30 files of 1000 bytes.
broot="$T_DIR/broot"
mkdir -p "$broot/sys/firmware/acpi/tables"
python3 -c '
import sys
for i in range(10, 40):
    open("%s/T%d" % (sys.argv[1], i), "wb").write(bytes([i]) * 1000)' "$broot/sys/firmware/acpi/tables"
full="$T_DIR/full.fwsnap"
fwlens snapshot capture -q --root "$broot" -o "$full"
# check-budget NAME SNAPSHOT MEMBERS MAX-BYTES REASON: the members taken, their bytes, and the
# files left out named in unreadable with REASON, together every file of the root
check_budget() {
	tar xOf "$2" manifest.json >"$T_DIR/bm.json" 2>/dev/null
	python3 - "$T_DIR/bm.json" "$3" "$4" "$5" "$T_DIR/why" <<'PY' && pass "$1" || fail "$1" "$(cat "$T_DIR/why")"
import json, sys
m = json.load(open(sys.argv[1]))
members, max_bytes, reason = int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
took = [x["path"] for x in m["members"]]
left = [u["path"] for u in m["unreadable"] if u["reason"] == reason]
every = ["sys/firmware/acpi/tables/T%d" % i for i in range(10, 40)]
why = []
if len(took) != members: why.append("%d members, %d expected" % (len(took), members))
if sum(x["size"] for x in m["members"]) > max_bytes: why.append("members hold more than %d bytes" % max_bytes)
if sorted(took + left) != every: why.append("taken %s, listed %s" % (took, left))
open(sys.argv[5], "w").write("; ".join(why) + " " + str([u["reason"] for u in m["unreadable"]][:3]))
sys.exit(1 if why else 0)
PY
}
# members: at most 11 with the manifest, so 10 files; the other 20 listed
t_run budget-members-capture 0 env FWLENS_LIMITS=snapshot-members=11 "$FWLENS" snapshot capture -q --root "$broot" -o "$T_DIR/m11.fwsnap"
check_budget budget-members-listed "$T_DIR/m11.fwsnap" 10 10000 "not captured: the snapshot's budget (10 members, 2013265920 bytes) is reached"
t_run budget-members-loads 0 env FWLENS_LIMITS=snapshot-members=11 "$FWLENS" snapshot show "$T_DIR/m11.fwsnap"
t_contains budget-members-loads-all "10 files, 0 links; 10 checked, 0 mismatched"
t_run budget-members-load-at 0 env FWLENS_LIMITS=snapshot-members=31 "$FWLENS" snapshot show "$full"
t_run budget-members-load-past 3 env FWLENS_LIMITS=snapshot-members=30 "$FWLENS" snapshot show "$full"
grep -q "full.fwsnap: tar member at 0x[0-9a-f]*: more than 30 members" "$T_ERR" && pass budget-members-load-past-message ||
	fail budget-members-load-past-message "$(cat "$T_ERR")"
# bytes of all members: 42768 less the manifest's room (32 KiB) leaves 10000, ten files
t_run budget-bytes-capture 0 env FWLENS_LIMITS=snapshot-bytes=42768,snapshot-member=32K "$FWLENS" snapshot capture -q --root "$broot" -o "$T_DIR/b.fwsnap"
check_budget budget-bytes-listed "$T_DIR/b.fwsnap" 10 10000 "not captured: the snapshot's budget (199999 members, 10000 bytes) is reached"
t_run budget-bytes-loads 0 env FWLENS_LIMITS=snapshot-bytes=42768,snapshot-member=32K "$FWLENS" snapshot show "$T_DIR/b.fwsnap"
t_run budget-bytes-load-at 0 env FWLENS_LIMITS=snapshot-bytes=30000 "$FWLENS" snapshot show "$full"
t_run budget-bytes-load-past 3 env FWLENS_LIMITS=snapshot-bytes=29999 "$FWLENS" snapshot show "$full"
grep -q "full.fwsnap: member files/sys/firmware/acpi/tables/T39 at 0x[0-9a-f]*: members add up to more than 29999 bytes" "$T_ERR" &&
	pass budget-bytes-load-past-message || fail budget-bytes-load-past-message "$(cat "$T_ERR")"
# one member: a file larger than a member may hold is listed, not taken
mkdir -p "$T_DIR/oroot/sys/firmware/acpi/tables"
head -c 1000 /dev/zero >"$T_DIR/oroot/sys/firmware/acpi/tables/T10"
head -c 5000 /dev/zero >"$T_DIR/oroot/sys/firmware/acpi/tables/BIG"
t_run budget-member-capture 0 env FWLENS_LIMITS=snapshot-member=4K "$FWLENS" snapshot capture -q --root "$T_DIR/oroot" -o "$T_DIR/one.fwsnap"
tar xOf "$T_DIR/one.fwsnap" manifest.json 2>/dev/null | grep -A1 '"path": "sys/firmware/acpi/tables/BIG"' |
	grep -q '"reason": "not captured: 5000 bytes, more than a snapshot member may hold (4096)"' &&
	[ "$(tar tf "$T_DIR/one.fwsnap" | grep -c '^files/')" -eq 1 ] && pass budget-member-listed ||
	fail budget-member-listed "$(tar tf "$T_DIR/one.fwsnap")"
t_run budget-member-loads 0 env FWLENS_LIMITS=snapshot-member=4K "$FWLENS" snapshot show "$T_DIR/one.fwsnap"
# the manifest is a member too: one that would not fit is refused at capture (nothing written),
# and a loader with a lower limit refuses the snapshot at its manifest
t_run budget-manifest-capture 3 env FWLENS_LIMITS=snapshot-member=2K "$FWLENS" snapshot capture -q --root "$broot" -o "$T_DIR/man.fwsnap"
grep -q "the manifest would take [0-9]* bytes, more than a snapshot member may hold (2048)" "$T_ERR" && [ ! -e "$T_DIR/man.fwsnap" ] &&
	pass budget-manifest-capture-message || fail budget-manifest-capture-message "$(cat "$T_ERR"); $(ls "$T_DIR"/man.fwsnap* 2>&1)"
t_run budget-manifest-load 3 env FWLENS_LIMITS=snapshot-member=2K "$FWLENS" snapshot show "$full"
grep -q "full.fwsnap: tar member at 0x0: manifest.json is larger than the limit for one member" "$T_ERR" &&
	pass budget-manifest-load-message || fail budget-manifest-load-message "$(cat "$T_ERR")"
