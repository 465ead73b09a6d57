#!/bin/sh
# make bench: whole-process wall time, CPU time and peak RSS of fwlens commands on real images,
# next to the tools people use today, and next to the floor.
#
#   images    OVMF (Debian ovmf), AAVMF (qemu-efi-aarch64, 64 MiB), the WRX90E capsule of the
#             corpus, the two sample capsules (make samples), and two dense 128 MiB volumes of
#             compressed drivers, one LZMA, one AMD zlib, that inflate to several hundred MiB
#             (`fwlens-samples --dense`, written once into build/bench/dense-KEY/, KEY from the
#             builder's SHA-256: about half a minute of CPU each; only tree and query run on them,
#             for the memory budget, and no UEFIExtract)
#   fwlens    tree, ifr, settings, query on each; diff of the two sample capsules, and of each
#             other image against a copy of itself (every module compared byte for byte)
#   others    `UEFIExtract IMG report` (beside tree) and `UEFIExtract IMG unpack` followed by
#             IFRExtractor-RS on every PE32 and freeform section body it wrote (beside ifr,
#             settings and query), where installed
#   floor     the bare liblzma/zlib time to inflate the image's compressed sections
#             (build/bench/inflate-floor)
#
# Every figure is the median of FWLENS_BENCH_RUNS (default 9, at least 5) runs; within a run the
# programs alternate, so a busy machine slows them alike and the ratios hold. Each ratio is the
# median of the per-run ratios, with their spread (largest over smallest) and the load average
# before and after its image; a spread over 1.20 is flagged "not reproducible at this load"
# (tools/bench-lib.sh). `make bench` ends with the table of every ratio of the three scripts.
# Peak RSS is checked against what a run keeps or must hold at once: the input, the decompressed bytes, the LZMA windows of
# the sections inflated side by side (liblzma writes each section into a dictionary of its own
# before it is copied out: min(DecompressedSize, DictionarySize) bytes for each of the
# FWLENS_THREADS or online-CPU largest ones), and 16 MiB for the program, its libraries and the
# model (about 250 bytes a firmware node: 0.86 MB for the WRX90E capsule's 3,444 nodes). A diff
# counts both images' inputs and decompressed bytes, the largest windows of the two (they share the
# threads), and one 16 MiB. The table goes to
# stdout, the figures and the goals to
# build/bench/bench.json, the ratios to build/bench/ratios-images.tsv. The output formats (tools/bench-formats.sh: JSON and XML beside text)
# and the fleet case (tools/bench-fleet.sh) follow.
# FWLENS_BENCH_IMAGES="aavmf wrx90e dense-lzma" picks images;
# FWLENS_BENCH_OUT=DIR writes the figures there instead of build/bench (two runs side by side:
# tools/bench-compare.sh DIR_A DIR_B says which ratios moved more than 20% between them);
# FWLENS_BENCH_BASELINE=/path/to/an/older/fwlens adds its figures to the same alternating runs,
# for before/after comparisons.
set -u
BUILD=${1:-build}
RUNS=${FWLENS_BENCH_RUNS:-9}
[ "$RUNS" -ge 5 ] 2>/dev/null || RUNS=5
SRCDIR=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck disable=SC1091 # tools/bench-lib.sh, checked on its own
. "$SRCDIR/tools/bench-lib.sh"
BENCH_T0=$(date +%s)
CORPUS=${FWLENS_CORPUS:-$SRCDIR/../shared/corpus}
FWLENS=$BUILD/fwlens
FLOOR=$BUILD/bench/inflate-floor
RUNT=$BUILD/bench/run-timed
OUT=${FWLENS_BENCH_OUT:-$BUILD/bench}
IFRX=${IFREXTRACTOR:-$(command -v ifrextractor 2>/dev/null || echo /usr/local/bin/ifrextractor)}
BASE=${FWLENS_BENCH_BASELINE:-}
mkdir -p "$OUT"

for need in "$FWLENS" "$FLOOR" "$RUNT"; do
	if [ ! -x "$need" ]; then
		echo "bench: $need is missing (make bench builds fwlens, the floor program and run-timed)" >&2
		exit 1
	fi
done
HAVE_UE=0
command -v UEFIExtract >/dev/null 2>&1 && HAVE_UE=1
[ "$HAVE_UE" = 1 ] || echo "bench: UEFIExtract is not installed (uefitool-cli): its columns stay empty" >&2
HAVE_IFRX=0
[ -x "$IFRX" ] && HAVE_IFRX=1
[ "$HAVE_IFRX" = 1 ] || echo "bench: IFRExtractor-RS is not installed: the unpack column is UEFIExtract alone" >&2

