#!/bin/sh
# The layering holds by a check, not by discipline: tools/layers.sh finds every include that
# points up or sideways and every symbol a layer's archive takes from a layer above or beside
# (its findings are printed), that the Makefile links the archives top layer first, and that no
# object below the query layer opens a path; on the tree and its build, and on planted mistakes.
. "$(dirname "$0")/lib.sh"

LAYERS="$FWLENS_SRCDIR/tools/layers.sh"
T_STATUS=0
sh "$LAYERS" "$FWLENS_SRCDIR" "$FWLENS_BUILD" >"$T_OUT" 2>&1 || T_STATUS=$?
sed 's/^/# /' "$T_OUT"
if [ "$T_STATUS" -eq 0 ]; then pass tree-layers-hold; else fail tree-layers-hold "$(grep -c -e includes -e uses "$T_OUT") findings"; fi
t_contains tree-link-order "linked as query host acpi ifr capsule base"
# no object below the query layer opens a path, but the ones named
t_contains tree-paths "calls that open a path (allowed: base:file.o base:cleanup.o acpi:iasl.o capsule:signature.o)"
t_contains tree-paths-none ", 0 calls that open a path"

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

# planted in a copy of the tree: one real file of the IFR layer including the ACPI layer beside it
for d in parsers capsule ifr acpi tools/host tools/query tools/cli samples; do
	mkdir -p "$T_DIR/copy/$d"
	cp "$FWLENS_SRCDIR/$d"/*.[ch] "$T_DIR/copy/$d/"
done
sed -i '0,/^#include "/s//#include "acpi\/set.h"\n#include "/' "$T_DIR/copy/ifr/hii.c"
T_STATUS=0
sh "$LAYERS" "$T_DIR/copy" >"$T_OUT" 2>&1 || T_STATUS=$?
[ "$T_STATUS" -eq 1 ] && pass copy-planted-exit-1 || fail copy-planted-exit-1 "exit $T_STATUS"
t_contains copy-planted-sideways "ifr/hii.c: includes acpi/set.h (sideways: ifr is layer 2, acpi is layer 2)"
t_contains copy-planted-one "1 pointing up or sideways"

# planted in a copy of the build: the base layer's archive calling up into the ACPI layer
mkdir -p "$T_DIR/build"
cp "$FWLENS_BUILD"/libfwlens-*.a "$T_DIR/build/"
printf 'struct fw_acpi_set *fw_acpi_set_new(void);\nvoid *planted_call_up(void) { return fw_acpi_set_new(); }\n' >"$T_DIR/planted.c"
if ${CC:-cc} -c -o "$T_DIR/planted.o" "$T_DIR/planted.c" 2>"$T_ERR" && ar rs "$T_DIR/build/libfwlens-base.a" "$T_DIR/planted.o" 2>>"$T_ERR"; then
	T_STATUS=0
	sh "$LAYERS" "$FWLENS_SRCDIR" "$T_DIR/build" >"$T_OUT" 2>&1 || T_STATUS=$?
	[ "$T_STATUS" -eq 1 ] && pass planted-link-exit-1 || fail planted-link-exit-1 "exit $T_STATUS"
	t_contains planted-link-up "libfwlens-base.a: uses fw_acpi_set_new of libfwlens-acpi.a (up: base is layer 0, acpi is layer 2)"
else
	fail planted-link-build "$(cat "$T_ERR")"
fi

# planted in a copy of the Makefile: the archives linked bottom layer first
mkdir -p "$T_DIR/order"
sed 's/^LIB := $(foreach l,query host acpi ifr capsule base,/LIB := $(foreach l,base capsule ifr acpi host query,/' \
	"$FWLENS_SRCDIR/Makefile" >"$T_DIR/order/Makefile"
T_STATUS=0
sh "$LAYERS" "$T_DIR/order" "$FWLENS_BUILD" >"$T_OUT" 2>&1 || T_STATUS=$?
[ "$T_STATUS" -eq 1 ] && pass planted-order-exit-1 || fail planted-order-exit-1 "exit $T_STATUS"
t_contains planted-order "Makefile: the archives are linked as 'base capsule ifr acpi host query', not top layer first ('query host acpi ifr capsule base')"

# planted in a copy of the build: an ACPI object listing a folder itself
mkdir -p "$T_DIR/opens"
cp "$FWLENS_BUILD"/libfwlens-*.a "$T_DIR/opens/"
printf '#include <dirent.h>\nvoid *planted_sysfs(void) { return opendir("sys/devices"); }\n' >"$T_DIR/sysfs.c"
if ${CC:-cc} -c -o "$T_DIR/sysfs.o" "$T_DIR/sysfs.c" 2>"$T_ERR" && ar rs "$T_DIR/opens/libfwlens-acpi.a" "$T_DIR/sysfs.o" 2>>"$T_ERR"; then
	T_STATUS=0
	sh "$LAYERS" "$FWLENS_SRCDIR" "$T_DIR/opens" >"$T_OUT" 2>&1 || T_STATUS=$?
	[ "$T_STATUS" -eq 1 ] && pass planted-opens-exit-1 || fail planted-opens-exit-1 "exit $T_STATUS"
	t_contains planted-opens "libfwlens-acpi.a: sysfs.o calls opendir (opens a path below the query layer)"
	t_contains planted-opens-one ", 1 calls that open a path"
else
	fail planted-opens-build "$(cat "$T_ERR")"
fi
