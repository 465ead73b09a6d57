#!/bin/sh
# The layering holds by a check, not by discipline: tools/layers.sh finds every include that
# points up or sideways (its findings are printed), on the tree and on planted mistakes.
. "$(dirname "$0")/lib.sh"

LAYERS="$FWLENS_SRCDIR/tools/layers.sh"
T_STATUS=0
sh "$LAYERS" "$FWLENS_SRCDIR" >"$T_OUT" 2>&1 || T_STATUS=$?
sed 's/^/# /' "$T_OUT"
if [ "$T_STATUS" -eq 0 ]; then pass tree-layers-hold; else fail tree-layers-hold "$(grep -c includes "$T_OUT") includes point up or sideways"; fi

# planted: the base layer including the ACPI layer (up), and ACPI including IFR (sideways)
mkdir -p "$T_DIR/src/parsers" "$T_DIR/src/acpi" "$T_DIR/src/ifr"
printf '#include "acpi/table.h"\n#include "parsers/view.h"\n' >"$T_DIR/src/parsers/bad.c"
printf '#include "ifr/ifr.h"\n#include "parsers/view.h"\n' >"$T_DIR/src/acpi/bad.c"
printf '#include "parsers/view.h"\n' >"$T_DIR/src/ifr/good.c"
T_STATUS=0
sh "$LAYERS" "$T_DIR/src" >"$T_OUT" 2>&1 || T_STATUS=$?
[ "$T_STATUS" -eq 1 ] && pass planted-exit-1 || fail planted-exit-1 "exit $T_STATUS"
t_contains planted-up "parsers/bad.c: includes acpi/table.h (up: parsers is layer 0, acpi is layer 2)"
t_contains planted-sideways "acpi/bad.c: includes ifr/ifr.h (sideways: acpi is layer 2, ifr is layer 2)"
t_contains planted-count "4 includes between folders checked, 2 pointing up or sideways"
