# Shared helpers for CLI golden tests (sourced by tests/cli/t*.sh).
#
#   t_run NAME EXIT CMD...          run CMD, expect exit status EXIT; output in $T_OUT/$T_ERR
#   t_golden NAME GOLDEN CMD...     run CMD, expect exit 0 (or $T_EXIT) and stdout == GOLDEN file
#   t_contains NAME TEXT            the last stdout contains TEXT
#   t_need_file NAME PATH WHY       skip NAME (return 1) when PATH is missing
#   t_need_cmd NAME CMD             skip NAME (return 1) when CMD is not installed
#   t_in_dir DIR CMD...             run CMD in DIR (golden output then names its input by bare name)
# FWLENS_UPDATE_GOLDEN=1 rewrites golden files from the actual output.
set -u
: "${FWLENS:?FWLENS is set by tests/run.sh}"
: "${FWLENS_SRCDIR:=.}"
T_DIR=$(mktemp -d "${TMPDIR:-/tmp}/fwlens-cli.XXXXXX")
trap 'rm -rf "$T_DIR"' EXIT INT TERM
# commands that read machines cache decoded firmware: each test its own cache
export XDG_CACHE_HOME="$T_DIR/xdg-cache"
# PCI device names from a fixed list, not the pci.ids version of this machine (t0035 checks that one)
export FWLENS_PCI_IDS="$FWLENS_SRCDIR/tests/data/pci/pci.ids"
T_OUT="$T_DIR/stdout"
T_ERR="$T_DIR/stderr"
T_SUITE=$(basename "$0" .sh)
SAMPLES="$FWLENS_BUILD/samples"
CORPUS=${FWLENS_CORPUS:-$FWLENS_SRCDIR/../shared/corpus}

fwlens() { "$FWLENS" "$@"; }
pass() { echo "ok $T_SUITE/$1"; }
fail() { echo "FAIL $T_SUITE/$1: $2"; }
skip() { echo "skip $T_SUITE/$1: $2"; }

t_exec() {
	T_STATUS=0
	"$@" >"$T_OUT" 2>"$T_ERR" || T_STATUS=$?
}

t_run() {
	name=$1 want=$2
	shift 2
	t_exec "$@"
	if [ "$T_STATUS" -ne "$want" ]; then
		fail "$name" "exit $T_STATUS, expected $want; stderr: $(head -c 300 "$T_ERR" | tr '\n' ' ')"
		return 1
	fi
	pass "$name"
}

t_golden() {
	name=$1 golden=$2
	shift 2
	want=${T_EXIT:-0}
	t_exec "$@"
	if [ "$T_STATUS" -ne "$want" ]; then
		fail "$name" "exit $T_STATUS, expected $want; stderr: $(head -c 300 "$T_ERR" | tr '\n' ' ')"
		return 1
	fi
	if [ "${FWLENS_UPDATE_GOLDEN:-0}" = 1 ]; then
		mkdir -p "$(dirname "$golden")"
		cp "$T_OUT" "$golden"
	fi
	if [ ! -f "$golden" ]; then
		fail "$name" "golden file $golden is missing (FWLENS_UPDATE_GOLDEN=1 creates it)"
		return 1
	fi
	if ! diff -u "$golden" "$T_OUT" >"$T_DIR/diff"; then
		fail "$name" "output differs from $golden: $(head -n 12 "$T_DIR/diff" | tr '\n' ' ')"
		return 1
	fi
	pass "$name"
}

t_contains() {
	name=$1 text=$2
	if grep -qF -- "$text" "$T_OUT"; then
		pass "$name"
	else
		fail "$name" "output does not contain: $text"
		return 1
	fi
}

t_need_file() {
	if [ -e "$2" ]; then return 0; fi
	skip "$1" "$3 ($2 not found)"
	return 1
}

t_need_cmd() {
	if command -v "$2" >/dev/null 2>&1; then return 0; fi
	skip "$1" "$2 is not installed"
	return 1
}

# t_cache_image NAME: the sample 1104 capsule as the cache tests use it: CAP, its copy
# $T_DIR/images/BIOS-1104.CAP (what --image-ref snapshots name), and SHA and RULES, the halves of its
# cache entry's name forms-SHA-RULES.bin (the image's SHA-256, the built-in rules' SHA-256); skips
# NAME when the samples are not built
t_cache_image() {
	CAP="$SAMPLES/ESC8000A-E13-ASUS-1104.CAP"
	t_need_file "$1" "$CAP" "the sample capsules are built by make samples" || return 1
	mkdir -p "$T_DIR/images"
	cp "$CAP" "$T_DIR/images/BIOS-1104.CAP"
	SHA=$(sha256sum "$CAP" | cut -d' ' -f1)
	RULES=$(sha256sum "$FWLENS_SRCDIR/tools/query/rules/topics.xml" | cut -d' ' -f1)
}

t_in_dir() {
	d=$1
	shift
	(cd "$d" && "$@")
}