TMP=$(mktemp -d "${TMPDIR:-/tmp}/fwlens-bench.XXXXXX")
trap 'rm -rf "$TMP"' EXIT INT TERM

# timed LOG CMD...: one run; appends "wall cpu rss_kb exit" to $TMP/LOG (run-timed: the monotonic
# clock and wait4's rusage, to the microsecond)
timed() {
	log=$1
	shift
	"$RUNT" "$@" >>"$TMP/$log"
}
col() { [ -f "$TMP/$1" ] && awk -v c="$2" '{ print $c }' "$TMP/$1" | median; }
# progress TEXT: one line on stderr, redrawn in place, only when stderr is a terminal ("" clears it).
progress() {
	[ -t 2 ] || return 0
	printf '\r\033[K%s' "${1:+bench: $1}" >&2
}
num() { [ -n "$1" ] && echo "$1" || echo null; }
THREADS=${FWLENS_THREADS:-$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)}
# lzma_windows_kb IMG...: KiB of the THREADS largest LZMA dictionaries liblzma fills while the
# images' sections inflate (each holds min(decompressed size, dictionary size) bytes; the images
# of a diff share the threads)
lzma_windows_kb() {
	for i in "$@"; do "$FWLENS" tree "$i" --format json 2>/dev/null; done |
		awk -F': ' '/"DecompressedSize"/ { d = $2 + 0 } /"DictionarySize"/ { w = $2 + 0; print (d < w ? d : w) }' |
		sort -n -r | head -n "$THREADS" | awk '{ s += $1 } END { printf "%d\n", s / 1024 }'
}

# The UEFIExtract + IFRExtractor-RS pipeline, in a folder of its own (both write beside their input).
cat >"$TMP/unpack-ifrx.sh" <<EOF
#!/bin/sh
cd "\$1" || exit 1
UEFIExtract image.bin unpack >/dev/null 2>&1
if [ "$HAVE_IFRX" = 1 ]; then
	for f in image.bin.dump/Section_PE32_image_*_body.bin image.bin.dump/Section_Freeform_subtype_GUID_*_body.bin; do
		[ -f "\$f" ] && "$IFRX" "\$f" >/dev/null 2>&1
	done
fi
exit 0
EOF
chmod +x "$TMP/unpack-ifrx.sh"

# The dense images, made once per build of the sample builder (its SHA-256 names the folder, so
# a changed builder makes them again and an unchanged one never does)
DENSE_MIB=128
DENSE_DIR=$BUILD/bench/dense-$(sha256sum "$BUILD/fwlens-samples" 2>/dev/null | cut -c1-16)
# dense_image NAME KIND: the image's path (NAME LZMA or ZLIB, KIND lzma or zlib), made if missing
dense_image() {
	f="$DENSE_DIR/DENSE-$1-${DENSE_MIB}M.FD"
	if [ ! -r "$f" ] && [ -x "$BUILD/fwlens-samples" ]; then
		for old in "$BUILD"/bench/dense-*; do
			[ "$old" != "$DENSE_DIR" ] && [ -d "$old" ] && rm -rf "$old"
		done
		mkdir -p "$DENSE_DIR"
		"$BUILD/fwlens-samples" --dense "$2" --mib "$DENSE_MIB" --out "$DENSE_DIR.tmp" >&2 &&
			mv "$DENSE_DIR.tmp/DENSE-$1-${DENSE_MIB}M.FD" "$f"
		rm -rf "$DENSE_DIR.tmp"
	fi
	echo "$f"
}

IMAGES=${FWLENS_BENCH_IMAGES:-ovmf aavmf wrx90e sample-1104 sample-1201 dense-lzma dense-zlib}
RATIOS=$OUT/ratios-images.tsv
: >"$RATIOS"
path_of() {
	case $1 in
	dense-lzma) dense_image LZMA lzma ;;
	dense-zlib) dense_image ZLIB zlib ;;
	ovmf) echo /usr/share/OVMF/OVMF_CODE_4M.fd ;;
	aavmf) echo /usr/share/AAVMF/AAVMF_CODE.fd ;;
	wrx90e) echo "$CORPUS/firmware/asus-wrx90e-sage-se-1203_rebuilt.cap" ;;
	sample-1104) echo "$BUILD/samples/ESC8000A-E13-ASUS-1104.CAP" ;;
	sample-1201) echo "$BUILD/samples/ESC8000A-E13-ASUS-1201.CAP" ;;
	esac
}

