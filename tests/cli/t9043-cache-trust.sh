#!/bin/sh
# The cache of decoded firmware is as trusted as the user's own files, and no more: a folder writable
# by group or others, or owned by another user, is not used (one warning naming it, the same output
# as --no-cache, nothing written in it), nor an entry owned by another user; folders are made 0700 and files 0600 under any umask; a
# link planted for images.idx, pci-names.idx or for an entry is neither read nor written through (the target keeps
# its bytes); a forged entry with a recomputed SHA-256 is a miss (the output is --no-cache's) and is
# replaced; eviction removes only the names the cache writes; a longer images.idx than its bound is
# rebuilt.
. "$(dirname "$0")/lib.sh"

t_cache_image cache-trust || exit 0
t_need_cmd cache-trust jq || exit 0
t_need_cmd cache-trust openssl || exit 0
NAME="forms-$SHA-$RULES.bin"
fwlens snapshot capture -q --root "$SAMPLES/sysroot-1104" --image "$CAP" -o "$T_DIR/full.fwsnap"
fwlens snapshot capture -q --root "$SAMPLES/sysroot-1104" --image-ref "$T_DIR/images/BIOS-1104.CAP" -o "$T_DIR/ref.fwsnap"

norm() { jq -S 'del(.source) | del(.. | .current_source?)'; }
# the references: doctor without the cache, on the snapshot that stores the image (settings known)
# and on the one by reference without --image-dir (settings not known)
fwlens doctor "$T_DIR/full.fwsnap" --no-cache --format json -q | norm >"$T_DIR/want-full.json"
fwlens doctor "$T_DIR/ref.fwsnap" --no-cache --format json -q | norm >"$T_DIR/want-ref.json"
[ "$(jq '[.checks[] | select(.status == "skip")] | length' "$T_DIR/want-full.json")" -lt \
	"$(jq '[.checks[] | select(.status == "skip")] | length' "$T_DIR/want-ref.json")" ] &&
	pass references-differ || fail references-differ "the image gives no more answers than no image"

same() { # NAME WANT DIR ARGS...: doctor with --cache-dir DIR gives the reference WANT; stderr in $T_DIR/err
	name=$1 want=$2 dir=$3
	shift 3
	fwlens doctor "$@" --cache-dir "$dir" --format json 2>"$T_DIR/err" | norm >"$T_DIR/out.json"
	if cmp -s "$T_DIR/out.json" "$want"; then pass "$name"; else
		fail "$name" "$(diff "$want" "$T_DIR/out.json" | head -n 6 | tr '\n' ' ') $(head -c 200 "$T_DIR/err")"; fi
}
empty() { [ -z "$(ls -A "$1")" ]; }

# a folder writable by group or others: one warning naming it, the output of --no-cache, nothing written
for mode in 770 707; do
	mkdir -m "$mode" "$T_DIR/c$mode"
	same "mode-$mode-is-no-cache" "$T_DIR/want-full.json" "$T_DIR/c$mode" "$T_DIR/full.fwsnap"
	[ "$(grep -c "warning: the cache folder $T_DIR/c$mode is writable by group or others (mode 0$mode): not used$" "$T_DIR/err")" = 1 ] &&
		empty "$T_DIR/c$mode" && pass "mode-$mode-said-and-unwritten" ||
		fail "mode-$mode-said-and-unwritten" "$(head -c 300 "$T_DIR/err") $(ls -A "$T_DIR/c$mode" | head -c 200)"
done

# a folder owned by another user
if [ "$(id -u)" = 0 ]; then
	mkdir -m 700 "$T_DIR/cother"
	chown 4242:4242 "$T_DIR/cother"
	same other-owner-is-no-cache "$T_DIR/want-full.json" "$T_DIR/cother" "$T_DIR/full.fwsnap"
	grep -q "warning: the cache folder $T_DIR/cother is owned by uid 4242, not by uid 0 running fwlens: not used$" "$T_DIR/err" &&
		empty "$T_DIR/cother" && pass other-owner-said-and-unwritten ||
		fail other-owner-said-and-unwritten "$(head -c 300 "$T_DIR/err")"
else
	skip other-owner "not root: a folder owned by another user cannot be made (chown)"
fi

# made 0700 (with its missing parents) and 0600 under a permissive umask
mkdir "$T_DIR/u"
(umask 000 && fwlens doctor "$T_DIR/full.fwsnap" --cache-dir "$T_DIR/u/a/cache" -q >/dev/null)
[ "$(stat -c %a "$T_DIR/u/a") $(stat -c %a "$T_DIR/u/a/cache")" = "700 700" ] &&
	[ "$(stat -c %a "$T_DIR/u/a/cache/$NAME") $(stat -c %a "$T_DIR/u/a/cache/hmac.key") $(stat -c %a "$T_DIR/u/a/cache/images.idx") $(stat -c %a "$T_DIR/u/a/cache/pci-names.idx")" = "600 600 600 600" ] &&
	[ "$(ls -A "$T_DIR/u/a/cache" | wc -l)" = 4 ] && pass umask-000-modes ||
	fail umask-000-modes "$(ls -lAR "$T_DIR/u" | tr '\n' ' ' | head -c 400)"

