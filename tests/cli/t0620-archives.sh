#!/bin/sh
# Vendor downloads: a firmware image inside a zip, tar.gz, tar.xz or .gz is read in memory as
# the image itself; several images need --member; the archive's own bounds (a bomb) are kept.
. "$(dirname "$0")/lib.sh"
CAP="$SAMPLES/ESC8000A-E13-ASUS-1104.CAP"
t_need_file archives "$CAP" "the samples are not built" || exit 0
t_need_cmd archives python3 || exit 0

cd "$T_DIR" || exit 1
cp "$CAP" BIOS.CAP
cp "$SAMPLES/ESC8000A-E13-ASUS-1201.CAP" NEW.CAP
printf 'MZ\x90\x00 a flashing tool\n' >AFUEFI64.EFI
printf 'Flash with AFUEFI64.EFI BIOS.CAP\n' >Readme.txt
python3 - <<'PY'
import gzip, shutil, tarfile, zipfile
with zipfile.ZipFile("bios.zip", "w", zipfile.ZIP_DEFLATED) as z:
    for f in ("Readme.txt", "AFUEFI64.EFI", "BIOS.CAP"):
        z.write(f, "ESC8000A/" + f)
with zipfile.ZipFile("two.zip", "w", zipfile.ZIP_DEFLATED) as z:
    for f in ("Readme.txt", "BIOS.CAP", "NEW.CAP"):
        z.write(f)
with zipfile.ZipFile("tools.zip", "w", zipfile.ZIP_DEFLATED) as z:
    for f in ("Readme.txt", "AFUEFI64.EFI"):
        z.write(f)
with zipfile.ZipFile("bomb.zip", "w", zipfile.ZIP_DEFLATED) as z:
    z.writestr("BIOS.CAP", b"\xff" * (200 << 20))
for mode, name in (("w:gz", "bios.tar.gz"), ("w:xz", "bios.tar.xz")):
    with tarfile.open(name, mode) as t:
        t.add("Readme.txt")
        t.add("BIOS.CAP")
with open("BIOS.CAP", "rb") as i, gzip.open("BIOS.CAP.gz", "wb") as o:
    shutil.copyfileobj(i, o)
PY

fwlens settings BIOS.CAP --format json >plain.json
for a in bios.zip bios.tar.gz bios.tar.xz BIOS.CAP.gz; do
	t_run "settings-$a" 0 fwlens settings "$a" --format json
	# the same settings; only the input's name differs (the archive, or ARCHIVE:MEMBER)
	sed "s#$a:[^\" ]*#INPUT#g; s#$a#INPUT#g" "$T_OUT" >got.json
	sed 's#BIOS.CAP#INPUT#g' plain.json >want.json
	cmp -s got.json want.json && pass "settings-$a-same" || fail "settings-$a-same" "differs from the capsule's"
done
t_run info-names-member 0 fwlens info bios.zip
head -n 1 "$T_OUT" | grep -qx 'bios.zip:ESC8000A/BIOS.CAP' && pass info-names-member-path || fail info-names-member-path "$(head -n 1 "$T_OUT")"
t_run find-through-zip 0 fwlens find bios.zip '^SMEE$' --in prompt
t_run tree-through-tar 0 fwlens tree bios.tar.gz --max-depth 1

# Several images: exit 2 listing them; --member picks one (by path or by base name).
t_run several-images 2 fwlens info two.zip
grep -q 'two.zip holds 2 firmware images: BIOS.CAP, NEW.CAP; pick one with --member NAME' "$T_ERR" &&
	pass several-images-listed || fail several-images-listed "$(cat "$T_ERR")"
t_run member-picks 0 fwlens info two.zip --member NEW.CAP
head -n 1 "$T_OUT" | grep -qx 'two.zip:NEW.CAP' && pass member-picks-name || fail member-picks-name "$(head -n 1 "$T_OUT")"
t_run member-by-base-name 0 fwlens info bios.zip --member BIOS.CAP
t_run member-missing 3 fwlens info two.zip --member OLD.CAP
grep -q 'two.zip: no member OLD.CAP; it holds Readme.txt, BIOS.CAP, NEW.CAP' "$T_ERR" &&
	pass member-missing-lists || fail member-missing-lists "$(cat "$T_ERR")"
t_run no-image 3 fwlens info tools.zip
grep -q 'tools.zip: no firmware image fwlens recognises among its 2 files: Readme.txt, AFUEFI64.EFI' "$T_ERR" &&
	pass no-image-lists || fail no-image-lists "$(cat "$T_ERR")"

# A bomb: 200 MiB of erased flash in 200 KiB is refused from its stated size, before inflating.
t_run bomb-refused 3 timeout 20 "$FWLENS" info bomb.zip
grep -q 'bomb.zip: member BIOS.CAP states 209715200 bytes, more than the archive.s limits allow' "$T_ERR" &&
	pass bomb-refused-message || fail bomb-refused-message "$(cat "$T_ERR")"
# A damaged archive is bad input naming the archive.
head -c 100000 bios.zip >cut.zip
t_run cut-archive 3 fwlens info cut.zip
[ "$(wc -l <"$T_ERR")" -eq 1 ] && grep -q 'cut.zip' "$T_ERR" && pass cut-archive-one-line || fail cut-archive-one-line "$(cat "$T_ERR")"
# verify reads the capsule itself: the same verdict from the zip as from the capsule
fwlens verify BIOS.CAP >verify-plain.txt 2>/dev/null
want=$?
t_run verify-through-zip "$want" fwlens verify bios.zip
sed 's/bios.zip:ESC8000A\/BIOS.CAP/BIOS.CAP/g' "$T_OUT" | cmp -s - verify-plain.txt && pass verify-through-zip-same ||
	fail verify-through-zip-same "$(head -n 3 "$T_OUT")"
