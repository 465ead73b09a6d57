#!/bin/sh
# Snapshots by reference (capture --image-ref, --image-dir) and the cache of decoded firmware:
# the same doctor and query answers from the image, from the cache without the image (query's
# topic matches too), after the cache entry was damaged (rebuilt), and with --no-cache; other
# topic rules miss the cache; the cache folder comes from $XDG_CACHE_HOME, else $HOME/.cache,
# else --cache-dir; --cache-max and $FWLENS_CACHE_MAX bound it, the oldest entries going first; find, notes
# and plan give the same bytes warm (from the entry, without the image) as with --no-cache.
. "$(dirname "$0")/lib.sh"

# the key: the image's SHA-256 and the SHA-256 of the rules (the built-in ones are rules/topics.xml)
t_cache_image cache || exit 0
t_need_cmd cache jq || exit 0

mkdir -p "$T_DIR/xdg" "$T_DIR/home"
SIZE=$(wc -c <"$CAP")
export XDG_CACHE_HOME="$T_DIR/xdg" HOME="$T_DIR/home"
ENTRY="$T_DIR/xdg/fwlens/forms-$SHA-$RULES.bin"

fwlens snapshot capture -q --root "$SAMPLES/sysroot-1104" --image "$CAP" -o "$T_DIR/full.fwsnap"
t_run capture-image-ref 0 fwlens snapshot capture -q --root "$SAMPLES/sysroot-1104" --image-ref "$T_DIR/images/BIOS-1104.CAP" \
	-o "$T_DIR/ref.fwsnap"
mkdir -p "$T_DIR/x" && tar -xf "$T_DIR/ref.fwsnap" -C "$T_DIR/x"
[ "$(jq -c . "$T_DIR/x/files/fwlens/image-ref.json")" = "{\"sha256\":\"$SHA\",\"size\":$SIZE,\"name\":\"BIOS-1104.CAP\"}" ] &&
	[ ! -e "$T_DIR/x/files/fwlens/image" ] &&
	[ "$(wc -c <"$T_DIR/ref.fwsnap")" -lt $(($(wc -c <"$T_DIR/full.fwsnap") - $(tar -tvf "$T_DIR/full.fwsnap" | awk '$6 ~ /^files\/fwlens\/image\// { print $3 }') * 9 / 10)) ] &&
	pass image-ref-stored || fail image-ref-stored "$(cat "$T_DIR/x/files/fwlens/image-ref.json" 2>&1 | head -c 200)"
t_run image-and-image-ref 2 fwlens snapshot capture -q --image "$CAP" --image-ref "$CAP" -o "$T_DIR/no.fwsnap"

# the reference: doctor on the snapshot that stores the image, no cache
T_EXIT=1
fwlens doctor "$T_DIR/full.fwsnap" --no-cache --format json -q | jq -S 'del(.source) | del(.. | .current_source?)' >"$T_DIR/want.json"
# (p2p-proof skips too: the snapshot holds no P2P evidence)
[ ! -e "$T_DIR/xdg/fwlens" ] && [ "$(jq '[.checks[] | select(.status == "skip")] | length' "$T_DIR/want.json")" -lt 4 ] &&
	pass no-cache-writes-nothing || fail no-cache-writes-nothing "$(ls -R "$T_DIR/xdg" | head -c 200)"

same() { # NAME ARGS...: doctor's JSON equals the reference
	name=$1
	shift
	fwlens doctor "$@" --format json >"$T_DIR/out.json" 2>"$T_DIR/err"
	if jq -S 'del(.source) | del(.. | .current_source?)' "$T_DIR/out.json" | cmp -s - "$T_DIR/want.json"; then pass "$name"; else
		fail "$name" "$(jq -S 'del(.source) | del(.. | .current_source?)' "$T_DIR/out.json" | diff "$T_DIR/want.json" - | head -n 6 | tr '\n' ' ') $(head -c 200 "$T_DIR/err")"; fi
}

