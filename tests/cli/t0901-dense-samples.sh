#!/bin/sh
# The dense bench images (fwlens-samples --dense, samples/encode-dense.c), at 2 MiB: the same bytes
# on every build, one volume of compressed DXE drivers that fwlens decodes without a diagnostic,
# the builder's count of drivers and inflated bytes equal to what fwlens finds, bodies that
# compress as code does (between 2.5x and 5x), and bad arguments refused with exit 2.
. "$(dirname "$0")/lib.sh"

SAMPLER="$FWLENS_BUILD/fwlens-samples"
t_need_file dense "$SAMPLER" "the sample builder" || exit 0

# field NAME: a figure of the fwlens info JSON in $T_DIR/info.json
field() {
	python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
c = d["compressed"]
print({"files": d["files"], "sections": d["sections"], "volumes": d["volumes"], "inflated": c["decompressed_bytes"],
       "left": c["not_decompressed"], "algorithms": ",".join("%s=%d" % kv for kv in sorted(c["by_algorithm"].items())),
       "diagnostics": "%(errors)d/%(warnings)d" % d["diagnostics"], "sha256": d["input"]["sha256"]}[sys.argv[2]])' "$T_DIR/info.json" "$1"
}

for kind in lzma zlib; do
	K=$(echo "$kind" | tr '[:lower:]' '[:upper:]')
	img="$T_DIR/a/DENSE-$K-2M.FD"
	t_run "$kind-build" 0 "$SAMPLER" --dense "$kind" --mib 2 --out "$T_DIR/a" || continue
	# what the builder says it wrote: "N drivers, B bytes inflated"
	said=$(sed -n 's/.*: \([0-9]*\) drivers, \([0-9]*\) bytes inflated.*/\1 \2/p' "$T_ERR")
	t_run "$kind-rebuild" 0 "$SAMPLER" --dense "$kind" --mib 2 --out "$T_DIR/b"
	if cmp -s "$img" "$T_DIR/b/DENSE-$K-2M.FD"; then pass "$kind-deterministic"; else fail "$kind-deterministic" "two builds differ"; fi
	size=$(wc -c <"$img")
	[ "$size" -eq 2097152 ] && pass "$kind-size" || fail "$kind-size" "$size bytes, expected 2 MiB"
	"$FWLENS" info "$img" --format json >"$T_DIR/info.json" 2>"$T_DIR/info.err"
	case $kind in
	lzma) want="19 7206430 LZMA=19 f027f73ca48d9bb12931feeb4a1d7a969b8a348f2273ec68225b09568a1486be" ;;
	zlib) want="23 6798790 AMD zlib=23 17a2391e41bd454c496a201924759176e307b41929f68c7e0c4ac29d5538dfc2" ;;
	esac
	got="$(field files) $(field inflated) $(field algorithms) $(field sha256)"
	[ "$got" = "$want" ] && pass "$kind-decoded" || fail "$kind-decoded" "got '$got', expected '$want'"
	[ "$said" = "$(field files) $(field inflated)" ] && pass "$kind-builder-agrees" ||
		fail "$kind-builder-agrees" "the builder said '$said', fwlens found '$(field files) $(field inflated)'"
	got="$(field volumes) $(field sections) $(field left) $(field diagnostics)"
	want="1 $(($(field files) * 4)) 0 0/0"
	[ "$got" = "$want" ] && pass "$kind-clean" || fail "$kind-clean" "volumes, sections, left compressed, diagnostics: '$got', expected '$want'"
	ratio=$(awk -v i="$(field inflated)" -v s="$size" 'BEGIN { printf "%.2f", i / s }')
	awk -v r="$ratio" 'BEGIN { exit !(r >= 2.5 && r <= 5) }' && pass "$kind-ratio" || fail "$kind-ratio" "inflates $ratio times its size"
	# every driver: a DXE_DEPEX, a PE32 image and its UI name inside the compressed section
	"$FWLENS" tree "$img" >"$T_DIR/tree.txt"
	n=$(grep -c '^ Section  *| UI  ' "$T_DIR/tree.txt")
	first=$(grep -m 1 'DXE driver' "$T_DIR/tree.txt" | sed 's/.*| //')
	[ "$n $first" = "$(field files) DenseDxe0000" ] && pass "$kind-tree" || fail "$kind-tree" "$n UI sections, first driver '$first'"
done

t_run mib-zero 2 "$SAMPLER" --dense lzma --mib 0 --out "$T_DIR/c"
t_run mib-text 2 "$SAMPLER" --dense lzma --mib 12x --out "$T_DIR/c"
t_run kind-unknown 2 "$SAMPLER" --dense brotli --out "$T_DIR/c"
t_run no-out 2 "$SAMPLER" --dense zlib
