#!/bin/sh
# tools/bench-compare.sh: two runs' ratios side by side, how far apart (the larger over the
# smaller), within 20% or not; a ratio one run lacks; exit 1 when one moved more, 2 without ratios.
. "$(dirname "$0")/lib.sh"

CMP="$FWLENS_SRCDIR/tools/bench-compare.sh"
mkdir -p "$T_DIR/a" "$T_DIR/b" "$T_DIR/empty"
tab=$(printf '\t')
row() { printf '%s\n' "$1${tab}$2${tab}1.05${tab}0.08${tab}$3${tab}$3${tab}met"; }
{
	row "fleet: warm doctor / cold doctor (wall)" 0.074 "0.93 0.91 1.59"
	row "fleet: warm doctor / cold doctor (CPU)" 0.059 "0.93 0.91 1.59"
} >"$T_DIR/a/ratios-fleet.tsv"
row "acpi --format json / text (CPU)" 1.019 "1.16 1.08 1.39" >"$T_DIR/a/ratios-formats.tsv"
{
	row "fleet: warm doctor / cold doctor (wall)" 0.080 "1.20 1.00 0.90"
	row "fleet: warm doctor / cold doctor (CPU)" 0.074 "1.20 1.00 0.90"
	row "ivrs --format json / text (CPU)" 1.070 "1.20 1.00 0.90"
} >"$T_DIR/b/ratios-fleet.tsv"
row "acpi --format json / text (CPU)" 0.900 "1.10 1.00 0.90" >"$T_DIR/b/ratios-formats.tsv"

t_run moved 1 sh "$CMP" "$T_DIR/a" "$T_DIR/b"
# 0.080 / 0.074 = 1.08 within; 0.074 / 0.059 = 1.25 apart; 1.019 / 0.900 = 1.13 within
grep -q "^fleet: warm doctor / cold doctor (wall) *0.074 *0.080 *1.08x | 0.93 0.91 1.59 *1.20 1.00 0.90 *| within 20%$" "$T_OUT" &&
	pass moved-wall-within || fail moved-wall-within "$(head -n 3 "$T_OUT" | tr '\n' ' ')"
grep -q "^fleet: warm doctor / cold doctor (CPU) *0.059 *0.074 *1.25x .*| apart by more than 20%$" "$T_OUT" &&
	pass moved-cpu-apart || fail moved-cpu-apart "$(sed -n 3p "$T_OUT")"
grep -q "^acpi --format json / text (CPU) *1.019 *0.900 *1.13x .*| within 20%$" "$T_OUT" &&
	pass moved-acpi-within || fail moved-acpi-within "$(grep acpi "$T_OUT")"
grep -q "^ivrs --format json / text (CPU) *- *1.070 *- .*| in one run only$" "$T_OUT" &&
	pass one-run-only || fail one-run-only "$(grep ivrs "$T_OUT")"
[ "$(tail -n 1 "$T_OUT")" = "2 of 3 ratios within 20% from run A to run B" ] &&
	pass moved-summary || fail moved-summary "$(tail -n 1 "$T_OUT")"

t_run same 0 sh "$CMP" "$T_DIR/a" "$T_DIR/a"
[ "$(tail -n 1 "$T_OUT")" = "3 of 3 ratios within 20% from run A to run B" ] &&
	pass same-summary || fail same-summary "$(tail -n 1 "$T_OUT")"

t_run no-ratios 2 sh "$CMP" "$T_DIR/a" "$T_DIR/empty"
grep -q "holds no ratios" "$T_ERR" && pass no-ratios-said || fail no-ratios-said "$(cat "$T_ERR")"
t_run usage 2 sh "$CMP" "$T_DIR/a"