# by reference without the image and an empty cache: the settings are not known, and it says how to fix that
fwlens doctor "$T_DIR/ref.fwsnap" --format json >"$T_DIR/none.json" 2>"$T_DIR/err"
grep -q "names its BIOS image BIOS-1104.CAP (sha256 $SHA) without its bytes: give --image-dir DIR" "$T_DIR/err" &&
	[ "$(jq '[.checks[] | select(.status == "skip")] | length' "$T_DIR/none.json")" -gt 3 ] && pass image-ref-missing-said ||
	fail image-ref-missing-said "$(head -c 300 "$T_DIR/err")"
# cold: found in --image-dir by hashing its files, decoded, stored in $XDG_CACHE_HOME/fwlens
same image-ref-cold "$T_DIR/ref.fwsnap" --image-dir "$T_DIR/images"
[ -s "$ENTRY" ] && grep -q "^$SHA $SIZE [0-9]* $(stat -c %i "$T_DIR/images/BIOS-1104.CAP") [0-9a-f]\{64\} $T_DIR/images/BIOS-1104.CAP$" "$T_DIR/xdg/fwlens/images.idx" &&
	pass cache-written || fail cache-written "$(ls "$T_DIR/xdg/fwlens" 2>&1)"
# warm: the same answers with no image at all
same image-ref-warm "$T_DIR/ref.fwsnap"
# the PCI names libpci found are kept beside the entries, for the database file named with its state,
# once each: a warm doctor names the GPUs without loading the database
NAMES="$T_DIR/xdg/fwlens/pci-names.idx"
GB202="NVIDIA Corporation GB202GL [RTX PRO 6000 Blackwell Server Edition]"
[ "$(grep -c '^10de 2bb5 ' "$NAMES")" = 1 ] &&
	grep -q "^10de 2bb5 [0-9a-f]\{64\} libpci 0x[0-9a-f]\{6\} $(wc -c <"$FWLENS_PCI_IDS") [0-9]* $(stat -c %i "$FWLENS_PCI_IDS") " "$NAMES" &&
	grep -qF " $FWLENS_PCI_IDS	$GB202" "$NAMES" && pass pci-names-kept || fail pci-names-kept "$(head -c 300 "$NAMES" 2>&1)"
# a name changed without the cache's key is not believed: libpci names the GPUs again, the same answers
sed 's/\tNVIDIA Corporation GB202GL/\tForged Corp/' "$NAMES" >"$T_DIR/names" && cat "$T_DIR/names" >"$NAMES"
grep -q "Forged Corp" "$NAMES" && same pci-names-forged-refused "$T_DIR/ref.fwsnap"
same stored-image-warm "$T_DIR/full.fwsnap"
# the image stored in a snapshot is hashed once: remembered by the snapshot's path, size, time and inode
same stored-image-warm-again "$T_DIR/full.fwsnap"
TAB=$(printf '\t')
[ "$(grep -c "^$SHA $(stat -c %s "$T_DIR/full.fwsnap") [0-9]* $(stat -c %i "$T_DIR/full.fwsnap") [0-9a-f]\{64\} $T_DIR/full.fwsnap${TAB}fwlens/image/" "$T_DIR/xdg/fwlens/images.idx")" = 1 ] &&
	pass stored-image-hashed-once || fail stored-image-hashed-once "$(cat "$T_DIR/xdg/fwlens/images.idx" | head -c 400)"
fwlens query "$T_DIR/full.fwsnap" --no-cache --topic sev-snp --format json -q | jq -S 'del(.source) | del(.. | .current_source?)' >"$T_DIR/q1.json"
fwlens query "$T_DIR/ref.fwsnap" --topic sev-snp --format json -q | jq -S 'del(.source) | del(.. | .current_source?)' >"$T_DIR/q2.json"
cmp -s "$T_DIR/q1.json" "$T_DIR/q2.json" && [ "$(jq '.matches[] | select(.prompt == "SEV-ES ASID Space Limit") | .current_value' "$T_DIR/q2.json")" = 100 ] &&
	pass query-warm || fail query-warm "$(diff "$T_DIR/q1.json" "$T_DIR/q2.json" | head -n 5 | tr '\n' ' ')"
