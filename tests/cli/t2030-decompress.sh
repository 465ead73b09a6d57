#!/bin/sh
# fwlens decompress: every algorithm on the project's vectors, the corpus EFI/Tiano vectors when
# present, corrupt input, usage errors.
. "$(dirname "$0")/lib.sh"

V="$FWLENS_SRCDIR/tests/data/compress"
for pair in efi11:words tiano:words lzma:words lzmaf86:code brotli:words zlib-amd:words gzip:words; do
	algo=${pair%%:*} vec=${pair#*:}
	t_run "$algo" 0 fwlens decompress --algo "$algo" "$V/$vec.$algo" -o "$T_DIR/$algo.out"
	cmp -s "$T_DIR/$algo.out" "$V/$vec.bin" && pass "$algo-bytes" || fail "$algo-bytes" "output differs from $vec.bin"
done
if t_need_file corpus-vectors "$CORPUS/compress/pe32-ovmf-platformdxe.tiano" "corpus compress/"; then
	for f in "$CORPUS"/compress/*.efi11 "$CORPUS"/compress/*.tiano; do
		base=${f%.*} algo=${f##*.}
		t_run "corpus-$(basename "$f")" 0 fwlens decompress -a "$algo" "$f" -o "$T_DIR/c.out"
		cmp -s "$T_DIR/c.out" "$base.bin" && pass "corpus-$(basename "$f")-bytes" || fail "corpus-$(basename "$f")-bytes" "differs"
	done
fi
head -c 200 "$V/words.lzma" >"$T_DIR/cut.lzma"
t_run truncated 3 fwlens decompress --algo lzma "$T_DIR/cut.lzma" -o "$T_DIR/cut.out"
grep -q "LZMA stream" "$T_ERR" && pass truncated-says-what || fail truncated-says-what "$(cat "$T_ERR")"
[ ! -e "$T_DIR/cut.out" ] && pass truncated-writes-nothing || fail truncated-writes-nothing "output left"
t_run wrong-algo 3 fwlens decompress --algo brotli "$V/words.gzip" -o "$T_DIR/x"
t_run unknown-algo 2 fwlens decompress --algo zstd "$V/words.gzip" -o "$T_DIR/x"
t_run no-algo 2 fwlens decompress "$V/words.gzip" -o "$T_DIR/x"
t_run stdout 0 fwlens decompress --algo gzip "$V/words.gzip"
cmp -s "$T_OUT" "$V/words.bin" && pass stdout-bytes || fail stdout-bytes "differs"