# a link planted for images.idx: not read, not written through; replaced by the cache's own file
mkdir -m 700 "$T_DIR/cidx"
printf 'keep me\n' >"$T_DIR/victim"
ln -s "$T_DIR/victim" "$T_DIR/cidx/images.idx"
same idx-link-output "$T_DIR/want-full.json" "$T_DIR/cidx" "$T_DIR/full.fwsnap"
grep -q "warning: the cache file $T_DIR/cidx/images.idx is a symbolic link: not used$" "$T_DIR/err" &&
	[ "$(cat "$T_DIR/victim")" = "keep me" ] && [ -f "$T_DIR/cidx/images.idx" ] && [ ! -L "$T_DIR/cidx/images.idx" ] &&
	grep -q "^$SHA " "$T_DIR/cidx/images.idx" && pass idx-link-not-followed ||
	fail idx-link-not-followed "$(head -c 300 "$T_DIR/err") $(cat "$T_DIR/victim")"
# the same for pci-names.idx (the PCI names libpci found): not read, not written through, replaced
printf 'keep me too\n' >"$T_DIR/victim2"
rm -f "$T_DIR/cidx/pci-names.idx" && ln -s "$T_DIR/victim2" "$T_DIR/cidx/pci-names.idx"
same names-link-output "$T_DIR/want-full.json" "$T_DIR/cidx" "$T_DIR/full.fwsnap"
grep -q "warning: the cache file $T_DIR/cidx/pci-names.idx is a symbolic link: not used$" "$T_DIR/err" &&
	[ "$(cat "$T_DIR/victim2")" = "keep me too" ] && [ -f "$T_DIR/cidx/pci-names.idx" ] && [ ! -L "$T_DIR/cidx/pci-names.idx" ] &&
	grep -q "^10de 2bb5 " "$T_DIR/cidx/pci-names.idx" && pass names-link-not-followed ||
	fail names-link-not-followed "$(head -c 300 "$T_DIR/err") $(cat "$T_DIR/victim2")"

# a link planted for an entry: not read (the output of --no-cache), then replaced, its target kept
mkdir -m 700 "$T_DIR/clink"
fwlens doctor "$T_DIR/ref.fwsnap" --cache-dir "$T_DIR/clink" --image-dir "$T_DIR/images" -q >/dev/null
mv "$T_DIR/clink/$NAME" "$T_DIR/elsewhere.bin"
ln -s "$T_DIR/elsewhere.bin" "$T_DIR/clink/$NAME"
same entry-link-is-a-miss "$T_DIR/want-ref.json" "$T_DIR/clink" "$T_DIR/ref.fwsnap"
grep -q "warning: the cache file $T_DIR/clink/$NAME is a symbolic link: not used$" "$T_DIR/err" && pass entry-link-said ||
	fail entry-link-said "$(head -c 300 "$T_DIR/err")"
sum=$(sha256sum <"$T_DIR/elsewhere.bin")
same entry-link-rebuilt "$T_DIR/want-full.json" "$T_DIR/clink" "$T_DIR/ref.fwsnap" --image-dir "$T_DIR/images"
[ -f "$T_DIR/clink/$NAME" ] && [ ! -L "$T_DIR/clink/$NAME" ] && [ "$(sha256sum <"$T_DIR/elsewhere.bin")" = "$sum" ] &&
	pass entry-link-replaced-target-kept || fail entry-link-replaced-target-kept "$(ls -l "$T_DIR/clink" | tr '\n' ' ')"

# an entry owned by another user: a miss with a warning, then replaced by the user's own
if [ "$(id -u)" = 0 ]; then
	chown 4242:4242 "$T_DIR/clink/$NAME"
	same other-owner-entry-is-a-miss "$T_DIR/want-ref.json" "$T_DIR/clink" "$T_DIR/ref.fwsnap"
	grep -q "warning: the cache file $T_DIR/clink/$NAME is owned by uid 4242, not by uid 0 running fwlens: not used$" "$T_DIR/err" &&
		pass other-owner-entry-said || fail other-owner-entry-said "$(head -c 300 "$T_DIR/err")"
	same other-owner-entry-rebuilt "$T_DIR/want-full.json" "$T_DIR/clink" "$T_DIR/ref.fwsnap" --image-dir "$T_DIR/images"
	[ "$(stat -c '%u %a' "$T_DIR/clink/$NAME")" = "0 600" ] && pass other-owner-entry-replaced ||
		fail other-owner-entry-replaced "$(stat -c '%u %a' "$T_DIR/clink/$NAME")"