# the topic matches come from the entry (every topic, each match with its rule), the same as matched now
fwlens query "$T_DIR/ref.fwsnap" --format json -v 2>"$T_DIR/err" | jq -S 'del(.source) | del(.. | .current_source?)' >"$T_DIR/q3.json"
fwlens query "$T_DIR/full.fwsnap" --no-cache --format json -q | jq -S 'del(.source) | del(.. | .current_source?)' >"$T_DIR/q4.json"
grep -q "topic matches from the cache" "$T_DIR/err" && cmp -s "$T_DIR/q3.json" "$T_DIR/q4.json" &&
	[ "$(jq '[.matches[].topics[]] | length' "$T_DIR/q3.json")" -gt "$(jq '.matches | length' "$T_DIR/q3.json")" ] &&
	pass query-matches-from-cache || fail query-matches-from-cache "$(head -c 200 "$T_DIR/err") $(diff "$T_DIR/q3.json" "$T_DIR/q4.json" | head -n 5 | tr '\n' ' ')"

# other rules (a --rules file, $FWLENS_RULES) are another key: a miss, never the entry of the built-in rules
cp "$FWLENS_SRCDIR/tools/query/rules/topics.xml" "$T_DIR/rules.xml" && echo '<!-- site rules -->' >>"$T_DIR/rules.xml"
RULES2=$(sha256sum "$T_DIR/rules.xml" | cut -d' ' -f1)
FWLENS_RULES="$T_DIR/rules.xml" fwlens doctor "$T_DIR/ref.fwsnap" --format json >"$T_DIR/none.json" 2>"$T_DIR/err"
grep -q "without its bytes: give --image-dir DIR" "$T_DIR/err" && [ "$(jq '[.checks[] | select(.status == "skip")] | length' "$T_DIR/none.json")" -gt 3 ] &&
	pass other-rules-miss || fail other-rules-miss "$(head -c 300 "$T_DIR/err")"
fwlens query "$T_DIR/ref.fwsnap" --rules "$T_DIR/rules.xml" --topic sev-snp --format json >/dev/null 2>"$T_DIR/err"
grep -q "without its bytes: give --image-dir DIR" "$T_DIR/err" && pass query-rules-miss || fail query-rules-miss "$(head -c 300 "$T_DIR/err")"
fwlens query "$T_DIR/ref.fwsnap" --rules "$T_DIR/rules.xml" --topic sev-snp --image-dir "$T_DIR/images" --format json -q |
	jq -S 'del(.source) | del(.. | .current_source?)' >"$T_DIR/q5.json"
cmp -s "$T_DIR/q1.json" "$T_DIR/q5.json" && [ -s "$T_DIR/xdg/fwlens/forms-$SHA-$RULES2.bin" ] && [ -s "$ENTRY" ] &&
	pass other-rules-own-entry || fail other-rules-own-entry "$(ls "$T_DIR/xdg/fwlens")"

# a damaged entry is not trusted: it is a miss, rebuilt from the image
printf 'X' | dd of="$ENTRY" bs=1 seek=5000 conv=notrunc 2>/dev/null
same damaged-entry-rebuilt "$T_DIR/ref.fwsnap" --image-dir "$T_DIR/images"
same rebuilt-entry-used "$T_DIR/ref.fwsnap"
printf 'not a cache entry' >"$ENTRY"
fwlens doctor "$T_DIR/ref.fwsnap" --format json -q >"$T_DIR/none.json"
[ "$(jq '[.checks[] | select(.status == "skip")] | length' "$T_DIR/none.json")" -gt 3 ] && pass foreign-entry-ignored ||
	fail foreign-entry-ignored "a foreign entry gave settings"