printf '%-12s %-9s | %8s %6s %8s | %-23s %8s %6s %8s | %6s | %8s %s\n' image command wall cpu RSS "beside" wall cpu RSS ratio floor "RSS budget"
json="{\"runs\": $RUNS, \"baseline\": $([ -n "$BASE" ] && echo "\"$BASE\"" || echo null), \"uefiextract\": $([ "$HAVE_UE" = 1 ] && echo true || echo false), \"ifrextractor\": $([ "$HAVE_IFRX" = 1 ] && echo true || echo false), \"images\": ["
isep=""
goals=""
for name in $IMAGES; do
	src=$(path_of "$name")
	if [ -z "$src" ] || [ ! -r "$src" ]; then
		echo "$name: skipped, ${src:-no such image} not found" >&2
		continue
	fi
	img="$TMP/$name.bin"
	cp "$src" "$img"
	# the dense images are there for the memory budget: the commands that hold the whole tree,
	# no diff, and no UEFIExtract (minutes a run on 1,800 compressed files)
	cmds="ifr settings query" ue=$HAVE_UE
	case $name in dense-*) cmds="query" ue=0 ;; esac
	# diff: the two samples against each other; a real image against a copy of itself (a file of
	# its own, so both sides are mapped and read as two inputs would be)
	case $name in
	sample-1104) other=$(path_of sample-1201) ;;
	sample-1201) other="" ;;
	dense-*) other="" ;;
	*) other="$TMP/$name.copy.bin" && cp "$src" "$other" ;;
	esac
	[ -n "$other" ] && [ ! -r "$other" ] && other=""
	rm -f "$TMP"/fw.* "$TMP"/base.* "$TMP"/ue.* "$TMP"/floor.*
	load_before=$(load)
	i=0
	while [ "$i" -lt "$RUNS" ]; do
		progress "$name: run $((i + 1)) of $RUNS"
		timed fw.tree "$FWLENS" tree "$img"
		[ -n "$BASE" ] && timed base.tree "$BASE" tree "$img"
		if [ "$ue" = 1 ]; then
			rm -f "$img.report.txt"
			timed ue.report UEFIExtract "$img" report
			rm -rf "$TMP/unpack" && mkdir -p "$TMP/unpack" && cp "$img" "$TMP/unpack/image.bin"
			timed ue.unpack "$TMP/unpack-ifrx.sh" "$TMP/unpack"
		fi
		for cmd in $cmds; do
			timed "fw.$cmd" "$FWLENS" "$cmd" "$img"
			[ -n "$BASE" ] && timed "base.$cmd" "$BASE" "$cmd" "$img"
		done
		if [ -n "$other" ]; then
			timed fw.diff "$FWLENS" diff "$img" "$other"
			[ -n "$BASE" ] && timed base.diff "$BASE" diff "$img" "$other"
		fi
		"$FLOOR" "$img" | awk '{ print $1 }' >>"$TMP/floor.$name"
		i=$((i + 1))
	done
	load_after=$(load)
	progress ""
	rm -rf "$TMP/unpack" "$img.report.txt"
	size=$(wc -c <"$img")
	inflated=$("$FWLENS" info "$img" --format json | sed -n 's/.*"decompressed_bytes": \([0-9]*\).*/\1/p')
	inflated=${inflated:-0}
	floor=$(median <"$TMP/floor.$name")
	windows_kb=$(lzma_windows_kb "$img")
	budget_kb=$(((size + inflated) / 1024 + windows_kb + 16384))
	ue_rep_wall=$(col ue.report 1) ue_rep_cpu=$(col ue.report 2) ue_rep_rss=$(col ue.report 3)
	ue_unp_wall=$(col ue.unpack 1) ue_unp_cpu=$(col ue.unpack 2) ue_unp_rss=$(col ue.unpack 3)
	json="$json$isep{\"image\": \"$name\", \"path\": \"$src\", \"size\": $size, \"decompressed\": $inflated, \"floor_s\": $(num "$floor"), \"lzma_windows_kb\": $windows_kb, \"rss_budget_kb\": $budget_kb,"
	json="$json \"uefiextract_report\": {\"wall_s\": $(num "$ue_rep_wall"), \"cpu_s\": $(num "$ue_rep_cpu"), \"rss_kb\": $(num "$ue_rep_rss")},"
	json="$json \"uefiextract_unpack_ifrextractor\": {\"wall_s\": $(num "$ue_unp_wall"), \"cpu_s\": $(num "$ue_unp_cpu"), \"rss_kb\": $(num "$ue_unp_rss")},"
	json="$json \"commands\": ["
	csep=""
	tree_wall="" ifr_wall="" worst_rss="" worst_cmd=""
	for cmd in tree ifr settings query diff; do
		[ -f "$TMP/fw.$cmd" ] || continue
		wall=$(col "fw.$cmd" 1) cpu=$(col "fw.$cmd" 2) rss=$(col "fw.$cmd" 3)
		budget=$budget_kb
		if [ "$cmd" = diff ]; then
			osize=$(wc -c <"$other")
			oinfl=$("$FWLENS" info "$other" --format json | sed -n 's/.*"decompressed_bytes": \([0-9]*\).*/\1/p')
			# both inputs, both images' decompressed bytes, the largest LZMA windows of the two
			# (the sides share the threads), and one 16 MiB for the program and both models
			budget=$(((size + inflated + osize + ${oinfl:-0}) / 1024 + $(lzma_windows_kb "$img" "$other") + 16384))
		fi
		# the ratio: the median of the per-run ratios to what ran beside it in the same run
		case $cmd in
		tree) beside="UEFIExtract report" bw=$ue_rep_wall bc=$ue_rep_cpu br=$ue_rep_rss tree_wall=$wall
			pr=$(paired "$TMP/fw.tree" 1 "$TMP/ue.report" 1) ;;
		diff) beside="2 x fwlens ifr" bw=$(awk -v a="$ifr_wall" 'BEGIN { if (a != "") printf "%.4f", 2 * a }') bc="" br=""
			pr=$(paired "$TMP/fw.diff" 1 "$TMP/fw.ifr" 1 2) ;;
		*) beside="UEFIExtract unpack+ifrx" bw=$ue_unp_wall bc=$ue_unp_cpu br=$ue_unp_rss
			pr=$(paired "$TMP/fw.$cmd" 1 "$TMP/ue.unpack" 1) ;;
		esac
		[ "$cmd" = ifr ] && ifr_wall=$wall
		r=${pr%% *} spread=${pr#* }
		rss_ok=$([ "$rss" -le "$budget" ] && echo true || echo false)
		# the command closest to its budget, for the table of ratios (the budget as a run of its own)
		if [ -z "$worst_rss" ] || awk -v a="$rss" -v b="$budget" -v w="$worst_rss" 'BEGIN { exit !(a / b > w) }'; then
			worst_rss=$(awk -v a="$rss" -v b="$budget" 'BEGIN { print a / b }') worst_cmd=$cmd
			awk -v b="$budget" '{ print b }' "$TMP/fw.$cmd" >"$TMP/budget"
		fi
		printf '%-12s %-9s | %7ss %5ss %7dK | %-23s %7ss %5ss %7sK | %6s %5s | %7ss %dK of %dK %s\n' "$name" "$cmd" "$wall" "$cpu" "$rss" \
			"$beside" "${bw:--}" "${bc:--}" "${br:--}" "${r:--}" "${spread:+${spread}x}" "${floor:--}" "$rss" "$budget" \
			"$([ "$rss_ok" = true ] && echo ok || echo OVER)"
		json="$json$csep{\"command\": \"$cmd\", \"wall_s\": $wall, \"cpu_s\": $cpu, \"rss_kb\": $rss, \"rss_budget_kb\": $budget, \"rss_ok\": $rss_ok,"
		json="$json \"beside\": \"$beside\", \"beside_wall_s\": $(num "$bw"), \"ratio\": $(num "$r"), \"spread\": $(num "$spread")"
		if [ -n "$BASE" ]; then
			bwall=$(col "base.$cmd" 1) bcpu=$(col "base.$cmd" 2) brss=$(col "base.$cmd" 3)
			json="$json, \"baseline\": {\"wall_s\": $(num "$bwall"), \"cpu_s\": $(num "$bcpu"), \"rss_kb\": $(num "$brss")}"
			printf '%-12s %-9s | %7ss %5ss %7sK\n' "" "(before)" "${bwall:--}" "${bcpu:--}" "${brss:--}"
		fi
		json="$json}"
		csep=", "
		goal="" limit=""
		case "$name:$cmd" in
		aavmf:tree) limit=0.20 goal="tree on AAVMF vs UEFIExtract report:$limit:$r" ;;
		wrx90e:tree) limit=0.25 goal="tree on the WRX90E capsule vs UEFIExtract report:$limit:$r" ;;
		wrx90e:ifr) limit=0.35 goal="ifr of the WRX90E capsule vs UEFIExtract unpack + IFRExtractor-RS:$limit:$r" ;;
		esac
		# the rows of the table of ratios: tree and ifr beside UEFIExtract, diff beside one ifr
		case $cmd in
		tree) [ -n "$r" ] && ratio_row "$RATIOS" "$name: tree / UEFIExtract report (wall)" "$pr" "$load_before" "$load_after" "$limit"
			[ -n "$r" ] && ratio_row "$RATIOS" "$name: tree / UEFIExtract report (CPU)" "$(paired "$TMP/fw.tree" 2 "$TMP/ue.report" 2)" \
				"$load_before" "$load_after" ;;
		ifr) [ -n "$r" ] && ratio_row "$RATIOS" "$name: ifr / UEFIExtract unpack+ifrx (CPU)" "$(paired "$TMP/fw.ifr" 2 "$TMP/ue.unpack" 2)" \
			"$load_before" "$load_after" ;;
		diff)
			pd=$(paired "$TMP/fw.diff" 1 "$TMP/fw.ifr" 1)
			case $name in sample-1104 | wrx90e) limit=2.0 ;; esac
			case $name in
			sample-1104) goal="diff of the two 32 MiB sample capsules vs one ifr:2.0:${pd%% *}" ;;
			wrx90e) goal="diff of the WRX90E capsule and a copy vs one ifr:2.0:${pd%% *}" ;;
			esac
			ratio_row "$RATIOS" "$name: diff / one ifr (wall)" "$pd" "$load_before" "$load_after" "$limit" ;;
		esac
		[ -n "$goal" ] && goals="$goals$goal
