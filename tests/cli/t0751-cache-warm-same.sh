#!/bin/sh
# A warm doctor (the forms from the cache entry) writes the same bytes as the cold one that decoded
# the image and stored the entry: text, JSON and JSON lines, the exit code too. An entry that was
# edited, cut short, emptied, or edited and given a MAC that verifies (with the folder's own key)
# but malformed inside, or of another format, is refused: without the image the settings are not
# known, with it the entry is rebuilt, byte for byte the one stored first, and doctor says the same.
. "$(dirname "$0")/lib.sh"

t_cache_image warm-same || exit 0
t_need_cmd warm-same openssl || exit 0
C="$T_DIR/cache"
ENTRY="$C/forms-$SHA-$RULES.bin"
fwlens snapshot capture -q --root "$SAMPLES/sysroot-1104" --image-ref "$T_DIR/images/BIOS-1104.CAP" -o "$T_DIR/ref.fwsnap"

# doc NAME FORMAT ARGS...: doctor on the snapshot into $T_DIR/NAME, its exit code into $T_DIR/NAME.rc
doc() {
	out=$1 fmt=$2
	shift 2
	fwlens doctor "$T_DIR/ref.fwsnap" --format "$fmt" --cache-dir "$C" "$@" >"$T_DIR/$out" 2>"$T_DIR/$out.err"
	echo $? >"$T_DIR/$out.rc"
}
# same NAME A B: the two runs wrote the same bytes and exit code
same() {
	if cmp -s "$T_DIR/$2" "$T_DIR/$3" && cmp -s "$T_DIR/$2.rc" "$T_DIR/$3.rc"; then pass "$1"; else
		fail "$1" "rc $(cat "$T_DIR/$2.rc") $(cat "$T_DIR/$3.rc"): $(diff "$T_DIR/$2" "$T_DIR/$3" | head -n 6 | tr '\n' ' ') $(head -c 200 "$T_DIR/$3.err")"
	fi
}
# forms-known NAME OUT: doctor judged the BIOS settings (not skipped for want of forms)
forms_known() {
	if grep -q '"status": "skip"' "$T_DIR/$2" && [ "$(grep -c 'BIOS forms' "$T_DIR/$2")" -gt 0 ]; then
		fail "$1" "$(grep -m 2 'BIOS forms' "$T_DIR/$2" | tr '\n' ' ')"
	else pass "$1"; fi
}

for fmt in text json jsonl; do
	rm -rf "$C"
	doc "cold.$fmt" "$fmt" --image-dir "$T_DIR/images"
	[ -s "$ENTRY" ] || fail "entry-stored-$fmt" "no $ENTRY"
	doc "warm.$fmt" "$fmt" --image-dir "$T_DIR/images"
	same "warm-equals-cold-$fmt" "cold.$fmt" "warm.$fmt"
	# and without the image at all: the entry alone
	doc "warm-noimage.$fmt" "$fmt"
	same "warm-without-image-equals-cold-$fmt" "cold.$fmt" "warm-noimage.$fmt"
done
[ "$(cat "$T_DIR/cold.json.rc")" -le 1 ] && forms_known cold-judged-the-settings cold.json
cp "$ENTRY" "$T_DIR/entry.good"
LEN=$(wc -c <"$ENTRY")

# refused NAME: the damaged entry in place is not used (no image: the forms are not known, and doctor
# says how to get them), then with the image it is rebuilt to the same bytes and doctor says the same
refused() {
	doc "bad-$1.json" json
	if grep -q "without its bytes: give --image-dir DIR" "$T_DIR/bad-$1.json.err"; then pass "refused-$1"; else
		fail "refused-$1" "$(head -c 300 "$T_DIR/bad-$1.json.err")"
	fi
	doc "rebuilt-$1.json" json --image-dir "$T_DIR/images"
	same "rebuilt-$1-equals-cold" cold.json "rebuilt-$1.json"
	cmp -s "$ENTRY" "$T_DIR/entry.good" && pass "rebuilt-$1-entry" || fail "rebuilt-$1-entry" "$(wc -c <"$ENTRY") bytes, not the entry stored first"
}