# --cache-dir over the environment; an image named by its hash; --no-cache never reads an entry
rm -rf "$T_DIR/images"/* && cp "$CAP" "$T_DIR/images/$SHA"
same cache-dir-and-hash-name "$T_DIR/ref.fwsnap" --cache-dir "$T_DIR/c2" --image-dir "$T_DIR/images"
[ -s "$T_DIR/c2/forms-$SHA-$RULES.bin" ] && pass cache-dir-option || fail cache-dir-option "no entry in --cache-dir"
fwlens doctor "$T_DIR/ref.fwsnap" --cache-dir "$T_DIR/c2" --no-cache --format json -q >"$T_DIR/none.json"
[ "$(jq '[.checks[] | select(.status == "skip")] | length' "$T_DIR/none.json")" -gt 3 ] && pass no-cache-reads-nothing ||
	fail no-cache-reads-nothing "--no-cache used the cache"
# $HOME/.cache when XDG_CACHE_HOME is not set
XDG_CACHE_HOME= fwlens doctor "$T_DIR/full.fwsnap" -q >/dev/null
[ -s "$T_DIR/home/.cache/fwlens/forms-$SHA-$RULES.bin" ] && pass home-cache || fail home-cache "$(ls -R "$T_DIR/home" | head -c 200)"

# the size bound: storing an entry removes the entries used longest ago until the folder fits
OLD1="forms-$(printf '1%.0s' $(seq 64))-$RULES.bin"
OLD2="forms-$(printf '2%.0s' $(seq 64))-$RULES.bin"
bound() { # NAME ARGS...: two 600 KiB entries used in 2001 and 2002, then doctor stores its own
	name=$1
	shift
	rm -rf "$T_DIR/c3" && mkdir -m 700 "$T_DIR/c3"
	head -c 614400 /dev/zero >"$T_DIR/c3/$OLD1" && touch -d 2001-01-01 "$T_DIR/c3/$OLD1"
	head -c 614400 /dev/zero >"$T_DIR/c3/$OLD2" && touch -d 2002-01-01 "$T_DIR/c3/$OLD2"
	fwlens doctor "$T_DIR/full.fwsnap" --cache-dir "$T_DIR/c3" -q "$@" >/dev/null
	[ ! -e "$T_DIR/c3/$OLD1" ] && [ -e "$T_DIR/c3/$OLD2" ] && [ -s "$T_DIR/c3/forms-$SHA-$RULES.bin" ] &&
		pass "$name" || fail "$name" "$(ls "$T_DIR/c3" | tr '\n' ' ')"
}
bound cache-max-evicts-oldest --cache-max 1M
FWLENS_CACHE_MAX=1024K bound cache-max-environment
fwlens doctor "$T_DIR/full.fwsnap" --cache-dir "$T_DIR/c3" -q >/dev/null
[ -e "$T_DIR/c3/$OLD2" ] && pass cache-max-default-512M || fail cache-max-default-512M "evicted under the default bound"
t_run cache-max-not-a-size 2 fwlens doctor "$T_DIR/full.fwsnap" --cache-max 10X
grep -q -- "--cache-max takes a size of at least 1M" "$T_ERR" && pass cache-max-said || fail cache-max-said "$(head -c 200 "$T_ERR")"

# find, notes and plan read the image through the cache as doctor and query do, byte for byte the same
rm -rf "$T_DIR/xdg"
cached() { # NAME COMMAND ARGS...: a --no-cache run, a cold run (stores the entry) and a warm run without the image (only
	# the entry can give the forms) on the snapshot by reference, and a --no-cache and a warm run on the snapshot
	# that stores the image: the same bytes and exit status each time
	name=$1
	cmd=$2
	shift 2
	fwlens "$cmd" "$T_DIR/ref.fwsnap" "$@" --image-dir "$T_DIR/images" --no-cache >"$T_DIR/c-want" 2>"$T_DIR/err"
	want_rc=$?
	[ ! -e "$T_DIR/xdg/fwlens" ] && [ -s "$T_DIR/c-want" ] && pass "$name-no-cache" || fail "$name-no-cache" "$(ls "$T_DIR/xdg/fwlens" 2>&1 | head -c 200) $(head -c 200 "$T_DIR/err")"
	fwlens "$cmd" "$T_DIR/ref.fwsnap" "$@" --image-dir "$T_DIR/images" >"$T_DIR/c-cold" 2>/dev/null
	cold_rc=$?
	fwlens "$cmd" "$T_DIR/ref.fwsnap" "$@" >"$T_DIR/c-warm" 2>"$T_DIR/err"
	warm_rc=$?
	[ -s "$ENTRY" ] && cmp -s "$T_DIR/c-want" "$T_DIR/c-cold" && cmp -s "$T_DIR/c-want" "$T_DIR/c-warm" &&
		[ "$want_rc" -lt 2 ] && [ "$cold_rc $warm_rc" = "$want_rc $want_rc" ] && pass "$name-warm-hit" ||
		fail "$name-warm-hit" "rc $want_rc $cold_rc $warm_rc $(diff "$T_DIR/c-want" "$T_DIR/c-warm" | head -n 6 | tr '\n' ' ') $(head -c 200 "$T_DIR/err")"
	fwlens "$cmd" "$T_DIR/full.fwsnap" "$@" --no-cache >"$T_DIR/c-want" 2>/dev/null
	want_rc=$?
	fwlens "$cmd" "$T_DIR/full.fwsnap" "$@" >"$T_DIR/c-warm" 2>/dev/null
	warm_rc=$?
	cmp -s "$T_DIR/c-want" "$T_DIR/c-warm" && [ "$want_rc" -lt 2 ] && [ "$want_rc" = "$warm_rc" ] && pass "$name-stored-image-warm" ||
		fail "$name-stored-image-warm" "rc $want_rc $warm_rc $(diff "$T_DIR/c-want" "$T_DIR/c-warm" | head -n 6 | tr '\n' ' ')"
	rm -rf "$T_DIR/xdg"
}
cached find find 'ASID' --format json
cached notes notes
# the plan's "made" time fixed, so the runs compare byte for byte whatever second each ends in
export SOURCE_DATE_EPOCH=1767225600
cached plan plan --profile snp-host --format json
unset SOURCE_DATE_EPOCH
fwlens notes "$T_DIR/ref.fwsnap" -q --image-dir "$T_DIR/images" >/dev/null
fwlens notes "$T_DIR/ref.fwsnap" -q >"$T_DIR/notes.md"
grep -q "^- Image: BIOS-1104.CAP, $SIZE bytes, sha256 $SHA$" "$T_DIR/notes.md" && pass notes-image-from-cache ||
	fail notes-image-from-cache "$(grep -i image "$T_DIR/notes.md" | head -n 3)"
fwlens plan "$T_DIR/ref.fwsnap" --profile snp-host --format json -q >"$T_DIR/plan.json"
[ "$(jq -r .image_sha256 "$T_DIR/plan.json")" = "$SHA" ] && pass plan-image-from-cache || fail plan-image-from-cache "$(head -c 300 "$T_DIR/plan.json")"

# find, notes and diff take --image-dir (diff reads the image itself, never the cache)
rm -rf "$T_DIR/xdg"
fwlens find "$T_DIR/full.fwsnap" 'ASID' --format json -q | jq -S 'del(.source)' >"$T_DIR/f1.json"
fwlens find "$T_DIR/ref.fwsnap" 'ASID' --image-dir "$T_DIR/images" --no-cache --format json -q | sed 's/ref\.fwsnap/full.fwsnap/g' | jq -S 'del(.source)' >"$T_DIR/f2.json"
cmp -s "$T_DIR/f1.json" "$T_DIR/f2.json" && [ "$(jq '.matches | length' "$T_DIR/f2.json")" -gt 0 ] && pass find-image-dir ||
	fail find-image-dir "$(diff "$T_DIR/f1.json" "$T_DIR/f2.json" | head -n 4 | tr '\n' ' ')"
rm -rf "$T_DIR/xdg"
t_run diff-image-dir 0 fwlens diff "$T_DIR/full.fwsnap" "$T_DIR/ref.fwsnap" --image-dir "$T_DIR/images" --format json -q
[ "$(jq .summary.differences "$T_OUT")" = 0 ] && pass diff-image-dir-same || fail diff-image-dir-same "$(jq -c .summary "$T_OUT")"
[ ! -e "$T_DIR/xdg/fwlens" ] && pass diff-writes-no-cache || fail diff-writes-no-cache "$(ls "$T_DIR/xdg/fwlens")"