"
		goals="$goals$name $cmd peak RSS vs its budget:1.0:$(ratio "$rss" "$budget")
"
	done
	case $other in "$TMP"/*) rm -f "$other" ;; esac
	x_floor=$(ratio "$tree_wall" "$floor")
	ratio_row "$RATIOS" "$name: tree / bare inflate of its sections (wall)" "$(paired "$TMP/fw.tree" 1 "$TMP/floor.$name" 1)" \
		"$load_before" "$load_after"
	ratio_row "$RATIOS" "$name: peak RSS / budget ($worst_cmd, the closest)" "$(paired "$TMP/fw.$worst_cmd" 3 "$TMP/budget" 1)" \
		"$load_before" "$load_after" 1.0
	json="$json], \"tree_x_floor\": $(num "$x_floor"), \"load_before\": \"$load_before\", \"load_after\": \"$load_after\"}"
	isep=", "
done
json="$json], \"goals\": ["
gsep=""
met_all=true
echo
printf '%-72s %8s %8s %s\n' goal limit measured verdict
printf '%s' "$goals" | while IFS=: read -r what limit value; do
	[ -n "$what" ] || continue
	verdict=$(awk -v v="$value" -v l="$limit" 'BEGIN { if (v == "") print "n/a"; else if (v <= l) print "met"; else print "MISSED" }')
	case "$what" in *"peak RSS"*) [ "$verdict" = met ] && continue ;; esac
	printf '%-72s %8s %8s %s\n' "$what" "$limit" "${value:--}" "$verdict"
done
printf '%s' "$goals" >"$TMP/goals"
while IFS=: read -r what limit value; do
	[ -n "$what" ] || continue
	met=$(awk -v v="$value" -v l="$limit" 'BEGIN { if (v == "") print "null"; else if (v <= l) print "true"; else print "false" }')
	[ "$met" = false ] && met_all=false
	json="$json$gsep{\"goal\": \"$what\", \"limit\": $limit, \"measured\": $(num "$value"), \"met\": $met}"
	gsep=", "
done <"$TMP/goals"
json="$json], \"all_goals_met\": $met_all}"
printf '%s\n' "$json" >"$OUT/bench.json"
echo "(peak RSS goals are listed only when missed; every figure is in $OUT/bench.json)"
echo "floor: liblzma/zlib inflate time of the image's compressed sections alone"

# JSON and XML beside text: the streamed writers against the text writers.
echo
"$SRCDIR/tools/bench-formats.sh" "$BUILD"

# The fleet case: doctor over 100 snapshots sharing one image, with and without the cache.
echo
"$SRCDIR/tools/bench-fleet.sh" "$BUILD"

# Every ratio of the three, with its spread and the load around it
echo
echo "ratios (median of $RUNS runs of A/B, A and B alternating; spread: the largest run's ratio over the smallest's;"
echo "a spread over ${BENCH_MAX_SPREAD}x is not reproducible at that load; $(nproc) CPUs; make bench took $(($(date +%s) - BENCH_T0)) s)"
ratio_table "$RATIOS" "$OUT/ratios-formats.tsv" "$OUT/ratios-fleet.tsv" | tee "$OUT/ratios.txt"