else
	skip other-owner-entry "not root: an entry owned by another user cannot be made (chown)"
fi

# a forged entry: other bytes (the BIOS date) with the SHA-256 at its end recomputed; a miss, then replaced
mkdir -m 700 "$T_DIR/cforge"
fwlens doctor "$T_DIR/ref.fwsnap" --cache-dir "$T_DIR/cforge" --image-dir "$T_DIR/images" -q >/dev/null
E="$T_DIR/cforge/$NAME"
size=$(wc -c <"$E")
head -c $((size - 32)) "$E" | LC_ALL=C sed 's#04/18/2025#01/01/1999#' >"$T_DIR/body"
{ cat "$T_DIR/body" && openssl dgst -sha256 -binary "$T_DIR/body"; } >"$E"
[ "$(wc -c <"$E")" = "$size" ] && grep -q -a "01/01/1999" "$E" && pass forged-entry-made || fail forged-entry-made "$(wc -c <"$E") bytes"
same forged-entry-is-a-miss "$T_DIR/want-ref.json" "$T_DIR/cforge" "$T_DIR/ref.fwsnap"
same forged-entry-rebuilt "$T_DIR/want-full.json" "$T_DIR/cforge" "$T_DIR/ref.fwsnap" --image-dir "$T_DIR/images"
same rebuilt-entry-trusted "$T_DIR/want-full.json" "$T_DIR/cforge" "$T_DIR/ref.fwsnap"
! grep -q -a "01/01/1999" "$E" && pass forged-entry-replaced || fail forged-entry-replaced "the forged bytes are still there"

# eviction under --cache-max 1M: of two entries of the cache's own (600 KiB each, used in 2001 and
# 2002) the older goes; foreign files named forms-*, a link named as an entry and what it points to
# neither count nor go, however old and large
mkdir -m 700 "$T_DIR/cevict"
OLD="forms-$(printf '1%.0s' $(seq 64))-$RULES.bin"
OLD2="forms-$(printf '3%.0s' $(seq 64))-$RULES.bin"
head -c 614400 /dev/zero >"$T_DIR/outside.bin"
for f in forms-foo forms-old1.bin "forms-$SHA.bin" "$OLD.bak" "$OLD" "$OLD2"; do
	head -c 614400 /dev/zero >"$T_DIR/cevict/$f"
done
ln -s "$T_DIR/outside.bin" "$T_DIR/cevict/forms-$(printf '2%.0s' $(seq 64))-$RULES.bin"
touch -h -d 2000-01-01 "$T_DIR/cevict"/forms-*
touch -d 2001-01-01 "$T_DIR/cevict/$OLD"
touch -d 2002-01-01 "$T_DIR/cevict/$OLD2"
fwlens doctor "$T_DIR/full.fwsnap" --cache-dir "$T_DIR/cevict" --cache-max 1M -q >/dev/null
[ ! -e "$T_DIR/cevict/$OLD" ] && [ -f "$T_DIR/cevict/$OLD2" ] && [ -s "$T_DIR/cevict/$NAME" ] && [ -f "$T_DIR/cevict/forms-foo" ] &&
	[ -f "$T_DIR/cevict/forms-old1.bin" ] && [ -f "$T_DIR/cevict/forms-$SHA.bin" ] && [ -f "$T_DIR/cevict/$OLD.bak" ] &&
	[ -L "$T_DIR/cevict/forms-$(printf '2%.0s' $(seq 64))-$RULES.bin" ] && [ "$(wc -c <"$T_DIR/outside.bin")" = 614400 ] &&
	pass eviction-only-own-names || fail eviction-only-own-names "$(ls -A "$T_DIR/cevict" | tr '\n' ' ' | head -c 400)"

# images.idx longer than its bound (1 MiB): not read, rebuilt with what is remembered next
mkdir -m 700 "$T_DIR/cbig"
head -c 2097152 /dev/zero | tr '\0' 'x' | fold -w 100 >"$T_DIR/cbig/images.idx"
chmod 600 "$T_DIR/cbig/images.idx"
same big-index-output "$T_DIR/want-full.json" "$T_DIR/cbig" "$T_DIR/full.fwsnap"
[ "$(wc -c <"$T_DIR/cbig/images.idx")" -lt 4096 ] && [ "$(grep -c "^$SHA " "$T_DIR/cbig/images.idx")" = 1 ] &&
	pass big-index-rebuilt || fail big-index-rebuilt "$(wc -c <"$T_DIR/cbig/images.idx") bytes"
