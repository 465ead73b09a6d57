#!/bin/sh
# An efivarfs tar compressed with gzip, xz, zstd or bzip2 is read as the plain tar is, by nvram and
# by every --vars consumer, within the same limits on what its members inflate to; a compressed
# tar that holds a firmware image and no efivarfs file is read as the image.
. "$(dirname "$0")/lib.sh"
CAP="$SAMPLES/ESC8000A-E13-ASUS-1104.CAP"
EV="$SAMPLES/sysroot-1104/sys/firmware/efi/efivars"
t_need_file efivarfs-compressed "$EV" "the samples (make samples)" || exit 0

(cd "$EV/.." && tar cf "$T_DIR/efivars.tar" efivars)
python3 - "$T_DIR" <<'EOF'
import sys, tarfile
d = sys.argv[1]
plain = tarfile.open(d + "/efivars.tar")
for mode, name in (("w:gz", "efivars.tar.gz"), ("w:xz", "efivars.tar.xz"), ("w:bz2", "efivars.tar.bz2")):
    with tarfile.open(d + "/" + name, mode) as t:
        for m in plain.getmembers():
            t.addfile(m, plain.extractfile(m) if m.isfile() else None)
EOF
forms="tar.gz tar.xz tar.bz2"
if command -v zstd >/dev/null 2>&1; then
	zstd -q "$T_DIR/efivars.tar" -o "$T_DIR/efivars.tar.zst" && forms="$forms tar.zst"
else
	skip efivarfs-zstd "no zstd program to build the archive"
fi

fwlens nvram "$T_DIR/efivars.tar" --format json >"$T_DIR/plain.json"
fwlens settings "$CAP" --vars "$T_DIR/efivars.tar" --format json >"$T_DIR/plain-settings.json"
for f in $forms; do
	t_run "nvram-$f" 0 fwlens nvram "$T_DIR/efivars.$f" --format json
	# the same stores and variables; only the input's name and its size on disk differ
	python3 - "$T_DIR/plain.json" "$T_OUT" "$T_DIR/why" <<'EOF' && pass "nvram-$f-same" || fail "nvram-$f-same" "$(cat "$T_DIR/why")"
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
for doc in (a, b):
    doc.pop("input", None)
    for s in doc["stores"]:
        s.pop("size", None)
names = [v["name"] for s in b["stores"] for v in s["variables"]]
ok = a == b and len(names) == 11 and "AmdSetupBRH" in names
open(sys.argv[3], "w").write("%d variables: %s" % (len(names), names))
sys.exit(0 if ok else 1)
EOF
	t_run "vars-$f" 0 fwlens settings "$CAP" --vars "$T_DIR/efivars.$f" --format json
	sed "s/efivars\.$f/efivars.tar/g" "$T_OUT" | cmp -s - "$T_DIR/plain-settings.json" && pass "vars-$f-same" ||
		fail "vars-$f-same" "settings --vars efivars.$f differ from --vars efivars.tar"
done

# A vendor download holding the image and no efivarfs file: the image's own stores, plain or gzip.
mkdir -p "$T_DIR/dl" && cp "$CAP" "$T_DIR/dl/BIOS.CAP"
(cd "$T_DIR/dl" && tar cf ../bios.tar BIOS.CAP && gzip -c ../bios.tar >../bios.tar.gz)
fwlens nvram "$CAP" >"$T_DIR/cap.txt"
for f in bios.tar bios.tar.gz; do
	t_run "image-$f" 0 fwlens nvram "$T_DIR/$f"
	cmp -s "$T_OUT" "$T_DIR/cap.txt" && pass "image-$f-stores" || fail "image-$f-stores" "$(head -3 "$T_OUT")"
done

# Limits on the inflated bytes: a variable of 17 MiB (16 MiB each) and 257 MiB of other members
# (256 MiB in all) are refused from their stated sizes, exit 3.
python3 - "$T_DIR" <<'EOF'
import io, sys, tarfile
d = sys.argv[1]
def add(t, name, n):
    i = tarfile.TarInfo(name); i.size = n
    t.addfile(i, io.BytesIO(bytes(n)))
with tarfile.open(d + "/big-var.tar.gz", "w:gz", compresslevel=1) as t:
    add(t, "efivars/Big-8be4df61-93ca-11d2-aa0d-00e098032b8c", 17 << 20)
with tarfile.open(d + "/big-total.tar.gz", "w:gz", compresslevel=1) as t:
    add(t, "efivars/Timeout-8be4df61-93ca-11d2-aa0d-00e098032b8c", 6)
    add(t, "junk.bin", 257 << 20)
EOF
t_run limit-one-variable 3 fwlens nvram "$T_DIR/big-var.tar.gz"
grep -q "tar member at 0x0: efivars/Big-8be4df61-93ca-11d2-aa0d-00e098032b8c is larger than the limit for one member" "$T_ERR" &&
	pass limit-one-variable-message || fail limit-one-variable-message "$(cat "$T_ERR")"
t_run limit-total 3 fwlens nvram "$T_DIR/big-total.tar.gz"
grep -q "tar member at 0x[0-9a-f]*: junk.bin takes the members past their total limit" "$T_ERR" &&
	pass limit-total-message || fail limit-total-message "$(cat "$T_ERR")"