# one byte edited in the middle (the MAC no longer verifies)
cp "$T_DIR/entry.good" "$ENTRY"
printf 'X' | dd of="$ENTRY" bs=1 seek=$((LEN / 2)) conv=notrunc 2>/dev/null
refused edited
# cut to half, to 7 bytes (inside the magic) and to nothing
head -c $((LEN / 2)) "$T_DIR/entry.good" >"$ENTRY"
refused truncated-half
head -c 7 "$T_DIR/entry.good" >"$ENTRY"
refused truncated-7
: >"$ENTRY"
refused empty
# a byte more after the MAC
cp "$T_DIR/entry.good" "$ENTRY" && printf 'X' >>"$ENTRY"
refused appended

# with the folder's key (whoever can read it can forge): a MAC that verifies over bytes that do not
# parse is refused all the same, the reads of the entry bounded like any input
KEYHEX=$(od -An -tx1 -v "$C/hmac.key" | tr -d ' \n')
remac() { # BODY: $ENTRY becomes BODY and its HMAC-SHA256 under the folder's key
	cat "$1" >"$ENTRY"
	openssl dgst -sha256 -mac HMAC -macopt "hexkey:$KEYHEX" -binary "$1" >>"$ENTRY"
}
head -c $((LEN - 32)) "$T_DIR/entry.good" >"$T_DIR/body"
remac "$T_DIR/body"
cmp -s "$ENTRY" "$T_DIR/entry.good" && pass remac-reproduces-the-entry || fail remac-reproduces-the-entry "the MAC made here differs"
# the body cut short by 100 bytes: its last counts promise more than is there
head -c $((LEN - 32 - 100)) "$T_DIR/entry.good" >"$T_DIR/body"
remac "$T_DIR/body"
refused forged-short
# counts and lengths inside made huge, found by walking the entry's layout (cache.c): magic, format,
# the fwlens version (a u32 length and its bytes), the image and rules hashes, the version facts (a
# count, three strings each), the module count, then the first module: GUID, has-GUID, name,
# offset, blob count, and its first blob: kind, base, length
u32() { od -An -tu4 -j "$1" -N 4 "$T_DIR/entry.good" | tr -d ' '; }
at=$((12 + 4 + $(u32 12) + 128))
nv=$(u32 $at) at=$((at + 4)) i=0
while [ "$i" -lt $((nv * 3)) ]; do at=$((at + 4 + $(u32 $at))) i=$((i + 1)); done
MODULES=$at
NAME=$((MODULES + 4 + 16 + 4))
BLOB=$((NAME + 4 + $(u32 $NAME) + 8 + 4))
BLOBLEN=$((BLOB + 4 + $(u32 $BLOB) + 8))
[ "$(u32 $MODULES)" -gt 0 ] && [ "$(u32 $MODULES)" -lt 4096 ] && [ "$(u32 $((NAME + 4 + $(u32 $NAME) + 8)))" -ge 1 ] &&
	[ "$(u32 $BLOBLEN)" -gt 0 ] && pass entry-layout-walked || fail entry-layout-walked "modules $(u32 $MODULES) at $MODULES"
# forged BYTES OFFSET NAME: the body with BYTES (printf escapes) at OFFSET, MAC'd with the key
forged() {
	head -c $((LEN - 32)) "$T_DIR/entry.good" >"$T_DIR/body"
	# shellcheck disable=SC2059 # the bytes are given as printf escapes
	printf "$1" | dd of="$T_DIR/body" bs=1 seek="$2" conv=notrunc 2>/dev/null
	remac "$T_DIR/body"
	refused "$3"
}
forged '\377\377\377\377' 8 forged-format
forged '\377\377\377\377' "$MODULES" forged-module-count
forged '\377\377\377\377\377\377\377\377' "$BLOBLEN" forged-blob-length
# 256 MiB: past what an entry may expand to (64 MiB), refused before anything is allocated
forged '\000\000\000\020' "$BLOBLEN" forged-blob-length-256m

# The entry's MAC is checked on a thread of its own while the forms are decoded (cache.c); with one
# thread (FWLENS_THREADS=1) it is checked first, and doctor says the same.
cp "$T_DIR/entry.good" "$ENTRY"
FWLENS_THREADS=1 doc warm-one-thread.json json
same warm-on-one-thread-equals-cold cold.json warm-one-thread.json
